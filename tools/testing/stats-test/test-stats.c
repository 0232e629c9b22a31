// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit tests for lttng-calibrate-stats.c, with TAP output.
 *
 * Expected means and standard deviations were computed independently with
 * python3: exact fractions, round(1000 * mean) with ties toward +infinity,
 * round(1000 * sqrt(M2 / (n - 1))) from math.isqrt with an exact tie check,
 * cross-checked against statistics.stdev().  Expected quantiles come from
 * the specification (sort, take the ceil(p * n / 1000)-th value, report
 * the integer midpoint of its bucket [lo, lo + w - 1], w = 2^(bits - 6),
 * clamp to [min, max]), not from the histogram walk under test.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lttng-calibrate-stats.h"
#include "../../lib/tap.h"

/* Rows of a results table: target, baseline, difference. */
#define LTTNG_CALIBRATE_NR_TABLE_ROWS	3
#define GUIDE	"../../../Documentation/lttng-calibrate.rst"


static struct lttng_calibrate_stats *s;
static struct lttng_calibrate_summary sum;
static bool failed;

static void check_s64(const char *what, int line, s64 got, s64 want)
{
	if (got == want)
		return;
	tap_diag("  line %d: %s = %lld, want %lld", line, what, got, want);
	failed = true;
}

static void check_u64(const char *what, int line, u64 got, u64 want)
{
	if (got == want)
		return;
	tap_diag("  line %d: %s = %llu, want %llu", line, what, got, want);
	failed = true;
}

#define CHECK_S64(got, want)	check_s64(#got, __LINE__, got, want)
#define CHECK_U64(got, want)	check_u64(#got, __LINE__, got, want)

/* A quantile of @st, once its pending samples are counted. */
static s64 quantile(struct lttng_calibrate_stats *st, u32 permille)
{
	lttng_calibrate_stats_flush(st);
	return lttng_calibrate_stats_quantile(st, permille);
}

/* Checks every field of the summary of s. */
static void check_summary(int line, u64 count, s64 min, s64 max,
			  s64 mean_milli, u64 stddev_milli, s64 median, s64 p99)
{
	lttng_calibrate_stats_flush(s);
	lttng_calibrate_stats_summarize(s, &sum);
	check_u64("count", line, sum.count, count);
	check_s64("min", line, sum.min, min);
	check_s64("max", line, sum.max, max);
	check_s64("mean_milli", line, sum.mean_milli, mean_milli);
	check_u64("stddev_milli", line, sum.stddev_milli, stddev_milli);
	check_s64("median", line, sum.median, median);
	check_s64("p99", line, sum.p99, p99);
}

#define CHECK_SUMMARY(...)	check_summary(__LINE__, __VA_ARGS__)

static void add_all(const s64 *x, unsigned int n)
{
	unsigned int i;

	lttng_calibrate_stats_init(s);
	for (i = 0; i < n; i++)
		lttng_calibrate_stats_add(s, x[i]);
}

static void test_empty(void)
{
	lttng_calibrate_stats_init(s);
	CHECK_SUMMARY(0, 0, 0, 0, 0, 0, 0);
	CHECK_S64(quantile(s, 500), 0);
}

static void test_one_sample(void)
{
	static const s64 neg[] = { -42 };
	static const s64 big[] = { 123456789012LL };

	add_all(neg, 1);
	CHECK_SUMMARY(1, -42, -42, -42000, 0, -42, -42);
	/* a bucketed magnitude: the clamp to [min, max] makes it exact */
	add_all(big, 1);
	CHECK_SUMMARY(1, 123456789012LL, 123456789012LL, 123456789012000LL, 0,
		      123456789012LL, 123456789012LL);
	CHECK_S64(quantile(s, 0), 123456789012LL);
	CHECK_S64(quantile(s, 1000), 123456789012LL);
}

static void test_two_samples(void)
{
	/* 3, 8: mean 5.5, stdev 5 / sqrt(2) = 3.5355339 */
	static const s64 x[] = { 8, 3 };

	add_all(x, 2);
	CHECK_SUMMARY(2, 3, 8, 5500, 3536, 3, 8);
}

static void test_known_set(void)
{
	/* statistics.stdev: 2.138089935299395 = sqrt(32 / 7) */
	static const s64 x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	add_all(x, 8);
	CHECK_SUMMARY(8, 2, 9, 5000, 2138, 4, 9);
}

static void test_fractional_m2(void)
{
	/* 0, 0, 1: mean 1/3, M2 = 2/3, stdev sqrt(1/3) = 0.5773502 */
	static const s64 x[] = { 0, 0, 1 };

	add_all(x, 3);
	CHECK_SUMMARY(3, 0, 1, 333, 577, 0, 1);
}

static void test_mean_rounding(void)
{
	unsigned int i;

	/* 1999 zeros and one 1: mean 0.0005, tie rounds up; stdev 0.02236 */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 2000; i++)
		lttng_calibrate_stats_add(s, i == 1000);
	CHECK_SUMMARY(2000, 0, 1, 1, 22, 0, 0);

	/* mean -0.0005: tie rounds toward +infinity, whatever comes first */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 2000; i++)
		lttng_calibrate_stats_add(s, -(s64)(i == 0));
	CHECK_SUMMARY(2000, -1, 0, 0, 22, 0, 0);
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 2000; i++)
		lttng_calibrate_stats_add(s, -(s64)(i == 1999));
	CHECK_SUMMARY(2000, -1, 0, 0, 22, 0, 0);
}

static void test_constant(void)
{
	unsigned int i;

	lttng_calibrate_stats_init(s);
	for (i = 0; i < 1000000; i++)
		lttng_calibrate_stats_add(s, 1234567);
	CHECK_SUMMARY(1000000, 1234567, 1234567, 1234567000LL, 0,
		      1234567, 1234567);
}

static void test_huge_outlier(void)
{
	unsigned int i;

	/*
	 * 10^6 times 100 and one 10^15: mean = (10^8 + 10^15) / 1000001 =
	 * 999999.100001, stdev = 999999500.000275 (exact fractions).
	 */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 1000000; i++) {
		lttng_calibrate_stats_add(s, 100);
		if (i == 500000)
			lttng_calibrate_stats_add(s, 1000000000000000LL);
	}
	CHECK_SUMMARY(1000001, 100, 1000000000000000LL, 999999100001LL,
		      999999500000275ULL, 100, 100);
}

static void test_negative(void)
{
	unsigned int i;

	/*
	 * -1000 .. -1: mean -500.5, stdev 288.8194360957494.  500th value
	 * -501 is in bucket [496, 503] (midpoint 499); 990th value -11 is
	 * exact.
	 */
	lttng_calibrate_stats_init(s);
	for (i = 1; i <= 1000; i++)
		lttng_calibrate_stats_add(s, -(s64)i);
	CHECK_SUMMARY(1000, -1000, -1, -500500, 288819, -499, -11);
}

static void test_mixed_sign(void)
{
	/* sorted -7 -3 -1 0 2 5 10: mean 6/7, stdev 5.520524474738834 */
	static const s64 x[] = { -7, -3, 0, 2, 5, 10, -1 };

	add_all(x, 7);
	CHECK_SUMMARY(7, -7, 10, 857, 5521, 0, 10);
}

static void test_uniform_quantiles(void)
{
	unsigned int i;
	s64 median, p99;

	/* 1..1000 in scrambled order: i * 7919 mod 1000 is a permutation */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 1000; i++)
		lttng_calibrate_stats_add(s, (i * 7919) % 1000 + 1);
	/* mean 500.5, stdev 288.8194360957494; 500 in [496, 503] */
	CHECK_SUMMARY(1000, 1, 1000, 500500, 288819, 499, 983);
	/* 990 in [976, 991], 1000 in [992, 1007] */
	CHECK_S64(quantile(s, 0), 1);
	CHECK_S64(quantile(s, 10), 10);
	CHECK_S64(quantile(s, 1000), 999);
	CHECK_S64(quantile(s, 5000), 999);

	/* the requirement itself: within 1/32 of the true quantile */
	median = quantile(s, 500);
	p99 = quantile(s, 990);
	CHECK_S64(32 * llabs(median - 500) <= 500, 1);
	CHECK_S64(32 * llabs(p99 - 990) <= 990, 1);
}

static void test_wide_spread(void)
{
	unsigned int i;

	/*
	 * i * 10^13, i = 0..999: mean 4.995 * 10^15, stdev
	 * 2888194360957493.918 (sumsq ~ 2^112, n * sumsq overflows 128 bits).
	 * 500th value 499 * 10^13 in a 2^46 wide bucket, midpoint
	 * 4996180836614143; 990th value 989 * 10^13 has a midpoint above max.
	 */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 1000; i++)
		lttng_calibrate_stats_add(s, (s64)i * 10000000000000LL);
	CHECK_SUMMARY(1000, 0, 9990000000000000LL, 4995000000000000000LL,
		      2888194360957493918ULL, 4996180836614143LL,
		      9990000000000000LL);
}

static void test_s64_edges(void)
{
	static const s64 min_max[] = { S64_MIN, S64_MAX, S64_MIN, S64_MAX };
	static const s64 max_min[] = { S64_MAX, S64_MIN };
	unsigned int i;

	/*
	 * Mean (S64_MIN + S64_MAX) / 2 = -0.5.  The stdev, about 1.06 * 2^63,
	 * does not fit in thousandths: saturated.  The top positive bucket
	 * [63 * 2^57, 2^63 - 1] has midpoint 0x7effffffffffffff.
	 */
	add_all(min_max, 4);
	CHECK_SUMMARY(4, S64_MIN, S64_MAX, -500, U64_MAX, S64_MIN,
		      0x7effffffffffffffLL);
	/* sumsq (2^64 - 1)^2 fits, the stdev does not */
	add_all(max_min, 2);
	CHECK_SUMMARY(2, S64_MIN, S64_MAX, -500, U64_MAX, S64_MIN,
		      0x7effffffffffffffLL);

	/* means beyond S64 / 1000 saturate */
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 3; i++)
		lttng_calibrate_stats_add(s, S64_MAX);
	CHECK_SUMMARY(3, S64_MAX, S64_MAX, S64_MAX, 0, S64_MAX, S64_MAX);
	lttng_calibrate_stats_init(s);
	for (i = 0; i < 3; i++)
		lttng_calibrate_stats_add(s, S64_MIN);
	CHECK_SUMMARY(3, S64_MIN, S64_MIN, S64_MIN, 0, S64_MIN, S64_MIN);
	/* largest exact mean: S64_MAX / 1000 */
	lttng_calibrate_stats_init(s);
	lttng_calibrate_stats_add(s, S64_MAX / 1000);
	lttng_calibrate_stats_flush(s);
	CHECK_S64(s->count, 1);
	lttng_calibrate_stats_summarize(s, &sum);
	CHECK_S64(sum.mean_milli, S64_MAX / 1000 * 1000);
}

static void check_relative_error(s64 lowest, s64 v, s64 highest)
{
	u64 magnitude = v < 0 ? 0 - (u64)v : (u64)v;
	s64 q;
	u64 err;

	lttng_calibrate_stats_init(s);
	lttng_calibrate_stats_add(s, lowest);
	lttng_calibrate_stats_add(s, v);
	lttng_calibrate_stats_add(s, highest);
	q = quantile(s, 500);
	err = q > v ? (u64)q - (u64)v : (u64)v - (u64)q;
	if (magnitude < 64 ? err != 0 : err > magnitude / 64) {
		tap_diag("  %lld reported as %lld", v, q);
		failed = true;
	}
}

static void test_relative_error(void)
{
	u64 lcg = 1, v;
	unsigned int bits, i;

	/* the median of { lowest, v, highest } is v's bucket midpoint */
	for (v = 0; v < 4096; v++) {
		check_relative_error(-1, v, S64_MAX);
		check_relative_error(S64_MIN, -(s64)v, 1);
	}
	for (bits = 12; bits < 63; bits++) {
		for (i = 0; i < 200; i++) {
			lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
			v = (1ULL << bits) | ((lcg >> 1) & ((1ULL << bits) - 1));
			if (i == 0)
				v = 1ULL << bits;
			if (i == 1)
				v = (2ULL << bits) - 1;
			check_relative_error(-1, v, S64_MAX);
			check_relative_error(S64_MIN, -(s64)v, 1);
		}
	}
	check_relative_error(-1, S64_MAX, S64_MAX);
	check_relative_error(S64_MIN, S64_MIN + 1, 1);
}

static void test_bucket_saturation(void)
{
	lttng_calibrate_stats_init(s);
	s->pos[5] = U32_MAX - 1;
	s->neg[7] = U32_MAX - 1;
	lttng_calibrate_stats_add(s, 5);
	lttng_calibrate_stats_add(s, 5);
	lttng_calibrate_stats_add(s, 5);
	lttng_calibrate_stats_add(s, -7);
	lttng_calibrate_stats_add(s, -7);
	lttng_calibrate_stats_flush(s);
	CHECK_U64(s->pos[5], U32_MAX);
	CHECK_U64(s->neg[7], U32_MAX);
	CHECK_U64(s->count, 5);
	/* buckets no longer add up to count: quantiles stay in [min, max] */
	lttng_calibrate_stats_init(s);
	lttng_calibrate_stats_add(s, 3);
	lttng_calibrate_stats_add(s, 9);
	lttng_calibrate_stats_flush(s);
	s->count = 1000;
	CHECK_S64(quantile(s, 990), 9);
}

static void test_billion(void)
{
	struct lttng_calibrate_stats *narrow;
	u64 i;

	narrow = calloc(1, sizeof(*narrow));
	if (!narrow) {
		failed = true;
		return;
	}
	/*
	 * 10^9 samples around 10^9, two patterns in one loop.
	 * wide: 1 and 2 * 10^9 - 1 alternating: mean 10^9, stdev
	 * sqrt(10^18 - 10^9) = 999999999.4999999998; sumsq ~ 2^90.
	 * narrow: 10^9 - 1 and 10^9 + 1 alternating: mean 10^9, stdev
	 * sqrt(10^9 / (10^9 - 1)) = 1.0000000005.
	 * 2 * 10^9 - 1 lies in [59 * 2^25, 60 * 2^25 - 1], midpoint
	 * 1996488703; 10^9 +- 1 share a bucket whose midpoint is below min.
	 */
	lttng_calibrate_stats_init(s);
	lttng_calibrate_stats_init(narrow);
	for (i = 0; i < 1000000000; i++) {
		lttng_calibrate_stats_add(s, i & 1 ? 1999999999 : 1);
		lttng_calibrate_stats_add(narrow, i & 1 ? 1000000001 : 999999999);
	}
	CHECK_SUMMARY(1000000000, 1, 1999999999, 1000000000000LL,
		      999999999500ULL, 1, 1996488703);
	free(s);
	s = narrow;
	CHECK_SUMMARY(1000000000, 999999999, 1000000001, 1000000000000LL, 1000,
		      999999999, 999999999);
}

/*
 * Samples equal to a recent one are counted later, in bulk: the result
 * must not depend on it.  The reference counts every sample on its own
 * (a flush after each add) in another order.
 */
static void test_pending_values(void)
{
	static const s64 x[] = {
		5, 5, 7, 5, 7, 9, 9, 5, -3, -3, 7, 7, 7, 1LL << 40, 5,
		-(1LL << 40), 1LL << 40, 0, 0, 5,
	};
	struct lttng_calibrate_summary want;
	struct lttng_calibrate_stats *ref;
	unsigned int i, n = ARRAY_SIZE(x);

	ref = calloc(1, sizeof(*ref));
	if (!ref) {
		failed = true;
		return;
	}
	lttng_calibrate_stats_init(ref);
	for (i = 0; i < n; i++) {
		lttng_calibrate_stats_add(ref, x[n - 1 - i]);
		lttng_calibrate_stats_flush(ref);
	}
	lttng_calibrate_stats_summarize(ref, &want);
	add_all(x, n);
	CHECK_SUMMARY(want.count, want.min, want.max, want.mean_milli,
		      want.stddev_milli, want.median, want.p99);
	CHECK_U64(memcmp(s->pos, ref->pos, sizeof(s->pos)), 0);
	CHECK_U64(memcmp(s->neg, ref->neg, sizeof(s->neg)), 0);
	CHECK_U64(want.count, n);
	free(ref);
}

/* The figures results derive from summaries, against worked examples. */
static void test_derived(void)
{
	s64 pct = 0;

	/* t(0.975, df) rounded up: 12.7062, 2.0423, 1.9623 */
	CHECK_U64(lttng_calibrate_t975_milli(2), 12707);
	CHECK_U64(lttng_calibrate_t975_milli(31), 2043);
	CHECK_U64(lttng_calibrate_t975_milli(1001), 1963);
	/* 12.707 * 1.000 / sqrt(2) = 8.9866, floored from sqrt(2) ~ 1.414 */
	CHECK_S64(lttng_calibrate_ci95_milli(1000, 2), 8986);
	/* 1.960 * 2.000 / sqrt(10^6) = 0.00392 */
	CHECK_S64(lttng_calibrate_ci95_milli(2000, 1000000), 3);
	CHECK_S64(lttng_calibrate_ci95_milli(1000, 1), 0);
	CHECK_S64(lttng_calibrate_percent_milli(50000, 200000, &pct), 1);
	CHECK_S64(pct, 25000);
	CHECK_S64(lttng_calibrate_percent_milli(-1000, 3000, &pct), 1);
	CHECK_S64(pct, -33333);
	CHECK_S64(lttng_calibrate_percent_milli(1, 0, &pct), 0);
	/* 1000 cycles at 2445412 kHz: 408.9294 ns */
	CHECK_S64(lttng_calibrate_milli_to_ns(1000000, 2445412), 408929);
	CHECK_S64(lttng_calibrate_milli_to_ns(-1000000, 2445412), -408929);
	CHECK_S64(lttng_calibrate_milli_to_ns(S64_MAX, 1), S64_MAX);
	CHECK_S64(lttng_calibrate_milli(S64_MAX / 100), S64_MAX);
	CHECK_S64(lttng_calibrate_milli(-7), -7000);
}

/*
 * P(|T| < @x) for Student's t with @nu degrees of freedom: the finite sums
 * of Abramowitz and Stegun 26.7.3 (odd @nu) and 26.7.4 (even), exact for
 * an integer @nu, in about @nu / 2 terms.
 */
static double t_two_sided(double x, unsigned int nu)
{
	double theta = atan(x / sqrt(nu)), c2 = cos(theta) * cos(theta);
	double term = 1, sum = 1;
	unsigned int k;

	if (nu % 2 == 0) {
		/* sin(theta) (1 + 1/2 c2 + 1.3/(2.4) c2^2 + ... c2^(nu/2 - 1)) */
		for (k = 1; 2 * k < nu; k++) {
			term *= c2 * (2 * k - 1) / (2 * k);
			sum += term;
		}
		return sin(theta) * sum;
	}
	/* 2/pi (theta + sin cos (1 + 2/3 c2 + ... c2^((nu - 3) / 2))) */
	for (k = 1; 2 * k + 1 < nu; k++) {
		term *= c2 * (2 * k) / (2 * k + 1);
		sum += term;
	}
	return 2 / M_PI * (theta + (nu > 1 ? sin(theta) * cos(theta) * sum : 0));
}

/*
 * t(0.975, @nu) by the Cornish-Fisher expansion in 1 / @nu (Abramowitz
 * and Stegun 26.7.5), whose first left-out term is below 10^-15 for
 * @nu >= 1000.
 */
static double t975_expansion(double nu)
{
	const double x = 1.959963984540054; /* the normal's 97.5 % quantile */
	double x2 = x * x;
	double g1 = (x2 + 1) * x / 4;
	double g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
	double g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
	double g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) *
		    x / 92160;

	return x + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu;
}

/* Degrees of freedom checked with the exact sums, and with the expansion. */
#define T975_EXACT_DF		10000
#define T975_EXPANSION_DF	1000
#define T975_LAST_DF		1000000

/*
 * The table must give ceil(1000 t(0.975, df)) for every df: at least the
 * quantile (an interval never too narrow), less than a thousandth above
 * it.  Up to T975_EXACT_DF by the exact distribution, from
 * T975_EXPANSION_DF on by the expansion; where both apply they must agree.
 */
static void test_t975(void)
{
	unsigned int df, bad = 0;
	double v, t;

	for (df = 1; df <= T975_LAST_DF; df++) {
		v = lttng_calibrate_t975_milli(df + 1U) / 1000.0;
		if (df <= T975_EXACT_DF &&
		    (t_two_sided(v, df) < 0.95 ||
		     t_two_sided(v - 0.001, df) >= 0.95)) {
			if (bad++ < 10)
				tap_diag("  df %u: %.3f is not the exact quantile rounded up",
					 df, v);
			continue;
		}
		if (df < T975_EXPANSION_DF)
			continue;
		t = t975_expansion(df);
		if (t > v || t <= v - 0.001) {
			if (bad++ < 10)
				tap_diag("  df %u: %.3f, the expansion's t is %.9f",
					 df, v, t);
		}
		/* The two references agree to 10^-12 where both apply. */
		if (df <= T975_EXACT_DF &&
		    fabs(t_two_sided(t, df) - 0.95) > 1e-12) {
			if (bad++ < 10)
				tap_diag("  df %u: the expansion's %.9f has P %.15f",
					 df, t, t_two_sided(t, df));
		}
	}
	/* Published values: t(0.975, 1) = tan(0.475 pi), t(0.975, 30). */
	if (fabs(t_two_sided(12.706204736, 1) - 0.95) > 1e-10 ||
	    fabs(t_two_sided(2.0422724563, 30) - 0.95) > 1e-10) {
		tap_diag("  the exact sums miss published quantiles");
		bad++;
	}
	if (bad) {
		tap_diag("  %u df wrong", bad);
		failed = true;
	}
}

/*
 * The guide says what a result holds between runs, per table (three rows
 * of statistics): the figure must be the size of those, to 1 KiB.
 */
static void test_guide_result_size(void)
{
	size_t table = LTTNG_CALIBRATE_NR_TABLE_ROWS *
		       sizeof(struct lttng_calibrate_stats);
	char line[512], *p = NULL;
	long kib = -1;
	FILE *f;

	f = fopen(GUIDE, "r");
	if (!f) {
		tap_diag("  cannot open %s", GUIDE);
		failed = true;
		return;
	}
	/* Line by line: the guide has no size this test should know. */
	while (!p && fgets(line, sizeof(line), f))
		p = strstr(line, " KiB per table");
	fclose(f);
	while (p && p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p)
		kib = strtol(p, NULL, 10);
	if (llabs((long long)kib * 1024 - (long long)table) > 1024) {
		tap_diag("  the guide says %ld KiB per table; a table is %zu bytes",
			 kib, table);
		failed = true;
	}
}

static const struct {
	void (*run)(void);
	const char *name;
} tests[] = {
	{ test_guide_result_size, "the guide states the size of a result's table" },
	{ test_empty, "no samples: all zero" },
	{ test_one_sample, "one sample: stddev 0, median = p99 = value" },
	{ test_two_samples, "two samples" },
	{ test_known_set, "2 4 4 4 5 5 7 9: stddev 2.138" },
	{ test_fractional_m2, "0 0 1: exact fractional variance" },
	{ test_mean_rounding, "mean thousandths round ties toward +inf" },
	{ test_constant, "10^6 constant samples: stddev exactly 0" },
	{ test_huge_outlier, "10^6 x 100 plus one 10^15" },
	{ test_negative, "-1000..-1" },
	{ test_mixed_sign, "mixed signs" },
	{ test_uniform_quantiles, "quantiles of 1..1000 within 1/32" },
	{ test_wide_spread, "spread of 10^16, saturation-free" },
	{ test_s64_edges, "S64_MIN/S64_MAX saturate, no overflow" },
	{ test_relative_error, "bucket midpoints within 1/64 over 2^0..2^63" },
	{ test_bucket_saturation, "bucket counters saturate at U32_MAX" },
	{ test_pending_values, "repeated values counted later: same summary" },
	{ test_derived, "t quantile, 95% interval, percent, ns conversion" },
	{ test_t975, "t(0.975, df) rounded up for every df up to 10^6" },
	{ test_billion, "10^9 samples of about 10^9" },
};

int main(void)
{
	unsigned int i, n = ARRAY_SIZE(tests);
	struct timespec t0, t1;

	tap_plan(n);
	for (i = 0; i < n; i++) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return tap_bail_out("out of memory");
		failed = false;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		tests[i].run();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		tap_check(!failed, "%s", tests[i].name);
		tap_diag("  %.3f s", (t1.tv_sec - t0.tv_sec) +
			 (t1.tv_nsec - t0.tv_nsec) / 1e9);
		free(s);
	}
	return tap_exit_status();
}
