// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tracers' layer (tracer-run.c, sessions.c) without the
 * module or root: the scratch directory (private: the traces in it hold
 * the kernel's text addresses), the count of a command's output lines,
 * which goes to no file, and the end of an lttng-sessiond.
 * "ok - ..." lines (tap.h); run-tests.sh numbers them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sessions.h"
#include "../tracer-run.h"
#include "../../lib/tap.h"

static unsigned int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : (unsigned int)(st.st_mode & 07777);
}

static void test_scratch(struct lc_tracer_ctx *ctx)
{
	unsigned int dir, writer;

	dir = mode_of(ctx->tmpdir);
	tap_check(dir == 0700, "scratch: the directory is 0700 (0%o)", dir);
	writer = mode_of(ctx->writer);
	tap_check(writer == 0700, "scratch: the writer is 0700 (0%o)",
		  writer);
}

/*
 * The command lists the scratch directory while it runs: the text it
 * prints is in no file there.  A command that fails leaves nothing.
 */
static void test_count_lines(struct lc_tracer_ctx *ctx)
{
	char script[PATH_MAX + 64], err[PATH_MAX + 32], out[PATH_MAX + 32];
	char *argv[] = { "sh", "-c", script, NULL };
	long long n, files = -1;

	snprintf(script, sizeof(script),
		 "for f in '%s'/*.count; do [ ! -e \"$f\" ] || "
		 "echo \"file: $f\"; done; "
		 "echo ' ev: 1'; echo 'x ev: 2'; echo ' ev:'", ctx->tmpdir);
	n = lc_tracer_count_lines(ctx, argv, "listing", " ev: ", "file: ",
				  &files, err, sizeof(err));
	tap_check(n == 2, "count: the lines with the needle (%lld)", n);
	tap_check(files == 0,
		  "count: no file of the output in the scratch directory while the command runs (%lld)",
		  files);
	snprintf(script, sizeof(script), "echo ' ev: 1'; exit 3");
	n = lc_tracer_count_lines(ctx, argv, "failing", " ev: ", NULL, NULL,
				  err, sizeof(err));
	tap_check(n == -1, "count: a command that fails is -1 (%lld)", n);
	snprintf(out, sizeof(out), "%s/failing.count", ctx->tmpdir);
	tap_check(access(out, F_OK) && errno == ENOENT,
		  "count: a command that fails leaves no output file");
}

/*
 * lttng-sessiond's PID as the bench read it, now another process's (a
 * reused PID): finishing the LTTng rows must not signal that process.
 * LTTng's modules are said to have been there before, so that nothing
 * is unloaded here.
 */
static void test_sessiond_pid_reused(struct lc_tracer_ctx *ctx)
{
	pid_t other = fork();
	int status = 0, alive;

	if (!other) {
		pause();
		_exit(0);
	}
	ctx->touched |= LC_T_SESSIOND;
	ctx->sessiond = other;
	ctx->lttng_modules_before = 1;
	lc_session_finish(ctx);
	usleep(100000);
	alive = waitpid(other, &status, WNOHANG) == 0;
	tap_check(alive, "sessiond: a process that got its PID is not signalled%s",
		  alive ? "" : " (it was killed)");
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
}

int main(void)
{
	struct lc_tracer_ctx ctx = { .iterations = 5 };

	setenv("PATH", "/usr/bin:/bin", 1);
	if (lc_tracer_scratch(&ctx)) {
		tap_bail_out("lc_tracer_scratch");
		return 1;
	}
	test_scratch(&ctx);
	test_count_lines(&ctx);
	test_sessiond_pid_reused(&ctx);
	lc_tracer_scratch_remove(&ctx);
	tap_check(!ctx.tmpdir[0], "scratch: removed");
	return tap_exit_status();
}
