// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's rows (formats.h): a row added, its status set, the ratios
 * to the kprobe row, and the key=value form they can be recorded in and
 * read back from.  Printing them is bench-format.c's.  Nothing here
 * touches the kernel.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

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

/* One field of a row, from the key=value form. */
static int lc_bench_load_field(struct lc_bench_row *row, const char *key,
			       const char *value)
{
	char *end;
	double d = strtod(value, &end);
	int numeric = *value && !*end;

	if (!strcmp(key, "status"))
		return lc_bench_status_parse(value, &row->status);
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
