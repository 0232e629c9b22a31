// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of proc.c: exit statuses, a death by signal, exec failures, a
 * timeout that stops a child and one that has to kill it, a stop on a
 * caught signal, a stop and a reap that reach a whole process group,
 * redirections, a function
 * as the child, and the signal set-up (no SA_RESTART: a caught signal
 * interrupts a blocking read).  "ok - ..." lines (tap.h); run-tests.sh
 * numbers them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lc.h"
#include "../proc.h"
#include "../tap.h"

static char tmpdir[] = "/tmp/proc-test.XXXXXX";

static void sleep_ms(long ms)
{
	const struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Is process (or, negative, process group) @pid gone?  This test is the
 * subreaper of its children's orphans (main()): a killed orphan stays a
 * zombie until it is reaped here, which it is within a second.
 */
static int gone(pid_t pid)
{
	int i;

	for (i = 0; i < 50; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (kill(pid, 0) == -1 && errno == ESRCH)
			return 1;
		sleep_ms(20);
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* sh -c SCRIPT, to its end; its exit code or LC_PROC_TIMED_OUT or -1. */
static int sh(const char *script, struct lc_proc *p)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	p->argv = argv;
	return lc_proc_run(p);
}

static void test_exit_status(void)
{
	struct lc_proc p = { 0 };

	tap_check(sh("exit 0", &p) == 0, "exit status 0");
	tap_check(sh("exit 3", &p) == 3, "exit status 3 is returned");
	tap_check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 3,
		  "the wait status says the child exited with 3");
	tap_check(!p.pid && !p.timed_out, "run: reaped, not timed out");
}

static void test_signal_death(void)
{
	struct lc_proc p = { 0 };
	int rc = sh("kill -TERM $$; sleep 5", &p);

	if (!tap_check(rc == 128 + SIGTERM, "a death by SIGTERM is 128 + 15"))
		tap_diag("got %d", rc);
	tap_check(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGTERM,
		  "the wait status says SIGTERM killed it");
	tap_check(lc_proc_exit_code(p.status) == 128 + SIGTERM,
		  "lc_proc_exit_code() of that status");
}

static void test_exec_failure(void)
{
	char *missing[] = { "lc-proc-test-no-such-command", NULL };
	char notexec[64], path[256];
	char *argv[] = { notexec, NULL };
	struct lc_proc p = { .argv = missing };
	int fd;

	errno = 0;
	tap_check(lc_proc_start(&p) == -1 && errno == ENOENT && !p.pid,
		  "exec failure: a command not on PATH fails to start, ENOENT");
	errno = 0;
	tap_check(lc_proc_run(&p) == -1 && errno == ENOENT,
		  "exec failure: lc_proc_run() returns -1, not an exit status");
	snprintf(notexec, sizeof(notexec), "%s/notexec", tmpdir);
	fd = open(notexec, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		close(fd);
	p.argv = argv;
	errno = 0;
	tap_check(lc_proc_start(&p) == -1 && errno == EACCES,
		  "exec failure: a file that is not executable: the exec's EACCES, from the child");
	tap_check(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
		  "exec failure: the failed child is already reaped");
	tap_check(!lc_proc_find("sh", path, sizeof(path)) &&
		  !access(path, X_OK), "lc_proc_find() finds sh: %s", path);
	setenv("PATH", "/nonexistent", 1);
	tap_check(!lc_proc_find("sh", path, sizeof(path)),
		  "lc_proc_find() finds sh without it on $PATH: %s", path);
	setenv("PATH", "/usr/bin:/bin", 1);
}

static void test_timeout(void)
{
	struct lc_proc p = { .timeout_ms = 200 };
	long long t0 = now_ms();
	int rc = sh("exec sleep 30", &p);

	tap_check(rc == LC_PROC_TIMED_OUT && p.timed_out && !p.killed,
		  "a timeout stops a child that runs on: LC_PROC_TIMED_OUT");
	tap_check(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGINT,
		  "it was stopped by SIGINT");
	if (!tap_check(now_ms() - t0 < 3000, "within the timeout (%lld ms)",
		       now_ms() - t0))
		tap_diag("took %lld ms", now_ms() - t0);
}

static void test_timeout_kill(void)
{
	char *argv[] = { "sh", "-c", "trap '' INT; sleep 30; exit 0", NULL };
	struct lc_proc p = { .argv = argv, .timeout_ms = 100, .kill_ms = 200,
			     .group = true };
	long long t0 = now_ms();
	int rc = lc_proc_start(&p);
	pid_t pgid = p.pgid;

	rc = rc ? rc : lc_proc_wait(&p);
	tap_check(!rc && p.timed_out && p.killed && WIFSIGNALED(p.status) &&
		  WTERMSIG(p.status) == SIGKILL,
		  "a child that ignores SIGINT is killed kill_ms after its timeout, and says so");
	tap_check(now_ms() - t0 < 3000, "and soon (%lld ms)", now_ms() - t0);
	tap_check(pgid > 0 && gone(-pgid) && !p.pgid,
		  "timeout: nothing of its group is left after the wait");
	lc_proc_reap(&p);
}

/* A child whose own child ignores SIGINT: reap ends both. */
static void test_reap_group(void)
{
	char pidfile[64], script[160], *text;
	struct lc_proc p = { .group = true, .kill_ms = 200 };
	char *argv[] = { "sh", "-c", script, NULL };
	pid_t grandchild = 0, pgid;
	int i;

	snprintf(pidfile, sizeof(pidfile), "%s/pid", tmpdir);
	snprintf(script, sizeof(script),
		 "trap '' INT; sleep 30 & echo $! > %s; wait", pidfile);
	p.argv = argv;
	if (lc_proc_start(&p)) {
		tap_check(0, "reap: the child starts");
		return;
	}
	for (i = 0; i < 100 && !grandchild; i++) {
		text = lc_read_file(pidfile, NULL);
		grandchild = text ? atoi(text) : 0;
		free(text);
		sleep_ms(20);
	}
	pgid = p.pgid;
	tap_check(grandchild > 0 && getpgid(grandchild) == pgid &&
		  pgid == p.pid, "group: the child leads a group its child is in");
	tap_check(!lc_proc_reap(&p) && !p.pid && !p.pgid,
		  "reap: stopped, waited for");
	tap_check(gone(grandchild),
		  "reap: the child's own child is gone too");
	tap_check(!lc_proc_reap(&p), "reap: a second time does nothing");
}

/*
 * A process made to get @pid (ns_last_pid, root only) that leads a group
 * of its own, as any other program's child may; 0 when it got another.
 */
static pid_t impostor(pid_t pid)
{
	char last[24];
	pid_t got;
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(last, sizeof(last), "%d", (int)pid - 1);
		if (lc_write_file("/proc/sys/kernel/ns_last_pid", last,
				  strlen(last)))
			return 0;
		got = fork();
		if (!got) {
			setpgid(0, 0);
			pause();
			_exit(0);
		}
		if (got == pid) {
			setpgid(got, got);
			return got;
		}
		kill(got, SIGKILL);
		waitpid(got, NULL, 0);
	}
	return 0;
}

/*
 * A group whose leader has ended and been waited for: its ID is free and
 * may be reused; lc_proc_reap() must not signal a group that reused it.
 */
static void test_reap_reused_group(void)
{
	struct lc_proc p = { .group = true };
	pid_t pgid, other;
	int alive, status;

	if (sh("exit 0", &p) || !p.pgid) {
		tap_check(!p.pgid, "reused group: none left after the wait");
		return;
	}
	pgid = p.pgid;
	other = impostor(pgid);
	if (!other) {
		tap_skip("reused group: no signal to a group that reused the ID: %s",
			 "could not get that PID (ns_last_pid: root only)");
		lc_proc_reap(&p);
		return;
	}
	lc_proc_reap(&p);
	sleep_ms(100);
	alive = waitpid(other, &status, WNOHANG) == 0;
	tap_check(alive, "reused group: no signal to a group that reused the ID%s",
		  alive ? "" : " (it was killed)");
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
}

/*
 * lc_cgroup_kill() on a directory made here: cgroup.procs with lines that
 * are no PID.  Run in a child of its own session, which a kill(0) (the
 * caller's own group) or a kill(-1) would end.
 */
static int cgroup_kill_bad_lines(void *data)
{
	const char *dir = data;

	setsid();
	lc_cgroup_kill(dir);
	return 0;
}

static void test_cgroup_kill(void)
{
	char dir[64], file[96], *text;
	struct lc_proc p = { .fn = cgroup_kill_bad_lines, .data = dir };
	int rc;

	snprintf(dir, sizeof(dir), "%s/cgroup", tmpdir);
	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	mkdir(dir, 0700);
	text = "garbage\n0\n12x\n";
	lc_write_file_flags(file, text, strlen(text), O_CREAT);
	rc = lc_proc_start(&p);
	sleep_ms(200);
	/* Then empty, as if they had gone: the wait for that ends. */
	lc_write_file_flags(file, "", 0, O_TRUNC);
	rc = rc ? rc : lc_proc_wait(&p);
	rc = rc ? rc : lc_proc_exit_code(p.status);
	tap_check(rc == 0,
		  "cgroup kill: lines of cgroup.procs that are no PID signal nobody (%d)",
		  rc);
	snprintf(file, sizeof(file), "%s/cgroup.kill", dir);
	lc_write_file_flags(file, "", 0, O_CREAT);
	rc = lc_proc_run(&p);
	text = lc_read_file(file, NULL);
	tap_check(rc == 0 && text && !strcmp(text, "1"),
		  "cgroup kill: cgroup.kill is written where there is one");
	free(text);
}

/* A pidfd stands for its process: after it ended, nobody is signalled. */
static void test_pidfd(void)
{
	pid_t pid = fork();
	int fd;

	if (!pid) {
		pause();
		_exit(0);
	}
	fd = lc_pidfd_open(pid);
	if (fd < 0 && errno == ENOSYS) {
		tap_skip("pidfd: %s", "no pidfd_open() in this kernel");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	tap_check(fd >= 0 && !lc_pidfd_signal(fd, 0) &&
		  !lc_pidfd_wait(fd, 50), "pidfd: a running process");
	tap_check(!lc_pidfd_signal(fd, SIGTERM) && lc_pidfd_wait(fd, 3000),
		  "pidfd: signalled through it, its end seen");
	waitpid(pid, NULL, 0);
	errno = 0;
	tap_check(lc_pidfd_signal(fd, SIGKILL) == -1 && errno == ESRCH,
		  "pidfd: once reaped, a signal reaches nobody (ESRCH)");
	close(fd);
}

/* In the child: a child of its own that obeys SIGINT, then a wait. */
static int fork_and_wait(void *data)
{
	int *fds = data;
	pid_t pid = fork();

	if (!pid) {
		pause();
		_exit(0);
	}
	if (write(fds[1], &pid, sizeof(pid)) != sizeof(pid))
		return 1;
	pause();
	return 0;
}

static void test_stop_group(void)
{
	int fds[2];
	struct lc_proc p = { .fn = fork_and_wait, .data = fds, .group = true };
	pid_t grandchild = 0;

	if (pipe(fds) || lc_proc_start(&p) ||
	    read(fds[0], &grandchild, sizeof(grandchild)) != sizeof(grandchild)) {
		tap_check(0, "stop: the child and its child start");
		return;
	}
	tap_check(!lc_proc_stop(&p) && !lc_proc_wait(&p) &&
		  WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGINT,
		  "stop: SIGINT ends the child");
	tap_check(gone(grandchild),
		  "stop: SIGINT reaches its whole group, its child too");
	lc_proc_reap(&p);
	close(fds[0]);
	close(fds[1]);
}

static void test_redirect(void)
{
	char out[64], err[64], *o, *e;
	struct lc_proc p = { .null_in = true };

	snprintf(out, sizeof(out), "%s/out", tmpdir);
	snprintf(err, sizeof(err), "%s/err", tmpdir);
	p.out = out;
	p.err = err;
	tap_check(sh("echo to-out; echo to-err >&2; cat", &p) == 0,
		  "redirections: the child runs, reading /dev/null");
	o = lc_read_file(out, NULL);
	e = lc_read_file(err, NULL);
	tap_check(o && !strcmp(o, "to-out\n"), "redirections: stdout to its file");
	tap_check(e && !strcmp(e, "to-err\n"), "redirections: stderr to its file");
	free(o);
	free(e);
	snprintf(out, sizeof(out), "%s/no/out", tmpdir);
	errno = 0;
	tap_check(sh("exit 0", &p) == -1 && errno == ENOENT,
		  "redirections: a file that cannot be created fails the start");
}

/*
 * What a child writes may be private (the bench's traces hold the kernel's
 * text addresses): its files are created 0600 whatever the umask, a file
 * of ours already there is replaced, and nothing planted at the path (a
 * symlink) is written through.
 */
static void test_redirect_private(void)
{
	char out[64], victim[64], *text = NULL;
	struct lc_proc p = { 0 };
	struct stat st;
	mode_t mask = umask(022);
	int fd, rc;

	snprintf(out, sizeof(out), "%s/private", tmpdir);
	p.out = out;
	rc = sh("echo secret", &p);
	if (stat(out, &st))
		st.st_mode = 0;
	tap_check(rc == 0 && (st.st_mode & 0777) == 0600,
		  "private output: a new file is 0600 under umask 022 (0%o)",
		  (unsigned int)(st.st_mode & 0777));
	chmod(out, 0644);
	tap_check(sh("echo again", &p) == 0 && !stat(out, &st) &&
		  (st.st_mode & 0777) == 0600 &&
		  (text = lc_read_file(out, NULL)) && !strcmp(text, "again\n"),
		  "private output: a file of ours is replaced by a new 0600 one");
	free(text);
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, "keep\n", 5) != 5)
			tap_diag("write %s: %s", victim, strerror(errno));
		close(fd);
	}
	snprintf(out, sizeof(out), "%s/link", tmpdir);
	if (symlink(victim, out))
		tap_diag("symlink %s: %s", out, strerror(errno));
	errno = 0;
	tap_check(sh("echo through", &p) == -1 && errno == EEXIST,
		  "private output: a symlink at the path fails the start, EEXIST (%s)",
		  strerror(errno));
	text = lc_read_file(victim, NULL);
	tap_check(text && !strcmp(text, "keep\n"),
		  "private output: the symlink's target is not written");
	free(text);
	p.out = "/dev/null";
	tap_check(sh("echo gone", &p) == 0,
		  "private output: /dev/null is opened as it is");
	umask(mask);
}

struct lines {
	int n, ev;
	size_t longest;
	char last[32];
};

static void count_line(char *text, void *data)
{
	struct lines *l = data;

	l->n++;
	l->ev += !strncmp(text, "ev ", 3);
	if (strlen(text) > l->longest)
		l->longest = strlen(text);
	snprintf(l->last, sizeof(l->last), "%s", text);
}

/* A child's output read through a pipe, line by line: in no file. */
static void test_run_lines(void)
{
	char *argv[] = { "sh", "-c", NULL, NULL };
	struct lc_proc p = { .argv = argv };
	struct lines l = { 0 };
	long long t0;
	int rc;

	argv[2] = "echo 'ev 1'; echo other; echo 'ev 2'; printf 'ev 3'; exit 4";
	rc = lc_proc_run_lines(&p, count_line, &l);
	tap_check(rc == 4 && l.n == 4 && l.ev == 3 && !strcmp(l.last, "ev 3"),
		  "lines: every line, the last without its newline, and the exit status (%d, %d lines)",
		  rc, l.n);
	memset(&l, 0, sizeof(l));
	argv[2] = "head -c 10000 /dev/zero | tr '\\0' x; echo; echo end";
	rc = lc_proc_run_lines(&p, count_line, &l);
	tap_check(rc == 0 && l.longest == 4095 && !strcmp(l.last, "end"),
		  "lines: a long line comes in pieces of 4095 bytes (%zu)",
		  l.longest);
	memset(&l, 0, sizeof(l));
	p = (struct lc_proc){ .argv = argv, .timeout_ms = 200 };
	argv[2] = "echo 'ev 1'; exec sleep 30";
	t0 = now_ms();
	rc = lc_proc_run_lines(&p, count_line, &l);
	tap_check(rc == LC_PROC_TIMED_OUT && l.ev == 1 &&
		  now_ms() - t0 < 3000,
		  "lines: a child that runs on is stopped by its timeout while it is read");
	p = (struct lc_proc){ .argv = argv, .out = "/dev/null" };
	errno = 0;
	tap_check(lc_proc_run_lines(&p, count_line, &l) == -1 &&
		  errno == EINVAL, "lines: @out with a pipe is EINVAL");
}

static int child_fn(void *data)
{
	return *(int *)data + 1;
}

static int polls;

static void count_poll(void *data)
{
	(void)data;
	polls++;
}

static void test_fn(void)
{
	int arg = 41;
	struct lc_proc p = { .fn = child_fn, .data = &arg, .poll_ms = 10 };

	tap_check(lc_proc_run(&p) == 42, "a function as the child: its return is the exit status");
	p = (struct lc_proc){ .poll = count_poll, .poll_ms = 10 };
	sh("sleep 0.3", &p);
	tap_check(polls >= 5, "poll is called while the child runs (%d times)",
		  polls);
}

static void test_signals(void)
{
	struct lc_proc p = { .stop_on_signal = true };
	struct sigaction sa;
	int fds[2], rc;
	char c;
	pid_t pid;

	tap_check(!lc_signal_catch() && !lc_signal_caught(),
		  "signals: caught, none yet");
	sigaction(SIGINT, NULL, &sa);
	tap_check(sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN &&
		  !(sa.sa_flags & SA_RESTART),
		  "signals: SIGINT has a handler, without SA_RESTART");
	sigaction(SIGPIPE, NULL, &sa);
	tap_check(sa.sa_handler == SIG_IGN, "signals: SIGPIPE ignored");

	/* A blocking read, and SIGINT 100 ms into it: EINTR, not a wait. */
	if (pipe(fds)) {
		tap_check(0, "pipe");
		return;
	}
	pid = fork();
	if (!pid) {
		sleep_ms(100);
		kill(getppid(), SIGINT);
		sleep(2);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	rc = read(fds[0], &c, 1);
	tap_check(rc == -1 && errno == EINTR && lc_signal_caught() == SIGINT,
		  "signals: a caught SIGINT interrupts a blocking read");
	waitpid(pid, NULL, 0);
	close(fds[0]);
	close(fds[1]);

	rc = sh("exec sleep 30", &p);
	tap_check(rc == 128 + SIGINT,
		  "stop_on_signal: a signal caught before stops the child with SIGINT");
	p.argv = NULL;
}

static void remove_tmpdir(void)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct lc_proc p = { .argv = argv };

	lc_proc_run(&p);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		tap_bail_out("mkdtemp");
		return 1;
	}
	setenv("PATH", "/usr/bin:/bin", 1);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	test_exit_status();
	test_signal_death();
	test_exec_failure();
	test_timeout();
	test_timeout_kill();
	test_reap_group();
	test_stop_group();
	test_reap_reused_group();
	test_cgroup_kill();
	test_pidfd();
	test_redirect();
	test_redirect_private();
	test_run_lines();
	test_fn();
	test_signals();
	remove_tmpdir();
	return tap_exit_status();
}
