/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LTTng's events for the module's tracepoints (lttng_calibrate_trace.h):
 * the same fields as their ftrace events, so that LTTng records what ftrace,
 * perf and bpftrace see.  Built into lttng-modules' tree by
 * tools/lttng/build-lttng-modules, as LTTng's own probes are.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lttng_calibrate

#if !defined(LTTNG_TRACE_LTTNG_CALIBRATE_H) || defined(TRACE_HEADER_MULTI_READ)
#define LTTNG_TRACE_LTTNG_CALIBRATE_H

#include <lttng/tracepoint-event.h>
#include <linux/sched.h>

LTTNG_TRACEPOINT_EVENT(lttng_calibrate_event,
		       TP_PROTO(u64 value),
		       TP_ARGS(value),
		       TP_FIELDS(ctf_integer(u64, value, value))
)

LTTNG_TRACEPOINT_EVENT(lttng_calibrate_payload,
		       TP_PROTO(long nr, const unsigned long *args),
		       TP_ARGS(nr, args),
		       TP_FIELDS(ctf_integer(long, nr, nr)
				 ctf_array(unsigned long, args, args, 6)
				 ctf_array_text(char, comm, current->comm,
						TASK_COMM_LEN))
)

#endif /* LTTNG_TRACE_LTTNG_CALIBRATE_H */

#include <lttng/define_trace.h>
