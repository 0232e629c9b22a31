/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output layer's writer: rows of fields (cells) as aligned columns,
 * CSV or JSON, and text made safe for XML, for every command (the bench,
 * predict, compare).  A command describes its fields once, as names and
 * cells, and this prints them in the format asked for.  Calls lc.c only.
 */
#ifndef LTTNG_CALIBRATE_LIB_OUTPUT_H
#define LTTNG_CALIBRATE_LIB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LC_CELL_MAX	256

/**
 * enum lc_cell_kind - how a field of a row is written
 * @LC_CELL_NULL: not known: empty in CSV, null in JSON
 * @LC_CELL_STRING: a string: quoted as it must be in CSV, a JSON string
 * @LC_CELL_QUOTED: a string always quoted in CSV (a name that a reader
 *	must not take for a number), a JSON string
 * @LC_CELL_RAW: a number or a literal (true, false): written as it is
 */
enum lc_cell_kind {
	LC_CELL_NULL,
	LC_CELL_STRING,
	LC_CELL_QUOTED,
	LC_CELL_RAW,
};

/**
 * struct lc_cell - a field of a row, for the writer (lc_fmt_*())
 * @kind: how it is written
 * @text: its text ("" for a null), formatted by lc_cell_set()
 * @ref: the caller's string instead of @text (lc_cell_ref()), of any
 *	length, or NULL
 */
struct lc_cell {
	enum lc_cell_kind kind;
	char text[LC_CELL_MAX];
	const char *ref;
};

void lc_cell_set(struct lc_cell *cell, enum lc_cell_kind kind,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lc_cell_ref(struct lc_cell *cell, enum lc_cell_kind kind, const char *s);
void lc_fmt_table_row(FILE *out, const int *widths, const char *const *cells,
		      size_t n, const char *tail);
void lc_fmt_csv_header(FILE *out, const char *const *names, size_t n);
void lc_fmt_csv_row(FILE *out, const struct lc_cell *cells, size_t n);
void lc_fmt_json_row(FILE *out, bool first, const char *const *names,
		     const struct lc_cell *cells, const size_t *order,
		     size_t n);
void lc_xml_string(FILE *out, const char *s);
void lc_fmt_shortest(char *buf, size_t len, double v);
void lc_fmt_d1(char *buf, size_t len, double v);

#endif /* LTTNG_CALIBRATE_LIB_OUTPUT_H */
