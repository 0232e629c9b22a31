// SPDX-License-Identifier: GPL-2.0
/*
 * The tracers' commands, for every tracer: run with a timeout in a
 * process group of their own, or in the background during a run; their
 * output in a private scratch directory, read back and counted.  Calls
 * tools/lib only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lttng-calibrate.h"
#include "tracer-run.h"

/* The scratch directory */

/**
 * lc_tracer_scratch() - the bench's scratch directory, and the writer in it
 * @ctx: the bench (@iterations set); @tmpdir and @writer are set
 *
 * Return: 0, or -1 after a message (@tmpdir "" when there is none).
 */
int lc_tracer_scratch(struct lc_tracer_ctx *ctx)
{
	char script[128];
	int err;

	snprintf(ctx->tmpdir, sizeof(ctx->tmpdir),
		 "/tmp/lttng-calibrate-bench.XXXXXX");
	if (!mkdtemp(ctx->tmpdir)) {
		lc_err("mkdtemp %s: %s", ctx->tmpdir, strerror(errno));
		ctx->tmpdir[0] = '\0';
		return -1;
	}
	snprintf(ctx->writer, sizeof(ctx->writer), "%s/run", ctx->tmpdir);
	snprintf(script, sizeof(script), "#!/bin/sh\necho %llu > %s/run\n",
		 ctx->iterations, LC_DIR);
	err = lc_tracer_write(ctx->writer, script,
			      O_CREAT | O_EXCL | O_NOFOLLOW);
	if (!err && chmod(ctx->writer, 0700))
		err = errno;
	if (err) {
		lc_err("writing %s: %s", ctx->writer, strerror(err));
		return -1;
	}
	return 0;
}

/**
 * lc_tracer_scratch_remove() - the scratch directory removed, if any
 * @ctx: the bench; @tmpdir is "" after
 */
void lc_tracer_scratch_remove(struct lc_tracer_ctx *ctx)
{
	if (ctx->tmpdir[0])
		lc_rm_tree(ctx->tmpdir);
	ctx->tmpdir[0] = '\0';
}

/* Commands and their output */

/**
 * lc_tracer_need() - is a tracer's command installed?
 * @cmd: the command
 * @package: the Debian package that has it
 * @why: where to say what to install
 * @len: its size
 *
 * Return: LC_PREP_OK, or LC_PREP_UNAVAILABLE with @why set.
 */
enum lc_tracer_prep lc_tracer_need(const char *cmd, const char *package,
				   char *why, size_t len)
{
	char path[PATH_MAX];

	if (!lc_proc_find(cmd, path, sizeof(path)))
		return LC_PREP_OK;
	snprintf(why, len, "%s is not installed (apt-get install %s)", cmd,
		 package);
	return LC_PREP_UNAVAILABLE;
}

/**
 * lc_tracer_exec() - run a command to its end
 * @argv: the command
 * @out: file for its stdout, or NULL for /dev/null
 * @err: file for its stderr, or NULL for /dev/null
 * @timeout_s: stop it after that many seconds (0: never)
 * @killable: stop it too when the bench is interrupted
 *
 * The command reads /dev/null and runs in its own process group, so that
 * a Ctrl-C at the terminal reaches the bench only; a stop is SIGINT, then
 * SIGKILL 5 s later.  When it cannot be started, @err says why.
 *
 * Return: its exit status, 128 + a signal that killed it, -1 when it
 * could not be started, or LC_PROC_TIMED_OUT when it was stopped after
 * @timeout_s seconds.
 */
int lc_tracer_exec(char *const argv[], const char *out, const char *err,
		   int timeout_s, bool killable)
{
	struct lc_proc p = {
		.argv = argv,
		.out = out ? out : "/dev/null",
		.err = err ? err : "/dev/null",
		.null_in = true,
		.group = true,
		.timeout_ms = timeout_s * 1000,
		.stop_on_signal = killable,
		.kill_ms = LC_TRACER_KILL_MS,
	};
	char why[PATH_MAX + 64];
	int rc = lc_proc_run(&p);

	if (rc == -1 && err) {
		snprintf(why, sizeof(why), "%s: %s\n", argv[0],
			 strerror(errno));
		lc_tracer_write(err, why, O_CREAT | O_TRUNC);
	}
	return rc;
}

/**
 * lc_tracer_output_line() - the first line a command prints
 * @ctx: the bench (its scratch directory)
 * @argv: the command
 * @buf: where to copy the line ("" when the command fails)
 * @len: its size
 */
void lc_tracer_output_line(struct lc_tracer_ctx *ctx, char *const argv[],
			   char *buf, size_t len)
{
	char out[PATH_MAX + 32];
	char *text;

	buf[0] = '\0';
	snprintf(out, sizeof(out), "%s/line.out", ctx->tmpdir);
	if (!lc_tracer_exec(argv, out, NULL, 30, false)) {
		text = lc_read_file(out, NULL);
		snprintf(buf, len, "%s", text ? text : "");
		buf[strcspn(buf, "\n")] = '\0';
		free(text);
	}
	unlink(out);
}

/* What lc_tracer_count_lines() counts, line by line. */
struct lc_count {
	const char *needle;
	const char *needle2;
	long long n;
	long long n2;
};

static void lc_count_line(char *line, void *data)
{
	struct lc_count *c = data;

	if (strstr(line, c->needle))
		c->n++;
	else if (c->needle2 && strstr(line, c->needle2))
		c->n2++;
}

/**
 * lc_tracer_count_lines() - lines of a command's stdout that hold a needle
 * @ctx: the bench (its scratch directory)
 * @argv: the command (perf script, babeltrace2)
 * @name: the row, to name the files
 * @needle: what the lines counted hold
 * @needle2: what the lines counted in *@count2 hold, or NULL
 * @count2: where to count those, or NULL
 * @errpath: where to store the path of the command's stderr
 * @errlen: its size
 *
 * The output is read through a pipe, never written to a file: the text of
 * a trace holds the kernel's text addresses (ip, parent_ip).  The command
 * runs as lc_tracer_exec() runs it, stopped after 30 minutes or when the
 * bench is interrupted.
 *
 * Return: the lines with @needle, or -1 when the command failed.
 */
long long lc_tracer_count_lines(struct lc_tracer_ctx *ctx, char *const argv[],
				const char *name, const char *needle,
				const char *needle2, long long *count2,
				char *errpath, size_t errlen)
{
	struct lc_count c = { needle, needle2, 0, 0 };
	struct lc_proc p = {
		.argv = argv, .err = errpath, .null_in = true, .group = true,
		.timeout_ms = 1800 * 1000, .stop_on_signal = true,
		.kill_ms = LC_TRACER_KILL_MS,
	};
	char why[PATH_MAX + 64];
	int rc;

	snprintf(errpath, errlen, "%s/%s.count.err", ctx->tmpdir, name);
	rc = lc_proc_run_lines(&p, lc_count_line, &c);
	if (rc == -1) {
		snprintf(why, sizeof(why), "%s: %s\n", argv[0],
			 strerror(errno));
		lc_tracer_write(errpath, why, O_CREAT | O_TRUNC);
	}
	if (rc)
		return -1;
	if (count2)
		*count2 = c.n2;
	return c.n;
}

/**
 * lc_tracer_modinfo() - is a module installed for this kernel?
 * @ctx: the tracers' state, for the scratch directory
 * @module: the module
 * @missing: what @why says when it is not installed
 * @why: where to say why not
 * @len: its size
 *
 * modinfo exits 1 for a module it does not find, and only then is it not
 * installed; any other way modinfo ends is a failure, with what it said.
 *
 * Return: LC_PREP_OK; LC_PREP_UNAVAILABLE when it is not installed;
 * LC_PREP_FAILED otherwise; @why says what.
 */
enum lc_tracer_prep lc_tracer_modinfo(struct lc_tracer_ctx *ctx,
				      const char *module, const char *missing,
				      char *why, size_t len)
{
	char *argv[] = { "modinfo", (char *)module, NULL };
	char err[PATH_MAX + 32], last[160] = "";
	int status;

	snprintf(err, sizeof(err), "%s/modinfo.err", ctx->tmpdir);
	status = lc_tracer_exec(argv, NULL, err, 30, false);
	if (!status)
		return LC_PREP_OK;
	lc_tracer_last_line(err, last, sizeof(last));
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
 * lc_tracer_last_line() - the last non-empty line of a file
 * @path: the file
 * @buf: where to copy it ("" when there is none)
 * @len: its size
 */
void lc_tracer_last_line(const char *path, char *buf, size_t len)
{
	char *text = lc_read_file(path, NULL);
	char *end, *start;

	buf[0] = '\0';
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(text, '\n');
	snprintf(buf, len, "%s", start ? start + 1 : text);
	free(text);
}

/**
 * lc_tracer_count_failed() - a count failed, for the reason a command gave
 * @c: the count
 * @path: the command's standard error: its last line is the reason
 *
 * Return: -1, for "return lc_tracer_count_failed(...);".
 */
int lc_tracer_count_failed(struct lc_tracer_count *c, const char *path)
{
	c->lost = false;
	lc_tracer_last_line(path, c->reason, sizeof(c->reason));
	return -1;
}

/**
 * lc_tracer_file_has() - does a file hold a word, in any case?
 * @path: the file
 * @word: the word
 *
 * Return: 1 or 0 (0 too when it cannot be read).
 */
int lc_tracer_file_has(const char *path, const char *word)
{
	char *text = lc_read_file(path, NULL);
	int found = text && strcasestr(text, word);

	free(text);
	return found;
}

/* A tracer in the background */

/*
 * How long a tracer asked to stop (SIGINT) may take to print what it
 * counted and detach before it is killed: bpftrace detaching every system
 * call's tracepoints took more than 5 s in an arm64 guest under TCG on a
 * busy host, and its count died with it.
 */
#define LC_TRACER_STOP_MS	60000

/**
 * lc_tracer_bg_start() - a tracer started in the background
 * @ctx: the tracers' state; @background is set
 * @argv: the tracer's command
 * @out: file for its stdout
 * @err: file for its stderr
 *
 * It runs in a process group of its own, reading /dev/null, until
 * lc_tracer_bg_stop().
 *
 * Return: 0, or -1 with errno set.
 */
int lc_tracer_bg_start(struct lc_tracer_ctx *ctx, char **argv,
		       const char *out, const char *err)
{
	ctx->background = (struct lc_proc){
		.argv = argv, .out = out, .err = err, .null_in = true,
		.group = true, .kill_ms = LC_TRACER_STOP_MS,
	};
	return lc_proc_start(&ctx->background);
}

/**
 * lc_tracer_bg_gone() - has the background tracer exited?
 * @ctx: the tracers' state
 *
 * It is not reaped: lc_tracer_bg_stop() still gets its status.
 *
 * Return: true when it exited, or never ran.
 */
bool lc_tracer_bg_gone(struct lc_tracer_ctx *ctx)
{
	siginfo_t info = { 0 };

	if (ctx->background.pid <= 0)
		return true;
	if (waitid(P_PID, ctx->background.pid, &info,
		   WEXITED | WNOHANG | WNOWAIT))
		return true;
	return info.si_pid != 0;
}

/**
 * lc_tracer_bg_stop() - the background tracer stopped and waited for
 * @ctx: the tracers' state
 *
 * It is stopped with SIGINT, killed when it is still there
 * LC_TRACER_STOP_MS later.
 *
 * Return: its status: 0 also when it ended by that SIGINT (perf record
 * raises it again once its data is written); -1 when there is none.
 */
int lc_tracer_bg_stop(struct lc_tracer_ctx *ctx)
{
	int code;

	if (ctx->background.pid <= 0)
		return -1;
	lc_proc_stop(&ctx->background);
	if (lc_proc_wait(&ctx->background))
		return -1;
	lc_proc_reap(&ctx->background);
	code = lc_proc_exit_code(ctx->background.status);
	return code == 128 + SIGINT ? 0 : code;
}

/**
 * lc_tracer_bg_failed() - why the background tracer failed to stop
 * @ctx: the tracers' state
 * @name: the tracer, as the reason names it
 * @code: its status, as lc_tracer_bg_stop() gave it
 * @err: its standard error, whose last line is its own reason
 * @why: where to say why
 * @len: its size
 */
void lc_tracer_bg_failed(struct lc_tracer_ctx *ctx, const char *name,
			 int code, const char *err, char *why, size_t len)
{
	char last[160];

	if (ctx->background.killed) {
		snprintf(why, len,
			 "%s was still there %d s after its SIGINT and was killed",
			 name, LC_TRACER_STOP_MS / 1000);
		return;
	}
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "%s exited with status %d%s%s", name, code,
		 last[0] ? ": " : "", last);
}
