/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lttng_calibrate module as the command reaches it: where its debugfs
 * and parameter files are, and the set-up (setup.c) and the run (run.c)
 * of the default command, which the bench and predict set up through too.
 */
#ifndef LTTNG_CALIBRATE_CLI_H
#define LTTNG_CALIBRATE_CLI_H

#include <stddef.h>

#include "../lib/lc.h"

#define LC_DEBUGFS		"/sys/kernel/debug"
#define LC_DIR			LC_DEBUGFS "/lttng_calibrate"
#define LC_PARAMS		"/sys/module/lttng_calibrate/parameters"

/* Exit status of a run stopped by SIGINT, as a shell reports it. */
#define LC_EXIT_INTERRUPTED	130

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

struct lc_option;

/* setup.c: -n, root, debugfs, lockdown, the module and its settings. */
int lc_parse_iterations(const char *s, unsigned long long *n);
int lc_opt_iterations(const struct lc_option *opt, const char *arg);
int lc_need_root(void);
int lc_setup(void);
int lc_apply_settings(const struct lc_options *opts);

/* run.c: the run itself and its results. */
int lc_run(const struct lc_options *opts);

#endif /* LTTNG_CALIBRATE_CLI_H */
