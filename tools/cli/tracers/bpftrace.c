// SPDX-License-Identifier: GPL-2.0
/*
 * bpftrace.  What lttng-calibrate bench measures of it: a count map on
 * the module's tracepoints, and on the target through a kprobe, a
 * kretprobe and fentry; bpftrace runs the writer and prints the map when
 * it ends.  What lttng-calibrate predict runs of it: a count map of the
 * set's tracepoints, bpftrace started before the run and stopped after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tracers.h"

/* How long bpftrace may take to attach its probes. */
#define LC_BPFTRACE_READY_MS	120000

/* The bench's rows */

/*
 * Whether the kernel has the symbol NAME (/proc/kallsyms, whose names
 * are there for root even where its addresses read 0).
 */
static bool lc_kallsyms_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t n = strlen(name), cap = 0;
	char *line = NULL, *sym;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		/* "ADDRESS TYPE NAME[\t[MODULE]]\n" */
		sym = strchr(line, ' ');
		sym = sym ? strchr(sym + 1, ' ') : NULL;
		found = sym && !strncmp(sym + 1, name, n) &&
			(sym[n + 1] == '\n' || sym[n + 1] == '\t');
	}
	free(line);
	fclose(f);
	return found;
}

/* bpftrace: a count map, printed when the writer it runs ends. */
static enum lc_tracer_prep lc_bpftrace_prepare(struct lc_tracer_ctx *ctx,
					       const struct lc_bench_mech *m,
					       char *why, size_t len)
{
	enum lc_tracer_prep rc = lc_tracer_need("bpftrace", "bpftrace", why, len);

	(void)ctx;
	if (rc != LC_PREP_OK || strncmp(m->arg, "kfunc:", 6))
		return rc;
	if (access("/sys/kernel/btf/vmlinux", F_OK)) {
		snprintf(why, len,
			 "no /sys/kernel/btf/vmlinux: the kernel has no BTF (CONFIG_DEBUG_INFO_BTF)");
		return LC_PREP_UNAVAILABLE;
	}
	/*
	 * A BPF trampoline reaches a kernel function through ftrace's direct
	 * calls; without them (arm64 before 6.4) it fails to attach.
	 */
	if (!lc_kallsyms_has("register_ftrace_direct")) {
		snprintf(why, len,
			 "the kernel has no ftrace direct calls for BPF trampolines (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS; arm64 has them from 6.4)");
		return LC_PREP_UNAVAILABLE;
	}
	if (access("/sys/kernel/btf/lttng_calibrate", F_OK)) {
		snprintf(why, len,
			 "lttng_calibrate has no BTF (built without vmlinux: add it with 'pahole -J --btf_base /sys/kernel/btf/vmlinux' on a copy of the .ko, and load that)");
		return LC_PREP_UNAVAILABLE;
	}
	return LC_PREP_OK;
}

static int lc_bpftrace_command(struct lc_tracer_ctx *ctx,
			       const struct lc_bench_mech *m, char **argv,
			       char *buf, size_t len)
{
	/* bpftrace 0.17 runs only an ELF binary: the shell, then the script */
	int n = snprintf(buf, len, "%s { @calls = count(); }%c/bin/sh %s",
			 m->arg, '\0', ctx->writer);

	if (n < 0 || (size_t)n >= len)
		return -1;
	argv[0] = "bpftrace";
	argv[1] = "-e";
	argv[2] = buf;
	argv[3] = "-c";
	argv[4] = buf + strlen(buf) + 1;
	argv[5] = NULL;
	return 0;
}

static int lc_bpftrace_count(struct lc_tracer_ctx *ctx,
			     const struct lc_bench_mech *m,
			     struct lc_tracer_count *c)
{
	char out[PATH_MAX + 32];
	char *text;

	snprintf(out, sizeof(out), "%s/%s.out", ctx->tmpdir, m->name);
	text = lc_read_file(out, NULL);
	c->recorded = 0;
	if (text)
		c->recorded = lc_field_ll(text, "@calls: ", 0);
	if (text && strstr(text, "Lost ")) {
		free(text);
		return lc_tracer_count_set(c, true, "bpftrace lost events");
	}
	free(text);
	return 0;
}

/* predict's configurations */

static long long lc_bpftrace_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static enum lc_tracer_prep lc_pr_bpftrace_prepare(struct lc_tracer_ctx *ctx,
						  char *why, size_t len)
{
	(void)ctx;
	return lc_tracer_need("bpftrace", "bpftrace", why, len);
}

static int lc_pr_bpftrace_start(struct lc_tracer_ctx *ctx, char *why,
				size_t len)
{
	char prog[1024], out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char *argv[] = { "bpftrace", "-B", "line", "-e", prog, NULL };
	long long end = lc_bpftrace_now_ms() + LC_BPFTRACE_READY_MS;
	const char *ev[8];
	int i, n = lc_predict_set_events(ctx->set, ev);
	size_t p;

	p = (size_t)snprintf(prog, sizeof(prog),
			     "BEGIN { printf(\"lc-predict-ready\\n\"); } ");
	for (i = 0; i < n && p < sizeof(prog); i++)
		p += (size_t)snprintf(prog + p, sizeof(prog) - p,
				      "%stracepoint:%s", i ? "," : "", ev[i]);
	if (p < sizeof(prog))
		snprintf(prog + p, sizeof(prog) - p,
			 " { @events = count(); }");
	snprintf(out, sizeof(out), "%s/bpftrace-%d.out", ctx->tmpdir,
		 ctx->run);
	snprintf(err, sizeof(err), "%s/bpftrace-%d.err", ctx->tmpdir,
		 ctx->run);
	if (lc_tracer_bg_start(ctx, argv, out, err)) {
		snprintf(why, len, "bpftrace: %s", strerror(errno));
		return -1;
	}
	/* BEGIN runs once every probe is attached. */
	while (!lc_tracer_bg_gone(ctx) && !lc_signal_caught() &&
	       lc_bpftrace_now_ms() < end) {
		if (lc_tracer_file_has(out, "lc-predict-ready"))
			return 0;
		usleep(20000);
	}
	lc_tracer_bg_stop(ctx);
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "bpftrace did not attach: %s",
		 last[0] ? last : "it never ran BEGIN");
	return -1;
}

static int lc_pr_bpftrace_stop(struct lc_tracer_ctx *ctx, long long *events,
			       long long *lost, char *why, size_t len)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32];
	int code = lc_tracer_bg_stop(ctx);
	const char *p;
	char *text;

	snprintf(out, sizeof(out), "%s/bpftrace-%d.out", ctx->tmpdir,
		 ctx->run);
	snprintf(err, sizeof(err), "%s/bpftrace-%d.err", ctx->tmpdir,
		 ctx->run);
	if (code) {
		lc_tracer_bg_failed(ctx, "bpftrace", code, err, why, len);
		return -1;
	}
	text = lc_read_file(out, NULL);
	*events = text ? lc_field_ll(text, "@events: ", 0) : 0;
	*lost = 0;
	/* "Lost N events" when its perf buffer overflowed */
	for (p = text; p && (p = strstr(p, "Lost ")); p += 5)
		*lost += strtoll(p + 5, NULL, 10);
	free(text);
	return 0;
}

/* After a run: bpftrace stopped if still there. */
static void lc_pr_bpftrace_teardown(struct lc_tracer_ctx *ctx)
{
	lc_proc_reap(&ctx->background);
}

/* A row of bpftrace: a count map on PROBE, the module's target TARGET. */
#define LC_BPFTRACE_MECH(_name, _order, _target, _probe) {		\
	.name = _name, .order = _order, .probe = "external",		\
	.target = _target, .arg = _probe, .prepare = lc_bpftrace_prepare, \
	.command = lc_bpftrace_command, .count = lc_bpftrace_count,	\
}

static const struct lc_bench_mech lc_bpftrace_rows[] = {
	LC_BPFTRACE_MECH("tracepoint-bpf", 140, "tracepoint",
			 "tracepoint:" LC_BENCH_TP),
	LC_BPFTRACE_MECH("payload-bpf", 180, "payload",
			 "tracepoint:" LC_BENCH_PAYLOAD),
	LC_BPFTRACE_MECH("bpftrace-kprobe", 240, "function",
			 "kprobe:" LC_BENCH_TARGET),
	LC_BPFTRACE_MECH("bpftrace-kretprobe", 250, "function",
			 "kretprobe:" LC_BENCH_TARGET),
	LC_BPFTRACE_MECH("bpftrace-fentry", 260, "function",
			 "kfunc:lttng_calibrate:" LC_BENCH_TARGET),
};

static const struct lc_predict_tracer lc_bpftrace_configs[] = {
	{
		.name = "bpftrace", .order = 30, .cost = "payload-bpf",
		.prepare = lc_pr_bpftrace_prepare,
		.start = lc_pr_bpftrace_start, .stop = lc_pr_bpftrace_stop,
		.teardown = lc_pr_bpftrace_teardown,
	},
};

const struct lc_tracer lc_tracer_bpftrace =
	LC_TRACER("bpftrace", lc_bpftrace_rows, lc_bpftrace_configs);
