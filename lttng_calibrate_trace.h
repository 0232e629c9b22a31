/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints of the module's targets: lttng_calibrate_event inside
 * lttng_calibrate_tracepoint_target(), one integer; lttng_calibrate_payload
 * inside lttng_calibrate_payload_target(), what a traced system call or
 * scheduler event records: a number, six arguments and a task's name.  Off,
 * each costs what a disabled static key costs; on (tracefs
 * events/lttng_calibrate/, perf, bpftrace), what a live tracepoint costs with
 * that payload.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lttng_calibrate

#if !defined(_LTTNG_CALIBRATE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LTTNG_CALIBRATE_TRACE_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(lttng_calibrate_event,
	    TP_PROTO(u64 value),
	    TP_ARGS(value),
	    TP_STRUCT__entry(__field(u64, value)),
	    TP_fast_assign(__entry->value = value;),
	    TP_printk("value=%llu", __entry->value)
);

TRACE_EVENT(lttng_calibrate_payload,
	    TP_PROTO(long nr, const unsigned long *args),
	    TP_ARGS(nr, args),
	    TP_STRUCT__entry(__field(long, nr)
			     __array(unsigned long, args, 6)
			     __array(char, comm, TASK_COMM_LEN)),
	    TP_fast_assign(__entry->nr = nr;
			   memcpy(__entry->args, args, sizeof(__entry->args));
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
	    TP_printk("nr=%ld args=(%lx, %lx, %lx, %lx, %lx, %lx) comm=%s",
		      __entry->nr, __entry->args[0], __entry->args[1],
		      __entry->args[2], __entry->args[3], __entry->args[4],
		      __entry->args[5], __entry->comm)
);

#endif /* _LTTNG_CALIBRATE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lttng_calibrate_trace
#include <trace/define_trace.h>
