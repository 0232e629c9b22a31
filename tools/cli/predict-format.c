// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate predict's output: its figures, computed once by the
 * model (lc_predict_report()), printed as a table, CSV and JSON
 * ("lttng-calibrate-predict/1") through the output layer's writer
 * (lib/output.h), and drawn as a bar chart by its SVG writer
 * (lib/svg.h).  Nothing here computes a figure or touches the kernel.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/output.h"
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
static void lc_pr_cells(const struct lc_predict_row *row,
			const struct lc_predict_shown *s, struct lc_cell *c)
{
	const struct lc_predict_fig *f = &s->fig;
	bool ok = s->ok;

	lc_cell_set(&c[LC_PF_CONFIGURATION], LC_CELL_STRING, "%s", row->name);
	lc_cell_set(&c[LC_PF_STATUS], LC_CELL_STRING, "%s",
		    lc_bench_status_name(row->status));
	lc_cell_set(&c[LC_PF_REASON], LC_CELL_STRING, "%s", row->reason);
	lc_cell_set(&c[LC_PF_COST_BASIS], LC_CELL_STRING, "%s",
		    row->cost_basis);
	lc_pr_number(&c[LC_PF_EVENTS], ok, f->events);
	lc_pr_number(&c[LC_PF_LOST], ok, f->lost);
	lc_pr_number(&c[LC_PF_COST], ok, row->cost_cycles);
	lc_pr_number(&c[LC_PF_COST_CI95], ok, row->cost_ci95);
	lc_pr_number(&c[LC_PF_PREDICTED], ok, f->predicted);
	lc_pr_number(&c[LC_PF_PREDICTED_PERCENT], ok, s->predicted_percent);
	lc_pr_number(&c[LC_PF_PREDICTED_CI95_PERCENT], ok,
		     s->predicted_ci95_percent);
	lc_pr_number(&c[LC_PF_MEASURED], ok, f->measured);
	lc_pr_number(&c[LC_PF_MEASURED_PERCENT], ok, s->measured_percent);
	lc_pr_number(&c[LC_PF_MEASURED_CI95_PERCENT], ok,
		     s->measured_ci95_percent);
	lc_pr_number(&c[LC_PF_MEASURED_COST], ok, f->measured_cost);
	lc_pr_number(&c[LC_PF_EXPLAINED], ok, f->explained);
	if (ok)
		lc_cell_set(&c[LC_PF_AGREE], LC_CELL_RAW, "%s",
			    f->agree ? "true" : "false");
	else
		lc_cell_set(&c[LC_PF_AGREE], LC_CELL_NULL, "%s", "");
	lc_pr_number(&c[LC_PF_UNTRACED], ok, f->base);
	lc_pr_number(&c[LC_PF_THROUGHPUT], ok, f->throughput);
}

/**
 * lc_predict_print_csv() - the rows as CSV, a header line first
 * @p: the prediction
 * @r: its figures (lc_predict_report())
 * @out: where to print
 *
 * The fields are those of a JSON row; a null is an empty field.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_csv(const struct lc_predict *p,
			 const struct lc_predict_report *r, FILE *out)
{
	struct lc_cell cells[LC_PF_NR];
	size_t i;

	lc_fmt_csv_header(out, lc_pr_fields, LC_PF_NR);
	for (i = 0; i < p->nr; i++) {
		lc_pr_cells(&p->rows[i], &r->rows[i], cells);
		lc_fmt_csv_row(out, cells, LC_PF_NR);
	}
	return ferror(out) ? -1 : 0;
}

/**
 * lc_predict_print_json() - the prediction as one JSON object
 * @p: the prediction
 * @r: its figures (lc_predict_report())
 * @out: where to print
 *
 * The schema is "lttng-calibrate-predict/1"; numbers that are not known
 * are null.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_json(const struct lc_predict *p,
			  const struct lc_predict_report *r, FILE *out)
{
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
	lc_json_number(out, "cpu_ns", r->base_ns, ", ");
	lc_json_number(out, "cpu_cycles", r->base_cycles, ", ");
	lc_json_number(out, "throughput", r->throughput, "");
	fputs("},\n  \"rows\": [", out);
	for (i = 0; i < p->nr; i++) {
		lc_pr_cells(&p->rows[i], &r->rows[i], cells);
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
static void lc_pr_table_row(const struct lc_predict_row *row,
			    const struct lc_predict_shown *s, FILE *out)
{
	char ev[32], lost[32], cost[32], pred[32], meas[48], expl[32];
	const char *cells[] = { row->name, ev, lost, cost, pred, meas, expl };
	const struct lc_predict_fig *f = &s->fig;
	char why[LC_BENCH_REASON_MAX + 16];

	if (!s->ok) {
		static const int widths[] = { -30, 0 };
		const char *text[] = { row->name, why };

		snprintf(why, sizeof(why), "%s: %s",
			 lc_bench_status_name(row->status), row->reason);
		lc_fmt_table_row(out, widths, text, ARRAY_SIZE(text), NULL);
		return;
	}
	lc_pr_text(ev, sizeof(ev), f->events, "%.0f");
	lc_pr_text(lost, sizeof(lost), f->lost, "%.0f");
	lc_pr_text(cost, sizeof(cost), row->cost_cycles, "%.1f");
	lc_pr_text(pred, sizeof(pred), s->predicted_percent, "%+.3f%%");
	if (isfinite(f->measured_ci95))
		snprintf(meas, sizeof(meas), "%+.3f%% +/- %.3f%%",
			 s->measured_percent, s->measured_ci95_percent);
	else
		snprintf(meas, sizeof(meas), "-");
	lc_pr_text(expl, sizeof(expl), f->explained, "%.2f");
	lc_fmt_table_row(out, lc_pr_widths, cells, ARRAY_SIZE(cells),
			 f->agree ? "yes" : "no");
}

/**
 * lc_predict_print_table() - the prediction as aligned columns, for people
 * @p: the prediction
 * @r: its figures (lc_predict_report())
 * @out: where to print
 *
 * A header gives the kernel, the command, the runs, the clock and the
 * untraced CPU time; a row that is not ok gives its reason; a legend
 * follows.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_print_table(const struct lc_predict *p,
			   const struct lc_predict_report *r, FILE *out)
{
	size_t i;

	fprintf(out, "kernel: %s\ncommand: %s\nruns: %zu each\nclock: %s (%lld kHz)\nCPU time: %s\n",
		p->kernel, p->command, p->base.nr, p->clock, p->clock_khz,
		p->cpu_time);
	fprintf(out, "untraced CPU time: %.3f ms per run (%.0f cycles)",
		r->base_ns / 1e6, r->base_cycles);
	if (isfinite(r->throughput))
		fprintf(out, ", throughput %.3f", r->throughput);
	if (p->per_work)
		fputs("\nscaled to the untraced throughput: every run's CPU time and events are\n"
		      "those of the untraced runs' work (the command runs for a fixed time)",
		      out);
	fputs("\n\n", out);
	lc_fmt_table_row(out, lc_pr_widths, lc_pr_heads,
			 ARRAY_SIZE(lc_pr_heads), "agree");
	for (i = 0; i < p->nr; i++)
		lc_pr_table_row(&p->rows[i], &r->rows[i], out);
	fputs("\ncost/event: clock cycles, from lttng-calibrate bench on this kernel;\n"
	      "predicted: events x cost, in % of the untraced CPU time;\n"
	      "measured: traced minus untraced CPU time (Welch); explained: predicted / measured\n",
	      out);
	return ferror(out) ? -1 : 0;
}

/**
 * lc_predict_chart() - the chart's title, for bars added after
 * @c: the chart, emptied
 * @kernel: where predict ran
 * @command: the command
 * @runs: runs of each configuration
 * @clock: the module's clock
 */
void lc_predict_chart(struct lc_svg_bars *c, const char *kernel,
		      const char *command, size_t runs, const char *clock)
{
	memset(c, 0, sizeof(*c));
	c->title = "lttng-calibrate predict: what tracing costs the command";
	snprintf(c->subtitle, sizeof(c->subtitle),
		 "%.60s, %.60s, %zu runs each, clock %.20s", kernel, command,
		 runs, clock);
	c->axis = "overhead, % of the untraced CPU time (error bars: 95% confidence interval)";
}

/* A bar, or what stands for it, of a configuration. */
static struct lc_svg_bar *lc_predict_bar(struct lc_svg_bars *c,
					 const char *label,
					 enum lc_bench_status status,
					 const char *reason)
{
	struct lc_svg_bar *bar;

	if (c->nr == LC_SVG_MAX_BARS)
		return NULL;
	bar = &c->bars[c->nr++];
	memset(bar, 0, sizeof(*bar));
	snprintf(bar->label, sizeof(bar->label), "%.*s",
		 LC_BENCH_NAME_MAX - 1, label);
	snprintf(bar->missing, sizeof(bar->missing), "%s: %.*s",
		 lc_bench_status_name(status), LC_BENCH_REASON_MAX - 1,
		 reason);
	return bar;
}

/**
 * lc_predict_chart_row() - a configuration's bars on the chart
 * @c: the chart
 * @name: the configuration
 * @status: its status
 * @reason: why it is not ok
 * @v: when ok, its predicted overhead, that one's 95 % half-width, its
 *	measured overhead and that one's half-width, in percent of the
 *	untraced CPU time (a bar whose figures are not finite is not drawn)
 *
 * An ok row is two bars, predicted and measured; another is its reason.
 */
void lc_predict_chart_row(struct lc_svg_bars *c, const char *name,
			  enum lc_bench_status status, const char *reason,
			  const double v[4])
{
	struct lc_svg_bar *bar;
	size_t k;

	if (status != LC_BENCH_OK) {
		lc_predict_bar(c, name, status, reason);
		return;
	}
	for (k = 0; k < 2; k++) {
		char label[LC_BENCH_NAME_MAX];

		snprintf(label, sizeof(label), "%.20s %s", name,
			 k ? "measured" : "predicted");
		bar = lc_predict_bar(c, label, status, "");
		if (!bar)
			return;
		bar->value = v[2 * k];
		bar->ci = v[2 * k + 1];
		if (!isfinite(bar->value) || !isfinite(bar->ci))
			continue;
		bar->drawn = true;
		bar->colour = LC_SVG_BAR_OK;
		snprintf(bar->figures, sizeof(bar->figures),
			 "%.2f%% \xc2\xb1 %.2f%%", bar->value, bar->ci);
		snprintf(bar->tip, sizeof(bar->tip), ": %.4f +/- %.4f%%",
			 bar->value, bar->ci);
	}
}

/**
 * lc_predict_plot() - the chart: each configuration's predicted and
 * measured overhead, in percent of the untraced CPU time, with their 95 %
 * intervals
 * @p: the prediction
 * @r: its figures (lc_predict_report())
 * @out: where to write the SVG
 *
 * Return: 0, or -1 on an output error.
 */
int lc_predict_plot(const struct lc_predict *p,
		    const struct lc_predict_report *r, FILE *out)
{
	static struct lc_svg_bars c;
	size_t i;

	lc_predict_chart(&c, p->kernel, p->command, p->base.nr, p->clock);
	for (i = 0; i < p->nr && c.nr + 2 <= LC_SVG_MAX_BARS; i++) {
		const struct lc_predict_shown *s = &r->rows[i];
		const double v[4] = {
			s->predicted_percent, s->predicted_ci95_percent,
			s->measured_percent, s->measured_ci95_percent,
		};

		lc_predict_chart_row(&c, p->rows[i].name, p->rows[i].status,
				     p->rows[i].reason, v);
	}
	return lc_svg_plot_bars(out, &c);
}
