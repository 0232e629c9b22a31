/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TRACE_INPUT_H
#define LTTNG_CALIBRATE_TRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* longer lines are reported as malformed, never held whole */
#define INPUT_MAX_LINE (1024 * 1024)

/**
 * struct input - reads lines in bounded memory
 * @file:    the stream
 * @block:   bytes read, not yet returned
 * @pos:     first unreturned byte in @block
 * @len:     bytes in @block
 * @line:    the current line, without its newline (or CR LF)
 * @line_len: its length
 * @too_long: the current line was longer than INPUT_MAX_LINE; @line
 *           holds its beginning only
 * @error:   a read error occurred (errno is kept)
 */
struct input {
	FILE *file;
	char block[65536];
	size_t pos;
	size_t len;
	char *line;
	size_t line_len;
	bool too_long;
	bool error;
};

void input_init(struct input *in, FILE *file);
int input_read_line(struct input *in);
void input_free(struct input *in);

#endif
