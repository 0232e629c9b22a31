// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the lttng_calibrate debugfs interface and its errors: the files
 * and their modes, the status, rejected input and parameters, busy runs,
 * a run that measured nothing, CPU selection and hot-unplug.  How a run
 * stops (signals, job control, ptrace, the freezer) is signals_test.c.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <sys/time.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

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
	EXPECT_EQ(ENODEV, WEXITSTATUS(status));

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
 * A run whose CPU goes offline as the run ends, whatever the timing: a
 * write that succeeds published a complete run; one that fails, with
 * ENODEV, published a partial run (migrated) or nothing.
 */
TEST_F_TIMEOUT(calib, cpu_unplug_as_run_ends, 180)
{
	int round, code, complete = 0, partial = 0, none = 0, early = 0;
	long long before, done, asked;
	char count[24], *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to take offline");
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	/* Runs of about 100 ms; the CPU goes 0 to 150 ms into them. */
	count_for_ms(_metadata, 100, count, sizeof(count));
	asked = atoll(count);
	for (round = 0; round < 6; round++) {
		before = run_number();
		self->env.child = start_run(count);
		ASSERT_LT(0, self->env.child);
		if (!wait_running(0, 10000)) {
			/*
			 * Under a loaded host the guest's CPU 0 may not poll
			 * once in the whole run: it ended before the unplug,
			 * and must have ended complete.
			 */
			code = reap_code(_metadata, self->env.child, 30000,
					 "writer");
			self->env.child = 0;
			early++;
			EXPECT_EQ(0, code) {
				TH_LOG("round %d: a run never seen running failed: %s",
				       round, strerror(code));
			}
			text = lc_read_file(DIR "results_kv", NULL);
			ASSERT_NE(NULL, text);
			EXPECT_EQ(before + 1, lc_kv_ll(text, "run.number", 0));
			EXPECT_TRUE(lc_kv_is(text, "run.state", "complete"));
			free(text);
			continue;
		}
		sleep_ms(30 * round);
		ASSERT_EQ(0, cpu_online_set(1, 0));
		self->env.offlined = 1;
		code = reap_code(_metadata, self->env.child, 30000, "writer");
		self->env.child = 0;
		ASSERT_EQ(0, cpu_online_set(1, 1));
		self->env.offlined = -1;
		text = lc_read_file(DIR "results_kv", NULL);
		ASSERT_NE(NULL, text);
		done = lc_kv_ll(text, "run.iterations.done", LLONG_MIN);
		if (!code) {
			complete++;
			EXPECT_EQ(before + 1, lc_kv_ll(text, "run.number", 0));
			EXPECT_TRUE(lc_kv_is(text, "run.state", "complete"));
			EXPECT_EQ(asked, done);
		} else if (lc_kv_ll(text, "run.number", 0) != before) {
			partial++;
			EXPECT_EQ(ENODEV, code);
			EXPECT_TRUE(lc_kv_is(text, "run.state", "migrated"));
			EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
			EXPECT_LT(done, asked) {
				TH_LOG("round %d: a failed run (%s) published all its iterations",
				       round, strerror(code));
			}
		} else {
			none++;
			EXPECT_EQ(ENODEV, code);
		}
		free(text);
	}
	unpin();
	TH_LOG("%d complete, %d partial, %d published nothing, %d ended before it was seen running",
	       complete, partial, none, early);
	/* The unplug met at least one run: the test tested something. */
	EXPECT_LT(early, 6);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
