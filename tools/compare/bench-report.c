// SPDX-License-Identifier: GPL-2.0
/*
 * Bench mode's report: a comparison (bench_compare()) as an LKP-like
 * table with ministat's verdicts, CSV (one row per mechanism and input)
 * or JSON.  Calls bench.c's metric names, report.h's helpers and the
 * output layer's writer (lib/output.h) only.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/output.h"
#include "bench.h"
#include "report.h"

/* "ok", ..., or "absent" for a mechanism the input does not have */
static const char *cell_status(const struct bench_cell *cell)
{
	return cell->row ? lc_bench_status_name(cell->row->status) : "absent";
}

static const char *cell_verdict(const struct bench_mechanism *mech, size_t i)
{
	const struct bench_cell *cell = &mech->cells[i];

	if (cell->tested)
		return cell->test.significant ? "difference" : "no difference";
	if (!i && mech->in_base && cell->row->status == LC_BENCH_OK)
		return "reference";
	return "none";
}

/*
 * "value ± ci" in 20 columns: the half width relative to the value, or
 * absolute (no '%') when the value is zero.
 */
static void text_value(FILE *out, const struct bench_cell *cell)
{
	const struct summary *s;
	char buf[32];
	double pct;

	if (!cell->row) {
		fprintf(out, "%20s", "-");
		return;
	}
	if (cell->row->status != LC_BENCH_OK) {
		fprintf(out, "%20s", lc_bench_status_name(cell->row->status));
		return;
	}
	s = &cell->row->sum;
	pct = percent_of(cell->halfwidth, s->mean);
	if (!s->mean)
		snprintf(buf, sizeof(buf), "%-6.3g", cell->halfwidth);
	else if (pct < 9.995)
		snprintf(buf, sizeof(buf), "%5.2f%%", pct);
	else if (pct < 99.95)
		snprintf(buf, sizeof(buf), "%5.1f%%", pct);
	else if (pct < 99999.5)
		snprintf(buf, sizeof(buf), "%5.0f%%", pct);
	else
		snprintf(buf, sizeof(buf), " >1e5%%");
	fprintf(out, "%11.2f \u00b1 %s", s->mean, buf);
}

static void text_change(FILE *out, const struct bench_cell *cell,
			const struct bench_cell *base)
{
	double pct;

	if (!cell->tested) {
		fprintf(out, "%11s", "");
		return;
	}
	pct = percent_of(cell->test.diff, base->row->sum.mean);
	if (isnan(pct))
		fprintf(out, "%+11.3g", cell->test.diff);
	else
		fprintf(out, "%+10.1f%%", pct);
}

static void text_header(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_file *f;
	size_t i;

	fprintf(out, "%s, %.1f%% confidence intervals (Student's t), Welch's "
		     "t-test against [1]\n",
		bench_metric_name(cmp->metric), cmp->confidence);
	for (i = 0; i < cmp->nfiles; i++) {
		f = &cmp->files[i];
		fprintf(out, "[%zu] %s: kernel %s, cpu %s, ", i + 1, f->path,
			f->kernel, *f->cpu_model ? f->cpu_model : "unknown");
		if (isnan(f->iterations))
			fputs("iterations unknown, ", out);
		else
			fprintf(out, "%.0f iterations, ", f->iterations);
		fprintf(out, "clock %s", *f->clock ? f->clock : "unknown");
		if (!isnan(f->clock_khz))
			fprintf(out, " (%.0f kHz)", f->clock_khz);
		fputs(i ? "\n" : " (base)\n", out);
	}
	if (cmp->cpu_differs || cmp->clock_differs)
		fprintf(out, "warning: the inputs differ in %s: they come from "
			     "different machines or clocks\n",
			cmp->cpu_differs && cmp->clock_differs ?
				"cpu_model and clock" :
			cmp->cpu_differs ? "cpu_model" : "clock");
	fputc('\n', out);
}

static void text_columns(FILE *out, const struct bench_comparison *cmp)
{
	char ci[16];
	size_t i;

	snprintf(ci, sizeof(ci), "%%ci%g", cmp->confidence);
	fprintf(out, "%20s", cmp->files[0].kernel);
	for (i = 1; i < cmp->nfiles; i++)
		fprintf(out, " %32s", cmp->files[i].kernel);
	fputs("\n--------------------", out);
	for (i = 1; i < cmp->nfiles; i++)
		fputs(" --------------------------------", out);
	fprintf(out, "\n%20s", ci);
	for (i = 1; i < cmp->nfiles; i++)
		fprintf(out, " %11s %20s", "%change", ci);
	fputc('\n', out);
}

static void text_table(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	size_t m, i;

	text_columns(out, cmp);
	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		text_value(out, &mech->cells[0]);
		for (i = 1; i < cmp->nfiles; i++) {
			fputc(' ', out);
			text_change(out, &mech->cells[i], &mech->cells[0]);
			fputc(' ', out);
			text_value(out, &mech->cells[i]);
		}
		fprintf(out, "  %s\n", mech->name);
	}
}

/* ministat's words: "Difference at 95.0% confidence: +d +/- e (+p% +/- q%)" */
static void text_test(FILE *out, double confidence, const struct welch *w,
		      double reference)
{
	if (!w->significant) {
		fprintf(out, "No difference proven at %.1f%% confidence\n",
			confidence);
	} else {
		fprintf(out, "Difference at %.1f%% confidence: ", confidence);
		print_difference(out, w, reference);
		fputc('\n', out);
	}
	fprintf(out, "\t\t(Welch's t = %.4g, df = %.4g, p ", w->t, w->df);
	if (w->p > 0 || w->diff == 0)
		fprintf(out, "= %.3g)\n", w->p);
	else
		fputs("< 1e-300)\n", out);
}

/* "absent", "unavailable (no CONFIG_FPROBE)", or "" for an ok row */
static void text_state(FILE *out, const struct bench_row *row)
{
	if (!row)
		fputs("absent", out);
	else if (row->status != LC_BENCH_OK)
		fprintf(out, "%s%s%s%s", lc_bench_status_name(row->status),
			*row->reason ? " (" : "", row->reason,
			*row->reason ? ")" : "");
}

static void text_verdicts(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	const struct bench_cell *cell;
	size_t m, i;

	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		fprintf(out, "%s:\n", mech->name);
		cell = &mech->cells[0];
		if (!cell->row || cell->row->status != LC_BENCH_OK) {
			fprintf(out, "\t[1] %s: ", cmp->files[0].kernel);
			text_state(out, cell->row);
			fputc('\n', out);
		}
		for (i = 1; i < cmp->nfiles; i++) {
			cell = &mech->cells[i];
			fprintf(out, "\t[%zu] %s: ", i + 1,
				cmp->files[i].kernel);
			if (cell->tested) {
				text_test(out, cmp->confidence, &cell->test,
					  mech->cells[0].row->sum.mean);
				continue;
			}
			text_state(out, cell->row);
			fprintf(out, "%sno verdict\n",
				cell->row && cell->row->status == LC_BENCH_OK ?
					"" :
					", ");
		}
	}
}

static void bench_text(FILE *out, const struct bench_comparison *cmp)
{
	text_header(out, cmp);
	text_table(out, cmp);
	fputc('\n', out);
	text_verdicts(out, cmp);
}

/* The CSV's fields: a row per mechanism and input. */
enum bench_csv_field {
	CSV_MECHANISM, CSV_INPUT, CSV_KERNEL, CSV_PATH, CSV_STATUS, CSV_REASON,
	CSV_MEAN, CSV_STDDEV, CSV_N, CSV_MEAN_HALFWIDTH, CSV_DIFFERENCE,
	CSV_HALFWIDTH, CSV_PERCENT, CSV_PERCENT_HALFWIDTH, CSV_T, CSV_DF,
	CSV_P, CSV_CONFIDENCE, CSV_VERDICT, CSV_NR_FIELDS,
};

static const char *const csv_fields[CSV_NR_FIELDS] = {
	"mechanism", "input", "kernel", "path", "status", "reason", "mean",
	"stddev", "n", "mean_halfwidth", "difference", "halfwidth", "percent",
	"percent_halfwidth", "t", "df", "p", "confidence", "verdict",
};

/* A number to ten significant digits, null when not known. */
static void csv_num(struct lc_cell *cell, bool known, double value)
{
	if (known && isfinite(value))
		lc_cell_set(cell, LC_CELL_RAW, "%.10g", value);
	else
		lc_cell_set(cell, LC_CELL_NULL, "%s", "");
}

static void csv_cell(FILE *out, const struct bench_comparison *cmp,
		     const struct bench_mechanism *mech, size_t i)
{
	const struct bench_cell *cell = &mech->cells[i];
	const struct welch *w = &cell->test;
	bool ok = cell->row && cell->row->status == LC_BENCH_OK;
	double ref = cell->tested ? mech->cells[0].row->sum.mean : NAN;
	struct lc_cell c[CSV_NR_FIELDS];

	lc_cell_ref(&c[CSV_MECHANISM], LC_CELL_QUOTED, mech->name);
	lc_cell_set(&c[CSV_INPUT], LC_CELL_RAW, "%zu", i + 1);
	lc_cell_ref(&c[CSV_KERNEL], LC_CELL_QUOTED, cmp->files[i].kernel);
	lc_cell_ref(&c[CSV_PATH], LC_CELL_QUOTED, cmp->files[i].path);
	lc_cell_ref(&c[CSV_STATUS], LC_CELL_RAW, cell_status(cell));
	lc_cell_ref(&c[CSV_REASON], LC_CELL_QUOTED,
		    cell->row ? cell->row->reason : "");
	csv_num(&c[CSV_MEAN], ok, ok ? cell->row->sum.mean : 0);
	csv_num(&c[CSV_STDDEV], ok, ok ? cell->row->sum.stddev : 0);
	if (ok)
		lc_cell_set(&c[CSV_N], LC_CELL_RAW, "%zu", cell->row->sum.n);
	else
		lc_cell_set(&c[CSV_N], LC_CELL_NULL, "%s", "");
	csv_num(&c[CSV_MEAN_HALFWIDTH], ok, cell->halfwidth);
	csv_num(&c[CSV_DIFFERENCE], cell->tested, w->diff);
	csv_num(&c[CSV_HALFWIDTH], cell->tested, w->halfwidth);
	csv_num(&c[CSV_PERCENT], cell->tested, percent_of(w->diff, ref));
	csv_num(&c[CSV_PERCENT_HALFWIDTH], cell->tested,
		percent_of(w->halfwidth, ref));
	csv_num(&c[CSV_T], cell->tested, w->t);
	csv_num(&c[CSV_DF], cell->tested, w->df);
	csv_num(&c[CSV_P], cell->tested, w->p);
	lc_cell_set(&c[CSV_CONFIDENCE], LC_CELL_RAW, "%g", cmp->confidence);
	lc_cell_ref(&c[CSV_VERDICT], LC_CELL_RAW, cell_verdict(mech, i));
	lc_fmt_csv_row(out, c, CSV_NR_FIELDS);
}

static void bench_csv(FILE *out, const struct bench_comparison *cmp)
{
	size_t m, i;

	lc_fmt_csv_header(out, csv_fields, CSV_NR_FIELDS);
	for (m = 0; m < cmp->nmechs; m++)
		for (i = 0; i < cmp->nfiles; i++)
			csv_cell(out, cmp, &cmp->mechs[m], i);
}

static void json_inputs(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_file *f;
	size_t i;

	fputs("\"inputs\": [\n", out);
	for (i = 0; i < cmp->nfiles; i++) {
		f = &cmp->files[i];
		fprintf(out, "  {\"input\": %zu, \"path\": ", i + 1);
		json_string(out, f->path);
		fputs(", \"kernel\": ", out);
		json_string(out, f->kernel);
		fputs(", \"cpu_model\": ", out);
		json_string(out, f->cpu_model);
		fputs(", \"clock\": ", out);
		json_string(out, f->clock);
		fputs(", ", out);
		json_number(out, "iterations", f->iterations, ", ");
		json_number(out, "clock_khz", f->clock_khz, "}");
		fputs(i + 1 < cmp->nfiles ? ",\n" : "\n", out);
	}
	fputs("], ", out);
}

static void json_cell(FILE *out, const struct bench_mechanism *mech,
		      size_t i, const char *sep)
{
	const struct bench_cell *cell = &mech->cells[i];
	const struct welch *w = &cell->test;
	int ok = cell->row && cell->row->status == LC_BENCH_OK;
	double ref = cell->tested ? mech->cells[0].row->sum.mean : NAN;

	fprintf(out, "    {\"input\": %zu, \"status\": \"%s\", \"reason\": ",
		i + 1, cell_status(cell));
	json_string(out, cell->row ? cell->row->reason : "");
	fputs(", ", out);
	json_number(out, "mean", ok ? cell->row->sum.mean : NAN, ", ");
	json_number(out, "stddev", ok ? cell->row->sum.stddev : NAN, ", ");
	json_number(out, "n", ok ? (double)cell->row->sum.n : NAN, ", ");
	json_number(out, "mean_halfwidth", cell->halfwidth, ", ");
	fputs("\"change\": ", out);
	if (cell->tested)
		json_welch(out, w, ref);
	else
		fputs("null", out);
	fprintf(out, ", \"verdict\": \"%s\"}%s\n", cell_verdict(mech, i), sep);
}

static void bench_json(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	size_t m, i;

	fprintf(out, "{\"mode\": \"bench\", \"metric\": \"%s\", "
		     "\"confidence\": %g, \"cpu_model_differs\": %s, "
		     "\"clock_differs\": %s, ",
		bench_metric_name(cmp->metric), cmp->confidence,
		cmp->cpu_differs ? "true" : "false",
		cmp->clock_differs ? "true" : "false");
	json_inputs(out, cmp);
	fputs("\"mechanisms\": [\n", out);
	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		fputs("  {\"mechanism\": ", out);
		json_string(out, mech->name);
		fprintf(out, ", \"in_base\": %s, \"results\": [\n",
			mech->in_base ? "true" : "false");
		for (i = 0; i < cmp->nfiles; i++)
			json_cell(out, mech, i, i + 1 < cmp->nfiles ? "," : "");
		fprintf(out, "  ]}%s\n", m + 1 < cmp->nmechs ? "," : "");
	}
	fputs("]}\n", out);
}

/**
 * bench_report() - print a comparison
 * @out:    where to print
 * @format: text (an LKP-like table, then ministat verdicts), CSV (one row
 *          per mechanism and input) or JSON
 * @cmp:    the outcome of bench_compare()
 */
void bench_report(FILE *out, enum lc_format format,
		  const struct bench_comparison *cmp)
{
	switch (format) {
	case LC_FORMAT_CSV:
		bench_csv(out, cmp);
		break;
	case LC_FORMAT_JSON:
		bench_json(out, cmp);
		break;
	default:
		bench_text(out, cmp);
	}
}
