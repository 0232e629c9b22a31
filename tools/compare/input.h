/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_COMPARE_INPUT_H
#define LTTNG_CALIBRATE_COMPARE_INPUT_H

/**
 * struct input_config - how to find values in an input file
 * @delimiters:    field separators; runs of them count as one
 * @value_column:  1-based column holding the value, 0 if not chosen
 * @label_column:  1-based column holding a label (series label or sample
 *                 name), 0 for none
 * @select_column: 1-based column compared with @select
 * @select:        keep only lines whose @select_column equals this, or NULL
 * @metric:        read "KEY=value" lines of this key instead of columns
 * @comment:       called with each line that starts with '#' (without its
 *                 newline), or NULL; returns 0, or -1 (out of memory)
 * @comment_ctx:   passed to @comment
 *
 * Without @value_column, a line holds a single value, or, when there is
 * a @label_column, every field after the label is a value.
 */
struct input_config {
	const char *delimiters;
	int value_column;
	int label_column;
	int select_column;
	const char *select;
	const char *metric;
	int (*comment)(void *ctx, const char *line);
	void *comment_ctx;
};

/*
 * Called once per value read; @label is the label field, or the file
 * argument in --metric mode, or NULL. Returns 0, or -1 (out of memory).
 */
typedef int (*input_value_fn)(void *ctx, const char *label, double value);

int input_read(const char *path, const struct input_config *config,
	       input_value_fn fn, void *ctx);
int parse_number(const char *text, double *value, const char **why);

#endif
