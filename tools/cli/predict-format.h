/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict's output (predict-format.c): the figures the
 * model computed once (struct lc_predict_report) as a table, CSV and
 * JSON, and its chart.  Calls the output layer (lib/output.h, lib/svg.h)
 * and the bench's status names (lib/bench-schema.h) only.
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_FORMAT_H
#define LTTNG_CALIBRATE_CLI_PREDICT_FORMAT_H

#include <stdio.h>

#include "../lib/svg.h"
#include "predict-model.h"

#define LC_PREDICT_FORMAT	"lttng-calibrate-predict/1"

int lc_predict_print_table(const struct lc_predict *p,
			   const struct lc_predict_report *r, FILE *out);
int lc_predict_print_csv(const struct lc_predict *p,
			 const struct lc_predict_report *r, FILE *out);
int lc_predict_print_json(const struct lc_predict *p,
			  const struct lc_predict_report *r, FILE *out);
void lc_predict_chart(struct lc_svg_bars *c, const char *kernel,
		      const char *command, size_t runs, const char *clock);
void lc_predict_chart_row(struct lc_svg_bars *c, const char *name,
			  enum lc_bench_status status, const char *reason,
			  const double v[4]);
int lc_predict_plot(const struct lc_predict *p,
		    const struct lc_predict_report *r, FILE *out);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_FORMAT_H */
