/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: the counters of lttng-calibrate-counters.c, for the run
 * engine that reads them and for the files that select them.
 */
#ifndef _LTTNG_CALIBRATE_COUNTERS_H
#define _LTTNG_CALIBRATE_COUNTERS_H

#include <linux/perf_event.h>

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
 * Reads counter @i in place, the way perf_event_read_local() does: only
 * while the event is active on this CPU (interrupts or preemption off), no
 * IPI, no sleep.  A counter found elsewhere reads as 0 and is marked lost:
 * its figures will be withheld.  The cost is inside both timed windows and
 * cancels in the difference.
 */
static __always_inline u64
lttng_calibrate_counter_read(struct lttng_calibrate_run_counters *rc,
			     unsigned int i)
{
	struct perf_event *event = rc->event[i];

	if (unlikely(READ_ONCE(event->oncpu) != rc->cpu)) {
		rc->lost |= BIT(i);
		return 0;
	}
	event->pmu->read(event);
	return local64_read(&event->count);
}

int lttng_calibrate_counters_create(struct lttng_calibrate_run_counters *rc,
				    const struct lttng_calibrate_counter_set *set,
				    int cpu);
void lttng_calibrate_counters_check(struct lttng_calibrate_run_counters *rc);
void lttng_calibrate_counters_release(struct lttng_calibrate_run_counters *rc,
				      struct lttng_calibrate_counter_result *out);
int lttng_calibrate_counters_move(struct lttng_calibrate_settings *s, int cpu);
void lttng_calibrate_counters_init(struct dentry *dir);
void lttng_calibrate_counters_exit(void);

#endif /* _LTTNG_CALIBRATE_COUNTERS_H */
