// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the output layer: output.c (numbers as jq prints them,
 * one decimal, the cell writer as CSV and JSON, XML text), svg.c (a bar
 * chart's and a series plot's elements) and bench-schema.c (statuses and
 * fields).
 * "ok - ..." lines (tap.h); run-tests.sh numbers them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench-schema.h"
#include "../lc.h"
#include "../output.h"
#include "../svg.h"
#include "../tap.h"

static void shortest(double v, const char *want)
{
	char buf[40];

	lc_fmt_shortest(buf, sizeof(buf), v);
	tap_check(!strcmp(buf, want), "shortest %.17g: '%s' (got '%s')", v,
		  want, buf);
}

static void d1(double v, const char *want)
{
	char buf[40];

	lc_fmt_d1(buf, sizeof(buf), v);
	tap_check(!strcmp(buf, want), "d1 %.17g: '%s' (got '%s')", v, want,
		  buf);
}

/* What @out holds, NUL-terminated, then closed; to free(). */
static char *taken(FILE *out, char **buf)
{
	fclose(out);
	return *buf;
}

static void test_cells(void)
{
	static const char *const names[] = { "name", "n", "none" };
	static const size_t order[] = { 2, 0, 1 };
	struct lc_cell cells[3];
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	lc_cell_set(&cells[0], LC_CELL_STRING, "%s", "a,\"b\"");
	lc_cell_set(&cells[1], LC_CELL_RAW, "%d", 42);
	lc_cell_set(&cells[2], LC_CELL_NULL, "%s", "ignored");
	lc_fmt_csv_header(out, names, 3);
	lc_fmt_csv_row(out, cells, 3);
	lc_fmt_json_row(out, true, names, cells, order, 3);
	lc_xml_string(out, "\n<a & \"b\">");
	tap_check(!strcmp(taken(out, &buf),
			  "name,n,none\n\"a,\"\"b\"\"\",42,\n"
			  "\n    {\"none\": null, \"name\": \"a,\\\"b\\\"\", \"n\": 42}"
			  " &lt;a &amp; &quot;b&quot;&gt;"),
		  "cells: CSV quoted when needed, JSON in the order asked, nulls, XML text");
	free(buf);
}

/* A quoted cell, and a cell of the caller's string longer than a cell. */
static void test_cell_ref(void)
{
	static char long_text[LC_CELL_MAX * 2];
	struct lc_cell cells[2];
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	memset(long_text, 'x', sizeof(long_text) - 1);
	lc_cell_ref(&cells[0], LC_CELL_QUOTED, "1");
	lc_cell_ref(&cells[1], LC_CELL_STRING, long_text);
	lc_fmt_csv_row(out, cells, 2);
	taken(out, &buf);
	tap_check(!strncmp(buf, "\"1\",xxx", 7) &&
		  strlen(buf) == 4 + sizeof(long_text) - 1 + 1,
		  "cells: a quoted one always quoted, the caller's string whole");
	free(buf);
}

static void test_svg(void)
{
	static struct lc_svg_bars c = {
		.title = "t", .subtitle = "s", .axis = "a", .nr = 2,
	};
	struct lc_svg_point p[2] = {
		{ .label = "0", .name = "base", .has_mean = true, .mean = 10,
		  .has_interval = true, .low = 9, .high = 11 },
		{ .label = "1", .name = "x<y", .has_mean = true, .mean = 20,
		  .new_level = true },
	};
	struct lc_svg_change ch = { .index = 1, .tip = "mail" };
	struct lc_svg_series s = {
		.title = "src", .unit = "ns", .points = p, .nr = 2,
		.changes = &ch, .nr_changes = 1,
	};
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	snprintf(c.bars[0].label, sizeof(c.bars[0].label), "k");
	c.bars[0].drawn = true;
	c.bars[0].value = 5;
	c.bars[0].ci = 1;
	snprintf(c.bars[1].label, sizeof(c.bars[1].label), "u");
	snprintf(c.bars[1].missing, sizeof(c.bars[1].missing), "why");
	tap_check(!lc_svg_plot_bars(out, &c), "bars: written");
	taken(out, &buf);
	tap_check(strstr(buf, "<rect class=\"bar\"") &&
		  strstr(buf, ">why</text>") && strstr(buf, "</svg>\n"),
		  "bars: a bar for the drawn row, the text of the other");
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &size);
	tap_check(!lc_svg_plot_series(out, &s), "series: written");
	taken(out, &buf);
	tap_check(strstr(buf, "<title>x&lt;y: 20.0</title>") &&
		  strstr(buf, "fill=\"red\"") &&
		  strstr(buf, "<title>mail</title></line>") &&
		  strstr(buf, "<text x=\"55\" y=\"65\" text-anchor=\"end\">20.0</text>"),
		  "series: the points, the new level in red, the change, the scale");
	free(buf);
}

static void test_schema(void)
{
	enum lc_bench_status s = LC_BENCH_OK;

	tap_check(!lc_bench_status_parse("unavailable", &s) &&
		  s == LC_BENCH_UNAVAILABLE &&
		  !strcmp(lc_bench_status_name(s), "unavailable"),
		  "schema: a status read back from its name");
	tap_check(lc_bench_status_parse("maybe", &s) == -1,
		  "schema: an unknown status refused");
	tap_check(!strcmp(lc_bench_field_names[LC_BENCH_F_SAMPLES], "samples") &&
		  !strcmp(lc_bench_field_units[LC_BENCH_F_OVERHEAD_NS], "ns"),
		  "schema: a field's name and unit");
}

int main(void)
{
	shortest(0, "0");
	shortest(-0.0, "-0");
	shortest(100, "100");
	shortest(1313.6, "1313.6");
	shortest(0.1 + 0.2, "0.30000000000000004");
	shortest(1e-4, "0.0001");
	shortest(1e-5, "1e-05");
	shortest(2.5e-5, "2.5e-05");
	shortest(1e15, "1000000000000000");
	shortest(1e16, "1e+16");
	shortest(1.5e17, "1.5e+17");
	shortest(123456789012345678.0, "123456789012345680");
	shortest(1.5e300, "1.5e+300");
	shortest(NAN, "null");
	d1(1313.64, "1313.6");
	d1(-12, "-12.0");
	d1(-0.04, "0.0");
	d1(0.05, "0.1");
	d1(3e17, "3e+17.0");
	d1(NAN, "null");
	test_cells();
	test_cell_ref();
	test_svg();
	test_schema();
	return tap_exit_status();
}
