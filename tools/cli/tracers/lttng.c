// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng, its kernel tracer in a session of the command's own
 * (lttng-sessiond from sessions.c, stopped after the last LTTng row or
 * configuration); babeltrace2 counts the events of the trace.  What
 * lttng-calibrate bench measures of it: the module's tracepoints (its
 * plain one and its payload one, through LTTng's probe for them,
 * lttng-probe-lttng-calibrate), a kernel function event (with perf
 * contexts, or not) and a kprobe event on the target.  What
 * lttng-calibrate predict runs of it:
 *
 *   lttng-loaded   LTTng's modules loaded by lttng-sessiond, no session:
 *                  the tracer and the probes of the set's events, which
 *                  lttng-SET records
 *   lttng-SET      a session of the set's events (babeltrace2 counts
 *                  them, and the events it says were discarded)
 *
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

#include "../tracers.h"

/* Our names: nobody else's session or events are touched. */
#define LC_EV_LTTNG		"lc_bench"
#define LC_EV_LTTNG_KPROBE	"lc_bench_kp"
#define LC_LTTNG_CHANNEL	"lcbench"
#define LC_PR_CHANNEL		"lcpredict"
/* LTTng's probe for the module's tracepoints, as lttng-sessiond names it. */
#define LC_LTTNG_PROBE		"lttng-calibrate"
#define LC_LTTNG_PROBE_MODULE	"lttng_probe_lttng_calibrate"

/*
 * A session of ours, its trace in @trace, with one kernel channel of
 * @nsub sub-buffers of @subbuf (lttng's size: "4M"); what lttng said in
 * @err.
 */
static int lc_lttng_create(struct lc_tracer_ctx *ctx, const char *err,
			   const char *trace, const char *subbuf,
			   unsigned long long nsub, const char *channel)
{
	char out[PATH_MAX + 32], size[32], num[32];

	snprintf(out, sizeof(out), "--output=%s", trace);
	snprintf(size, sizeof(size), "--subbuf-size=%s", subbuf);
	snprintf(num, sizeof(num), "--num-subbuf=%llu", nsub);
	ctx->touched |= LC_T_LTTNG_SESSION;
	return lc_session_lttng(err, "create", ctx->session, out, NULL) ||
	       lc_session_lttng(err, "enable-channel", "--kernel", "-s",
				ctx->session, size, num, channel, NULL);
}

/* Our session destroyed, if there is one (its trace stays in tmpdir). */
static void lc_lttng_destroy(struct lc_tracer_ctx *ctx)
{
	if (!(ctx->touched & LC_T_LTTNG_SESSION))
		return;
	lc_session_lttng(NULL, "destroy", ctx->session, NULL);
	ctx->touched &= ~LC_T_LTTNG_SESSION;
}

/* The bench's rows */

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
	char err[PATH_MAX + 32], trace[PATH_MAX + 32], last[160];
	char event[64];
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
	snprintf(trace, sizeof(trace), "%s/trace-%s", ctx->tmpdir, m->name);
	snprintf(err, sizeof(err), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	if (lc_lttng_create(ctx, err, trace, "4M", nsub, LC_LTTNG_CHANNEL))
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
	if (lc_session_lttng(lerr, "stop", ctx->session, NULL))
		return lc_tracer_count_failed(c, lerr);
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
	if (entries < 0)
		return lc_tracer_count_failed(c, err);
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

/* After an LTTng row: its session destroyed. */
static void lc_lttng_teardown(struct lc_tracer_ctx *ctx,
			      const struct lc_bench_mech *m)
{
	(void)m;
	lc_lttng_destroy(ctx);
}

/* predict's configurations */

/*
 * Is @event (a tracepoint, "sched_switch") among the kernel events that
 * @list (what "lttng list --kernel" printed) names?  Each is a line of its
 * own: "      sched_switch (loglevel: ...) (type: tracepoint)".
 */
static bool lc_pr_lttng_knows(const char *list, const char *event)
{
	size_t n = strlen(event);
	const char *p;

	for (p = list; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		p += strspn(p, " \t");
		if (!strncmp(p, event, n) && !strncmp(p + n, " (", 2))
			return true;
	}
	return false;
}

/*
 * lttng-sessiond, started with the probes of the set's events, and LTTng
 * knows each of them: LTTng enables an event it does not know without a
 * word, and records nothing of it.
 */
static enum lc_tracer_prep lc_pr_lttng_prepare(struct lc_tracer_ctx *ctx,
					       char *why, size_t len)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char *argv[] = { "lttng", "list", "--kernel", NULL };
	enum lc_tracer_prep rc;
	const char *ev[8];
	int i, n = lc_predict_set_events(ctx->set, ev);
	char *list;

	ctx->lttng_probes = ctx->set->lttng_probes;
	rc = lc_session_available(ctx, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(out, sizeof(out), "%s/lttng-list.out", ctx->tmpdir);
	snprintf(err, sizeof(err), "%s/lttng-list.err", ctx->tmpdir);
	if (lc_tracer_exec(argv, out, err, LC_TRACER_CMD_TIMEOUT, false)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng list --kernel: %s", last);
		return LC_PREP_FAILED;
	}
	list = lc_read_file(out, NULL);
	for (i = 0; i < n; i++) {
		const char *name = strchr(ev[i], ':') + 1;

		if (!strncmp(ev[i], "raw_syscalls:", 13) ||
		    lc_pr_lttng_knows(list, name))
			continue;
		snprintf(why, len,
			 "LTTng has no kernel event %s (lttng list --kernel): the lttng-sessiond running did not load its probe; stop it, or start it with --kmod-probes=%s",
			 name, ctx->set->lttng_probes);
		free(list);
		return LC_PREP_FAILED;
	}
	free(list);
	return LC_PREP_OK;
}

static int lc_pr_lttng_start(struct lc_tracer_ctx *ctx, char *why,
			     size_t len)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char list[256] = "";
	const char *ev[8];
	int i, n = lc_predict_set_events(ctx->set, ev);

	for (i = 0; i < n; i++)
		if (strncmp(ev[i], "raw_syscalls:", 13))
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%s",
				 list[0] ? "," : "", strchr(ev[i], ':') + 1);
	snprintf(trace, sizeof(trace), "%s/lttng-%d", ctx->tmpdir, ctx->run);
	snprintf(err, sizeof(err), "%s/lttng-%d.err", ctx->tmpdir, ctx->run);
	if (lc_lttng_create(ctx, err, trace, "1M", 8, LC_PR_CHANNEL) ||
	    (list[0] &&
	     lc_session_lttng(err, "enable-event", "--kernel", "-s",
			      ctx->session, "-c", LC_PR_CHANNEL, list, NULL)) ||
	    (ctx->set->syscalls &&
	     lc_session_lttng(err, "enable-event", "--kernel", "-s",
			      ctx->session, "-c", LC_PR_CHANNEL, "--syscall",
			      "-a", NULL)) ||
	    lc_session_lttng(err, "start", ctx->session, NULL)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng: %s", last);
		return -1;
	}
	return 0;
}

/* "discarded N events" in babeltrace2's warnings, summed. */
static long long lc_pr_discarded(const char *path)
{
	char *text = lc_read_file(path, NULL);
	long long sum = 0;
	const char *p;

	for (p = text; p && (p = strstr(p, "discarded ")); p += 10)
		sum += strtoll(p + 10, NULL, 10);
	free(text);
	return sum;
}

static int lc_pr_lttng_stop(struct lc_tracer_ctx *ctx, long long *events,
			    long long *lost, char *why, size_t len)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], name[32];
	char *argv[] = { "babeltrace2", trace, NULL };
	char last[160];
	int e;

	snprintf(err, sizeof(err), "%s/lttng-%d.err", ctx->tmpdir,
		 ctx->run);
	e = lc_session_lttng(err, "stop", ctx->session, NULL);
	lc_lttng_destroy(ctx);
	if (e) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng stop: %s", last);
		return -1;
	}
	snprintf(trace, sizeof(trace), "%s/lttng-%d", ctx->tmpdir,
		 ctx->run);
	snprintf(name, sizeof(name), "lttng-%d", ctx->run);
	/* Every event is one line: "[time] (+delta) host name: ..." */
	*events = lc_tracer_count_lines(ctx, argv, name, "] (+", NULL,
					NULL, err, sizeof(err));
	if (*events < 0) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "babeltrace2: %s", last);
		return -1;
	}
	*lost = lc_pr_discarded(err);
	return 0;
}

/* LTTng's modules loaded, no session: nothing recorded, nothing lost. */
static int lc_pr_none_start(struct lc_tracer_ctx *ctx, char *why, size_t len)
{
	(void)ctx;
	(void)why;
	(void)len;
	return 0;
}

static int lc_pr_none_stop(struct lc_tracer_ctx *ctx, long long *events,
			   long long *lost, char *why, size_t len)
{
	(void)ctx;
	(void)why;
	(void)len;
	*events = 0;
	*lost = 0;
	return 0;
}

static void lc_pr_none_teardown(struct lc_tracer_ctx *ctx)
{
	(void)ctx;
}

/* A row of LTTng: ARG says which event (and contexts) on TARGET. */
#define LC_LTTNG_MECH(_name, _order, _target, _arg) {			\
	.name = _name, .order = _order, .probe = "external",		\
	.target = _target, .arg = _arg, .prepare = lc_lttng_prepare,	\
	.count = lc_lttng_count, .teardown = lc_lttng_teardown,		\
	.finish = lc_session_finish,					\
}

static const struct lc_bench_mech lc_lttng_rows[] = {
	LC_LTTNG_MECH("tracepoint-lttng", 150, "tracepoint", "tracepoint"),
	LC_LTTNG_MECH("payload-lttng", 190, "payload", "tracepoint"),
	LC_LTTNG_MECH("lttng-function", 200, "function", "function"),
	LC_LTTNG_MECH("lttng-function-contexts", 210, "function", "contexts"),
	LC_LTTNG_MECH("lttng-kprobe", 220, "function", "kprobe"),
};

static const struct lc_predict_tracer lc_lttng_configs[] = {
	{
		.name = "lttng-loaded", .order = 60,
		.prepare = lc_pr_lttng_prepare, .start = lc_pr_none_start,
		.stop = lc_pr_none_stop, .teardown = lc_pr_none_teardown,
	},
	{
		.name = "lttng", .order = 70, .cost = "payload-lttng",
		.prepare = lc_pr_lttng_prepare, .start = lc_pr_lttng_start,
		.stop = lc_pr_lttng_stop, .teardown = lc_lttng_destroy,
	},
};

const struct lc_tracer lc_tracer_lttng =
	LC_TRACER("lttng", lc_lttng_rows, lc_lttng_configs);
