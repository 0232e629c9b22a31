/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_COMPARE_SERIES_H
#define LTTNG_CALIBRATE_COMPARE_SERIES_H

#include <stddef.h>

#include "groups.h"
#include "../lib/stats.h"

/**
 * struct change_point - a level shift found by binary segmentation
 * @label:       index of the label where the new level starts
 * @candidates:  number of splits tried in the segment where it was found
 * @detection:   Welch test of the two sides of that segment
 * @p_corrected: @detection.p times @candidates, at most 1 (Bonferroni)
 * @before:      final segment ending just before @label
 * @after:       final segment starting at @label
 * @step:        Welch test of @after against @before, with its interval
 */
struct change_point {
	size_t label;
	size_t candidates;
	struct welch detection;
	double p_corrected;
	struct summary before;
	struct summary after;
	struct welch step;
};

/**
 * struct series_result - outcome of series_segment()
 * @points:   change points in label order
 * @n:        number of @points
 * @best:     when @n is 0, the best split that was rejected
 * @has_best: 1 when @best is valid (there was at least one candidate)
 * @whole:    summary of the whole series
 */
struct series_result {
	struct change_point *points;
	size_t n;
	struct change_point best;
	int has_best;
	struct summary whole;
};

int series_segment(const struct group *labels, size_t nlabels,
		   double confidence, size_t min_segment, double min_change,
		   struct series_result *result);
void series_result_free(struct series_result *result);

#endif
