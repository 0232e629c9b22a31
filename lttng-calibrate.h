/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: what kernel instrumentation costs, measured in the kernel.
 *
 * Declarations shared by the module's objects: the probe target and its
 * baseline twin, the clock used to time them, and the state of a run.
 */
#ifndef _LTTNG_CALIBRATE_H
#define _LTTNG_CALIBRATE_H

#include <linux/ktime.h>
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
 * struct lttng_calibrate_result - the outcome of one run
 * @number: runs started since the module was loaded, this one included
 * @asked: iterations asked for
 * @done: iterations done; below @asked when the run ended early
 * @cpu: the CPU the run was pinned to
 * @end: how the run ended
 * @clock_khz: frequency of the clock that timed the run
 * @cold: the first (cold-cache) sample, per row, in clock cycles; it is
 *	taken before the @asked iterations and kept out of @stats
 * @stats: per-row statistics in clock cycles over the @done iterations
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
	s64 cold[LTTNG_CALIBRATE_NR_ROWS];
	struct lttng_calibrate_stats stats[LTTNG_CALIBRATE_NR_ROWS];
};

#endif /* _LTTNG_CALIBRATE_H */
