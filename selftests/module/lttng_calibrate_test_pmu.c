// SPDX-License-Identifier: GPL-2.0
/*
 * lttng_calibrate_test_pmu: a perf PMU whose counts are known, for the
 * kselftests of lttng_calibrate on machines without a hardware PMU (QEMU
 * TCG).  It is a test module, not part of lttng_calibrate.ko.
 *
 * It registers the PMU "lttng_calibrate_test" (the "name" parameter):
 * CPU-wide counting events only, "counters" counters per CPU (a parameter,
 * default 2), on the CPUs of "cpus" (a mask, default all: a PMU of one
 * kind of core, as on hybrid machines), and these events, listed in
 * /sys/bus/event_source/devices/lttng_calibrate_test/:
 *
 *   tsc    event=0x1  the architecture's counter while it is scheduled
 *                     (lttng-calibrate-compat.h: the TSC on x86, the
 *                     generic timer's virtual counter on arm64);
 *                     events/tsc.scale says how many ns a count is, and
 *                     events/tsc.unit "ns", as perf(1) reads them
 *   calls  event=0x2  calls of calls_symbol (a parameter, default
 *                     lttng_calibrate_target), which a kprobe registered
 *                     when the module loads counts; when that kprobe could
 *                     not be registered (no such function then), or its
 *                     function's module went away since, a calls event
 *                     fails to open with the error
 *   idle   event=0x3  nothing: always 0
 *
 * Format: event (config:0-7); fail_add (config1:0), add() fails, so the
 * event is never scheduled; tag (config2:0-7), ignored, so that otherwise
 * equal events can be told apart; pad (config1:1-63), ignored, so that an
 * event's config words can be as long as 64 bits allow.
 *
 * It also counts, in "reads_irqs_on", the reads of its counters made with
 * interrupts enabled: perf itself reads a counter only with interrupts off,
 * and so must every reader in place.
 *
 * It misbehaves the ways hardware and perf do:
 *  - more pinned events than counters: add() fails for the extra ones;
 *  - fail_add=1: add() fails;
 *  - "counters" may be lowered at any time: the next time perf schedules
 *    the CPU's events again (when another pinned user of this PMU comes on
 *    that CPU), events that had a counter lose it;
 *  - unloading it while an event exists is refused: every event holds a
 *    reference to the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "lttng-calibrate-compat.h"

#define TEST_PMU_MAX_COUNTERS	8

enum test_pmu_code {
	TEST_PMU_TSC = 1,
	TEST_PMU_CALLS,
	TEST_PMU_IDLE,
};

#define TEST_PMU_EVENT_MASK	GENMASK_ULL(7, 0)
#define TEST_PMU_FAIL_ADD	BIT_ULL(0)
#define TEST_PMU_PAD_MASK	GENMASK_ULL(63, 1)
#define TEST_PMU_TAG_MASK	GENMASK_ULL(7, 0)

static unsigned int counters = 2;

static int test_pmu_counters_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, TEST_PMU_MAX_COUNTERS);
}

static const struct kernel_param_ops test_pmu_counters_ops = {
	.set = test_pmu_counters_set,
	.get = param_get_uint,
};
module_param_cb(counters, &test_pmu_counters_ops, &counters, 0644);
MODULE_PARM_DESC(counters, "counters per CPU, 0 to 8 (default 2); lowering it takes counters away at the next reschedule");

static char *calls_symbol = "lttng_calibrate_target";
module_param(calls_symbol, charp, 0444);
MODULE_PARM_DESC(calls_symbol, "the function whose calls the calls event counts (default lttng_calibrate_target)");

static char *name = "lttng_calibrate_test";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the PMU's name (default lttng_calibrate_test)");

static unsigned long cpus = ~0UL;
module_param(cpus, ulong, 0444);
MODULE_PARM_DESC(cpus, "mask of the CPUs whose events it opens (default all); others get ENOENT");

static unsigned int reads_irqs_on;
module_param(reads_irqs_on, uint, 0444);
MODULE_PARM_DESC(reads_irqs_on, "reads of a counter made with interrupts enabled (should stay 0)");

/* Counters in use on each CPU; changed by perf with the CPU's events locked. */
static DEFINE_PER_CPU(unsigned int, test_pmu_used);
/* Calls of calls_symbol, per CPU. */
static DEFINE_PER_CPU(u64, test_pmu_calls);

/*
 * The kprobe that counts calls, registered at module init: perf calls
 * ->event_init() of a group's sibling with the leader's ctx->mutex held,
 * and registering a kprobe there would take cpus_read_lock() (to arm it)
 * inside ctx->mutex, the reverse of CPU hotplug's order.
 */
static struct kprobe test_pmu_kp;
/* 0 once registered, else why it could not be. */
static int test_pmu_calls_err;

static int test_pmu_calls_pre(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(test_pmu_calls);
	return 0;
}

/* Whether calls can be counted: the kprobe is there and its function too. */
static int test_pmu_calls_check(void)
{
	if (test_pmu_calls_err)
		return test_pmu_calls_err;
	/* Its module unloaded, the kprobe counts nothing any more. */
	if (kprobe_gone(&test_pmu_kp))
		return -ENOENT;
	return 0;
}

/* What the event's counter would read now, on its CPU. */
static u64 test_pmu_value(struct perf_event *event)
{
	switch (event->hw.config) {
	case TEST_PMU_TSC:
		return lttng_calibrate_arch_counter_read();
	case TEST_PMU_CALLS:
		return per_cpu(test_pmu_calls, event->cpu);
	default:
		return 0;
	}
}

static int test_pmu_event_init(struct perf_event *event)
{
	u64 code = event->attr.config & TEST_PMU_EVENT_MASK;
	int err;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	/* As a PMU of one kind of core does for the other kind's CPUs. */
	if (event->cpu >= BITS_PER_LONG || !(cpus & BIT(event->cpu)))
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	if (event->attr.config & ~TEST_PMU_EVENT_MASK ||
	    event->attr.config1 & ~(TEST_PMU_FAIL_ADD | TEST_PMU_PAD_MASK) ||
	    event->attr.config2 & ~TEST_PMU_TAG_MASK ||
	    code < TEST_PMU_TSC || code > TEST_PMU_IDLE)
		return -EINVAL;
	if (code == TEST_PMU_CALLS) {
		err = test_pmu_calls_check();
		if (err)
			return err;
	}
	event->hw.config = code;
	return 0;
}

static void test_pmu_read(struct perf_event *event)
{
	u64 now, prev;

	if (!irqs_disabled())
		WRITE_ONCE(reads_irqs_on, READ_ONCE(reads_irqs_on) + 1);
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	now = test_pmu_value(event);
	prev = local64_xchg(&event->hw.prev_count, now);
	local64_add(now - prev, &event->count);
}

static void test_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	local64_set(&event->hw.prev_count, test_pmu_value(event));
}

static void test_pmu_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	test_pmu_read(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int test_pmu_add(struct perf_event *event, int flags)
{
	unsigned int *used = this_cpu_ptr(&test_pmu_used);

	if (event->attr.config1 & TEST_PMU_FAIL_ADD)
		return -EIO;
	if (*used >= READ_ONCE(counters))
		return -EAGAIN;
	(*used)++;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		test_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void test_pmu_del(struct perf_event *event, int flags)
{
	unsigned int *used = this_cpu_ptr(&test_pmu_used);

	test_pmu_stop(event, PERF_EF_UPDATE);
	(*used)--;
}

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(fail_add, "config1:0");
PMU_FORMAT_ATTR(tag, "config2:0-7");
PMU_FORMAT_ATTR(pad, "config1:1-63");

static struct attribute *test_pmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_fail_add.attr,
	&format_attr_tag.attr,
	&format_attr_pad.attr,
	NULL,
};

static const struct attribute_group test_pmu_format_group = {
	.name = "format",
	.attrs = test_pmu_format_attrs,
};

PMU_EVENT_ATTR_STRING(tsc, test_pmu_event_tsc, "event=0x1");
PMU_EVENT_ATTR_STRING(calls, test_pmu_event_calls, "event=0x2");
PMU_EVENT_ATTR_STRING(idle, test_pmu_event_idle, "event=0x3");

/* ns per count of tsc: 10^6 / kHz, with nine decimals. */
static ssize_t test_pmu_tsc_scale_show(struct device *dev,
				       struct device_attribute *attr,
				       char *page)
{
	u64 scale = div_u64(1000000000000000ULL,
			    lttng_calibrate_arch_counter_khz());
	u32 frac;
	u64 whole = div_u64_rem(scale, NSEC_PER_SEC, &frac);

	return sysfs_emit(page, "%llu.%09u\n", whole, frac);
}

static struct device_attribute test_pmu_event_tsc_scale = {
	.attr = { .name = "tsc.scale", .mode = 0444 },
	.show = test_pmu_tsc_scale_show,
};

static struct perf_pmu_events_attr test_pmu_event_tsc_unit = {
	.attr = {
		.attr = { .name = "tsc.unit", .mode = 0444 },
		.show = perf_event_sysfs_show,
	},
	.event_str = "ns",
};

static struct attribute *test_pmu_events_attrs[] = {
	&test_pmu_event_tsc.attr.attr,
	&test_pmu_event_tsc_scale.attr,
	&test_pmu_event_tsc_unit.attr.attr,
	&test_pmu_event_calls.attr.attr,
	&test_pmu_event_idle.attr.attr,
	NULL,
};

static const struct attribute_group test_pmu_events_group = {
	.name = "events",
	.attrs = test_pmu_events_attrs,
};

static const struct attribute_group *test_pmu_attr_groups[] = {
	&test_pmu_format_group,
	&test_pmu_events_group,
	NULL,
};

static struct pmu test_pmu = {
	.module = THIS_MODULE,
	.task_ctx_nr = perf_invalid_context,
	.capabilities = PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.attr_groups = test_pmu_attr_groups,
	.event_init = test_pmu_event_init,
	.add = test_pmu_add,
	.del = test_pmu_del,
	.start = test_pmu_start,
	.stop = test_pmu_stop,
	.read = test_pmu_read,
};

static int __init test_pmu_init(void)
{
	int err;

	if (!lttng_calibrate_arch_counter_khz())
		return -ENODEV;
	test_pmu_kp.symbol_name = calls_symbol;
	test_pmu_kp.pre_handler = test_pmu_calls_pre;
	test_pmu_calls_err = register_kprobe(&test_pmu_kp);
	if (test_pmu_calls_err)
		pr_info("no kprobe on %s (error %d): calls events fail to open\n",
			calls_symbol, test_pmu_calls_err);
	err = perf_pmu_register(&test_pmu, name, -1);
	if (err)
		goto out_unregister_kprobe;
	pr_info("PMU %s, type %d, %u counters per CPU\n", name, test_pmu.type,
		counters);
	return 0;

out_unregister_kprobe:
	if (!test_pmu_calls_err)
		unregister_kprobe(&test_pmu_kp);
	return err;
}

static void __exit test_pmu_exit(void)
{
	perf_pmu_unregister(&test_pmu);
	if (!test_pmu_calls_err)
		unregister_kprobe(&test_pmu_kp);
}

module_init(test_pmu_init);
module_exit(test_pmu_exit);

MODULE_DESCRIPTION("A perf PMU with known counts, for lttng_calibrate's kselftests");
MODULE_LICENSE("GPL");
