/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptive statistics of a sample, Student's t distribution and
 * Welch's t-test (stats.c), for the tools that compare runs.
 */
#ifndef LTTNG_CALIBRATE_COMPARE_STATS_H
#define LTTNG_CALIBRATE_COMPARE_STATS_H

#include <stddef.h>

/**
 * struct summary - descriptive statistics of one sample
 * @n:      number of values
 * @min:    smallest value
 * @max:    largest value
 * @median: middle value (mean of the two middle values when @n is even)
 * @mean:   arithmetic mean
 * @stddev: sample standard deviation (n - 1 in the denominator)
 */
struct summary {
	size_t n;
	double min;
	double max;
	double median;
	double mean;
	double stddev;
};

/**
 * struct welch - Welch's unequal-variance t-test of sample b against a
 * @diff:      mean(b) - mean(a)
 * @se:        standard error of @diff
 * @df:        Welch-Satterthwaite degrees of freedom (not an integer)
 * @t:         @diff / @se (+/-INFINITY when both variances are zero)
 * @p:         two-sided p-value
 * @quantile:  Student's t quantile used for the interval
 * @halfwidth: half width of the confidence interval of @diff
 * @significant: 1 when the interval excludes zero
 */
struct welch {
	double diff;
	double se;
	double df;
	double t;
	double p;
	double quantile;
	double halfwidth;
	int significant;
};

int summarize(const double *values, size_t n, struct summary *sum);
double incomplete_beta(double a, double b, double x);
double student_t_cdf(double t, double df);
double student_t_two_sided_p(double t, double df);
double student_t_quantile(double p, double df);
void welch_statistic(const struct summary *a, const struct summary *b,
		     struct welch *w);
void pooled_statistic(const struct summary *a, const struct summary *b,
		      struct welch *w);
double mean_halfwidth(const struct summary *s, double confidence);
void welch_test(const struct summary *a, const struct summary *b,
		double confidence, struct welch *w);

#endif
