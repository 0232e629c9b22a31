// SPDX-License-Identifier: GPL-2.0
/*
 * Ground truth: is the overhead lttng_calibrate measures the real one?
 *
 * With nothing attached, the target and its baseline twin cost the same;
 * enabled, the tracepoint with a payload costs more than the plain one.
 *
 * The module's own probe handlers can spin for a known number of clock
 * cycles (work_cycles).  The measured overhead must then follow the injected
 * work: over a sweep of work, the fitted slope must be 1 (one measured cycle
 * per injected cycle) and the intercept must be the bare mechanism's
 * overhead (work 0).
 *
 * Each point of a sweep is measured ROUNDS times, the points visited in a
 * different order each round (forward, backward, rotated), so that a drift
 * of the machine's speed (a loaded host under QEMU, frequency changes)
 * does not line up with the work.  A point's value is the median of its
 * rounds; its standard error the larger of the rounds' spread and the runs'
 * own 95 % intervals, over sqrt(ROUNDS).
 *
 * Verdicts are judged against that measured uncertainty.  Tolerance:
 * LTTNG_CALIBRATE_GROUND_TRUTH_TOLERANCE (default 0.05), a fraction.  The
 * slope must lie within 1 +/- (tolerance + 3.29 standard errors of the
 * slope, 99.9 %); the intercept within 3.29 standard errors of its gap to
 * the bare mechanism's overhead plus tolerance times the smallest work step
 * (the spin ends at the first clock read past its goal, so its granularity
 * is part of the intercept).  When the slope's uncertainty alone exceeds
 * NOISE_LIMIT the measurement cannot tell a right slope from a wrong one:
 * the test skips and says so (plain QEMU TCG on a busy host).  On hardware
 * and under QEMU with -icount (guest time follows executed instructions)
 * the uncertainty is a small fraction of the tolerance.
 *
 * Counters: the test PMU's tsc event counts the architecture's counter, the
 * clock that times the rows on x86 (elsewhere it is converted to that
 * clock by its events/tsc.scale and the run's clock.khz).  Selected in a
 * kprobe sweep, the counter's overhead must follow the work the same way, and agree with the cycles overhead of the same run within
 * 3.29 times their combined standard error plus the tolerance times the
 * smallest work step (the two are read one after the other at each edge
 * of a window, a fixed few cycles apart).
 */
#define _GNU_SOURCE
#include <math.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

#define NR_POINTS	5
#define ROUNDS		3
/* 99.9 %: a test that fails by chance once in a thousand runs. */
#define Z		3.29
/* A slope known no better than this is not judged. */
#define NOISE_LIMIT	0.2

static const long long work[NR_POINTS] = { 0, 1000, 2000, 3000, 4000 };

FIXTURE(truth) {
	struct env env;
};

FIXTURE_SETUP(truth)
{
	env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(truth)
{
	env_teardown(_metadata, &self->env);
}

FIXTURE_VARIANT(truth) {
	const char *mechanism;
};

FIXTURE_VARIANT_ADD(truth, kprobe) { .mechanism = "kprobe" };
FIXTURE_VARIANT_ADD(truth, kretprobe) { .mechanism = "kretprobe" };
FIXTURE_VARIANT_ADD(truth, fprobe) { .mechanism = "fprobe" };
FIXTURE_VARIANT_ADD(truth, fprobe_exit) { .mechanism = "fprobe-exit" };

static double tolerance(void)
{
	const char *t = getenv("LTTNG_CALIBRATE_GROUND_TRUTH_TOLERANCE");

	return t && *t ? strtod(t, NULL) : 0.05;
}

/* A point of a sweep: its value and the standard error of it. */
struct point {
	double y, se;
};

/* A fit: intercept @a, slope @b, and their standard errors. */
struct line {
	double a, b, se_a, se_b;
};

/*
 * Least squares y = a + b work over the sweep's points but the first (work
 * 0, the bare mechanism, is what the intercept is compared with).  Each
 * standard error is the larger of the one the points' own errors give
 * and the one the residuals give.
 */
static struct line fit(const struct point *pt)
{
	const long long *x = work + 1;
	const struct point *p = pt + 1;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, xbar, ybar, sse = 0, r;
	double var_b = 0, var_a, res_b;
	struct line l;
	int i, n = NR_POINTS - 1;

	for (i = 0; i < n; i++) {
		sx += x[i];
		sy += p[i].y;
	}
	xbar = sx / n;
	ybar = sy / n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - xbar) * (x[i] - xbar);
		sxy += (x[i] - xbar) * (p[i].y - ybar);
		var_b += (x[i] - xbar) * (x[i] - xbar) * p[i].se * p[i].se;
	}
	l.b = sxy / sxx;
	l.a = ybar - l.b * xbar;
	for (i = 0; i < n; i++) {
		r = p[i].y - l.a - l.b * x[i];
		sse += r * r;
	}
	var_b /= sxx * sxx;
	res_b = sse / (n - 2) / sxx;
	l.se_b = sqrt(fmax(var_b, res_b));
	/* var(a) = var(ybar) + xbar^2 var(b); var(ybar) from the points. */
	var_a = 0;
	for (i = 0; i < n; i++)
		var_a += p[i].se * p[i].se / ((double)n * n);
	var_a = fmax(var_a, sse / (n - 2) / n) + xbar * xbar * l.se_b * l.se_b;
	l.se_a = sqrt(var_a);
	return l;
}

/*
 * One point of a sweep: work_cycles @w, a run of 10000 iterations.
 * Return: its results_kv (to free), or NULL, said why, when the run failed,
 * did not inject @w or missed a probe hit.
 */
static char *run_at(long long w)
{
	char value[32], *text;
	long long got, missed;

	snprintf(value, sizeof(value), "%lld", w);
	if (write_str(DIR "work_cycles", value) || run("10000")) {
		fprintf(stderr, "# work %lld: the run failed\n", w);
		return NULL;
	}
	text = lc_read_file(DIR "results_kv", NULL);
	got = lc_kv_ll(text, "probe.work_cycles", LLONG_MIN);
	missed = lc_kv_ll(text, "probe.nmissed", LLONG_MIN);
	if (got != w || missed) {
		fprintf(stderr, "# work %lld: results_kv says work_cycles %lld, nmissed %lld\n",
			w, got, missed);
		free(text);
		return NULL;
	}
	return text;
}

/* Point @k of round @r: forward, backward, then rotated by two. */
static int visit(int r, int k)
{
	switch (r % 3) {
	case 0:
		return k;
	case 1:
		return NR_POINTS - 1 - k;
	default:
		return (k + 2) % NR_POINTS;
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A point from its rounds: the median value; the standard error from the
 * rounds' spread or the runs' own intervals @ci, whichever is larger.
 */
static struct point point_of(double *v, const double *ci)
{
	double sum = 0, sq = 0, ci_sum = 0, sd, mean;
	struct point p;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		sum += v[r];
		ci_sum += ci[r];
	}
	mean = sum / ROUNDS;
	for (r = 0; r < ROUNDS; r++)
		sq += (v[r] - mean) * (v[r] - mean);
	sd = sqrt(sq / (ROUNDS - 1));
	qsort(v, ROUNDS, sizeof(*v), by_value);
	p.y = v[ROUNDS / 2];
	p.se = fmax(sd, ci_sum / ROUNDS / 1.96) / sqrt(ROUNDS);
	return p;
}

/*
 * Whether the slope of @l can be judged, and then that it is 1 within the
 * tolerance and its own uncertainty.  Returns false when it cannot be
 * judged (the caller skips, with the reason printed).
 */
static bool slope_judged(struct __test_metadata *_metadata, const char *what,
			 struct line l, double tol)
{
	fprintf(stderr, "# %s: slope %.4f +/- %.4f (99.9 %%: %.4f), tolerance %.3f\n",
		what, l.b, l.se_b, Z * l.se_b, tol);
	if (Z * l.se_b > NOISE_LIMIT)
		return false;
	EXPECT_LE(fabs(l.b - 1), tol + Z * l.se_b) {
		TH_LOG("%s: slope %.4f is not 1 within %.3f + %.4f", what, l.b,
		       tol, Z * l.se_b);
	}
	return true;
}

TEST_F_TIMEOUT(truth, slope_and_intercept, 600)
{
	double v[NR_POINTS][ROUNDS], ci[NR_POINTS][ROUNDS], tol = tolerance();
	struct point pt[NR_POINTS];
	double bound;
	struct line l;
	char *text;
	int r, k, i;

	/*
	 * A kernel without fprobe (CONFIG_FPROBE, as Debian's 6.1) has no
	 * sweep to make: what holds there is that the mechanism is refused.
	 */
	if (!strncmp(variant->mechanism, "fprobe", 6) && !fprobe_available()) {
		EXPECT_EQ(EOPNOTSUPP, write_str(DIR "probe", variant->mechanism));
		TH_LOG("no fprobe in this kernel: %s refused, nothing to sweep",
		       variant->mechanism);
		return;
	}
	ASSERT_EQ(0, write_str(DIR "probe", variant->mechanism));
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NR_POINTS; k++) {
			i = visit(r, k);
			text = run_at(work[i]);
			ASSERT_NE(NULL, text);
			v[i][r] = lc_kv_double(text, "overhead.cycles.mean", -1e300);
			ci[i][r] = lc_kv_double(text, "overhead.cycles.ci95", -1e300);
			free(text);
		}
	}
	for (i = 0; i < NR_POINTS; i++) {
		pt[i] = point_of(v[i], ci[i]);
		fprintf(stderr, "# %s work %lld: overhead %.3f, standard error %.3f cycles\n",
			variant->mechanism, work[i], pt[i].y, pt[i].se);
	}
	l = fit(pt);
	if (!slope_judged(_metadata, variant->mechanism, l, tol))
		SKIP(return, "%s: the slope's uncertainty (+/- %.3f at 99.9 %%) is too large to judge it",
		     variant->mechanism, Z * l.se_b);
	bound = Z * sqrt(l.se_a * l.se_a + pt[0].se * pt[0].se) +
		tol * (work[1] - work[0]);
	fprintf(stderr, "# %s: intercept %.3f, bare %.3f, allowed gap %.3f\n",
		variant->mechanism, l.a, pt[0].y, bound);
	EXPECT_LT(fabs(l.a - pt[0].y), bound);
	EXPECT_LT(0, pt[0].y);
}

FIXTURE(counter_truth) {
	struct env env;
	int type;
};

FIXTURE_SETUP(counter_truth)
{
	env_setup(_metadata, &self->env);
	self->type = test_pmu_load("");
	ASSERT_LE(0, self->type);
}

FIXTURE_TEARDOWN(counter_truth)
{
	write_str(DIR "counters", "\n");
	EXPECT_EQ(0, test_pmu_unload());
	env_teardown(_metadata, &self->env);
}

TEST_F_TIMEOUT(counter_truth, tsc_counter_follows_work, 600)
{
	double cnt[NR_POINTS][ROUNDS], cnt_ci[NR_POINTS][ROUNDS];
	double cyc, cyc_ci, gap, ratio, tol = tolerance();
	char name[96], key[160], *text;
	struct point pt[NR_POINTS];
	int r, k, i;

	ASSERT_EQ(0, write_str(DIR "probe", "kprobe"));
	test_pmu_event(name, sizeof(name), self->type, "tsc", 1, "\n");
	ASSERT_EQ(0, write_str(DIR "counters", name));
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NR_POINTS; k++) {
			i = visit(r, k);
			text = run_at(work[i]);
			ASSERT_NE(NULL, text);
			ASSERT_EQ(1, lc_kv_ll(text, "counter." TEST_PMU "/tsc/.valid", LLONG_MIN));
			cyc = lc_kv_double(text, "overhead.cycles.mean", -1e300);
			cyc_ci = lc_kv_double(text, "overhead.cycles.ci95", -1e300);
			snprintf(key, sizeof(key), "overhead.counter.%s/tsc/.mean",
				 TEST_PMU);
			ratio = tsc_per_cycle(text);
			ASSERT_LT(0, ratio);
			cnt[i][r] = lc_kv_double(text, key, -1e300) / ratio;
			snprintf(key, sizeof(key), "overhead.counter.%s/tsc/.ci95",
				 TEST_PMU);
			cnt_ci[i][r] = lc_kv_double(text, key, -1e300) / ratio;
			free(text);
			/* One run, two readings of one clock: they agree. */
			gap = Z / 1.96 * sqrt(cnt_ci[i][r] * cnt_ci[i][r] +
					      cyc_ci * cyc_ci) +
			      tol * (work[1] - work[0]);
			fprintf(stderr, "# work %lld: tsc counter %.3f +/- %.3f, cycles %.3f +/- %.3f\n",
				work[i], cnt[i][r], cnt_ci[i][r], cyc, cyc_ci);
			EXPECT_LT(fabs(cnt[i][r] - cyc), gap);
		}
	}
	for (i = 0; i < NR_POINTS; i++)
		pt[i] = point_of(cnt[i], cnt_ci[i]);
	if (!slope_judged(_metadata, "tsc counter", fit(pt), tol))
		SKIP(return, "tsc counter: the slope's uncertainty is too large to judge it");
}

/*
 * The instructions counter, through the PMU's own driver.  Under QEMU
 * -icount shift=0 (LTTNG_CALIBRATE_ICOUNT_SHIFT=0, which the runner sets)
 * the clock is the cycle counter and one cycle is one instruction: work
 * injected in cycles is that many instructions, and the overhead in
 * instructions follows it with slope 1; execution repeats exactly, so every
 * kprobe hit costs the same: the bare overhead's standard deviation is 0.
 * On hardware, the instructions the spin executes per cycle are unknown:
 * the overhead only grows with the work.  Where the kernel has no
 * instructions counter (x86 under TCG, arm64 without -icount), what holds
 * is that the module refuses it as perf does.
 */
TEST_F_TIMEOUT(counter_truth, instructions_follow_work, 600)
{
	double v[NR_POINTS][ROUNDS], ci[NR_POINTS][ROUNDS], tol = tolerance();
	const char *shift = getenv("LTTNG_CALIBRATE_ICOUNT_SHIFT");
	bool exact = shift && !strcmp(shift, "0");
	struct point pt[NR_POINTS];
	int r, k, i, err;
	double sd;
	char *text;

	err = perf_event_answer(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	if (err) {
		EXPECT_NE(0, write_str(DIR "counters", "instructions"));
		TH_LOG("no instructions counter in this kernel (perf: %s): refused",
		       strerror(err));
		return;
	}
	ASSERT_EQ(0, write_str(DIR "probe", "kprobe"));
	ASSERT_EQ(0, write_str(DIR "counters", "instructions"));
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NR_POINTS; k++) {
			i = visit(r, k);
			text = run_at(work[i]);
			ASSERT_NE(NULL, text);
			ASSERT_EQ(1, lc_kv_ll(text, "counter.instructions.valid",
					      LLONG_MIN));
			/* A cycle is an instruction only on the cycle counter. */
			if (exact)
				ASSERT_EQ(1, lc_kv_is(text, "clock.name",
						      "cpu_cycles"));
			v[i][r] = lc_kv_double(text, "overhead.counter.instructions.mean",
					       -1e300);
			ci[i][r] = lc_kv_double(text, "overhead.counter.instructions.ci95",
						-1e300);
			sd = lc_kv_double(text, "difference.counter.instructions.stddev",
					  -1);
			fprintf(stderr, "# work %lld: instructions %.3f, stddev %.3f\n",
				work[i], v[i][r], sd);
			if (exact && !work[i])
				EXPECT_EQ(0, sd);
			free(text);
		}
	}
	for (i = 0; i < NR_POINTS; i++)
		pt[i] = point_of(v[i], ci[i]);
	EXPECT_LT(pt[0].y, pt[NR_POINTS - 1].y);
	EXPECT_LT(0, pt[0].y);
	if (!exact) {
		TH_LOG("not under -icount shift=0: instructions per cycle unknown, slope not judged");
		return;
	}
	if (!slope_judged(_metadata, "instructions", fit(pt), tol))
		SKIP(return, "instructions: the slope's uncertainty is too large to judge it");
}

FIXTURE(zero) {
	struct env env;
};

FIXTURE_SETUP(zero)
{
	env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(zero)
{
	env_teardown(_metadata, &self->env);
}

/*
 * Nothing attached: target and baseline cost the same.  Checked at 99.9 %
 * (3.29 standard errors) rather than at the 95 % results shows, so that the
 * test itself fails by chance once in a thousand runs, not once in twenty;
 * plus 5 % of the baseline's cost, because the twins sit at different
 * addresses and alignment (under QEMU, translation blocks) can make one a
 * few cycles dearer than the other.  Like the sweep, it needs a clock that
 * follows the work done: under plain QEMU TCG the guest clock ticks in 10 ns
 * steps of the loaded host and the emulator's own code paths for the two
 * functions differ, which is not what this test is about.
 */
TEST_F(zero, no_probe_no_overhead)
{
	double mean, ci, baseline;
	long long median;
	char *text;

	ASSERT_EQ(0, run("100000"));
	overhead(_metadata, &mean, &ci, &median);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	baseline = lc_kv_double(text, "baseline.cycles.mean", -1e300);
	free(text);
	fprintf(stderr, "# none: %.3f +/- %.3f cycles, baseline %.3f\n",
		mean, ci, baseline);
	EXPECT_LE(fabs(mean), ci / 1.96 * 3.29 + 0.05 * baseline);
}

/*
 * The payload tracepoint, enabled, records a system call's number, six
 * arguments and a task's name where the plain one records one integer: it
 * costs more.  The difference is about a tenth of their cost, which plain
 * QEMU TCG cannot tell apart from its own effects; under -icount, as the
 * ground-truth stage runs, and on hardware, it stands out.  Each enabled
 * through tracefs in turn, ROUNDS times; judged on the means at 99.9 %.
 */
static void tracepoint_cost(struct __test_metadata *_metadata,
			    const char *target, const char *event,
			    double *mean, double *ci)
{
	long long median;

	ASSERT_EQ(0, run_traced(target, event, "5000"));
	overhead(_metadata, mean, ci, &median);
	fprintf(stderr, "# %s on: %.3f +/- %.3f cycles, median %lld\n", event,
		*mean, *ci, median);
}

TEST_F(zero, payload_tracepoint_dearer)
{
	double plain[ROUNDS], payload[ROUNDS], ci, se2 = 0, d = 0;
	int r;

	if (access("/sys/kernel/tracing/events/lttng_calibrate", F_OK))
		SKIP(return, "no tracefs at /sys/kernel/tracing");
	for (r = 0; r < ROUNDS; r++) {
		tracepoint_cost(_metadata, "tracepoint",
				"lttng_calibrate_event", &plain[r], &ci);
		se2 += ci / 1.96 * ci / 1.96;
		tracepoint_cost(_metadata, "payload",
				"lttng_calibrate_payload", &payload[r], &ci);
		se2 += ci / 1.96 * ci / 1.96;
		d += (payload[r] - plain[r]) / ROUNDS;
	}
	ASSERT_EQ(0, write_str(DIR "target", "function"));
	fprintf(stderr, "# payload on minus tracepoint on: %+.1f +/- %.1f cycles (99.9 %%)\n",
		d, Z * sqrt(se2) / ROUNDS);
	EXPECT_LT(Z * sqrt(se2) / ROUNDS, d) {
		TH_LOG("the payload tracepoint does not cost more than the plain one");
	}
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
