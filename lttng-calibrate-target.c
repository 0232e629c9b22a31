// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the functions a run times, and nothing else.
 *
 * lttng_calibrate_target() is what instrumentation is attached to;
 * lttng_calibrate_baseline() is its twin, never instrumented;
 * lttng_calibrate_tracepoint_target() holds the module's tracepoint,
 * lttng_calibrate_payload_target() its tracepoint with a payload.  They
 * call nothing of the module, so what lies inside a timed window is only
 * what is written here, plus what instruments it.  At load, this file
 * checks that the kernel registered the trace events of its tracepoints.
 */
#include "lttng-calibrate.h"

#define CREATE_TRACE_POINTS
#include "lttng_calibrate_trace.h"

/*
 * The probe target and its baseline twin: the same body, a compiler
 * barrier, so both keep the same prologue and return under any compiler.
 * noinline keeps each a function of its own, Kbuild's -fno-ipa-icf keeps
 * GCC from folding the two into one, and the calls go through pointers so
 * every call is made.
 */

/**
 * lttng_calibrate_target() - the function instrumentation is attached to
 */
noinline void lttng_calibrate_target(void)
{
	barrier();
}

/**
 * lttng_calibrate_baseline() - the target's twin, never instrumented
 */
noinline void lttng_calibrate_baseline(void)
{
	barrier();
}

/**
 * lttng_calibrate_tracepoint_target() - the target holding a tracepoint
 *
 * Same shape as lttng_calibrate_target(), plus the tracepoint: a static key
 * that jumps over the call to the probes when nothing is attached.
 */
noinline void lttng_calibrate_tracepoint_target(void)
{
	trace_lttng_calibrate_event(0);
}

/* What the payload tracepoint records: a system call's number and arguments. */
static const unsigned long payload_args[6] = {
	3, 0x1000, 4096, 0, 0, 0,
};

/**
 * lttng_calibrate_payload_target() - the target holding a payload tracepoint
 *
 * Same shape as lttng_calibrate_tracepoint_target(); its event records what
 * a system call's entry records (a number and six arguments) and a task's
 * name, as the scheduler's events do, so that its cost enabled is that of
 * the events a traced workload hits.
 */
noinline void lttng_calibrate_payload_target(void)
{
	trace_lttng_calibrate_payload(0, payload_args);
}

/**
 * lttng_calibrate_target_init() - check that the targets' events exist
 *
 * The kernel registers a module's trace events while it loads the module,
 * and goes on loading when that fails: the module's tracepoints would then
 * have no event for ftrace, perf or LTTng to enable.  The load fails
 * instead, naming the event.
 *
 * Return: 0, or the error of the look-up of an event that is missing.
 */
int lttng_calibrate_target_init(void)
{
	static const char *const events[] = {
		"lttng_calibrate_event", "lttng_calibrate_payload",
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		ret = lttng_calibrate_event_registered("lttng_calibrate",
						       events[i]);
		if (ret) {
			pr_err("the trace event lttng_calibrate:%s is not registered: error %d\n",
			       events[i], ret);
			return ret;
		}
	}
	return 0;
}
