/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_COMPARE_REPORT_H
#define LTTNG_CALIBRATE_COMPARE_REPORT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "groups.h"
#include "series.h"
#include "../lib/stats.h"

#define MAX_SAMPLES 8

/**
 * struct report - what to print and how
 * @format:     text (LC_FORMAT_TABLE), CSV or JSON
 * @confidence: confidence level in percent
 * @min_change: series mode: smallest change of a level, in percent
 * @width:      width of the text plot, borders included
 * @plot:       1 to draw the plot in text output
 * @source:     description of the series input
 */
struct report {
	enum lc_format format;
	double confidence;
	double min_change;
	int width;
	int plot;
	const char *source;
};

extern const char plot_symbols[MAX_SAMPLES];

int plot_samples(FILE *out, const struct group *samples,
		 const struct summary *sums, size_t n, int width);
int report_compare(FILE *out, const struct report *report,
		   const struct group *samples, const struct summary *sums,
		   const struct welch *tests, size_t n);
void report_series(FILE *out, const struct report *report,
		   const struct group *labels, size_t nlabels,
		   const struct series_result *result);

/*
 * JSON output shared by the modes: a string, and "KEY": VALUE (null when
 * not finite) followed by @sep.
 */
static inline void json_string(FILE *out, const char *text)
{
	lc_json_string(out, text, strlen(text));
}

static inline void json_number(FILE *out, const char *key, double value,
			       const char *sep)
{
	lc_json_number(out, key, value, sep);
}

/* @value in percent of @reference (NaN for a zero reference) */
static inline double percent_of(double value, double reference)
{
	return reference ? 100.0 * value / fabs(reference) : NAN;
}

/* ministat's "+d +/- e (+p% +/- q%)", the percents when @reference is not 0 */
static inline void print_difference(FILE *out, const struct welch *w,
				    double reference)
{
	fprintf(out, "%+g +/- %g", w->diff, w->halfwidth);
	if (reference)
		fprintf(out, " (%+.3g%% +/- %.3g%%)",
			percent_of(w->diff, reference),
			percent_of(w->halfwidth, reference));
}

/*
 * One Welch test as a JSON object: difference, halfwidth, both in percent
 * of @reference, t, df, p, significant.
 */
static inline void json_welch(FILE *out, const struct welch *w,
			      double reference)
{
	fputs("{", out);
	json_number(out, "difference", w->diff, ", ");
	json_number(out, "halfwidth", w->halfwidth, ", ");
	json_number(out, "percent", percent_of(w->diff, reference), ", ");
	json_number(out, "percent_halfwidth",
		    percent_of(w->halfwidth, reference), ", ");
	json_number(out, "t", w->t, ", ");
	json_number(out, "df", w->df, ", ");
	json_number(out, "p", w->p, ", ");
	fprintf(out, "\"significant\": %s}", w->significant ? "true" : "false");
}

#endif
