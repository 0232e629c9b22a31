// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng's mechanisms of lttng-calibrate bench: the module's tracepoints
 * (its plain one and its payload one, through LTTng's probe for them,
 * lttng-probe-lttng-calibrate), a kernel function event (with perf
 * contexts, or not) and a kprobe event on the target, in a session of the
 * bench's own (lttng-sessiond from sessions.c, stopped after the last
 * LTTng row); babeltrace2 counts the events of the trace.
 * Needs lttng-tools, babeltrace2 and lttng-modules built for the running
 * kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mechanisms.h"

/* Our names: nobody else's session or events are touched. */
#define LC_EV_LTTNG		"lc_bench"
#define LC_EV_LTTNG_KPROBE	"lc_bench_kp"
#define LC_LTTNG_CHANNEL	"lcbench"
/* LTTng's probe for the module's tracepoints, as lttng-sessiond names it. */
#define LC_LTTNG_PROBE		"lttng-calibrate"
#define LC_LTTNG_PROBE_MODULE	"lttng_probe_lttng_calibrate"

/*
 * The event of a tracepoint row: the tracepoint in the row's target, which
 * LTTng knows when its probe for the module's tracepoints is loaded.
 */
static enum lc_tracer_prep lc_lttng_tracepoint(struct lc_tracer_ctx *ctx,
					       const struct lc_bench_mech *m,
					       char *event, size_t elen,
					       char *why, size_t len)
{
	enum lc_tracer_prep rc;

	/* LTTng names it without its system: the directory's last part. */
	snprintf(event, elen, "%s", strrchr(lc_bench_tp_dir(m), '/') + 1);
	if (!access("/sys/module/" LC_LTTNG_PROBE_MODULE, F_OK))
		return LC_PREP_OK;
	rc = lc_tracer_modinfo(ctx, LC_LTTNG_PROBE_MODULE,
			       "LTTng has no probe for the module's tracepoints: lttng-probe-lttng-calibrate is not installed (tools/lttng/build-lttng-modules builds it)",
			       why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(why, len,
		 "LTTng's probe for the module's tracepoints is not loaded: start lttng-sessiond with --extra-kmod-probes=" LC_LTTNG_PROBE);
	return LC_PREP_UNAVAILABLE;
}

static enum lc_tracer_prep lc_lttng_prepare(struct lc_tracer_ctx *ctx,
					    const struct lc_bench_mech *m,
					    char *why, size_t len)
{
	char err[PATH_MAX + 32], out[PATH_MAX + 32], last[160];
	char subbuf[32], event[64];
	unsigned long long need = (ctx->iterations + 1) * 2 * 64, nsub;
	int kprobe = !strcmp(m->arg, "kprobe");
	int tracepoint = !strcmp(m->arg, "tracepoint");
	enum lc_tracer_prep rc;

	rc = lc_session_available(ctx, why, len);
	if (rc == LC_PREP_OK && tracepoint)
		rc = lc_lttng_tracepoint(ctx, m, event, sizeof(event),
					 why, len);
	if (rc != LC_PREP_OK)
		return rc;
	for (nsub = 2; nsub * (4 << 20) < need && nsub < 16; nsub *= 2)
		;
	snprintf(subbuf, sizeof(subbuf), "%llu", nsub);
	snprintf(out, sizeof(out), "--output=%s/trace-%s", ctx->tmpdir,
		 m->name);
	snprintf(err, sizeof(err), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	ctx->touched |= LC_T_LTTNG_SESSION;
	if (lc_session_lttng(err, "create", ctx->session, out, NULL) ||
	    lc_session_lttng(err, "enable-channel", "--kernel", "-s",
			     ctx->session, "--subbuf-size=4M", "--num-subbuf", subbuf,
		     LC_LTTNG_CHANNEL, NULL))
		goto fail;
	if (tracepoint) {
		if (lc_session_lttng(err, "enable-event", "--kernel", "-s",
				     ctx->session, "-c", LC_LTTNG_CHANNEL,
				     "--tracepoint", event, NULL))
			goto fail;
	} else if (kprobe) {
		if (lc_session_lttng(err, "enable-event", "--kernel", "-s",
				     ctx->session, "-c", LC_LTTNG_CHANNEL,
				     "--probe=" LC_BENCH_TARGET, LC_EV_LTTNG_KPROBE,
				     NULL))
			goto fail;
	} else {
		snprintf(event, sizeof(event), "%s", LC_EV_LTTNG);
		if (lc_session_lttng(err, "enable-event", "--kernel", "-s",
				     ctx->session, "-c", LC_LTTNG_CHANNEL,
				     "--function=" LC_BENCH_TARGET, event, NULL))
			goto fail;
	}
	/* Software contexts only: a hardware one oopses lttng-modules
	 * 2.13 where there is no PMU (QEMU TCG).  No page-fault context
	 * on a lockdep kernel: lttng-modules opens its counter from a
	 * CPU-hotplug callback, which takes cpu_hotplug_lock again
	 * (lockdep: possible recursive locking).
	 */
	if (!strcmp(m->arg, "contexts")) {
		int lockdep = !access("/proc/lockdep", F_OK);

		if (lockdep)
			fprintf(stderr,
				"lttng-calibrate bench: %s: the cpu-clock context only: on a kernel with lockdep, lttng-modules' page-fault context takes cpu_hotplug_lock twice\n",
				m->name);
		if (lc_session_lttng(err, "add-context", "--kernel", "-s",
				     ctx->session, "-c", LC_LTTNG_CHANNEL, "-t",
				     "perf:cpu:cpu-clock",
				     lockdep ? NULL : "-t", "perf:cpu:page-fault",
				     NULL))
			goto fail;
	}
	if (lc_session_lttng(err, "start", ctx->session, NULL))
		goto fail;
	return LC_PREP_OK;
fail:
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "lttng: %s", last);
	return LC_PREP_FAILED;
}

/* LTTng rows: babeltrace2 of the session's trace, its events counted. */
static int lc_lttng_count(struct lc_tracer_ctx *ctx,
			  const struct lc_bench_mech *m,
			  struct lc_tracer_count *c)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], lerr[PATH_MAX + 32];
	char *argv[] = { "babeltrace2", trace, NULL };
	int kprobe = !strcmp(m->arg, "kprobe");
	int tracepoint = !strcmp(m->arg, "tracepoint");
	long long entries, exits = 0;
	char event[80];

	snprintf(lerr, sizeof(lerr), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	if (lc_session_lttng(lerr, "stop", ctx->session, NULL)) {
		return lc_tracer_count_failed(c, lerr);
	}
	snprintf(trace, sizeof(trace), "%s/trace-%s", ctx->tmpdir, m->name);
	/* A tracepoint row, as the kprobe row: one event per call. */
	snprintf(event, sizeof(event), " %s: ", tracepoint ?
		 strrchr(lc_bench_tp_dir(m), '/') + 1 : LC_EV_LTTNG_KPROBE);
	kprobe |= tracepoint;
	if (kprobe)
		entries = lc_tracer_count_lines(ctx, argv, m->name, event, NULL,
						NULL, err, sizeof(err));
	else
		entries = lc_tracer_count_lines(ctx, argv, m->name,
						" " LC_EV_LTTNG "_entry: ",
						" " LC_EV_LTTNG "_exit: ", &exits,
						err, sizeof(err));
	if (entries < 0) {
		return lc_tracer_count_failed(c, err);
	}
	c->recorded = kprobe || exits > entries ? entries : exits;
	if (lc_tracer_file_has(err, "discarded")) {
		return lc_tracer_count_set(c, true,
					"LTTng discarded events (%lld entries, %lld exits)",
					entries, exits);
	}
	if (!kprobe && entries != exits) {
		return lc_tracer_count_set(c, true,
					"%lld entry events but %lld exit events",
					entries, exits);
	}
	return 0;
}

/* After an LTTng row: its session destroyed (its trace stays in tmpdir). */
static void lc_lttng_teardown(struct lc_tracer_ctx *ctx,
			      const struct lc_bench_mech *m)
{
	(void)m;
	if (!(ctx->touched & LC_T_LTTNG_SESSION))
		return;
	lc_session_lttng(NULL, "destroy", ctx->session, NULL);
	ctx->touched &= ~LC_T_LTTNG_SESSION;
}

/* A row of LTTng: ARG says which event (and contexts) on TARGET. */
#define LC_LTTNG_MECH(_name, _target, _arg) {				\
	.name = _name, .probe = "external", .target = _target,		\
	.arg = _arg, .prepare = lc_lttng_prepare, .count = lc_lttng_count, \
	.teardown = lc_lttng_teardown, .finish = lc_session_finish,	\
}

const struct lc_bench_mech lc_bench_tracepoint_lttng =
	LC_LTTNG_MECH("tracepoint-lttng", "tracepoint", "tracepoint");
const struct lc_bench_mech lc_bench_payload_lttng =
	LC_LTTNG_MECH("payload-lttng", "payload", "tracepoint");
const struct lc_bench_mech lc_bench_lttng_function =
	LC_LTTNG_MECH("lttng-function", "function", "function");
const struct lc_bench_mech lc_bench_lttng_function_contexts =
	LC_LTTNG_MECH("lttng-function-contexts", "function", "contexts");
const struct lc_bench_mech lc_bench_lttng_kprobe =
	LC_LTTNG_MECH("lttng-kprobe", "function", "kprobe");
