// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the probes and mechanisms a run measures: the probe, target and
 * work_cycles settings, each mechanism attached around a run and detached
 * after it, someone else's probes (tracefs kprobe and fprobe events), the
 * tracepoint targets off and on, the bound on a handler's work, and a
 * probed run whose CPU goes offline and back.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <math.h>

#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

ENV_FIXTURE(calib)

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

/* The tracepoint target: a disabled static key, then a live tracepoint. */
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

/* CPU hot-unplug comes last: it disturbs the CPUs for the tests after it. */

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
			    (WEXITSTATUS(status) == ENODEV ||
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

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
