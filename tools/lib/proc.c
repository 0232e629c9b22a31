// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes and the signals that stop the tools.  See proc.h.
 */
/* syscall(): pidfd_open() and pidfd_send_signal() without glibc 2.36. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc.h"
#include "proc.h"

/* The same numbers on every architecture (the unified syscall table). */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif

#define LC_PROC_POLL_MS		50
#define LC_PROC_REAP_KILL_MS	5000
/* Where a command is looked for after $PATH: sudo and cron trim it. */
#define LC_PROC_SYSTEM_PATH	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* Signals */

/* The signals that stop a tool, caught by lc_signal_catch(). */
static const int lc_signals[] = { SIGINT, SIGTERM, SIGHUP };

static volatile sig_atomic_t lc_signal_last;

static void lc_signal_record(int sig)
{
	lc_signal_last = sig;
}

/**
 * lc_signal_catch() - catch SIGINT, SIGTERM and SIGHUP, ignore SIGPIPE
 *
 * A caught signal is only recorded, for lc_signal_caught(): the tool
 * stops what it does, undoes what it changed and reports what it has, and
 * lc_proc_wait() passes the stop on to a child that asked for it.
 *
 * The handlers are installed without SA_RESTART, on purpose: a call that
 * blocks (the write to the module's "run" file, a read from a pipe, a
 * sleep between two looks at a child) must return with EINTR when the
 * signal comes, so that the caller sees it at once instead of when the
 * call ends by itself, which for a run of millions of iterations or a
 * child that does not exit may be never.  Every call that must not fail
 * for a signal retries on EINTR itself (lc_read_fd(), the waits here).
 *
 * SIGPIPE is ignored, so that a closed output is a write error the tool
 * reports rather than its death with nothing undone; SIGCHLD is put back
 * to its default, since an inherited SIG_IGN would reap the children
 * before waitpid() sees them.
 *
 * Return: 0, or -1 with errno set.
 */
int lc_signal_catch(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = lc_signal_record;
	for (i = 0; i < ARRAY_SIZE(lc_signals); i++)
		if (sigaction(lc_signals[i], &sa, NULL))
			return -1;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -1;
	sa.sa_handler = SIG_DFL;
	return sigaction(SIGCHLD, &sa, NULL);
}

/**
 * lc_signal_caught() - the last signal lc_signal_catch() caught
 *
 * Return: its number, or 0 when none came.
 */
int lc_signal_caught(void)
{
	return lc_signal_last;
}

/* In a child: the caught and ignored signals back to their defaults. */
static void lc_signal_default(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lc_signals); i++)
		signal(lc_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

/* Processes */

static long long lc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/**
 * lc_proc_find() - where a command is
 * @cmd: its name, or a path (anything with a '/')
 * @path: where to store the file to execute
 * @len: its size
 *
 * A name is looked for in $PATH, then in the system's sbin and bin
 * directories, which a trimmed $PATH (sudo, cron) may lack.
 *
 * Return: 0, or -1 with errno ENOENT when there is no such executable
 * file (a path is returned as it is: its exec says what is wrong).
 */
int lc_proc_find(const char *cmd, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char *dirs, *dir, *save = NULL;
	size_t need;
	int found = 0;

	if (strchr(cmd, '/')) {
		if ((size_t)snprintf(path, len, "%s", cmd) < len)
			return 0;
		errno = ENAMETOOLONG;
		return -1;
	}
	need = (env ? strlen(env) : 0) + sizeof(LC_PROC_SYSTEM_PATH) + 1;
	dirs = malloc(need);
	if (!dirs)
		return -1;
	snprintf(dirs, need, "%s:%s", env ? env : "", LC_PROC_SYSTEM_PATH);
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(path, len, "%s/%s", dir, cmd) < len &&
		    !access(path, X_OK))
			found = 1;
	}
	free(dirs);
	if (found)
		return 0;
	errno = ENOENT;
	return -1;
}

/*
 * A file for a child's output, private: created 0600, never through
 * whatever was planted at @file (O_EXCL and O_NOFOLLOW: a symlink, a FIFO
 * or someone else's file there is EEXIST); a regular file of our own
 * already there (a name used for each of several commands) is replaced.
 * /dev/null is opened as it is.  A descriptor, or -1 with errno set.
 */
static int lc_proc_open_private(const char *file)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	struct stat st;
	int fd;

	if (!strcmp(file, "/dev/null"))
		return open(file, O_WRONLY | O_CLOEXEC);
	fd = open(file, flags, 0600);
	if (fd >= 0 || errno != EEXIST)
		return fd;
	if (lstat(file, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || unlink(file)) {
		errno = EEXIST;
		return -1;
	}
	return open(file, flags, 0600);
}

/* Open @file on descriptor @target (@write: a private output); 0 or the errno. */
static int lc_proc_open_on(const char *file, bool write, int target)
{
	int fd = write ? lc_proc_open_private(file) :
		 open(file, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (fd != target) {
		if (dup2(fd, target) < 0)
			err = errno;
		close(fd);
	} else {
		fcntl(fd, F_SETFD, 0);
	}
	return err;
}

static int lc_proc_redirect(const struct lc_proc *p)
{
	int err = 0;

	if (p->null_in)
		err = lc_proc_open_on("/dev/null", false, STDIN_FILENO);
	if (!err && p->out_fd > 0 && p->out_fd != STDOUT_FILENO &&
	    dup2(p->out_fd, STDOUT_FILENO) < 0)
		err = errno;
	if (!err && p->out)
		err = lc_proc_open_on(p->out, true, STDOUT_FILENO);
	if (!err && p->err)
		err = lc_proc_open_on(p->err, true, STDERR_FILENO);
	return err;
}

/*
 * In the child: its group, signals and files, then the command or the
 * function.  What fails before that goes to the parent through @fd, a
 * pipe that exec closes: lc_proc_start() fails with that errno.
 */
static void __attribute__((noreturn))
lc_proc_child(const struct lc_proc *p, const char *file, int fd)
{
	int err;

	if (p->group)
		setpgid(0, 0);
	lc_signal_default();
	err = p->cgroup_procs ?
	      lc_write_file_flags(p->cgroup_procs, "0", 1, 0) : 0;
	if (!err)
		err = lc_proc_redirect(p);
	if (!err && p->fn) {
		close(fd);
		_exit(p->fn(p->data));
	}
	if (!err) {
		execv(file, p->argv);
		err = errno;
	}
	if (write(fd, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

/**
 * lc_proc_start() - start a child process
 * @p: what it runs (@argv or @fn), its files and its group; @pid is set
 *
 * Standard I/O is flushed first, so that nothing buffered is written
 * twice.  The command is found before the fork, and a failed exec makes
 * this call fail, with its errno, the child already reaped: a command
 * that is not there is no exit status 127 to tell apart from its own.
 *
 * Return: 0, or -1 with errno set (ENOENT: no such command; an exec's or
 * a redirection's errno).
 */
int lc_proc_start(struct lc_proc *p)
{
	char file[PATH_MAX] = "";
	int fds[2], err = 0;
	ssize_t n;
	pid_t pid;

	p->pid = 0;
	p->pgid = 0;
	p->status = 0;
	p->timed_out = false;
	p->killed = false;
	p->stopped_at = -1;
	if (!p->fn && lc_proc_find(p->argv[0], file, sizeof(file)))
		return -1;
	if (pipe(fds))
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid = fork();
	if (!pid)
		lc_proc_child(p, file, fds[1]);
	err = errno;
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		errno = err;
		return -1;
	}
	/* Both sides set the group: neither may signal it before it exists. */
	if (p->group)
		setpgid(pid, pid);
	do
		n = read(fds[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == sizeof(err)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = err;
		return -1;
	}
	p->pid = pid;
	p->pgid = p->group ? pid : 0;
	return 0;
}

/* Whom a stop or a kill reaches: the group, or the child; 0: nobody. */
static pid_t lc_proc_target(const struct lc_proc *p)
{
	return p->pgid ? -p->pgid : p->pid;
}

/**
 * lc_proc_stop() - ask a child to stop: SIGINT
 * @p: the child (to its whole group when @p->group)
 *
 * SIGINT, not SIGTERM: the tracers (perf, bpftrace) finish their output on
 * it.  lc_proc_wait() sends SIGKILL @p->kill_ms later if it is still there.
 *
 * Return: 0, or -1 with errno set.
 */
int lc_proc_stop(struct lc_proc *p)
{
	pid_t target = lc_proc_target(p);

	if (!target) {
		errno = ESRCH;
		return -1;
	}
	if (p->stopped_at < 0)
		p->stopped_at = lc_now_ms();
	return kill(target, SIGINT);
}

/*
 * One look at a running child, @start ms (lc_now_ms()) after its wait
 * began: stopped after @timeout_ms or on a caught signal, killed @kill_ms
 * after its stop; @poll called while it runs and is not being stopped.
 */
static void lc_proc_tick(struct lc_proc *p, long long start)
{
	long long now = lc_now_ms();

	if (p->stopped_at < 0 && p->timeout_ms &&
	    now - start >= p->timeout_ms) {
		p->timed_out = true;
		lc_proc_stop(p);
	} else if (p->stopped_at < 0 && p->stop_on_signal &&
		   lc_signal_caught()) {
		lc_proc_stop(p);
	} else if (p->stopped_at >= 0 && p->kill_ms &&
		   now - p->stopped_at >= p->kill_ms) {
		if (!kill(lc_proc_target(p), SIGKILL))
			p->killed = true;
	}
	if (p->poll && p->stopped_at < 0)
		p->poll(p->data);
}

/**
 * lc_proc_wait() - wait for a child to end
 * @p: the child; @status is set
 *
 * Looks every @poll_ms: stops the child (lc_proc_stop()) after
 * @timeout_ms, or when a signal was caught if @stop_on_signal, then kills
 * it @kill_ms after that; calls @poll while the child runs and is not
 * being stopped.  The end is seen with waitid(WNOWAIT): what is left of
 * the group of a child that led one is killed (SIGKILL) before the child
 * is reaped, while its group's ID cannot have been reused.
 *
 * Return: 0 with @status set and @pid 0, or -1 with errno set (@pid is
 * no child).
 */
int lc_proc_wait(struct lc_proc *p)
{
	int poll_ms = p->poll_ms > 0 ? p->poll_ms : LC_PROC_POLL_MS;
	const struct timespec tick = { poll_ms / 1000,
				       (poll_ms % 1000) * 1000000L };
	long long start = lc_now_ms();
	siginfo_t info;
	pid_t done;

	if (p->pid <= 0) {
		errno = ECHILD;
		return -1;
	}
	for (;;) {
		/*
		 * Seen ended, not reaped: while it is a zombie, its PID and
		 * so its group's ID are nobody else's, and what is left of
		 * its group is killed before it is reaped.
		 */
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, p->pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) && errno != EINTR)
			return -1;
		if (info.si_pid == p->pid) {
			if (p->pgid > 0)
				kill(-p->pgid, SIGKILL);
			p->pgid = 0;
			do
				done = waitpid(p->pid, &p->status, 0);
			while (done < 0 && errno == EINTR);
			if (done != p->pid)
				return -1;
			p->pid = 0;
			return 0;
		}
		lc_proc_tick(p, start);
		nanosleep(&tick, NULL);
	}
}

/**
 * lc_proc_reap() - stop a child that may still run, and wait for it
 * @p: the child, running or already waited for (@pid 0), or none
 *
 * SIGINT (to its group when @group), SIGKILL @kill_ms later (5 s when
 * @kill_ms is 0), waited for (lc_proc_wait() kills what is left of its
 * group).  No process is left behind; @pid and @pgid are 0.  Never a
 * signal to a group whose leader was reaped: its ID may be another's.
 * Idempotent.
 *
 * Return: 0, or -1 with errno set when it could not be waited for.
 */
int lc_proc_reap(struct lc_proc *p)
{
	int rc = 0;

	if (p->pid > 0) {
		if (!p->kill_ms)
			p->kill_ms = LC_PROC_REAP_KILL_MS;
		p->timeout_ms = 0;
		lc_proc_stop(p);
		rc = lc_proc_wait(p);
		p->pid = 0;
	}
	p->pgid = 0;
	return rc;
}

/**
 * lc_proc_exit_code() - a wait status as a shell reports it
 * @status: the wait status
 *
 * Return: the exit status, 128 + the signal that killed it, or -1.
 */
int lc_proc_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/**
 * lc_proc_run() - run a child to its end
 * @p: as for lc_proc_start() and lc_proc_wait()
 *
 * Return: its exit code (lc_proc_exit_code()), LC_PROC_TIMED_OUT when
 * @timeout_ms stopped it, or -1 with errno set when it could not be
 * started or waited for.
 */
int lc_proc_run(struct lc_proc *p)
{
	int rc;

	if (lc_proc_start(p))
		return -1;
	rc = lc_proc_wait(p);
	if (rc) {
		lc_proc_reap(p);
		return -1;
	}
	if (p->timed_out)
		return LC_PROC_TIMED_OUT;
	return lc_proc_exit_code(p->status);
}

/* Has the child ended (not reaped: its PID stays ours)? */
static bool lc_proc_ended(const struct lc_proc *p)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, p->pid, &info, WEXITED | WNOHANG | WNOWAIT))
		return errno != EINTR;
	return info.si_pid != 0;
}

/* Each whole line of @buf[0..*@len) to @line; the rest moved to @buf. */
static void lc_proc_split(char *buf, size_t *len, bool all,
			  void (*line)(char *text, void *data), void *data)
{
	char *start = buf, *nl;

	while ((nl = memchr(start, '\n', *len - (start - buf)))) {
		*nl = '\0';
		line(start, data);
		start = nl + 1;
	}
	*len -= start - buf;
	memmove(buf, start, *len);
	if (*len && all) {
		buf[*len] = '\0';
		line(buf, data);
		*len = 0;
	}
}

/**
 * lc_proc_run_lines() - run a child to its end, its output read as lines
 * @p: as for lc_proc_run(), without @out: the child's standard output is
 *	a pipe, read here, so that what it prints is in no file
 * @line: called with each line, NUL-terminated, without its newline (a
 *	line longer than 4095 bytes comes in pieces)
 * @data: @line's argument
 *
 * The child is stopped and killed as lc_proc_wait() does (@timeout_ms,
 * @stop_on_signal, @kill_ms) while its output is read; reading ends when
 * the pipe does, or when the child has ended and nothing more comes
 * within @poll_ms (a process it left holds the pipe).
 *
 * Return: what lc_proc_run() returns.
 */
int lc_proc_run_lines(struct lc_proc *p, void (*line)(char *text, void *data),
		      void *data)
{
	int poll_ms = p->poll_ms > 0 ? p->poll_ms : LC_PROC_POLL_MS;
	long long start = lc_now_ms();
	char buf[4096];
	size_t len = 0;
	int fds[2], rc;
	struct pollfd pfd;
	ssize_t n;

	if (p->out) {
		errno = EINVAL;
		return -1;
	}
	if (pipe(fds))
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	p->out_fd = fds[1];
	rc = lc_proc_start(p);
	p->out_fd = 0;
	close(fds[1]);
	if (rc) {
		rc = errno;
		close(fds[0]);
		errno = rc;
		return -1;
	}
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	for (;;) {
		rc = poll(&pfd, 1, poll_ms);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0) {
			n = read(fds[0], buf + len, sizeof(buf) - 1 - len);
			if (n == 0 || (n < 0 && errno != EINTR &&
				       errno != EAGAIN))
				break;
			if (n > 0)
				len += n;
			lc_proc_split(buf, &len, false, line, data);
			if (len == sizeof(buf) - 1)
				lc_proc_split(buf, &len, true, line, data);
		} else if (lc_proc_ended(p)) {
			break;
		}
		lc_proc_tick(p, start);
	}
	lc_proc_split(buf, &len, true, line, data);
	close(fds[0]);
	if (lc_proc_wait(p)) {
		lc_proc_reap(p);
		return -1;
	}
	if (p->timed_out)
		return LC_PROC_TIMED_OUT;
	return lc_proc_exit_code(p->status);
}

/* A line of cgroup.procs as a PID: decimal digits only, above 0; or 0. */
static pid_t lc_pid_parse(const char *line)
{
	long long v = 0;
	const char *p;

	for (p = line; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return 0;
	}
	return p > line && (*p == '\n' || !*p) ? (pid_t)v : 0;
}

/* Is @pid a line of @text (a cgroup.procs)? */
static bool lc_pid_listed(const char *text, pid_t pid)
{
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (lc_pid_parse(p) == pid)
			return true;
	return false;
}

/*
 * Without cgroup.kill (before Linux 5.14): each PID of @procs through a
 * pidfd (Linux 5.3), signalled only if, once its pidfd is open, the PID is
 * still in the cgroup: the process signalled is the member, never another
 * that reused its PID.  0, or the errno (ENOSYS: no pidfd either).
 */
static int lc_cgroup_kill_each(const char *procs, const char *text)
{
	const char *p;
	char *now;
	int fd, err = 0;
	pid_t pid;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		pid = lc_pid_parse(p);
		if (!pid)
			continue;
		fd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (fd < 0) {
			if (errno != ESRCH)
				err = errno;
			continue;
		}
		now = lc_read_file(procs, NULL);
		if (now && lc_pid_listed(now, pid) &&
		    syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) &&
		    errno != ESRCH)
			err = errno;
		free(now);
		close(fd);
	}
	return err;
}

/**
 * lc_cgroup_kill() - every process of a cgroup killed, and waited for
 * @dir: the cgroup's directory
 *
 * cgroup.kill (Linux 5.14) kills them all at once, those forked meanwhile
 * too.  Without it, each PID of cgroup.procs is signalled through a pidfd
 * (Linux 5.3) after checking that it is still in the cgroup; a line that
 * is no PID (0, a sign, anything but digits) is never a kill(): kill(0)
 * would be our own group, kill(-1) every process.  Waits at most 5 s for
 * the cgroup to be empty.
 *
 * Return: 0 when it is empty, or -1 with errno set (ENOSYS: a kernel
 * without cgroup.kill and without pidfd_open(), nothing killed; EBUSY:
 * not empty after 5 s).
 */
int lc_cgroup_kill(const char *dir)
{
	const struct timespec tick = { 0, 10000000L };
	char procs[PATH_MAX], killf[PATH_MAX];
	bool has_kill;
	char *text;
	int i, err;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(killf, sizeof(killf), "%s/cgroup.kill", dir);
	has_kill = !access(killf, F_OK);
	err = has_kill ? lc_write_file(killf, "1", 1) : 0;
	if (err) {
		errno = err;
		return -1;
	}
	for (i = 0; i < 500; i++) {
		text = lc_read_file(procs, NULL);
		if (!text)
			return -1;
		if (!*text) {
			free(text);
			return 0;
		}
		err = has_kill ? 0 : lc_cgroup_kill_each(procs, text);
		free(text);
		if (err == ENOSYS) {
			errno = err;
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	errno = EBUSY;
	return -1;
}

/**
 * lc_pidfd_open() - a descriptor that stands for one process (Linux 5.3)
 * @pid: the process
 *
 * Signals sent through it reach that process or none, never another that
 * got its PID after it ended.
 *
 * Return: the descriptor (close-on-exec), or -1 with errno set (ENOSYS:
 * a kernel without pidfd_open()).
 */
int lc_pidfd_open(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

/**
 * lc_pidfd_signal() - a signal through a pidfd
 * @fd: from lc_pidfd_open()
 * @sig: the signal, or 0 to know whether the process still runs
 *
 * Return: 0, or -1 with errno set (ESRCH: it has ended).
 */
int lc_pidfd_signal(int fd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
}

/**
 * lc_pidfd_wait() - wait for the process of a pidfd to end
 * @fd: from lc_pidfd_open()
 * @ms: at most this long
 *
 * Return: 1 when it has ended, 0 when it still runs after @ms.
 */
int lc_pidfd_wait(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long end = lc_now_ms() + ms, left;
	int rc;

	do {
		left = end - lc_now_ms();
		rc = poll(&pfd, 1, left > 0 ? (int)left : 0);
	} while (rc < 0 && errno == EINTR && left > 0);
	return rc > 0;
}
