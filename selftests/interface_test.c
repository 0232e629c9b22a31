// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the lttng_calibrate debugfs interface and its errors: the files
 * and their modes, the status, rejected input and parameters, busy and
 * interrupted runs (signals, the freezer, a run that measured nothing),
 * CPU selection and hot-unplug.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/time.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_util.h"

ENV_FIXTURE(calib)

TEST_F(calib, files_and_modes)
{
	static const struct {
		const char *path;
		mode_t mode;
	} files[] = {
		{ DIR "run", 0200 },
		{ DIR "results", 0400 },
		{ DIR "results_kv", 0400 },
		{ DIR "irqs", 0600 },
		{ DIR "status", 0400 },
		{ DIR "counters", 0600 },
		{ DIR "events", 0444 },
		{ DIR "deltas", 0400 },
		{ PARAMS "deltas_window", 0644 },
		{ PARAMS "cpu", 0644 },
		{ PARAMS "max_iterations", 0644 },
		{ PARAMS "chunk_iterations", 0644 },
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, stat(files[i].path, &st)) {
			TH_LOG("%s: %s", files[i].path, strerror(errno));
		}
		EXPECT_EQ(files[i].mode, st.st_mode & 07777) {
			TH_LOG("%s: mode %o", files[i].path, st.st_mode & 07777);
		}
		EXPECT_EQ(0, st.st_uid);
		EXPECT_TRUE(S_ISREG(st.st_mode));
	}
}

TEST_F(calib, status_idle)
{
	char *text = lc_read_file(DIR "status", NULL);

	ASSERT_NE(NULL, text);
	EXPECT_STREQ("state=idle\n", text);
	free(text);
}

TEST_F(calib, run_10_without_newline)
{
	ASSERT_EQ(0, run("10"));
	check_results(_metadata, 10);
}

TEST_F(calib, runs_are_numbered)
{
	char *text;
	long long first;

	ASSERT_EQ(0, run("5"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	first = lc_kv_ll(text, "run.number", LLONG_MIN);
	free(text);
	ASSERT_EQ(0, run("5"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(first + 1, lc_kv_ll(text, "run.number", LLONG_MIN));
	free(text);
}

ENV_FIXTURE(bad_input)

FIXTURE_VARIANT(bad_input) {
	const char *input;
	size_t len;		/* 0: strlen(input) */
	int err;
};

/* Bad input: a clear errno, and the last results stay exactly as they were. */
#define BAD_INPUT(name, text, e) \
	FIXTURE_VARIANT_ADD(bad_input, name) { .input = text, .err = e }

BAD_INPUT(letters, "abc\n", EINVAL);
BAD_INPUT(zero, "0\n", EINVAL);
BAD_INPUT(negative, "-1\n", EINVAL);
BAD_INPUT(newline_only, "\n", EINVAL);
BAD_INPUT(trailing_garbage, "10abc\n", EINVAL);
BAD_INPUT(two_numbers, "1 2\n", EINVAL);
BAD_INPUT(leading_space, " 10\n", EINVAL);
BAD_INPUT(hexadecimal, "0x10\n", EINVAL);
BAD_INPUT(two_newlines, "10\n\n", EINVAL);
BAD_INPUT(u64_overflow, "18446744073709551616\n", EINVAL);
BAD_INPUT(huge, "999999999999999999999999999999\n", EINVAL);
BAD_INPUT(above_max, "100000001\n", E2BIG);
BAD_INPUT(u64_max, "18446744073709551615\n", E2BIG);
BAD_INPUT(long_write,
	  "0000000000000000000000000000000000000000000000000000000000000000"
	  "0000000000000000000000000000000000000000000000000000000000000010",
	  EINVAL);
BAD_INPUT(binary, "\x01\xff\x80", EINVAL);
FIXTURE_VARIANT_ADD(bad_input, nul_byte) { .input = "1\0", .len = 2, .err = EINVAL };

TEST_F(bad_input, changes_nothing)
{
	char *results, *kvtext, *after;
	size_t len;

	ASSERT_EQ(0, param_write("max_iterations", "100000000"));
	ASSERT_EQ(0, run("7"));
	results = lc_read_file(DIR "results", NULL);
	kvtext = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, results);
	ASSERT_NE(NULL, kvtext);

	len = variant->len ? variant->len : strlen(variant->input);
	EXPECT_EQ(variant->err, lc_write_file(DIR "run", variant->input, len));

	after = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(results, after);
	free(after);
	after = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(kvtext, after);
	free(after);
	free(results);
	free(kvtext);
}

TEST_F(calib, max_iterations_parameter)
{
	ASSERT_EQ(0, param_write("max_iterations", "100"));
	EXPECT_EQ(E2BIG, run("101"));
	EXPECT_EQ(0, run("100"));
	check_results(_metadata, 100);
}

TEST_F(calib, bad_parameters_rejected)
{
	static const struct {
		const char *name, *value;
	} bad[] = {
		{ "cpu", "-2" }, { "cpu", "99999" }, { "cpu", "one" },
		{ "cpu", "\n" },
		{ "max_iterations", "0" }, { "max_iterations", "1000000001" },
		{ "max_iterations", "-1" }, { "max_iterations", "lots" },
		{ "chunk_iterations", "0" }, { "chunk_iterations", "10000001" },
		{ "deltas_window", "65537" }, { "deltas_window", "-1" },
	};
	int cpu, max, chunk;
	size_t i;

	cpu = param_read("cpu");
	max = param_read("max_iterations");
	chunk = param_read("chunk_iterations");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = param_write(bad[i].name, bad[i].value);

		if (err != EINVAL)
			fprintf(stderr, "# %s=%s: %s\n", bad[i].name,
				bad[i].value, strerror(err));
		EXPECT_EQ(EINVAL, err);
	}
	EXPECT_EQ(cpu, param_read("cpu"));
	EXPECT_EQ(max, param_read("max_iterations"));
	EXPECT_EQ(chunk, param_read("chunk_iterations"));
}

TEST_F_TIMEOUT(calib, second_writer_gets_ebusy, 120)
{
	char *before, *after;

	ASSERT_EQ(0, run("3"));
	before = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, before);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	EXPECT_EQ(EBUSY, run("10"));
	/* The run going on has not replaced the last results yet. */
	after = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

TEST_F_TIMEOUT(calib, status_shows_progress, 120)
{
	long long d1, d2, asked, cpu;

	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	ASSERT_EQ(0, status_field("done", &d1));
	ASSERT_EQ(0, status_field("asked", &asked));
	ASSERT_EQ(0, status_field("cpu", &cpu));
	EXPECT_EQ(100000000, asked);
	EXPECT_LE(0, cpu);
	EXPECT_LT(cpu, sysconf(_SC_NPROCESSORS_CONF));
	ASSERT_TRUE(wait_running(d1 + 1, 30000));
	ASSERT_EQ(0, status_field("done", &d2));
	EXPECT_LT(d1, d2);
	EXPECT_LT(d2, asked);
}

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
 * A writer that handles a signal (a handler that returns, no SA_RESTART),
 * as shells, harnesses and language runtimes do, is stopped by it: its
 * write fails with EINTR and the run's results are marked partial.  Then,
 * as CPython's buffered files do when close() flushes what the interrupted
 * write left behind (and as a C loop retrying on EINTR does), it writes the
 * same count again on the same open file: that retry is acknowledged at
 * once, without a new run that no signal would stop.  Each signal, with and
 * without a probe whose handler works; the writer must be gone within
 * STOP_WRITER_MS of the signal, where the run would last minutes.
 */
#define STOP_WRITER_MS	5000

enum { WRITER_OK, WRITER_NO_EINTR = 100, WRITER_RETRY_FAILED, WRITER_OPEN };

static void on_handled_signal(int sig)
{
}

/* The child: the write, interrupted, then its retry; how they went. */
static int retrying_writer(int sig)
{
	struct sigaction sa = { .sa_handler = on_handled_signal };
	size_t len = strlen(LONG_RUN);
	ssize_t n;
	int fd;

	sigaction(sig, &sa, NULL);	/* no SA_RESTART */
	fd = open(DIR "run", O_WRONLY);
	if (fd < 0)
		return WRITER_OPEN;
	n = write(fd, LONG_RUN, len);
	if (n >= 0 || errno != EINTR)
		return WRITER_NO_EINTR;
	n = write(fd, LONG_RUN, len);
	close(fd);
	return n == (ssize_t)len ? WRITER_OK : WRITER_RETRY_FAILED;
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

/* The run the signal stopped: interrupted, partial, and nothing after. */
static void check_stopped_run(struct __test_metadata *_metadata,
			      long long number_before)
{
	char *text = lc_read_file(DIR "results_kv", NULL);

	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.state", "interrupted")) {
		TH_LOG("run.state=%.20s", lc_kv_value(text, "run.state", NULL));
	}
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(number_before + 1, lc_kv_ll(text, "run.number", LLONG_MIN));
	free(text);
	EXPECT_FALSE(status_running());
}

static long long run_number(void)
{
	char *text = lc_read_file(DIR "results_kv", NULL);
	long long n = text ? lc_kv_ll(text, "run.number", 0) : -1;

	free(text);
	return n;
}

TEST_F_TIMEOUT(handled_signal, stops_the_writer, 120)
{
	long long before = run_number(), t0;
	int status = 0;

	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0)
		_exit(retrying_writer(variant->sig));
	ASSERT_TRUE(wait_running(1, 30000));
	t0 = now_ms();
	ASSERT_EQ(0, kill(self->env.child, variant->sig));
	EXPECT_TRUE(reap_within(self->env.child, STOP_WRITER_MS, &status)) {
		TH_LOG("the writer still writes %lld ms after signal %d",
		       now_ms() - t0, variant->sig);
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, &status, 0);
	}
	self->env.child = 0;
	TH_LOG("signal %d: writer gone after %lld ms", variant->sig,
	       now_ms() - t0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == WRITER_OK) {
		TH_LOG("writer: status 0x%x (%d: %s)", status,
		       WEXITSTATUS(status),
		       WEXITSTATUS(status) == WRITER_NO_EINTR ?
		       "the write did not fail with EINTR" :
		       WEXITSTATUS(status) == WRITER_RETRY_FAILED ?
		       "the retry did not return its length" : "?");
	}
	check_stopped_run(_metadata, before);
}

/*
 * The same with a real CPython writer, where the machine has python3: its
 * SIGINT handler raises (as its default one does), and the file is written
 * through Python's buffered I/O, whose close() writes again what the
 * interrupted write left.
 */
TEST_F_TIMEOUT(calib, python_writer_stopped_by_sigint, 120)
{
	static const char program[] =
		"import signal\n"
		"class Stop(Exception): pass\n"
		"def h(s, f): raise Stop()\n"
		"signal.signal(signal.SIGINT, h)\n"
		"try:\n"
		"    with open('" DIR "run', 'w') as f:\n"
		"        f.write('" LONG_RUN "')\n"
		"except Stop:\n"
		"    raise SystemExit(0)\n"
		"raise SystemExit(1)\n";
	long long before = run_number(), t0;
	int status = 0;

	if (system("command -v python3 >/dev/null 2>&1"))
		SKIP(return, "no python3 on this machine");
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		execlp("python3", "python3", "-c", program, (char *)NULL);
		_exit(127);
	}
	ASSERT_TRUE(wait_running(1, 60000));
	t0 = now_ms();
	ASSERT_EQ(0, kill(self->env.child, SIGINT));
	EXPECT_TRUE(reap_within(self->env.child, STOP_WRITER_MS, &status)) {
		TH_LOG("the Python writer still writes %lld ms after SIGINT",
		       now_ms() - t0);
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, &status, 0);
	}
	self->env.child = 0;
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("python3: status 0x%x", status);
	}
	check_stopped_run(_metadata, before);
}

TEST_F(calib, run_on_each_cpu)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char value[16], *text;
	int c;

	for (c = 0; c < n; c++) {
		snprintf(value, sizeof(value), "%d", c);
		ASSERT_EQ(0, param_write("cpu", value));
		ASSERT_EQ(0, run("1000"));
		text = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_EQ(c, lc_kv_ll(text, "run.cpu", LLONG_MIN));
		free(text);
		check_results(_metadata, 1000);
	}
}

TEST_F(calib, writer_cpu_and_affinity_restored)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t all, one, after;
	char *text;
	int c;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	/* cpu=-1: the run stays on the CPU the writer is on. */
	for (c = 0; c < n; c++) {
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
		ASSERT_EQ(0, run("100"));
		text = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_EQ(c, lc_kv_ll(text, "run.cpu", LLONG_MIN));
		free(text);
	}
	/* A run pinned elsewhere gives the writer its own affinity back. */
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	ASSERT_EQ(0, param_write("cpu", n > 1 ? "1" : "0"));
	ASSERT_EQ(0, run("100"));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&all, &after));
}

/*
 * The run is measured by a kernel thread: the writer's affinity is never
 * touched, and a change made from outside during the run is kept.
 */
TEST_F_TIMEOUT(calib, affinity_changed_during_run_is_kept, 120)
{
	cpu_set_t one, after;
	int status, fd[2];

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pipe(fd));
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		cpu_set_t mine;

		close(fd[0]);
		run("1000000");
		sched_getaffinity(0, sizeof(mine), &mine);
		_exit(write(fd[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	close(fd[1]);
	ASSERT_TRUE(wait_running(1, 30000));
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	ASSERT_EQ(0, sched_setaffinity(self->env.child, sizeof(one), &one));
	ASSERT_EQ(sizeof(after), read(fd[0], &after, sizeof(after)));
	close(fd[0]);
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	EXPECT_TRUE(CPU_EQUAL(&one, &after));
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

/* Every setting a run uses is refused while one is in progress. */
TEST_F_TIMEOUT(calib, settings_busy_during_run, 120)
{
	static const struct {
		const char *path, *value;
	} settings[] = {
		{ PARAMS "cpu", "0" }, { PARAMS "max_iterations", "1000" },
		{ PARAMS "chunk_iterations", "100" },
		{ PARAMS "deltas_window", "10" }, { DIR "irqs", "enabled" },
		{ DIR "counters", "page-faults" }, { DIR "probe", "kprobe" },
		{ DIR "target", "tracepoint" }, { DIR "work_cycles", "5" },
	};
	unsigned int i;

	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		TH_LOG("%s", settings[i].path);
		EXPECT_EQ(EBUSY, write_str(settings[i].path, settings[i].value));
	}
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	EXPECT_EQ(0, write_str(DIR "irqs", "disabled"));
}

TEST_F(calib, irqs_setting)
{
	char *text;

	text = lc_read_file(DIR "irqs", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("[disabled] enabled\n", text);
	free(text);
	EXPECT_EQ(EINVAL, write_str(DIR "irqs", "on"));
	EXPECT_EQ(EINVAL, write_str(DIR "irqs", "enabled\n\n"));
	ASSERT_EQ(0, run("100"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.irqs", "disabled"));
	free(text);
	ASSERT_EQ(0, write_str(DIR "irqs", "enabled\n"));
	ASSERT_EQ(0, run("100"));
	check_results(_metadata, 100);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.irqs", "enabled"));
	free(text);
	ASSERT_EQ(0, write_str(DIR "irqs", "disabled"));
	text = lc_read_file(DIR "irqs", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("[disabled] enabled\n", text);
	free(text);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

static void alarm_every(long us)
{
	struct itimerval it = {
		.it_interval = { 0, us },
		.it_value = { 0, us },
	};

	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * A run stopped before it measured one iteration (here, by signals that
 * come while the measuring thread is being started on another CPU) ends
 * with an error and changes nothing anyone can read: no result with no
 * iteration, and the deltas of the last run that measured.
 */
TEST_F_TIMEOUT(calib, run_that_measured_nothing_changes_nothing, 120)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	char *kv, *deltas, *now;
	long long number, done;
	int i, err, failed_runs = 0;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	ASSERT_EQ(0, run("50"));
	for (i = 0; i < 200; i++) {
		kv = lc_read_file(DIR "results_kv", NULL);
		deltas = lc_read_file(DIR "deltas", NULL);
		ASSERT_NE(NULL, kv);
		ASSERT_NE(NULL, deltas);
		number = lc_kv_ll(kv, "run.number", LLONG_MIN);
		alarm_every(100);
		err = run("2000000");
		alarm_every(0);
		now = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, now);
		done = lc_kv_ll(now, "run.iterations.done", LLONG_MIN);
		EXPECT_LT(0, done) {
			TH_LOG("attempt %d (%s): a result with %lld iterations",
			       i, strerror(err), done);
		}
		if (lc_kv_ll(now, "run.number", LLONG_MIN) == number) {
			failed_runs++;
			EXPECT_STREQ(kv, now);
			free(now);
			now = lc_read_file(DIR "deltas", NULL);
			ASSERT_NE(NULL, now);
			EXPECT_STREQ(deltas, now);
		}
		free(now);
		free(kv);
		free(deltas);
		if (done <= 0)
			break;
	}
	signal(SIGALRM, SIG_DFL);
	unpin();
	TH_LOG("%d of %d runs measured nothing, %d alarms", failed_runs, i,
	       (int)alarms);
}


/* CPU hot-unplug comes last: it disturbs the CPUs for the tests after it. */
TEST_F(calib, offline_cpu_rejected)
{
	char *before, *after;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to take offline");
	ASSERT_EQ(0, run("3"));
	before = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, cpu_online_set(1, 0));
	self->env.offlined = 1;
	ASSERT_EQ(0, param_write("cpu", "1"));
	EXPECT_EQ(ENODEV, run("10"));
	after = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(after);
	free(before);
	ASSERT_EQ(0, cpu_online_set(1, 1));
	self->env.offlined = -1;
	EXPECT_EQ(0, run("10"));
	check_results(_metadata, 10);
}

TEST_F_TIMEOUT(calib, cpu_unplug_during_run, 120)
{
	long long done;
	char *text;
	int status;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to take offline");
	ASSERT_EQ(0, param_write("cpu", "1"));
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	ASSERT_EQ(0, cpu_online_set(1, 0));
	self->env.offlined = 1;
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EAGAIN, WEXITSTATUS(status));

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "run.state", "migrated"));
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(1, lc_kv_ll(text, "run.cpu", LLONG_MIN));
	done = lc_kv_ll(text, "run.iterations.done", LLONG_MIN);
	EXPECT_EQ(done, kv_stat(text, "target", "cycles", "count"));
	free(text);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
