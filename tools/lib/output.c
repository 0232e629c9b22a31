// SPDX-License-Identifier: GPL-2.0
/*
 * The output layer's writer (output.h): rows of fields as a table, CSV or
 * JSON, and XML text.  Nothing here knows what a row holds.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "output.h"

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
	cell->ref = NULL;
	if (kind == LC_CELL_NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(cell->text, sizeof(cell->text), fmt, ap);
	va_end(ap);
}

/**
 * lc_cell_ref() - a field whose text is the caller's string, not copied
 * @cell: the field
 * @kind: how it is written
 * @s: its text, of any length, alive while the cell is written
 */
void lc_cell_ref(struct lc_cell *cell, enum lc_cell_kind kind, const char *s)
{
	cell->kind = kind;
	cell->text[0] = '\0';
	cell->ref = s;
}

/* A cell's text: its own, or the caller's. */
static const char *lc_cell_text(const struct lc_cell *cell)
{
	return cell->ref ? cell->ref : cell->text;
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
 * A string is quoted when it must be (RFC 4180), a quoted one always, a
 * null is empty, a number or a literal is written as it is.
 */
void lc_fmt_csv_row(FILE *out, const struct lc_cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *text = lc_cell_text(&cells[i]);

		if (i)
			fputc(',', out);
		if (cells[i].kind == LC_CELL_STRING)
			lc_csv_field(out, text, strlen(text));
		else if (cells[i].kind == LC_CELL_QUOTED)
			lc_csv_quoted(out, text, strlen(text));
		else
			fputs(text, out);
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
		const char *text = lc_cell_text(c);

		fprintf(out, "%s\"%s\": ", i ? ", " : "",
			names[order ? order[i] : i]);
		if (c->kind == LC_CELL_STRING || c->kind == LC_CELL_QUOTED)
			lc_json_string(out, text, strlen(text));
		else
			fputs(c->kind == LC_CELL_NULL ? "null" : text, out);
	}
	fputc('}', out);
}

/**
 * lc_xml_string() - text as XML character data or an attribute's value
 * @out: where to print
 * @s: the text
 *
 * &, <, > and " are written as entities; a control
 * character, which XML 1.0 does not allow, as a space.
 */
void lc_xml_string(FILE *out, const char *s)
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

/**
 * lc_fmt_shortest() - a number as JSON tools print it (jq)
 * @buf: where the text goes
 * @len: its size (32 is enough)
 * @v: the number, finite
 *
 * The fewest significant digits that read back as @v, plain from 1e-4
 * up to where 15 zeros would follow the digits, else with an exponent of
 * at least two digits ("1e-07", "1.5e+17").  What a report printed
 * through jq printed, so that the same report printed here reads the
 * same.
 */
void lc_fmt_shortest(char *buf, size_t len, double v)
{
	char e[40], digits[24], *p = e, *out = buf, *end = buf + len;
	int prec, exp, nd = 0, decpt, i;

	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "%s", !isfinite(v) ? "null" :
			 signbit(v) ? "-0" : "0");
		return;
	}
	for (prec = 0; prec < 16; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", prec, v);
	if (*p == '-')
		*out++ = *p++;
	for (; *p && *p != 'e'; p++)
		if (*p != '.')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	exp = atoi(p + 1);
	decpt = exp + 1;
	if (decpt <= -4 || decpt > nd + 15) {
		snprintf(out, end - out, "%c%s%.*se%c%02d", digits[0],
			 nd > 1 ? "." : "", nd - 1, digits + 1,
			 exp < 0 ? '-' : '+', abs(exp));
	} else if (decpt <= 0) {
		snprintf(out, end - out, "0.%.*s%.*s", -decpt, "000", nd,
			 digits);
	} else {
		for (i = 0; i < decpt && out + 1 < end; i++)
			*out++ = i < nd ? digits[i] : '0';
		snprintf(out, end - out, "%s%.*s", nd > decpt ? "." : "",
			 nd > decpt ? nd - decpt : 0, digits + decpt);
	}
}

/**
 * lc_fmt_d1() - a number rounded to one decimal
 * @buf: where the text goes
 * @len: its size (40 is enough)
 * @v: the number, finite
 *
 * The units as lc_fmt_shortest() prints them (a huge number keeps its
 * exponent), a point, the tenths: "1313.6", "-12.0", "0.0"; "null" for
 * what is not a number.
 */
void lc_fmt_d1(char *buf, size_t len, double v)
{
	double r = round(v * 10), a = fabs(r);
	char units[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	lc_fmt_shortest(units, sizeof(units), floor(a / 10));
	snprintf(buf, len, "%s%s.%lld", r < 0 ? "-" : "", units,
		 (long long)fmod(a, 10));
}
