// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the counters of a run.  They are created for its CPU
 * before it starts, pinned, counting everything that happens on that CPU,
 * read in place around every call (lttng-calibrate-counters.h), and
 * released, each with its verdict, when it ends.  And the note "counters"
 * shows when a list was refused.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-counters.h"

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/string.h>

/* The last refusal of a list, as "counters" shows it; and its lock. */
static DEFINE_MUTEX(refusal_lock);
static char counters_refusal[256];

/**
 * lttng_calibrate_counter_open() - a counter's perf event, pinned
 * @spec: the counter
 * @cpu: the CPU whose activity it counts
 * @disabled: created disabled (held for a selection) or counting (a run's)
 *
 * Context: process context, may sleep.
 * Return: the event, or an error pointer.
 */
struct perf_event *
lttng_calibrate_counter_open(const struct lttng_calibrate_counter_spec *spec,
			     int cpu, bool disabled)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.config1 = spec->config1,
		.config2 = spec->config2,
		.pinned = 1,
		.disabled = disabled,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/**
 * lttng_calibrate_counter_close() - release a counter's event
 * @event: the event, an error pointer or NULL
 *
 * Only real events are released: releasing an error pointer is what makes
 * other tracers oops when a hardware event cannot be created.
 *
 * Context: process context, may sleep.
 */
void lttng_calibrate_counter_close(struct perf_event *event)
{
	if (!IS_ERR_OR_NULL(event))
		perf_event_release_kernel(event);
}

/**
 * lttng_calibrate_counters_refuse() - note why a list was refused
 * @err: the error to return
 * @fmt: why, as "counters" will show it after "last list refused: "
 *
 * Return: @err.
 */
int lttng_calibrate_counters_refuse(int err, const char *fmt, ...)
{
	va_list args;
	size_t n;

	va_start(args, fmt);
	mutex_lock(&refusal_lock);
	n = scnprintf(counters_refusal, sizeof(counters_refusal),
		      "last list refused: ");
	vsnprintf(counters_refusal + n,
		  sizeof(counters_refusal) - n, fmt, args);
	mutex_unlock(&refusal_lock);
	va_end(args);
	return err;
}

/**
 * lttng_calibrate_counter_hint() - why a counter did not open, in words
 * @spec: the counter
 * @err: the error of perf_event_create_kernel_counter()
 *
 * Return: the reason, for "counters" and the kernel log.
 */
const char *
lttng_calibrate_counter_hint(const struct lttng_calibrate_counter_spec *spec,
			     int err)
{
	if (err == -ENOENT && spec->type >= PERF_TYPE_MAX)
		return "no PMU has this type, or it has no such event";
	switch (err) {
	case -ENODEV:
		return "its PMU is going away, or the CPU is offline";
	case -ENOENT:
	case -EOPNOTSUPP:
		return "not supported by this CPU or kernel (no hardware PMU?)";
	case -EINVAL:
		return "rejected by the PMU";
	case -EBUSY:
		return "the PMU is busy";
	case -EACCES:
	case -EPERM:
		return "not permitted";
	default:
		return "cannot be opened";
	}
}

/**
 * lttng_calibrate_counters_refusal_clear() - a list was installed: no
 *	refusal holds any more
 */
void lttng_calibrate_counters_refusal_clear(void)
{
	mutex_lock(&refusal_lock);
	counters_refusal[0] = '\0';
	mutex_unlock(&refusal_lock);
}

/**
 * lttng_calibrate_counters_refusal_show() - the last refusal, as a comment
 *	line of "counters"
 * @m: the file
 */
void lttng_calibrate_counters_refusal_show(struct seq_file *m)
{
	mutex_lock(&refusal_lock);
	if (counters_refusal[0])
		seq_printf(m, "# %s\n", counters_refusal);
	mutex_unlock(&refusal_lock);
}

/**
 * lttng_calibrate_counters_create() - the perf events of a run
 * @rc: receives them
 * @set: the counters selected
 * @cpu: the CPU whose activity they count
 *
 * Each is pinned: it never shares its PMU register by multiplexing; if the
 * PMU cannot host it, it does not count, which the run detects.  A counter
 * that the PMU refuses on @cpu (a PMU of some CPUs only, on a CPU that
 * came online after the list was checked on every online one) is refused
 * for this run alone: the run measures without it, and its result says
 * which and why (lttng_calibrate_counters_release()); the kernel log too.
 * Memory running out is no answer about @cpu: the run fails.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOMEM (then nothing is left of the events).
 */
int lttng_calibrate_counters_create(struct lttng_calibrate_run_counters *rc,
				    const struct lttng_calibrate_counter_set *set,
				    int cpu)
{
	const struct lttng_calibrate_counter_spec *spec;
	struct perf_event *event;
	unsigned int i;
	int err;

	rc->nr = 0;
	rc->cpu = cpu;
	rc->lost = 0;
	for (i = 0; i < set->nr; i++) {
		spec = &set->spec[i];
		event = lttng_calibrate_counter_open(spec, cpu, false);
		err = PTR_ERR_OR_ZERO(event);
		if (err == -ENOMEM) {
			lttng_calibrate_counters_release(rc, NULL);
			return err;
		}
		rc->refused[i] = err;
		rc->event[rc->nr++] = err ? NULL : event;
		if (!err)
			continue;
		rc->lost |= BIT(i);
		pr_info_ratelimited("run on CPU %d: counter %s: %s (error %d)\n",
				    cpu, spec->name,
				    lttng_calibrate_counter_hint(spec, err),
				    err);
	}
	return 0;
}

/**
 * lttng_calibrate_counters_check() - mark counters that are not counting
 * @rc: the run's events
 *
 * The rule of perf_event_read_local(): an event is read in place only
 * while it is active on this CPU.  One that is not (never scheduled on a
 * full PMU, detached when its CPU went offline) is lost for the run.
 *
 * Context: on the run's CPU, interrupts or preemption off.
 */
void lttng_calibrate_counters_check(struct lttng_calibrate_run_counters *rc)
{
	unsigned int i;

	for (i = 0; i < rc->nr; i++)
		if (!rc->event[i] ||
		    READ_ONCE(rc->event[i]->state) != PERF_EVENT_STATE_ACTIVE ||
		    READ_ONCE(rc->event[i]->oncpu) != rc->cpu)
			rc->lost |= BIT(i);
}

/**
 * lttng_calibrate_counters_release() - each counter's verdict, and release
 * @rc: the run's events
 * @out: receives, per counter, whether it counted the whole run, its times
 *	and, for one refused on the run's CPU, the error; NULL to only
 *	release
 *
 * A counter is valid only if it opened on the run's CPU, was never seen
 * away from it and ran all the time it was enabled; and, for a counter of
 * a PMU other than perf's software and tracepoint ones, if its count over
 * the whole run (harness and set-up included) is not 0.  A software event
 * that did not happen reads 0, which is its count; a PMU counter that
 * reads 0 over a whole run of executed code does not count here (an event
 * the CPU or its emulator does not implement, such as raw 0x08 on arm64
 * under QEMU without -icount).
 *
 * Context: process context, may sleep or send an IPI.
 */
void lttng_calibrate_counters_release(struct lttng_calibrate_run_counters *rc,
				      struct lttng_calibrate_counter_result *out)
{
	struct lttng_calibrate_counter_result *c;
	unsigned int i;
	u64 count;
	u32 type;

	for (i = 0; i < rc->nr; i++) {
		c = out ? &out[i] : NULL;
		if (c && !rc->event[i]) {
			c->refused = rc->refused[i];
			c->counted = false;
			c->valid = false;
			c->enabled = 0;
			c->running = 0;
		} else if (c) {
			count = perf_event_read_value(rc->event[i], &c->enabled,
						      &c->running);
			type = rc->event[i]->attr.type;
			c->refused = 0;
			c->counted = count || type == PERF_TYPE_SOFTWARE ||
				     type == PERF_TYPE_TRACEPOINT;
			c->valid = !(rc->lost & BIT(i)) &&
				   c->enabled == c->running && c->counted;
		}
		lttng_calibrate_counter_close(rc->event[i]);
		rc->event[i] = NULL;
	}
	rc->nr = 0;
}
