/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lttng_calibrate kselftests share that asserts: the state every
 * test restores, with a fixture of it, the checks of a run's results, the
 * kmemleak check and main().  Static functions over kselftest_harness.h's
 * assertions, which only a test program's own file can include (the
 * harness defines its test list there): each test program includes this
 * once, after kselftest_harness.h.  The rest, compiled once, is declared
 * in lttng_calibrate_util.h.
 */
#ifndef LTTNG_CALIBRATE_HARNESS_H
#define LTTNG_CALIBRATE_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "kmsg_patterns.h"
#include "lc.h"
#include "lttng_calibrate_util.h"

/*
 * Checks a finished run of @n iterations: every row of every unit counts
 * @n samples with min <= median <= p99 <= max and the mean in [min, max].
 */
static inline void check_results(struct __test_metadata *_metadata, long long n)
{
	char *text = lc_read_file(DIR "results_kv", NULL);
	long long min, med, p99, max, mean;
	int r, u;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "format", LLONG_MIN));
	EXPECT_EQ(n, lc_kv_ll(text, "run.iterations.asked", LLONG_MIN));
	EXPECT_EQ(n, lc_kv_ll(text, "run.iterations.done", LLONG_MIN));
	EXPECT_EQ(0, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_TRUE(lc_kv_is(text, "run.state", "complete"));
	EXPECT_GT(lc_kv_ll(text, "clock.khz", LLONG_MIN), 0);
	for (u = 0; u < 2; u++) {
		for (r = 0; r < 3; r++) {
			EXPECT_EQ(n, kv_stat(text, rows[r], units[u], "count"));
			min = kv_stat(text, rows[r], units[u], "min");
			med = kv_stat(text, rows[r], units[u], "median");
			p99 = kv_stat(text, rows[r], units[u], "p99");
			max = kv_stat(text, rows[r], units[u], "max");
			mean = kv_stat(text, rows[r], units[u], "mean");
			EXPECT_LE(min, med);
			EXPECT_LE(med, p99);
			EXPECT_LE(p99, max);
			EXPECT_LE(min, mean);
			EXPECT_GE(max, mean);
			if (strcmp(rows[r], "difference"))
				EXPECT_GE(min, 0);
			EXPECT_LE(0, kv_stat(text, rows[r], units[u], "stddev"));
			if (n == 1) {
				EXPECT_EQ(min, max);
				EXPECT_EQ(min, mean);
				EXPECT_EQ(0, kv_stat(text, rows[r], units[u],
						     "stddev"));
			}
		}
	}
	free(text);
	/* The human table has the same three rows. */
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\nbaseline "));
	EXPECT_NE(NULL, strstr(text, "\ndifference "));
	free(text);
}

/* The overhead of a run: mean and 95 % half-width, in cycles. */
static inline void overhead(struct __test_metadata *_metadata, double *mean,
			    double *ci, long long *median)
{
	char *text = lc_read_file(DIR "results_kv", NULL);

	ASSERT_NE(NULL, text);
	*mean = lc_kv_double(text, "overhead.cycles.mean", -1e300);
	*ci = lc_kv_double(text, "overhead.cycles.ci95", -1e300);
	*median = lc_kv_ll(text, "difference.cycles.median", LLONG_MIN);
	ASSERT_GT(*mean, -1e299);
	ASSERT_GE(*ci, 0);
	free(text);
}

/* What every test restores, and where its kernel log check starts. */
struct env {
	int kmsg;
	pid_t child;
	int offlined;
	int max_iterations;
};

static inline void env_setup(struct __test_metadata *_metadata, struct env *env)
{
	env->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, env->kmsg);
	lseek(env->kmsg, 0, SEEK_END);
	env->child = 0;
	env->offlined = -1;
	env->max_iterations = param_read("max_iterations");
	ASSERT_LT(0, env->max_iterations);
	ASSERT_EQ(0, param_write("cpu", "-1"));
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	ASSERT_EQ(0, write_str(DIR "probe", "none"));
	ASSERT_EQ(0, write_str(DIR "target", "function"));
	ASSERT_EQ(0, write_str(DIR "work_cycles", "0"));
	ASSERT_EQ(0, write_str(DIR "irqs", "disabled"));
}

static inline void env_teardown(struct __test_metadata *_metadata, struct env *env)
{
	char max[32];

	if (env->child > 0) {
		kill(env->child, SIGKILL);
		waitpid(env->child, NULL, 0);
	}
	if (env->offlined >= 0)
		cpu_online_set(env->offlined, 1);
	param_write("cpu", "-1");
	param_write("deltas_window", "1000");
	write_str(DIR "counters", "\n");
	write_str(DIR "probe", "none");
	write_str(DIR "target", "function");
	write_str(DIR "work_cycles", "0");
	write_str(DIR "irqs", "disabled");
	snprintf(max, sizeof(max), "%d", env->max_iterations);
	param_write("max_iterations", max);
	EXPECT_EQ(0, kmsg_has_errors(env->kmsg));
	close(env->kmsg);
}

/*
 * A fixture whose tests keep no state but struct env: each starts from the
 * settings env_setup() makes and ends with env_teardown()'s restoring and
 * kernel log check.
 */
#define ENV_FIXTURE(name)					\
	FIXTURE(name) {						\
		struct env env;					\
	};							\
	FIXTURE_SETUP(name)					\
	{							\
		env_setup(_metadata, &self->env);		\
	}							\
	FIXTURE_TEARDOWN(name)					\
	{							\
		env_teardown(_metadata, &self->env);		\
	}

/* Saves the parameters of param_names[], for params_restore(). */
static inline void params_save(struct __test_metadata *_metadata,
			       struct saved_params *saved)
{
	char path[128], *text;
	int i;

	for (i = 0; i < NR_PARAMS; i++) {
		snprintf(path, sizeof(path), PARAMS "%s", param_names[i]);
		text = lc_read_file(path, NULL);
		ASSERT_NE(NULL, text);
		snprintf(saved->value[i], sizeof(saved->value[i]), "%s", text);
		free(text);
	}
}

/* Settings back to the module's defaults, parameters to @saved. */
static inline void restore_defaults(struct __test_metadata *_metadata,
				    const struct saved_params *saved)
{
	EXPECT_TRUE(wait_idle(10000));
	EXPECT_EQ(0, params_restore(saved));
	EXPECT_EQ(0, write_str(DIR "counters", "\n"));
	EXPECT_EQ(0, write_str(DIR "probe", "none"));
	EXPECT_EQ(0, write_str(DIR "target", "function"));
	EXPECT_EQ(0, write_str(DIR "work_cycles", "0"));
	if (file_exists(DIR "irqs"))
		EXPECT_EQ(0, write_str(DIR "irqs", "disabled"));
}

/*
 * The teardown of a test that changes parameters or unloads the module:
 * stops a run left going, brings the module back, then puts every setting
 * back and checks the kernel log (env_teardown()).
 */
static inline void stop_and_restore(struct __test_metadata *_metadata,
				    struct env *env,
				    const struct saved_params *saved)
{
	if (env->child > 0) {
		kill(env->child, SIGKILL);
		waitpid(env->child, NULL, 0);
		env->child = 0;
	}
	if (env->offlined >= 0 && !cpu_online_set(env->offlined, 1))
		env->offlined = -1;
	EXPECT_EQ(0, ensure_module());
	restore_defaults(_metadata, saved);
	env_teardown(_metadata, env);
}

/*
 * A fixture for tests that change the module's parameters or unload it:
 * struct env and the parameters as they were, which stop_and_restore()
 * puts back.
 */
#define PARAMS_FIXTURE(name)					\
	FIXTURE(name) {						\
		struct env env;					\
		struct saved_params params;			\
	};							\
	FIXTURE_SETUP(name)					\
	{							\
		env_setup(_metadata, &self->env);		\
		params_save(_metadata, &self->params);		\
	}							\
	FIXTURE_TEARDOWN(name)					\
	{							\
		stop_and_restore(_metadata, &self->env,		\
				 &self->params);		\
	}

/* Reaps @pid within @ms, or kills it: its exit code, or -1. */
static inline int reap_code(struct __test_metadata *_metadata, pid_t pid,
			    int ms, const char *what)
{
	long long t0 = now_ms();
	int status = 0;

	if (!reap_within(pid, ms, &status)) {
		TH_LOG("%s still writes %lld ms on", what, now_ms() - t0);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	if (!WIFEXITED(status)) {
		TH_LOG("%s: status 0x%x", what, status);
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * A count that takes about @ms here: long enough for a stop in its middle,
 * short enough to run again whole.  The cost of an iteration is measured
 * between two runs, without what every run costs once (its thread, its
 * clock's calibration), which dominates short runs on slow kernels.
 */
static inline void count_for_ms(struct __test_metadata *_metadata, int ms,
				char *count, size_t size)
{
	long long t0, small, big, n;

	t0 = now_ms();
	ASSERT_EQ(0, run("10000"));
	small = now_ms() - t0;
	t0 = now_ms();
	ASSERT_EQ(0, run("100000"));
	big = now_ms() - t0;
	n = 90000LL * ms / (big > small ? big - small : 1);
	n = n < 20000 ? 20000 : n > 50000000 ? 50000000 : n;
	snprintf(count, size, "%lld", n);
}

/*
 * @word is refused with @err and the selection stays as it was; the
 * refusal line of "counters" holds @reason, unless it is NULL.
 */
static inline void expect_list_refused(struct __test_metadata *_metadata,
				       const char *word, int err,
				       const char *reason)
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

/* Binds the calling thread to @cpu; unpin() lets it run anywhere again. */
static inline void pin_to(struct __test_metadata *_metadata, int cpu)
{
	ASSERT_EQ(0, pin_cpu(cpu));
}

/*
 * kmemleak, where the kernel has it, finds no leak: two scans after the
 * objects of the last operations have aged past its minimum age (5 s).
 */
static inline void expect_no_leak(struct __test_metadata *_metadata)
{
	char *text;

	if (access("/sys/kernel/debug/kmemleak", W_OK))
		return;
	sleep(6);
	ASSERT_EQ(0, write_str("/sys/kernel/debug/kmemleak", "scan"));
	ASSERT_EQ(0, write_str("/sys/kernel/debug/kmemleak", "scan"));
	text = lc_read_file("/sys/kernel/debug/kmemleak", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "unreferenced object")) {
		TH_LOG("kmemleak:\n%.3000s", text);
	}
	free(text);
}

/* main() of a test program: skip (exit 4) when the module is absent. */
static inline int lttng_calibrate_main(int argc, char **argv)
{
	if (getuid() != 0) {
		ksft_print_header();
		ksft_exit_skip("must be run as root\n");
	}
	if (ensure_module()) {
		ksft_print_header();
		if (getenv("LTTNG_CALIBRATE_NO_SKIP"))
			ksft_exit_fail_msg("%s missing: module lttng_calibrate not loaded or debugfs not mounted\n",
					   DIR);
		ksft_exit_skip("%s missing: module lttng_calibrate not loaded or debugfs not mounted\n",
			       DIR);
	}
	return test_harness_run(argc, argv);
}

#endif /* LTTNG_CALIBRATE_HARNESS_H */
