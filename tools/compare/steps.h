/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of a patch series (--steps, --plot): what
 * lttng-calibrate-series prints of the values of its steps, made of a
 * series' change points (series.c) and of what its values file says in
 * comments: "# unit: UNIT", "# steps: N...", "# patches: N",
 * "# boots: RUNS" (each value the mean of one boot's RUNS runs) and
 * "# missing: step N, PATCH: STATUS".  Each step with its mean and the
 * interval of the mean, the change points with the first patch of each
 * new level and the line for a mail; as a table, CSV or JSON
 * ("lttng-calibrate-series/1"), and a plot through the output layer's
 * SVG writer.
 */
#ifndef LTTNG_CALIBRATE_COMPARE_STEPS_H
#define LTTNG_CALIBRATE_COMPARE_STEPS_H

#include <stdbool.h>
#include <stdio.h>

#include "groups.h"
#include "report.h"
#include "series.h"

/**
 * struct steps_missing - a step left out of the analysis
 * @step: its number
 * @patch: its patch
 * @status: why ("does not build", "not measured"), in @patch's buffer
 */
struct steps_missing {
	long step;
	char *patch;
	const char *status;
};

/**
 * struct steps_header - what the comments of a values file say
 * @unit: the values' unit, or NULL
 * @numbers: the step of each label, in order ("# steps:"), or NULL
 * @nnumbers: how many
 * @total: the series' patches ("# patches:"), or -1
 * @boot_runs: the runs of a boot when each value is a boot's mean
 *	("# boots:"), or -1 when each value is a run
 * @missing: the steps left out, in file order
 * @nmissing: how many
 */
struct steps_header {
	char *unit;
	long *numbers;
	size_t nnumbers;
	long total;
	long boot_runs;
	struct steps_missing *missing;
	size_t nmissing;
};

int steps_comment(void *ctx, const char *line);
void steps_header_free(struct steps_header *header);
int steps_report(FILE *out, const struct report *report,
		 const struct steps_header *header, const struct group *labels,
		 size_t nlabels, const struct series_result *result,
		 bool steps, const char *plot);

#endif
