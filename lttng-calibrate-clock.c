// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the clock that times a run and the work of its
 * handlers: the architecture's counter or, where the architecture has a
 * finer clock (arm64), the CPU's cycle counter as a pinned perf event:
 * finer than the generic timer's counter (62.5 MHz under QEMU, 16 ns a
 * tick), and exact under QEMU -icount.  Read in place
 * (lttng-calibrate-clock.h).
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-clock.h"

#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

/* How long the cycle counter is measured against the ns clock. */
#define CALIBRATION_NS	(NSEC_PER_MSEC)

/**
 * lttng_calibrate_clock_open() - the clock of a run
 * @clk: receives it
 * @cpu: the run's CPU
 *
 * The architecture's counter, or, where the architecture has a finer clock
 * (LTTNG_CALIBRATE_HAVE_PMU_CLOCK), the CPU's cycle counter, as a pinned
 * cycles event.  A CPU without a PMU, or whose PMU refuses the event,
 * falls back to the architecture's counter.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOMEM.
 */
int lttng_calibrate_clock_open(struct lttng_calibrate_clock *clk, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.pinned = 1,
	};
	struct perf_event *event;

	*clk = (struct lttng_calibrate_clock) {
		.name = LTTNG_CALIBRATE_ARCH_COUNTER_NAME,
		.khz = lttng_calibrate_arch_counter_khz(),
		.cpu = cpu,
	};
	if (!LTTNG_CALIBRATE_HAVE_PMU_CLOCK)
		return 0;
	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(event))
		return PTR_ERR(event) == -ENOMEM ? -ENOMEM : 0;
	clk->event = event;
	clk->pmu = true;
	clk->name = "cpu_cycles";
	clk->khz = 0;
	return 0;
}

/**
 * lttng_calibrate_clock_start() - the clock's frequency, before the run
 * @clk: what lttng_calibrate_clock_open() gave
 *
 * The cycle counter runs at the CPU's frequency, which the kernel does not
 * publish: it is measured against the monotonic clock, for CALIBRATION_NS
 * with interrupts off.  A cycle counter that the PMU could not schedule
 * (its counters all taken by other pinned events) gives way to the
 * architecture's counter.
 *
 * Context: the run's thread, bound to its CPU.
 * Return: 0; -EAGAIN when the thread is not on the run's CPU (it went
 * offline, or never let the thread run there); -EIO when the counter did
 * not advance.
 */
int lttng_calibrate_clock_start(struct lttng_calibrate_clock *clk)
{
	u64 c0, c1, t0, t1, khz;
	unsigned long flags;

	if (!clk->pmu)
		return 0;
	local_irq_save(flags);
	if (smp_processor_id() != clk->cpu) {
		local_irq_restore(flags);
		return -EAGAIN;
	}
	c0 = lttng_calibrate_clock_read(clk);
	t0 = ktime_get_mono_fast_ns();
	do {
		t1 = ktime_get_mono_fast_ns();
	} while (t1 - t0 < CALIBRATION_NS);
	c1 = lttng_calibrate_clock_read(clk);
	local_irq_restore(flags);
	if (clk->lost) {
		clk->pmu = false;
		clk->lost = false;
		clk->name = LTTNG_CALIBRATE_ARCH_COUNTER_NAME;
		clk->khz = lttng_calibrate_arch_counter_khz();
		return 0;
	}
	if (c1 <= c0 || c1 - c0 > U64_MAX / NSEC_PER_MSEC)
		return -EIO;
	khz = div64_u64((c1 - c0) * NSEC_PER_MSEC, t1 - t0);
	if (!khz || khz > U32_MAX)
		return -EIO;
	clk->khz = khz;
	return 0;
}

/* Context: process context, may sleep. */
void lttng_calibrate_clock_close(struct lttng_calibrate_clock *clk)
{
	if (clk->event)
		perf_event_release_kernel(clk->event);
	clk->event = NULL;
	clk->pmu = false;
}
