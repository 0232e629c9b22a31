// SPDX-License-Identifier: GPL-2.0
/*
 * Where did it change? Binary segmentation of an ordered series.
 *
 * For a segment of labels, every boundary between two labels that leaves
 * at least min_segment values on each side is a candidate split. Each
 * candidate is scored with a two-sample t-test of the right side against
 * the left side; the candidate with the smallest p-value (largest |t|) is
 * kept if its p-value, multiplied by the number of candidates
 * (Bonferroni), is below 1 - confidence. Both sides are then segmented
 * again. All values of a label stay in the same segment.
 *
 * The split test pools the variance of both sides: under the null
 * hypothesis (no change in the segment) both sides come from one
 * distribution, and the pooled t-test is then exact. Welch's test is
 * not: a side of two or three values whose variance is small by chance
 * makes it see changes in flat noise (12 % false alarms instead of 5 %
 * on 30 normal values, min_segment 2). Once a change is accepted, the
 * step between the final segments is estimated with Welch's test, which
 * does not assume that the variance stayed the same.
 *
 * A split that moves the mean by less than min_change percent of the
 * left side's mean is no candidate for the best one (it still counts in
 * the Bonferroni correction): where runs repeat to a few parts in a
 * million (under -icount), a change of a hundredth of a percent is
 * certain and of no interest.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

/**
 * struct segmenter - state of one segmentation
 * @values:      all values, label after label
 * @start:       @start[i] is the index in @values of label i's first
 *               value; @start[nlabels] is the number of values
 * @nlabels:     number of labels
 * @min_segment: fewest values a segment may hold
 * @min_change:  smallest change of the mean a split may make, in percent
 * @alpha:       1 - confidence
 * @shift:       the mean of the segment the prefix sums are of
 * @sum:         prefix sums of (value - shift) at label boundaries
 * @squares:     prefix sums of (value - shift)^2 at label boundaries
 * @stack:       segments still to examine, as pairs of label indexes
 * @depth:       number of pairs on @stack
 * @result:      where change points go
 */
struct segmenter {
	double *values;
	size_t *start;
	size_t nlabels;
	size_t min_segment;
	double min_change;
	double alpha;
	double shift;
	double *sum;
	double *squares;
	size_t *stack;
	size_t depth;
	struct series_result *result;
};

/* Prefix sums shifted by the segment mean, to avoid cancellation. */
static void prefix_sums(struct segmenter *seg, size_t lo, size_t hi)
{
	size_t first = seg->start[lo], last = seg->start[hi], i, j;
	double shift = 0.0, x;

	for (i = first; i < last; i++)
		shift += seg->values[i];
	shift /= last - first;
	seg->shift = shift;
	seg->sum[lo] = 0.0;
	seg->squares[lo] = 0.0;
	for (i = lo; i < hi; i++) {
		seg->sum[i + 1] = seg->sum[i];
		seg->squares[i + 1] = seg->squares[i];
		for (j = seg->start[i]; j < seg->start[i + 1]; j++) {
			x = seg->values[j] - shift;
			seg->sum[i + 1] += x;
			seg->squares[i + 1] += x * x;
		}
	}
}

/* Mean and standard deviation of labels [lo, hi) from the prefix sums. */
static void range_summary(const struct segmenter *seg, size_t lo, size_t hi,
			  struct summary *sum)
{
	double s = seg->sum[hi] - seg->sum[lo];
	double q = seg->squares[hi] - seg->squares[lo];
	double var;

	sum->n = seg->start[hi] - seg->start[lo];
	sum->mean = s / sum->n;
	var = (q - s * sum->mean) / (sum->n - 1);
	sum->stddev = var > 0 ? sqrt(var) : 0.0;
}

static int better_split(const struct welch *w, const struct welch *best)
{
	if (w->p != best->p)
		return w->p < best->p;
	return fabs(w->t) > fabs(best->t);
}

/* Best split of labels [lo, hi); returns 0 when there is no candidate. */
static size_t best_split(struct segmenter *seg, size_t lo, size_t hi,
			 struct change_point *cp)
{
	struct summary left, right;
	struct welch w;
	size_t b, eligible = 0;

	cp->candidates = 0;
	prefix_sums(seg, lo, hi);
	for (b = lo + 1; b < hi; b++) {
		if (seg->start[b] - seg->start[lo] < seg->min_segment ||
		    seg->start[hi] - seg->start[b] < seg->min_segment)
			continue;
		range_summary(seg, lo, b, &left);
		range_summary(seg, b, hi, &right);
		pooled_statistic(&left, &right, &w);
		cp->candidates++;
		if (!(fabs(right.mean - left.mean) >=
		      seg->min_change / 100.0 * fabs(left.mean + seg->shift)))
			continue;
		if (!eligible++ || better_split(&w, &cp->detection)) {
			cp->detection = w;
			cp->label = b;
		}
	}
	if (!eligible)
		return 0;
	cp->p_corrected = fmin(1.0, cp->detection.p * cp->candidates);
	return cp->label;
}

static int add_point(struct series_result *result,
		     const struct change_point *cp)
{
	struct change_point *points;

	points = realloc(result->points, (result->n + 1) * sizeof(*points));
	if (!points)
		return -1;
	result->points = points;
	result->points[result->n++] = *cp;
	return 0;
}

/* Examine one segment; push its halves when it holds a change point. */
static int examine(struct segmenter *seg, size_t lo, size_t hi)
{
	struct series_result *result = seg->result;
	struct change_point cp;

	if (!best_split(seg, lo, hi, &cp))
		return 0;
	if (!(cp.p_corrected < seg->alpha)) {
		if (lo == 0 && hi == seg->nlabels) {
			result->best = cp;
			result->has_best = 1;
		}
		return 0;
	}
	if (add_point(result, &cp))
		return -1;
	seg->stack[seg->depth++] = lo;
	seg->stack[seg->depth++] = cp.label;
	seg->stack[seg->depth++] = cp.label;
	seg->stack[seg->depth++] = hi;
	return 0;
}

static int by_label(const void *a, const void *b)
{
	const struct change_point *x = a, *y = b;

	return (x->label > y->label) - (x->label < y->label);
}

static int summarize_labels(const struct segmenter *seg, size_t lo, size_t hi,
			    struct summary *sum)
{
	return summarize(seg->values + seg->start[lo],
			 seg->start[hi] - seg->start[lo], sum);
}

/* Describe each step between the final segments around it. */
static int describe_steps(struct segmenter *seg, double confidence)
{
	struct series_result *result = seg->result;
	struct change_point *cp;
	size_t i, lo, hi;

	if (result->n)
		qsort(result->points, result->n, sizeof(*cp), by_label);
	for (i = 0; i < result->n; i++) {
		cp = &result->points[i];
		lo = i ? result->points[i - 1].label : 0;
		hi = i + 1 < result->n ? result->points[i + 1].label :
					 seg->nlabels;
		if (summarize_labels(seg, lo, cp->label, &cp->before) ||
		    summarize_labels(seg, cp->label, hi, &cp->after))
			return -1;
		welch_test(&cp->before, &cp->after, confidence, &cp->step);
	}
	return summarize_labels(seg, 0, seg->nlabels, &result->whole);
}

static int segmenter_init(struct segmenter *seg, const struct group *labels,
			  size_t nlabels)
{
	size_t i, n = 0;

	for (i = 0; i < nlabels; i++)
		n += labels[i].n;
	seg->values = malloc(n * sizeof(*seg->values));
	seg->start = malloc((nlabels + 1) * sizeof(*seg->start));
	seg->sum = malloc((nlabels + 1) * sizeof(*seg->sum));
	seg->squares = malloc((nlabels + 1) * sizeof(*seg->squares));
	/* each change point pushes two segments and pops one */
	seg->stack = malloc(4 * (nlabels + 1) * sizeof(*seg->stack));
	if (!seg->values || !seg->start || !seg->sum || !seg->squares ||
	    !seg->stack)
		return -1;
	for (n = 0, i = 0; i < nlabels; i++) {
		seg->start[i] = n;
		memcpy(seg->values + n, labels[i].values,
		       labels[i].n * sizeof(*seg->values));
		n += labels[i].n;
	}
	seg->start[nlabels] = n;
	seg->nlabels = nlabels;
	return 0;
}

static void segmenter_free(struct segmenter *seg)
{
	free(seg->values);
	free(seg->start);
	free(seg->sum);
	free(seg->squares);
	free(seg->stack);
}

/**
 * series_segment() - find the change points of an ordered series
 * @labels:      labels in order, each with one or more values
 * @nlabels:     number of labels
 * @confidence:  confidence level in percent for each accepted split
 * @min_segment: fewest values on each side of a split, at least 2
 * @min_change:  smallest change of the mean a split may make, in percent
 *               of the left side's mean (0: any)
 * @result:      filled in; release with series_result_free()
 *
 * Return: 0, or -1 when out of memory.
 */
int series_segment(const struct group *labels, size_t nlabels,
		   double confidence, size_t min_segment, double min_change,
		   struct series_result *result)
{
	struct segmenter seg = { .min_segment = min_segment,
				 .min_change = min_change,
				 .alpha = 1.0 - confidence / 100.0,
				 .result = result };
	size_t lo, hi;
	int ret = -1;

	memset(result, 0, sizeof(*result));
	if (segmenter_init(&seg, labels, nlabels))
		goto out_free;
	seg.stack[seg.depth++] = 0;
	seg.stack[seg.depth++] = nlabels;
	while (seg.depth) {
		hi = seg.stack[--seg.depth];
		lo = seg.stack[--seg.depth];
		if (examine(&seg, lo, hi))
			goto out_free;
	}
	ret = describe_steps(&seg, confidence);
out_free:
	segmenter_free(&seg);
	return ret;
}

/**
 * series_result_free() - release the change points of a result
 * @result: the result
 */
void series_result_free(struct series_result *result)
{
	free(result->points);
	result->points = NULL;
	result->n = 0;
}
