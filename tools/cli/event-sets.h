/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event sets predict's configurations trace (event-sets.c).  Calls
 * nothing.
 */
#ifndef LTTNG_CALIBRATE_CLI_EVENT_SETS_H
#define LTTNG_CALIBRATE_CLI_EVENT_SETS_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct lc_predict_set - a named set of kernel events, which predict's
 *	configurations trace
 * @name: its name, in the configurations' names ("syscalls-sched")
 * @sched: sched_switch and sched_wakeup
 * @irq: irq_handler_entry and irq_handler_exit
 * @syscalls: every system call's entry and exit
 * @lttng_probes: LTTng's probes of its tracepoints (--kmod-probes), or
 *	NULL when LTTng's tracer has them itself (the system calls)
 */
struct lc_predict_set {
	const char *name;
	bool sched;
	bool irq;
	bool syscalls;
	const char *lttng_probes;
};

/* event-sets.c: the event sets predict's configurations trace */
extern const struct lc_predict_set lc_predict_sets[];
extern const size_t lc_predict_nr_sets;
int lc_predict_set_events(const struct lc_predict_set *set, const char **ev);

#endif /* LTTNG_CALIBRATE_CLI_EVENT_SETS_H */
