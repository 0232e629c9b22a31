// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the functions a run times, and nothing else.
 *
 * lttng_calibrate_target() is what instrumentation is attached to;
 * lttng_calibrate_baseline() is its twin, never instrumented;
 * lttng_calibrate_tracepoint_target() holds the module's tracepoint.  They
 * call nothing of the module, so what lies inside a timed window is only
 * what is written here, plus what instruments it.
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
