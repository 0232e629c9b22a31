/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: the counters of lttng-calibrate-counters.c, for the run
 * engine that reads them and for the files that select them; and the clock
 * that times a run, which is a counter too where it is the CPU's cycle
 * counter.
 */
#ifndef _LTTNG_CALIBRATE_COUNTERS_H
#define _LTTNG_CALIBRATE_COUNTERS_H

#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "lttng-calibrate.h"

/**
 * struct lttng_calibrate_run_counters - the perf events of one run
 * @nr: events created
 * @cpu: the CPU they count on
 * @event: each event
 * @lost: bit i set once counter i was seen not counting on @cpu
 */
struct lttng_calibrate_run_counters {
	unsigned int nr;
	int cpu;
	struct perf_event *event[LTTNG_CALIBRATE_MAX_COUNTERS];
	unsigned long lost;
};

/*
 * Reads @event in place, the way perf_event_read_local() does: only while
 * it is active on @cpu, which is this CPU, with interrupts off (perf calls
 * a PMU's read() so), no IPI, no sleep.  Returns false when the event is
 * not counting here.
 */
static __always_inline bool
lttng_calibrate_event_read(struct perf_event *event, int cpu, u64 *value)
{
	if (unlikely(READ_ONCE(event->oncpu) != cpu))
		return false;
	event->pmu->read(event);
	*value = local64_read(&event->count);
	return true;
}

/*
 * Reads counter @i.  A counter found elsewhere reads as 0 and is marked
 * lost: its figures will be withheld.  The cost is inside both timed
 * windows and cancels in the difference.
 */
static __always_inline u64
lttng_calibrate_counter_read(struct lttng_calibrate_run_counters *rc,
			     unsigned int i)
{
	u64 value;

	if (unlikely(!lttng_calibrate_event_read(rc->event[i], rc->cpu,
						 &value))) {
		rc->lost |= BIT(i);
		return 0;
	}
	return value;
}

/**
 * struct lttng_calibrate_clock - what times a run
 * @name: its name in the results: the architecture's counter
 *	(LTTNG_CALIBRATE_ARCH_COUNTER_NAME) or "cpu_cycles"
 * @khz: its frequency; for the cycle counter, measured on the run's CPU
 *	before the first sample
 * @cpu: the run's CPU
 * @event: the CPU's cycle counter, pinned to @cpu, where the architecture
 *	has a finer clock than its counter and the PMU gave one; else NULL
 * @pmu: @event is the clock; false: the architecture's counter is
 * @lost: @event was found not counting on @cpu, or read away from @cpu:
 *	the samples timed since are void, and the run ends there, as when
 *	its CPU goes away
 */
struct lttng_calibrate_clock {
	const char *name;
	u32 khz;
	int cpu;
	struct perf_event *event;
	bool pmu;
	bool lost;
};

/*
 * The run's clock, read in program order.  The cycle counter is read in
 * place with interrupts off, also where the caller has them on (between
 * samples, or inside them when "irqs" says so), and only on the run's CPU:
 * another CPU's PMU registers hold other counts.
 */
static __always_inline u64
lttng_calibrate_clock_read(struct lttng_calibrate_clock *clk)
{
#if LTTNG_CALIBRATE_HAVE_PMU_CLOCK
	unsigned long flags;
	u64 value;

	if (clk->pmu) {
		local_irq_save(flags);
		lttng_calibrate_pmu_clock_order();
		if (unlikely(smp_processor_id() != clk->cpu ||
			     !lttng_calibrate_event_read(clk->event, clk->cpu,
							 &value))) {
			/* Time stops at the last reading. */
			value = local64_read(&clk->event->count);
			clk->lost = true;
		}
		local_irq_restore(flags);
		return value;
	}
#endif
	return lttng_calibrate_arch_counter_read();
}

int lttng_calibrate_counters_create(struct lttng_calibrate_run_counters *rc,
				    const struct lttng_calibrate_counter_set *set,
				    int cpu);
void lttng_calibrate_counters_check(struct lttng_calibrate_run_counters *rc);
void lttng_calibrate_counters_release(struct lttng_calibrate_run_counters *rc,
				      struct lttng_calibrate_counter_result *out);
int lttng_calibrate_clock_open(struct lttng_calibrate_clock *clk, int cpu);
int lttng_calibrate_clock_start(struct lttng_calibrate_clock *clk);
void lttng_calibrate_clock_close(struct lttng_calibrate_clock *clk);
int lttng_calibrate_counters_move(struct lttng_calibrate_settings *s, int cpu);
int lttng_calibrate_counters_init(struct dentry *dir);
void lttng_calibrate_counters_exit(void);

#endif /* _LTTNG_CALIBRATE_COUNTERS_H */
