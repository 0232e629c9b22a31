// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate predict's output: its rows as a table, CSV and JSON
 * ("lttng-calibrate-predict/1") through formats.c's writer, and its chart
 * through the bench's.  Nothing here touches the kernel.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "predict-format.h"

/* The fields of a row, in CSV order. */
enum lc_pr_field {
	LC_PF_CONFIGURATION, LC_PF_STATUS, LC_PF_REASON, LC_PF_EVENTS,
	LC_PF_LOST, LC_PF_COST, LC_PF_COST_CI95, LC_PF_COST_BASIS,
	LC_PF_PREDICTED, LC_PF_PREDICTED_PERCENT, LC_PF_PREDICTED_CI95_PERCENT,
	LC_PF_MEASURED, LC_PF_MEASURED_PERCENT, LC_PF_MEASURED_CI95_PERCENT,
	LC_PF_MEASURED_COST, LC_PF_EXPLAINED, LC_PF_AGREE, LC_PF_UNTRACED,
	LC_PF_THROUGHPUT, LC_PF_NR,
};

static const char *const lc_pr_fields[LC_PF_NR] = {
	"configuration", "status", "reason", "events_per_run", "events_lost",
	"cost_per_event_cycles", "cost_ci95_cycles", "cost_basis",
	"predicted_overhead_cycles", "predicted_overhead_percent",
	"predicted_ci95_percent", "measured_overhead_cycles",
	"measured_overhead_percent", "measured_ci95_percent",
	"measured_cost_per_event_cycles", "explained_fraction", "agree",
	"untraced_cpu_cycles", "throughput",
};

/* The same fields in JSON order: the strings first, agree last. */
static const size_t lc_pr_json_order[LC_PF_NR] = {
	LC_PF_CONFIGURATION, LC_PF_STATUS, LC_PF_REASON, LC_PF_COST_BASIS,
	LC_PF_EVENTS, LC_PF_LOST, LC_PF_COST, LC_PF_COST_CI95,
	LC_PF_PREDICTED, LC_PF_PREDICTED_PERCENT,
	LC_PF_PREDICTED_CI95_PERCENT, LC_PF_MEASURED, LC_PF_MEASURED_PERCENT,
	LC_PF_MEASURED_CI95_PERCENT, LC_PF_MEASURED_COST, LC_PF_EXPLAINED,
	LC_PF_UNTRACED, LC_PF_THROUGHPUT, LC_PF_AGREE,
};

/* A number to 10 significant digits, or null. */
static void lc_pr_number(struct lc_cell *cell, bool ok, double v)
{
	if (ok && isfinite(v))
		lc_cell_set(cell, LC_CELL_RAW, "%.10g", v);
	else
		lc_cell_set(cell, LC_CELL_NULL, "%s", "");
}

/* A row's fields, in CSV order; its figures only when it is ok. */
static void lc_pr_cells(const struct lc_predict *p,
			const struct lc_predict_row *row, struct lc_cell *c)
{
	bool ok = row->status == LC_BENCH_OK;
	struct lc_predict_fig f;

	memset(&f, 0, sizeof(f));
	if (ok)
		lc_predict_figures(p, row, &f);
	lc_cell_set(&c[LC_PF_CONFIGURATION], LC_CELL_STRING, "%s", row->name);
	lc_cell_set(&c[LC_PF_STATUS], LC_CELL_STRING, "%s",
		    lc_bench_status_name(row->status));
	lc_cell_set(&c[LC_PF_REASON], LC_CELL_STRING, "%s", row->reason);
	lc_cell_set(&c[LC_PF_COST_BASIS], LC_CELL_STRING, "%s",
		    row->cost_basis);
	lc_pr_number(&c[LC_PF_EVENTS], ok, f.events);
	lc_pr_number(&c[LC_PF_LOST], ok, f.lost);
	lc_pr_number(&c[LC_PF_COST], ok, row->cost_cycles);
	lc_pr_number(&c[LC_PF_COST_CI95], ok, row->cost_ci95);
	lc_pr_number(&c[LC_PF_PREDICTED], ok, f.predicted);
	lc_pr_number(&c[LC_PF_PREDICTED_PERCENT], ok,
		     lc_predict_percent(f.predicted, f.base));
	lc_pr_number(&c[LC_PF_PREDICTED_CI95_PERCENT], ok,
		     lc_predict_percent(f.predicted_ci95, f.base));
	lc_pr_number(&c[LC_PF_MEASURED], ok, f.measured);
	lc_pr_number(&c[LC_PF_MEASURED_PERCENT], ok,
		     lc_predict_percent(f.measured, f.base));
	lc_pr_number(&c[LC_PF_MEASURED_CI95_PERCENT], ok,
		     lc_predict_percent(f.measured_ci95, f.base));
	lc_pr_number(&c[LC_PF_MEASURED_COST], ok, f.measured_cost);
	lc_pr_number(&c[LC_PF_EXPLAINED], ok, f.explained);
	if (ok)
		lc_cell_set(&c[LC_PF_AGREE], LC_CELL_RAW, "%s",
			    f.agree ? "true" : "false");
	else
		lc_cell_set(&c[LC_PF_AGREE], LC_CELL_NULL, "%s", "");
	lc_pr_number(&c[LC_PF_UNTRACED], ok, f.base);
	lc_pr_number(&c[LC_PF_THROUGHPUT], ok, f.throughput);
}

/**
 * lc_predict_print_csv() - the rows as CSV, a header line first
 * @p: the prediction
 * @out: where to print
 *
 * The fields are those of a JSON row; a null is an empty field.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_csv(const struct lc_predict *p, FILE *out)
{
	struct lc_cell cells[LC_PF_NR];
	size_t i;

	lc_fmt_csv_header(out, lc_pr_fields, LC_PF_NR);
	for (i = 0; i < p->nr; i++) {
		lc_pr_cells(p, &p->rows[i], cells);
		lc_fmt_csv_row(out, cells, LC_PF_NR);
	}
	return ferror(out) ? -1 : 0;
}

/**
 * lc_predict_print_json() - the prediction as one JSON object
 * @p: the prediction
 * @out: where to print
 *
 * The schema is "lttng-calibrate-predict/1"; numbers that are not known
 * are null.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_json(const struct lc_predict *p, FILE *out)
{
	double base_ns = lc_predict_mean(p->base.cpu_ns, p->base.nr);
	struct lc_cell cells[LC_PF_NR];
	size_t i;

	fprintf(out, "{\n  \"format\": \"%s\",\n  \"kernel\": ", LC_PREDICT_FORMAT);
	lc_json_string(out, p->kernel, strlen(p->kernel));
	fputs(",\n  \"command\": ", out);
	lc_json_string(out, p->command, strlen(p->command));
	fprintf(out, ",\n  \"runs\": %zu,\n  \"clock\": ", p->base.nr);
	lc_json_string(out, p->clock, strlen(p->clock));
	fprintf(out, ",\n  \"clock_khz\": %lld,\n  \"cpu_time\": ", p->clock_khz);
	lc_json_string(out, p->cpu_time, strlen(p->cpu_time));
	fprintf(out, ",\n  \"scaled_to_throughput\": %s",
		p->per_work ? "true" : "false");
	fputs(",\n  \"untraced\": {", out);
	lc_json_number(out, "cpu_ns", base_ns, ", ");
	lc_json_number(out, "cpu_cycles", lc_predict_cycles(p, base_ns), ", ");
	lc_json_number(out, "throughput", lc_predict_base_throughput(p), "");
	fputs("},\n  \"rows\": [", out);
	for (i = 0; i < p->nr; i++) {
		lc_pr_cells(p, &p->rows[i], cells);
		lc_fmt_json_row(out, !i, lc_pr_fields, cells, lc_pr_json_order,
				LC_PF_NR);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

/* The table's columns: their heads and widths (negative: left aligned). */
static const char *const lc_pr_heads[] = {
	"configuration", "events/run", "lost/run", "cost/event", "predicted",
	"measured (95% CI)", "explained",
};
static const int lc_pr_widths[] = { -30, 12, 9, 10, 11, 21, 9 };
static_assert(ARRAY_SIZE(lc_pr_heads) == ARRAY_SIZE(lc_pr_widths),
	      "a width for every column");

/* A figure of the table, or "-". */
static void lc_pr_text(char *buf, size_t len, double v, const char *fmt)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

/* A row of the table: its figures, or its status and why. */
static void lc_pr_table_row(const struct lc_predict *p,
			    const struct lc_predict_row *row, FILE *out)
{
	char ev[32], lost[32], cost[32], pred[32], meas[48], expl[32];
	const char *cells[] = { row->name, ev, lost, cost, pred, meas, expl };
	char why[LC_BENCH_REASON_MAX + 16];
	struct lc_predict_fig f;

	if (row->status != LC_BENCH_OK) {
		static const int widths[] = { -30, 0 };
		const char *text[] = { row->name, why };

		snprintf(why, sizeof(why), "%s: %s",
			 lc_bench_status_name(row->status), row->reason);
		lc_fmt_table_row(out, widths, text, ARRAY_SIZE(text), NULL);
		return;
	}
	lc_predict_figures(p, row, &f);
	lc_pr_text(ev, sizeof(ev), f.events, "%.0f");
	lc_pr_text(lost, sizeof(lost), f.lost, "%.0f");
	lc_pr_text(cost, sizeof(cost), row->cost_cycles, "%.1f");
	lc_pr_text(pred, sizeof(pred), lc_predict_percent(f.predicted, f.base),
		   "%+.3f%%");
	if (isfinite(f.measured_ci95))
		snprintf(meas, sizeof(meas), "%+.3f%% +/- %.3f%%",
			 lc_predict_percent(f.measured, f.base),
			 lc_predict_percent(f.measured_ci95, f.base));
	else
		snprintf(meas, sizeof(meas), "-");
	lc_pr_text(expl, sizeof(expl), f.explained, "%.2f");
	lc_fmt_table_row(out, lc_pr_widths, cells, ARRAY_SIZE(cells),
			 f.agree ? "yes" : "no");
}

/**
 * lc_predict_print_table() - the prediction as aligned columns, for people
 * @p: the prediction
 * @out: where to print
 *
 * A header gives the kernel, the command, the runs, the clock and the
 * untraced CPU time; a row that is not ok gives its reason; a legend
 * follows.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_table(const struct lc_predict *p, FILE *out)
{
	double base_ns = lc_predict_mean(p->base.cpu_ns, p->base.nr);
	double tput = lc_predict_base_throughput(p);
	size_t i;

	fprintf(out, "kernel: %s\ncommand: %s\nruns: %zu each\nclock: %s (%lld kHz)\nCPU time: %s\n",
		p->kernel, p->command, p->base.nr, p->clock, p->clock_khz,
		p->cpu_time);
	fprintf(out, "untraced CPU time: %.3f ms per run (%.0f cycles)",
		base_ns / 1e6, lc_predict_cycles(p, base_ns));
	if (isfinite(tput))
		fprintf(out, ", throughput %.3f", tput);
	if (p->per_work)
		fputs("\nscaled to the untraced throughput: every run's CPU time and events are\n"
		      "those of the untraced runs' work (the command runs for a fixed time)",
		      out);
	fputs("\n\n", out);
	lc_fmt_table_row(out, lc_pr_widths, lc_pr_heads,
			 ARRAY_SIZE(lc_pr_heads), "agree");
	for (i = 0; i < p->nr; i++)
		lc_pr_table_row(p, &p->rows[i], out);
	fputs("\ncost/event: clock cycles, from lttng-calibrate bench on this kernel;\n"
	      "predicted: events x cost, in % of the untraced CPU time;\n"
	      "measured: traced minus untraced CPU time (Welch); explained: predicted / measured\n",
	      out);
	return ferror(out) ? -1 : 0;
}

/**
 * lc_predict_chart() - the chart's title, for rows added after
 * @b: the chart, emptied
 * @kernel: where predict ran
 * @command: the command
 * @runs: runs of each configuration
 * @clock: the module's clock
 */
void lc_predict_chart(struct lc_bench *b, const char *kernel,
		      const char *command, size_t runs, const char *clock)
{
	memset(b, 0, sizeof(*b));
	b->chart.title = "lttng-calibrate predict: what tracing costs the command";
	snprintf(b->chart.subtitle, sizeof(b->chart.subtitle),
		 "%.60s, %.60s, %zu runs each, clock %.20s", kernel, command,
		 runs, clock);
	b->chart.axis = "overhead, % of the untraced CPU time (error bars: 95% confidence interval)";
	b->chart.unit = "%";
	b->chart.decimals = 2;
}

/**
 * lc_predict_chart_row() - a configuration's bars on the chart
 * @b: the chart
 * @name: the configuration
 * @status: its status
 * @reason: why it is not ok
 * @v: when ok, its predicted overhead, that one's 95 % half-width, its
 *	measured overhead and that one's half-width, in percent of the
 *	untraced CPU time (a bar whose figures are not finite is not drawn)
 *
 * An ok row is two bars, predicted and measured; another is its reason.
 */
void lc_predict_chart_row(struct lc_bench *b, const char *name,
			  enum lc_bench_status status, const char *reason,
			  const double v[4])
{
	struct lc_bench_row *r;
	size_t k;

	if (status != LC_BENCH_OK) {
		r = lc_bench_add_row(b, name);
		if (r)
			lc_bench_row_set(r, status, "%s", reason);
		return;
	}
	for (k = 0; k < 2; k++) {
		char bar[LC_BENCH_NAME_MAX];

		snprintf(bar, sizeof(bar), "%.20s %s", name,
			 k ? "measured" : "predicted");
		r = lc_bench_add_row(b, bar);
		if (!r)
			return;
		r->measured = 1;
		r->overhead_cycles = v[2 * k];
		r->ci95_cycles = v[2 * k + 1];
		if (!isfinite(r->overhead_cycles) || !isfinite(r->ci95_cycles))
			r->measured = 0;
	}
}

/**
 * lc_predict_plot() - the chart: each configuration's predicted and
 * measured overhead, in percent of the untraced CPU time, with their 95 %
 * intervals, drawn by the bench's chart code
 * @p: the prediction
 * @out: where to write the SVG
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_plot(const struct lc_predict *p, FILE *out)
{
	static struct lc_bench b;
	struct lc_predict_fig f;
	double v[4] = { 0 };
	size_t i;

	lc_predict_chart(&b, p->kernel, p->command, p->base.nr, p->clock);
	for (i = 0; i < p->nr && b.nr + 2 <= LC_BENCH_MAX_ROWS; i++) {
		const struct lc_predict_row *row = &p->rows[i];

		if (row->status == LC_BENCH_OK) {
			lc_predict_figures(p, row, &f);
			v[0] = lc_predict_percent(f.predicted, f.base);
			v[1] = lc_predict_percent(f.predicted_ci95, f.base);
			v[2] = lc_predict_percent(f.measured, f.base);
			v[3] = lc_predict_percent(f.measured_ci95, f.base);
		}
		lc_predict_chart_row(&b, row->name, row->status, row->reason,
				     v);
	}
	return lc_bench_plot_svg(&b, out);
}
