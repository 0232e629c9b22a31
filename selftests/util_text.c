// SPDX-License-Identifier: GPL-2.0
/*
 * The texts the module's files give: the results table, the statistics of
 * results_kv, settings listings, the deltas snapshot, and values escaped
 * for the log.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng_calibrate_util.h"

/* The rows of the results and their units, as results_kv names them. */
const char *const rows[3] = { "target", "baseline", "difference" };
const char *const units[2] = { "cycles", "ns" };

/**
 * text_value() - the value of a line "LABEL  VALUE" in a results text
 * @text: the text
 * @label: LABEL
 *
 * Return: where VALUE starts (to the end of its line), or NULL.
 */
const char *text_value(const char *text, const char *label)
{
	size_t len = strlen(label);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, label, len) && p[len] == ' ') {
			p += len;
			while (*p == ' ')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/**
 * text_is() - whether the line "LABEL  VALUE" of a results text has a value
 * @text: the text
 * @label: LABEL
 * @want: the whole VALUE expected
 *
 * Return: true when the line is there with VALUE @want.
 */
bool text_is(const char *text, const char *label, const char *want)
{
	const char *v = text_value(text, label);
	size_t len = strlen(want);

	return v && !strncmp(v, want, len) && v[len] == '\n';
}

/**
 * kv_stat() - a statistic of results_kv, in thousandths of its unit
 * @text: results_kv
 * @row: one of rows[]
 * @unit: one of units[]
 * @stat: count, min, median, p99, max, mean, stddev...
 *
 * ns figures have decimals, hence thousandths (lc_kv_ll(), lc_kv_double());
 * a count is returned as it is.
 *
 * Return: the value, or LLONG_MIN when absent.
 */
long long kv_stat(const char *text, const char *row, const char *unit,
		  const char *stat)
{
	char key[256];
	double v;

	snprintf(key, sizeof(key), "%s.%s.%s", row, unit, stat);
	if (!strcmp(stat, "count"))
		return lc_kv_ll(text, key, LLONG_MIN);
	v = lc_kv_double(text, key, NAN);
	return isnan(v) ? LLONG_MIN :
	       (long long)(v * 1000 + (v < 0 ? -0.5 : 0.5));
}

/**
 * strip_comments() - drop the lines that start with '#', in place
 * @text: a settings listing
 *
 * Return: @text.
 */
char *strip_comments(char *text)
{
	char *in, *out, *eol;
	size_t len;

	for (in = out = text; *in; in += len) {
		eol = strchrnul(in, '\n');
		len = eol - in + (*eol ? 1 : 0);
		if (*in != '#') {
			memmove(out, in, len);
			out += len;
		}
	}
	*out = '\0';
	return text;
}

/**
 * count_lines() - the lines of a text
 * @text: the text
 *
 * Return: its newlines.
 */
int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Integer fields of the row [@line, @eol), one tab apart; -1 if not that. */
static int row_fields(const char *line, const char *eol)
{
	const char *p = line;
	char *end;
	int n = 0;

	for (;;) {
		if (*p != '-' && (*p < '0' || *p > '9'))
			return -1;
		strtoll(p, &end, 10);
		if (end == p && *p == '-')
			end++;	/* a withheld counter's value */
		if (end == p || (end != eol && *end != '\t'))
			return -1;
		n++;
		if (end == eol)
			return n;
		p = end + 1;
	}
}

/**
 * deltas_check() - whether a text is a whole deltas snapshot
 * @text: what the deltas file gave
 * @why: the first defect found
 * @size: room in @why
 *
 * A whole snapshot is a header line, then rows of as many integer (or
 * withheld, "-") fields as the header has names, of consecutive
 * iterations, each ending in a newline.
 *
 * Return: 0, or -1 with the first defect in @why.
 */
int deltas_check(const char *text, char *why, size_t size)
{
	const char *line, *eol, *p;
	long long it, prev = -1;
	int fields = 1, f;

	if (strncmp(text, "iteration\t", 10) || !strchr(text, '\n')) {
		snprintf(why, size, "no header line: \"%.40s\"", text);
		return -1;
	}
	for (p = text; *p != '\n'; p++)
		fields += *p == '\t';
	for (line = strchr(text, '\n') + 1; *line; line = eol + 1) {
		eol = strchr(line, '\n');
		if (!eol) {
			snprintf(why, size, "row without newline: \"%.40s\"",
				 line);
			return -1;
		}
		f = row_fields(line, eol);
		if (f != fields) {
			snprintf(why, size, f < 0 ?
				 "row not of integers: \"%.*s\"" :
				 "row of other length than the header: \"%.*s\"",
				 (int)(eol - line > 60 ? 60 : eol - line), line);
			return -1;
		}
		it = strtoll(line, NULL, 10);
		if (prev >= 0 && it != prev + 1) {
			snprintf(why, size, "iteration %lld after %lld", it, prev);
			return -1;
		}
		prev = it;
	}
	return 0;
}

/**
 * escape_bytes() - bytes as C escapes, for the log
 * @buf: the bytes
 * @len: how many
 * @out: the escaped text, at most @size - 1 characters
 * @size: room in @out
 *
 * Return: @out.
 */
const char *escape_bytes(const void *buf, size_t len, char *out, size_t size)
{
	const unsigned char *b = buf;
	size_t i, o = 0;
	char c[8];

	for (i = 0; i < len && o + 12 < size; i++) {
		if (b[i] == '\n' || b[i] == '\t' || b[i] == '\\' || b[i] == '"')
			snprintf(c, sizeof(c), "\\%c", b[i] == '\n' ? 'n' :
				 b[i] == '\t' ? 't' : b[i]);
		else if (b[i] < ' ' || b[i] > '~')
			snprintf(c, sizeof(c), "\\x%02x", b[i]);
		else
			snprintf(c, sizeof(c), "%c", b[i]);
		o += snprintf(out + o, size - o, "%s", c);
	}
	if (i < len)
		snprintf(out + o, size - o, "...(%zu bytes)", len);
	return out;
}
