/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bottom of the tracers' layer (tracer-run.c): the tracers' state,
 * struct lc_tracer_ctx, what a tracer's set-up returns and what its count
 * says, and running a tracer's commands (to their end, or in the
 * background during a run) in a scratch directory, reading back what they
 * wrote.  tracefs.h, sessions.h and tracers.h build on it; it includes
 * nothing of theirs.  Calls tools/lib only.
 */
#ifndef LTTNG_CALIBRATE_CLI_TRACER_RUN_H
#define LTTNG_CALIBRATE_CLI_TRACER_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/proc.h"

#define LC_TRACER_ARGV_MAX	24
/* How long a tracer's command may take, and a stopped one to go. */
#define LC_TRACER_CMD_TIMEOUT	120
#define LC_TRACER_KILL_MS	5000

/* What the tracers changed, so that teardown undoes exactly that. */
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

/* event-sets.h: the event set a configuration traces */
struct lc_predict_set;

/**
 * struct lc_tracer_ctx - the tracers' state, for one bench or prediction
 * @iterations: N, asked of every run of the module (the ring buffers are
 *	sized for it)
 * @tmpdir: scratch directory (writer script, tracer output, traces)
 * @writer: a script writing N to the run file, for tracers that run a
 *	command (perf record -- CMD, bpftrace -c CMD)
 * @tracefs: where tracefs is mounted, or "" when it is not available
 * @touched: LC_T_* bits: what must be undone
 * @saved_tracing_on: tracing_on as found
 * @saved_tracer: current_tracer as found
 * @saved_buffer_kb: buffer_size_kb as found
 * @sessiond: the lttng-sessiond the command started, or 0
 * @sessiond_fd: its pidfd, through which it is stopped (valid while
 *	@sessiond is set)
 * @lttng_modules_before: LTTng modules were loaded before the command
 * @lttng_probes: LTTng's probes an lttng-sessiond started loads
 *	(--kmod-probes), or NULL for the one of the module's tracepoints
 * @session: the LTTng session's name
 * @results: results_kv of the row's run, or NULL
 * @set: the event set a configuration traces
 * @function: the kernel function of the function probes, or NULL
 * @background: the tracer running in the background during a run (perf
 *	record, bpftrace), until stopped
 * @perf_ctl: the write end of perf record's control pipe, kept open while
 *	it runs (a hang-up there breaks perf 6.1's poll loop), when
 *	@perf_ctl_open
 * @perf_ctl_open: see @perf_ctl
 * @run: the run's number, for the names of its files
 * @enabled: tracefs event files (relative to tracefs) this tool enabled
 * @nr_enabled: how many
 */
struct lc_tracer_ctx {
	unsigned long long iterations;
	char tmpdir[256];
	char writer[PATH_MAX];
	char tracefs[256];
	unsigned int touched;
	char saved_tracing_on[8];
	char saved_tracer[64];
	char saved_buffer_kb[32];
	pid_t sessiond;
	int sessiond_fd;
	int lttng_modules_before;
	const char *lttng_probes;
	char session[64];
	char *results;
	const struct lc_predict_set *set;
	const char *function;
	struct lc_proc background;
	int perf_ctl;
	bool perf_ctl_open;
	int run;
	char enabled[8][96];
	int nr_enabled;
};

/* How long a reason may be: a bench row's reason (LC_BENCH_REASON_MAX). */
#define LC_TRACER_REASON_MAX	256

/* How a mechanism's prepare() ended. */
enum lc_tracer_prep {
	LC_PREP_OK,
	LC_PREP_UNAVAILABLE,
	LC_PREP_FAILED,
};

/**
 * struct lc_tracer_count - what a tracer recorded in a row's run
 * @expected: the target's calls in the run: what a tracer that lost
 *	nothing recorded
 * @recorded: the events it recorded, as calls (-1: not counted)
 * @lost: it lost events (or failed, when not set), @reason says how
 * @reason: why the count failed or what was lost
 */
struct lc_tracer_count {
	long long expected;
	long long recorded;
	bool lost;
	char reason[LC_TRACER_REASON_MAX];
};

/*
 * A count that lost events (@lost) or failed, and why, as printf()
 * formats it: -1, for "return lc_tracer_count_set(...);".
 */
#define lc_tracer_count_set(c, lost_, ...)				\
	((c)->lost = (lost_),						\
	 snprintf((c)->reason, sizeof((c)->reason), __VA_ARGS__), -1)

/* tracer-run.c: the scratch directory, commands and their output */
enum lc_tracer_prep lc_tracer_need(const char *cmd, const char *package,
				   char *why, size_t len);
int lc_tracer_scratch(struct lc_tracer_ctx *ctx);
void lc_tracer_scratch_remove(struct lc_tracer_ctx *ctx);
int lc_tracer_exec(char *const argv[], const char *out, const char *err,
		   int timeout_s, bool killable);
void lc_tracer_output_line(struct lc_tracer_ctx *ctx, char *const argv[],
			   char *buf, size_t len);
long long lc_tracer_count_lines(struct lc_tracer_ctx *ctx, char *const argv[],
				const char *name, const char *needle,
				const char *needle2, long long *count2,
				char *errpath, size_t errlen);
enum lc_tracer_prep lc_tracer_modinfo(struct lc_tracer_ctx *ctx,
				      const char *module, const char *missing,
				      char *why, size_t len);
void lc_tracer_last_line(const char *path, char *buf, size_t len);
int lc_tracer_count_failed(struct lc_tracer_count *c, const char *path);
int lc_tracer_file_has(const char *path, const char *word);

/* tracer-run.c: a tracer in the background during a run (predict) */
int lc_tracer_bg_start(struct lc_tracer_ctx *ctx, char **argv,
		       const char *out, const char *err);
bool lc_tracer_bg_gone(struct lc_tracer_ctx *ctx);
int lc_tracer_bg_stop(struct lc_tracer_ctx *ctx);
void lc_tracer_bg_failed(struct lc_tracer_ctx *ctx, const char *name,
			 int code, const char *err, char *why, size_t len);

/* A string to a file in one write(); flags: O_APPEND, O_TRUNC, O_CREAT. */
static inline int lc_tracer_write(const char *path, const char *text, int flags)
{
	return lc_write_file_flags(path, text, strlen(text), flags);
}

#endif /* LTTNG_CALIBRATE_CLI_TRACER_RUN_H */
