/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: what kernel instrumentation costs, measured in the kernel.
 *
 * Declarations shared by the module's objects: the probe target and its
 * baseline twin, the clock used to time them, and the state of a run.
 */
#ifndef _LTTNG_CALIBRATE_H
#define _LTTNG_CALIBRATE_H

#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

#include "lttng-calibrate-stats.h"

/*
 * The function that instrumentation is attached to, and its twin that is
 * never instrumented.  Their names are unique in the kernel (lttng-tracer.ko
 * has its own lttng_calibrate_kretprobe()), so that
 * "lttng enable-event --function=lttng_calibrate_target" resolves to ours.
 */
void lttng_calibrate_target(void);
void lttng_calibrate_baseline(void);

#define LTTNG_CALIBRATE_TARGET_SYMBOL	"lttng_calibrate_target"
#define LTTNG_CALIBRATE_BASELINE_SYMBOL	"lttng_calibrate_baseline"

/*
 * Timestamps come from the TSC read in program order (rdtsc_ordered(), not
 * get_cycles(), which x86 does not order), so a timed call cannot leak out of
 * its window.  Elsewhere, the monotonic fast clock in nanoseconds stands in.
 */
#ifdef CONFIG_X86
#define LTTNG_CALIBRATE_CLOCK_NAME	"tsc"

static __always_inline u64 lttng_calibrate_clock_read(void)
{
	return rdtsc_ordered();
}

static inline u32 lttng_calibrate_clock_khz(void)
{
	return tsc_khz;
}
#else
#define LTTNG_CALIBRATE_CLOCK_NAME	"mono_fast_ns"

static __always_inline u64 lttng_calibrate_clock_read(void)
{
	return ktime_get_mono_fast_ns();
}

static inline u32 lttng_calibrate_clock_khz(void)
{
	return 1000000;
}
#endif

/**
 * enum lttng_calibrate_row - what one row of the results describes
 * @LTTNG_CALIBRATE_TARGET: one call of lttng_calibrate_target()
 * @LTTNG_CALIBRATE_BASELINE: one call of lttng_calibrate_baseline()
 * @LTTNG_CALIBRATE_DIFFERENCE: target minus baseline, per iteration: the
 *	cost of whatever instruments the target
 * @LTTNG_CALIBRATE_NR_ROWS: number of rows
 */
enum lttng_calibrate_row {
	LTTNG_CALIBRATE_TARGET,
	LTTNG_CALIBRATE_BASELINE,
	LTTNG_CALIBRATE_DIFFERENCE,
	LTTNG_CALIBRATE_NR_ROWS,
};

/**
 * enum lttng_calibrate_end - how a run ended
 * @LTTNG_CALIBRATE_END_COMPLETE: every asked iteration was done
 * @LTTNG_CALIBRATE_END_INTERRUPTED: a fatal signal stopped the run
 * @LTTNG_CALIBRATE_END_MIGRATED: the thread left its CPU (CPU hot-unplug or
 *	an affinity change from outside), so the run stopped
 */
enum lttng_calibrate_end {
	LTTNG_CALIBRATE_END_COMPLETE,
	LTTNG_CALIBRATE_END_INTERRUPTED,
	LTTNG_CALIBRATE_END_MIGRATED,
};

/**
 * enum lttng_calibrate_mechanism - what the module attaches to the target
 * @LTTNG_CALIBRATE_PROBE_NONE: nothing
 * @LTTNG_CALIBRATE_PROBE_KPROBE: a kprobe with an empty pre-handler
 * @LTTNG_CALIBRATE_PROBE_KRETPROBE: a kretprobe with empty entry and return
 *	handlers and per-instance data
 * @LTTNG_CALIBRATE_PROBE_FPROBE: an fprobe (not available on this kernel)
 * @LTTNG_CALIBRATE_PROBE_EXTERNAL: nothing of ours: someone else (LTTng,
 *	ftrace kprobe events, perf probe, bpftrace) instruments the target
 */
enum lttng_calibrate_mechanism {
	LTTNG_CALIBRATE_PROBE_NONE,
	LTTNG_CALIBRATE_PROBE_KPROBE,
	LTTNG_CALIBRATE_PROBE_KRETPROBE,
	LTTNG_CALIBRATE_PROBE_FPROBE,
	LTTNG_CALIBRATE_PROBE_EXTERNAL,
};

/**
 * enum lttng_calibrate_target_kind - which function a run times
 * @LTTNG_CALIBRATE_TARGET_FUNCTION: lttng_calibrate_target(), empty
 * @LTTNG_CALIBRATE_TARGET_TRACEPOINT: lttng_calibrate_tracepoint_target(),
 *	which holds the lttng_calibrate:lttng_calibrate_event tracepoint
 */
enum lttng_calibrate_target_kind {
	LTTNG_CALIBRATE_TARGET_FUNCTION,
	LTTNG_CALIBRATE_TARGET_TRACEPOINT,
};

/**
 * struct lttng_calibrate_probe - the instrumentation of one run
 * @mechanism: what the module attached
 * @target_kind: which target is timed
 * @work_cycles: cycles each of our handlers spins (ground truth)
 * @target: the timed function
 * @baseline: its twin, never instrumented
 * @kp: the kprobe, for @mechanism kprobe
 * @krp: the kretprobe, for @mechanism kretprobe
 * @registered: @kp or @krp is registered
 * @nmissed: hits the probe missed, read before unregistering
 */
struct lttng_calibrate_probe {
	enum lttng_calibrate_mechanism mechanism;
	enum lttng_calibrate_target_kind target_kind;
	u64 work_cycles;
	void (*target)(void);
	void (*baseline)(void);
	struct kprobe kp;
	struct kretprobe krp;
	bool registered;
	unsigned long nmissed;
};

/* Counters read around every timed call, at most. */
#define LTTNG_CALIBRATE_MAX_COUNTERS	8
/* Metric 0 is time in clock cycles; metric 1 + i is counter i. */
#define LTTNG_CALIBRATE_MAX_METRICS	(1 + LTTNG_CALIBRATE_MAX_COUNTERS)

/**
 * struct lttng_calibrate_counter_spec - a counter, as selected by its name
 * @name: the name perf(1) gives it ("LLC-load-misses", "page-faults", "r01c2")
 * @type: perf_event_attr type
 * @config: perf_event_attr config
 */
struct lttng_calibrate_counter_spec {
	char name[32];
	u32 type;
	u64 config;
};

/**
 * struct lttng_calibrate_counter_set - the counters selected for runs
 * @nr: how many
 * @spec: each of them, in the order they were given
 */
struct lttng_calibrate_counter_set {
	unsigned int nr;
	struct lttng_calibrate_counter_spec spec[LTTNG_CALIBRATE_MAX_COUNTERS];
};

/**
 * struct lttng_calibrate_counter_result - how a counter fared in a run
 * @spec: the counter
 * @valid: it was counting for the whole run; if not, its figures are
 *	withheld
 * @enabled: ns it was enabled
 * @running: ns it was counting; below @enabled when it was pushed out of
 *	the PMU (by the NMI watchdog or another user) for a while
 */
struct lttng_calibrate_counter_result {
	struct lttng_calibrate_counter_spec spec;
	bool valid;
	u64 enabled;
	u64 running;
};

/**
 * struct lttng_calibrate_result - the outcome of one run
 * @number: runs started since the module was loaded, this one included
 * @asked: iterations asked for
 * @done: iterations done; below @asked when the run ended early
 * @cpu: the CPU the run was pinned to
 * @end: how the run ended
 * @clock_khz: frequency of the clock that timed the run
 * @mechanism: what the module attached to the target
 * @target_kind: which target was timed
 * @work_cycles: cycles each of the module's handlers spun
 * @nmissed: probe hits missed (kprobe or kretprobe)
 * @wall_cycles: clock cycles from the first iteration to the last, loop,
 *	statistics and scheduling points included
 * @nr_counters: counters read around every call
 * @counter: how each counter fared
 * @cold: the first (cold-cache) sample, per metric and row; it is taken
 *	before the @asked iterations and kept out of @stats
 * @stats: per metric (time in clock cycles, then each counter) and row,
 *	statistics over the @done iterations
 *
 * A result is built by the run, then published whole: readers only ever see
 * a finished result.
 */
struct lttng_calibrate_result {
	u64 number;
	u64 asked;
	u64 done;
	int cpu;
	enum lttng_calibrate_end end;
	u32 clock_khz;
	enum lttng_calibrate_mechanism mechanism;
	enum lttng_calibrate_target_kind target_kind;
	u64 work_cycles;
	unsigned long nmissed;
	u64 wall_cycles;
	unsigned int nr_counters;
	struct lttng_calibrate_counter_result counter[LTTNG_CALIBRATE_MAX_COUNTERS];
	s64 cold[LTTNG_CALIBRATE_MAX_METRICS][LTTNG_CALIBRATE_NR_ROWS];
	struct lttng_calibrate_stats stats[][LTTNG_CALIBRATE_NR_ROWS];
};

/*
 * Reads a counter in place, as resctrl's pseudo-lock does: on the counter's
 * own CPU with preemption off, no IPI, no sleep.  Its cost is inside both
 * timed windows and cancels in the difference.
 */
static __always_inline u64 lttng_calibrate_counter_read(struct perf_event *event)
{
	event->pmu->read(event);
	return local64_read(&event->count);
}

void lttng_calibrate_tracepoint_target(void);

/* lttng-calibrate-probe.c */
const char *lttng_calibrate_mechanism_name(enum lttng_calibrate_mechanism mech);
const char *lttng_calibrate_target_name(enum lttng_calibrate_target_kind kind);
int lttng_calibrate_probe_setup(struct lttng_calibrate_probe *p);
void lttng_calibrate_probe_teardown(struct lttng_calibrate_probe *p);
void lttng_calibrate_probe_init(struct dentry *dir);

/**
 * struct lttng_calibrate_uint_param - an unsigned module parameter and its
 *	range, the arg of lttng_calibrate_uint_ops
 * @value: the parameter
 * @min: smallest value accepted
 * @max: largest value accepted
 */
struct lttng_calibrate_uint_param {
	unsigned int *value;
	unsigned int min;
	unsigned int max;
};

/* lttng-calibrate.c */
extern const struct kernel_param_ops lttng_calibrate_uint_ops;
bool lttng_calibrate_run_trylock(void);
void lttng_calibrate_run_unlock(void);

/* lttng-calibrate-pmu.c */
int lttng_calibrate_counter_parse(const char *name,
				  struct lttng_calibrate_counter_spec *spec);
struct perf_event *
lttng_calibrate_counter_open(const struct lttng_calibrate_counter_spec *spec,
			     int cpu);
void lttng_calibrate_counter_close(struct perf_event *event);
bool lttng_calibrate_counter_active(struct perf_event *event);
u64 lttng_calibrate_counter_times(struct perf_event *event, u64 *enabled,
				  u64 *running);
void lttng_calibrate_counters_get(struct lttng_calibrate_counter_set *set);
void lttng_calibrate_counters_init(struct dentry *dir);

/* lttng-calibrate-deltas.c */
struct lttng_calibrate_deltas;
int lttng_calibrate_deltas_start(const struct lttng_calibrate_counter_set *set);
void lttng_calibrate_deltas_lock(void);
void lttng_calibrate_deltas_unlock(void);
void lttng_calibrate_deltas_add(s64 sample[][LTTNG_CALIBRATE_NR_ROWS]);
void lttng_calibrate_deltas_init(struct dentry *dir);
void lttng_calibrate_deltas_exit(void);

#endif /* _LTTNG_CALIBRATE_H */
