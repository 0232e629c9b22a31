/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes and signals, for the tools: one way to start a command
 * (or a function) in a child, wait for it with a timeout, stop it, reap it,
 * and one set-up of the signals that stop the tools.  Modelled on the
 * kernel's tools/lib/subcmd (run-command.c, sigchain.c).
 *
 * proc.c is plain C11 with POSIX; its only state is the last signal caught.
 */
#ifndef LTTNG_CALIBRATE_LIB_PROC_H
#define LTTNG_CALIBRATE_LIB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* lc_proc_run(): the child was stopped by its timeout. */
#define LC_PROC_TIMED_OUT	(-2)

/**
 * struct lc_proc - a child process, what it runs and how it is waited for
 * @argv: the command, NULL-terminated; argv[0] is looked up with
 *	lc_proc_find() unless it holds a '/'
 * @fn: instead of @argv, a function run in the child; what it returns is
 *	the child's exit status
 * @data: @fn's and @poll's argument
 * @out: a file for the child's standard output, or NULL to share the
 *	parent's: created 0600 with O_EXCL and O_NOFOLLOW (a regular file of
 *	ours already there is replaced; a symlink or anything else there
 *	fails the start with EEXIST); "/dev/null" is opened as it is
 * @err: the same for its standard error
 * @null_in: standard input from /dev/null
 * @group: the child leads a process group of its own: a Ctrl-C at the
 *	terminal reaches the parent only, and lc_proc_stop() reaches the
 *	child's own children too
 * @cgroup_procs: a cgroup's cgroup.procs file, or NULL: the child moves
 *	itself into that cgroup before it runs anything, so that every
 *	process it starts is counted there
 * @timeout_ms: lc_proc_wait() stops the child after this long (0: never)
 * @stop_on_signal: lc_proc_wait() stops the child once lc_signal_caught()
 * @kill_ms: SIGKILL this long after the SIGINT of a stop (0: never)
 * @poll_ms: how often lc_proc_wait() looks (0: 50 ms)
 * @poll: called by lc_proc_wait() at every look while the child runs
 * @pid: the child, set by lc_proc_start(); 0 once lc_proc_wait() reaped it
 * @pgid: its process group when @group; 0 once lc_proc_wait() killed
 *	what was left of it, before reaping the child
 * @status: its wait status, set by lc_proc_wait()
 * @timed_out: lc_proc_wait() stopped it because of @timeout_ms
 * @killed: lc_proc_wait() killed it: it was still there @kill_ms after
 *	its stop
 * @stopped_at: internal: when it was stopped, in ms, or -1
 * @out_fd: internal: a descriptor for the child's standard output when
 *	above 0 (lc_proc_run_lines()'s pipe)
 */
struct lc_proc {
	char *const *argv;
	int (*fn)(void *data);
	void *data;
	const char *out;
	const char *err;
	bool null_in;
	bool group;
	const char *cgroup_procs;
	int timeout_ms;
	bool stop_on_signal;
	int kill_ms;
	int poll_ms;
	void (*poll)(void *data);
	pid_t pid;
	pid_t pgid;
	int status;
	bool timed_out;
	bool killed;
	long long stopped_at;
	int out_fd;
};

int lc_proc_find(const char *cmd, char *path, size_t len);
int lc_proc_start(struct lc_proc *p);
int lc_proc_wait(struct lc_proc *p);
int lc_proc_stop(struct lc_proc *p);
int lc_proc_reap(struct lc_proc *p);
int lc_proc_exit_code(int status);
int lc_proc_run(struct lc_proc *p);
int lc_proc_run_lines(struct lc_proc *p, void (*line)(char *text, void *data),
		      void *data);

int lc_cgroup_kill(const char *dir);
int lc_pidfd_open(pid_t pid);
int lc_pidfd_signal(int fd, int sig);
int lc_pidfd_wait(int fd, int ms);

int lc_signal_catch(void);
int lc_signal_caught(void);

#endif /* LTTNG_CALIBRATE_LIB_PROC_H */
