// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng sessions for the tracers of every command: the lttng client run
 * to its end, and lttng-sessiond, the one running or one started with the
 * probes a command asks for and stopped after its last session (LTTng's
 * modules unloaded when none were loaded before).  Calls tracer-run.c and
 * tools/lib only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sessions.h"

/* LTTng's probe for the module's tracepoints, as lttng-sessiond names it. */
#define LC_LTTNG_PROBE		"lttng-calibrate"

/**
 * lc_session_lttng() - run the lttng client to its end
 * @err: file for its stderr, or NULL
 * @...: its arguments, NULL-terminated
 *
 * Return: what lc_tracer_exec() returns.
 */
int lc_session_lttng(const char *err, ...)
{
	char *argv[LC_TRACER_ARGV_MAX];
	va_list ap;
	int n = 0;

	argv[n++] = "lttng";
	va_start(ap, err);
	while (n < LC_TRACER_ARGV_MAX - 1) {
		argv[n] = va_arg(ap, char *);
		if (!argv[n])
			break;
		n++;
	}
	va_end(ap);
	argv[n] = NULL;
	return lc_tracer_exec(argv, NULL, err, LC_TRACER_CMD_TIMEOUT, false);
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
static void lc_sessiond_adopt(struct lc_tracer_ctx *ctx, pid_t pid)
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
 * (and noted in @ctx, for lc_session_finish()).
 */
static enum lc_tracer_prep lc_sessiond(struct lc_tracer_ctx *ctx, char *why,
				       size_t len)
{
	char probes[256];
	char *start[] = { "lttng-sessiond", "--daemonize", probes, NULL };
	char err[PATH_MAX + 32], *pid;
	int i, status;

	snprintf(probes, sizeof(probes), "--kmod-probes=%s",
		 ctx->lttng_probes ? ctx->lttng_probes : LC_LTTNG_PROBE);
	snprintf(err, sizeof(err), "%s/lttng-list.err", ctx->tmpdir);
	if (!lc_session_lttng(err, "list", "--kernel", NULL))
		return LC_PREP_OK;
	if (ctx->sessiond) {
		snprintf(why, len, "lttng-sessiond no longer answers");
		return LC_PREP_FAILED;
	}
	ctx->lttng_modules_before = lc_lttng_modules_loaded();
	ctx->touched |= LC_T_SESSIOND;
	status = lc_tracer_exec(start, NULL, NULL, LC_TRACER_CMD_TIMEOUT,
				false);
	if (status == LC_PROC_TIMED_OUT) {
		snprintf(why, len, "lttng-sessiond --daemonize did not finish in %d s",
			 LC_TRACER_CMD_TIMEOUT);
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
		if (!lc_session_lttng(err, "list", "--kernel", NULL))
			return LC_PREP_OK;
		sleep(1);
	}
	lc_tracer_last_line(err, why, len);
	return LC_PREP_FAILED;
}

/**
 * lc_session_finish() - after the last LTTng row: the lttng-sessiond
 * the bench started stopped
 * @ctx: the bench
 *
 * It unloads LTTng's modules on its way out; those left are removed when
 * none were loaded before the bench.  Idempotent.
 */
void lc_session_finish(struct lc_tracer_ctx *ctx)
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
				lc_tracer_exec(argv, NULL, NULL, 30, false);
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		free(mods);
	}
}

/**
 * lc_session_available() - lttng-tools, babeltrace2 and lttng-modules
 * for this kernel, and lttng-sessiond (the one running, or one started)
 * @ctx: the bench
 * @why: where to say why not
 * @len: its size
 *
 * Return: LC_PREP_OK; LC_PREP_UNAVAILABLE when something is not
 * installed; LC_PREP_FAILED otherwise; @why says what.
 */
enum lc_tracer_prep lc_session_available(struct lc_tracer_ctx *ctx,
					 char *why, size_t len)
{
	enum lc_tracer_prep rc;

	rc = lc_tracer_need("lttng", "lttng-tools", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_tracer_need("lttng-sessiond", "lttng-tools", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_tracer_need("babeltrace2", "babeltrace2", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	rc = lc_tracer_modinfo(ctx, "lttng-tracer",
			       "lttng-modules are not installed for this kernel (tools/lttng/build-lttng-modules)",
			       why, len);
	if (rc != LC_PREP_OK)
		return rc;
	return lc_sessiond(ctx, why, len);
}
