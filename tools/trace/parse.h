/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TRACE_PARSE_H
#define LTTNG_CALIBRATE_TRACE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* numeric context fields kept per event; more is a malformed line */
#define TRACE_MAX_FIELDS 64
/* cpu_id must be below this */
#define TRACE_MAX_CPUS 8192

/**
 * enum trace_clock - how babeltrace printed the timestamp
 * @TRACE_CLOCK_NONE:    no timestamp parsed yet
 * @TRACE_CLOCK_DAY:     [HH:MM:SS.NNNNNNNNN], ns since midnight
 * @TRACE_CLOCK_DATE:    [YYYY-MM-DD HH:MM:SS.NNNNNNNNN] (--clock-date)
 * @TRACE_CLOCK_SECONDS: [SSSSSSSSSS.NNNNNNNNN] (--clock-seconds)
 * @TRACE_CLOCK_CYCLES:  [NNNNNNNNNNNNNNNNNNNN] (--clock-cycles)
 */
enum trace_clock {
	TRACE_CLOCK_NONE,
	TRACE_CLOCK_DAY,
	TRACE_CLOCK_DATE,
	TRACE_CLOCK_SECONDS,
	TRACE_CLOCK_CYCLES,
};

/**
 * struct trace_span - a piece of the line being parsed, not terminated
 * @s:   first character
 * @len: number of characters
 */
struct trace_span {
	const char *s;
	size_t len;
};

/**
 * struct trace_field - one numeric context field of an event
 * @name:  its name, as printed (perf_cpu_cpu_clock)
 * @value: its value; integers up to 2^64 - 1 are exact in a long double
 */
struct trace_field {
	struct trace_span name;
	long double value;
};

/**
 * struct trace_event - what one babeltrace text line says
 * @clock:   the timestamp's format
 * @clock_value: ns since midnight (DAY), since the epoch (DATE,
 *           SECONDS), or clock cycles (CYCLES)
 * @name:    the event name
 * @has_cpu: @cpu_id was found (only looked for by trace_parse_fields())
 * @cpu_id:  the stream packet context's cpu_id
 * @nfields: number of @fields
 * @fields:  the integer context fields, payload excluded
 */
struct trace_event {
	enum trace_clock clock;
	uint64_t clock_value;
	struct trace_span name;
	bool has_cpu;
	unsigned int cpu_id;
	unsigned int nfields;
	struct trace_field fields[TRACE_MAX_FIELDS];
	/* private: where trace_parse_fields() starts */
	const char *rest;
	const char *end;
};

const char *trace_parse_header(const char *line, size_t len,
			       struct trace_event *ev);
const char *trace_parse_fields(struct trace_event *ev);
int trace_parse_integer(const char *s, size_t len, long double *value);
bool trace_span_equal(struct trace_span a, struct trace_span b);

#endif
