// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own mechanisms of lttng-calibrate bench: the module's
 * probes (its probe file, set by the bench), its tracepoint off, and
 * ftrace's (kprobe, kretprobe and fprobe events, the function and
 * function_graph tracers, the tracepoint's event).  Each ftrace row
 * empties and sizes the ring buffer, counts what it recorded from the
 * per-CPU stats, and puts back what it changed (tracefs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mechanisms.h"
#include "lttng-calibrate.h"

/* Our event names: nobody else's are ever removed. */
#define LC_EV_KPROBE		"lc_bench_p"
#define LC_EV_KRETPROBE		"lc_bench_r"
#define LC_EV_FPROBE		"lc_bench_f"

/* Module mechanisms: offered by the probe file? */
static enum lc_tracer_prep lc_module_prepare(struct lc_tracer_ctx *ctx,
					     const struct lc_bench_mech *m,
					     char *why, size_t len)
{
	char *text = lc_read_file(LC_DIR "/probe", NULL);
	char tag[64], *line;
	enum lc_tracer_prep rc = LC_PREP_OK;

	(void)ctx;
	if (!text) {
		snprintf(why, len, "%s/probe: %s", LC_DIR, strerror(errno));
		return LC_PREP_FAILED;
	}
	snprintf(tag, sizeof(tag), " %s ", m->probe);
	text[strcspn(text, "\n")] = ' ';
	if (!strstr(text, tag) && !strstr(text, tag + 1)) {
		snprintf(tag, sizeof(tag), "[%s]", m->probe);
		if (!strstr(text, tag)) {
			snprintf(why, len, "this lttng_calibrate has no %s probe",
				 m->probe);
			rc = LC_PREP_UNAVAILABLE;
		}
	}
	snprintf(tag, sizeof(tag), "# %s: unavailable: ", m->probe);
	line = strstr(text, tag);
	if (line) {
		line += strlen(tag);
		line[strcspn(line, "\n")] = '\0';
		snprintf(why, len, "the module says: %s", line);
		rc = LC_PREP_UNAVAILABLE;
	}
	free(text);
	return rc;
}

/* Module mechanisms: every call hit, but those the probe missed. */
static int lc_module_count(struct lc_tracer_ctx *ctx,
			   const struct lc_bench_mech *m,
			   struct lc_tracer_count *c)
{
	(void)m;
	c->recorded = c->expected -
		(ctx->results ? lc_kv_ll(ctx->results, "probe.nmissed", 0) : 0);
	return 0;
}

static enum lc_tracer_prep
lc_kprobe_event_prepare(struct lc_tracer_ctx *ctx,
			const struct lc_bench_mech *m, char *why, size_t len)
{
	const char *name = m->arg[0] == 'p' ? LC_EV_KPROBE : LC_EV_KRETPROBE;
	char def[128], enable[128];
	enum lc_tracer_prep rc;

	rc = lc_tracefs_need(ctx, "kprobe_events", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_tracefs_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(def, sizeof(def), "%s", m->arg);
	snprintf(enable, sizeof(enable), "events/kprobes/%s/enable", name);
	return lc_tracefs_dyn_event(ctx, "kprobe_events", def, enable, why, len);
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
static enum lc_tracer_prep lc_tracer_prepare(struct lc_tracer_ctx *ctx,
					     const struct lc_bench_mech *m,
					     char *why, size_t len)
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

/* A row of the module's own probe: its probe file set to that name. */
#define LC_MODULE_PROBE(_probe) {					\
	.name = _probe, .probe = _probe, .target = "function",		\
	.prepare = lc_module_prepare, .count = lc_module_count,		\
}

/* A row of ftrace: ARG (an event, a tracer) set up by PREPARE. */
#define LC_FTRACE_MECH(_name, _target, _arg, _prepare) {		\
	.name = _name, .probe = "external", .target = _target,		\
	.arg = _arg, .prepare = _prepare, .count = lc_ftrace_count,	\
	.teardown = lc_ftrace_teardown,					\
}

/* Nothing attached: the target against its twin, as they are. */
const struct lc_bench_mech lc_bench_none = {
	.name = "none", .probe = "none", .target = "function",
};
const struct lc_bench_mech lc_bench_kprobe = LC_MODULE_PROBE("kprobe");
const struct lc_bench_mech lc_bench_kretprobe = LC_MODULE_PROBE("kretprobe");
const struct lc_bench_mech lc_bench_fprobe = LC_MODULE_PROBE("fprobe");
const struct lc_bench_mech lc_bench_fprobe_exit =
	LC_MODULE_PROBE("fprobe-exit");
/* The tracepoint in the target, nothing attached to it. */
const struct lc_bench_mech lc_bench_tracepoint_off = {
	.name = "tracepoint-off", .probe = "none", .target = "tracepoint",
};

const struct lc_bench_mech lc_bench_ftrace_kprobe =
	LC_FTRACE_MECH("ftrace-kprobe", "function",
		       "p:kprobes/" LC_EV_KPROBE " " LC_BENCH_TARGET,
		       lc_kprobe_event_prepare);
const struct lc_bench_mech lc_bench_ftrace_kretprobe =
	LC_FTRACE_MECH("ftrace-kretprobe", "function",
		       "r:kprobes/" LC_EV_KRETPROBE " " LC_BENCH_TARGET,
		       lc_kprobe_event_prepare);
const struct lc_bench_mech lc_bench_ftrace_fprobe =
	LC_FTRACE_MECH("ftrace-fprobe", "function",
		       "f:fprobes/" LC_EV_FPROBE " " LC_BENCH_TARGET,
		       lc_fprobe_event_prepare);
const struct lc_bench_mech lc_bench_ftrace_function =
	LC_FTRACE_MECH("ftrace-function", "function", "function",
		       lc_tracer_prepare);
const struct lc_bench_mech lc_bench_ftrace_graph =
	LC_FTRACE_MECH("ftrace-graph", "function", "function_graph",
		       lc_tracer_prepare);
const struct lc_bench_mech lc_bench_tracepoint_ftrace =
	LC_FTRACE_MECH("tracepoint-ftrace", "tracepoint", NULL,
		       lc_tp_ftrace_prepare);
const struct lc_bench_mech lc_bench_payload_ftrace =
	LC_FTRACE_MECH("payload-ftrace", "payload", NULL, lc_tp_ftrace_prepare);
