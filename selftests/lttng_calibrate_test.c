// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the lttng_calibrate debugfs interface: runs, results, status,
 * rejected input, busy and interrupted runs, CPU selection and hot-unplug,
 * the per-iteration deltas and what their readers hold.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <math.h>

#include <linux/perf_event.h>
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

/*
 * Every name the events file lists is one counters takes: selected alone it
 * is counted (a software event), or refused because this machine cannot
 * count it (ENOENT, EOPNOTSUPP: hardware events under QEMU), never as an
 * unknown name (EINVAL).
 */
TEST_F(calib, events_are_names_counters_takes)
{
	char *text = lc_read_file(DIR "events", NULL), *line, *save = NULL;
	int n = 0, counted = 0, err;

	ASSERT_NE(NULL, text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		n++;
		err = write_str(DIR "counters", line);
		EXPECT_TRUE(!err || err == ENOENT || err == EOPNOTSUPP) {
			TH_LOG("%s: %s", line, strerror(err));
		}
		counted += !err;
	}
	free(text);
	EXPECT_EQ(0, write_str(DIR "counters", "\n"));
	/* perf's 24 named events and 7 caches x 6 operations */
	EXPECT_EQ(24 + 7 * 6, n);
	/* the software events at least */
	EXPECT_LE(10, counted);
}

TEST_F(calib, status_idle)
{
	char *text = lc_read_file(DIR "status", NULL);

	ASSERT_NE(NULL, text);
	EXPECT_STREQ("state=idle\n", text);
	free(text);
}

TEST_F(calib, run_1)
{
	ASSERT_EQ(0, run("1\n"));
	check_results(_metadata, 1);
}

TEST_F(calib, run_10)
{
	ASSERT_EQ(0, run("10\n"));
	check_results(_metadata, 10);
}

TEST_F(calib, run_10_without_newline)
{
	ASSERT_EQ(0, run("10"));
	check_results(_metadata, 10);
}

TEST_F_TIMEOUT(calib, run_1000000, 300)
{
	ASSERT_EQ(0, run("1000000\n"));
	check_results(_metadata, 1000000);
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

/* The selected counters: the lines of "counters" that are not comments. */
static char *counter_list(void)
{
	char *text = lc_read_file(DIR "counters", NULL);

	return text ? strip_comments(text) : NULL;
}

/*
 * @word is refused with @err and the selection stays as it was; the
 * refusal line of "counters" holds @reason, unless it is NULL.
 */
static void expect_list_refused(struct __test_metadata *_metadata,
				const char *word, int err, const char *reason)
{
	char *before = counter_list(), *after, *text;

	ASSERT_NE(NULL, before);
	EXPECT_EQ(err, write_str(DIR "counters", word)) {
		TH_LOG("counters: %s", word);
	}
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
	if (!reason)
		return;
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, reason)) {
		TH_LOG("counters: %s", text);
	}
	free(text);
}

static int columns(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == '\t';
	return n;
}

TEST_F(calib, software_counters)
{
	static const char *const names[] = {
		"page-faults", "context-switches", "cpu-clock"
	};
	long long n = 100000, ns, clk;
	char key[96], *text;
	size_t i;
	int r;

	ASSERT_EQ(0, write_str(DIR "counters",
			       "page-faults context-switches cpu-clock\n"));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	for (i = 0; i < 3; i++)
		EXPECT_NE(NULL, strstr(text, names[i]));
	EXPECT_EQ(3, count_lines(text));
	free(text);

	ASSERT_EQ(0, run("100000"));
	check_results(_metadata, n);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, lc_kv_value(text, "counters", NULL));
	EXPECT_TRUE(lc_kv_is(text, "counters",
			     "page-faults,context-switches,cpu-clock"));
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "counter.%s.valid", names[i]);
		EXPECT_EQ(1, lc_kv_ll(text, key, LLONG_MIN));
		/* A software event's 0 is a count, not a counter that
		 * does not count.
		 */
		snprintf(key, sizeof(key), "counter.%s.counted", names[i]);
		EXPECT_EQ(1, lc_kv_ll(text, key, LLONG_MIN));
		for (r = 0; r < 3; r++) {
			snprintf(key, sizeof(key), "counter.%s", names[i]);
			EXPECT_EQ(n, kv_stat(text, rows[r], key, "count"));
		}
	}
	/* Nothing faults or switches in an empty function, preemption off. */
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "counter.%s", names[i]);
		for (r = 0; r < 3; r++) {
			EXPECT_EQ(0, kv_stat(text, rows[r], key, "median"));
			EXPECT_EQ(0, kv_stat(text, rows[r], key, "p99"));
			EXPECT_GE(10, kv_stat(text, rows[r], key, "mean"));
		}
	}
	/* cpu-clock counts ns: in line with the ns timing of the target. */
	ns = kv_stat(text, "target", "ns", "median");
	clk = kv_stat(text, "target", "counter.cpu-clock", "median");
	EXPECT_LT(ns / 2, clk);
	EXPECT_GT(ns * 2, clk);
	free(text);
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter page-faults "));
	EXPECT_NE(NULL, strstr(text, "\ncounter cpu-clock "));
	free(text);
}

#define LLC_MISSES(op) \
	(PERF_COUNT_HW_CACHE_LL | (op) << 8 | PERF_COUNT_HW_CACHE_RESULT_MISS << 16)

/* Hardware events, with the perf type and config their names stand for. */
static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} hardware_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_READ) },
	{ "LLC-store-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_WRITE) },
	{ "LLC-prefetch-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_PREFETCH) },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "r1c2", PERF_TYPE_RAW, 0x1c2 },
};

/*
 * Each hardware event the machine cannot count fails cleanly: every one
 * without a PMU (x86 under QEMU TCG), those its PMU lacks where it has one
 * (instructions on arm64 under TCG without -icount), as the kernel answers
 * when asked directly.
 */
TEST_F(calib, hardware_counters_refused_without_pmu)
{
	char *before, *after, *text;
	size_t i, refused = 0;
	int err;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	for (i = 0; i < ARRAY_SIZE(hardware_events); i++) {
		if (!perf_event_answer(hardware_events[i].type,
				       hardware_events[i].config))
			continue;
		refused++;
		err = write_str(DIR "counters", hardware_events[i].name);
		EXPECT_TRUE(err == ENOENT || err == EOPNOTSUPP ||
			    err == EINVAL) {
			TH_LOG("%s: %s", hardware_events[i].name,
			       strerror(err));
		}
		after = counter_list();
		ASSERT_NE(NULL, after);
		EXPECT_STREQ(before, after);
		free(after);
		text = lc_read_file(DIR "counters", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_NE(NULL, strstr(text, "# last list refused: "));
		EXPECT_NE(NULL, strstr(text, hardware_events[i].name));
		free(text);
	}
	free(before);
	if (!refused)
		SKIP(return, "the PMU counts each hardware event: see hardware_counters_count");
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
}

/*
 * Counters of a PMU count around every call: the machine's own (cycles and
 * instructions, each where its PMU counts it), or, where it has none (QEMU
 * TCG on x86), the test PMU's (TSC cycles and calls of the target).
 */
TEST_F(calib, hardware_counters_count)
{
	char tsc[96], calls[96], list[200], *text;
	const char *a = "counter.cycles", *b = "counter.instructions";
	int type = -1;

	if (pmu_present()) {
		if (perf_event_answer(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_CPU_CYCLES))
			a = NULL;
		if (perf_event_answer(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_INSTRUCTIONS))
			b = NULL;
		snprintf(list, sizeof(list), "%s %s\n", a ? "cycles" : "",
			 b ? "instructions" : "");
		ASSERT_EQ(0, write_str(DIR "counters", list));
	} else {
		type = test_pmu_load("");
		ASSERT_LE(0, type);
		snprintf(list, sizeof(list), "%s %s\n",
			 test_pmu_event(tsc, sizeof(tsc), type, "tsc", 1, ""),
			 test_pmu_event(calls, sizeof(calls), type, "calls", 2,
					""));
		ASSERT_EQ(0, write_str(DIR "counters", list));
		a = "counter." TEST_PMU "/tsc/";
		b = "counter." TEST_PMU "/calls/";
	}
	ASSERT_EQ(0, run("10000"));
	check_results(_metadata, 10000);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	if (a)
		EXPECT_LT(0, kv_stat(text, "target", a, "median"));
	if (b)
		EXPECT_LT(0, kv_stat(text, "target", b, "median"));
	free(text);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	if (type >= 0)
		EXPECT_EQ(0, test_pmu_unload());
}

ENV_FIXTURE(bad_counters)

FIXTURE_VARIANT(bad_counters) {
	const char *input;
	size_t len;
	int err;
};

#define BAD_LIST(name, text, e) \
	FIXTURE_VARIANT_ADD(bad_counters, name) { .input = text, .err = e }

BAD_LIST(unknown, "page-faults bogus-event\n", EINVAL);
BAD_LIST(partial_name, "page-fau", EINVAL);
BAD_LIST(duplicate, "cpu-clock page-faults cpu-clock\n", EINVAL);
BAD_LIST(too_many, "cpu-clock task-clock page-faults context-switches "
	 "cpu-migrations minor-faults major-faults alignment-faults "
	 "emulation-faults\n", E2BIG);
BAD_LIST(garbage, "\x01\xfe\x80\n", EINVAL);
BAD_LIST(bad_raw, "rxyz\n", EINVAL);
BAD_LIST(too_long,
	 "cpu-clock                                                       "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                ",
	 EINVAL);
BAD_LIST(generic_no_config, "1:\n", EINVAL);
BAD_LIST(generic_no_type, ":0x1\n", EINVAL);
BAD_LIST(generic_bare_0x, "1:0x\n", EINVAL);
BAD_LIST(generic_17_digits, "1:0x12345678901234567\n", EINVAL);
BAD_LIST(generic_decimal_too_big, "1:18446744073709551616\n", EINVAL);
BAD_LIST(generic_leading_zero, "1:01\n", EINVAL);
BAD_LIST(generic_five_words, "1:0x1:0x2:0x3:0x4\n", EINVAL);
BAD_LIST(generic_sign, "1:-1\n", EINVAL);
BAD_LIST(generic_type_too_big, "4294967296:0x1\n", EINVAL);
BAD_LIST(generic_same_as_named, "cpu-clock 1:0x0\n", EINVAL);
BAD_LIST(generic_same_twice, "a=1:0x2 b=1:2\n", EINVAL);
BAD_LIST(generic_no_such_type, "2147483647:0x1\n", ENOENT);
/*
 * config1 has every bit but bit 1: the arm64 PMU driver (armv8_pmuv3)
 * reads that bit, "rdpmc", before the type, and refuses a CPU-wide event
 * that asks for it with EINVAL, for all types; without it, every PMU
 * refuses the type with ENOENT, on every architecture.
 */
BAD_LIST(generic_longest_no_such_type,
	 "x=4294967295:0xffffffffffffffff:0xfffffffffffffffd:0xffffffffffffffff\n",
	 ENOENT);
BAD_LIST(label_on_named_event, "clock=cpu-clock\n", EINVAL);
BAD_LIST(label_is_an_event, "page-faults=1:0x0\n", EINVAL);
BAD_LIST(label_empty, "=1:0x0\n", EINVAL);
BAD_LIST(label_bad_character, "a;b=1:0x0\n", EINVAL);
BAD_LIST(label_too_long,
	 "a23456789012345678901234567890123456789012345678=1:0x0\n", EINVAL);
BAD_LIST(label_twice, "x=1:0x0 x=1:0x3\n", EINVAL);
BAD_LIST(two_equals, "x=y=1:0x0\n", EINVAL);
FIXTURE_VARIANT_ADD(bad_counters, nul_byte) {
	.input = "cpu-clock\0page-faults", .len = 21, .err = EINVAL
};

TEST_F(bad_counters, list_unchanged)
{
	char *before, *after;
	size_t len;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults,cpu-clock\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	EXPECT_EQ(2, count_lines(before));

	len = variant->len ? variant->len : strlen(variant->input);
	EXPECT_EQ(variant->err, lc_write_file(DIR "counters", variant->input,
					    len));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

TEST_F(calib, empty_list_clears_counters)
{
	char *text;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults\n"));
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	text = counter_list();
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("", text);
	free(text);
	ASSERT_EQ(0, run("10"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "counters", ""));
	EXPECT_EQ(NULL, strstr(text, "counter."));
	free(text);
}

TEST_F_TIMEOUT(calib, counters_busy_during_run, 120)
{
	char *before, *after;

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	EXPECT_EQ(EBUSY, write_str(DIR "counters", "page-faults\n"));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

/*
 * The test PMU (lttng_calibrate_test_pmu.ko) behaves like hardware: a few
 * counters per CPU, events of known counts, and the ways a counter ends up
 * not counting.  Its events are given by type and config, named as the
 * command names them.
 */
FIXTURE(test_pmu) {
	struct env env;
	int type;
	char tsc[96], calls[96], idle[96];
};

FIXTURE_SETUP(test_pmu)
{
	env_setup(_metadata, &self->env);
	self->type = test_pmu_load("counters=2");
	ASSERT_LE(0, self->type);
	test_pmu_event(self->tsc, sizeof(self->tsc), self->type, "tsc", 1, "");
	test_pmu_event(self->calls, sizeof(self->calls), self->type, "calls",
		       2, "");
	test_pmu_event(self->idle, sizeof(self->idle), self->type, "idle", 3,
		       "");
}

FIXTURE_TEARDOWN(test_pmu)
{
	if (self->env.child > 0) {
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, NULL, 0);
		self->env.child = 0;
	}
	write_str(DIR "counters", "\n");
	EXPECT_EQ(0, test_pmu_unload());
	env_teardown(_metadata, &self->env);
}

static void select_list(struct __test_metadata *_metadata, const char *a,
			const char *b, const char *c)
{
	char list[400];

	snprintf(list, sizeof(list), "%s %s %s\n", a, b ? b : "", c ? c : "");
	ASSERT_EQ(0, write_str(DIR "counters", list)) {
		TH_LOG("counters: %s", list);
	}
}

/* The counter's valid flag in results_kv, -1 when absent. */
static long long counter_valid(const char *text, const char *name)
{
	char key[128];

	snprintf(key, sizeof(key), "counter.%s.valid", name);
	return lc_kv_ll(text, key, -1);
}

/*
 * A counter that did not count the whole run: flagged, and none of its
 * figures anywhere (results, results_kv, deltas).
 */
static void expect_withheld(struct __test_metadata *_metadata,
			    const char *name)
{
	char key[128], *text, *line;
	int col = -1, i;
	const char *p;

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, counter_valid(text, name));
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s.counter.%s.", rows[i], name);
		EXPECT_EQ(NULL, strstr(text, key)) {
			TH_LOG("%s in results_kv", key);
		}
	}
	snprintf(key, sizeof(key), "overhead.counter.%s.", name);
	EXPECT_EQ(NULL, strstr(text, key));
	free(text);

	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	snprintf(key, sizeof(key), "\ncounter %s: NOT VALID, figures withheld",
		 name);
	EXPECT_NE(NULL, strstr(text, key));
	snprintf(key, sizeof(key), "overhead per call, counter %s:", name);
	EXPECT_EQ(NULL, strstr(text, key));
	free(text);

	/* Its two columns in deltas read "-" in every row. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	snprintf(key, sizeof(key), "\ttarget.%s\t", name);
	p = strstr(text, key);
	ASSERT_NE(NULL, p);
	col = 0;
	for (; p > text; p--)
		col += p[-1] == '\t';
	col++;
	for (line = strchr(text, '\n'); line && line[1]; ) {
		line++;
		for (p = line, i = 0; i < col; i++)
			p = strchr(p, '\t') + 1;
		EXPECT_EQ(0, strncmp(p, "-\t-", 3)) {
			TH_LOG("deltas row: %.80s", line);
			break;
		}
		line = strchr(line, '\n');
	}
	free(text);
}

/*
 * Counting: read in place around every call.  calls counts exactly one
 * call of the target per iteration, none of the baseline; tsc counts the
 * architecture's counter, which is the clock the cycles rows are timed
 * with on x86, and at its own rate elsewhere.
 */
TEST_F(test_pmu, counts_around_every_call)
{
	long long n = 20000, cyc, tsc;
	char key[128], *text, *line;
	double ratio;
	int r;

	select_list(_metadata, self->tsc, self->calls, NULL);
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, TEST_PMU "/tsc/\t" TEST_PMU "\t0x1\t"));
	free(text);
	ASSERT_EQ(0, run("20000"));
	check_results(_metadata, n);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	for (r = 0; r < 3; r++) {
		snprintf(key, sizeof(key), "counter.%s/calls/", TEST_PMU);
		EXPECT_EQ(n, kv_stat(text, rows[r], key, "count"));
		EXPECT_EQ(r == 1 ? 0 : 1000, kv_stat(text, rows[r], key, "min"));
		EXPECT_EQ(r == 1 ? 0 : 1000, kv_stat(text, rows[r], key, "max"));
	}
	EXPECT_EQ(1000, kv_stat(text, "overhead", "counter." TEST_PMU "/calls/",
				"mean"));
	/*
	 * tsc and the cycles rows time the same windows: their medians
	 * agree, tsc converted to the run's clock.
	 */
	ratio = tsc_per_cycle(text);
	ASSERT_LT(0, ratio);
	cyc = kv_stat(text, "target", "cycles", "median");
	tsc = kv_stat(text, "target", "counter." TEST_PMU "/tsc/", "median") /
	      ratio;
	EXPECT_LT(0, tsc);
	EXPECT_GT(cyc / 4 + 100000 / ratio, llabs(cyc - tsc)) {
		TH_LOG("target median: cycles %lld, tsc %lld in cycles (%.4f a cycle) (thousandths)",
		       cyc, tsc, ratio);
	}
	free(text);

	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU "/tsc/ "));
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU "/calls/ "));
	EXPECT_EQ(NULL, strstr(text, "NOT VALID"));
	free(text);

	/* deltas: calls reads 1 for the target and 0 for the baseline. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ttarget." TEST_PMU "/tsc/\tbaseline."
			       TEST_PMU "/tsc/\ttarget." TEST_PMU "/calls/\t"));
	for (line = strchr(text, '\n'); line && line[1];
	     line = strchr(line + 1, '\n')) {
		long long v[7];
		char *p = line + 1;

		for (r = 0; r < 7; r++)
			v[r] = strtoll(p, &p, 10);
		EXPECT_EQ(1, v[5]);
		EXPECT_EQ(0, v[6]);
		EXPECT_LT(0, v[3]);
		if (v[5] != 1 || v[6] != 0)
			break;
	}
	free(text);
}

/* More pinned events than counters: the extra one never counts. */
TEST_F(test_pmu, more_events_than_counters)
{
	char *text, *line;

	select_list(_metadata, self->tsc, self->calls, self->idle);
	ASSERT_EQ(0, run("2000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_LT(0, kv_stat(text, "target", "counter." TEST_PMU "/tsc/",
			     "median"));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/idle/");
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "counted 0 of ")) {
		line = strstr(text, "\ncounter " TEST_PMU "/idle/: ");
		TH_LOG("%.*s", line ? (int)strcspn(line + 1, "\n") : 0,
		       line ? line + 1 : "");
	}
	free(text);
	/*
	 * With a third counter, all three are scheduled for the whole run;
	 * idle, which then reads 0 all the time, is withheld as a counter
	 * that never counted, not reported as 0.
	 */
	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "3"));
	ASSERT_EQ(0, run("2000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_EQ(1, lc_kv_ll(text, "counter." TEST_PMU "/calls/.counted", -1));
	EXPECT_EQ(0, lc_kv_ll(text, "counter." TEST_PMU "/idle/.counted", -1));
	EXPECT_EQ(lc_kv_ll(text, "counter." TEST_PMU "/idle/.enabled_ns", -1),
		  lc_kv_ll(text, "counter." TEST_PMU "/idle/.running_ns", -2));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/idle/");
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU
			       "/idle/: NOT VALID, figures withheld: never counted"));
	free(text);
}

/* add() fails for fail_add=1: that counter only is withheld. */
TEST_F(test_pmu, add_failing)
{
	char failing[96], *text;

	/* Unnamed, as the command leaves it: PMU:0x1:0x1. */
	snprintf(failing, sizeof(failing), "%d:0x1:0x1", self->type);
	select_list(_metadata, failing, self->calls, NULL);
	ASSERT_EQ(0, run("2000"));
	check_results(_metadata, 2000);
	expect_withheld(_metadata, TEST_PMU ":0x1:0x1");
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_EQ(1000, kv_stat(text, "difference", "counter." TEST_PMU "/calls/",
				"mean"));
	free(text);
}

/*
 * A counter taken away during the run: another pinned user of the PMU
 * comes on the run's CPU when there are no counters left for it, and perf
 * schedules the CPU's events again.  The run's counter loses its counter;
 * a software counter of the same run stays valid.
 */
TEST_F_TIMEOUT(test_pmu, counter_taken_away_during_run, 120)
{
	struct perf_event_attr attr = {
		.type = self->type,
		.size = sizeof(attr),
		.config = 3,
		.pinned = 1,
	};
	char *text;
	int fd;

	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "1"));
	ASSERT_EQ(0, param_write("cpu", "0"));
	select_list(_metadata, "cpu-clock", self->tsc, NULL);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(2000, 30000));
	/* Counting so far: its columns in deltas are numbers. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "\t-\t"));
	EXPECT_EQ(NULL, strstr(text, "\t-\n"));
	free(text);

	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "0"));
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	ASSERT_LE(0, fd) {
		TH_LOG("perf_event_open: %s", strerror(errno));
	}
	sleep_ms(200);
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	close(fd);
	ASSERT_TRUE(wait_idle(10000));

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(1, counter_valid(text, "cpu-clock"));
	EXPECT_LT(0, kv_stat(text, "target", "counter.cpu-clock", "count"));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/tsc/");
}

/*
 * The PMU cannot be unloaded while its events are selected or counting;
 * once they are not, it unloads with nothing left behind, and its type
 * number names no PMU any more.
 */
TEST_F_TIMEOUT(test_pmu, unload_while_selected, 120)
{
	char *text;
	int err;

	select_list(_metadata, self->tsc, NULL, NULL);
	err = test_pmu_unload();
	EXPECT_TRUE(err == EAGAIN || err == EBUSY) {
		TH_LOG("unload with its event selected: %s", strerror(err));
	}
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1000, 30000));
	err = test_pmu_unload();
	EXPECT_TRUE(err == EAGAIN || err == EBUSY) {
		TH_LOG("unload during a run: %s", strerror(err));
	}
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	ASSERT_TRUE(wait_idle(10000));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	free(text);

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	text = lc_read_file("/sys/module/" TEST_PMU_MODULE "/refcnt", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("0\n", text);
	free(text);
	ASSERT_EQ(0, test_pmu_unload());

	/* Its events now name no PMU: refused, the selection unchanged. */
	expect_list_refused(_metadata, self->tsc, ENOENT,
			    "# last list refused: " TEST_PMU
			    "/tsc/: no PMU has this type");
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
	/* Loaded again for the teardown's unload. */
	ASSERT_LE(0, test_pmu_load(""));
}

/* Its calls event needs calls_symbol: none, and it fails to open. */
TEST_F(test_pmu, event_that_cannot_open)
{
	char *before, *after;
	int type;

	EXPECT_EQ(0, test_pmu_unload());
	type = test_pmu_load("calls_symbol=no_such_function_here");
	ASSERT_LE(0, type);
	test_pmu_event(self->calls, sizeof(self->calls), type, "calls", 2, "");
	before = counter_list();
	ASSERT_NE(NULL, before);
	EXPECT_NE(0, write_str(DIR "counters", self->calls));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

/* The deltas file holds min(N, W) rows of 1 + 2 * (1 + counters) columns. */
static void check_deltas(struct __test_metadata *_metadata, long long n,
			 int window, int counters)
{
	char *text = lc_read_file(DIR "deltas", NULL), *line;
	long long rows = n < window ? n : window, first = n - rows, it;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(rows + 1, count_lines(text));
	EXPECT_EQ(0, strncmp(text, "iteration\ttarget.cycles\tbaseline.cycles",
			     39));
	EXPECT_EQ(3 + 2 * counters, columns(text));
	line = strchr(text, '\n');
	for (it = first; line && line[1]; it++) {
		line++;
		EXPECT_EQ(it, strtoll(line, NULL, 10));
		EXPECT_EQ(3 + 2 * counters, columns(line));
		line = strchr(line, '\n');
	}
	EXPECT_EQ(n, it);
	free(text);
}

TEST_F(calib, deltas_window)
{
	ASSERT_EQ(0, param_write("deltas_window", "50"));
	ASSERT_EQ(0, run("10"));
	check_deltas(_metadata, 10, 50, 0);
	ASSERT_EQ(0, run("200"));
	check_deltas(_metadata, 200, 50, 0);
	ASSERT_EQ(0, write_str(DIR "counters", "page-faults cpu-clock\n"));
	ASSERT_EQ(0, run("1000"));
	check_deltas(_metadata, 1000, 50, 2);
	ASSERT_EQ(0, param_write("deltas_window", "0"));
	ASSERT_EQ(0, run("10"));
	check_deltas(_metadata, 0, 0, 2);
}

/*
 * A reader of deltas holds a copy of the ring: at most 8 copies at once,
 * EMFILE past them, and a copy closed makes room again.
 */
#define DELTAS_MAX_OPEN	8

TEST_F(calib, deltas_snapshots_capped)
{
	int fds[DELTAS_MAX_OPEN], i, fd;

	ASSERT_EQ(0, run("10"));
	for (i = 0; i < DELTAS_MAX_OPEN; i++) {
		fds[i] = open(DIR "deltas", O_RDONLY);
		ASSERT_LE(0, fds[i]) {
			TH_LOG("open %d of deltas: %s", i + 1, strerror(errno));
		}
	}
	fd = open(DIR "deltas", O_RDONLY);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EMFILE, errno) {
		TH_LOG("open %d of deltas: %s", DELTAS_MAX_OPEN + 1,
		       fd < 0 ? strerror(errno) : "opened");
	}
	if (fd >= 0)
		close(fd);
	close(fds[0]);
	fds[0] = open(DIR "deltas", O_RDONLY);
	EXPECT_LE(0, fds[0]);
	for (i = 0; i < DELTAS_MAX_OPEN; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* memory.current of cgroup @cg, in bytes; -1 when unreadable. */
static long long memory_current(const char *cg)
{
	char path[128], *text;
	long long v;

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	text = lc_read_file(path, NULL);
	if (!text)
		return -1;
	v = atoll(text);
	free(text);
	return v;
}

/*
 * The copy a reader of deltas holds is charged to the reader's memory
 * cgroup: a 65536-row ring of four counters (5 MiB) opened from a cgroup
 * adds at least that much to its memory.current.
 */
TEST_F(calib, deltas_snapshot_charged_to_its_reader)
{
	const char *root = "/sys/fs/cgroup";
	const char *cg = "/sys/fs/cgroup/lttng_calibrate_memory";
	const long long ring = 65536LL * 2 * 5 * 8;
	long long grown = -1;
	char path[128], pid[16];
	bool mounted = false;
	int pipefd[2], status;

	ASSERT_EQ(0, param_write("deltas_window", "65536"));
	ASSERT_EQ(0, write_str(DIR "counters",
			       "cpu-clock page-faults context-switches cpu-migrations"));
	ASSERT_EQ(0, run("1"));
	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		if (mount("cgroup2", root, "cgroup2", 0, NULL))
			SKIP(return, "no cgroup v2: %s", strerror(errno));
		mounted = true;
	}
	if (write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		if (mounted)
			umount(root);
		SKIP(return, "no memory controller in cgroup v2");
	}
	ASSERT_EQ(0, mkdir(cg, 0755));
	ASSERT_EQ(0, pipe(pipefd));
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		long long before;
		int fd;

		snprintf(pid, sizeof(pid), "%d", getpid());
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		if (write_str(path, pid))
			_exit(100);
		before = memory_current(cg);
		fd = open(DIR "deltas", O_RDONLY);
		if (fd < 0)
			_exit(101);
		grown = memory_current(cg) - before;
		close(fd);
		_exit(write(pipefd[1], &grown, sizeof(grown)) ==
		      sizeof(grown) ? 0 : 102);
	}
	close(pipefd[1]);
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("reader: status 0x%x", status);
	}
	EXPECT_EQ(sizeof(grown), read(pipefd[0], &grown, sizeof(grown)));
	close(pipefd[0]);
	TH_LOG("memory.current grew by %lld bytes with deltas open (ring %lld)",
	       grown, ring);
	EXPECT_LE(ring, grown);
	EXPECT_EQ(0, rmdir(cg));
	if (mounted)
		umount(root);
	EXPECT_EQ(0, write_str(DIR "counters", "\n"));
}

TEST_F_TIMEOUT(calib, deltas_readable_during_run, 120)
{
	char *text, *line;
	int i;

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(5000, 30000));
	for (i = 0; i < 20; i++) {
		text = lc_read_file(DIR "deltas", NULL);
		ASSERT_NE(NULL, text);
		/* The run may overwrite a few of the oldest rows meanwhile. */
		EXPECT_GE(1001, count_lines(text));
		EXPECT_LE(1001 - 64, count_lines(text));
		for (line = text; line && *line; line = strchr(line, '\n')) {
			if (*line == '\n')
				line++;
			if (*line)
				EXPECT_EQ(5, columns(line));
		}
		free(text);
	}
}

/* Lines of kprobes/list naming our module: none between runs. */
static int our_kprobes(void)
{
	char *text = lc_read_file("/sys/kernel/debug/kprobes/list", NULL);
	char *line, *save = NULL;
	int n = 0;

	/* "ADDRESS  k  SYMBOL+OFFSET  MODULE [FLAGS]" */
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		n += strstr(line, " lttng_calibrate ") ||
		     strstr(line, "[lttng_calibrate]");
	free(text);
	return n;
}

/* Whether ftrace has a callback on the target (an fprobe, ftrace). */
static bool target_hooked(void)
{
	char *text = lc_read_file("/sys/kernel/tracing/enabled_functions", NULL);
	bool yes = text && strstr(text, "lttng_calibrate_target");

	free(text);
	return yes;
}

/* The first line of "probe": the mechanisms, the chosen one in []. */
static void expect_probe_line(struct __test_metadata *_metadata,
			      const char *want)
{
	char *text = lc_read_file(DIR "probe", NULL);

	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(text, want, strlen(want))) {
		TH_LOG("probe reads \"%s\"", text);
	}
	free(text);
}

/*
 * A refused choice is logged, rate-limited: 50 refusals in a row leave at
 * most the ratelimit's burst (10) of lines.
 */
static void expect_refusals_ratelimited(struct __test_metadata *_metadata,
					const char *word)
{
	char line[64];
	int fd, i, lines;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	lseek(fd, 0, SEEK_END);
	for (i = 0; i < 50; i++)
		EXPECT_EQ(EOPNOTSUPP, write_str(DIR "probe", word));
	snprintf(line, sizeof(line), "%s is not available", word);
	lines = kmsg_count(fd, line);
	close(fd);
	EXPECT_LE(1, lines);
	EXPECT_GE(10, lines);
}

TEST_F(calib, probe_setting)
{
	static const char *const fprobes[] = { "fprobe", "fprobe-exit" };
	int i;

	expect_probe_line(_metadata,
			  "[none] kprobe kretprobe fprobe fprobe-exit external\n");
	EXPECT_EQ(EINVAL, write_str(DIR "probe", "uprobe"));
	EXPECT_EQ(EINVAL, write_str(DIR "probe", ""));
	EXPECT_EQ(EINVAL, write_str(DIR "probe", "kprobe kretprobe"));
	EXPECT_EQ(EINVAL, lc_write_file(DIR "probe", "kprobe\0", 7));
	/* Debian's 6.1 has no CONFIG_FPROBE; its 6.12 has. */
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(fprobe_available() ? 0 : EOPNOTSUPP,
			  write_str(DIR "probe", fprobes[i]));
		ASSERT_EQ(0, write_str(DIR "probe", "none"));
	}
	if (!fprobe_available())
		expect_refusals_ratelimited(_metadata, "fprobe");
	EXPECT_EQ(EINVAL, write_str(DIR "target", "syscall"));
	EXPECT_EQ(E2BIG, write_str(DIR "work_cycles", "1000001"));
	EXPECT_EQ(EINVAL, write_str(DIR "work_cycles", "lots"));
	expect_probe_line(_metadata,
			  "[none] kprobe kretprobe fprobe fprobe-exit external\n");
	ASSERT_EQ(0, write_str(DIR "probe", "kretprobe\n"));
	expect_probe_line(_metadata,
			  "none kprobe [kretprobe] fprobe fprobe-exit external\n");
	EXPECT_EQ(0, our_kprobes());
}

TEST_F_TIMEOUT(calib, probe_busy_during_run, 120)
{
	ASSERT_EQ(0, write_str(DIR "probe", "kprobe"));
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	EXPECT_EQ(1, our_kprobes());
	EXPECT_EQ(EBUSY, write_str(DIR "probe", "kretprobe"));
	EXPECT_EQ(EBUSY, write_str(DIR "target", "tracepoint"));
	EXPECT_EQ(EBUSY, write_str(DIR "work_cycles", "5"));
	/* Interrupted, the run still unregisters its probe. */
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	EXPECT_EQ(0, our_kprobes());
}

/* Runs of each mechanism, interleaved, when two are compared. */
#define ROUNDS	3

/*
 * @b costs more than @a: @a[r] and @b[r] are the medians of round r.
 * Judged against the rounds' own spread: where the host's load makes the
 * rounds disagree more than the difference (plain QEMU TCG on a busy
 * host), an unordered pair is not judged, and the log says so; a pair in
 * the wrong order beyond 3.29 standard errors (99.9 %) fails.
 */
static void expect_dearer(struct __test_metadata *_metadata,
			  const char *a_name, const long long *a,
			  const char *b_name, const long long *b)
{
	double ma = 0, mb = 0, va = 0, vb = 0, d, se;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		ma += a[r] / (double)ROUNDS;
		mb += b[r] / (double)ROUNDS;
	}
	for (r = 0; r < ROUNDS; r++) {
		va += (a[r] - ma) * (a[r] - ma) / (ROUNDS - 1);
		vb += (b[r] - mb) * (b[r] - mb) / (ROUNDS - 1);
	}
	d = mb - ma;
	se = sqrt(va / ROUNDS + vb / ROUNDS);
	fprintf(stderr, "# %s %.1f, %s %.1f: %+.1f +/- %.1f (99.9 %%)\n",
		a_name, ma, b_name, mb, d, 3.29 * se);
	if (d > 0)
		return;
	EXPECT_LT(-3.29 * se, d) {
		TH_LOG("%s costs no more than %s", b_name, a_name);
	}
	if (d > -3.29 * se)
		TH_LOG("%s and %s: within the noise of a busy host, not judged",
		       a_name, b_name);
}

TEST_F(calib, mechanisms_attach_and_detach)
{
	static const char *const mech[] = {
		"kprobe", "kretprobe", "fprobe", "fprobe-exit",
	};
	int i, r, n = fprobe_available() ? 4 : 2;
	long long median[4][ROUNDS];
	double mean, ci;
	char *text;

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, write_str(DIR "probe", mech[i]));
			ASSERT_EQ(0, run("10000"));
			EXPECT_EQ(0, our_kprobes());
			EXPECT_FALSE(target_hooked());
			check_results(_metadata, 10000);
			text = lc_read_file(DIR "results_kv", NULL);
			ASSERT_NE(NULL, text);
			EXPECT_TRUE(lc_kv_is(text, "probe.mechanism", mech[i]));
			EXPECT_EQ(0, lc_kv_ll(text, "probe.nmissed", LLONG_MIN));
			free(text);
			overhead(_metadata, &mean, &ci, &median[i][r]);
			fprintf(stderr, "# %s: %.3f +/- %.3f cycles, median %lld\n",
				mech[i], mean, ci, median[i][r]);
			/*
			 * The median: under plain QEMU TCG the host's
			 * scheduling puts outliers of millions of cycles in
			 * the mean of either row.  The ground truth checks
			 * means, under -icount.
			 */
			EXPECT_LT(0, median[i][r]);
		}
	}
	/* A probe on return does the entry probe's work and more. */
	expect_dearer(_metadata, mech[0], median[0], mech[1], median[1]);
	if (n == 4)
		expect_dearer(_metadata, mech[2], median[2], mech[3],
			      median[3]);
	ASSERT_EQ(0, write_str(DIR "probe", "kretprobe"));
	ASSERT_EQ(0, run("100"));
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(text_is(text, "probe:", "kretprobe"));
	EXPECT_TRUE(text_is(text, "probe hits missed:", "0"));
	EXPECT_NE(NULL, strstr(text, "\noverhead per call, cycles: "));
	free(text);
}

static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
}

/*
 * The harness figures against a clock of our own: the loop's wall time
 * (wall cycles per iteration, times the iterations, in ns at the clock's
 * frequency) lies inside the write that ran it, which adds only the run's
 * set-up and teardown; and the two timed windows lie inside the loop.
 */
TEST_F(calib, harness_cross_check)
{
	double wall, timed, khz, done, loop_ns, write_ns;
	struct timespec start, end;
	char *text;

	/* Enough iterations that the loop is most of the write. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	ASSERT_EQ(0, run("1000000"));
	clock_gettime(CLOCK_MONOTONIC, &end);
	write_ns = elapsed_ns(&start, &end);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	wall = lc_kv_double(text, "harness.wall_cycles_per_iteration", -1);
	timed = lc_kv_double(text, "harness.timed_cycles_per_iteration", -1);
	khz = lc_kv_double(text, "clock.khz", -1);
	done = lc_kv_double(text, "run.iterations.done", -1);
	free(text);
	ASSERT_LT(0, khz);
	ASSERT_EQ(1000000, done);
	EXPECT_LT(0, timed);
	EXPECT_LT(timed, wall);
	loop_ns = wall * done * 1e6 / khz;
	fprintf(stderr, "# loop %.0f ns of the write's %.0f ns\n", loop_ns,
		write_ns);
	/*
	 * 10 % for two clocks' rates; the set-up (the thread, its CPU) is
	 * a few ms of a write of hundreds, so a wall time off by half or
	 * more is caught.
	 */
	EXPECT_LT(loop_ns, write_ns * 1.1);
	EXPECT_GT(loop_ns, write_ns * 0.7);
}

/* Someone else's probes: ftrace kprobe events, p: then r:. */
TEST_F(calib, external_kprobe_events)
{
	static const char *const defs[] = {
		"p:lttng_calibrate_p lttng_calibrate_target",
		"r:lttng_calibrate_r lttng_calibrate_target",
	};
	static const char *const enable[] = {
		"/sys/kernel/tracing/events/kprobes/lttng_calibrate_p/enable",
		"/sys/kernel/tracing/events/kprobes/lttng_calibrate_r/enable",
	};
	const char *events = "/sys/kernel/tracing/kprobe_events";
	long long median[2][ROUNDS];
	double mean, ci;
	int i, r;

	if (access(events, W_OK))
		SKIP(return, "no tracefs kprobe_events: CONFIG_KPROBE_EVENTS");
	ASSERT_EQ(0, write_str(DIR "probe", "external"));
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < 2; i++) {
			ASSERT_EQ(0, write_str(events, defs[i]));
			ASSERT_EQ(0, write_str(enable[i], "1"));
			EXPECT_EQ(0, run("10000"));
			write_str(enable[i], "0");
			write_str(events, i ? "-:lttng_calibrate_r" :
					      "-:lttng_calibrate_p");
			overhead(_metadata, &mean, &ci, &median[i][r]);
			fprintf(stderr, "# ftrace %s: %.3f +/- %.3f cycles, median %lld\n",
				defs[i], mean, ci, median[i][r]);
			/* The median: a busy host's outliers move the mean. */
			EXPECT_LT(0, median[i][r]);
		}
	}
	expect_dearer(_metadata, "ftrace p:", median[0], "ftrace r:",
		      median[1]);
}

/* The tracepoint target: a disabled static key, then a live tracepoint. */
/*
 * tracefs fprobe events (f:, CONFIG_FPROBE_EVENTS) measured in external
 * mode beside the kprobe events: where the kernel has fprobes it has them,
 * and each event costs something; elsewhere they are refused.
 */
TEST_F(calib, external_fprobe_events)
{
	static const char *const defs[] = {
		"f:lttng_calibrate_f lttng_calibrate_target",
		"f:lttng_calibrate_fr lttng_calibrate_target%return",
	};
	static const char *const names[] = {
		"lttng_calibrate_f", "lttng_calibrate_fr",
	};
	const char *events = "/sys/kernel/tracing/dynamic_events";
	long long median;
	double mean, ci;
	char path[160];
	int i, err;

	if (access(events, W_OK))
		SKIP(return, "no tracefs dynamic_events");
	ASSERT_EQ(0, write_str(DIR "probe", "external"));
	for (i = 0; i < 2; i++) {
		err = write_str(events, defs[i]);
		if (!fprobe_available()) {
			EXPECT_NE(0, err);
			continue;
		}
		ASSERT_EQ(0, err);
		snprintf(path, sizeof(path),
			 "/sys/kernel/tracing/events/fprobes/%s/enable",
			 names[i]);
		ASSERT_EQ(0, write_str(path, "1"));
		EXPECT_EQ(0, run("20000"));
		write_str(path, "0");
		snprintf(path, sizeof(path), "-:%s", names[i]);
		EXPECT_EQ(0, write_str(events, path));
		overhead(_metadata, &mean, &ci, &median);
		fprintf(stderr, "# ftrace %s: %.3f +/- %.3f cycles, median %lld\n",
			defs[i], mean, ci, median);
		EXPECT_LT(0, median);
	}
	EXPECT_FALSE(target_hooked());
}

/*
 * The payload tracepoint records what a system call's entry and a scheduler
 * event record; enabled, it costs more than the one-integer tracepoint.
 */
static void tracepoint_on(struct __test_metadata *_metadata,
			  const char *target, const char *event,
			  long long *median)
{
	double on, ci;
	char *text;

	ASSERT_EQ(0, run_traced(target, event, "20000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "target.kind", target));
	free(text);
	overhead(_metadata, &on, &ci, median);
	fprintf(stderr, "# %s on: %.3f +/- %.3f cycles, median %lld\n",
		event, on, ci, *median);
	/* The median: a busy host's outliers move the mean. */
	EXPECT_LT(0, *median);
}

TEST_F(calib, tracepoint_off_and_on)
{
	long long off_median[ROUNDS], on_median[ROUNDS], payload[ROUNDS];
	double off, ci;
	char *text;
	int r;

	text = lc_read_file("/sys/kernel/tracing/events/lttng_calibrate/"
			    "lttng_calibrate_payload/format", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "unsigned long args[6]"));
	EXPECT_NE(NULL, strstr(text, "char comm[16]"));
	free(text);
	for (r = 0; r < ROUNDS; r++) {
		ASSERT_EQ(0, write_str(DIR "target", "tracepoint"));
		ASSERT_EQ(0, run("20000"));
		text = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_TRUE(lc_kv_is(text, "target.symbol",
				     "lttng_calibrate_tracepoint_target"));
		free(text);
		overhead(_metadata, &off, &ci, &off_median[r]);
		fprintf(stderr, "# tracepoint off: %.3f +/- %.3f cycles\n",
			off, ci);
		tracepoint_on(_metadata, "tracepoint", "lttng_calibrate_event",
			      &on_median[r]);
		tracepoint_on(_metadata, "payload", "lttng_calibrate_payload",
			      &payload[r]);
	}
	expect_dearer(_metadata, "tracepoint off", off_median,
		      "tracepoint on", on_median);
	/*
	 * Which of the two enabled tracepoints is dearer is a matter of a
	 * tenth of their cost: under plain TCG, emulation effects of that
	 * size are systematic (the payload measured cheaper in every round
	 * of a run), so ground_truth_test judges it, under -icount.
	 */
	for (r = 0; r < ROUNDS; r++)
		fprintf(stderr, "# round %d: tracepoint on %lld, payload on %lld (median cycles, not judged here)\n",
			r, on_median[r], payload[r]);
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

/*
 * The run's CPU taken offline and brought back while a run goes on with
 * counters, a kprobe whose handler works, and the run's clock: the run
 * ends within seconds, migrated (or complete), on its own CPU, and every
 * time.  Where the clock is the CPU's cycle counter (arm64 with a PMU),
 * its event stops counting for good when the CPU goes: a handler that
 * waited for that clock to advance would spin forever with interrupts off.
 */
#define HOTPLUG_ROUNDS	3

TEST_F_TIMEOUT(calib, cpu_offline_and_back_during_probed_run, 300)
{
	int round, status, err;
	char *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to take offline");
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU 1 cannot go offline here (no cpu1/online)");
	ASSERT_EQ(0, param_write("cpu", "1"));
	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock page-faults"));
	ASSERT_EQ(0, write_str(DIR "probe", "kprobe"));
	ASSERT_EQ(0, write_str(DIR "work_cycles", "20000"));
	for (round = 0; round < HOTPLUG_ROUNDS; round++) {
		self->env.child = start_run(LONG_RUN);
		ASSERT_LT(0, self->env.child);
		ASSERT_TRUE(wait_running(1, 30000));
		err = cpu_online_set(1, 0);
		ASSERT_EQ(0, err) {
			TH_LOG("CPU 1 offline: %s", strerror(err));
		}
		self->env.offlined = 1;
		sleep_ms(20 * round);
		ASSERT_EQ(0, cpu_online_set(1, 1));
		self->env.offlined = -1;
		EXPECT_TRUE(reap_within(self->env.child, 20000, &status)) {
			TH_LOG("round %d: the writer still runs 20 s after CPU 1 went offline and back",
			       round);
			kill(self->env.child, SIGKILL);
			waitpid(self->env.child, &status, 0);
		}
		self->env.child = 0;
		EXPECT_TRUE(WIFEXITED(status) &&
			    (WEXITSTATUS(status) == EAGAIN ||
			     !WEXITSTATUS(status))) {
			TH_LOG("round %d: status 0x%x (%s)", round, status,
			       strerror(WEXITSTATUS(status)));
		}
		EXPECT_FALSE(status_running());
		text = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_EQ(1, lc_kv_ll(text, "run.cpu", LLONG_MIN));
		EXPECT_TRUE(lc_kv_is(text, "run.state", "migrated") ||
			    lc_kv_is(text, "run.state", "complete"));
		EXPECT_EQ(lc_kv_ll(text, "run.iterations.done", LLONG_MIN),
			  kv_stat(text, "target", "cycles", "count"));
		free(text);
	}
}

/* More pinned cycles events than a PMU has counters. */
#define HOG_MAX		32

/*
 * Pinned cycles events on @cpu until the PMU has no counter left for one
 * more (the last one opened, in error state, reads end of file): their fds
 * in @fd, their number returned; 0 where the CPU has no cycles event.
 */
static int hog_cycle_counters(int cpu, int *fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.pinned = 1,
	};
	unsigned long long v;
	int n;

	for (n = 0; n < HOG_MAX; n++) {
		fd[n] = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fd[n] < 0)
			return n;
		if (read(fd[n], &v, sizeof(v)) != sizeof(v)) {
			close(fd[n]);
			return n;
		}
	}
	return n;
}

/*
 * A handler's work is bounded in time as well as in clock ticks: a run
 * whose work_cycles lasts more than 2 ms of its clock (with interrupts
 * off, per sample) fails with ERANGE before its first sample and publishes
 * nothing; half of that runs.  Only a clock under 500 MHz makes the most
 * work_cycles takes (10^6) last that long: arm64's generic timer counter
 * (19.2 to 62.5 MHz), which a run falls back to when the PMU has no
 * counter left for the CPU's cycle counter.  The test takes them all.  On
 * a faster clock (x86's TSC), a run of the most work_cycles takes is not
 * refused.
 */
TEST_F_TIMEOUT(calib, work_cycles_bounded_in_time, 120)
{
	int fd[HOG_MAX], n, i;
	char *kv, *after, buf[32], clock[32] = "";
	long long khz, max;
	size_t len;
	const char *v;

	ASSERT_EQ(0, param_write("cpu", "0"));
	n = hog_cycle_counters(0, fd);
	ASSERT_EQ(0, write_str(DIR "run", "1"));
	kv = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, kv);
	khz = lc_kv_ll(kv, "clock.khz", 0);
	v = lc_kv_value(kv, "clock.name", &len);
	if (v)
		snprintf(clock, sizeof(clock), "%.*s", (int)len, v);
	ASSERT_LT(0, khz);
	max = khz * 2;
	TH_LOG("the run's clock: %s, %lld kHz (%d cycles events held)",
	       clock, khz, n);
	if (2 * max > 1000000) {
		/* A fast clock: the most work_cycles takes is never refused. */
		ASSERT_EQ(0, write_str(DIR "work_cycles", "1000000"));
		EXPECT_EQ(0, write_str(DIR "run", "1"));
		for (i = 0; i < n; i++)
			close(fd[i]);
		free(kv);
		return;
	}
	snprintf(buf, sizeof(buf), "%lld", 2 * max);
	ASSERT_EQ(0, write_str(DIR "work_cycles", buf));
	EXPECT_EQ(ERANGE, write_str(DIR "run", "1"));
	after = lc_read_file(DIR "results_kv", NULL);
	EXPECT_STREQ(kv, after ? after : "(none)");
	free(after);
	snprintf(buf, sizeof(buf), "%lld", max / 2);
	ASSERT_EQ(0, write_str(DIR "work_cycles", buf));
	EXPECT_EQ(0, write_str(DIR "run", "1"));
	for (i = 0; i < n; i++)
		close(fd[i]);
	free(kv);
}

/*
 * Review findings, each with the test that showed it.
 */

/*
 * An unnamed event is named after its PMU and its config words.  With a
 * long PMU name and 64-bit words the name is longer than its buffer: it is
 * cut there, and the kernel log stays clean (an unclamped snprintf() chain
 * made vsnprintf() warn).
 */
TEST_F(test_pmu, long_name_cut_to_its_buffer)
{
	static const char pmu[] = "lttng_calibrate_test_pmu_named_at_length";
	char path[160], word[96], *text, *tab;
	int type;

	EXPECT_EQ(0, test_pmu_unload());
	load_module(TEST_PMU_MODULE, "LTTNG_CALIBRATE_TEST_PMU_KO",
		    "name=lttng_calibrate_test_pmu_named_at_length");
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	text = lc_read_file(path, NULL);
	ASSERT_NE(NULL, text);
	type = atoi(text);
	free(text);
	snprintf(word, sizeof(word), "%d:0x1:0xfffffffffffffffe:0x7", type);
	ASSERT_EQ(0, write_str(DIR "counters", word));
	text = counter_list();
	ASSERT_NE(NULL, text);
	tab = strchr(text, '\t');
	ASSERT_NE(NULL, tab);
	/* 47 characters: the PMU's 31 first, ":0x1", then what fits. */
	EXPECT_EQ(47, tab - text);
	EXPECT_EQ(0, strncmp(text, pmu, 31));
	EXPECT_EQ(0, strncmp(text + 31, ":0x1:0xfffff", 12));
	free(text);
	ASSERT_EQ(0, run("100"));
	check_results(_metadata, 100);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
}

/*
 * Counters are checked on the CPU runs count on, not on the writer's: a
 * PMU of CPU 1 only (as a hybrid machine's PMU of one kind of core) is
 * accepted from a writer on CPU 0 when runs are bound to CPU 1, counts
 * there, and moving runs to CPU 0 is refused while it is selected.
 */
TEST_F(test_pmu, counters_checked_on_the_runs_cpu)
{
	char *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	EXPECT_EQ(0, test_pmu_unload());
	ASSERT_EQ(self->type, test_pmu_load("cpus=2"));
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	EXPECT_EQ(0, write_str(DIR "counters", self->tsc));
	EXPECT_EQ(0, run("1000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "run.cpu", LLONG_MIN));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	free(text);
	/* Not on CPU 0: the move is refused, the setting stays. */
	EXPECT_EQ(ENOENT, param_write("cpu", "0"));
	EXPECT_EQ(1, param_read("cpu"));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "on CPU 0)"));
	free(text);
	/* Without the selection, CPU 0 is fine again. */
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	EXPECT_EQ(0, param_write("cpu", "0"));
	unpin();
}

/* The address of @text, as a config word. */
static void pointer_word(char *buf, size_t size, const char *pmu,
			 const char *text, unsigned long long config2)
{
	char path[128], *type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	type = lc_read_file(path, NULL);
	snprintf(buf, size, "%d:0x0:0x%llx:0x%llx", type ? atoi(type) : -1,
		 (unsigned long long)(uintptr_t)text, config2);
	free(type);
}

/*
 * The kprobe and uprobe PMUs take a pointer into the opener's memory in
 * config1; every run opens its events again from the run's writer, where
 * that pointer means nothing.  They are refused, with the reason.
 */
/*
 * With cpu -1 the counters are checked on the writer's CPU, and a run goes
 * to the CPU its writer is on: written from CPU 1, where the test PMU does
 * not count, the run fails, and counters says which counter and why.  The
 * next run whose counters open clears the note.
 */
TEST_F(test_pmu, counter_refused_on_the_runs_cpu_is_named)
{
	char *text;
	int err;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	EXPECT_EQ(0, test_pmu_unload());
	ASSERT_EQ(self->type, test_pmu_load("cpus=1"));
	pin_to(_metadata, 0);
	EXPECT_EQ(0, write_str(DIR "counters", self->tsc));
	pin_to(_metadata, 1);
	err = run("100");
	EXPECT_NE(0, err);
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "# last run refused: " TEST_PMU)) {
		TH_LOG("run on CPU 1 (%s); counters:\n%s", strerror(err), text);
	}
	EXPECT_NE(NULL, strstr(text, "on CPU 1)"));
	free(text);
	pin_to(_metadata, 0);
	EXPECT_EQ(0, run("100"));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "# last run refused: "));
	free(text);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	unpin();
}

TEST_F(calib, pointer_taking_pmus_refused)
{
	static const char func[] = "lttng_calibrate_target";
	static const char path[] = "/bin/sh";
	const char *pmus[] = { "kprobe", "uprobe" };
	char word[128];
	int i, tested = 0;

	for (i = 0; i < 2; i++) {
		if (access(i ? "/sys/bus/event_source/devices/uprobe" :
			   "/sys/bus/event_source/devices/kprobe", F_OK))
			continue;
		pointer_word(word, sizeof(word), pmus[i], i ? path : func, 0);
		expect_list_refused(_metadata, word, EOPNOTSUPP, pmus[i]);
		tested++;
	}
	if (!tested)
		SKIP(return, "this kernel has neither a kprobe nor a uprobe PMU");
}

/* The test PMU's count of reads made with interrupts on; -1 unread. */
static int reads_irqs_on(void)
{
	char *text = lc_read_file(TEST_PMU_PARAMS "reads_irqs_on", NULL);
	int n = text ? atoi(text) : -1;

	free(text);
	return n;
}

/* With "irqs" enabled, counters are still read with interrupts off. */
TEST_F(test_pmu, counters_read_with_irqs_off)
{
	ASSERT_EQ(0, write_str(DIR "irqs", "enabled"));
	select_list(_metadata, self->tsc, self->calls, NULL);
	ASSERT_EQ(0, run("2000"));
	check_results(_metadata, 2000);
	EXPECT_EQ(0, reads_irqs_on());
	ASSERT_EQ(0, write_str(DIR "irqs", "disabled"));
	ASSERT_EQ(0, run("2000"));
	EXPECT_EQ(0, reads_irqs_on());
}

/*
 * Rows of deltas whose column @col (0 based) is neither "-" nor above 0;
 * -1 when the file cannot be read.
 */
static int bad_rows(int col)
{
	char *text = lc_read_file(DIR "deltas", NULL), *line, *p;
	int bad = 0, i;

	if (!text)
		return -1;
	for (line = strchr(text, '\n'); line && line[1];
	     line = strchr(line + 1, '\n')) {
		for (p = line + 1, i = 0; p && i < col; i++) {
			p = strchr(p, '\t');
			if (p)
				p++;
		}
		if (p && *p != '-' && strtoll(p, NULL, 10) <= 0)
			bad++;
	}
	free(text);
	return bad;
}

/*
 * A counter found not counting is withheld in deltas from the very row it
 * was found in: a reader never sees the zeros it read while lost, not
 * even until the end of that chunk.  The tsc counter's deltas are above 0
 * whenever it counts.
 */
TEST_F_TIMEOUT(test_pmu, lost_counter_never_shown_in_deltas, 120)
{
	struct perf_event_attr attr = {
		.type = self->type,
		.size = sizeof(attr),
		.config = 3,
		.pinned = 1,
	};
	int round, fd, bad = 0, reads = 0;
	long long end;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to read from");
	pin_to(_metadata, 1);
	ASSERT_EQ(0, param_write("deltas_window", "64"));
	ASSERT_EQ(0, param_write("cpu", "0"));
	for (round = 0; round < 4 && !bad; round++) {
		ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "1"));
		select_list(_metadata, self->tsc, NULL, NULL);
		self->env.child = start_run(LONG_RUN);
		ASSERT_LT(0, self->env.child);
		ASSERT_TRUE(wait_running(2000, 30000));
		/* Columns: iteration, 2 of cycles, then target.tsc. */
		EXPECT_EQ(0, bad_rows(3));
		ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "0"));
		fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
		ASSERT_LE(0, fd);
		for (end = now_ms() + 300; now_ms() < end && !bad; reads++)
			bad = bad_rows(3);
		close(fd);
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, NULL, 0);
		self->env.child = 0;
		ASSERT_TRUE(wait_idle(10000));
		ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	}
	EXPECT_EQ(0, bad) {
		TH_LOG("a lost counter's zeros shown in deltas (after %d reads)",
		       reads);
	}
	unpin();
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


int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
