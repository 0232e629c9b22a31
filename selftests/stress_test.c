// SPDX-License-Identifier: GPL-2.0
/*
 * Stress tests of lttng_calibrate's concurrency: a storm of concurrent
 * runs, readers, setting changes, unload attempts and CPU hot-unplug, and
 * an unload storm with parameters written while the module comes and
 * goes.  The input's stress is stress_input_test.c, the slowest runs'
 * stress_maxed_test.c.
 *
 * LTTNG_CALIBRATE_STORM_S=N makes the storm last N seconds (default 60,
 * at most 120) and the unload storm half that.  Every test ends by
 * checking that the kernel log gained no warning, bug, oops, lockdep
 * report or stall.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

#define STORM_S			60
#define STORM_MAX_S		120
#define STOP_MS			10000

/* The storm's length: LTTNG_CALIBRATE_STORM_S, or STORM_S. */
static long long storm_ms(void)
{
	const char *env = getenv("LTTNG_CALIBRATE_STORM_S");
	char *end;
	long s;

	if (!env || !*env)
		return STORM_S * 1000LL;
	errno = 0;
	s = strtol(env, &end, 10);
	if (errno || *end || s < 1 || s > STORM_MAX_S) {
		ksft_print_msg("LTTNG_CALIBRATE_STORM_S=%s: not 1 to %d; %d s\n",
			       env, STORM_MAX_S, STORM_S);
		return STORM_S * 1000LL;
	}
	return s * 1000LL;
}

PARAMS_FIXTURE(stress);

/*
 * storm: runs, readers, setting changes, unload attempts and CPU hot-unplug
 * all at once for a minute; every child must stop when told, no read may
 * tear, and a run must go through now and then.
 */
enum role {
	WRITER, READER, SETTER, UNLOADER, HOTPLUG, PARAMETERS, NR_ROLES
};

static const char *const role_names[] = {
	"writer", "reader", "setter", "unloader", "hotplug", "parameter",
};

/* What a child did, sent through a pipe when it stops. */
struct report {
	int role;
	long ops;	/* writes, reads or attempts */
	long done;	/* runs completed, settings taken, unloads, unplugs */
	long busy;	/* EBUSY, or EAGAIN from delete_module() */
	long soft;	/* interrupted, migrated, CPU or module gone */
	long bad;	/* unexpected errors and torn reads */
	char why[160];	/* the first of them */
};

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	stopping = 1;
}

static void __attribute__((format(printf, 2, 3)))
report_bad(struct report *r, const char *fmt, ...)
{
	va_list args;

	if (r->bad++)
		return;
	va_start(args, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, args);
	va_end(args);
}

static void tally(struct report *r, int err, const char *what)
{
	if (!err)
		r->done++;
	else if (err == EBUSY)
		r->busy++;
	/*
	 * Soft: interrupted, the CPU offline or gone, or the module gone:
	 * ENOENT once its files are removed, ENXIO from debugfs while it is
	 * being unloaded (the open cannot take a module reference).
	 */
	else if (err == EINTR || err == ENODEV ||
		 err == ENOENT || err == ENXIO)
		r->soft++;
	else
		report_bad(r, "%s: %s", what, strerror(err));
}

static void storm_writer(struct report *r, unsigned long long s)
{
	char count[16];

	while (!stopping) {
		snprintf(count, sizeof(count), "%u", 100 + rnd_below(&s, 9901));
		r->ops++;
		tally(r, run(count), "run");
	}
}

static const char *const readable[] = {
	DIR "results", DIR "results_kv", DIR "status", DIR "deltas",
	DIR "counters", DIR "probe", DIR "target", DIR "irqs",
	DIR "work_cycles", PARAMS "cpu", PARAMS "max_iterations",
	PARAMS "chunk_iterations", PARAMS "deltas_window",
};

/* A whole text as each file gives it: no tear, no half line. */
static void check_read(struct report *r, const char *path, const char *text,
		       size_t len)
{
	const char *name = strrchr(path, '/') + 1;
	char why[160];

	if (!len || text[len - 1] != '\n' || strlen(text) != len)
		report_bad(r, "%s: \"%.60s\" is not whole lines", name, text);
	else if (!strcmp(name, "deltas") && deltas_check(text, why, sizeof(why)))
		report_bad(r, "%s: %s", name, why);
	else if (!strcmp(name, "results_kv") &&
		 (strncmp(text, "format=", 7) || !lc_kv_value(text, "run.state", NULL)))
		report_bad(r, "%s: no run.state in \"%.60s\"", name, text);
	else if (!strcmp(name, "status") && strncmp(text, "state=", 6))
		report_bad(r, "%s: \"%.60s\"", name, text);
}

static void storm_reader(struct report *r, unsigned long long s)
{
	size_t i, len;
	char *text;

	while (!stopping) {
		for (i = 0; i < ARRAY_SIZE(readable) && !stopping; i++) {
			r->ops++;
			text = lc_read_file(readable[i], &len);
			if (!text) {
				tally(r, errno, readable[i]);
				continue;
			}
			r->done++;
			check_read(r, readable[i], text, len);
			free(text);
		}
	}
}

struct setting {
	const char *path, *value;
};

static const struct setting storm_settings[] = {
	{ DIR "probe", "kprobe" },
	{ DIR "counters", "page-faults cpu-clock" },
	{ DIR "irqs", "enabled" },
	{ DIR "target", "tracepoint" },
	{ DIR "work_cycles", "100" },
	{ PARAMS "deltas_window", "10" },
	{ DIR "probe", "kretprobe" },
	{ DIR "counters", "\n" },
	{ DIR "irqs", "disabled" },
	{ DIR "target", "function" },
	{ DIR "work_cycles", "0" },
	{ PARAMS "deltas_window", "1000" },
	{ DIR "probe", "none" },
	{ DIR "counters", "page-faults cpu-clock\n" },
};

/* Writes the @n settings of @table in turn until told to stop. */
static void write_settings(struct report *r, const struct setting *table,
			   size_t n)
{
	size_t i;

	for (i = 0; !stopping; i = (i + 1) % n) {
		r->ops++;
		tally(r, write_str(table[i].path, table[i].value),
		      table[i].path);
	}
}

static void storm_setter(struct report *r, unsigned long long s)
{
	write_settings(r, storm_settings, ARRAY_SIZE(storm_settings));
}

/*
 * rmmod: refused while a file is open or a run going on.  The readers'
 * opens may meet the kernel's unload race (kmsg_patterns.h): the unload is
 * marked in the kernel log from its first attempt to the one that
 * unloaded, not attempt by attempt, which would flood the log.  The race
 * is only in an attempt that unloads: one refused never dropped the last
 * reference.
 */
static void storm_unloader(struct report *r, unsigned long long s)
{
	bool marked = false;
	int err;

	while (!stopping) {
		r->ops++;
		if (!marked)
			kmsg_unload_begins();
		marked = true;
		err = syscall(SYS_delete_module, "lttng_calibrate", O_NONBLOCK) ?
		      errno : 0;
		if (err != EBUSY && err != EAGAIN) {
			kmsg_unload_ends();
			marked = false;
		}
		if (!err) {
			r->done++;
			if (ensure_module())
				report_bad(r, "unloaded, cannot reload");
		} else if (err == EBUSY || err == EAGAIN) {
			r->busy++;
		} else {
			tally(r, err, "delete_module");
			if (ensure_module())
				report_bad(r, "not loaded, cannot load");
		}
		sleep_ms(20);
	}
	if (marked)
		kmsg_unload_ends();
}

static void storm_hotplug(struct report *r, unsigned long long s)
{
	int err, tries;

	while (!stopping) {
		r->ops++;
		err = cpu_online_set(1, 0);
		if (err == EBUSY || err == EAGAIN)
			r->busy++;
		else if (err)
			report_bad(r, "cpu1 offline: %s", strerror(err));
		sleep_ms(100);
		for (tries = 0; tries < 100; tries++) {
			err = cpu_online_set(1, 1);
			if (!err)
				break;
			sleep_ms(10);
		}
		if (err)
			report_bad(r, "cpu1 online: %s", strerror(err));
		r->done += !err;
		sleep_ms(100);
	}
}

/*
 * Every parameter, written while the module comes and goes: with counters
 * selected, a write of cpu opens their events again on the new CPU.  The
 * files vanish with the module (ENOENT) and refuse while it goes (ENODEV).
 */
static const struct setting parameter_values[] = {
	{ PARAMS "cpu", "1" }, { PARAMS "max_iterations", "5000" },
	{ PARAMS "cpu", "0" }, { PARAMS "chunk_iterations", "500" },
	{ PARAMS "cpu", "-1" }, { PARAMS "deltas_window", "10" },
	{ PARAMS "cpu", "1" }, { PARAMS "max_iterations", "100000000" },
	{ PARAMS "cpu", "0" }, { PARAMS "chunk_iterations", "10000" },
	{ PARAMS "cpu", "-1" }, { PARAMS "deltas_window", "1000" },
};

static void storm_parameters(struct report *r, unsigned long long s)
{
	write_settings(r, parameter_values, ARRAY_SIZE(parameter_values));
}

typedef void (*storm_fn)(struct report *r, unsigned long long s);

static const storm_fn storm_fns[NR_ROLES] = {
	storm_writer, storm_reader, storm_setter, storm_unloader,
	storm_hotplug, storm_parameters,
};

/* A child playing @role until SIGTERM; its report goes to @fd. */
static pid_t spawn(int fd, enum role role, unsigned long long seed)
{
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART */
	struct report r = { .role = role };
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	storm_fns[role](&r, seed ^ 0x9e3779b97f4a7c15ULL);
	_exit(write(fd, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

/* Tells every child to stop; how many did not exit within STOP_MS. */
static int stop_children(struct __test_metadata *_metadata, pid_t *pids,
			 int n)
{
	long long end;
	int i, stuck = 0, status;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	end = now_ms() + STOP_MS;
	for (i = 0; i < n; i++) {
		if (reap_within(pids[i], end - now_ms(), &status)) {
			EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
				TH_LOG("child %d: status 0x%x", i, status);
			}
			continue;
		}
		TH_LOG("child %d (pid %d) still running %d ms after SIGTERM",
		       i, pids[i], STOP_MS);
		stuck++;
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	return stuck;
}

/* Adds up the reports; how many there were. */
static int read_reports(struct __test_metadata *_metadata, int fd,
			struct report *sum)
{
	struct report r;
	int n = 0;

	while (read(fd, &r, sizeof(r)) == sizeof(r)) {
		struct report *t = &sum[r.role % NR_ROLES];

		n++;
		t->ops += r.ops;
		t->done += r.done;
		t->busy += r.busy;
		t->soft += r.soft;
		t->bad += r.bad;
		EXPECT_EQ(0, r.bad) {
			TH_LOG("%s: %ld bad, first: %s", role_names[t - sum],
			       r.bad, r.why);
		}
	}
	return n;
}

/* 8 writers, 4 readers, a setter, an unloader, maybe a hotplug child. */
static const enum role storm_roles[] = {
	WRITER, WRITER, WRITER, WRITER, WRITER, WRITER, WRITER, WRITER,
	READER, READER, READER, READER, SETTER, UNLOADER, HOTPLUG,
};

/* The children started, until the first fork() that fails. */
static void print_reports(const struct report *sum)
{
	int i;

	for (i = 0; i < NR_ROLES; i++)
		fprintf(stderr, "# %ss: %ld ops, %ld done, %ld busy, %ld soft, %ld bad\n",
			role_names[i], sum[i].ops, sum[i].done, sum[i].busy,
			sum[i].soft, sum[i].bad);
	fprintf(stderr, "# (soft: interrupted, migrated, CPU or module gone)\n");
	if (sum[UNLOADER].done)
		fprintf(stderr, "# rmmod went through %ld times (no file open then): reloaded\n",
			sum[UNLOADER].done);
}

static int storm_spawn_all(int fd, pid_t *pids, bool hotplug)
{
	unsigned long long seed = time(NULL);
	int n;

	for (n = 0; n < (int)ARRAY_SIZE(storm_roles); n++) {
		if (storm_roles[n] == HOTPLUG && !hotplug)
			break;
		pids[n] = spawn(fd, storm_roles[n], seed + n);
		if (pids[n] < 0)
			break;
	}
	return n;
}

TEST_F_TIMEOUT(stress, storm, 200)
{
	bool hotplug = sysconf(_SC_NPROCESSORS_CONF) >= 2 &&
		       !access("/sys/devices/system/cpu/cpu1/online", W_OK);
	struct report sum[NR_ROLES] = { { 0 } };
	long long storm = storm_ms(), end;
	pid_t pids[16];
	int fds[2], n;

	if (!hotplug)
		TH_LOG("one CPU, or CPU 1 cannot go offline: no hot-unplug");
	ASSERT_EQ(0, run("100"));
	ASSERT_EQ(0, pipe(fds));
	if (hotplug)
		self->env.offlined = 1;
	n = storm_spawn_all(fds[1], pids, hotplug);
	close(fds[1]);
	EXPECT_EQ(ARRAY_SIZE(storm_roles) - !hotplug, n);
	TH_LOG("storm of %lld s", storm / 1000);
	for (end = now_ms() + storm; now_ms() < end; )
		sleep_ms(100);
	EXPECT_EQ(0, stop_children(_metadata, pids, n));
	EXPECT_EQ(n, read_reports(_metadata, fds[0], sum));
	close(fds[0]);
	print_reports(sum);
	EXPECT_LT(0, sum[WRITER].done);
	EXPECT_LT(0, sum[READER].done);

	ASSERT_EQ(0, ensure_module());
	if (hotplug) {
		EXPECT_EQ(0, cpu_online_set(1, 1));
		self->env.offlined = -1;
	}
	restore_defaults(_metadata, &self->params);
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
}

/*
 * unload_storm: the module loaded, given counters of the test PMU and
 * unloaded again and again while parameters are written and the debugfs
 * files opened and read.  A parameter write that lands while the module
 * goes must be refused: one that opened the counters' events again after
 * the module released them would leave events nobody releases, which hold
 * the test PMU's module.  Each cycle must unload; at the end the test PMU
 * must unload too, the kernel log be clean and kmemleak find no leak.
 */
#define UNLOAD_TRIES		200

static const enum role unload_storm_roles[] = {
	PARAMETERS, PARAMETERS, READER,
};

/*
 * Unloads lttng_calibrate, retrying while a reader holds a file open, marked
 * in the kernel log as an unload that opens may race with (kmsg_patterns.h).
 */
static int unload_retrying(void)
{
	int tries, err = EBUSY;

	kmsg_unload_begins();
	for (tries = 0; tries < UNLOAD_TRIES; tries++) {
		err = syscall(SYS_delete_module, "lttng_calibrate", O_NONBLOCK) ?
		      errno : 0;
		if (err != EBUSY && err != EAGAIN)
			break;
		sleep_ms(5);
	}
	kmsg_unload_ends();
	return err == EAGAIN ? EBUSY : err;
}

TEST_F_TIMEOUT(stress, unload_storm, 200)
{
	struct report sum[NR_ROLES] = { { 0 } };
	char counters[128], tsc[64];
	int fds[2], n, type, err, cycles = 0, unloaded = 0;
	pid_t pids[ARRAY_SIZE(unload_storm_roles)];
	unsigned long long seed = time(NULL);
	long long end;

	type = test_pmu_load("");
	if (type < 0)
		SKIP(return, "the test PMU (%s.ko) cannot be loaded",
		     TEST_PMU_MODULE);
	snprintf(counters, sizeof(counters), "%s cpu-clock",
		 test_pmu_event(tsc, sizeof(tsc), type, "tsc", 1, ""));
	ASSERT_EQ(0, pipe(fds));
	for (n = 0; n < (int)ARRAY_SIZE(unload_storm_roles); n++) {
		pids[n] = spawn(fds[1], unload_storm_roles[n], seed + n);
		if (pids[n] < 0)
			break;
	}
	close(fds[1]);
	EXPECT_EQ(ARRAY_SIZE(unload_storm_roles), n);
	for (end = now_ms() + storm_ms() / 2; now_ms() < end; cycles++) {
		if (ensure_module()) {
			TH_LOG("cycle %d: lttng_calibrate does not load", cycles);
			break;
		}
		/* Refused while a parameter write holds the settings: EBUSY. */
		err = write_str(DIR "counters", counters);
		EXPECT_TRUE(!err || err == EBUSY || err == ENOENT) {
			TH_LOG("counters: %s", strerror(err));
		}
		sleep_ms(rand() % 20);
		err = unload_retrying();
		EXPECT_EQ(0, err) {
			TH_LOG("cycle %d: unload: %s", cycles, strerror(err));
		}
		unloaded += !err;
	}
	EXPECT_EQ(0, stop_children(_metadata, pids, n));
	EXPECT_EQ(n, read_reports(_metadata, fds[0], sum));
	close(fds[0]);
	print_reports(sum);
	fprintf(stderr, "# %d load/unload cycles, %d unloaded\n", cycles,
		unloaded);
	EXPECT_LT(0, unloaded);
	EXPECT_LT(0, sum[PARAMETERS].done);

	/* Events left behind would hold the test PMU's module. */
	unload_retrying();
	err = test_pmu_unload();
	EXPECT_EQ(0, err) {
		TH_LOG("the test PMU does not unload (%s): events of its were left open",
		       strerror(err));
	}
	ASSERT_EQ(0, ensure_module());
	expect_no_leak(_metadata);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
