/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: the counters of lttng-calibrate-counters.c, for the run
 * engine that reads them, the "counters" file that selects them and the
 * clock, which reads its perf event the way they are read.
 */
#ifndef _LTTNG_CALIBRATE_COUNTERS_H
#define _LTTNG_CALIBRATE_COUNTERS_H

#include <linux/perf_event.h>
#include <linux/seq_file.h>

#include "lttng-calibrate.h"

/**
 * struct lttng_calibrate_run_counters - the perf events of one run
 * @nr: events created
 * @cpu: the CPU they count on
 * @event: each event; NULL for one refused on @cpu
 * @refused: 0, or the error with which counter i did not open on @cpu
 * @lost: bit i set once counter i was seen not counting on @cpu, or was
 *	refused there
 */
struct lttng_calibrate_run_counters {
	unsigned int nr;
	int cpu;
	struct perf_event *event[LTTNG_CALIBRATE_MAX_COUNTERS];
	int refused[LTTNG_CALIBRATE_MAX_COUNTERS];
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
 * Reads counter @i.  A counter refused on the run's CPU, or found
 * elsewhere, reads as 0 and is marked lost: its figures will be withheld.
 * The cost is inside both timed windows and cancels in the difference.
 */
static __always_inline u64
lttng_calibrate_counter_read(struct lttng_calibrate_run_counters *rc,
			     unsigned int i)
{
	u64 value;

	if (unlikely(!rc->event[i] ||
		     !lttng_calibrate_event_read(rc->event[i], rc->cpu,
						 &value))) {
		rc->lost |= BIT(i);
		return 0;
	}
	return value;
}

int lttng_calibrate_counters_create(struct lttng_calibrate_run_counters *rc,
				    const struct lttng_calibrate_counter_set *set,
				    int cpu);
void lttng_calibrate_counters_check(struct lttng_calibrate_run_counters *rc);
void lttng_calibrate_counters_release(struct lttng_calibrate_run_counters *rc,
				      struct lttng_calibrate_counter_result *out);
struct perf_event *
lttng_calibrate_counter_open(const struct lttng_calibrate_counter_spec *spec,
			     int cpu, bool disabled);
void lttng_calibrate_counter_close(struct perf_event *event);
const char *
lttng_calibrate_counter_hint(const struct lttng_calibrate_counter_spec *spec,
			     int err);
__printf(2, 3)
int lttng_calibrate_counters_refuse(int err, const char *fmt, ...);
void lttng_calibrate_counters_refusal_clear(void);
void lttng_calibrate_counters_refusal_show(struct seq_file *m);

#endif /* _LTTNG_CALIBRATE_COUNTERS_H */
