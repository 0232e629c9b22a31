// SPDX-License-Identifier: GPL-2.0
/*
 * perf.  What lttng-calibrate bench measures of it: perf record on the
 * module's tracepoints, and on a probe that perf probe adds to the target
 * (and deletes after the row); perf record runs the writer, perf script
 * counts its samples.  What lttng-calibrate predict runs of it: perf
 * record -a of the set's tracepoints, started disabled and enabled
 * through its control pipe (perf report --stats counts the samples and
 * the lost ones).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tracers.h"

/* How long perf record may take to be ready. */
#define LC_PERF_READY_MS	120000

/* The bench's rows */

/* Our probe's name: nobody else's is ever deleted. */
#define LC_EV_PERF		"lc_bench_perf"

/* perf record: the event's samples of the whole machine during the run. */
static enum lc_tracer_prep lc_perf_tp_prepare(struct lc_tracer_ctx *ctx,
					      const struct lc_bench_mech *m,
					      char *why, size_t len)
{
	if (!ctx->tracefs[0] || !lc_tfs_exists(ctx, lc_bench_tp_dir(m))) {
		snprintf(why, len, "no tracefs, or no %s in it",
			 lc_bench_tp_dir(m));
		return LC_PREP_UNAVAILABLE;
	}
	return lc_tracer_need("perf", "linux-perf", why, len);
}

/* Is @file the loaded module's .ko?  Its GNU build ID note is in it. */
static int lc_is_loaded_module(const char *file)
{
	size_t nlen = 0, flen = 0;
	char *note = lc_read_file("/sys/module/lttng_calibrate/notes/.note.gnu.build-id",
				 &nlen);
	char *ko;
	int same;

	if (!note || nlen < 16) {
		free(note);
		return 1;	/* no build ID to compare: trust the file */
	}
	ko = lc_read_file(file, &flen);
	same = ko && memmem(ko, flen, note, nlen);
	free(ko);
	free(note);
	return same;
}

/*
 * The .ko file of the loaded module, for perf probe -m: perf resolves a
 * module's function from its ELF symbols only, not from kallsyms.  The
 * installed one (modinfo -n), else $LTTNG_CALIBRATE_KO, if it has the
 * loaded module's build ID.
 */
static int lc_module_file(struct lc_tracer_ctx *ctx, char *file, size_t len)
{
	char *where[] = { "modinfo", "-n", "lttng_calibrate", NULL };
	const char *env = getenv("LTTNG_CALIBRATE_KO");
	int i;

	for (i = 0; i < 2; i++) {
		if (i == 0)
			lc_tracer_output_line(ctx, where, file, len);
		else
			snprintf(file, len, "%s", env ? env : "");
		if (file[0] && !access(file, R_OK) && lc_is_loaded_module(file))
			return 0;
	}
	return -1;
}

/* perf probe --add, as perf users do; perf record on the probe event. */
static enum lc_tracer_prep lc_perf_probe_prepare(struct lc_tracer_ctx *ctx,
						 const struct lc_bench_mech *m,
						 char *why, size_t len)
{
	char ko[PATH_MAX];
	char *argv[] = { "perf", "probe", "-q", "-m", ko, "--add",
			 LC_EV_PERF "=" LC_BENCH_TARGET, NULL };
	char err[PATH_MAX + 32], last[160];
	enum lc_tracer_prep rc = lc_tracer_need("perf", "linux-perf", why, len);
	int status;

	(void)m;
	if (rc == LC_PREP_OK)
		rc = lc_tracefs_need(ctx, "kprobe_events", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	if (lc_module_file(ctx, ko, sizeof(ko))) {
		snprintf(why, len,
			 "perf probe needs the loaded module's .ko (install it, or set LTTNG_CALIBRATE_KO=PATH)");
		return LC_PREP_UNAVAILABLE;
	}
	snprintf(err, sizeof(err), "%s/perf-probe.err", ctx->tmpdir);
	ctx->touched |= LC_T_PERF_PROBE;
	status = lc_tracer_exec(argv, NULL, err, LC_TRACER_CMD_TIMEOUT, true);
	if (status == LC_PROC_TIMED_OUT) {
		snprintf(why, len, "perf probe -m %s --add did not finish in %d s",
			 ko, LC_TRACER_CMD_TIMEOUT);
		return LC_PREP_FAILED;
	}
	if (status) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "perf probe -m %s --add failed (%d): %s",
			 ko, status, last);
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/*
 * perf record's buffer: every sample of the run fits, 128 bytes each.  No
 * build-ids (-B): they would take perf a second pass over the samples at
 * its exit, and perf script -F event has no use for them.
 */
static int lc_perf_command(struct lc_tracer_ctx *ctx,
			   const struct lc_bench_mech *m, char **argv,
			   char *buf, size_t len)
{
	unsigned long long need = (ctx->iterations + 1) * 128 / 4096, pages;
	int n;

	for (pages = 256; pages < need && pages < 16384; pages *= 2)
		;
	n = snprintf(buf, len, "%llu%c%s/perf.data", pages, '\0',
		     ctx->tmpdir);
	if (n < 0 || (size_t)n >= len)
		return -1;
	argv[0] = "perf";
	argv[1] = "record";
	argv[2] = "-q";
	argv[3] = "-B";
	argv[4] = "-e";
	argv[5] = (char *)m->arg;
	argv[6] = "-a";
	argv[7] = "-m";
	argv[8] = buf;
	argv[9] = "-o";
	argv[10] = buf + strlen(buf) + 1;
	argv[11] = "--";
	argv[12] = ctx->writer;
	argv[13] = NULL;
	return 0;
}

static int lc_perf_count(struct lc_tracer_ctx *ctx,
			 const struct lc_bench_mech *m,
			 struct lc_tracer_count *c)
{
	char data[PATH_MAX + 32], err[PATH_MAX + 32], rec_err[PATH_MAX + 32];
	char *argv[] = { "perf", "script", "-i", data, "-F", "event", NULL };
	const char *ev = strchr(m->arg, ':') + 1;
	long long n;

	snprintf(data, sizeof(data), "%s/perf.data", ctx->tmpdir);
	snprintf(rec_err, sizeof(rec_err), "%s/%s.err", ctx->tmpdir, m->name);
	n = lc_tracer_count_lines(ctx, argv, m->name, ev, NULL, NULL, err,
				  sizeof(err));
	unlink(data);
	if (n < 0)
		return lc_tracer_count_failed(c, err);
	c->recorded = n;
	if (lc_tracer_file_has(err, "lost") || lc_tracer_file_has(rec_err, "lost")) {
		return lc_tracer_count_set(c, true,
					"perf lost samples: see perf script's warning");
	}
	return 0;
}

/* After the perf-probe row: the probe deleted. */
static void lc_perf_probe_teardown(struct lc_tracer_ctx *ctx,
				   const struct lc_bench_mech *m)
{
	char *argv[] = { "perf", "probe", "--del", "probe:" LC_EV_PERF, NULL };

	(void)m;
	if (!(ctx->touched & LC_T_PERF_PROBE))
		return;
	if (lc_tfs_exists(ctx, "events/probe/" LC_EV_PERF))
		lc_tracer_exec(argv, NULL, NULL, LC_TRACER_CMD_TIMEOUT, false);
	/* What perf probe --del left, through tracefs. */
	lc_tracefs_remove_event(ctx, "kprobe_events", "probe", LC_EV_PERF);
	ctx->touched &= ~LC_T_PERF_PROBE;
}

/* predict's configurations */

/* After a run: perf stopped if still there; its control pipe closed. */
static void lc_pr_perf_teardown(struct lc_tracer_ctx *ctx)
{
	lc_proc_reap(&ctx->background);
	if (ctx->perf_ctl_open)
		close(ctx->perf_ctl);
	ctx->perf_ctl_open = false;
}

/* perf record -a, started disabled, enabled through its control pipe. */

static enum lc_tracer_prep lc_pr_perf_prepare(struct lc_tracer_ctx *ctx,
					      char *why, size_t len)
{
	enum lc_tracer_prep rc = lc_tracer_need("perf", "linux-perf", why, len);
	const char *ev[8];
	char dir[96];
	int i, n = lc_predict_set_events(ctx->set, ev);

	if (rc == LC_PREP_OK)
		rc = lc_tracefs_need(ctx, NULL, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "events/%s", ev[i]);
		*strchr(dir, ':') = '/';
		if (!lc_tfs_exists(ctx, dir)) {
			snprintf(why, len, "this kernel has no %s/%s",
				 ctx->tracefs, dir);
			return LC_PREP_UNAVAILABLE;
		}
	}
	return LC_PREP_OK;
}

/*
 * perf record -a, its events disabled (-D -1) until its control pipe
 * says "enable" and it answers "ack" on the other: then it records.  The
 * pipes are perf's file descriptors (--control fd:CTL,ACK); our ends are
 * closed on exec, perf's closed here once it has them, and our end of the
 * control pipe only after perf stopped.
 */
static int lc_pr_perf_start(struct lc_tracer_ctx *ctx, char *why,
			    size_t len)
{
	char data[PATH_MAX + 32], out[PATH_MAX + 32], err[PATH_MAX + 32];
	/* 11 words, then 3 per event */
	char *argv[11 + 3 * 8 + 1], reply[16] = "", last[160], step[128];
	char control[64];
	int ctl[2], ack[2], i, n, a = 0, pr = 0, code;
	const char *ev[8];
	struct pollfd pfd;
	ssize_t w = -1;

	n = lc_predict_set_events(ctx->set, ev);
	if (pipe(ctl))
		goto fail_pipe;
	if (pipe(ack)) {
		close(ctl[0]);
		close(ctl[1]);
		goto fail_pipe;
	}
	fcntl(ctl[1], F_SETFD, FD_CLOEXEC);
	fcntl(ack[0], F_SETFD, FD_CLOEXEC);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
	snprintf(data, sizeof(data), "%s/perf-%d.data", ctx->tmpdir,
		 ctx->run);
	snprintf(out, sizeof(out), "%s/perf-%d.out", ctx->tmpdir, ctx->run);
	snprintf(err, sizeof(err), "%s/perf-%d.err", ctx->tmpdir, ctx->run);
	argv[a++] = "perf";
	argv[a++] = "record";
	argv[a++] = "-a";
	argv[a++] = "-m";
	argv[a++] = "1024";
	argv[a++] = "-D";
	argv[a++] = "-1";
	argv[a++] = "--control";
	argv[a++] = control;
	argv[a++] = "-o";
	argv[a++] = data;
	/* Not what perf's own reading and writing hits. */
	for (i = 0; i < n; i++) {
		argv[a++] = "-e";
		argv[a++] = (char *)ev[i];
		argv[a++] = "--exclude-perf";
	}
	argv[a] = NULL;
	code = lc_tracer_bg_start(ctx, argv, out, err);
	close(ctl[0]);
	close(ack[1]);
	if (code) {
		snprintf(why, len, "perf: %s", strerror(errno));
		close(ctl[1]);
		close(ack[0]);
		return -1;
	}
	w = write(ctl[1], "enable\n", 7);
	pfd = (struct pollfd){ .fd = ack[0], .events = POLLIN };
	if (w == 7)
		pr = poll(&pfd, 1, LC_PERF_READY_MS);
	if (pr == 1 && read(ack[0], reply, sizeof(reply) - 1) > 0 &&
	    !strncmp(reply, "ack", 3)) {
		ctx->perf_ctl = ctl[1];
		ctx->perf_ctl_open = true;
		close(ack[0]);
		return 0;
	}
	close(ctl[1]);
	close(ack[0]);
	snprintf(step, sizeof(step),
		 "no ack after enable (write %zd, poll %d, events %#x)", w, pr,
		 pfd.revents);
	code = lc_tracer_bg_stop(ctx);
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "perf record did not start: %s; perf %s %d%s%s",
		 step, code < 0 ? "not waited for" : "exit status", code,
		 last[0] ? ": " : "", last);
	return -1;
fail_pipe:
	snprintf(why, len, "pipe: %s", strerror(errno));
	return -1;
}

/*
 * "  NAME events:  N" of perf report --stats: its first line, that of the
 * aggregated stats (each event's own stats follow).
 */
static long long lc_pr_perf_stat(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; (p = strstr(p, name)); p += n)
		if (p == text || p[-1] == ' ' || p[-1] == '\n')
			return strtoll(p + n, NULL, 10);
	return 0;
}

static int lc_pr_perf_stop(struct lc_tracer_ctx *ctx, long long *events,
			   long long *lost, char *why, size_t len)
{
	char data[PATH_MAX + 32], out[PATH_MAX + 32], err[PATH_MAX + 32];
	char *argv[] = { "perf", "report", "--stats", "-i", data, NULL };
	char last[160];
	char *text;
	int code = lc_tracer_bg_stop(ctx);

	lc_pr_perf_teardown(ctx);
	snprintf(data, sizeof(data), "%s/perf-%d.data", ctx->tmpdir,
		 ctx->run);
	snprintf(err, sizeof(err), "%s/perf-%d.err", ctx->tmpdir, ctx->run);
	if (code) {
		lc_tracer_bg_failed(ctx, "perf record", code, err, why, len);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/perf-%d.stats", ctx->tmpdir,
		 ctx->run);
	snprintf(err, sizeof(err), "%s/perf-%d.stats.err", ctx->tmpdir,
		 ctx->run);
	if (lc_tracer_exec(argv, out, err, 1800, true)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "perf report --stats: %s", last);
		return -1;
	}
	text = lc_read_file(out, NULL);
	if (!text || !strstr(text, "SAMPLE events:")) {
		snprintf(why, len, "perf report --stats: no SAMPLE events line");
		free(text);
		return -1;
	}
	*events = lc_pr_perf_stat(text, "SAMPLE events:");
	*lost = lc_pr_perf_stat(text, "LOST_SAMPLES events:") +
		lc_pr_perf_stat(text, "LOST events:");
	free(text);
	unlink(data);
	return 0;
}

static const struct lc_bench_mech lc_perf_rows[] = {
	{
		.name = "tracepoint-perf", .order = 130, .probe = "external",
		.target = "tracepoint", .arg = LC_BENCH_TP,
		.prepare = lc_perf_tp_prepare, .command = lc_perf_command,
		.count = lc_perf_count,
	},
	{
		.name = "payload-perf", .order = 170, .probe = "external",
		.target = "payload", .arg = LC_BENCH_PAYLOAD,
		.prepare = lc_perf_tp_prepare, .command = lc_perf_command,
		.count = lc_perf_count,
	},
	{
		.name = "perf-probe", .order = 230, .probe = "external",
		.target = "function", .arg = "probe:" LC_EV_PERF,
		.prepare = lc_perf_probe_prepare, .command = lc_perf_command,
		.count = lc_perf_count, .teardown = lc_perf_probe_teardown,
	},
};

static const struct lc_predict_tracer lc_perf_configs[] = {
	{
		.name = "perf", .order = 20, .cost = "payload-perf",
		.prepare = lc_pr_perf_prepare, .start = lc_pr_perf_start,
		.stop = lc_pr_perf_stop, .teardown = lc_pr_perf_teardown,
	},
};

const struct lc_tracer lc_tracer_perf =
	LC_TRACER("perf", lc_perf_rows, lc_perf_configs);
