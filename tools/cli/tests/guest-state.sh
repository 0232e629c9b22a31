# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# guest-state.sh: sourced by bench-vm-test and predict-vm-test, inside the
# guest, after $t (tracefs), $calib (the module's debugfs directory) and
# $tmp are set: tracefs and the module's settings as found, and
# leftovers(), which says (one line per problem, false when any) what a
# bench or a prediction left behind that it must have undone.
# shellcheck disable=SC2154 # t, calib and tmp are the sourcing test's

tracing_on=$(cat "$t/tracing_on")
# The buffer's size per CPU: "7 (expanded: 1408)" before its first use.
buffer_size() {
	sed -E 's/.*expanded: ([0-9]+)\)/\1/' "$t/buffer_size_kb"
}
buffer_kb=$(buffer_size)
work=$(cat "$calib/work_cycles")

# leftovers: what the bench or predict must have undone, one line per
# problem.
leftovers() {
	local bad=0 f

	for f in kprobe_events dynamic_events; do
		[ ! -e "$t/$f" ] || [ ! -s "$t/$f" ] ||
			{ echo "$f: $(cat "$t/$f")"; bad=1; }
	done
	[ "$(cat "$t/current_tracer")" = nop ] ||
		{ echo "current_tracer: $(cat "$t/current_tracer")"; bad=1; }
	for f in set_ftrace_filter set_graph_function; do
		! grep -qv '^#' "$t/$f" || { echo "$f: $(cat "$t/$f")"; bad=1; }
	done
	[ "$(cat "$t/tracing_on")" = "$tracing_on" ] ||
		{ echo "tracing_on: $(cat "$t/tracing_on")"; bad=1; }
	# as found, within one ring-buffer page (4080 bytes of data each)
	f=$(buffer_size)
	if [ "$f" -lt $((buffer_kb - 4)) ] || [ "$f" -gt $((buffer_kb + 4)) ]
	then
		echo "buffer_size_kb: $(cat "$t/buffer_size_kb"), was $buffer_kb"
		bad=1
	fi
	for f in "$t"/events/lttng_calibrate/lttng_calibrate_*/enable; do
		[ "$(cat "$f")" = 0 ] || { echo "$f: enabled"; bad=1; }
	done
	if pgrep -x lttng-sessiond >/dev/null; then
		echo "lttng-sessiond still runs"
		LTTNG_HOME=$tmp lttng list 2>&1
		bad=1
	fi
	if awk '$1 ~ /^lttng_/ && $1 !~ /^lttng_calibrate/ { f = 1 }
		END { exit !f }' /proc/modules; then
		echo "LTTng modules loaded: $(awk '$1 ~ /^lttng_/ { print $1 }' /proc/modules | tr '\n' ' ')"
		bad=1
	fi
	for f in perf bpftrace babeltrace2 lttng; do
		! pgrep -x "$f" >/dev/null || { echo "$f still runs"; bad=1; }
	done
	grep -q '^\[none\]' "$calib/probe" ||
		{ echo "probe: $(head -n 1 "$calib/probe")"; bad=1; }
	grep -q '^\[function\]' "$calib/target" ||
		{ echo "target: $(cat "$calib/target")"; bad=1; }
	[ "$(cat "$calib/work_cycles")" = "$work" ] ||
		{ echo "work_cycles: $(cat "$calib/work_cycles")"; bad=1; }
	! ls -d /tmp/lttng-calibrate-bench.* /tmp/lttng-calibrate-predict.* \
		2>/dev/null || { echo "scratch directory left"; bad=1; }
	# predict's events
	for f in sched/sched_switch sched/sched_wakeup irq/irq_handler_entry \
		 irq/irq_handler_exit raw_syscalls/sys_enter raw_syscalls/sys_exit
	do
		[ "$(cat "$t/events/$f/enable")" = 0 ] ||
			{ echo "$f enabled"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}
