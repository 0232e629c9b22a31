/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_COMPARE_REPORT_H
#define LTTNG_CALIBRATE_COMPARE_REPORT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "groups.h"
#include "series.h"
#include "stats.h"

#define MAX_SAMPLES 8

/**
 * struct report - what to print and how
 * @format:     text (LC_FORMAT_TABLE), CSV or JSON
 * @confidence: confidence level in percent
 * @width:      width of the text plot, borders included
 * @plot:       1 to draw the plot in text output
 * @source:     description of the series input
 */
struct report {
	enum lc_format format;
	double confidence;
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
	if (isfinite(value))
		fprintf(out, "\"%s\": %.10g%s", key, value, sep);
	else
		fprintf(out, "\"%s\": null%s", key, sep);
}

#endif
