/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bench mode: compare the "lttng-calibrate bench --format json" outputs
 * of several kernels, builds or machines, mechanism by mechanism, with
 * Welch's t-test on their summary statistics (mean, stddev, n).  The rows
 * are read by the bench row's description that lttng-calibrate writes
 * them by (lib/bench-schema.h); bench.c reads and compares, bench-report.c
 * prints.
 */
#ifndef LTTNG_CALIBRATE_COMPARE_BENCH_H
#define LTTNG_CALIBRATE_COMPARE_BENCH_H

#include <stdio.h>

#include "report.h"
#include "../lib/bench-schema.h"
#include "../lib/stats.h"

enum bench_metric {
	BENCH_CYCLES,
	BENCH_NS,
};

/**
 * struct bench_row - one mechanism of one bench file
 * @mechanism: "kprobe", "tracepoint-ftrace"...
 * @status:    how its measurement went; only LC_BENCH_OK rows are compared
 * @reason:    why it is not ok ("no CONFIG_FPROBE"), or ""
 * @sum:       LC_BENCH_OK: n (samples), mean (overhead) and stddev of the
 *             chosen metric; min, max and median are NAN
 */
struct bench_row {
	char *mechanism;
	enum lc_bench_status status;
	char *reason;
	struct summary sum;
};

/**
 * struct bench_file - one "lttng-calibrate-bench/1" document
 * @path:       the file argument ("<stdin>" for "-")
 * @kernel:     the kernel it ran on
 * @cpu_model:  the CPU, or "" when null
 * @clock:      the clock of the cycle counts, or "" when null
 * @iterations: calls measured per mechanism, or NAN when null
 * @clock_khz:  frequency of @clock, or NAN when null
 * @rows:       its mechanisms, in file order
 * @nrows:      number of @rows
 */
struct bench_file {
	const char *path;
	char *kernel;
	char *cpu_model;
	char *clock;
	double iterations;
	double clock_khz;
	struct bench_row *rows;
	size_t nrows;
};

/**
 * struct bench_cell - one mechanism in one input
 * @row:       the input's row, or NULL when it has no such mechanism
 * @halfwidth: LC_BENCH_OK: half width of the confidence interval of the
 *             mean (Student's t, n - 1 degrees of freedom)
 * @tested:    1 when @test holds this input against the base (both ok)
 * @test:      Welch's t-test of this input against the first one
 */
struct bench_cell {
	const struct bench_row *row;
	double halfwidth;
	int tested;
	struct welch test;
};

/**
 * struct bench_mechanism - one line of the comparison
 * @name:    the mechanism
 * @in_base: 0 for a mechanism absent from the first input (no verdict)
 * @cells:   one per input
 */
struct bench_mechanism {
	const char *name;
	int in_base;
	struct bench_cell *cells;
};

/**
 * struct bench_comparison - every mechanism of every input
 * @files:       the inputs, the first one being the base
 * @nfiles:      number of @files, at least 2
 * @metric:      what is compared
 * @confidence:  confidence level in percent
 * @mechs:       the mechanisms of the base in its order, then the others
 *               in order of first appearance
 * @nmechs:      number of @mechs
 * @cpu_differs: the inputs do not share one cpu_model
 * @clock_differs: the inputs do not share one clock
 */
struct bench_comparison {
	const struct bench_file *files;
	size_t nfiles;
	enum bench_metric metric;
	double confidence;
	struct bench_mechanism *mechs;
	size_t nmechs;
	int cpu_differs;
	int clock_differs;
};

int bench_metric_parse(const char *name, enum bench_metric *metric);
const char *bench_metric_name(enum bench_metric metric);
int bench_looks_like(const char *path);
int bench_parse(const char *path, const char *text, size_t len,
		enum bench_metric metric, struct bench_file *file);
int bench_read(const char *path, enum bench_metric metric,
	       struct bench_file *file);
void bench_file_free(struct bench_file *file);
int bench_compare(const struct bench_file *files, size_t nfiles,
		  enum bench_metric metric, double confidence,
		  struct bench_comparison *cmp);
void bench_comparison_free(struct bench_comparison *cmp);
void bench_report(FILE *out, enum lc_format format,
		  const struct bench_comparison *cmp);

#endif
