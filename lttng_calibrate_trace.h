/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint inside lttng_calibrate_tracepoint_target(): off, it costs
 * what a disabled static key costs; on (tracefs events/lttng_calibrate/, perf,
 * LTTng), what a live tracepoint costs.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lttng_calibrate

#if !defined(_LTTNG_CALIBRATE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LTTNG_CALIBRATE_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(lttng_calibrate_event,
	    TP_PROTO(u64 value),
	    TP_ARGS(value),
	    TP_STRUCT__entry(__field(u64, value)),
	    TP_fast_assign(__entry->value = value;),
	    TP_printk("value=%llu", __entry->value)
);

#endif /* _LTTNG_CALIBRATE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lttng_calibrate_trace
#include <trace/define_trace.h>
