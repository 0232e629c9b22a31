// SPDX-License-Identifier: GPL-2.0
/*
 * Descriptive statistics, Student's t distribution and Welch's t-test.
 *
 * The t quantiles are computed, not looked up: the t CDF is expressed
 * with the regularized incomplete beta function, evaluated by its
 * continued fraction (modified Lentz), and inverted by bisection, so any
 * real number of degrees of freedom works (Welch-Satterthwaite gives
 * non-integer ones).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define CF_MAX_TERMS 1000
#define CF_EPSILON 1e-15
#define CF_TINY 1e-300
#define BISECT_STEPS 200

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/**
 * summarize() - compute n, min, max, median, mean and standard deviation
 * @values: the sample, left untouched
 * @n:      number of values, at least 1
 * @sum:    filled in
 *
 * The variance uses two passes (mean first, then squared deviations),
 * which keeps full precision for values far from zero such as cycle
 * counts. A sample of one has a standard deviation of zero.
 *
 * Return: 0, or -1 when out of memory.
 */
int summarize(const double *values, size_t n, struct summary *sum)
{
	double *sorted, total = 0.0, squares = 0.0;
	size_t i;

	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	for (i = 0; i < n; i++)
		total += sorted[i];
	sum->n = n;
	sum->mean = total / n;
	for (i = 0; i < n; i++)
		squares += (sorted[i] - sum->mean) * (sorted[i] - sum->mean);
	sum->stddev = n > 1 ? sqrt(squares / (n - 1)) : 0.0;
	sum->min = sorted[0];
	sum->max = sorted[n - 1];
	if (n % 2)
		sum->median = sorted[n / 2];
	else
		sum->median = sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
	free(sorted);
	return 0;
}

/* d(2m+1) and d(2m) of the continued fraction of I_x(a, b) */
static double beta_cf_term(double a, double b, double x, int i)
{
	double m = i / 2;

	if (i % 2)
		return -(a + m) * (a + b + m) * x /
		       ((a + 2 * m) * (a + 2 * m + 1));
	return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
}

/* 1 / (1 + d1 / (1 + d2 / (1 + ...))) by the modified Lentz method */
static double beta_continued_fraction(double a, double b, double x)
{
	double f = 1.0, c = 1.0, d = 0.0, num, delta;
	int i;

	for (i = 0; i < CF_MAX_TERMS; i++) {
		num = i ? beta_cf_term(a, b, x, i) : 1.0;
		d = 1.0 + num * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		d = 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		delta = c * d;
		f *= delta;
		if (fabs(1.0 - delta) < CF_EPSILON)
			break;
	}
	return f - 1.0;
}

/**
 * incomplete_beta() - regularized incomplete beta function I_x(a, b)
 * @a: first shape parameter, > 0
 * @b: second shape parameter, > 0
 * @x: point in [0, 1]
 *
 * The continued fraction converges fast for x < (a + 1) / (a + b + 2);
 * above that, I_x(a, b) = 1 - I_(1-x)(b, a) is used.
 *
 * Return: I_x(a, b), or NAN for arguments out of range.
 */
double incomplete_beta(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	if (x > (a + 1) / (a + b + 2))
		return 1.0 - incomplete_beta(b, a, 1.0 - x);
	/* x^a (1 - x)^b / (a B(a, b)), in logarithms to avoid overflow */
	front = lgamma(a + b) - lgamma(a) - lgamma(b);
	front += a * log(x) + b * log1p(-x);
	return exp(front) / a * beta_continued_fraction(a, b, x);
}

/* P(T > t) for t >= 0: 0.5 * I_(df / (df + t^2))(df / 2, 1 / 2) */
static double student_t_upper_tail(double t, double df)
{
	if (isinf(t))
		return 0.0;
	return 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

/**
 * student_t_cdf() - P(T <= t) for Student's t with @df degrees of freedom
 * @t:  point
 * @df: degrees of freedom, any real > 0
 *
 * Return: the probability.
 */
double student_t_cdf(double t, double df)
{
	if (t >= 0)
		return 1.0 - student_t_upper_tail(t, df);
	return student_t_upper_tail(-t, df);
}

/**
 * student_t_two_sided_p() - P(|T| >= |t|)
 * @t:  test statistic
 * @df: degrees of freedom, any real > 0
 *
 * Return: the two-sided p-value, computed from the tail directly so that
 * tiny p-values keep their precision.
 */
double student_t_two_sided_p(double t, double df)
{
	return 2.0 * student_t_upper_tail(fabs(t), df);
}

/**
 * student_t_quantile() - t such that P(T <= t) = @p
 * @p:  probability in (0, 1)
 * @df: degrees of freedom, any real > 0
 *
 * The upper tail is monotonic in t, so bisection is safe for every df;
 * the bracket is widened until it holds the answer (t(0.9975, 1) is
 * about 127).
 *
 * Return: the quantile, or NAN for arguments out of range.
 */
double student_t_quantile(double p, double df)
{
	double tail, lo = 0.0, hi = 1.0, mid;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -student_t_quantile(1.0 - p, df);
	tail = 1.0 - p;
	while (student_t_upper_tail(hi, df) > tail) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	for (i = 0; i < BISECT_STEPS && hi - lo > 1e-13 * hi; i++) {
		mid = lo + (hi - lo) / 2;
		if (student_t_upper_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* Both samples constant: a difference is certain, or there is none. */
static void welch_degenerate(const struct summary *a, const struct summary *b,
			     struct welch *w)
{
	w->df = (double)(a->n + b->n - 2);
	if (w->diff == 0) {
		w->t = 0.0;
		w->p = 1.0;
	} else {
		w->t = w->diff > 0 ? INFINITY : -INFINITY;
		w->p = 0.0;
	}
}

/**
 * welch_statistic() - Welch's t statistic of @b against @a, and its p-value
 * @a: reference sample, n >= 2
 * @b: other sample, n >= 2
 * @w: @diff, @se, @df, @t and @p filled in
 *
 * df = (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)) with
 * va = sa^2 / na and vb = sb^2 / nb (Welch-Satterthwaite).
 */
void welch_statistic(const struct summary *a, const struct summary *b,
		     struct welch *w)
{
	double va = a->stddev * a->stddev / a->n;
	double vb = b->stddev * b->stddev / b->n;
	double ra, rb;

	w->diff = b->mean - a->mean;
	w->se = sqrt(va + vb);
	if (w->se == 0) {
		welch_degenerate(a, b, w);
		return;
	}
	ra = va / (va + vb);
	rb = vb / (va + vb);
	/* scaled by va + vb so that huge variances cannot overflow */
	w->df = 1.0 / (ra * ra / (a->n - 1) + rb * rb / (b->n - 1));
	w->t = w->diff / w->se;
	w->p = student_t_two_sided_p(w->t, w->df);
}

/**
 * pooled_statistic() - Student's two-sample t with a pooled variance
 * @a: first sample
 * @b: second sample, @a->n + @b->n >= 3
 * @w: @diff, @se, @df = na + nb - 2, @t and @p filled in
 *
 * Exact for normal values when both samples share one variance, which
 * is the null hypothesis of a change-point search: no change at all.
 */
void pooled_statistic(const struct summary *a, const struct summary *b,
		      struct welch *w)
{
	double ssa = a->stddev * a->stddev * (a->n - 1);
	double ssb = b->stddev * b->stddev * (b->n - 1);
	double var;

	w->df = (double)(a->n + b->n - 2);
	var = (ssa + ssb) / w->df;
	w->diff = b->mean - a->mean;
	w->se = sqrt(var * (1.0 / a->n + 1.0 / b->n));
	if (w->se == 0) {
		welch_degenerate(a, b, w);
		return;
	}
	w->t = w->diff / w->se;
	w->p = student_t_two_sided_p(w->t, w->df);
}

/**
 * mean_halfwidth() - half width of the confidence interval of a mean
 * @s:          the sample
 * @confidence: two-sided confidence level in percent, e.g. 95
 *
 * Return: t(1 - alpha / 2, n - 1) * stddev / sqrt(n), or NAN when the
 * sample has fewer than two values.
 */
double mean_halfwidth(const struct summary *s, double confidence)
{
	double alpha = 1.0 - confidence / 100.0;

	if (s->n < 2)
		return NAN;
	return student_t_quantile(1.0 - alpha / 2, s->n - 1.0) * s->stddev /
	       sqrt((double)s->n);
}

/**
 * welch_test() - Welch's t-test of @b against @a with a confidence interval
 * @a:          reference sample, n >= 2
 * @b:          other sample, n >= 2
 * @confidence: two-sided confidence level in percent, e.g. 95
 * @w:          filled in
 *
 * The difference is significant when the interval
 * diff +/- t(1 - alpha / 2, df) * se excludes zero.
 */
void welch_test(const struct summary *a, const struct summary *b,
		double confidence, struct welch *w)
{
	double alpha = 1.0 - confidence / 100.0;

	welch_statistic(a, b, w);
	w->quantile = student_t_quantile(1.0 - alpha / 2, w->df);
	w->halfwidth = w->se ? w->quantile * w->se : 0.0;
	w->significant = fabs(w->t) > w->quantile;
}
