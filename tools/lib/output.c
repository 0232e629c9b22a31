// SPDX-License-Identifier: GPL-2.0
/*
 * The output layer's writer (output.h): rows of fields as a table, CSV or
 * JSON, and XML text.  Nothing here knows what a row holds.
 */
#include <stdarg.h>
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
