// SPDX-License-Identifier: GPL-2.0
/*
 * results_kv to CSV, JSON and a compact table.  Nothing here knows the
 * module's rows, units or statistics: a new counter, row or statistic shows
 * up in every format without a change here.  Strings and fields are
 * escaped by the library (lc_json_string(), lc_csv_field()).
 */
#include <stdlib.h>
#include <string.h>

#include "kv.h"

/* The rows of a results_kv: each is a ROW.UNIT prefix with a count key. */
struct lc_table {
	const char **rows;	/* points into kv keys; ROW.UNIT is row_len */
	size_t *row_len;
	size_t nr_rows;
	const char **cols;	/* STAT names, points into kv keys */
	size_t nr_cols;
};

/* Length of ROW.UNIT in a ROW.UNIT.STAT key (UNIT may hold dots), or 0. */
static size_t lc_prefix_len(const char *key)
{
	const char *first = strchr(key, '.');
	const char *last = strrchr(key, '.');

	if (!first || first == key || first == last || first[1] == '.' ||
	    last[1] == '\0')
		return 0;
	return last - key;
}

/* Is this key a cell of a row, that is, has its ROW.UNIT a count? */
static int lc_is_cell(const struct lc_kv *kv, const char *key)
{
	size_t len = lc_prefix_len(key);
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < kv->nr; i++)
		if (!strncmp(kv->pairs[i].key, key, len) &&
		    !strcmp(kv->pairs[i].key + len, ".count"))
			return 1;
	return 0;
}

static void lc_table_add_col(struct lc_table *t, const char *stat)
{
	size_t i;

	for (i = 0; i < t->nr_cols; i++)
		if (!strcmp(t->cols[i], stat))
			return;
	t->cols[t->nr_cols++] = stat;
}

static void lc_table_free(struct lc_table *t)
{
	free(t->rows);
	free(t->row_len);
	free(t->cols);
}

/* Rows in the order of their count keys, columns in order of appearance. */
static int lc_table_build(const struct lc_kv *kv, struct lc_table *t)
{
	size_t i, n = kv->nr ? kv->nr : 1;

	memset(t, 0, sizeof(*t));
	t->rows = calloc(n, sizeof(*t->rows));
	t->row_len = calloc(n, sizeof(*t->row_len));
	t->cols = calloc(n, sizeof(*t->cols));
	if (!t->rows || !t->row_len || !t->cols) {
		lc_table_free(t);
		return -1;
	}
	for (i = 0; i < kv->nr; i++) {
		const char *key = kv->pairs[i].key;
		size_t len = lc_prefix_len(key);

		if (len && !strcmp(key + len, ".count")) {
			t->rows[t->nr_rows] = key;
			t->row_len[t->nr_rows++] = len;
		}
	}
	for (i = 0; i < kv->nr; i++)
		if (lc_is_cell(kv, kv->pairs[i].key))
			lc_table_add_col(t, kv->pairs[i].key +
					 lc_prefix_len(kv->pairs[i].key) + 1);
	return 0;
}

/* The value of cell (row r, column c), or "" when that row lacks it. */
static const char *lc_table_cell(const struct lc_kv *kv,
				 const struct lc_table *t, size_t r, size_t c)
{
	size_t i, len = t->row_len[r];

	for (i = 0; i < kv->nr; i++) {
		const char *key = kv->pairs[i].key;

		if (!strncmp(key, t->rows[r], len) && key[len] == '.' &&
		    !strcmp(key + len + 1, t->cols[c]))
			return kv->pairs[i].value;
	}
	return "";
}

/* ROW is up to the first dot of ROW.UNIT; UNIT is the rest. */
static size_t lc_row_name_len(const struct lc_table *t, size_t r)
{
	return strchr(t->rows[r], '.') - t->rows[r];
}

/**
 * lc_kv_print_csv() - the rows as CSV
 * @kv: parsed results_kv
 * @out: where to print
 *
 * A header line "row,unit,STAT..." then one line per row.
 *
 * Return: 0, or -1 when out of memory or on an output error.
 */
int lc_kv_print_csv(const struct lc_kv *kv, FILE *out)
{
	struct lc_table t;
	size_t r, c;

	if (lc_table_build(kv, &t))
		return -1;
	fputs("row,unit", out);
	for (c = 0; c < t.nr_cols; c++) {
		fputc(',', out);
		lc_csv_field(out, t.cols[c], strlen(t.cols[c]));
	}
	fputc('\n', out);
	for (r = 0; r < t.nr_rows; r++) {
		size_t row_len = lc_row_name_len(&t, r);
		const char *unit = t.rows[r] + row_len + 1;

		lc_csv_field(out, t.rows[r], row_len);
		fputc(',', out);
		lc_csv_field(out, unit, t.row_len[r] - row_len - 1);
		for (c = 0; c < t.nr_cols; c++) {
			const char *v = lc_table_cell(kv, &t, r, c);

			fputc(',', out);
			lc_csv_field(out, v, strlen(v));
		}
		fputc('\n', out);
	}
	lc_table_free(&t);
	return ferror(out) ? -1 : 0;
}

/* A JSON number as the module prints them: -?(0|[1-9][0-9]*)(.[0-9]+)? */
static int lc_is_json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return 0;
	if (*s == '.') {
		size_t digits = strspn(s + 1, "0123456789");

		if (!digits)
			return 0;
		s += 1 + digits;
	}
	return *s == '\0';
}

static void lc_json_value(const char *v, FILE *out)
{
	if (lc_is_json_number(v))
		fputs(v, out);
	else
		lc_json_string(out, v, strlen(v));
}

static void lc_json_info(const struct lc_kv *kv, FILE *out)
{
	const char *sep = "\n";
	size_t i;

	fputs("  \"info\": {", out);
	for (i = 0; i < kv->nr; i++) {
		if (lc_is_cell(kv, kv->pairs[i].key))
			continue;
		fprintf(out, "%s    ", sep);
		lc_json_string(out, kv->pairs[i].key, strlen(kv->pairs[i].key));
		fputs(": ", out);
		lc_json_value(kv->pairs[i].value, out);
		sep = ",\n";
	}
	fputs(*sep == ',' ? "\n  },\n" : "},\n", out);
}

static void lc_json_row(const struct lc_kv *kv, const struct lc_table *t,
			size_t r, FILE *out)
{
	size_t row_len = lc_row_name_len(t, r);
	const char *unit = t->rows[r] + row_len + 1;
	size_t c;

	fputs("    {\"row\": ", out);
	lc_json_string(out, t->rows[r], row_len);
	fputs(", \"unit\": ", out);
	lc_json_string(out, unit, t->row_len[r] - row_len - 1);
	for (c = 0; c < t->nr_cols; c++) {
		const char *v = lc_table_cell(kv, t, r, c);

		if (!*v)
			continue;	/* this row has no such statistic */
		fputs(", ", out);
		lc_json_string(out, t->cols[c], strlen(t->cols[c]));
		fputs(": ", out);
		lc_json_value(v, out);
	}
	fputc('}', out);
}

/**
 * lc_kv_print_json() - the whole results_kv as one JSON object
 * @kv: parsed results_kv
 * @out: where to print
 *
 * {"info": {KEY: VALUE, ...}, "results": [{"row": ROW, "unit": UNIT,
 * STAT: VALUE, ...}, ...]}; values that are numbers are JSON numbers.
 *
 * Return: 0, or -1 when out of memory or on an output error.
 */
int lc_kv_print_json(const struct lc_kv *kv, FILE *out)
{
	struct lc_table t;
	size_t r;

	if (lc_table_build(kv, &t))
		return -1;
	fputs("{\n", out);
	lc_json_info(kv, out);
	fputs("  \"results\": [", out);
	for (r = 0; r < t.nr_rows; r++) {
		fputs(r ? ",\n" : "\n", out);
		lc_json_row(kv, &t, r, out);
	}
	fputs(t.nr_rows ? "\n  ]\n}\n" : "]\n}\n", out);
	lc_table_free(&t);
	return ferror(out) ? -1 : 0;
}

/**
 * lc_kv_print_table() - the rows as a compact table for people
 * @kv: parsed results_kv
 * @out: where to print
 *
 * The first column is as wide as the longest ROW.UNIT (36 at least), so
 * that long counter names keep the columns aligned.
 *
 * Return: 0, or -1 when out of memory or on an output error.
 */
int lc_kv_print_table(const struct lc_kv *kv, FILE *out)
{
	struct lc_table t;
	int width = 36;
	size_t r, c;

	if (lc_table_build(kv, &t))
		return -1;
	for (r = 0; r < t.nr_rows; r++)
		if (t.row_len[r] > (size_t)width)
			width = t.row_len[r];
	fprintf(out, "%-*s", width, "row.unit");
	for (c = 0; c < t.nr_cols; c++)
		fprintf(out, " %12s", t.cols[c]);
	fputc('\n', out);
	for (r = 0; r < t.nr_rows; r++) {
		fprintf(out, "%-*.*s", width, (int)t.row_len[r], t.rows[r]);
		for (c = 0; c < t.nr_cols; c++)
			fprintf(out, " %12s", lc_table_cell(kv, &t, r, c));
		fputc('\n', out);
	}
	lc_table_free(&t);
	return ferror(out) ? -1 : 0;
}
