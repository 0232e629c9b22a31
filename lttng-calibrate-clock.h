/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: the clock of lttng-calibrate-clock.c, which times a run
 * and its handlers' work, read in place.
 */
#ifndef _LTTNG_CALIBRATE_CLOCK_H
#define _LTTNG_CALIBRATE_CLOCK_H

#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "lttng-calibrate.h"
#include "lttng-calibrate-counters.h"

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

int lttng_calibrate_clock_open(struct lttng_calibrate_clock *clk, int cpu);
int lttng_calibrate_clock_start(struct lttng_calibrate_clock *clk);
void lttng_calibrate_clock_close(struct lttng_calibrate_clock *clk);

#endif /* _LTTNG_CALIBRATE_CLOCK_H */
