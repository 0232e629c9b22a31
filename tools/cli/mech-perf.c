// SPDX-License-Identifier: GPL-2.0
/*
 * perf's mechanisms of lttng-calibrate bench: perf record on the module's
 * tracepoint, and on a probe that perf probe adds to the target (and
 * deletes after the row).  perf record runs the writer; perf script counts
 * its samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mechanisms.h"

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
	if (n < 0) {
		return lc_tracer_count_failed(c, err);
	}
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

const struct lc_bench_mech lc_bench_tracepoint_perf = {
	.name = "tracepoint-perf", .probe = "external", .target = "tracepoint",
	.arg = LC_BENCH_TP,
	.prepare = lc_perf_tp_prepare, .command = lc_perf_command,
	.count = lc_perf_count,
};

const struct lc_bench_mech lc_bench_payload_perf = {
	.name = "payload-perf", .probe = "external", .target = "payload",
	.arg = LC_BENCH_PAYLOAD,
	.prepare = lc_perf_tp_prepare, .command = lc_perf_command,
	.count = lc_perf_count,
};

const struct lc_bench_mech lc_bench_perf_probe = {
	.name = "perf-probe", .probe = "external", .target = "function",
	.arg = "probe:" LC_EV_PERF,
	.prepare = lc_perf_probe_prepare, .command = lc_perf_command,
	.count = lc_perf_count, .teardown = lc_perf_probe_teardown,
};
