// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the statistics: t quantiles against published tables,
 * the incomplete beta function against closed forms and mpmath, Welch's
 * test against hand computations, the false-positive rate and power of
 * the test on known distributions, and the series segmentation.
 *
 * Values marked "mpmath" were computed independently with Python's
 * mpmath 1.3 at 30 digits: betainc(a, b, 0, x, regularized=True) and
 * findroot on the t CDF written with it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "../series.h"
#include "../../lib/stats.h"
#include "../../lib/lc.h"
#include "../../lib/tap.h"

/**
 * struct t_table_entry - one value of a published Student's t table
 * @p:    one-sided probability P(T <= t)
 * @df:   degrees of freedom
 * @t:    the tabulated quantile, 3 decimals
 */
struct t_table_entry {
	double p;
	double df;
	double t;
};

/* Published two-sided tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2) */
static const struct t_table_entry t_table[] = {
	{ 0.975, 1, 12.706 },
	{ 0.975, 2, 4.303 },
	{ 0.975, 5, 2.571 },
	{ 0.975, 10, 2.228 },
	{ 0.975, 30, 2.042 },
	{ 0.975, 120, 1.980 },
	{ 0.995, 1, 63.657 },
	{ 0.995, 30, 2.750 },
	{ 0.95, 10, 1.812 },
	{ 0.90, 20, 1.325 },
	{ 0.99, 5, 3.365 },
	{ 0.9995, 4, 8.610 },
	/* ministat's confidence levels at df = 1 and df = 7 */
	{ 0.90, 1, 3.078 },
	{ 0.95, 1, 6.314 },
	{ 0.99, 1, 31.821 },
	{ 0.9975, 1, 127.321 },
	{ 0.9975, 10, 3.581 },
	{ 0.99, 7, 2.998 },
};

/* mpmath: quantiles at the non-integer df that Welch's test produces */
static const struct t_table_entry t_fractional[] = {
	{ 0.975, 7.6, 2.32730178879 },	  { 0.975, 2.5, 3.574654842 },
	{ 0.995, 1.5, 17.8203105145 },	  { 0.9, 3.3, 1.59836695856 },
	{ 0.975, 1.0763, 10.7633638112 },
};

static void test_t_quantiles(void)
{
	const struct t_table_entry *e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t_table); i++) {
		e = &t_table[i];
		tap_near(student_t_quantile(e->p, e->df), e->t, 0.0005,
			 "t(%g, %g) = %.3f (published table)", e->p, e->df,
			 e->t);
	}
	for (i = 0; i < ARRAY_SIZE(t_fractional); i++) {
		e = &t_fractional[i];
		tap_near(student_t_quantile(e->p, e->df), e->t, 1e-8,
			 "t(%g, %g) = %.9f (mpmath)", e->p, e->df, e->t);
	}
	tap_near(student_t_quantile(0.975, 1e7), 1.959963985, 1e-6,
		 "t(0.975, 1e7) tends to the normal quantile 1.959964");
	tap_near(student_t_quantile(0.025, 10), -2.228, 0.0005,
		 "t(0.025, 10) = -t(0.975, 10)");
	tap_check(isnan(student_t_quantile(1.0, 5)) &&
			  isnan(student_t_quantile(0.5, 0)),
		  "t quantile rejects p = 1 and df = 0");
}

static void test_t_cdf(void)
{
	double t;

	for (t = -20; t <= 20; t += 2.5) {
		/* df = 1 is Cauchy; df = 2 has a closed form */
		tap_near(student_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12,
			 "Cauchy CDF at %g", t);
		tap_near(student_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)),
			 1e-12, "t(df = 2) CDF at %g", t);
	}
	tap_near(student_t_two_sided_p(-22.44217, 7.5962), 3.21e-08, 0.01e-8,
		 "two-sided p keeps precision far in the tail");
}

static void test_incomplete_beta(void)
{
	tap_near(incomplete_beta(3.7, 3.7, 0.5), 0.5, 1e-14,
		 "I_0.5(a, a) = 1/2");
	tap_near(incomplete_beta(1, 1, 0.3), 0.3, 1e-14, "I_x(1, 1) = x");
	tap_near(incomplete_beta(4, 1, 0.7), pow(0.7, 4), 1e-14,
		 "I_x(a, 1) = x^a");
	tap_near(incomplete_beta(1, 6, 0.2), 1 - pow(0.8, 6), 1e-14,
		 "I_x(1, b) = 1 - (1 - x)^b");
	tap_near(incomplete_beta(2.5, 0.5, 0.3), 0.0189271240719457, 1e-13,
		 "I_0.3(2.5, 0.5) (mpmath)");
	tap_near(incomplete_beta(10, 3, 0.9), 0.889130022255, 1e-11,
		 "I_0.9(10, 3) (mpmath)");
	tap_near(incomplete_beta(0.5, 20, 0.01), 0.471369935485016, 1e-13,
		 "I_0.01(0.5, 20) (mpmath)");
	tap_check(isnan(incomplete_beta(-1, 1, 0.5)) &&
			  isnan(incomplete_beta(1, 1, 1.5)),
		  "incomplete beta rejects a < 0 and x > 1");
}

static void test_summary(void)
{
	static const double v[] = { 9, 2, 4, 4, 5, 5, 4, 7 };
	struct summary s;

	summarize(v, 8, &s);
	/* by hand: mean 40/8 = 5, squares 9+1+1+1+0+0+16+4 = 32 */
	tap_check(s.n == 8 && s.min == 2 && s.max == 9, "summary: n, min, max");
	tap_near(s.median, 4.5, 0, "summary: median of an even sample");
	tap_near(s.mean, 5, 1e-15, "summary: mean");
	tap_near(s.stddev, sqrt(32.0 / 7), 1e-14,
		 "summary: stddev with n - 1 = sqrt(32 / 7)");
	summarize(v, 7, &s);
	tap_near(s.median, 4, 0, "summary: median of an odd sample");
}

static void welch_of(const double *a, size_t na, const double *b, size_t nb,
		     double confidence, struct welch *w)
{
	struct summary sa, sb;

	summarize(a, na, &sa);
	summarize(b, nb, &sb);
	welch_test(&sa, &sb, confidence, w);
}

static void test_welch(void)
{
	static const double a[] = { 1, 2, 3, 4, 5 };
	static const double b[] = { 2, 4, 6, 8, 10, 12 };
	static const double c[] = { 7, 7, 7 }, d[] = { 7, 7, 7, 7 };
	static const double e[] = { 8, 8, 8 };
	struct welch w;

	/*
	 * By hand: va = 2.5 / 5 = 0.5, vb = 14 / 6 = 2.3333,
	 * t = 4 / sqrt(2.8333) = 2.37635,
	 * df = 2.8333^2 / (0.5^2 / 4 + 2.3333^2 / 5) = 6.97226;
	 * mpmath: p = 0.04928433821, halfwidth = 3.983468696.
	 */
	welch_of(a, 5, b, 6, 95, &w);
	tap_near(w.t, 2.376354103, 1e-8, "Welch t by hand");
	tap_near(w.df, 6.97225573, 1e-7, "Welch-Satterthwaite df by hand");
	tap_near(w.p, 0.04928433821, 1e-9, "Welch p (mpmath)");
	tap_near(w.halfwidth, 3.983468696, 1e-7, "Welch 95%% interval");
	tap_check(w.significant, "p = 0.049: difference at 95%%");
	welch_of(a, 5, b, 6, 98, &w);
	tap_check(!w.significant, "p = 0.049: no difference at 98%%");
	welch_of(c, 3, d, 4, 95, &w);
	tap_check(!w.significant && w.p == 1, "two equal constants: none");
	welch_of(c, 3, e, 3, 95, &w);
	tap_check(w.significant && w.p == 0 && isinf(w.t),
		  "two different constants: certain difference");
}

/* xorshift64* and Box-Muller: reproducible normal deviates */
static uint64_t rng_state = 88172645463325252ULL;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53 +
	       0x1.0p-54;
}

static double normal(double mean, double sd)
{
	return mean +
	       sd * sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static void fill_normal(double *v, size_t n, double mean, double sd)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = normal(mean, sd);
}

static void test_known_distribution(void)
{
	static double v[10000];
	struct summary s;

	fill_normal(v, 10000, 100, 5);
	summarize(v, 10000, &s);
	/* standard errors: mean 0.05, stddev about 5 / sqrt(2n) = 0.035 */
	tap_near(s.mean, 100, 0.2, "N(100, 5): mean within 4 s.e.");
	tap_near(s.stddev, 5, 0.15, "N(100, 5): stddev within 4 s.e.");
	tap_near(s.median, 100, 0.25, "N(100, 5): median within 4 s.e.");
}

/* Fraction of trials where Welch's test sees a difference. */
static double rejection_rate(int trials, size_t n, double shift, double sd_b,
			     double confidence)
{
	double a[64], b[64];
	struct welch w;
	int i, hits = 0;

	for (i = 0; i < trials; i++) {
		fill_normal(a, n, 0, 1);
		fill_normal(b, n, shift, sd_b);
		welch_of(a, n, b, n, confidence, &w);
		hits += w.significant;
	}
	return (double)hits / trials;
}

static void test_error_rates(void)
{
	/* binomial s.e. of a 5% rate over 4000 trials: 0.0034 */
	tap_near(rejection_rate(4000, 8, 0, 3, 95), 0.05, 0.014,
		 "unequal variances, no shift: 5%% false positives at 95%%");
	tap_near(rejection_rate(4000, 20, 0, 1, 99), 0.01, 0.007,
		 "equal variances, no shift: 1%% false positives at 99%%");
	/* power of a two-sample test, n = 20, shift 1 sd: 0.87 */
	tap_check(rejection_rate(2000, 20, 1, 1, 95) > 0.8,
		  "shift of one stddev, n = 20: power above 80%%");
}

static void make_series(struct group *labels, size_t nlabels, size_t per,
			double *values, const double *levels, size_t nlevels)
{
	size_t i;
	static char names[256][8];

	for (i = 0; i < nlabels; i++) {
		snprintf(names[i], sizeof(names[i]), "L%zu", i);
		labels[i].name = names[i];
		labels[i].values = values + i * per;
		labels[i].n = per;
		fill_normal(labels[i].values, per,
			    levels[i * nlevels / nlabels], 1);
	}
}

/* noise moves a change point by one label now and then */
static int near_label(size_t got, size_t want)
{
	return got + 1 >= want && got <= want + 1;
}

static int has_point(const struct series_result *r, size_t label)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (near_label(r->points[i].label, label))
			return 1;
	return 0;
}

static void test_series(void)
{
	static double values[256 * 4];
	static const double step[] = { 10, 13 }, flat[] = { 10 };
	static const double two[] = { 10, 14, 14, 12 };
	struct group labels[256];
	struct series_result r;
	int i, false_alarms = 0, both = 0, exact = 0;

	make_series(labels, 60, 3, values, step, 2);
	series_segment(labels, 60, 95, 2, 0, &r);
	tap_check(r.n == 1 && near_label(r.points[0].label, 30),
		  "series: one step of 3 sd found at label 30 +/- 1");
	tap_near(r.n ? r.points[0].step.diff : 0, 3, 0.6,
		 "series: step size about 3");
	series_result_free(&r);
	for (i = 0; i < 100; i++) {
		make_series(labels, 40, 2, values, two, 4);
		series_segment(labels, 40, 95, 2, 0, &r);
		both += has_point(&r, 10) && has_point(&r, 30);
		exact += r.n == 2;
		series_result_free(&r);
	}
	tap_check(both >= 90,
		  "series: steps at 10 (+4 sd) and 30 (-2 sd) "
		  "found in %d/100 series",
		  both);
	tap_check(exact >= 80, "series: no other change point in %d/100",
		  exact);
	for (i = 0; i < 200; i++) {
		make_series(labels, 30, 1, values, flat, 1);
		series_segment(labels, 30, 95, 2, 0, &r);
		false_alarms += r.n > 0;
		series_result_free(&r);
	}
	tap_check(false_alarms <= 10,
		  "series: flat noise, at most 5%% false alarms (%d/200)",
		  false_alarms);
}

/*
 * --min-change: a step of 3 sd that is 0.3 % of the level is found with
 * no minimum, and with 0.2 %, not with 1 %; beside a step of 10 %, only
 * that one is kept with 1 %.
 */
static void test_series_min_change(void)
{
	static double values[60 * 3];
	static const double small[] = { 1000, 1003 };
	static const double both[] = { 1000, 1100, 1103 };
	struct group labels[60];
	struct series_result r;

	make_series(labels, 60, 3, values, small, 2);
	series_segment(labels, 60, 95, 2, 0, &r);
	tap_check(r.n == 1 && near_label(r.points[0].label, 30),
		  "series: a step of 0.3 %% found with no minimum change");
	series_result_free(&r);
	series_segment(labels, 60, 95, 2, 0.2, &r);
	tap_check(r.n == 1, "series: found with --min-change 0.2");
	series_result_free(&r);
	series_segment(labels, 60, 95, 2, 1, &r);
	tap_check(r.n == 0, "series: not a change point with --min-change 1");
	series_result_free(&r);
	make_series(labels, 60, 3, values, both, 3);
	series_segment(labels, 60, 95, 2, 0, &r);
	tap_check(r.n == 2, "series: steps of 10 %% and 0.3 %%: both found");
	series_result_free(&r);
	series_segment(labels, 60, 95, 2, 1, &r);
	tap_check(r.n == 1 && near_label(r.points[0].label, 20),
		  "series: with --min-change 1, only the step of 10 %% at 20");
	series_result_free(&r);
}

int main(void)
{
	test_t_quantiles();
	test_t_cdf();
	test_incomplete_beta();
	test_summary();
	test_welch();
	test_known_distribution();
	test_error_rates();
	test_series();
	test_series_min_change();
	return tap_exit_status();
}
