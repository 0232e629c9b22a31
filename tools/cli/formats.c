// SPDX-License-Identifier: GPL-2.0
/*
 * The rows' formats: the bench's rows as a table, CSV, JSON
 * ("lttng-calibrate-bench/1") and a hand-written SVG bar chart, and the
 * key=value form they can be recorded in and read back from.  Nothing here
 * touches the kernel.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lc.h"
#include "formats.h"

#define LC_SVG_PLOT		580	/* the bars, between the two columns */
#define LC_SVG_PAD		8	/* between a text and what it faces */
#define LC_SVG_MARGIN		10	/* around everything */
#define LC_SVG_FONT		12
#define LC_SVG_TITLE_FONT	15
#define LC_SVG_ROW		26
#define LC_SVG_TOP		70
#define LC_SVG_BAR		16
/* The longest line: the subtitle (kernel, CPU, clock) or a reason. */
#define LC_SVG_TEXT_MAX		(2 * LC_BENCH_TEXT_MAX + LC_BENCH_NAME_MAX + \
				 LC_BENCH_REASON_MAX + 64)

static const char *const lc_bench_status_names[] = {
	[LC_BENCH_OK] = "ok",
	[LC_BENCH_LOST] = "lost",
	[LC_BENCH_UNAVAILABLE] = "unavailable",
	[LC_BENCH_FAILED] = "failed",
};

/**
 * lc_bench_status_name() - the name of a status in every output
 * @status: the status
 *
 * Return: "ok", "lost", "unavailable" or "failed".
 */
const char *lc_bench_status_name(enum lc_bench_status status)
{
	return lc_bench_status_names[status];
}

/**
 * lc_bench_add_row() - append a row, not measured, status ok
 * @b: the bench
 * @name: the mechanism
 *
 * Return: the row, or NULL when @b is full.
 */
struct lc_bench_row *lc_bench_add_row(struct lc_bench *b, const char *name)
{
	struct lc_bench_row *row;

	if (b->nr == LC_BENCH_MAX_ROWS)
		return NULL;
	row = &b->rows[b->nr++];
	memset(row, 0, sizeof(*row));
	snprintf(row->mechanism, sizeof(row->mechanism), "%s", name);
	row->status = LC_BENCH_OK;
	row->events_expected = -1;
	row->events_recorded = -1;
	return row;
}

/**
 * lc_bench_row_set() - a row's status, and why
 * @row: the row
 * @status: how it ended
 * @fmt: printf format of the reason ("" for none)
 *
 * Return: -1, for "return lc_bench_row_set(...);" where a row fails.
 */
int lc_bench_row_set(struct lc_bench_row *row, enum lc_bench_status status,
		     const char *fmt, ...)
{
	va_list ap;

	row->status = status;
	va_start(ap, fmt);
	vsnprintf(row->reason, sizeof(row->reason), fmt, ap);
	va_end(ap);
	return -1;
}

/**
 * lc_bench_set_ratios() - per_kprobe of every measured row
 * @b: the bench
 *
 * The ratio is to the module's kprobe row, when that row was measured with
 * a positive overhead; otherwise no row has one.
 */
void lc_bench_set_ratios(struct lc_bench *b)
{
	double kprobe = 0;
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (!strcmp(b->rows[i].mechanism, "kprobe") &&
		    b->rows[i].measured)
			kprobe = b->rows[i].overhead_cycles;
	for (i = 0; i < b->nr; i++) {
		struct lc_bench_row *row = &b->rows[i];

		row->has_per_kprobe = row->measured && kprobe > 0;
		row->per_kprobe = row->has_per_kprobe ?
				  row->overhead_cycles / kprobe : 0;
	}
}

/* XML text or attribute value. */
static void lc_bench_xml_string(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c < 0x20)
			fputc(' ', out);
		else
			fputc(c, out);
	}
}

/* The writer: rows of fields as a table, CSV or JSON, for both commands */

/**
 * lc_cell_set() - a field's text, from a printf format
 * @cell: the field
 * @kind: how it is written (LC_CELL_NULL ignores @fmt)
 * @fmt: printf format of its text
 */
void lc_cell_set(struct lc_cell *cell, enum lc_cell_kind kind,
		 const char *fmt, ...)
{
	va_list ap;

	cell->kind = kind;
	cell->text[0] = '\0';
	if (kind == LC_CELL_NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(cell->text, sizeof(cell->text), fmt, ap);
	va_end(ap);
}

/**
 * lc_fmt_table_row() - one line of aligned columns
 * @out: where to print
 * @widths: each column's width, as printf's field width (negative: left
 *	aligned; 0: as long as its text)
 * @cells: each column's text
 * @n: how many columns
 * @tail: after the columns and two spaces, or nothing when NULL or ""
 *
 * The columns are separated by one space; the line ends with a newline.
 */
void lc_fmt_table_row(FILE *out, const int *widths, const char *const *cells,
		      size_t n, const char *tail)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%*s", i ? " " : "", widths[i], cells[i]);
	if (tail && *tail)
		fprintf(out, "  %s", tail);
	fputc('\n', out);
}

/**
 * lc_fmt_csv_header() - the header line of a CSV
 * @out: where to print
 * @names: the fields' names
 * @n: how many
 */
void lc_fmt_csv_header(FILE *out, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "," : "", names[i]);
	fputc('\n', out);
}

/**
 * lc_fmt_csv_row() - one line of a CSV
 * @out: where to print
 * @cells: the fields, in the header's order
 * @n: how many
 *
 * A string is quoted when it must be (RFC 4180), a null is empty, a
 * number or a literal is written as it is.
 */
void lc_fmt_csv_row(FILE *out, const struct lc_cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		if (cells[i].kind == LC_CELL_STRING)
			lc_csv_field(out, cells[i].text,
				     strlen(cells[i].text));
		else
			fputs(cells[i].text, out);
	}
	fputc('\n', out);
}

/**
 * lc_fmt_json_row() - one object of a JSON array of rows, on a line
 * @out: where to print
 * @first: it is the array's first (no comma before it)
 * @names: the fields' names
 * @cells: the fields
 * @order: the fields, by index into @names and @cells, in the order the
 *	object lists them; NULL for their own order
 * @n: how many
 *
 * "\n    {"NAME": VALUE, ...}" after a comma unless @first: a string is a
 * JSON string, a null null, a number or a literal written as it is.
 */
void lc_fmt_json_row(FILE *out, bool first, const char *const *names,
		     const struct lc_cell *cells, const size_t *order,
		     size_t n)
{
	size_t i;

	fputs(first ? "\n    {" : ",\n    {", out);
	for (i = 0; i < n; i++) {
		const struct lc_cell *c = &cells[order ? order[i] : i];

		fprintf(out, "%s\"%s\": ", i ? ", " : "",
			names[order ? order[i] : i]);
		if (c->kind == LC_CELL_STRING)
			lc_json_string(out, c->text, strlen(c->text));
		else
			fputs(c->kind == LC_CELL_NULL ? "null" : c->text, out);
	}
	fputc('}', out);
}

/* The fields of a row, in JSON and CSV order. */
enum lc_bench_field {
	LC_F_MECHANISM, LC_F_STATUS, LC_F_REASON, LC_F_OVERHEAD_CYCLES,
	LC_F_CI95_CYCLES, LC_F_STDDEV_CYCLES, LC_F_OVERHEAD_NS, LC_F_CI95_NS,
	LC_F_MEDIAN_CYCLES, LC_F_SAMPLES, LC_F_PER_KPROBE,
	LC_F_EVENTS_EXPECTED, LC_F_EVENTS_RECORDED, LC_F_NR,
};

static const char *const lc_bench_fields[LC_F_NR] = {
	"mechanism", "status", "reason", "overhead_cycles", "ci95_cycles",
	"stddev_cycles", "overhead_ns", "ci95_ns", "median_cycles",
	"samples", "per_kprobe", "events_expected", "events_recorded",
};

/*
 * A numeric field as text; "" when it is null (a row not measured, no
 * kprobe row to compare with, a count that was not taken).
 */
static void lc_bench_number(const struct lc_bench_row *row, int field,
			    char *buf, size_t len)
{
	double d = 0;
	long long n = -1;
	int is_double = 1;

	switch (field) {
	case LC_F_OVERHEAD_CYCLES:
		d = row->overhead_cycles;
		break;
	case LC_F_CI95_CYCLES:
		d = row->ci95_cycles;
		break;
	case LC_F_STDDEV_CYCLES:
		d = row->stddev_cycles;
		break;
	case LC_F_OVERHEAD_NS:
		d = row->overhead_ns;
		break;
	case LC_F_CI95_NS:
		d = row->ci95_ns;
		break;
	case LC_F_PER_KPROBE:
		if (!row->has_per_kprobe) {
			buf[0] = '\0';
			return;
		}
		d = row->per_kprobe;
		break;
	case LC_F_MEDIAN_CYCLES:
		is_double = 0;
		n = row->median_cycles;
		break;
	case LC_F_SAMPLES:
		is_double = 0;
		n = row->samples;
		break;
	case LC_F_EVENTS_EXPECTED:
		snprintf(buf, len, "%lld", row->events_expected);
		if (row->events_expected < 0)
			buf[0] = '\0';
		return;
	case LC_F_EVENTS_RECORDED:
		snprintf(buf, len, "%lld", row->events_recorded);
		if (row->events_recorded < 0)
			buf[0] = '\0';
		return;
	}
	if (!row->measured)
		buf[0] = '\0';
	else if (is_double)
		snprintf(buf, len, "%.3f", d);
	else
		snprintf(buf, len, "%lld", n);
}

/* A row's fields, in the order of lc_bench_fields[]. */
static void lc_bench_cells(const struct lc_bench_row *row,
			   struct lc_cell *cells)
{
	int f;

	lc_cell_set(&cells[LC_F_MECHANISM], LC_CELL_STRING, "%s",
		    row->mechanism);
	lc_cell_set(&cells[LC_F_STATUS], LC_CELL_STRING, "%s",
		    lc_bench_status_name(row->status));
	lc_cell_set(&cells[LC_F_REASON], LC_CELL_STRING, "%s", row->reason);
	for (f = LC_F_OVERHEAD_CYCLES; f < LC_F_NR; f++) {
		lc_bench_number(row, f, cells[f].text, sizeof(cells[f].text));
		cells[f].kind = cells[f].text[0] ? LC_CELL_RAW : LC_CELL_NULL;
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
	struct lc_cell cells[LC_F_NR];
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
		lc_fmt_json_row(out, !i, lc_bench_fields, cells, NULL, LC_F_NR);
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
	struct lc_cell cells[LC_F_NR];
	size_t i;

	lc_fmt_csv_header(out, lc_bench_fields, LC_F_NR);
	for (i = 0; i < b->nr; i++) {
		lc_bench_cells(&b->rows[i], cells);
		lc_fmt_csv_row(out, cells, LC_F_NR);
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
		lc_bench_number(row, LC_F_MEDIAN_CYCLES, median,
				sizeof(median));
		lc_bench_number(row, LC_F_PER_KPROBE, ratio, sizeof(ratio));
		if (row->has_per_kprobe)
			snprintf(ratio, sizeof(ratio), "%.2f", row->per_kprobe);
		lc_bench_number(row, LC_F_EVENTS_EXPECTED, exp, sizeof(exp));
		lc_bench_number(row, LC_F_EVENTS_RECORDED, rec, sizeof(rec));
		lc_bench_dash(median);
		lc_bench_dash(ratio);
		lc_bench_dash(exp);
		lc_bench_dash(rec);
		lc_fmt_table_row(out, lc_bench_widths, cells,
				 ARRAY_SIZE(cells), row->reason);
	}
	return ferror(out) ? -1 : 0;
}

/* A round step for about @ticks ticks over @span: 1, 2 or 5 times 10^k. */
static double lc_bench_tick_step(double span, int ticks)
{
	double raw = span / ticks;
	double mag = pow(10, floor(log10(raw)));

	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	if (raw <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

/**
 * struct lc_svg - the chart's layout
 * @label: width of the mechanisms' column, left of the bars
 * @value: width of the figures' column, right of the bars
 * @width: width of the whole chart
 * @lo: the value at the bars' left end
 * @hi: the value at their right end
 */
struct lc_svg {
	int label;
	int value;
	int width;
	double lo;
	double hi;
};

/*
 * Advance widths of DejaVu Sans, the widest usual sans-serif, in 1/1000
 * of the font size, for ' ' to '~'; tests/bench-check.py holds the same.
 */
static const unsigned short lc_svg_dejavu[] = {
	 318,  401,  460,  838,  636,  950,  780,  275,	/*  !"#$%&' */
	 390,  390,  500,  838,  318,  361,  318,  337,	/* ()*+,-./ */
	 636,  636,  636,  636,  636,  636,  636,  636,	/* 01234567 */
	 636,  636,  337,  337,  838,  838,  838,  531,	/* 89:;<=>? */
	1000,  684,  686,  698,  770,  632,  575,  775,	/* @ABCDEFG */
	 752,  295,  295,  656,  557,  863,  748,  787,	/* HIJKLMNO */
	 603,  787,  695,  635,  611,  732,  684,  989,	/* PQRSTUVW */
	 685,  611,  685,  390,  337,  390,  838,  500,	/* XYZ[\]^_ */
	 500,  613,  635,  550,  635,  615,  352,  635,	/* `abcdefg */
	 634,  278,  278,  579,  278,  974,  634,  612,	/* hijklmno */
	 635,  635,  411,  521,  392,  634,  592,  818,	/* pqrstuvw */
	 592,  592,  525,  636,  337,  636,  838,	/* xyz{|}~ */
};
static_assert(ARRAY_SIZE(lc_svg_dejavu) == '~' - ' ' + 1,
	      "a width for every printable ASCII character");

/*
 * How wide a text may be drawn, in pixels, at most: DejaVu Sans' widths
 * (any other character as wide as the font size), bold a tenth wider,
 * and all of it a fifth wider again.  A viewer draws the chart in a font
 * of its own choosing, whose letters may be wider than DejaVu's: the
 * columns and the chart are sized for that, and a reason is shortened to
 * what is left beside the bars.
 */
static int lc_svg_text_width(const char *s, int size, int bold)
{
	long units = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if ((c & 0xc0) == 0x80)
			continue;		/* inside a UTF-8 sequence */
		if (c >= ' ' && c <= '~')
			units += lc_svg_dejavu[c - ' '];
		else
			units += 1000;
	}
	if (bold)
		units = (units * 11 + 9) / 10;
	return (int)((units * size * 6 + 4999) / 5000);
}

/*
 * @text shortened, at a space, with " ..." after it, until it is no wider
 * than @avail pixels; @len is its buffer's size.
 */
static void lc_svg_fit(char *text, size_t len, int avail)
{
	size_t n = strlen(text);

	if (lc_svg_text_width(text, LC_SVG_FONT, 0) <= avail)
		return;
	while (n > 0) {
		while (n > 0 && text[n - 1] != ' ')
			n--;
		if (n == 0)
			break;
		n--;
		snprintf(text + n, len - n, " ...");
		if (lc_svg_text_width(text, LC_SVG_FONT, 0) <= avail)
			return;
	}
	snprintf(text, len, "...");
}

/* The figures right of a row's bar: "MEAN ± CI (R kp) STATUS". */
static void lc_svg_value(const struct lc_bench *b,
			 const struct lc_bench_row *row, char *buf, size_t len)
{
	int d = b->chart.title ? b->chart.decimals : 1;
	const char *unit = b->chart.title && b->chart.unit ? b->chart.unit : "";
	size_t n;

	snprintf(buf, len, "%.*f%s \xc2\xb1 %.*f%s", d, row->overhead_cycles,
		 unit, d, row->ci95_cycles, unit);
	n = strlen(buf);
	if (row->has_per_kprobe)
		snprintf(buf + n, len - n, " (%.2f kp)", row->per_kprobe);
	n = strlen(buf);
	if (row->status != LC_BENCH_OK)
		snprintf(buf + n, len - n, " %s",
			 lc_bench_status_name(row->status));
}

/* What stands instead of the bar of a row not measured. */
static void lc_svg_missing(const struct lc_bench_row *row, char *buf,
			   size_t len)
{
	snprintf(buf, len, "%s: %s", lc_bench_status_name(row->status),
		 row->reason);
}

/* The plot's x coordinate of a value. */
static double lc_bench_x(const struct lc_svg *svg, double v)
{
	return svg->label + (v - svg->lo) / (svg->hi - svg->lo) * LC_SVG_PLOT;
}

/* The title's second line: where the bench ran. */
static void lc_svg_subtitle(const struct lc_bench *b, char *buf, size_t len)
{
	if (b->chart.title) {
		snprintf(buf, len, "%s", b->chart.subtitle);
		return;
	}
	snprintf(buf, len, "%s, %s, %llu iterations per row, clock %s",
		 b->kernel, b->cpu_model, b->iterations, b->clock);
}

#define LC_SVG_TITLE	"lttng-calibrate bench: overhead per call of each mechanism"
#define LC_SVG_AXIS	"overhead per call, clock cycles (error bars: 95% confidence interval)"

static const char *lc_svg_title(const struct lc_bench *b)
{
	return b->chart.title ? b->chart.title : LC_SVG_TITLE;
}

static const char *lc_svg_axis(const struct lc_bench *b)
{
	return b->chart.title && b->chart.axis ? b->chart.axis : LC_SVG_AXIS;
}

/*
 * The scale, from the rows' figures; the columns, as wide as their
 * longest text; the chart, as wide as its columns and its widest line.
 */
static void lc_svg_layout(const struct lc_bench *b, struct lc_svg *svg)
{
	char text[LC_SVG_TEXT_MAX];
	int need, w;
	size_t i;

	memset(svg, 0, sizeof(*svg));
	for (i = 0; i < b->nr; i++) {
		const struct lc_bench_row *row = &b->rows[i];

		if (!row->measured)
			continue;
		if (row->overhead_cycles - row->ci95_cycles < svg->lo)
			svg->lo = row->overhead_cycles - row->ci95_cycles;
		if (row->overhead_cycles + row->ci95_cycles > svg->hi)
			svg->hi = row->overhead_cycles + row->ci95_cycles;
	}
	if (svg->hi - svg->lo < 1)
		svg->hi = svg->lo + 1;
	svg->hi += (svg->hi - svg->lo) * 0.02;
	if (svg->lo < 0)
		svg->lo -= (svg->hi - svg->lo) * 0.02;

	for (i = 0; i < b->nr; i++) {
		const struct lc_bench_row *row = &b->rows[i];

		w = lc_svg_text_width(row->mechanism, LC_SVG_FONT, 0);
		if (LC_SVG_MARGIN + w + LC_SVG_PAD > svg->label)
			svg->label = LC_SVG_MARGIN + w + LC_SVG_PAD;
		if (!row->measured)
			continue;
		lc_svg_value(b, row, text, sizeof(text));
		w = lc_svg_text_width(text, LC_SVG_FONT, 0);
		if (LC_SVG_PAD + w + LC_SVG_MARGIN > svg->value)
			svg->value = LC_SVG_PAD + w + LC_SVG_MARGIN;
	}
	svg->width = svg->label + LC_SVG_PLOT + svg->value;
	/* The lines that may be wider: the title and the subtitle. */
	need = LC_SVG_MARGIN + lc_svg_text_width(lc_svg_title(b),
						 LC_SVG_TITLE_FONT, 1);
	lc_svg_subtitle(b, text, sizeof(text));
	w = LC_SVG_MARGIN + lc_svg_text_width(text, LC_SVG_FONT, 0);
	need = w > need ? w : need;
	need += LC_SVG_MARGIN;
	if (need > svg->width)
		svg->width = need;
}

static const char *lc_bench_bar_colour(enum lc_bench_status status)
{
	switch (status) {
	case LC_BENCH_OK:
		return "#4878a8";
	case LC_BENCH_LOST:
		return "#d08030";
	default:
		return "#c04040";
	}
}

static void lc_bench_svg_axis(FILE *out, const struct lc_bench *b,
			      const struct lc_svg *svg, int height)
{
	double step = lc_bench_tick_step(svg->hi - svg->lo, 8), v;
	int bottom = height - 40;

	for (v = ceil(svg->lo / step) * step; v <= svg->hi + step / 1000;
	     v += step) {
		double x = lc_bench_x(svg, v);

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n",
			x, LC_SVG_TOP - 6, x, bottom,
			fabs(v) < step / 1000 ? "#000" : "#ddd");
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
			x, bottom + 16, fabs(v) < step / 1000 ? 0 : v);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		svg->label + LC_SVG_PLOT / 2, bottom + 34, lc_svg_axis(b));
}

static void lc_bench_svg_row(FILE *out, const struct lc_bench *b,
			     const struct lc_bench_row *row, int y,
			     const struct lc_svg *svg)
{
	double x0 = lc_bench_x(svg, 0);
	double x = lc_bench_x(svg, row->overhead_cycles);
	double el = lc_bench_x(svg, row->overhead_cycles - row->ci95_cycles);
	double er = lc_bench_x(svg, row->overhead_cycles + row->ci95_cycles);
	int mid = y + LC_SVG_BAR / 2;
	char text[LC_SVG_TEXT_MAX];

	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
		svg->label - LC_SVG_PAD, mid + 4);
	lc_bench_xml_string(out, row->mechanism);
	fputs("</text>\n", out);
	if (!row->measured) {
		fprintf(out, "<text class=\"missing\" x=\"%.1f\" y=\"%d\" fill=\"#888\">",
			x0 + 4, mid + 4);
		lc_svg_missing(row, text, sizeof(text));
		lc_svg_fit(text, sizeof(text), svg->width - LC_SVG_MARGIN -
			   (int)ceil(x0 + 4));
		lc_bench_xml_string(out, text);
		fputs("</text>\n", out);
		return;
	}
	fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
		x < x0 ? x : x0, y, fabs(x - x0), LC_SVG_BAR,
		lc_bench_bar_colour(row->status));
	lc_bench_xml_string(out, row->mechanism);
	if (b->chart.title)
		fprintf(out, ": %.4f +/- %.4f%s</title></rect>\n",
			row->overhead_cycles, row->ci95_cycles,
			b->chart.unit ? b->chart.unit : "");
	else
		fprintf(out, ": %.3f +/- %.3f cycles, %.3f +/- %.3f ns, median %lld</title></rect>\n",
			row->overhead_cycles, row->ci95_cycles,
			row->overhead_ns, row->ci95_ns, row->median_cycles);
	fprintf(out, "<g class=\"errorbar\" stroke=\"#000\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/></g>\n",
		el, mid, er, mid, el, mid - 5, el, mid + 5, er, mid - 5, er,
		mid + 5);
	fprintf(out, "<text x=\"%d\" y=\"%d\">",
		svg->label + LC_SVG_PLOT + LC_SVG_PAD, mid + 4);
	lc_svg_value(b, row, text, sizeof(text));
	lc_bench_xml_string(out, text);
	fputs("</text>\n", out);
}

/**
 * lc_bench_plot_svg() - a horizontal bar chart of the rows, in SVG
 * @b: the bench
 * @out: where to print
 *
 * One labelled bar per measured row (its overhead in cycles, with the 95 %
 * interval as an error bar and the figures at the right), the rows that
 * were not measured listed with their reason, a scale with round ticks,
 * and a title naming the kernel, the CPU and the iterations.  Plain SVG
 * 1.1, readable by any browser.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_bench_plot_svg(const struct lc_bench *b, FILE *out)
{
	int height = LC_SVG_TOP + (int)b->nr * LC_SVG_ROW + 50;
	char subtitle[LC_SVG_TEXT_MAX];
	struct lc_svg svg;
	size_t i;

	lc_svg_layout(b, &svg);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%d\">\n",
		svg.width, height, svg.width, height, LC_SVG_FONT);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		svg.width, height);
	fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"%d\" font-weight=\"bold\">%s</text>\n<text x=\"%d\" y=\"42\">",
		LC_SVG_MARGIN, LC_SVG_TITLE_FONT, lc_svg_title(b), LC_SVG_MARGIN);
	lc_svg_subtitle(b, subtitle, sizeof(subtitle));
	lc_bench_xml_string(out, subtitle);
	fputs("</text>\n", out);
	lc_bench_svg_axis(out, b, &svg, height);
	for (i = 0; i < b->nr; i++)
		lc_bench_svg_row(out, b, &b->rows[i],
				 LC_SVG_TOP + (int)i * LC_SVG_ROW, &svg);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

/* One field of a row, from the key=value form. */
static int lc_bench_load_field(struct lc_bench_row *row, const char *key,
			       const char *value)
{
	char *end;
	double d = strtod(value, &end);
	int numeric = *value && !*end;

	if (!strcmp(key, "status")) {
		int s;

		for (s = LC_BENCH_OK; s <= LC_BENCH_FAILED; s++)
			if (!strcmp(value, lc_bench_status_names[s])) {
				row->status = s;
				return 0;
			}
		return -1;
	}
	if (!strcmp(key, "reason")) {
		snprintf(row->reason, sizeof(row->reason), "%s", value);
		return 0;
	}
	if (!*value)
		return 0;		/* null */
	if (!numeric)
		return -1;
	if (!strcmp(key, "overhead_cycles"))
		row->overhead_cycles = d;
	else if (!strcmp(key, "ci95_cycles"))
		row->ci95_cycles = d;
	else if (!strcmp(key, "stddev_cycles"))
		row->stddev_cycles = d;
	else if (!strcmp(key, "overhead_ns"))
		row->overhead_ns = d;
	else if (!strcmp(key, "ci95_ns"))
		row->ci95_ns = d;
	else if (!strcmp(key, "median_cycles"))
		row->median_cycles = (long long)d;
	else if (!strcmp(key, "samples"))
		row->samples = (long long)d;
	else if (!strcmp(key, "events_expected"))
		row->events_expected = (long long)d;
	else if (!strcmp(key, "events_recorded"))
		row->events_recorded = (long long)d;
	else
		return -1;
	if (strcmp(key, "events_expected") && strcmp(key, "events_recorded"))
		row->measured = 1;
	return 0;
}

/* One field of the header. */
static int lc_bench_load_header(struct lc_bench *b, const char *key,
				const char *value)
{
	char *end;

	if (!strcmp(key, "format"))
		return strcmp(value, LC_BENCH_KV_FORMAT) ? -1 : 0;
	if (!strcmp(key, "kernel"))
		snprintf(b->kernel, sizeof(b->kernel), "%s", value);
	else if (!strcmp(key, "cpu_model"))
		snprintf(b->cpu_model, sizeof(b->cpu_model), "%s", value);
	else if (!strcmp(key, "clock"))
		snprintf(b->clock, sizeof(b->clock), "%s", value);
	else if (!strcmp(key, "iterations"))
		b->iterations = strtoull(value, &end, 10);
	else if (!strcmp(key, "clock_khz"))
		b->clock_khz = *value ? strtoll(value, &end, 10) : -1;
	else
		return -1;
	return 0;
}

/**
 * lc_bench_load_kv() - rows recorded as key=value lines
 * @b: the bench to fill
 * @text: the file: "format=lttng-calibrate-bench-kv/1", then kernel=,
 *	cpu_model=, iterations=, clock=, clock_khz=, then for each row a
 *	"row=MECHANISM" line followed by its fields (status=, reason=,
 *	overhead_cycles=, ..., the names of the JSON fields); "#" lines and
 *	blank lines are ignored; an absent or empty number is null
 * @why: where to say what is wrong
 * @len: its size
 *
 * per_kprobe is not read: it is computed, as when measuring.
 *
 * Return: 0, or -1 with @why set.
 */
int lc_bench_load_kv(struct lc_bench *b, const char *text, char *why,
		     size_t len)
{
	struct lc_bench_row *row = NULL;
	int line_no = 0, format = 0;
	const char *line = text;

	memset(b, 0, sizeof(*b));
	b->clock_khz = -1;
	while (*line) {
		size_t n = strcspn(line, "\n");
		char buf[LC_BENCH_REASON_MAX + 64];
		char *eq;
		int err;

		line_no++;
		if (n >= sizeof(buf)) {
			snprintf(why, len, "line %d: too long", line_no);
			return -1;
		}
		memcpy(buf, line, n);
		buf[n] = '\0';
		line += n + (line[n] == '\n');
		if (!buf[0] || buf[0] == '#')
			continue;
		eq = strchr(buf, '=');
		if (!eq || eq == buf) {
			snprintf(why, len, "line %d: not key=value", line_no);
			return -1;
		}
		*eq++ = '\0';
		if (!strcmp(buf, "row")) {
			row = lc_bench_add_row(b, eq);
			if (!row || !*eq) {
				snprintf(why, len, "line %d: %s", line_no,
					 row ? "a row needs a name" :
					 "too many rows");
				return -1;
			}
			continue;
		}
		if (!strcmp(buf, "format"))
			format = 1;
		err = row ? lc_bench_load_field(row, buf, eq) :
		      lc_bench_load_header(b, buf, eq);
		if (err) {
			snprintf(why, len, "line %d: bad %s '%s'", line_no,
				 buf, eq);
			return -1;
		}
	}
	if (!format) {
		snprintf(why, len, "no format=%s line", LC_BENCH_KV_FORMAT);
		return -1;
	}
	lc_bench_set_ratios(b);
	return 0;
}
