// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng's probe for lttng_calibrate's tracepoints: "lttng enable-event
 * --kernel lttng_calibrate_payload" then records the module's tracepoint as
 * LTTng records the kernel's own.  lttng-sessiond loads it with
 * --extra-kmod-probes=lttng-calibrate.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

/*
 * The kernel's declarations of the tracepoints, so that a prototype that
 * differs from LTTng's fails the build.
 */
#include "lttng_calibrate_trace.h"

#include <wrapper/tracepoint.h>

/* Where the kernel's header said its events are: LTTng's are elsewhere. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#define TRACE_INCLUDE_PATH instrumentation/events

#include <instrumentation/events/lttng_calibrate.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTTng probe for lttng_calibrate's tracepoints");
