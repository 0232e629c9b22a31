/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bench row, as every tool reads and writes it: the documents'
 * formats, how a row ended, and its fields (their names, in the order of
 * the JSON and CSV rows, and their units).  lttng-calibrate bench writes
 * these rows (cli/formats.c, cli/bench-format.c), lttng-calibrate-compare
 * reads them (compare/bench.c): both from this one description.
 * bench-schema.c holds the tables; it calls nothing.
 */
#ifndef LTTNG_CALIBRATE_LIB_BENCH_SCHEMA_H
#define LTTNG_CALIBRATE_LIB_BENCH_SCHEMA_H

#define LC_BENCH_FORMAT_PREFIX	"lttng-calibrate-bench/"
#define LC_BENCH_FORMAT		LC_BENCH_FORMAT_PREFIX "1"
#define LC_BENCH_KV_FORMAT	"lttng-calibrate-bench-kv/1"

/**
 * enum lc_bench_status - how a row ended
 * @LC_BENCH_OK: measured, and the tracer recorded every call
 * @LC_BENCH_LOST: measured, but the tracer lost events (reason says how many)
 * @LC_BENCH_UNAVAILABLE: this kernel or machine cannot offer it (reason)
 * @LC_BENCH_FAILED: it should have worked but did not (reason)
 * @LC_BENCH_NR_STATUS: how many
 */
enum lc_bench_status {
	LC_BENCH_OK,
	LC_BENCH_LOST,
	LC_BENCH_UNAVAILABLE,
	LC_BENCH_FAILED,
	LC_BENCH_NR_STATUS,
};

/**
 * enum lc_bench_field - the fields of a row, in JSON and CSV order
 * @LC_BENCH_F_MECHANISM: the mechanism ("kprobe", ...)
 * @LC_BENCH_F_STATUS: how the row ended (lc_bench_status_name())
 * @LC_BENCH_F_REASON: why it is not ok; empty when it is
 * @LC_BENCH_F_OVERHEAD_CYCLES: overhead per call (overhead.cycles.mean)
 * @LC_BENCH_F_CI95_CYCLES: half-width of its 95 % interval
 * @LC_BENCH_F_STDDEV_CYCLES: standard deviation of the difference row
 * @LC_BENCH_F_OVERHEAD_NS: overhead per call in ns (overhead.ns.mean)
 * @LC_BENCH_F_CI95_NS: half-width of its 95 % interval
 * @LC_BENCH_F_MEDIAN_CYCLES: median of the difference row
 * @LC_BENCH_F_SAMPLES: iterations measured (run.iterations.done)
 * @LC_BENCH_F_PER_KPROBE: the overhead over the kprobe row's
 * @LC_BENCH_F_EVENTS_EXPECTED: calls of the target the run made
 * @LC_BENCH_F_EVENTS_RECORDED: calls the tracer recorded
 * @LC_BENCH_NR_FIELDS: how many
 */
enum lc_bench_field {
	LC_BENCH_F_MECHANISM,
	LC_BENCH_F_STATUS,
	LC_BENCH_F_REASON,
	LC_BENCH_F_OVERHEAD_CYCLES,
	LC_BENCH_F_CI95_CYCLES,
	LC_BENCH_F_STDDEV_CYCLES,
	LC_BENCH_F_OVERHEAD_NS,
	LC_BENCH_F_CI95_NS,
	LC_BENCH_F_MEDIAN_CYCLES,
	LC_BENCH_F_SAMPLES,
	LC_BENCH_F_PER_KPROBE,
	LC_BENCH_F_EVENTS_EXPECTED,
	LC_BENCH_F_EVENTS_RECORDED,
	LC_BENCH_NR_FIELDS,
};

/* bench-schema.c: the names and units of the fields, by enum lc_bench_field. */
extern const char *const lc_bench_field_names[LC_BENCH_NR_FIELDS];
extern const char *const lc_bench_field_units[LC_BENCH_NR_FIELDS];

const char *lc_bench_status_name(enum lc_bench_status status);
int lc_bench_status_parse(const char *name, enum lc_bench_status *status);

#endif /* LTTNG_CALIBRATE_LIB_BENCH_SCHEMA_H */
