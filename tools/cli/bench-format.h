/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bench's rows printed (bench-format.c): a table, CSV, JSON and an
 * SVG bar chart, through the output layer (lib/output.h, lib/svg.h).
 * Calls formats.c's model and the output layer only; bench.c and
 * tests/chart-from-json.c call it.
 */
#ifndef LTTNG_CALIBRATE_CLI_BENCH_FORMAT_H
#define LTTNG_CALIBRATE_CLI_BENCH_FORMAT_H

#include <stdio.h>

#include "../lib/svg.h"
#include "formats.h"

int lc_bench_print_table(const struct lc_bench *b, FILE *out);
int lc_bench_print_csv(const struct lc_bench *b, FILE *out);
int lc_bench_print_json(const struct lc_bench *b, FILE *out);
int lc_bench_plot_svg(const struct lc_bench *b, FILE *out);
enum lc_svg_colour lc_bench_chart_colour(enum lc_bench_status status);

#endif /* LTTNG_CALIBRATE_CLI_BENCH_FORMAT_H */
