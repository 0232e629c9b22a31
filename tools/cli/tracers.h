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
 * command writes it in its row.  What the tracers share has headers of
 * its own, which this one includes and which include nothing of it:
 * tracer-run.h (struct lc_tracer_ctx, struct lc_tracer_count, enum
 * lc_tracer_prep, a tracer's commands), tracefs.h, sessions.h and
 * event-sets.h.  Adding a tracer is adding a file to tracers/ and its
 * table to lc_tracers[] (tracers.c); tools/README.rst, "Adding a tracer",
 * has a skeleton.
 */
#ifndef LTTNG_CALIBRATE_CLI_TRACERS_H
#define LTTNG_CALIBRATE_CLI_TRACERS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "event-sets.h"
#include "sessions.h"
#include "tracefs.h"
#include "tracer-run.h"

#define LC_BENCH_TARGET		"lttng_calibrate_target"
/* The targets' tracepoints: one integer; a system call's payload. */
#define LC_BENCH_TP		"lttng_calibrate:lttng_calibrate_event"
#define LC_BENCH_TP_DIR		"events/lttng_calibrate/lttng_calibrate_event"
#define LC_BENCH_PAYLOAD	"lttng_calibrate:lttng_calibrate_payload"
#define LC_BENCH_PAYLOAD_DIR	"events/lttng_calibrate/lttng_calibrate_payload"

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
void lc_tracers_init(void);
void lc_tracers_finish(struct lc_tracer_ctx *ctx);

#endif /* LTTNG_CALIBRATE_CLI_TRACERS_H */
