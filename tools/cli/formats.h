/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bench's rows: a row per mechanism (struct lc_bench), filled by
 * measuring (mechanisms.c) or from a recorded key=value file
 * (lc_bench_load_kv()), with the fields, statuses and formats of
 * lib/bench-schema.h; bench-format.c prints them.  formats.c touches no
 * kernel and calls lib/bench-schema.c only.
 */
#ifndef LTTNG_CALIBRATE_CLI_FORMATS_H
#define LTTNG_CALIBRATE_CLI_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../lib/bench-schema.h"

#define LC_BENCH_MAX_ROWS	32
#define LC_BENCH_NAME_MAX	32
#define LC_BENCH_REASON_MAX	256
#define LC_BENCH_TEXT_MAX	256

/**
 * struct lc_bench_row - one mechanism's figures
 * @mechanism: its name ("kprobe", "ftrace-graph", ...)
 * @status: how the row ended
 * @reason: why it is not ok; empty when it is
 * @measured: the run happened: the figures below are set
 * @overhead_cycles: overhead per call (overhead.cycles.mean)
 * @ci95_cycles: half-width of its 95 % interval (overhead.cycles.ci95)
 * @stddev_cycles: standard deviation of the difference row
 * @overhead_ns: overhead per call in ns (overhead.ns.mean)
 * @ci95_ns: half-width of its 95 % interval (overhead.ns.ci95)
 * @median_cycles: median of the difference row (difference.cycles.median)
 * @samples: iterations measured (run.iterations.done)
 * @has_per_kprobe: @per_kprobe is set (a kprobe row was measured)
 * @per_kprobe: @overhead_cycles over the kprobe row's
 * @events_expected: calls of the target the run made, or -1
 * @events_recorded: calls the tracer recorded, or -1
 */
struct lc_bench_row {
	char mechanism[LC_BENCH_NAME_MAX];
	enum lc_bench_status status;
	char reason[LC_BENCH_REASON_MAX];
	int measured;
	double overhead_cycles;
	double ci95_cycles;
	double stddev_cycles;
	double overhead_ns;
	double ci95_ns;
	long long median_cycles;
	long long samples;
	int has_per_kprobe;
	double per_kprobe;
	long long events_expected;
	long long events_recorded;
};

/**
 * struct lc_bench - a whole bench: where it ran, and its rows
 * @kernel: uname -r
 * @cpu_model: the first "model name" of /proc/cpuinfo
 * @iterations: iterations asked of every run
 * @clock: the module's clock (clock.name)
 * @clock_khz: its frequency (clock.khz), or -1
 * @rows: the rows, in order
 * @nr: how many
 */
struct lc_bench {
	char kernel[LC_BENCH_TEXT_MAX];
	char cpu_model[LC_BENCH_TEXT_MAX];
	unsigned long long iterations;
	char clock[LC_BENCH_NAME_MAX];
	long long clock_khz;
	struct lc_bench_row rows[LC_BENCH_MAX_ROWS];
	size_t nr;
};

/* formats.c: the bench's rows, and recorded input. */
struct lc_bench_row *lc_bench_add_row(struct lc_bench *b, const char *name);
int lc_bench_row_set(struct lc_bench_row *row, enum lc_bench_status status,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lc_bench_set_ratios(struct lc_bench *b);
int lc_bench_load_kv(struct lc_bench *b, const char *text, char *why,
		     size_t len);

#endif /* LTTNG_CALIBRATE_CLI_FORMATS_H */
