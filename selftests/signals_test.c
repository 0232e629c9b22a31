// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of how lttng_calibrate's runs stop: a signal, handled or not, with
 * or without SA_RESTART, job control, a ptrace attach, the freezer, and a
 * writer that gives up a run held off its CPU.  The rest of the debugfs
 * interface is interface_test.c.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/utsname.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

ENV_FIXTURE(calib)

TEST_F_TIMEOUT(calib, signal_stops_run_with_partial_results, 120)
{
	long long done;
	char *text;
	int status;

	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	ASSERT_EQ(0, kill(self->env.child, SIGTERM));
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_FALSE(status_running());

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.state", "interrupted"));
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(100000000, lc_kv_ll(text, "run.iterations.asked", LLONG_MIN));
	done = lc_kv_ll(text, "run.iterations.done", LLONG_MIN);
	EXPECT_LT(0, done);
	EXPECT_LT(done, 100000000);
	EXPECT_EQ(done, kv_stat(text, "difference", "cycles", "count"));
	free(text);
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(text_is(text, "state:", "interrupted"));
	EXPECT_TRUE(text_is(text, "partial:", "1"));
	free(text);
}

/*
 * A signal and the write, as kernel interfaces do it: a signal stops the
 * run within one chunk; the write returns its length only for a complete
 * run, published; EINTR once a partial run was published; -ERESTARTSYS
 * (a transparent restart under SA_RESTART, job control, ptrace and the
 * freezer; EINTR to a handler without SA_RESTART) when nothing was.  No
 * state is kept per open file: the same count written again runs again.
 */
#define STOP_WRITER_MS	5000

enum {
	WRITER_OK, WRITER_NO_EINTR = 100, WRITER_OPEN, WRITER_NOT_RUN,
	WRITER_FAILED, WRITER_NO_SIGNAL,
};

static volatile sig_atomic_t handled;

static void on_handled_signal(int sig)
{
	handled++;
}

static void handle(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = on_handled_signal,
				.sa_flags = flags };

	sigaction(sig, &sa, NULL);
}

/* The last published run: @number, of @asked, complete or partial. */
static void check_published(struct __test_metadata *_metadata,
			    long long number, long long asked, bool complete)
{
	char *text = lc_read_file(DIR "results_kv", NULL);
	long long done;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(number, lc_kv_ll(text, "run.number", LLONG_MIN));
	EXPECT_EQ(asked, lc_kv_ll(text, "run.iterations.asked", LLONG_MIN));
	done = lc_kv_ll(text, "run.iterations.done", LLONG_MIN);
	if (complete) {
		EXPECT_TRUE(lc_kv_is(text, "run.state", "complete")) {
			TH_LOG("run.state=%.20s",
			       lc_kv_value(text, "run.state", NULL));
		}
		EXPECT_EQ(0, lc_kv_ll(text, "run.partial", LLONG_MIN));
		EXPECT_EQ(asked, done);
	} else {
		EXPECT_TRUE(lc_kv_is(text, "run.state", "interrupted")) {
			TH_LOG("run.state=%.20s",
			       lc_kv_value(text, "run.state", NULL));
		}
		EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
		EXPECT_LT(0, done);
		EXPECT_LT(done, asked);
	}
	free(text);
}

/*
 * The child of handled_signal: a handler without SA_RESTART; the write,
 * which the signal stops (EINTR), then the same count again on the same
 * descriptor, which runs again (one byte on @ready says it starts) until
 * the second signal.
 */
static int interrupted_writer(int sig, int ready)
{
	size_t len = strlen(LONG_RUN);
	int fd;

	handle(sig, 0);
	fd = open(DIR "run", O_WRONLY);
	if (fd < 0)
		return WRITER_OPEN;
	if (write(fd, LONG_RUN, len) >= 0 || errno != EINTR)
		return WRITER_NO_EINTR;
	if (write(ready, "", 1) != 1)
		return WRITER_FAILED;
	if (write(fd, LONG_RUN, len) >= 0)
		return WRITER_NOT_RUN;
	return errno == EINTR ? WRITER_OK : WRITER_NO_EINTR;
}

FIXTURE(handled_signal) {
	struct env env;
};

FIXTURE_VARIANT(handled_signal) {
	int sig;
	const char *probe;
};

FIXTURE_VARIANT_ADD(handled_signal, sigint) { .sig = SIGINT, .probe = "none" };
FIXTURE_VARIANT_ADD(handled_signal, sigterm) { .sig = SIGTERM, .probe = "none" };
FIXTURE_VARIANT_ADD(handled_signal, sigalrm) { .sig = SIGALRM, .probe = "none" };
FIXTURE_VARIANT_ADD(handled_signal, sigint_kprobe) { .sig = SIGINT, .probe = "kprobe" };
FIXTURE_VARIANT_ADD(handled_signal, sigterm_kprobe) { .sig = SIGTERM, .probe = "kprobe" };
FIXTURE_VARIANT_ADD(handled_signal, sigalrm_kprobe) { .sig = SIGALRM, .probe = "kprobe" };

FIXTURE_SETUP(handled_signal)
{
	env_setup(_metadata, &self->env);
	ASSERT_EQ(0, write_str(DIR "probe", variant->probe));
	ASSERT_EQ(0, write_str(DIR "work_cycles",
			       strcmp(variant->probe, "none") ? "1000" : "0"));
}

FIXTURE_TEARDOWN(handled_signal)
{
	env_teardown(_metadata, &self->env);
}

/* Signals @pid once a run measures; false if none did. */
static bool signal_run(struct __test_metadata *_metadata, pid_t pid, int sig)
{
	if (!wait_running(1, 30000))
		return false;
	return kill(pid, sig) == 0;
}

TEST_F_TIMEOUT(handled_signal, eintr_then_same_count_runs_again, 120)
{
	long long before = run_number();
	int ready[2], code;
	char byte;

	ASSERT_EQ(0, pipe(ready));
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		close(ready[0]);
		_exit(interrupted_writer(variant->sig, ready[1]));
	}
	close(ready[1]);
	ASSERT_TRUE(signal_run(_metadata, self->env.child, variant->sig));
	EXPECT_EQ(1, read(ready[0], &byte, 1));
	check_published(_metadata, before + 1, 100000000, false);
	/* The second write: a new run, which a second signal stops. */
	EXPECT_TRUE(signal_run(_metadata, self->env.child, variant->sig)) {
		TH_LOG("the same count written again did not run");
	}
	code = reap_code(_metadata, self->env.child, STOP_WRITER_MS, "writer");
	self->env.child = 0;
	close(ready[0]);
	EXPECT_EQ(WRITER_OK, code) {
		TH_LOG("writer: %d (%s)", code,
		       code == WRITER_NO_EINTR ? "a write did not fail with EINTR" :
		       code == WRITER_NOT_RUN ? "the same count again returned its length" :
		       "?");
	}
	EXPECT_FALSE(status_running());
	check_published(_metadata, before + 2, 100000000, false);
}

/*
 * A real CPython writer, where the machine has python3: its SIGINT handler
 * raises (as its default one does).  It writes with os.write(): a file
 * object's buffered close() would write again what a failed write left
 * (see the guide), and start a new run that no signal stops.
 */
TEST_F_TIMEOUT(calib, python_writer_stopped_by_sigint, 120)
{
	static const char program[] =
		"import os, signal\n"
		"class Stop(Exception): pass\n"
		"def h(s, f): raise Stop()\n"
		"signal.signal(signal.SIGINT, h)\n"
		"fd = os.open('" DIR "run', os.O_WRONLY)\n"
		"try:\n"
		"    os.write(fd, b'" LONG_RUN "')\n"
		"except Stop:\n"
		"    raise SystemExit(0)\n"
		"finally:\n"
		"    os.close(fd)\n"
		"raise SystemExit(1)\n";
	long long before = run_number();
	int code;

	if (system("command -v python3 >/dev/null 2>&1"))
		SKIP(return, "no python3 on this machine");
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		execlp("python3", "python3", "-c", program, (char *)NULL);
		_exit(127);
	}
	ASSERT_TRUE(wait_running(1, 60000));
	ASSERT_EQ(0, kill(self->env.child, SIGINT));
	code = reap_code(_metadata, self->env.child, STOP_WRITER_MS, "python3");
	self->env.child = 0;
	EXPECT_EQ(0, code);
	EXPECT_FALSE(status_running());
	check_published(_metadata, before + 1, 100000000, false);
}

/* The writer of a count that retries on EINTR, as TEMP_FAILURE_RETRY does. */
static int retrying_writer(const char *count, int report)
{
	size_t len = strlen(count);
	unsigned char retries = 0;
	ssize_t n;
	int fd;

	fd = open(DIR "run", O_WRONLY);
	if (fd < 0)
		return WRITER_OPEN;
	while ((n = write(fd, count, len)) < 0 && errno == EINTR)
		retries++;
	if (write(report, &retries, 1) != 1)
		return WRITER_FAILED;
	return n == (ssize_t)len ? WRITER_OK : WRITER_FAILED;
}

/*
 * A retrying writer, stopped in the middle of its run by @stop (job
 * control or a ptrace attach): the write either succeeds with a complete
 * run published, or fails with a partial one; never succeeds on a partial.
 * Each interruption publishes the partial run, and the retry, a new write
 * of the same count, runs it again, whole.
 */
static void stopped_writer(struct __test_metadata *_metadata,
			   struct env *env,
			   void (*stop)(struct __test_metadata *, pid_t))
{
	long long before, asked;
	unsigned char retries = 0;
	int report[2], code;
	char count[24];

	count_for_ms(_metadata, 2000, count, sizeof(count));
	asked = atoll(count);
	before = run_number();
	ASSERT_EQ(0, pipe(report));
	env->child = fork();
	ASSERT_LE(0, env->child);
	if (env->child == 0) {
		close(report[0]);
		_exit(retrying_writer(count, report[1]));
	}
	close(report[1]);
	ASSERT_TRUE(wait_running(1, 30000));
	stop(_metadata, env->child);
	code = reap_code(_metadata, env->child, 120000, "writer");
	env->child = 0;
	EXPECT_EQ(1, read(report[0], &retries, 1));
	close(report[0]);
	TH_LOG("count %s: %d retries", count, retries);
	/* The stop came during the run: it interrupted the write. */
	EXPECT_LT(0, retries);
	EXPECT_EQ(WRITER_OK, code);
	/* Each interruption published a partial run; the last is whole. */
	check_published(_metadata, before + 1 + retries, asked, true);
}

static void stop_and_continue(struct __test_metadata *_metadata, pid_t pid)
{
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	sleep_ms(300);
	ASSERT_EQ(0, kill(pid, SIGCONT));
}

/* Waits up to @ms for @pid to be traced by @tracer. */
static bool traced_by(pid_t pid, pid_t tracer, int ms)
{
	char path[32], *text;
	long long t;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	for (; ms > 0; ms -= 10) {
		text = lc_read_file(path, NULL);
		t = text ? lc_field_ll(text, "TracerPid:\t", -1) : -1;
		free(text);
		if (t == tracer)
			return true;
		sleep_ms(10);
	}
	return false;
}

static void strace_attach(struct __test_metadata *_metadata, pid_t pid)
{
	char arg[16];
	pid_t tracer;
	int status;

	snprintf(arg, sizeof(arg), "%d", pid);
	tracer = fork();
	ASSERT_LE(0, tracer);
	if (tracer == 0) {
		execlp("strace", "strace", "-o", "/dev/null", "-p", arg,
		       (char *)NULL);
		_exit(127);
	}
	/* Attached once the writer's TracerPid is strace's. */
	EXPECT_TRUE(traced_by(pid, tracer, 30000));
	sleep_ms(300);
	/* strace detaches on SIGINT. */
	ASSERT_EQ(0, kill(tracer, SIGINT));
	ASSERT_EQ(tracer, waitpid(tracer, &status, 0));
	TH_LOG("strace: status 0x%x", status);
	EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 127);
}

TEST_F_TIMEOUT(calib, sigstop_sigcont_during_run, 180)
{
	stopped_writer(_metadata, &self->env, stop_and_continue);
}

TEST_F_TIMEOUT(calib, strace_attach_during_run, 180)
{
	if (system("command -v strace >/dev/null 2>&1")) {
		/* The project's guests have it: there, its absence fails. */
		ASSERT_EQ(NULL, getenv("LTTNG_CALIBRATE_NO_SKIP"));
		SKIP(return, "no strace on this machine (Debian's package strace)");
	}
	stopped_writer(_metadata, &self->env, strace_attach);
}

/*
 * A SCHED_FIFO task busy on CPU 1 for @ms, with RT throttling off: the
 * run's thread cannot get its CPU meanwhile, but for the fair server of
 * 6.12 and later, which runs a starved CFS task 50 ms a second after
 * deferring it most of a second; with @fair_off, that server is off on
 * CPU 1 too.  Returns once the hog holds the CPU.
 */
struct hog {
	pid_t pid;
	char rt_runtime[32];
	char fair_runtime[32];
};

#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define FAIR_SERVER	"/sys/kernel/debug/sched/fair_server/cpu1/runtime"

/*
 * Whether the fair server can be switched off safely: not in 6.12, whose
 * sched_fair_server_write() WARNs ("dl_rq->running_bw > dl_rq->this_bw",
 * kernel/sched/deadline.c:292) and leaves the RT bandwidth unwritable.
 */
static bool fair_server_switchable(void)
{
	struct utsname u;

	if (access(FAIR_SERVER, W_OK))
		return true;
	return !uname(&u) && atoi(u.release) >= 7;
}

static void hog_start(struct __test_metadata *_metadata, struct hog *hog,
		      int ms, bool fair_off)
{
	struct sched_param sp = { .sched_priority = 1 };
	char *text;
	int ready[2];
	char byte;

	text = lc_read_file(RT_RUNTIME, NULL);
	ASSERT_NE(NULL, text);
	snprintf(hog->rt_runtime, sizeof(hog->rt_runtime), "%s", text);
	free(text);
	ASSERT_EQ(0, write_str(RT_RUNTIME, "-1"));
	hog->fair_runtime[0] = '\0';
	text = fair_off ? lc_read_file(FAIR_SERVER, NULL) : NULL;
	if (text) {
		snprintf(hog->fair_runtime, sizeof(hog->fair_runtime), "%s",
			 text);
		free(text);
		ASSERT_EQ(0, write_str(FAIR_SERVER, "0"));
	}
	ASSERT_EQ(0, pipe(ready));
	hog->pid = fork();
	ASSERT_LE(0, hog->pid);
	if (hog->pid == 0) {
		long long end;
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(1, &one);
		if (sched_setaffinity(0, sizeof(one), &one) ||
		    sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(1);
		end = now_ms() + ms;
		if (write(ready[1], "", 1) != 1)
			_exit(1);
		while (now_ms() < end)
			;
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	close(ready[0]);
}

static bool hog_running(const struct hog *hog)
{
	return waitpid(hog->pid, NULL, WNOHANG) == 0;
}

static void hog_end(struct __test_metadata *_metadata, struct hog *hog)
{
	int status;

	if (hog->pid > 0) {
		EXPECT_EQ(hog->pid, waitpid(hog->pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		hog->pid = 0;
	}
	if (hog->fair_runtime[0])
		EXPECT_EQ(0, write_str(FAIR_SERVER, hog->fair_runtime));
	EXPECT_EQ(0, write_str(RT_RUNTIME, hog->rt_runtime));
}

/* The child: a write of @count with a handler of SIGUSR1 (@flags). */
static int handled_writer(const char *count, int flags)
{
	int err;

	handle(SIGUSR1, flags);
	err = run(count);
	if (!handled)
		return WRITER_NO_SIGNAL;
	return err;
}

/*
 * A handled signal with SA_RESTART before the first sample (the run's
 * thread waits for its CPU behind a hog): nothing was published, so the
 * write restarts, and the run completes.
 */
TEST_F_TIMEOUT(calib, sa_restart_before_first_sample, 120)
{
	long long before = run_number(), done = -1;
	struct hog hog = { 0 };
	int code;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	hog_start(_metadata, &hog, 3000, false);
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0)
		_exit(handled_writer("1000", SA_RESTART));
	EXPECT_TRUE(wait_running(0, 2000));
	EXPECT_EQ(0, status_field("done", &done));
	EXPECT_EQ(0, done);
	EXPECT_TRUE(hog_running(&hog));
	EXPECT_EQ(0, kill(self->env.child, SIGUSR1));
	code = reap_code(_metadata, self->env.child, 30000, "writer");
	self->env.child = 0;
	hog_end(_metadata, &hog);
	unpin();
	EXPECT_EQ(0, code) {
		TH_LOG("writer: %d (%s)", code, code == WRITER_NO_SIGNAL ?
		       "no signal handled" : strerror(code));
	}
	check_published(_metadata, before + 1, 1000, true);
}

/*
 * The run's thread cannot get its CPU (a SCHED_FIFO hog, RT throttling
 * off) when a signal comes: the writer waits RUN_STOP_WAIT (5 s), not in
 * D state until the hog ends, then gives the run up: EINTR (its
 * -ERESTARTSYS, no SA_RESTART), nothing published.  The run holds the run
 * slot (EBUSY) until its thread gets the CPU and ends it.
 */
TEST_F_TIMEOUT(calib, writer_gives_up_a_run_that_cannot_stop, 120)
{
	long long before = run_number(), t0;
	struct hog hog = { 0 };
	int code;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	if (!fair_server_switchable())
		SKIP(return, "this kernel's fair server runs the run's thread within a second, and cannot be switched off without a WARN (6.12's dl_rq_change_utilization)");
	hog_start(_metadata, &hog, 10000, true);
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0)
		_exit(handled_writer("1000", 0));
	EXPECT_TRUE(wait_running(0, 2000));
	t0 = now_ms();
	EXPECT_EQ(0, kill(self->env.child, SIGUSR1));
	code = reap_code(_metadata, self->env.child, 7000, "writer");
	self->env.child = 0;
	TH_LOG("writer gone %lld ms after the signal", now_ms() - t0);
	EXPECT_EQ(EINTR, code);
	EXPECT_TRUE(hog_running(&hog));
	EXPECT_TRUE(status_running());
	EXPECT_EQ(EBUSY, run("10"));
	hog_end(_metadata, &hog);
	EXPECT_TRUE(wait_idle(10000));
	EXPECT_EQ(before, run_number());
	unpin();
	EXPECT_EQ(0, run("10"));
	check_published(_metadata, before + 1, 10, true);
}

/* Whether @path holds @line, within @ms. */
static bool wait_line(const char *path, const char *line, int ms)
{
	char *text;
	bool found;

	for (; ms > 0; ms -= 10) {
		text = lc_read_file(path, NULL);
		found = text && strstr(text, line);
		free(text);
		if (found)
			return true;
		sleep_ms(10);
	}
	return false;
}

/*
 * The freezer (here cgroup v2's) is honoured: freezing a writer stops its
 * run, and the writer freezes at once rather than when the run ends.
 */
TEST_F_TIMEOUT(calib, freezer_stops_run, 120)
{
	const char *root = "/sys/fs/cgroup", *cg = "/sys/fs/cgroup/lttng_calibrate_freeze";
	char path[128], pid[16], *text;
	bool mounted = false;
	int status;

	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		if (mount("cgroup2", root, "cgroup2", 0, NULL))
			SKIP(return, "no cgroup v2: %s", strerror(errno));
		mounted = true;
	}
	ASSERT_EQ(0, mkdir(cg, 0755));
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		snprintf(pid, sizeof(pid), "%d", getpid());
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		if (write_str(path, pid))
			_exit(100);
		_exit(run(LONG_RUN));
	}
	ASSERT_TRUE(wait_running(1, 30000));
	snprintf(path, sizeof(path), "%s/cgroup.freeze", cg);
	ASSERT_EQ(0, write_str(path, "1"));
	snprintf(path, sizeof(path), "%s/cgroup.events", cg);
	EXPECT_TRUE(wait_line(path, "frozen 1", 2000));
	EXPECT_FALSE(status_running());
	snprintf(path, sizeof(path), "%s/cgroup.freeze", cg);
	ASSERT_EQ(0, write_str(path, "0"));
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EINTR, WEXITSTATUS(status));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.state", "interrupted"));
	free(text);
	EXPECT_EQ(0, rmdir(cg));
	if (mounted)
		umount(root);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
