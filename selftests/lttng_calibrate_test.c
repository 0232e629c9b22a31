// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the lttng_calibrate debugfs interface: runs, results, status,
 * rejected input, busy and interrupted runs, CPU selection and hot-unplug.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define DIR		"/sys/kernel/debug/lttng_calibrate/"
#define PARAMS		"/sys/module/lttng_calibrate/parameters/"
#define LONG_RUN	"100000000"
#define BUF_SIZE	65536

static const char *const rows[] = { "target", "baseline", "difference" };
static const char *const units[] = { "cycles", "ns" };

/* The text of a file, NUL-terminated, or NULL with errno set. */
static char *slurp(const char *path)
{
	char *buf = malloc(BUF_SIZE);
	ssize_t n, len = 0;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while ((n = read(fd, buf + len, BUF_SIZE - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Write @len bytes of @text to @path in one write(); 0 or the errno. */
static int write_bytes(const char *path, const char *text, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, text, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static int write_str(const char *path, const char *text)
{
	return write_bytes(path, text, strlen(text));
}

static int run(const char *count)
{
	return write_str(DIR "run", count);
}

/* The value of "key=" in a results_kv text, or NULL. */
static const char *kv(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static long long kv_ll(const char *text, const char *key)
{
	const char *v = kv(text, key);

	return v ? strtoll(v, NULL, 10) : LLONG_MIN;
}

static double kv_double(const char *text, const char *key)
{
	const char *v = kv(text, key);

	return v ? strtod(v, NULL) : -1e300;
}

/* A statistic in thousandths of its unit (ns figures have decimals). */
static long long kv_stat(const char *text, const char *row, const char *unit,
			 const char *stat)
{
	char key[96];
	double v;

	snprintf(key, sizeof(key), "%s.%s.%s", row, unit, stat);
	if (!strcmp(stat, "count"))
		return kv_ll(text, key);
	v = kv_double(text, key);
	return v < -1e299 ? LLONG_MIN : (long long)(v * 1000 + (v < 0 ? -0.5 : 0.5));
}

static int status_field(const char *field, long long *val)
{
	char *text = slurp(DIR "status");
	const char *v;
	char key[32];
	int ret = -1;

	if (!text)
		return -1;
	snprintf(key, sizeof(key), "%s", field);
	v = kv(text, key);
	if (v) {
		*val = strtoll(v, NULL, 10);
		ret = 0;
	}
	free(text);
	return ret;
}

static bool status_running(void)
{
	char *text = slurp(DIR "status");
	bool running = text && strstr(text, "state=running");

	free(text);
	return running;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait up to @ms for a run to be going with at least @done iterations done. */
static bool wait_running(long long done, int ms)
{
	long long d;

	for (; ms > 0; ms -= 10) {
		if (status_running() && !status_field("done", &d) && d >= done)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* Start a run of @count in a child process; its pid. */
static pid_t start_run(const char *count)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(run(count));
	return pid;
}

static int param_read(const char *name)
{
	char path[128], *text;
	int v;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	text = slurp(path);
	if (!text)
		return INT_MIN;
	v = atoi(text);
	free(text);
	return v;
}

static int param_write(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return write_str(path, value);
}

static int cpu_online_set(int cpu, int online)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return write_str(path, online ? "1" : "0");
}

/*
 * Checks a finished run of @n iterations: every row of every unit counts
 * @n samples with min <= median <= p99 <= max and the mean in [min, max].
 */
static void check_results(struct __test_metadata *_metadata, long long n)
{
	char *text = slurp(DIR "results_kv");
	long long min, med, p99, max, mean;
	int r, u;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, kv_ll(text, "format"));
	EXPECT_EQ(n, kv_ll(text, "run.iterations.asked"));
	EXPECT_EQ(n, kv_ll(text, "run.iterations.done"));
	EXPECT_EQ(0, kv_ll(text, "run.partial"));
	ASSERT_NE(NULL, kv(text, "run.state"));
	EXPECT_EQ(0, strncmp(kv(text, "run.state"), "complete\n", 9));
	EXPECT_GT(kv_ll(text, "clock.khz"), 0);
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
	text = slurp(DIR "results");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\nbaseline "));
	EXPECT_NE(NULL, strstr(text, "\ndifference "));
	free(text);
}

static const char *const bad_log[] = {
	"WARNING:", "BUG:", "Oops", "general protection", "Call Trace",
	"possible circular locking", "inconsistent lock state", "DEADLOCK",
	"self-detected stall", "rcu_preempt detected stall",
	"blocked for more than", "Kernel panic", "UBSAN:", "KASAN:",
};

/* Kernel log records written since @fd was positioned; 1 if any is bad. */
static int kmsg_has_errors(int fd)
{
	char rec[8192];
	ssize_t n;
	size_t i;
	int bad = 0;

	while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: keep going */
				continue;
			break;			/* EAGAIN: no more records */
		}
		rec[n] = '\0';
		for (i = 0; i < sizeof(bad_log) / sizeof(bad_log[0]); i++) {
			if (strstr(rec, bad_log[i])) {
				fprintf(stderr, "# kernel log: %s", rec);
				bad = 1;
			}
		}
	}
	return bad;
}

/* What every test restores, and where its kernel log check starts. */
struct env {
	int kmsg;
	pid_t child;
	int offlined;
	int max_iterations;
};

static void env_setup(struct __test_metadata *_metadata, struct env *env)
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
}

static void env_teardown(struct __test_metadata *_metadata, struct env *env)
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
	snprintf(max, sizeof(max), "%d", env->max_iterations);
	param_write("max_iterations", max);
	EXPECT_EQ(0, kmsg_has_errors(env->kmsg));
	close(env->kmsg);
}

FIXTURE(calib) {
	struct env env;
};

FIXTURE_SETUP(calib)
{
	env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(calib)
{
	env_teardown(_metadata, &self->env);
}

TEST_F(calib, files_and_modes)
{
	static const struct {
		const char *path;
		mode_t mode;
	} files[] = {
		{ DIR "run", 0200 },
		{ DIR "results", 0400 },
		{ DIR "results_kv", 0400 },
		{ DIR "status", 0400 },
		{ DIR "counters", 0600 },
		{ DIR "deltas", 0400 },
		{ PARAMS "deltas_window", 0644 },
		{ PARAMS "cpu", 0644 },
		{ PARAMS "max_iterations", 0644 },
		{ PARAMS "chunk_iterations", 0644 },
	};
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
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
	char *text = slurp(DIR "status");

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
	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	first = kv_ll(text, "run.number");
	free(text);
	ASSERT_EQ(0, run("5"));
	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(first + 1, kv_ll(text, "run.number"));
	free(text);
}

FIXTURE(bad_input) {
	struct env env;
};

FIXTURE_SETUP(bad_input)
{
	env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(bad_input)
{
	env_teardown(_metadata, &self->env);
}

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
	results = slurp(DIR "results");
	kvtext = slurp(DIR "results_kv");
	ASSERT_NE(NULL, results);
	ASSERT_NE(NULL, kvtext);

	len = variant->len ? variant->len : strlen(variant->input);
	EXPECT_EQ(variant->err, write_bytes(DIR "run", variant->input, len));

	after = slurp(DIR "results");
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(results, after);
	free(after);
	after = slurp(DIR "results_kv");
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
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
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
	before = slurp(DIR "results_kv");
	ASSERT_NE(NULL, before);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	EXPECT_EQ(EBUSY, run("10"));
	/* The run going on has not replaced the last results yet. */
	after = slurp(DIR "results_kv");
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

	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(kv(text, "run.state"), "interrupted\n", 12));
	EXPECT_EQ(1, kv_ll(text, "run.partial"));
	EXPECT_EQ(100000000, kv_ll(text, "run.iterations.asked"));
	done = kv_ll(text, "run.iterations.done");
	EXPECT_LT(0, done);
	EXPECT_LT(done, 100000000);
	EXPECT_EQ(done, kv_stat(text, "difference", "cycles", "count"));
	free(text);
	text = slurp(DIR "results");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "(partial)"));
	free(text);
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
		text = slurp(DIR "results_kv");
		ASSERT_NE(NULL, text);
		EXPECT_EQ(c, kv_ll(text, "run.cpu"));
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
		text = slurp(DIR "results_kv");
		ASSERT_NE(NULL, text);
		EXPECT_EQ(c, kv_ll(text, "run.cpu"));
		free(text);
	}
	/* A run pinned elsewhere gives the writer its own affinity back. */
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	ASSERT_EQ(0, param_write("cpu", n > 1 ? "1" : "0"));
	ASSERT_EQ(0, run("100"));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&all, &after));
}

/* Whether the machine has a hardware PMU (not under QEMU TCG). */
static bool have_pmu(void)
{
	return !access("/sys/bus/event_source/devices/cpu", F_OK) ||
	       !access("/sys/bus/event_source/devices/cpu_core", F_OK);
}

/* The selected counters: the lines of "counters" that are not comments. */
static char *counter_list(void)
{
	char *text = slurp(DIR "counters"), *in, *out;

	if (!text)
		return NULL;
	for (in = out = text; *in; ) {
		char *eol = strchrnul(in, '\n');
		size_t len = eol - in + (*eol ? 1 : 0);

		if (*in != '#') {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = '\0';
	return text;
}

static int lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
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
	text = slurp(DIR "counters");
	ASSERT_NE(NULL, text);
	for (i = 0; i < 3; i++)
		EXPECT_NE(NULL, strstr(text, names[i]));
	EXPECT_EQ(3, lines(text));
	free(text);

	ASSERT_EQ(0, run("100000"));
	check_results(_metadata, n);
	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, kv(text, "counters"));
	EXPECT_EQ(0, strncmp(kv(text, "counters"),
			     "page-faults,context-switches,cpu-clock\n", 39));
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "counter.%s.valid", names[i]);
		EXPECT_EQ(1, kv_ll(text, key));
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
	text = slurp(DIR "results");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter page-faults "));
	EXPECT_NE(NULL, strstr(text, "\ncounter cpu-clock "));
	free(text);
}

static const char *const hardware_events[] = {
	"cycles", "instructions", "LLC-load-misses", "LLC-store-misses",
	"LLC-prefetch-misses", "branch-misses", "r01c2",
};

/* Without a PMU (QEMU TCG), each hardware event fails cleanly. */
TEST_F(calib, hardware_counters_refused_without_pmu)
{
	char *before, *after, *text;
	size_t i;
	int err;

	if (have_pmu())
		SKIP(return, "this machine has a hardware PMU: see hardware_counters_count");
	ASSERT_EQ(0, write_str(DIR "counters", "page-faults\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	for (i = 0; i < sizeof(hardware_events) / sizeof(hardware_events[0]);
	     i++) {
		err = write_str(DIR "counters", hardware_events[i]);
		EXPECT_TRUE(err == ENOENT || err == EOPNOTSUPP ||
			    err == EINVAL) {
			TH_LOG("%s: %s", hardware_events[i], strerror(err));
		}
		after = counter_list();
		ASSERT_NE(NULL, after);
		EXPECT_STREQ(before, after);
		free(after);
		text = slurp(DIR "counters");
		ASSERT_NE(NULL, text);
		EXPECT_NE(NULL, strstr(text, "# last list refused: "));
		EXPECT_NE(NULL, strstr(text, hardware_events[i]));
		free(text);
	}
	free(before);
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
}

/* With a PMU, hardware events count, or are flagged and withheld. */
TEST_F(calib, hardware_counters_count)
{
	char *text;

	if (!have_pmu())
		SKIP(return, "no hardware PMU (/sys/bus/event_source/devices/cpu is absent, as under QEMU TCG)");
	ASSERT_EQ(0, write_str(DIR "counters", "cycles instructions\n"));
	ASSERT_EQ(0, run("10000"));
	check_results(_metadata, 10000);
	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	if (kv_ll(text, "counter.cycles.valid") == 1) {
		EXPECT_LT(0, kv_stat(text, "target", "counter.cycles",
				     "median"));
		EXPECT_LT(0, kv_stat(text, "target", "counter.instructions",
				     "median"));
	} else {
		EXPECT_EQ(NULL, kv(text, "target.counter.cycles.median"));
	}
	free(text);
}

FIXTURE(bad_counters) {
	struct env env;
};

FIXTURE_SETUP(bad_counters)
{
	env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(bad_counters)
{
	env_teardown(_metadata, &self->env);
}

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
	EXPECT_EQ(2, lines(before));

	len = variant->len ? variant->len : strlen(variant->input);
	EXPECT_EQ(variant->err, write_bytes(DIR "counters", variant->input,
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
	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(kv(text, "counters"), "\n", 1));
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

/* The deltas file holds min(N, W) rows of 1 + 2 * (1 + counters) columns. */
static void check_deltas(struct __test_metadata *_metadata, long long n,
			 int window, int counters)
{
	char *text = slurp(DIR "deltas"), *line;
	long long rows = n < window ? n : window, first = n - rows, it;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(rows + 1, lines(text));
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

TEST_F_TIMEOUT(calib, deltas_readable_during_run, 120)
{
	char *text, *line;
	int i;

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(5000, 30000));
	for (i = 0; i < 20; i++) {
		text = slurp(DIR "deltas");
		ASSERT_NE(NULL, text);
		EXPECT_EQ(1001, lines(text));
		for (line = text; line && *line; line = strchr(line, '\n')) {
			if (*line == '\n')
				line++;
			if (*line)
				EXPECT_EQ(5, columns(line));
		}
		free(text);
	}
}

/* CPU hot-unplug comes last: it disturbs the CPUs for the tests after it. */
TEST_F(calib, offline_cpu_rejected)
{
	char *before, *after;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to take offline");
	ASSERT_EQ(0, run("3"));
	before = slurp(DIR "results_kv");
	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, cpu_online_set(1, 0));
	self->env.offlined = 1;
	ASSERT_EQ(0, param_write("cpu", "1"));
	EXPECT_EQ(ENODEV, run("10"));
	after = slurp(DIR "results_kv");
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

	text = slurp(DIR "results_kv");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(kv(text, "run.state"), "migrated\n", 9));
	EXPECT_EQ(1, kv_ll(text, "run.partial"));
	EXPECT_EQ(1, kv_ll(text, "run.cpu"));
	done = kv_ll(text, "run.iterations.done");
	EXPECT_EQ(done, kv_stat(text, "target", "cycles", "count"));
	free(text);
}

static int ensure_module(void)
{
	const char *ko = getenv("LTTNG_CALIBRATE_KO");
	char cmd[PATH_MAX + 32];

	if (!access(DIR "run", F_OK))
		return 0;
	if (ko && *ko) {
		snprintf(cmd, sizeof(cmd), "insmod '%s' 2>/dev/null", ko);
		if (system(cmd)) {
			/* fall through to modprobe */
		}
	}
	if (access(DIR "run", F_OK) && system("modprobe -q lttng_calibrate")) {
		/* checked below */
	}
	return access(DIR "run", F_OK);
}

int main(int argc, char **argv)
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
