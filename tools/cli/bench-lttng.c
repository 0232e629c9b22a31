// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng's mechanisms of lttng-calibrate bench: the module's tracepoints
 * (its plain one and its payload one, through LTTng's probe for them,
 * lttng-probe-lttng-calibrate), a kernel function event (with perf
 * contexts, or not) and a kprobe event on the target, in a session of the
 * bench's own, with lttng-sessiond started when none runs (and stopped
 * after the last LTTng row); babeltrace2 counts the events of the trace.
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

#include "bench-mech.h"

/* Our names: nobody else's session or events are touched. */
#define LC_EV_LTTNG		"lc_bench"
#define LC_EV_LTTNG_KPROBE	"lc_bench_kp"
#define LC_LTTNG_CHANNEL	"lcbench"
/* LTTng's probe for the module's tracepoints, as lttng-sessiond names it. */
#define LC_LTTNG_PROBE		"lttng-calibrate"
#define LC_LTTNG_PROBE_MODULE	"lttng_probe_lttng_calibrate"

/**
 * lc_bench_lttng() - run the lttng client to its end
 * @err: file for its stderr, or NULL
 * @...: its arguments, NULL-terminated
 *
 * Return: what lc_bench_exec() returns.
 */
int lc_bench_lttng(const char *err, ...)
{
	char *argv[LC_BENCH_ARGV_MAX];
	va_list ap;
	int n = 0;

	argv[n++] = "lttng";
	va_start(ap, err);
	while (n < LC_BENCH_ARGV_MAX - 1) {
		argv[n] = va_arg(ap, char *);
		if (!argv[n])
			break;
		n++;
	}
	va_end(ap);
	argv[n] = NULL;
	return lc_bench_exec(argv, NULL, err, LC_BENCH_CMD_TIMEOUT, false);
}

static int lc_lttng_modules_loaded(void)
{
	char *mods = lc_read_file("/proc/modules", NULL);
	char *p = mods;
	int found = 0;

	while (p && *p && !found) {
		found = !strncmp(p, "lttng_", 6) &&
			strncmp(p, "lttng_calibrate ", 16) &&
			strncmp(p, "lttng_calibrate_test_pmu ", 25);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(mods);
	return found;
}

/*
 * The lttng-sessiond just started, from its pidfile, held by a pidfd: its
 * PID is checked once, now (it is an lttng-sessiond, and still there),
 * and the stop at the end goes through the pidfd, to it or to nobody.
 * Without a pidfd (Linux before 5.3) it is left running, and said so.
 */
static void lc_sessiond_adopt(struct lc_bench_ctx *ctx, pid_t pid)
{
	char path[64], *comm;
	int fd = pid > 0 ? lc_pidfd_open(pid) : -1;

	ctx->sessiond = 0;
	if (fd < 0) {
		if (pid > 0)
			fprintf(stderr,
				"lttng-calibrate bench: lttng-sessiond (PID %d) will be left running: pidfd_open: %s\n",
				(int)pid, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	comm = lc_read_file(path, NULL);
	if (comm && !strcmp(comm, "lttng-sessiond\n") &&
	    !lc_pidfd_signal(fd, 0)) {
		ctx->sessiond = pid;
		ctx->sessiond_fd = fd;
	} else {
		close(fd);
	}
	free(comm);
}

/*
 * lttng-sessiond: the one running, or one started with @ctx's probes only
 * (and noted in @ctx, for lc_bench_lttng_finish()).
 */
static enum lc_bench_prep lc_sessiond(struct lc_bench_ctx *ctx, char *why,
				      size_t len)
{
	char probes[256];
	char *start[] = { "lttng-sessiond", "--daemonize", probes, NULL };
	char err[PATH_MAX + 32], *pid;
	int i, status;

	snprintf(probes, sizeof(probes), "--kmod-probes=%s",
		 ctx->lttng_probes ? ctx->lttng_probes : LC_LTTNG_PROBE);
	snprintf(err, sizeof(err), "%s/lttng-list.err", ctx->tmpdir);
	if (!lc_bench_lttng(err, "list", "--kernel", NULL))
		return LC_PREP_OK;
	if (ctx->sessiond) {
		snprintf(why, len, "lttng-sessiond no longer answers");
		return LC_PREP_FAILED;
	}
	ctx->lttng_modules_before = lc_lttng_modules_loaded();
	ctx->touched |= LC_T_SESSIOND;
	status = lc_bench_exec(start, NULL, NULL, LC_BENCH_CMD_TIMEOUT, false);
	if (status == LC_PROC_TIMED_OUT) {
		snprintf(why, len, "lttng-sessiond --daemonize did not finish in %d s",
			 LC_BENCH_CMD_TIMEOUT);
		return LC_PREP_FAILED;
	}
	if (status) {
		snprintf(why, len, "lttng-sessiond --daemonize failed");
		return LC_PREP_FAILED;
	}
	pid = lc_read_file("/var/run/lttng/lttng-sessiond.pid", NULL);
	lc_sessiond_adopt(ctx, pid ? atoi(pid) : 0);
	free(pid);
	for (i = 0; i < 60 && !lc_signal_caught(); i++) {
		if (!lc_bench_lttng(err, "list", "--kernel", NULL))
			return LC_PREP_OK;
		sleep(1);
	}
	lc_bench_last_line(err, why, len);
	return LC_PREP_FAILED;
}

/**
 * lc_bench_lttng_finish() - after the last LTTng row: the lttng-sessiond
 * the bench started stopped
 * @ctx: the bench
 *
 * It unloads LTTng's modules on its way out; those left are removed when
 * none were loaded before the bench.  Idempotent.
 */
void lc_bench_lttng_finish(struct lc_bench_ctx *ctx)
{
	char *mods, *p;
	int pass;

	if (!(ctx->touched & LC_T_SESSIOND))
		return;
	if (ctx->sessiond > 0) {
		lc_pidfd_signal(ctx->sessiond_fd, SIGTERM);
		if (!lc_pidfd_wait(ctx->sessiond_fd, 60000) &&
		    !lc_pidfd_signal(ctx->sessiond_fd, SIGKILL))
			lc_pidfd_wait(ctx->sessiond_fd, 5000);
		close(ctx->sessiond_fd);
	}
	ctx->sessiond = 0;
	ctx->touched &= ~LC_T_SESSIOND;
	for (pass = 0; pass < 3 && !ctx->lttng_modules_before; pass++) {
		mods = lc_read_file("/proc/modules", NULL);
		for (p = mods; p && *p;) {
			size_t n = strcspn(p, " ");
			char name[64];
			char *argv[] = { "modprobe", "-r", name, NULL };

			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			if (!strncmp(name, "lttng_", 6) &&
			    strcmp(name, "lttng_calibrate") &&
			    strcmp(name, "lttng_calibrate_test_pmu"))
				lc_bench_exec(argv, NULL, NULL, 30, false);
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		free(mods);
	}
}

/*
 * Is @module installed for this kernel?  modinfo exits 1 for a module it
 * does not find, and only then is it not installed (@missing said); any
 * other way modinfo ends is a failure, with what it said.
 */
static enum lc_bench_prep lc_modinfo(struct lc_bench_ctx *ctx,
				     const char *module, const char *missing,
				     char *why, size_t len)
{
	char *argv[] = { "modinfo", (char *)module, NULL };
	char err[PATH_MAX + 32], last[160] = "";
	int status;

	snprintf(err, sizeof(err), "%s/modinfo.err", ctx->tmpdir);
	status = lc_bench_exec(argv, NULL, err, 30, false);
	if (!status)
		return LC_PREP_OK;
	lc_bench_last_line(err, last, sizeof(last));
	if (status == 1 && strstr(last, "not found")) {
		snprintf(why, len, "%s", missing);
		return LC_PREP_UNAVAILABLE;
	}
	snprintf(why, len, "modinfo %s: %s", module,
		 status == LC_PROC_TIMED_OUT ? "timed out" :
		 *last ? last : "failed");
	return LC_PREP_FAILED;
}

/**
 * lc_bench_lttng_available() - lttng-tools, babeltrace2 and lttng-modules
 * for this kernel, and lttng-sessiond (the one running, or one started)
 * @ctx: the bench
 * @why: where to say why not
 * @len: its size
 *
 * Return: LC_PREP_OK; LC_PREP_UNAVAILABLE when something is not
 * installed; LC_PREP_FAILED otherwise; @why says what.
 */
enum lc_bench_prep lc_bench_lttng_available(struct lc_bench_ctx *ctx,
					    char *why, size_t len)
{
	enum lc_bench_prep rc;

	rc = lc_bench_need("lttng", "lttng-tools", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_bench_need("lttng-sessiond", "lttng-tools", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_bench_need("babeltrace2", "babeltrace2", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	rc = lc_modinfo(ctx, "lttng-tracer",
			"lttng-modules are not installed for this kernel (tools/lttng/build-lttng-modules)",
			why, len);
	if (rc != LC_PREP_OK)
		return rc;
	return lc_sessiond(ctx, why, len);
}

/*
 * The event of a tracepoint row: the tracepoint in the row's target, which
 * LTTng knows when its probe for the module's tracepoints is loaded.
 */
static enum lc_bench_prep lc_lttng_tracepoint(struct lc_bench_ctx *ctx,
					      const struct lc_bench_mech *m,
					      char *event, size_t elen,
					      char *why, size_t len)
{
	enum lc_bench_prep rc;

	/* LTTng names it without its system: the directory's last part. */
	snprintf(event, elen, "%s", strrchr(lc_bench_tp_dir(m), '/') + 1);
	if (!access("/sys/module/" LC_LTTNG_PROBE_MODULE, F_OK))
		return LC_PREP_OK;
	rc = lc_modinfo(ctx, LC_LTTNG_PROBE_MODULE,
			"LTTng has no probe for the module's tracepoints: lttng-probe-lttng-calibrate is not installed (tools/lttng/build-lttng-modules builds it)",
			why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(why, len,
		 "LTTng's probe for the module's tracepoints is not loaded: start lttng-sessiond with --extra-kmod-probes=" LC_LTTNG_PROBE);
	return LC_PREP_UNAVAILABLE;
}

static enum lc_bench_prep lc_lttng_prepare(struct lc_bench_ctx *ctx,
					   const struct lc_bench_mech *m,
					   char *why, size_t len)
{
	char err[PATH_MAX + 32], out[PATH_MAX + 32], last[160];
	char subbuf[32], event[64];
	unsigned long long need = (ctx->iterations + 1) * 2 * 64, nsub;
	int kprobe = !strcmp(m->arg, "kprobe");
	int tracepoint = !strcmp(m->arg, "tracepoint");
	enum lc_bench_prep rc;

	rc = lc_bench_lttng_available(ctx, why, len);
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
	if (lc_bench_lttng(err, "create", ctx->session, out, NULL) ||
	    lc_bench_lttng(err, "enable-channel", "--kernel", "-s",
		     ctx->session, "--subbuf-size=4M", "--num-subbuf", subbuf,
		     LC_LTTNG_CHANNEL, NULL))
		goto fail;
	if (tracepoint) {
		if (lc_bench_lttng(err, "enable-event", "--kernel", "-s",
			     ctx->session, "-c", LC_LTTNG_CHANNEL,
			     "--tracepoint", event, NULL))
			goto fail;
	} else if (kprobe) {
		if (lc_bench_lttng(err, "enable-event", "--kernel", "-s",
			     ctx->session, "-c", LC_LTTNG_CHANNEL,
			     "--probe=" LC_BENCH_TARGET, LC_EV_LTTNG_KPROBE,
			     NULL))
			goto fail;
	} else {
		snprintf(event, sizeof(event), "%s", LC_EV_LTTNG);
		if (lc_bench_lttng(err, "enable-event", "--kernel", "-s",
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
		if (lc_bench_lttng(err, "add-context", "--kernel", "-s",
				   ctx->session, "-c", LC_LTTNG_CHANNEL, "-t",
				   "perf:cpu:cpu-clock",
				   lockdep ? NULL : "-t", "perf:cpu:page-fault",
				   NULL))
			goto fail;
	}
	if (lc_bench_lttng(err, "start", ctx->session, NULL))
		goto fail;
	return LC_PREP_OK;
fail:
	lc_bench_last_line(err, last, sizeof(last));
	snprintf(why, len, "lttng: %s", last);
	return LC_PREP_FAILED;
}

/* LTTng rows: babeltrace2 of the session's trace, its events counted. */
static int lc_lttng_count(struct lc_bench_ctx *ctx,
			  const struct lc_bench_mech *m,
			  struct lc_bench_row *row)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], lerr[PATH_MAX + 32];
	char *argv[] = { "babeltrace2", trace, NULL };
	int kprobe = !strcmp(m->arg, "kprobe");
	int tracepoint = !strcmp(m->arg, "tracepoint");
	long long entries, exits = 0;
	char event[80];

	snprintf(lerr, sizeof(lerr), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	if (lc_bench_lttng(lerr, "stop", ctx->session, NULL)) {
		return lc_bench_row_failed(row, lerr);
	}
	snprintf(trace, sizeof(trace), "%s/trace-%s", ctx->tmpdir, m->name);
	/* A tracepoint row, as the kprobe row: one event per call. */
	snprintf(event, sizeof(event), " %s: ", tracepoint ?
		 strrchr(lc_bench_tp_dir(m), '/') + 1 : LC_EV_LTTNG_KPROBE);
	kprobe |= tracepoint;
	if (kprobe)
		entries = lc_bench_count_lines(ctx, argv, m->name, event, NULL,
					 NULL, err, sizeof(err));
	else
		entries = lc_bench_count_lines(ctx, argv, m->name,
					 " " LC_EV_LTTNG "_entry: ",
					 " " LC_EV_LTTNG "_exit: ", &exits,
					 err, sizeof(err));
	if (entries < 0) {
		return lc_bench_row_failed(row, err);
	}
	row->events_recorded = kprobe || exits > entries ? entries : exits;
	if (lc_bench_file_has(err, "discarded")) {
		return lc_bench_row_set(row, LC_BENCH_LOST,
					"LTTng discarded events (%lld entries, %lld exits)",
					entries, exits);
	}
	if (!kprobe && entries != exits) {
		return lc_bench_row_set(row, LC_BENCH_LOST,
					"%lld entry events but %lld exit events",
					entries, exits);
	}
	return 0;
}

/* After an LTTng row: its session destroyed (its trace stays in tmpdir). */
static void lc_lttng_teardown(struct lc_bench_ctx *ctx,
			      const struct lc_bench_mech *m)
{
	(void)m;
	if (!(ctx->touched & LC_T_LTTNG_SESSION))
		return;
	lc_bench_lttng(NULL, "destroy", ctx->session, NULL);
	ctx->touched &= ~LC_T_LTTNG_SESSION;
}

/* A row of LTTng: ARG says which event (and contexts) on TARGET. */
#define LC_LTTNG_MECH(_name, _target, _arg) {				\
	.name = _name, .probe = "external", .target = _target,		\
	.arg = _arg, .prepare = lc_lttng_prepare, .count = lc_lttng_count, \
	.teardown = lc_lttng_teardown, .finish = lc_bench_lttng_finish,	\
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
