/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lttng_calibrate kselftests share: reading and writing the debugfs
 * files and parameters, the figures of results_kv, checking the kernel log,
 * and the state every test restores, with a fixture of it.  Static functions: each test program
 * includes it once, after kselftest_harness.h.
 *
 * Files, key=value text and the kernel-log patterns come from the tools'
 * library (lc.h, lc.c, kmsg_patterns.h: symlinks to tools/lib/, which
 * "cp -rL" turns into copies when selftests/ goes into a kernel tree).
 */
#ifndef LTTNG_CALIBRATE_UTIL_H
#define LTTNG_CALIBRATE_UTIL_H

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

#define DIR		"/sys/kernel/debug/lttng_calibrate/"
#define PARAMS		"/sys/module/lttng_calibrate/parameters/"
#define LONG_RUN	"100000000"

static const char *const rows[] __attribute__((unused)) = { "target", "baseline", "difference" };
static const char *const units[] __attribute__((unused)) = { "cycles", "ns" };

/* Write @text to @path in one write() (lc_write_file()); 0 or the errno. */
static inline int write_str(const char *path, const char *text)
{
	return lc_write_file(path, text, strlen(text));
}

static inline int run(const char *count)
{
	return write_str(DIR "run", count);
}

/* The value of the line "LABEL  VALUE" in a results text, or NULL. */
static inline const char *text_value(const char *text, const char *label)
{
	size_t len = strlen(label);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, label, len) && p[len] == ' ') {
			p += len;
			while (*p == ' ')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* Whether the line "LABEL  VALUE" of a results text has VALUE @want. */
static inline bool text_is(const char *text, const char *label,
			   const char *want)
{
	const char *v = text_value(text, label);
	size_t len = strlen(want);

	return v && !strncmp(v, want, len) && v[len] == '\n';
}

/*
 * A statistic of results_kv (lc_kv_ll(), lc_kv_double()) in thousandths of
 * its unit (ns figures have decimals); LLONG_MIN when absent.
 */
static inline long long kv_stat(const char *text, const char *row,
				const char *unit, const char *stat)
{
	char key[256];
	double v;

	snprintf(key, sizeof(key), "%s.%s.%s", row, unit, stat);
	if (!strcmp(stat, "count"))
		return lc_kv_ll(text, key, LLONG_MIN);
	v = lc_kv_double(text, key, NAN);
	return isnan(v) ? LLONG_MIN :
	       (long long)(v * 1000 + (v < 0 ? -0.5 : 0.5));
}

/* A field of the status file, in @val; -1 when absent. */
static inline int status_field(const char *field, long long *val)
{
	char *text = lc_read_file(DIR "status", NULL);

	*val = text ? lc_kv_ll(text, field, LLONG_MIN) : LLONG_MIN;
	free(text);
	return *val == LLONG_MIN ? -1 : 0;
}

static inline bool status_running(void)
{
	char *text = lc_read_file(DIR "status", NULL);
	bool running = text && strstr(text, "state=running");

	free(text);
	return running;
}

static inline void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait up to @ms for a run to be going with at least @done iterations done. */
static inline bool wait_running(long long done, int ms)
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
static inline pid_t start_run(const char *count)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(run(count));
	return pid;
}

static inline int param_read(const char *name)
{
	char path[128], *text;
	int v;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	text = lc_read_file(path, NULL);
	if (!text)
		return INT_MIN;
	v = atoi(text);
	free(text);
	return v;
}

static inline int param_write(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return write_str(path, value);
}

static inline int cpu_online_set(int cpu, int online)
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

/*
 * A run of @count iterations of @target with its tracepoint @event enabled
 * through tracefs, disabled again after: 0 or the run's errno.
 */
static inline int run_traced(const char *target, const char *event,
			     const char *count)
{
	char enable[160];
	int err;

	snprintf(enable, sizeof(enable),
		 "/sys/kernel/tracing/events/lttng_calibrate/%s/enable", event);
	err = write_str(DIR "target", target);
	if (!err)
		err = write_str(enable, "1");
	if (err)
		return err;
	err = run(count);
	write_str(enable, "0");
	return err;
}

/*
 * The next kernel log record from @fd (opened O_NONBLOCK on /dev/kmsg), in
 * @rec, NUL-terminated; false when there is none left.
 */
static inline bool kmsg_next(int fd, char *rec, size_t size)
{
	ssize_t n;

	/* EPIPE: records were overwritten; keep going.  EAGAIN: no more. */
	while ((n = read(fd, rec, size - 1)) < 0 && errno == EPIPE)
		;
	if (n <= 0)
		return false;
	rec[n] = '\0';
	return true;
}

/*
 * Kernel log records written since @fd was positioned; 1 if any holds one
 * of the patterns of kmsg_patterns.h, the list the shell scripts use too,
 * but for the kernel's unload race that kmsg_patterns.h tolerates during
 * an unload a test marked (kmsg_unload_begins()).
 */
static inline int kmsg_has_errors(int fd)
{
	struct lc_kmsg_scan scan;
	struct utsname uts;
	char rec[8192];
	int tolerated = 0;

	lc_kmsg_scan_start(&scan, uname(&uts) ? "" : uts.release);
	while (kmsg_next(fd, rec, sizeof(rec))) {
		if (lc_kmsg_scan_line(&scan, rec))
			fprintf(stderr, "# kernel log: %s", rec);
		if (scan.tolerated != tolerated) {
			fputs("# kernel log: above: the kernel's unload race, tolerated\n",
			      stderr);
			tolerated = scan.tolerated;
		}
	}
	return lc_kmsg_scan_end(&scan) > 0;
}

/* Writes @text to the kernel log, for kmsg_has_errors() to read. */
static inline void kmsg_write(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		perror("/dev/kmsg");
	close(fd);
}

/*
 * An unload that files may be opened during: the kernel's race between
 * the two (kmsg_patterns.h) is tolerated from kmsg_unload_begins() to
 * kmsg_unload_ends(), called once delete_module() returned.
 */
static inline void kmsg_unload_begins(void)
{
	kmsg_write(LC_KMSG_UNLOAD_BEGINS "\n");
}

static inline void kmsg_unload_ends(void)
{
	kmsg_write(LC_KMSG_UNLOAD_ENDS "\n");
}

/* Records of the kernel log from @fd on that hold @what. */
static inline int kmsg_count(int fd, const char *what)
{
	char rec[8192];
	int count = 0;

	while (kmsg_next(fd, rec, sizeof(rec)))
		count += strstr(rec, what) != NULL;
	return count;
}

/* Whether this kernel offers the fprobe mechanisms (CONFIG_FPROBE). */
static inline bool fprobe_available(void)
{
	char *text = lc_read_file(DIR "probe", NULL);
	bool yes = text && !strstr(text, "\n# fprobe: unavailable: ");

	free(text);
	return yes;
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

/*
 * Where module @name.ko is: $@env, else beside the test program (a kselftest
 * tarball) or in its module/ (built by lib.mk's TEST_GEN_MODS_DIR).  Its
 * path in @path, or false.
 */
static inline bool find_ko(const char *name, const char *env, char *path,
			   size_t size)
{
	const char *ko = getenv(env);
	char *slash;
	ssize_t n;

	if (ko && *ko) {
		snprintf(path, size, "%s", ko);
		return true;
	}
	n = readlink("/proc/self/exe", path, size - 1);
	slash = n > 0 ? memrchr(path, '/', n) : NULL;
	if (!slash)
		return false;
	snprintf(slash + 1, size - (slash + 1 - path), "%s.ko", name);
	if (access(path, R_OK))
		snprintf(slash + 1, size - (slash + 1 - path), "module/%s.ko",
			 name);
	return !access(path, R_OK);
}

/* insmod @name with @params from where find_ko() finds it, else modprobe. */
static inline void load_module(const char *name, const char *env,
			       const char *params)
{
	char cmd[PATH_MAX + 256], path[PATH_MAX];

	if (find_ko(name, env, path, sizeof(path)))
		snprintf(cmd, sizeof(cmd), "insmod '%s' %s 2>/dev/null", path,
			 params);
	else
		snprintf(cmd, sizeof(cmd), "modprobe -q %s %s", name, params);
	if (system(cmd)) {
		/* the caller checks what it needs */
	}
}

/*
 * Loads the module unless it is loaded: $LTTNG_CALIBRATE_KO, else the
 * lttng_calibrate.ko beside the test program or in its module/, else
 * modprobe.  0 when the debugfs files are there.
 */
static inline int ensure_module(void)
{
	if (!access(DIR "run", F_OK))
		return 0;
	load_module("lttng_calibrate", "LTTNG_CALIBRATE_KO", "");
	return access(DIR "run", F_OK);
}

/*
 * The module's interface: every file its ABI documents
 * (Documentation/ABI/testing/, its "What:" lines; tools/testing/man-test checks that
 * this list is theirs).  A load that succeeds has all of them.
 */
static const char *const abi_files[] __attribute__((unused)) = {
	DIR "run", DIR "results", DIR "results_kv", DIR "status",
	DIR "counters", DIR "events", DIR "deltas", DIR "probe",
	DIR "target", DIR "work_cycles", DIR "irqs",
	PARAMS "cpu", PARAMS "max_iterations", PARAMS "chunk_iterations",
	PARAMS "deltas_window",
};

/* The first file of abi_files[] that is missing, or NULL. */
static inline const char *abi_file_missing(void)
{
	size_t i;

	for (i = 0; i < sizeof(abi_files) / sizeof(abi_files[0]); i++)
		if (access(abi_files[i], F_OK))
			return abi_files[i];
	return NULL;
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

/*
 * The test PMU, lttng_calibrate_test_pmu.ko (selftests/module/): a perf PMU
 * with known counts, where the machine has no PMU (QEMU TCG) or beside it.
 */
#define TEST_PMU		"lttng_calibrate_test"
#define TEST_PMU_MODULE		"lttng_calibrate_test_pmu"
#define TEST_PMU_DIR		"/sys/bus/event_source/devices/" TEST_PMU "/"
#define TEST_PMU_PARAMS		"/sys/module/" TEST_PMU_MODULE "/parameters/"

/* Its perf type number, or -1 when it is not loaded. */
static inline int test_pmu_type(void)
{
	char *text = lc_read_file(TEST_PMU_DIR "type", NULL);
	int type = text ? atoi(text) : -1;

	free(text);
	return type;
}

/*
 * Loads it with @params ("counters=1"), after unloading an earlier copy:
 * $LTTNG_CALIBRATE_TEST_PMU_KO, else beside the test program or in its
 * module/, else modprobe.  Its type number, or -1.
 */
static inline int test_pmu_load(const char *params)
{
	syscall(__NR_delete_module, TEST_PMU_MODULE, O_NONBLOCK);
	load_module(TEST_PMU_MODULE, "LTTNG_CALIBRATE_TEST_PMU_KO", params);
	return test_pmu_type();
}

/* Unloads it: 0, or the errno of delete_module(). */
static inline int test_pmu_unload(void)
{
	return syscall(__NR_delete_module, TEST_PMU_MODULE, O_NONBLOCK) ?
	       errno : 0;
}

/*
 * A counters list word for its event @alias (event=@code), named as
 * lttng-calibrate names it: "lttng_calibrate_test/ALIAS/=TYPE:CODE", with
 * @more (":CONFIG1[:CONFIG2]") after the code.
 */
static inline const char *test_pmu_event(char *buf, size_t size, int type,
					 const char *alias, int code,
					 const char *more)
{
	snprintf(buf, size, TEST_PMU "/%s/=%d:0x%x%s", alias, type, code,
		 more);
	return buf;
}

/*
 * Counts of the test PMU's tsc event (the architecture's counter) per cycle
 * of the clock that timed the run whose results_kv is @kv: its
 * events/tsc.scale (ns per count, as perf reads it) and the run's
 * clock.khz.  1 on x86, where the clock is the TSC; on arm64 the clock is
 * the CPU's cycle counter and tsc the generic timer's.  NAN when either is
 * missing.
 */
static inline double tsc_per_cycle(const char *kv)
{
	char *text = lc_read_file(TEST_PMU_DIR "events/tsc.scale", NULL);
	double scale = text ? strtod(text, NULL) : 0;
	double khz = lc_kv_double(kv, "clock.khz", 0);

	free(text);
	if (!(scale > 0) || !(khz > 0))
		return NAN;
	return 1e6 / (scale * khz);
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

/*
 * Shared by the stress tests and usable by any other: settings listings
 * without their comments, the PMU, the clock, children with a deadline,
 * the lines of a text, the calling thread's CPU, the deltas snapshot
 * checker, the parameters a test changes, and values escaped for logs.
 */

/* Drops the lines of @text that start with '#', in place; @text. */
static inline char *strip_comments(char *text)
{
	char *in, *out, *eol;
	size_t len;

	for (in = out = text; *in; in += len) {
		eol = strchrnul(in, '\n');
		len = eol - in + (*eol ? 1 : 0);
		if (*in != '#') {
			memmove(out, in, len);
			out += len;
		}
	}
	*out = '\0';
	return text;
}

/*
 * What the kernel answers to the counting event @type:@config on CPU 0,
 * opened as lttng_calibrate opens its counters (CPU-wide, pinned): 0 when
 * it opens, else its errno.  Perf hands a hardware event to the CPU's PMU,
 * whatever its driver and name (cpu or cpu_core on x86, armv8_pmuv3 on
 * arm64), so this tells what the machine's PMU counts on any architecture.
 */
static inline int perf_event_answer(__u32 type, __u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
		.disabled = 1,
	};
	long fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * Whether the machine has a hardware PMU that counts cycles or
 * instructions: not x86 under QEMU TCG, which has none; arm64 under TCG
 * has one (cycles, and instructions under -icount).
 */
static inline bool pmu_present(void)
{
	return !perf_event_answer(PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_CPU_CYCLES) ||
	       !perf_event_answer(PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS);
}

/* CLOCK_MONOTONIC, in ms. */
static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Reaps @pid if it exits within @ms (its status in *status); else false. */
static inline bool reap_within(pid_t pid, long long ms, int *status)
{
	long long end = now_ms() + ms;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return true;
		if ((r < 0 && errno != EINTR) || now_ms() >= end)
			return false;
		sleep_ms(1);
	}
}

/* Waits up to @ms for status to say no run is going on. */
static inline bool wait_idle(int ms)
{
	for (; ms > 0; ms -= 10) {
		if (!status_running())
			return true;
		sleep_ms(10);
	}
	return !status_running();
}

/* The lines of @text: its newlines. */
static inline int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Binds the calling thread to @cpu; unpin() lets it run anywhere again. */
static inline void pin_to(struct __test_metadata *_metadata, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
}

static inline void unpin(void)
{
	cpu_set_t all;
	long c, n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&all);
	for (c = 0; c < n; c++)
		CPU_SET(c, &all);
	sched_setaffinity(0, sizeof(all), &all);
}

/* Integer fields of the row [@line, @eol), one tab apart; -1 if not that. */
static inline int row_fields(const char *line, const char *eol)
{
	const char *p = line;
	char *end;
	int n = 0;

	for (;;) {
		if (*p != '-' && (*p < '0' || *p > '9'))
			return -1;
		strtoll(p, &end, 10);
		if (end == p && *p == '-')
			end++;	/* a withheld counter's value */
		if (end == p || (end != eol && *end != '\t'))
			return -1;
		n++;
		if (end == eol)
			return n;
		p = end + 1;
	}
}

/*
 * Whether @text is a whole deltas snapshot: a header line, then rows of as
 * many integer (or withheld, "-") fields as the header has names, of consecutive iterations,
 * each ending in a newline.  0, or -1 with the first defect in @why.
 */
static inline int deltas_check(const char *text, char *why, size_t size)
{
	const char *line, *eol, *p;
	long long it, prev = -1;
	int fields = 1, f;

	if (strncmp(text, "iteration\t", 10) || !strchr(text, '\n')) {
		snprintf(why, size, "no header line: \"%.40s\"", text);
		return -1;
	}
	for (p = text; *p != '\n'; p++)
		fields += *p == '\t';
	for (line = strchr(text, '\n') + 1; *line; line = eol + 1) {
		eol = strchr(line, '\n');
		if (!eol) {
			snprintf(why, size, "row without newline: \"%.40s\"",
				 line);
			return -1;
		}
		f = row_fields(line, eol);
		if (f != fields) {
			snprintf(why, size, f < 0 ?
				 "row not of integers: \"%.*s\"" :
				 "row of other length than the header: \"%.*s\"",
				 (int)(eol - line > 60 ? 60 : eol - line), line);
			return -1;
		}
		it = strtoll(line, NULL, 10);
		if (prev >= 0 && it != prev + 1) {
			snprintf(why, size, "iteration %lld after %lld", it, prev);
			return -1;
		}
		prev = it;
	}
	return 0;
}

/* The module parameters a test may change, saved and restored as text. */
static const char *const param_names[] __attribute__((unused)) = {
	"cpu", "max_iterations", "chunk_iterations", "deltas_window",
};

#define NR_PARAMS	4

struct saved_params {
	char value[NR_PARAMS][32];
};

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

/* Writes the saved parameters back; how many writes failed. */
static inline int params_restore(const struct saved_params *saved)
{
	int i, failed = 0;

	for (i = 0; i < NR_PARAMS; i++)
		failed += param_write(param_names[i], saved->value[i]) != 0;
	return failed;
}

/* @len bytes of @buf as C escapes, at most @size - 1 characters; @out. */
static inline const char *escape_bytes(const void *buf, size_t len,
				       char *out, size_t size)
{
	const unsigned char *b = buf;
	size_t i, o = 0;
	char c[8];

	for (i = 0; i < len && o + 12 < size; i++) {
		if (b[i] == '\n' || b[i] == '\t' || b[i] == '\\' || b[i] == '"')
			snprintf(c, sizeof(c), "\\%c", b[i] == '\n' ? 'n' :
				 b[i] == '\t' ? 't' : b[i]);
		else if (b[i] < ' ' || b[i] > '~')
			snprintf(c, sizeof(c), "\\x%02x", b[i]);
		else
			snprintf(c, sizeof(c), "%c", b[i]);
		o += snprintf(out + o, size - o, "%s", c);
	}
	if (i < len)
		snprintf(out + o, size - o, "...(%zu bytes)", len);
	return out;
}

#endif /* LTTNG_CALIBRATE_UTIL_H */
