/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside lttng-calibrate bench: what the measuring engine (bench.c) and the
 * mechanisms (bench-tracers.c) share.
 */
#ifndef LTTNG_CALIBRATE_CLI_BENCH_RUN_H
#define LTTNG_CALIBRATE_CLI_BENCH_RUN_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "../lib/lc.h"
#include "bench.h"

#define LC_BENCH_TRACEFS	"/sys/kernel/tracing"
#define LC_BENCH_TARGET		"lttng_calibrate_target"
#define LC_BENCH_TP		"lttng_calibrate:lttng_calibrate_event"
#define LC_BENCH_ARGV_MAX	24
#define LC_BENCH_TIMED_OUT	(-2)	/* lc_bench_exec(): stopped by its timeout */

/* What the bench changed, so that teardown undoes exactly that. */
#define LC_T_TRACEFS_MOUNTED	(1u << 0)
#define LC_T_TRACING_ON		(1u << 1)
#define LC_T_BUFFER_SIZE	(1u << 2)
#define LC_T_TRACE_BUFFER	(1u << 3)
#define LC_T_TRACER		(1u << 4)
#define LC_T_FTRACE_FILTER	(1u << 5)
#define LC_T_GRAPH_FILTER	(1u << 6)
#define LC_T_TP_ENABLED		(1u << 7)
#define LC_T_DYN_EVENTS		(1u << 8)
#define LC_T_PERF_PROBE		(1u << 9)
#define LC_T_LTTNG_SESSION	(1u << 10)
#define LC_T_SESSIOND		(1u << 11)

/**
 * struct lc_bench_ctx - the state of one bench
 * @iterations: N, asked of every run
 * @tmpdir: scratch directory (writer script, tracer output, traces)
 * @writer: a script writing N to the run file, for tracers that run a
 *	command (perf record -- CMD, bpftrace -c CMD)
 * @tracefs: where tracefs is mounted, or "" when it is not available
 * @touched: LC_T_* bits: what must be undone
 * @saved_probe: the module's probe setting as found
 * @saved_target: the module's target setting as found
 * @saved_work: the module's work_cycles as found
 * @saved_tracing_on: tracing_on as found
 * @saved_tracer: current_tracer as found
 * @saved_buffer_kb: buffer_size_kb as found
 * @child: the tracer process running during a run (its own process
 *	group), or 0
 * @sessiond: the lttng-sessiond the bench started, or 0
 * @lttng_modules_before: LTTng modules were loaded before the bench
 * @session: the LTTng session's name
 * @results: results_kv of the row's run, or NULL
 */
struct lc_bench_ctx {
	unsigned long long iterations;
	char tmpdir[256];
	char writer[PATH_MAX];
	char tracefs[256];
	unsigned int touched;
	char saved_probe[LC_BENCH_NAME_MAX];
	char saved_target[LC_BENCH_NAME_MAX];
	char saved_work[LC_BENCH_NAME_MAX];
	char saved_tracing_on[8];
	char saved_tracer[64];
	char saved_buffer_kb[32];
	pid_t child;
	pid_t sessiond;
	int lttng_modules_before;
	char session[64];
	char *results;
};

/* How a mechanism's prepare() ended. */
enum lc_bench_prep {
	LC_PREP_OK,
	LC_PREP_UNAVAILABLE,
	LC_PREP_FAILED,
};

/**
 * struct lc_bench_mech - one mechanism, a row of the bench
 * @name: the row's name
 * @probe: what the module's probe file is set to for the run
 * @target: what the module's target file is set to for the run
 * @lttng: uses lttng-sessiond (stopped after the last such row)
 * @arg: the mechanism's own argument (an event definition, a probe)
 * @prepare: check that it is available and attach it; why says why not
 * @command: for a tracer that runs the writer itself, its argv (NULL when
 *	the bench writes the run file itself)
 * @count: after the run, what the tracer recorded: sets
 *	row->events_recorded, and row->status and reason when it lost events
 * @teardown: detach it; the generic teardown (lc_bench_teardown()) runs
 *	after it anyway
 */
struct lc_bench_mech {
	const char *name;
	const char *probe;
	const char *target;
	int lttng;
	const char *arg;
	enum lc_bench_prep (*prepare)(struct lc_bench_ctx *ctx,
				      const struct lc_bench_mech *m,
				      char *why, size_t len);
	int (*command)(struct lc_bench_ctx *ctx, const struct lc_bench_mech *m,
		       char **argv, char *buf, size_t len);
	int (*count)(struct lc_bench_ctx *ctx, const struct lc_bench_mech *m,
		     struct lc_bench_row *row);
	void (*teardown)(struct lc_bench_ctx *ctx,
			 const struct lc_bench_mech *m);
};

extern volatile sig_atomic_t lc_bench_signal;

/* bench-tracers.c */
extern const struct lc_bench_mech lc_bench_mechs[];
extern const size_t lc_bench_nr_mechs;
void lc_bench_teardown(struct lc_bench_ctx *ctx, int final);
void lc_bench_stop_sessiond(struct lc_bench_ctx *ctx);

/* bench.c: files and processes */
/* A string to a file in one write(); flags: O_APPEND, O_TRUNC, O_CREAT. */
static inline int lc_bench_write(const char *path, const char *text, int flags)
{
	return lc_write_file_flags(path, text, strlen(text), flags);
}
int lc_bench_exec(struct lc_bench_ctx *ctx, char *const argv[],
		  const char *out, const char *err, int timeout_s,
		  int killable);
int lc_bench_have(const char *cmd);
void lc_bench_reap(struct lc_bench_ctx *ctx);
void lc_bench_last_line(const char *path, char *buf, size_t len);

#endif /* LTTNG_CALIBRATE_CLI_BENCH_RUN_H */
