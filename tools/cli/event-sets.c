// SPDX-License-Identifier: GPL-2.0
/*
 * The named sets of kernel events that lttng-calibrate predict's
 * configurations trace (--events), and their tracepoints, which every
 * tracer of tracers/ names its own way.  Calls nothing.
 */
#include "../lib/lc.h"
#include "event-sets.h"

const struct lc_predict_set lc_predict_sets[] = {
	{ "syscalls-sched", true, true, true, "sched,irq" },
	{ "sched", true, true, false, "sched,irq" },
	{ "syscalls", false, false, true, NULL },
};

const size_t lc_predict_nr_sets = ARRAY_SIZE(lc_predict_sets);

/**
 * lc_predict_set_events() - the tracepoints of an event set
 * @set: the set
 * @ev: where they go, as "group:event", NULL-terminated (8 at most)
 *
 * Return: how many.
 */
int lc_predict_set_events(const struct lc_predict_set *set, const char **ev)
{
	int n = 0;

	if (set->sched) {
		ev[n++] = "sched:sched_switch";
		ev[n++] = "sched:sched_wakeup";
	}
	if (set->irq) {
		ev[n++] = "irq:irq_handler_entry";
		ev[n++] = "irq:irq_handler_exit";
	}
	if (set->syscalls) {
		ev[n++] = "raw_syscalls:sys_enter";
		ev[n++] = "raw_syscalls:sys_exit";
	}
	ev[n] = NULL;
	return n;
}
