/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: what differs between the kernels it builds for, in one
 * place (as lttng-modules keeps its include/wrapper/).  Everything else in
 * the module is written against one API; each difference here is a range
 * of LINUX_VERSION_CODE or a kernel option.
 */
#ifndef _LTTNG_CALIBRATE_COMPAT_H
#define _LTTNG_CALIBRATE_COMPAT_H

#include <linux/ktime.h>
#include <linux/version.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#include <asm/tsc.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <clocksource/arm_arch_timer.h>
#endif

/* Whether the kernel built for is @major.@minor.@patch or later. */
#define LTTNG_CALIBRATE_KERNEL_AT_LEAST(major, minor, patch) \
	(KERNEL_VERSION(major, minor, patch) <= LINUX_VERSION_CODE)

/*
 * fprobe: since 5.18 behind CONFIG_FPROBE (Debian's 6.1 does not set it,
 * its 6.12 does).  Handlers got an entry_data pointer and the entry handler
 * a return value in 6.5, which is as old as the module goes; in 6.14
 * fprobe moved onto the function graph tracer, and handlers get a
 * struct ftrace_regs instead of a struct pt_regs.
 *
 * lttng_calibrate_fprobe_set_maxactive(): how many calls of the probed
 * function an fprobe with an exit handler follows at once.  Before 6.14 it
 * preallocates that many instances (nr_maxactive); since 6.14 the entry
 * data live on each task's function graph shadow stack, there is no such
 * limit, and struct fprobe has no nr_maxactive any more.
 */
#if IS_ENABLED(CONFIG_FPROBE) && LTTNG_CALIBRATE_KERNEL_AT_LEAST(6, 5, 0)
#define LTTNG_CALIBRATE_HAVE_FPROBE	1
#include <linux/fprobe.h>
#if LTTNG_CALIBRATE_KERNEL_AT_LEAST(6, 14, 0)
#define lttng_calibrate_fprobe_regs	ftrace_regs
static inline void lttng_calibrate_fprobe_set_maxactive(struct fprobe *fp,
							int maxactive)
{
}
#else
#define lttng_calibrate_fprobe_regs	pt_regs
static inline void lttng_calibrate_fprobe_set_maxactive(struct fprobe *fp,
							int maxactive)
{
	fp->nr_maxactive = maxactive;
}
#endif
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE	NULL
#elif IS_ENABLED(CONFIG_FPROBE)
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE \
	"the fprobe API of kernels before 6.5 is not supported"
#else
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE \
	"the kernel is built without CONFIG_FPROBE"
#endif

/*
 * Whether the kernel's event tracing registered the trace event
 * @system:@event (a module's are registered as it loads, and the load goes
 * on when that fails): 0 when it can be traced, else the error of
 * trace_get_event_file().  Without event tracing, tracepoints have no such
 * event to register, and nothing is missing.
 */
#ifdef CONFIG_EVENT_TRACING
#include <linux/err.h>
#include <linux/trace_events.h>

static inline int lttng_calibrate_event_registered(const char *system,
						   const char *event)
{
	struct trace_event_file *file;

	file = trace_get_event_file(NULL, system, event);
	if (IS_ERR(file))
		return PTR_ERR(file);
	trace_put_event_file(file);
	return 0;
}
#else
static inline int lttng_calibrate_event_registered(const char *system,
						   const char *event)
{
	return 0;
}
#endif

/*
 * The architecture's counter: a free-running count at a known, constant
 * rate, which times a run where the CPU has no finer clock, and which the
 * test PMU's tsc event counts.
 *  - x86: the TSC, read in program order (rdtsc_ordered(), not
 *    get_cycles(), which x86 does not order), so that a timed call cannot
 *    leak out of its window; at tsc_khz, 0 when the kernel does not know it.
 *  - arm64: the generic timer's virtual counter, through
 *    arch_timer_read_counter() (ordered, and with the workarounds of the
 *    timers' errata), at CNTFRQ_EL0, often tens of MHz only.  Its CPUs
 *    have a finer clock where they have a PMU: its cycle counter
 *    (LTTNG_CALIBRATE_HAVE_PMU_CLOCK; lttng-calibrate-clock.c opens it).
 *  - elsewhere: the monotonic fast clock, in ns.
 */
#if defined(CONFIG_X86)
#define LTTNG_CALIBRATE_ARCH_COUNTER_NAME	"tsc"
#define LTTNG_CALIBRATE_HAVE_PMU_CLOCK		0

static __always_inline u64 lttng_calibrate_arch_counter_read(void)
{
	return rdtsc_ordered();
}

static inline u32 lttng_calibrate_arch_counter_khz(void)
{
	return tsc_khz;
}
#elif defined(CONFIG_ARM64)
#define LTTNG_CALIBRATE_ARCH_COUNTER_NAME	"cntvct"
#define LTTNG_CALIBRATE_HAVE_PMU_CLOCK		1

static __always_inline u64 lttng_calibrate_arch_counter_read(void)
{
	return arch_timer_read_counter();
}

static inline u32 lttng_calibrate_arch_counter_khz(void)
{
	return arch_timer_get_cntfrq() / 1000;
}

/*
 * A read of the cycle counter is not ordered with the instructions around
 * it: an isb before it keeps the timed code inside the window.
 */
static __always_inline void lttng_calibrate_pmu_clock_order(void)
{
	isb();
}
#else
#define LTTNG_CALIBRATE_ARCH_COUNTER_NAME	"mono_fast_ns"
#define LTTNG_CALIBRATE_HAVE_PMU_CLOCK		0

static __always_inline u64 lttng_calibrate_arch_counter_read(void)
{
	return ktime_get_mono_fast_ns();
}

static inline u32 lttng_calibrate_arch_counter_khz(void)
{
	return 1000000;
}
#endif

#endif /* _LTTNG_CALIBRATE_COMPAT_H */
