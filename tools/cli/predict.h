/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict: its tracing configurations, as the command
 * drives them.  Calls go one way, down:
 *
 *   predict.c          the command line and its steps; the costs of
 *                      the bench's rows (mechanisms.h)
 *   predict-run.c      the runs of the workload, in a cgroup of its own
 *   predict-format.c   the rows printed, through the output layer
 *   predict-model.c    the cost model (predict-model.h)
 *   predict-tracers.c  the tracing configurations: each one's set-up,
 *                      start and stop around one run, its events counted,
 *                      its teardown
 *   tracers.h          the tracers' layer under both commands: tracefs,
 *                      the tracers' commands, LTTng's sessions
 *
 * No file of predict calls a file of the bench's command (bench.c).
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_H
#define LTTNG_CALIBRATE_CLI_PREDICT_H

#include <stdbool.h>

#include "../lib/cgroup.h"
#include "tracers.h"


/**
 * struct lc_predict_set - a named set of kernel events
 * @name: its name, in the configurations' names ("syscalls-sched")
 * @sched: sched_switch and sched_wakeup
 * @irq: irq_handler_entry and irq_handler_exit
 * @syscalls: every system call's entry and exit
 * @lttng_probes: LTTng's probes of its tracepoints (--kmod-probes), or
 *	NULL when LTTng's tracer has them itself (the system calls)
 */
struct lc_predict_set {
	const char *name;
	bool sched;
	bool irq;
	bool syscalls;
	const char *lttng_probes;
};

/**
 * struct lc_predict_ctx - what the tracers see
 * @bench: the scratch directory, tracefs, what was changed (LC_T_*), the
 *	LTTng session and the lttng-sessiond started
 * @set: the event set traced
 * @function: the kernel function of the function probes, or NULL
 * @tracer: the tracer running in the background during a run (perf
 *	record, bpftrace), until stopped
 * @perf_ctl: the write end of perf record's control pipe, kept open while
 *	it runs (a hang-up there breaks perf 6.1's poll loop), when
 *	@perf_ctl_open
 * @perf_ctl_open: see @perf_ctl
 * @run: the run's number, for the names of its files
 * @cgroup: the cgroup the command runs in (predict-run.c)
 * @enabled: tracefs event files (relative to tracefs) this tool enabled
 * @nr_enabled: how many
 */
struct lc_predict_ctx {
	struct lc_tracer_ctx bench;
	const struct lc_predict_set *set;
	const char *function;
	struct lc_proc tracer;
	int perf_ctl;
	bool perf_ctl_open;
	int run;
	struct lc_cgroup cgroup;
	char enabled[8][96];
	int nr_enabled;
};

/**
 * struct lc_predict_tracer - one way of tracing the workload
 * @name: what --mechanism takes
 * @function: it traces --function, not the event set
 * @cost: the bench row whose overhead per call is the cost of one event
 * @prepare: check that it can run here; why says why not
 * @start: before one run: tracing on, nothing recorded yet
 * @stop: after the run: tracing off; the events it recorded and lost
 * @teardown: undo whatever @prepare and @start did; idempotent
 */
struct lc_predict_tracer {
	const char *name;
	bool function;
	const char *cost;
	enum lc_tracer_prep (*prepare)(struct lc_predict_ctx *pc, char *why,
				       size_t len);
	int (*start)(struct lc_predict_ctx *pc, char *why, size_t len);
	int (*stop)(struct lc_predict_ctx *pc, long long *events,
		    long long *lost, char *why, size_t len);
	void (*teardown)(struct lc_predict_ctx *pc);
};

/* predict-tracers.c */
extern const struct lc_predict_tracer *const lc_predict_tracers[];
extern const size_t lc_predict_nr_tracers;
extern const struct lc_predict_set lc_predict_sets[];
extern const size_t lc_predict_nr_sets;
void lc_predict_finish(struct lc_predict_ctx *pc);

/* predict.c: the subcommand. */
int lc_predict_main(int argc, char **argv);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_H */
