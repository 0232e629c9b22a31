/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mechanisms: each way of instrumenting the module's target, as a row
 * that is set up, measured against the never-instrumented twin, counted
 * and torn down.  lttng-calibrate bench prints them all; predict takes
 * the cost of one event from some.  Calls go one way, down:
 *
 *   bench.c, predict.c  the commands: lc_mechanisms_measure()
 *   mechanisms.c        the rows, their order, one row's run, the
 *                       module's settings put back after each
 *   mech-kernel.c       the module's own mechanisms and ftrace's
 *   mech-perf.c         perf record on the tracepoint, perf probe
 *   mech-bpftrace.c     bpftrace
 *   mech-lttng.c        LTTng
 *   tracers.h           the tracers' layer below (sessions.c, tracefs.c,
 *                       tracers.c) and formats.c
 *
 * Each mech-*.c file offers its rows as struct lc_bench_mech and owns
 * their set-up and teardown; none calls mechanisms.c nor a command.
 */
#ifndef LTTNG_CALIBRATE_CLI_MECHANISMS_H
#define LTTNG_CALIBRATE_CLI_MECHANISMS_H

#include "formats.h"
#include "tracers.h"

#define LC_BENCH_TARGET		"lttng_calibrate_target"
/* The targets' tracepoints: one integer; a system call's payload. */
#define LC_BENCH_TP		"lttng_calibrate:lttng_calibrate_event"
#define LC_BENCH_TP_DIR		"events/lttng_calibrate/lttng_calibrate_event"
#define LC_BENCH_PAYLOAD	"lttng_calibrate:lttng_calibrate_payload"
#define LC_BENCH_PAYLOAD_DIR	"events/lttng_calibrate/lttng_calibrate_payload"
/**
 * struct lc_bench_mech - one mechanism, a row of the bench
 * @name: the row's name
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

/* mech-kernel.c: the module's own mechanisms, and ftrace's */
extern const struct lc_bench_mech lc_bench_none, lc_bench_kprobe,
	lc_bench_kretprobe, lc_bench_fprobe, lc_bench_fprobe_exit,
	lc_bench_ftrace_kprobe, lc_bench_ftrace_kretprobe,
	lc_bench_ftrace_fprobe, lc_bench_ftrace_function, lc_bench_ftrace_graph,
	lc_bench_tracepoint_off, lc_bench_tracepoint_ftrace,
	lc_bench_payload_ftrace;

/* mech-perf.c */
extern const struct lc_bench_mech lc_bench_tracepoint_perf,
	lc_bench_payload_perf, lc_bench_perf_probe;

/* mech-bpftrace.c */
extern const struct lc_bench_mech lc_bench_tracepoint_bpf,
	lc_bench_payload_bpf, lc_bench_bpftrace_kprobe, lc_bench_bpftrace_kretprobe,
	lc_bench_bpftrace_fentry;

/* mech-lttng.c */
extern const struct lc_bench_mech lc_bench_tracepoint_lttng,
	lc_bench_payload_lttng, lc_bench_lttng_function,
	lc_bench_lttng_function_contexts, lc_bench_lttng_kprobe;

/* The tracefs directory of the tracepoint in a row's target. */
static inline const char *lc_bench_tp_dir(const struct lc_bench_mech *m)
{
	return strcmp(m->target, "payload") ? LC_BENCH_TP_DIR :
					      LC_BENCH_PAYLOAD_DIR;
}

/* mechanisms.c: the rows, in the order they are measured */
extern const struct lc_bench_mech *const lc_mechanisms[];
extern const size_t lc_nr_mechanisms;
int lc_mechanisms_listed(const char *list, const char *name);
int lc_mechanisms_measure(const char *only, unsigned long long n,
			  struct lc_bench *b);

#endif /* LTTNG_CALIBRATE_CLI_MECHANISMS_H */
