/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows and their formats, for both commands: a row per mechanism
 * (struct lc_bench), filled by measuring (mechanisms.c) or from a
 * recorded key=value file (lc_bench_load_kv()), printed as a table, CSV,
 * JSON or an SVG bar chart; predict's rows are printed by the same
 * writer.  formats.c touches no kernel and calls tools/lib only, so that
 * the output code is tested without one.
 */
#ifndef LTTNG_CALIBRATE_CLI_FORMATS_H
#define LTTNG_CALIBRATE_CLI_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LC_BENCH_FORMAT		"lttng-calibrate-bench/1"
#define LC_BENCH_KV_FORMAT	"lttng-calibrate-bench-kv/1"
#define LC_BENCH_MAX_ROWS	32
#define LC_BENCH_NAME_MAX	32
#define LC_BENCH_REASON_MAX	256
#define LC_BENCH_TEXT_MAX	256

/**
 * enum lc_bench_status - how a row ended
 * @LC_BENCH_OK: measured, and the tracer recorded every call
 * @LC_BENCH_LOST: measured, but the tracer lost events (reason says how many)
 * @LC_BENCH_UNAVAILABLE: this kernel or machine cannot offer it (reason)
 * @LC_BENCH_FAILED: it should have worked but did not (reason)
 */
enum lc_bench_status {
	LC_BENCH_OK,
	LC_BENCH_LOST,
	LC_BENCH_UNAVAILABLE,
	LC_BENCH_FAILED,
};

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
 * @chart: for another command's chart drawn by lc_bench_plot_svg() (rows
 *	whose overhead_cycles and ci95_cycles hold its own figures): its
 *	title, subtitle, axis and unit, and the figures' decimals; NULL
 *	title for the bench's own
 */
struct lc_bench {
	char kernel[LC_BENCH_TEXT_MAX];
	char cpu_model[LC_BENCH_TEXT_MAX];
	unsigned long long iterations;
	char clock[LC_BENCH_NAME_MAX];
	long long clock_khz;
	struct lc_bench_row rows[LC_BENCH_MAX_ROWS];
	size_t nr;
	struct {
		const char *title;
		char subtitle[LC_BENCH_TEXT_MAX];
		const char *axis;
		const char *unit;
		int decimals;
	} chart;
};

/**
 * enum lc_cell_kind - how a field of a row is written
 * @LC_CELL_NULL: not known: empty in CSV, null in JSON
 * @LC_CELL_STRING: a string: quoted as it must be in CSV, a JSON string
 * @LC_CELL_RAW: a number or a literal (true, false): written as it is
 */
enum lc_cell_kind {
	LC_CELL_NULL,
	LC_CELL_STRING,
	LC_CELL_RAW,
};

/**
 * struct lc_cell - a field of a row, for the writer (lc_fmt_*())
 * @kind: how it is written
 * @text: its text ("" for a null)
 */
struct lc_cell {
	enum lc_cell_kind kind;
	char text[LC_BENCH_REASON_MAX];
};

/* formats.c: the writer of rows, for both commands. */
void lc_cell_set(struct lc_cell *cell, enum lc_cell_kind kind,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lc_fmt_table_row(FILE *out, const int *widths, const char *const *cells,
		      size_t n, const char *tail);
void lc_fmt_csv_header(FILE *out, const char *const *names, size_t n);
void lc_fmt_csv_row(FILE *out, const struct lc_cell *cells, size_t n);
void lc_fmt_json_row(FILE *out, bool first, const char *const *names,
		     const struct lc_cell *cells, const size_t *order,
		     size_t n);

/* formats.c: the bench's rows, and recorded input. */
const char *lc_bench_status_name(enum lc_bench_status status);
struct lc_bench_row *lc_bench_add_row(struct lc_bench *b, const char *name);
int lc_bench_row_set(struct lc_bench_row *row, enum lc_bench_status status,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lc_bench_set_ratios(struct lc_bench *b);
int lc_bench_print_table(const struct lc_bench *b, FILE *out);
int lc_bench_print_csv(const struct lc_bench *b, FILE *out);
int lc_bench_print_json(const struct lc_bench *b, FILE *out);
int lc_bench_plot_svg(const struct lc_bench *b, FILE *out);
int lc_bench_load_kv(struct lc_bench *b, const char *text, char *why,
		     size_t len);

#endif /* LTTNG_CALIBRATE_CLI_FORMATS_H */
