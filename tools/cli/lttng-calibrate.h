/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_CLI_H
#define LTTNG_CALIBRATE_CLI_H

#include <stddef.h>

#define LC_DEBUGFS		"/sys/kernel/debug"
#define LC_DIR			LC_DEBUGFS "/lttng_calibrate"
#define LC_PARAMS		"/sys/module/lttng_calibrate/parameters"

/* Exit status of a run stopped by SIGINT, as a shell reports it. */
#define LC_EXIT_INTERRUPTED	130

enum lc_format {
	LC_FORMAT_TABLE,
	LC_FORMAT_CSV,
	LC_FORMAT_JSON,
};

/**
 * struct lc_options - what the command line asked for
 * @iterations: iterations of the run
 * @counters: list for the counters file, or NULL to leave it as it is
 * @probe: mechanism for the probe file, or NULL to leave it as it is
 * @cpu: CPU to run on, or -1 for the module's choice
 * @format: how to print the results
 */
struct lc_options {
	unsigned long long iterations;
	const char *counters;
	const char *probe;
	int cpu;
	enum lc_format format;
};

void lc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* setup.c: debugfs, lockdown, the module and its settings. */
char *lc_read_file(const char *path);
int lc_write_file(const char *path, const char *text);
int lc_setup(void);
int lc_apply_settings(const struct lc_options *opts);

/* run.c: the run itself and its results. */
int lc_run(const struct lc_options *opts);

#endif /* LTTNG_CALIBRATE_CLI_H */
