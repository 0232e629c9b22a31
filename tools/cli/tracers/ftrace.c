// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace, through tracefs.  What lttng-calibrate bench measures of it:
 * kprobe, kretprobe and fprobe events on the module's target, the
 * function and function_graph tracers on it, its tracepoints' events;
 * each row empties and sizes the ring buffer, counts what it recorded
 * from the per-CPU stats, and puts back what it changed.  What
 * lttng-calibrate predict runs of it:
 *
 *   ftrace-SET     the set's tracefs events (the ring buffer's per-CPU
 *                  stats: entries, overrun, dropped)
 *   ftrace-kprobe-FUNCTION, ftrace-kretprobe-FUNCTION
 *                  a kprobe (kretprobe) event on --function
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tracers.h"

/* Our event names: nobody else's are ever removed. */
#define LC_EV_KPROBE		"lc_bench_p"
#define LC_EV_KRETPROBE		"lc_bench_r"
#define LC_EV_FPROBE		"lc_bench_f"
#define LC_PR_GROUP		"lc_predict"
#define LC_PR_KPROBE		"lc_predict_p"
#define LC_PR_KRETPROBE		"lc_predict_r"

/* The bench's rows */

/*
 * A kprobe or kretprobe event @def, whose enable file is @enable, in a
 * ring buffer of one event per call (the bench's and predict's alike).
 */
static enum lc_tracer_prep lc_kprobe_event(struct lc_tracer_ctx *ctx,
					   const char *def, const char *enable,
					   char *why, size_t len)
{
	enum lc_tracer_prep rc;

	rc = lc_tracefs_need(ctx, "kprobe_events", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_tracefs_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	return lc_tracefs_dyn_event(ctx, "kprobe_events", def, enable, why, len);
}

static enum lc_tracer_prep
lc_kprobe_event_prepare(struct lc_tracer_ctx *ctx,
			const struct lc_bench_mech *m, char *why, size_t len)
{
	const char *name = m->arg[0] == 'p' ? LC_EV_KPROBE : LC_EV_KRETPROBE;
	char enable[128];

	snprintf(enable, sizeof(enable), "events/kprobes/%s/enable", name);
	return lc_kprobe_event(ctx, m->arg, enable, why, len);
}

static enum lc_tracer_prep
lc_fprobe_event_prepare(struct lc_tracer_ctx *ctx,
			const struct lc_bench_mech *m, char *why, size_t len)
{
	enum lc_tracer_prep rc;

	rc = lc_tracefs_need(ctx, "dynamic_events", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	if (!lc_tfs_has(ctx, "README", "f[:[<group>/][<event>]]")) {
		snprintf(why, len,
			 "this kernel has no fprobe events (CONFIG_FPROBE_EVENTS)");
		return LC_PREP_UNAVAILABLE;
	}
	rc = lc_tracefs_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	return lc_tracefs_dyn_event(ctx, "dynamic_events", m->arg,
				    "events/fprobes/" LC_EV_FPROBE "/enable", why, len);
}

/*
 * The function and function_graph tracers, on the target alone: the
 * filter keeps every other function (the baseline twin first) untouched.
 */
static enum lc_tracer_prep
lc_ftrace_tracer_prepare(struct lc_tracer_ctx *ctx,
			 const struct lc_bench_mech *m, char *why, size_t len)
{
	int graph = !strcmp(m->arg, "function_graph");
	char cur[64], *filter;
	enum lc_tracer_prep rc;
	int e;

	rc = lc_tracefs_need(ctx, "current_tracer", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	if (!lc_tfs_has(ctx, "available_tracers", m->arg)) {
		snprintf(why, len, "no %s tracer in this kernel (available_tracers)",
			 m->arg);
		return LC_PREP_UNAVAILABLE;
	}
	lc_tfs_line(ctx, "current_tracer", cur, sizeof(cur));
	if (strcmp(cur, "nop")) {
		snprintf(why, len, "ftrace is in use: current_tracer is %s",
			 cur);
		return LC_PREP_UNAVAILABLE;
	}
	filter = lc_tfs_read(ctx, "set_ftrace_filter");
	if (filter && filter[0] && !strstr(filter, "all functions enabled")) {
		free(filter);
		snprintf(why, len, "ftrace is in use: set_ftrace_filter is set");
		return LC_PREP_UNAVAILABLE;
	}
	free(filter);
	rc = lc_tracefs_buffer(ctx, graph ? 2 : 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(ctx->saved_tracer, sizeof(ctx->saved_tracer), "%s", cur);
	ctx->touched |= LC_T_FTRACE_FILTER;
	e = lc_tfs_write(ctx, "set_ftrace_filter", LC_BENCH_TARGET, O_TRUNC);
	if (!e && graph) {
		ctx->touched |= LC_T_GRAPH_FILTER;
		e = lc_tfs_write(ctx, "set_graph_function", LC_BENCH_TARGET,
				 O_TRUNC);
	}
	if (!e) {
		ctx->touched |= LC_T_TRACER;
		e = lc_tfs_write(ctx, "current_tracer", m->arg, 0);
	}
	if (e) {
		snprintf(why, len, "setting up the %s tracer: %s", m->arg,
			 strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

static enum lc_tracer_prep lc_tp_ftrace_prepare(struct lc_tracer_ctx *ctx,
						const struct lc_bench_mech *m,
						char *why, size_t len)
{
	char enable[128];
	enum lc_tracer_prep rc;
	int e;

	snprintf(enable, sizeof(enable), "%s/enable", lc_bench_tp_dir(m));
	rc = lc_tracefs_need(ctx, enable, why, len);
	/* The payload's event (its number, six arguments and a task name:
	 * about 100 bytes in the ring buffer) takes the room of two of the
	 * 64-byte events lc_tracefs_buffer() counts.
	 */
	if (rc == LC_PREP_OK)
		rc = lc_tracefs_buffer(ctx,
				       strcmp(m->target, "payload") ? 1 : 2,
				       why, len);
	if (rc != LC_PREP_OK)
		return rc;
	ctx->touched |= LC_T_TP_ENABLED;
	e = lc_tfs_write(ctx, enable, "1", 0);
	if (e) {
		snprintf(why, len, "%s: %s", enable, strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/* ftrace rows: the ring buffer's per-CPU stats, and nothing overwritten. */
static int lc_ftrace_count(struct lc_tracer_ctx *ctx,
			   const struct lc_bench_mech *m,
			   struct lc_tracer_count *c)
{
	int per_call = m->arg && !strcmp(m->arg, "function_graph") ? 2 : 1;
	long long entries, lost;

	if (lc_tracefs_buffer_stats(ctx, &entries, &lost)) {
		return lc_tracer_count_set(c, false,
					"no per_cpu/cpu*/stats in tracefs");
	}
	c->recorded = entries / per_call;
	if (lost) {
		return lc_tracer_count_set(c, true,
					"the ring buffer lost %lld events (overrun, dropped)",
					lost);
	}
	return 0;
}

/*
 * After an ftrace row: our events removed, the tracer, its filters,
 * tracing_on, the ring buffer and its size as they were found.
 */
static void lc_ftrace_teardown(struct lc_tracer_ctx *ctx,
			       const struct lc_bench_mech *m)
{
	char enable[128];

	if (!ctx->tracefs[0])
		return;
	/* Set only by the tracepoint rows: @m is one. */
	snprintf(enable, sizeof(enable), "%s/enable", lc_bench_tp_dir(m));
	if (ctx->touched & LC_T_TP_ENABLED)
		lc_tfs_write(ctx, enable, "0", 0);
	if (ctx->touched & LC_T_TRACER)
		lc_tfs_write(ctx, "current_tracer",
			     ctx->saved_tracer[0] ? ctx->saved_tracer : "nop",
			     0);
	if (ctx->touched & LC_T_FTRACE_FILTER)
		lc_tfs_write(ctx, "set_ftrace_filter", "", O_TRUNC);
	if (ctx->touched & LC_T_GRAPH_FILTER)
		lc_tfs_write(ctx, "set_graph_function", "", O_TRUNC);
	lc_tracefs_remove_event(ctx, "kprobe_events", "kprobes", LC_EV_KPROBE);
	lc_tracefs_remove_event(ctx, "kprobe_events", "kprobes", LC_EV_KRETPROBE);
	lc_tracefs_remove_event(ctx, "dynamic_events", "fprobes", LC_EV_FPROBE);
	lc_tracefs_buffer_release(ctx);
	ctx->touched &= ~(LC_T_TP_ENABLED | LC_T_TRACER | LC_T_FTRACE_FILTER |
			  LC_T_GRAPH_FILTER | LC_T_DYN_EVENTS);
}

/* A row of ftrace: ARG (an event, a tracer) set up by PREPARE. */
#define LC_FTRACE_MECH(_name, _order, _target, _arg, _prepare) {	\
	.name = _name, .order = _order, .probe = "external",		\
	.target = _target, .arg = _arg, .prepare = _prepare,		\
	.count = lc_ftrace_count, .teardown = lc_ftrace_teardown,	\
}

static const struct lc_bench_mech lc_ftrace_rows[] = {
	LC_FTRACE_MECH("ftrace-kprobe", 60, "function",
		       "p:kprobes/" LC_EV_KPROBE " " LC_BENCH_TARGET,
		       lc_kprobe_event_prepare),
	LC_FTRACE_MECH("ftrace-kretprobe", 70, "function",
		       "r:kprobes/" LC_EV_KRETPROBE " " LC_BENCH_TARGET,
		       lc_kprobe_event_prepare),
	LC_FTRACE_MECH("ftrace-fprobe", 80, "function",
		       "f:fprobes/" LC_EV_FPROBE " " LC_BENCH_TARGET,
		       lc_fprobe_event_prepare),
	LC_FTRACE_MECH("ftrace-function", 90, "function", "function",
		       lc_ftrace_tracer_prepare),
	LC_FTRACE_MECH("ftrace-graph", 100, "function", "function_graph",
		       lc_ftrace_tracer_prepare),
	LC_FTRACE_MECH("tracepoint-ftrace", 120, "tracepoint", NULL,
		       lc_tp_ftrace_prepare),
	LC_FTRACE_MECH("payload-ftrace", 160, "payload", NULL,
		       lc_tp_ftrace_prepare),
};

/* predict's configurations */

static void lc_pr_disable(struct lc_tracer_ctx *ctx)
{
	char file[128];
	int i;

	for (i = 0; i < ctx->nr_enabled; i++) {
		snprintf(file, sizeof(file), "%s/enable", ctx->enabled[i]);
		lc_tfs_write(ctx, file, "0", 0);
	}
}

static int lc_pr_add_event(struct lc_tracer_ctx *ctx, const char *dir,
			   char *why, size_t len)
{
	char file[128], *state;

	if ((size_t)ctx->nr_enabled >= ARRAY_SIZE(ctx->enabled))
		return -1;
	if (!lc_tfs_exists(ctx, dir)) {
		snprintf(why, len, "this kernel has no %s/%s",
			 ctx->tracefs, dir);
		return -1;
	}
	snprintf(file, sizeof(file), "%s/enable", dir);
	state = lc_tfs_read(ctx, file);
	if (state && state[0] != '0') {
		snprintf(why, len,
			 "%s is already enabled by someone else: disable it first",
			 dir);
		free(state);
		return -1;
	}
	free(state);
	snprintf(ctx->enabled[ctx->nr_enabled++], sizeof(ctx->enabled[0]), "%s",
		 dir);
	return 0;
}

/*
 * The ring buffer ftrace's configurations record into, in kB per CPU.  A
 * workload's events are not known before it runs, and a buffer that
 * overwrites costs more per event than the calibrated one, which never
 * does: an eighth of the memory available, shared by the online CPUs, at
 * most 1 GB each, at least 64 MB (tbench makes 1.6 million events in 5 s,
 * 64 MB's worth).  Events lost even so are counted and said.
 */
static unsigned long long lc_pr_ftrace_buffer_kb(void)
{
	char *text = lc_read_file("/proc/meminfo", NULL);
	/* "MemAvailable:    812345 kB" */
	const char *field = text ? lc_field(text, "MemAvailable:", NULL) : NULL;
	unsigned long long avail = field ? strtoull(field, NULL, 10) : 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long kb;

	free(text);
	kb = cpus > 0 ? avail / 8 / cpus : 0;
	if (kb > 1024 * 1024)
		kb = 1024 * 1024;
	return kb < 65536 ? 65536 : kb;
}

static enum lc_tracer_prep lc_pr_ftrace_prepare(struct lc_tracer_ctx *ctx,
						char *why, size_t len)
{
	const char *ev[8];
	char dir[96];
	int i, n = lc_predict_set_events(ctx->set, ev);
	enum lc_tracer_prep rc = lc_tracefs_need(ctx, NULL, why,
						 len);

	if (rc != LC_PREP_OK)
		return rc;
	ctx->nr_enabled = 0;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "events/%s", ev[i]);
		*strchr(dir, ':') = '/';
		if (lc_pr_add_event(ctx, dir, why, len))
			return LC_PREP_UNAVAILABLE;
	}
	return lc_tracefs_buffer_kb(ctx, lc_pr_ftrace_buffer_kb(), why,
				    len);
}

/* A kprobe or kretprobe event on the function, defined but not enabled. */
static enum lc_tracer_prep lc_pr_kprobe_prepare(struct lc_tracer_ctx *ctx,
						bool ret, char *why,
						size_t len)
{
	const char *name = ret ? LC_PR_KRETPROBE : LC_PR_KPROBE;
	char def[192], enable[128];
	enum lc_tracer_prep rc;

	snprintf(def, sizeof(def), "%c:%s/%s %s", ret ? 'r' : 'p',
		 LC_PR_GROUP, name, ctx->function);
	snprintf(enable, sizeof(enable), "events/%s/%s/enable", LC_PR_GROUP,
		 name);
	rc = lc_kprobe_event(ctx, def, enable, why, len);
	lc_tfs_write(ctx, enable, "0", 0);
	if (rc != LC_PREP_OK)
		return rc;
	ctx->nr_enabled = 0;
	snprintf(ctx->enabled[ctx->nr_enabled++], sizeof(ctx->enabled[0]),
		 "events/%s/%s", LC_PR_GROUP, name);
	return LC_PREP_OK;
}

static enum lc_tracer_prep lc_pr_fkprobe_prepare(struct lc_tracer_ctx *ctx,
						 char *why, size_t len)
{
	return lc_pr_kprobe_prepare(ctx, false, why, len);
}

static enum lc_tracer_prep lc_pr_fkretprobe_prepare(struct lc_tracer_ctx *ctx,
						    char *why, size_t len)
{
	return lc_pr_kprobe_prepare(ctx, true, why, len);
}

static int lc_pr_ftrace_start(struct lc_tracer_ctx *ctx, char *why,
			      size_t len)
{
	char file[128];
	int i, e;

	lc_tfs_write(ctx, "trace", "", O_TRUNC);
	e = lc_tfs_write(ctx, "tracing_on", "1", 0);
	for (i = 0; !e && i < ctx->nr_enabled; i++) {
		snprintf(file, sizeof(file), "%s/enable", ctx->enabled[i]);
		e = lc_tfs_write(ctx, file, "1", 0);
	}
	if (e) {
		lc_pr_disable(ctx);
		snprintf(why, len, "enabling %s: %s",
			 i ? ctx->enabled[i - 1] : "tracing_on", strerror(e));
		return -1;
	}
	return 0;
}

static int lc_pr_ftrace_stop(struct lc_tracer_ctx *ctx, long long *events,
			     long long *lost, char *why, size_t len)
{
	long long entries;

	lc_pr_disable(ctx);
	if (lc_tracefs_buffer_stats(ctx, &entries, lost)) {
		snprintf(why, len, "no per_cpu/cpu*/stats in tracefs");
		return -1;
	}
	/* Overwritten events were recorded first. */
	*events = entries + *lost;
	return 0;
}

static void lc_pr_ftrace_teardown(struct lc_tracer_ctx *ctx)
{
	if (!ctx->tracefs[0])
		return;
	lc_pr_disable(ctx);
	ctx->nr_enabled = 0;
	lc_tracefs_remove_event(ctx, "kprobe_events", LC_PR_GROUP,
				LC_PR_KPROBE);
	lc_tracefs_remove_event(ctx, "kprobe_events", LC_PR_GROUP,
				LC_PR_KRETPROBE);
	lc_tracefs_buffer_release(ctx);
	ctx->touched &= ~LC_T_DYN_EVENTS;
}

/* A configuration of ftrace: started, stopped, torn down alike. */
#define LC_FTRACE_CONFIG(_name, _order, _function, _cost, _prepare) {	\
	.name = _name, .order = _order, .function = _function,		\
	.cost = _cost, .prepare = _prepare, .start = lc_pr_ftrace_start,	\
	.stop = lc_pr_ftrace_stop, .teardown = lc_pr_ftrace_teardown,	\
}

static const struct lc_predict_tracer lc_ftrace_configs[] = {
	LC_FTRACE_CONFIG("ftrace", 10, false, "payload-ftrace",
			 lc_pr_ftrace_prepare),
	LC_FTRACE_CONFIG("kprobe", 40, true, "ftrace-kprobe",
			 lc_pr_fkprobe_prepare),
	LC_FTRACE_CONFIG("kretprobe", 50, true, "ftrace-kretprobe",
			 lc_pr_fkretprobe_prepare),
};

const struct lc_tracer lc_tracer_ftrace =
	LC_TRACER("ftrace", lc_ftrace_rows, lc_ftrace_configs);
