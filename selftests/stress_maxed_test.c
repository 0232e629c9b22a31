// SPDX-License-Identifier: GPL-2.0
/*
 * Stress tests of lttng_calibrate's slowest runs: runs stopped by signals
 * under the slowest settings the module accepts, and its files read while
 * they go.  The input's stress is stress_input_test.c, the storm
 * stress_test.c.  Every test ends by checking that the kernel log gained
 * no warning, bug, oops, lockdep report or stall.
 */
#define _GNU_SOURCE

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

/* The largest settings accepted: the slowest chunks a run can have. */
#define MAX_WORK_CYCLES		"1000000"
#define MAX_CHUNK_ITERATIONS	"10000000"

#define SIGNAL_MS		2000
#define READ_MS			2000

/*
 * Runs under the slowest settings accepted: a kprobe whose handler spins a
 * million cycles, ten million iterations between scheduling points.  Chunks
 * are bounded in time all the same: a signal stops the run at once, and
 * the files stay readable while it goes on.
 */
FIXTURE(maxed) {
	struct env env;
	struct saved_params params;
};

FIXTURE_SETUP(maxed)
{
	env_setup(_metadata, &self->env);
	params_save(_metadata, &self->params);
	ASSERT_EQ(0, param_write("max_iterations", LONG_RUN));
	ASSERT_EQ(0, write_str(DIR "probe", "kprobe"));
	ASSERT_EQ(0, write_str(DIR "work_cycles", MAX_WORK_CYCLES));
	ASSERT_EQ(0, param_write("chunk_iterations", MAX_CHUNK_ITERATIONS));
}

FIXTURE_TEARDOWN(maxed)
{
	stop_and_restore(_metadata, &self->env, &self->params);
}

static void on_sigint(int sig)
{
}

/* start_run(), with a SIGINT handler that lets write() fail with EINTR. */
static pid_t start_run_catching_sigint(const char *count)
{
	struct sigaction sa = { .sa_handler = on_sigint };	/* no SA_RESTART */
	pid_t pid = fork();

	if (pid == 0) {
		sigaction(SIGINT, &sa, NULL);
		_exit(run(count));
	}
	return pid;
}

/* Sends @sig to the run's writer: reaped within SIGNAL_MS?  Its status. */
static int signal_run(struct __test_metadata *_metadata, struct env *env,
		      int sig)
{
	long long t0 = now_ms(), ms;
	int status = 0;
	bool reaped;

	EXPECT_EQ(0, kill(env->child, sig));
	reaped = reap_within(env->child, SIGNAL_MS, &status);
	ms = now_ms() - t0;
	EXPECT_TRUE(reaped) {
		TH_LOG("writer still there %lld ms after signal %d", ms, sig);
	}
	if (!reaped)
		reaped = reap_within(env->child, 60000, &status);
	if (!reaped)
		return status;
	env->child = 0;
	fprintf(stderr, "# signal %d: writer reaped after %lld ms\n", sig,
		now_ms() - t0);
	return status;
}

static void check_interrupted(struct __test_metadata *_metadata)
{
	char *text;

	EXPECT_FALSE(status_running());
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, lc_kv_value(text, "run.state", NULL));
	EXPECT_TRUE(lc_kv_is(text, "run.state", "interrupted")) {
		TH_LOG("run.state=%.20s", lc_kv_value(text, "run.state", NULL));
	}
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(100000000, lc_kv_ll(text, "run.iterations.asked", LLONG_MIN));
	free(text);
}

TEST_F_TIMEOUT(maxed, sigkill_under_max_settings, 120)
{
	int status;

	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	status = signal_run(_metadata, &self->env, SIGKILL);
	ASSERT_EQ(0, self->env.child);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	check_interrupted(_metadata);
}

TEST_F_TIMEOUT(maxed, sigint_with_handler, 120)
{
	int status;

	self->env.child = start_run_catching_sigint(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	status = signal_run(_metadata, &self->env, SIGINT);
	ASSERT_EQ(0, self->env.child);
	ASSERT_TRUE(WIFEXITED(status)) {
		TH_LOG("status 0x%x", status);
	}
	EXPECT_EQ(EINTR, WEXITSTATUS(status)) {
		TH_LOG("write(run) ended with %s", strerror(WEXITSTATUS(status)));
	}
	check_interrupted(_metadata);
}

/* Reads @path whole within READ_MS; the text. */
static char *timed_read(struct __test_metadata *_metadata, const char *path)
{
	long long t0 = now_ms(), ms;
	char *text = lc_read_file(path, NULL);

	ms = now_ms() - t0;
	EXPECT_NE(NULL, text) {
		TH_LOG("%s: %s", path, strerror(errno));
	}
	EXPECT_GT(READ_MS, ms) {
		TH_LOG("%s took %lld ms to read during the run", path, ms);
	}
	return text;
}

TEST_F_TIMEOUT(maxed, reads_during_max_settings_run, 120)
{
	char why[160], *text;
	int i;

	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1, 30000));
	for (i = 0; i < 5; i++) {
		text = timed_read(_metadata, DIR "deltas");
		EXPECT_TRUE(text && !deltas_check(text, why, sizeof(why))) {
			TH_LOG("deltas: %s", text ? why : "unreadable");
		}
		free(text);
		text = timed_read(_metadata, DIR "status");
		EXPECT_TRUE(text && strstr(text, "state=running"));
		free(text);
		free(timed_read(_metadata, DIR "results"));
		free(timed_read(_metadata, DIR "results_kv"));
	}
	signal_run(_metadata, &self->env, SIGKILL);
	EXPECT_EQ(0, self->env.child);
	EXPECT_FALSE(status_running());
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
