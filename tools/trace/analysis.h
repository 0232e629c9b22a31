/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TRACE_ANALYSIS_H
#define LTTNG_CALIBRATE_TRACE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse.h"

/* distinct NAME_entry/NAME_exit pairs of names followed in one trace */
#define TRACE_MAX_FUNCTIONS 16

/**
 * struct trace_stats - running statistics of one delta (Welford)
 * @n:    number of values
 * @mean: their mean
 * @m2:   sum of squared differences from the mean
 * @min:  smallest value
 * @max:  largest value
 */
struct trace_stats {
	uint64_t n;
	long double mean;
	long double m2;
	long double min;
	long double max;
};

/**
 * struct trace_pending - an entry waiting for its exit, on one CPU
 * @open:  an entry is waiting
 * @time:  its timestamp (ns, or cycles)
 * @have:  bit i set: @value[i] holds context field i of the function
 * @value: the entry's context field values
 */
struct trace_pending {
	bool open;
	long double time;
	uint64_t have;
	long double value[TRACE_MAX_FIELDS];
};

/**
 * struct trace_function - the pairs of one NAME_entry and NAME_exit
 * @name:      NAME, NUL-terminated
 * @nfields:   number of context fields seen so far
 * @field:     their names, NUL-terminated, in order of appearance
 * @field_len: their lengths
 * @time:      statistics of exit time - entry time
 * @stats:     statistics of exit value - entry value, per field
 * @cpu:       per CPU, the pending entry (allocated on first use)
 * @ncpus:     one more than the highest CPU in @cpu
 * @paired:    bitmap of the CPUs with at least one pair
 * @pairs:     number of pairs
 * @unmatched_entries: entries without exit (lost, migrated, cut off)
 * @unmatched_exits:   exits without entry on their CPU
 */
struct trace_function {
	char *name;
	unsigned int nfields;
	char *field[TRACE_MAX_FIELDS];
	size_t field_len[TRACE_MAX_FIELDS];
	struct trace_stats time;
	struct trace_stats stats[TRACE_MAX_FIELDS];
	struct trace_pending *cpu[TRACE_MAX_CPUS];
	unsigned int ncpus;
	uint8_t paired[TRACE_MAX_CPUS / 8];
	uint64_t pairs;
	uint64_t unmatched_entries;
	uint64_t unmatched_exits;
};

/**
 * struct trace_analysis - the state of one pass over a trace
 * @prefix:         names followed start with it
 * @nfunctions:     number of @function
 * @function:       the followed functions, in order of appearance
 * @events:         event lines read
 * @other_events:   event lines of other events
 * @malformed:      malformed lines skipped
 * @warnings:       babeltrace warnings (discarded events) seen
 * @clock:          the timestamp format of the first event
 * @last_time:      the previous event's time, midnight wraps included
 * @day_offset:     ns added to time-of-day timestamps after midnight
 */
struct trace_analysis {
	const char *prefix;
	unsigned int nfunctions;
	struct trace_function *function[TRACE_MAX_FUNCTIONS];
	uint64_t events;
	uint64_t other_events;
	uint64_t malformed;
	uint64_t warnings;
	enum trace_clock clock;
	uint64_t last_time;
	uint64_t day_offset;
};

/*
 * The reason trace_analysis_line() gives when out of memory: not the
 * line's fault, so never to be skipped (compare the pointer).
 */
extern const char trace_out_of_memory[];

void trace_analysis_init(struct trace_analysis *an, const char *prefix);
const char *trace_analysis_line(struct trace_analysis *an, const char *line,
				size_t len);
void trace_analysis_drop_pending(struct trace_analysis *an);
void trace_analysis_free(struct trace_analysis *an);
uint64_t trace_analysis_pairs(const struct trace_analysis *an);

void trace_stats_add(struct trace_stats *s, long double x);
long double trace_stats_stddev(const struct trace_stats *s);

#endif
