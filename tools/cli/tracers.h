/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracers' layer, under both commands: each tracer in a file of its
 * own (tracers/), which hands the commands one table, struct lc_tracer:
 * the rows lttng-calibrate bench measures of it (struct lc_bench_mech)
 * and the configurations lttng-calibrate predict runs of it (struct
 * lc_predict_tracer).  Calls go one way, down:
 *
 *   bench.c, predict*.c,      the commands, and the bench's measurement
 *   mechanisms.c              of rows (which both run)
 *   tracers.c                 the table of tracers: lc_tracers[], their
 *                             rows and configurations in order
 *   tracers/kernel.c          the module's own probes
 *   tracers/ftrace.c          ftrace: events, tracers, kprobe events
 *   tracers/perf.c            perf record, perf probe
 *   tracers/bpftrace.c        bpftrace
 *   tracers/lttng.c           LTTng, counted by babeltrace2
 *   event-sets.c              the event sets predict's configurations
 *                             trace
 *   sessions.c                LTTng: the lttng client, lttng-sessiond
 *   tracefs.c                 tracefs, its ring buffer, dynamic events
 *   tracer-run.c              the scratch directory, a tracer's commands
 *                             run (to their end, or in the background)
 *                             and what they wrote read back
 *   ../lib                    files, key=value text, processes, signals
 *
 * Nothing here calls a command's file, nor the output layer (formats.c):
 * a tracer says what it counted in struct lc_tracer_count, and the
 * command writes it in its row.  Adding a tracer is adding a file to
 * tracers/ and its table to lc_tracers[] (tracers.c); tools/README.rst,
 * "Adding a tracer", has a skeleton.
 */
#ifndef LTTNG_CALIBRATE_CLI_TRACERS_H
#define LTTNG_CALIBRATE_CLI_TRACERS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/proc.h"

#define LC_TRACER_TRACEFS	"/sys/kernel/tracing"
#define LC_TRACER_ARGV_MAX	24
/* How long a tracer's command may take, and a stopped one to go. */
#define LC_TRACER_CMD_TIMEOUT	120
#define LC_TRACER_KILL_MS	5000

#define LC_BENCH_TARGET		"lttng_calibrate_target"
/* The targets' tracepoints: one integer; a system call's payload. */
#define LC_BENCH_TP		"lttng_calibrate:lttng_calibrate_event"
#define LC_BENCH_TP_DIR		"events/lttng_calibrate/lttng_calibrate_event"
#define LC_BENCH_PAYLOAD	"lttng_calibrate:lttng_calibrate_payload"
#define LC_BENCH_PAYLOAD_DIR	"events/lttng_calibrate/lttng_calibrate_payload"

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

/**
 * struct lc_predict_set - a named set of kernel events, which predict's
 *	configurations trace
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

/**
 * struct lc_bench_mech - one mechanism, a row of the bench
 * @name: the row's name
 * @order: its place among every tracer's rows: the bench measures and
 *	prints them in increasing @order (the published results keep the
 *	order of today's rows, 10 to 260; a new tracer takes the next)
 * @probe: what the module's probe file is set to for the run
 * @target: what the module's target file is set to for the run
 * @arg: the mechanism's own argument (an event definition, a probe)
 * @prepare: check that it is available and attach it; why says why not
 * @command: for a tracer that runs the writer itself, its argv (NULL when
 *	the bench writes the run file itself)
 * @count: after the run, what the tracer recorded: sets c->recorded;
 *	returns -1 with c->lost and c->reason when it lost events or failed
 * @teardown: after the row, whatever happened (the tracer of the run
 *	already stopped): undo what @prepare may have done; idempotent
 * @finish: after the last row that has it, and once more at the end:
 *	stop what such rows share (lttng-sessiond); idempotent
 */
struct lc_bench_mech {
	const char *name;
	unsigned int order;
	const char *probe;
	const char *target;
	const char *arg;
	enum lc_tracer_prep (*prepare)(struct lc_tracer_ctx *ctx,
				       const struct lc_bench_mech *m,
				       char *why, size_t len);
	int (*command)(struct lc_tracer_ctx *ctx, const struct lc_bench_mech *m,
		       char **argv, char *buf, size_t len);
	int (*count)(struct lc_tracer_ctx *ctx, const struct lc_bench_mech *m,
		     struct lc_tracer_count *c);
	void (*teardown)(struct lc_tracer_ctx *ctx,
			 const struct lc_bench_mech *m);
	void (*finish)(struct lc_tracer_ctx *ctx);
};

/* The tracefs directory of the tracepoint in a row's target. */
static inline const char *lc_bench_tp_dir(const struct lc_bench_mech *m)
{
	return strcmp(m->target, "payload") ? LC_BENCH_TP_DIR :
					      LC_BENCH_PAYLOAD_DIR;
}

/**
 * struct lc_predict_tracer - one way of tracing predict's workload
 * @name: what --mechanism takes
 * @order: its place among every tracer's configurations, in increasing
 *	order: LTTng's last, so that no configuration before them runs with
 *	lttng-sessiond and LTTng's modules there (lc_tracers_finish() stops
 *	them after the last)
 * @function: it traces --function, not the event set
 * @cost: the bench row whose overhead per call is the cost of one event
 * @prepare: check that it can run here; why says why not
 * @start: before one run: tracing on, nothing recorded yet
 * @stop: after the run: tracing off; the events it recorded and lost
 * @teardown: undo whatever @prepare and @start did; idempotent
 */
struct lc_predict_tracer {
	const char *name;
	unsigned int order;
	bool function;
	const char *cost;
	enum lc_tracer_prep (*prepare)(struct lc_tracer_ctx *ctx, char *why,
				       size_t len);
	int (*start)(struct lc_tracer_ctx *ctx, char *why, size_t len);
	int (*stop)(struct lc_tracer_ctx *ctx, long long *events,
		    long long *lost, char *why, size_t len);
	void (*teardown)(struct lc_tracer_ctx *ctx);
};

/**
 * struct lc_tracer - what one tracer offers, whichever command uses it
 * @name: the tracer's name
 * @rows: the rows lttng-calibrate bench measures of it
 * @nr_rows: how many
 * @configs: the configurations lttng-calibrate predict runs of it
 * @nr_configs: how many
 */
struct lc_tracer {
	const char *name;
	const struct lc_bench_mech *rows;
	size_t nr_rows;
	const struct lc_predict_tracer *configs;
	size_t nr_configs;
};

/* The table of a tracer with rows and configurations, from their arrays. */
#define LC_TRACER(_name, _rows, _configs) {				\
	.name = _name,							\
	.rows = _rows, .nr_rows = ARRAY_SIZE(_rows),			\
	.configs = _configs, .nr_configs = ARRAY_SIZE(_configs),	\
}

/* tracers/kernel.c: the module's own probes, and its tracepoint off */
extern const struct lc_tracer lc_tracer_kernel;
/* tracers/ftrace.c */
extern const struct lc_tracer lc_tracer_ftrace;
/* tracers/perf.c */
extern const struct lc_tracer lc_tracer_perf;
/* tracers/bpftrace.c */
extern const struct lc_tracer lc_tracer_bpftrace;
/* tracers/lttng.c */
extern const struct lc_tracer lc_tracer_lttng;

/* tracers.c: the table, and every tracer's rows and configurations */
#define LC_TRACERS_MAX_ROWS	64
extern const struct lc_tracer *const lc_tracers[];
extern const size_t lc_nr_tracers;
extern const struct lc_bench_mech *lc_mechanisms[LC_TRACERS_MAX_ROWS];
extern size_t lc_nr_mechanisms;
extern const struct lc_predict_tracer *lc_predict_tracers[LC_TRACERS_MAX_ROWS];
extern size_t lc_predict_nr_tracers;
void lc_tracers_finish(struct lc_tracer_ctx *ctx);

/* event-sets.c: the event sets predict's configurations trace */
extern const struct lc_predict_set lc_predict_sets[];
extern const size_t lc_predict_nr_sets;
int lc_predict_set_events(const struct lc_predict_set *set, const char **ev);

/* tracefs.c: tracefs */
void lc_tracefs_find(struct lc_tracer_ctx *ctx);
void lc_tracefs_release(struct lc_tracer_ctx *ctx);
int lc_tfs_write(const struct lc_tracer_ctx *ctx, const char *file,
		 const char *text, int flags);
char *lc_tfs_read(const struct lc_tracer_ctx *ctx, const char *file);
int lc_tfs_exists(const struct lc_tracer_ctx *ctx, const char *file);
int lc_tfs_has(const struct lc_tracer_ctx *ctx, const char *file,
	       const char *word);
void lc_tfs_line(const struct lc_tracer_ctx *ctx, const char *file,
		 char *buf, size_t len);
enum lc_tracer_prep lc_tracefs_need(struct lc_tracer_ctx *ctx,
				    const char *file, char *why,
				    size_t len);
void lc_tracefs_remove_event(struct lc_tracer_ctx *ctx, const char *file,
			     const char *group, const char *name);

/* tracefs.c: the ring buffer and dynamic events */
enum lc_tracer_prep lc_tracefs_buffer(struct lc_tracer_ctx *ctx,
				      int per_call, char *why, size_t len);
enum lc_tracer_prep lc_tracefs_buffer_kb(struct lc_tracer_ctx *ctx,
					 unsigned long long kb, char *why,
					 size_t len);
enum lc_tracer_prep lc_tracefs_dyn_event(struct lc_tracer_ctx *ctx,
					 const char *file, const char *def,
					 const char *enable, char *why,
					 size_t len);
int lc_tracefs_buffer_stats(struct lc_tracer_ctx *ctx, long long *entries,
			    long long *lost);
void lc_tracefs_buffer_release(struct lc_tracer_ctx *ctx);

/* sessions.c: LTTng */
int lc_session_lttng(const char *err, ...);
void lc_session_finish(struct lc_tracer_ctx *ctx);
enum lc_tracer_prep lc_session_available(struct lc_tracer_ctx *ctx,
					 char *why, size_t len);

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

#endif /* LTTNG_CALIBRATE_CLI_TRACERS_H */
