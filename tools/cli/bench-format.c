// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's rows printed (bench-format.h): a table, CSV and JSON
 * ("lttng-calibrate-bench/1") through the output layer's writer
 * (lib/output.h), the fields of lib/bench-schema.h, and a bar chart
 * through its SVG writer (lib/svg.h).  Nothing here touches the kernel.
 */
#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/output.h"
#include "../lib/svg.h"
#include "bench-format.h"

/*
 * A numeric field as text; "" when it is null (a row not measured, no
 * kprobe row to compare with, a count that was not taken).
 */
static void lc_bench_number(const struct lc_bench_row *row, int field,
			    char *buf, size_t len)
{
	const double value[LC_BENCH_NR_FIELDS] = {
		[LC_BENCH_F_OVERHEAD_CYCLES] = row->overhead_cycles,
		[LC_BENCH_F_CI95_CYCLES] = row->ci95_cycles,
		[LC_BENCH_F_STDDEV_CYCLES] = row->stddev_cycles,
		[LC_BENCH_F_OVERHEAD_NS] = row->overhead_ns,
		[LC_BENCH_F_CI95_NS] = row->ci95_ns,
		[LC_BENCH_F_PER_KPROBE] = row->per_kprobe,
	};
	const long long count[LC_BENCH_NR_FIELDS] = {
		[LC_BENCH_F_MEDIAN_CYCLES] = row->median_cycles,
		[LC_BENCH_F_SAMPLES] = row->samples,
		[LC_BENCH_F_EVENTS_EXPECTED] = row->events_expected,
		[LC_BENCH_F_EVENTS_RECORDED] = row->events_recorded,
	};
	bool events = field == LC_BENCH_F_EVENTS_EXPECTED ||
		      field == LC_BENCH_F_EVENTS_RECORDED;
	bool integer = events || field == LC_BENCH_F_MEDIAN_CYCLES ||
		       field == LC_BENCH_F_SAMPLES;
	bool known = row->measured;

	/* A count is taken whether or not the row was measured. */
	if (events)
		known = count[field] >= 0;
	else if (field == LC_BENCH_F_PER_KPROBE)
		known = row->has_per_kprobe;
	if (!known)
		buf[0] = '\0';
	else if (integer)
		snprintf(buf, len, "%lld", count[field]);
	else
		snprintf(buf, len, "%.3f", value[field]);
}

/* A row's fields, in the order of lc_bench_field_names[]. */
static void lc_bench_cells(const struct lc_bench_row *row,
			   struct lc_cell *cells)
{
	int f;

	lc_cell_set(&cells[LC_BENCH_F_MECHANISM], LC_CELL_STRING, "%s",
		    row->mechanism);
	lc_cell_set(&cells[LC_BENCH_F_STATUS], LC_CELL_STRING, "%s",
		    lc_bench_status_name(row->status));
	lc_cell_set(&cells[LC_BENCH_F_REASON], LC_CELL_STRING, "%s", row->reason);
	for (f = LC_BENCH_F_OVERHEAD_CYCLES; f < LC_BENCH_NR_FIELDS; f++) {
		lc_bench_number(row, f, cells[f].text, sizeof(cells[f].text));
		cells[f].kind = cells[f].text[0] ? LC_CELL_RAW : LC_CELL_NULL;
		cells[f].ref = NULL;
	}
}

/**
 * lc_bench_print_json() - the bench as one JSON object
 * @b: the bench
 * @out: where to print
 *
 * The schema is "lttng-calibrate-bench/1"; numbers that are not known are
 * null.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_bench_print_json(const struct lc_bench *b, FILE *out)
{
	struct lc_cell cells[LC_BENCH_NR_FIELDS];
	size_t i;

	fputs("{\n  \"format\": \"" LC_BENCH_FORMAT "\",\n  \"kernel\": ", out);
	lc_json_string(out, b->kernel, strlen(b->kernel));
	fputs(",\n  \"cpu_model\": ", out);
	lc_json_string(out, b->cpu_model, strlen(b->cpu_model));
	fprintf(out, ",\n  \"iterations\": %llu,\n  \"clock\": ", b->iterations);
	lc_json_string(out, b->clock, strlen(b->clock));
	if (b->clock_khz >= 0)
		fprintf(out, ",\n  \"clock_khz\": %lld", b->clock_khz);
	else
		fputs(",\n  \"clock_khz\": null", out);
	fputs(",\n  \"rows\": [", out);
	for (i = 0; i < b->nr; i++) {
		lc_bench_cells(&b->rows[i], cells);
		lc_fmt_json_row(out, !i, lc_bench_field_names, cells, NULL, LC_BENCH_NR_FIELDS);
	}
	fputs(b->nr ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

/**
 * lc_bench_print_csv() - the rows as CSV, a header line first
 * @b: the bench
 * @out: where to print
 *
 * The fields are those of a JSON row, in the same order; a null is an
 * empty field.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_bench_print_csv(const struct lc_bench *b, FILE *out)
{
	struct lc_cell cells[LC_BENCH_NR_FIELDS];
	size_t i;

	lc_fmt_csv_header(out, lc_bench_field_names, LC_BENCH_NR_FIELDS);
	for (i = 0; i < b->nr; i++) {
		lc_bench_cells(&b->rows[i], cells);
		lc_fmt_csv_row(out, cells, LC_BENCH_NR_FIELDS);
	}
	return ferror(out) ? -1 : 0;
}

/* "VALUE +/- CI" of a measured row, or "-". */
static void lc_bench_pm(char *buf, size_t len, const struct lc_bench_row *row,
			double value, double ci)
{
	if (row->measured)
		snprintf(buf, len, "%.3f +/- %.3f", value, ci);
	else
		snprintf(buf, len, "-");
}

/* The table's columns: their heads and widths (negative: left aligned). */
static const char *const lc_bench_heads[] = {
	"mechanism", "status", "cycles/call (95%)", "ns/call (95%)", "median",
	"/kprobe", "expected", "recorded",
};
static const int lc_bench_widths[] = { -24, -11, 26, 24, 8, 8, 10, 10 };
static_assert(ARRAY_SIZE(lc_bench_heads) == ARRAY_SIZE(lc_bench_widths),
	      "a width for every column");

/* "-" for a null field of the table. */
static void lc_bench_dash(char *buf)
{
	if (!*buf)
		strcpy(buf, "-");
}

/**
 * lc_bench_print_table() - the rows as aligned columns, for people
 * @b: the bench
 * @out: where to print
 *
 * A header gives the kernel, the CPU, the iterations and the clock; a row
 * that is not ok ends with its reason.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_bench_print_table(const struct lc_bench *b, FILE *out)
{
	size_t i;

	fprintf(out, "# kernel %s; CPU %s\n", b->kernel, b->cpu_model);
	fprintf(out, "# %llu iterations per row; clock %s", b->iterations,
		b->clock);
	if (b->clock_khz >= 0)
		fprintf(out, " at %lld kHz", b->clock_khz);
	fputs("; overhead = target minus its never-instrumented twin, per call\n",
	      out);
	lc_fmt_table_row(out, lc_bench_widths, lc_bench_heads,
			 ARRAY_SIZE(lc_bench_heads), NULL);
	for (i = 0; i < b->nr; i++) {
		const struct lc_bench_row *row = &b->rows[i];
		char cyc[64], ns[64], median[32], ratio[32], exp[32], rec[32];
		const char *cells[] = {
			row->mechanism, lc_bench_status_name(row->status), cyc,
			ns, median, ratio, exp, rec,
		};

		lc_bench_pm(cyc, sizeof(cyc), row, row->overhead_cycles,
			    row->ci95_cycles);
		lc_bench_pm(ns, sizeof(ns), row, row->overhead_ns,
			    row->ci95_ns);
		lc_bench_number(row, LC_BENCH_F_MEDIAN_CYCLES, median,
				sizeof(median));
		lc_bench_number(row, LC_BENCH_F_PER_KPROBE, ratio, sizeof(ratio));
		if (row->has_per_kprobe)
			snprintf(ratio, sizeof(ratio), "%.2f", row->per_kprobe);
		lc_bench_number(row, LC_BENCH_F_EVENTS_EXPECTED, exp, sizeof(exp));
		lc_bench_number(row, LC_BENCH_F_EVENTS_RECORDED, rec, sizeof(rec));
		lc_bench_dash(median);
		lc_bench_dash(ratio);
		lc_bench_dash(exp);
		lc_bench_dash(rec);
		lc_fmt_table_row(out, lc_bench_widths, cells,
				 ARRAY_SIZE(cells), row->reason);
	}
	return ferror(out) ? -1 : 0;
}

#define LC_BENCH_CHART_TITLE \
	"lttng-calibrate bench: overhead per call of each mechanism"
#define LC_BENCH_CHART_AXIS \
	"overhead per call, clock cycles (error bars: 95% confidence interval)"

/**
 * lc_bench_chart_colour() - a bar's colour, by its row's status
 * @status: the row's
 *
 * Return: ok blue, lost orange, anything else red.
 */
enum lc_svg_colour lc_bench_chart_colour(enum lc_bench_status status)
{
	if (status == LC_BENCH_OK)
		return LC_SVG_BAR_OK;
	return status == LC_BENCH_LOST ? LC_SVG_BAR_WARN : LC_SVG_BAR_BAD;
}

/* A row's bar: its overhead in cycles, the figures right of it. */
static void lc_bench_chart_bar(const struct lc_bench_row *row,
			       struct lc_svg_bar *bar)
{
	size_t n;

	memset(bar, 0, sizeof(*bar));
	snprintf(bar->label, sizeof(bar->label), "%s", row->mechanism);
	if (!row->measured) {
		snprintf(bar->missing, sizeof(bar->missing), "%s: %s",
			 lc_bench_status_name(row->status), row->reason);
		return;
	}
	bar->drawn = true;
	bar->colour = lc_bench_chart_colour(row->status);
	bar->value = row->overhead_cycles;
	bar->ci = row->ci95_cycles;
	snprintf(bar->figures, sizeof(bar->figures), "%.1f \xc2\xb1 %.1f",
		 row->overhead_cycles, row->ci95_cycles);
	n = strlen(bar->figures);
	if (row->has_per_kprobe)
		snprintf(bar->figures + n, sizeof(bar->figures) - n,
			 " (%.2f kp)", row->per_kprobe);
	n = strlen(bar->figures);
	if (row->status != LC_BENCH_OK)
		snprintf(bar->figures + n, sizeof(bar->figures) - n, " %s",
			 lc_bench_status_name(row->status));
	snprintf(bar->tip, sizeof(bar->tip),
		 ": %.3f +/- %.3f cycles, %.3f +/- %.3f ns, median %lld",
		 row->overhead_cycles, row->ci95_cycles, row->overhead_ns,
		 row->ci95_ns, row->median_cycles);
}

/**
 * lc_bench_plot_svg() - a horizontal bar chart of the rows, in SVG
 * @b: the bench
 * @out: where to print
 *
 * One labelled bar per measured row (its overhead in cycles, with the 95 %
 * interval as an error bar and the figures at the right), the rows that
 * were not measured listed with their reason, a scale with round ticks,
 * and a title naming the kernel, the CPU and the iterations.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_bench_plot_svg(const struct lc_bench *b, FILE *out)
{
	static struct lc_svg_bars chart;
	size_t i;

	memset(&chart, 0, sizeof(chart));
	chart.title = LC_BENCH_CHART_TITLE;
	chart.axis = LC_BENCH_CHART_AXIS;
	snprintf(chart.subtitle, sizeof(chart.subtitle),
		 "%s, %s, %llu iterations per row, clock %s", b->kernel,
		 b->cpu_model, b->iterations, b->clock);
	for (i = 0; i < b->nr && i < LC_SVG_MAX_BARS; i++)
		lc_bench_chart_bar(&b->rows[i], &chart.bars[chart.nr++]);
	return lc_svg_plot_bars(out, &chart);
}
