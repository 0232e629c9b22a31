// SPDX-License-Identifier: GPL-2.0
/*
 * chart-from-json FILE.json > FILE.svg: the chart that lttng-calibrate
 * bench or predict draws (--plot), drawn again from the JSON it printed
 * (--format json), by the same code; for the charts of
 * Documentation/bench ("make charts") and the tests that keep them in
 * step with that code.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json-read.h"
#include "../../lib/lc.h"
#include "../bench-format.h"
#include "../predict-format.h"

/* A member's string, or "". */
static const char *str(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);

	return v && v->type == JSON_STRING ? v->string : "";
}

/* A member's number, or NaN when it is null or absent. */
static double num(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);

	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

static int status(const char *name, enum lc_bench_status *s)
{
	if (lc_bench_status_parse(name, s))
		return lc_err("bad status '%s'", name);
	return 0;
}

/* A bench row's figures, as lc_bench_load_kv() reads them. */
static int bench_row(struct lc_bench *b, const struct json_value *o)
{
	struct lc_bench_row *r = lc_bench_add_row(b, str(o, "mechanism"));
	double expected = num(o, "events_expected");
	double recorded = num(o, "events_recorded");

	if (!r || status(str(o, "status"), &r->status))
		return -1;
	snprintf(r->reason, sizeof(r->reason), "%s", str(o, "reason"));
	r->overhead_cycles = num(o, "overhead_cycles");
	r->measured = isfinite(r->overhead_cycles);
	if (!r->measured)
		return 0;
	r->ci95_cycles = num(o, "ci95_cycles");
	r->stddev_cycles = num(o, "stddev_cycles");
	r->overhead_ns = num(o, "overhead_ns");
	r->ci95_ns = num(o, "ci95_ns");
	r->median_cycles = (long long)num(o, "median_cycles");
	r->samples = (long long)num(o, "samples");
	r->events_expected = isfinite(expected) ? (long long)expected : -1;
	r->events_recorded = isfinite(recorded) ? (long long)recorded : -1;
	return 0;
}

static int bench(struct lc_bench *b, const struct json_value *j,
		 const struct json_value *rows)
{
	double khz = num(j, "clock_khz");
	size_t i;

	memset(b, 0, sizeof(*b));
	snprintf(b->kernel, sizeof(b->kernel), "%s", str(j, "kernel"));
	snprintf(b->cpu_model, sizeof(b->cpu_model), "%s",
		 str(j, "cpu_model"));
	snprintf(b->clock, sizeof(b->clock), "%s", str(j, "clock"));
	b->iterations = (unsigned long long)num(j, "iterations");
	b->clock_khz = isfinite(khz) ? (long long)khz : -1;
	for (i = 0; i < rows->n; i++)
		if (bench_row(b, &rows->items[i]))
			return -1;
	lc_bench_set_ratios(b);
	return 0;
}

/* A predict row's bars: its percentages and their intervals. */
static int predict_row(struct lc_svg_bars *c, const struct json_value *o)
{
	double v[4] = {
		num(o, "predicted_overhead_percent"),
		num(o, "predicted_ci95_percent"),
		num(o, "measured_overhead_percent"),
		num(o, "measured_ci95_percent"),
	};
	enum lc_bench_status s = LC_BENCH_OK;

	if (status(str(o, "status"), &s))
		return -1;
	lc_predict_chart_row(c, str(o, "configuration"), s, str(o, "reason"),
			     v);
	return 0;
}

static int predict(struct lc_svg_bars *c, const struct json_value *j,
		   const struct json_value *rows)
{
	size_t i;

	lc_predict_chart(c, str(j, "kernel"), str(j, "command"),
			 (size_t)num(j, "runs"), str(j, "clock"));
	for (i = 0; i < rows->n && c->nr + 2 <= LC_SVG_MAX_BARS; i++)
		if (predict_row(c, &rows->items[i]))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct lc_svg_bars chart;
	static struct lc_bench b;
	const struct json_value *rows;
	struct json_value *j = NULL;
	struct json_error e;
	const char *format;
	size_t len;
	char *text;
	int err = -1;

	lc_set_prog("chart-from-json");
	if (argc != 2) {
		lc_err("usage: chart-from-json FILE.json > FILE.svg");
		return 2;
	}
	text = lc_read_file(argv[1], &len);
	if (!text) {
		lc_err("%s: cannot be read", argv[1]);
		return 1;
	}
	j = json_parse(text, len, &e);
	if (!j) {
		lc_err("%s:%d:%d: %s", argv[1], e.line, e.column, e.message);
		goto out;
	}
	format = str(j, "format");
	rows = json_get(j, "rows");
	if (!rows || rows->type != JSON_ARRAY)
		lc_err("%s: no rows", argv[1]);
	else if (!strcmp(format, LC_BENCH_FORMAT))
		err = bench(&b, j, rows) ||
		      lc_bench_plot_svg(&b, stdout) | fflush(stdout);
	else if (!strcmp(format, LC_PREDICT_FORMAT))
		err = predict(&chart, j, rows) ||
		      lc_svg_plot_bars(stdout, &chart) | fflush(stdout);
	else
		lc_err("%s: format '%s', neither bench's nor predict's",
		       argv[1], format);
out:
	json_free(j);
	free(text);
	return err ? 1 : 0;
}
