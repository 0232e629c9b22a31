# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# guest-state.sh: sourced by bench-vm-test and predict-vm-test, inside the
# guest, after $t (tracefs), $calib (the module's debugfs directory) and
# $tmp are set: tracefs and the module's settings as found, and
# leftovers(), which says (one line per problem, false when any) what a
# bench or a prediction left behind that it must have undone; and the
# readers it uses, for the tests' own polls: first, has_line, running.
#
# It reads with bash's own read and globs, not with commands: on the debug
# kernel (KASAN, lockdep, kmemleak) under TCG, starting a process takes
# about half a second, and a check that started one per file took 20 s.
# shellcheck disable=SC2154 # t, calib and tmp are the sourcing test's

# first FILE: FILE's first line into $REPLY ("" when unreadable).
first() {
	REPLY=
	read -r REPLY 2>/dev/null <"$1" || [ -n "$REPLY" ]
}

# has_line FILE PATTERN: FILE has a line matching the glob PATTERN.
has_line() {
	local l

	while IFS= read -r l || [ -n "$l" ]; do
		# shellcheck disable=SC2053 # PATTERN is a glob
		[[ $l != $2 ]] || return 0
	done <"$1"
	return 1
}

# buffer_size: the buffer's size per CPU into $REPLY: "7 (expanded:
# 1408)" before its first use.
buffer_size() {
	first "$t/buffer_size_kb"
	[[ $REPLY =~ expanded:\ ([0-9]+)\) ]] && REPLY=${BASH_REMATCH[1]}
	REPLY=${REPLY%% *}
}

# running NAME: a process named NAME (its comm, as pgrep -x) runs.
running() {
	local f c

	for f in /proc/[0-9]*/comm; do
		read -r c 2>/dev/null <"$f" || continue
		[ "$c" != "$1" ] || return 0
	done
	return 1
}

first "$t/tracing_on"
tracing_on=$REPLY
buffer_size
buffer_kb=$REPLY
first "$calib/work_cycles"
work=$REPLY

# leftovers: what the bench or predict must have undone, one line per
# problem.
leftovers() {
	local bad=0 f m

	# (tracefs's files have no size: their lines are read)
	for f in kprobe_events dynamic_events; do
		[ ! -e "$t/$f" ] || ! has_line "$t/$f" '?*' ||
			{ echo "$f: $(<"$t/$f")"; bad=1; }
	done
	first "$t/current_tracer"
	[ "$REPLY" = nop ] || { echo "current_tracer: $REPLY"; bad=1; }
	for f in set_ftrace_filter set_graph_function; do
		! has_line "$t/$f" '[!#]*' || { echo "$f: $(<"$t/$f")"; bad=1; }
	done
	first "$t/tracing_on"
	[ "$REPLY" = "$tracing_on" ] || { echo "tracing_on: $REPLY"; bad=1; }
	# as found, within one ring-buffer page (4080 bytes of data each)
	buffer_size
	if [ "$REPLY" -lt $((buffer_kb - 4)) ] ||
	   [ "$REPLY" -gt $((buffer_kb + 4)) ]; then
		echo "buffer_size_kb: $(<"$t/buffer_size_kb"), was $buffer_kb"
		bad=1
	fi
	for f in "$t"/events/lttng_calibrate/lttng_calibrate_*/enable; do
		first "$f"
		[ "$REPLY" = 0 ] || { echo "$f: enabled"; bad=1; }
	done
	if running lttng-sessiond; then
		echo "lttng-sessiond still runs"
		LTTNG_HOME=$tmp lttng list 2>&1
		bad=1
	fi
	m=
	while read -r f _; do
		[[ $f != lttng_* || $f == lttng_calibrate* ]] || m+=" $f"
	done </proc/modules
	[ -z "$m" ] || { echo "LTTng modules loaded:$m"; bad=1; }
	for f in perf bpftrace babeltrace2 lttng; do
		! running "$f" || { echo "$f still runs"; bad=1; }
	done
	has_line "$calib/probe" '\[none\]*' ||
		{ echo "probe: $(<"$calib/probe")"; bad=1; }
	has_line "$calib/target" '\[function\]*' ||
		{ echo "target: $(<"$calib/target")"; bad=1; }
	first "$calib/work_cycles"
	[ "$REPLY" = "$work" ] || { echo "work_cycles: $REPLY"; bad=1; }
	for f in /tmp/lttng-calibrate-bench.* /tmp/lttng-calibrate-predict.*; do
		[ ! -e "$f" ] || { echo "scratch directory left: $f"; bad=1; }
	done
	# predict's events
	for f in sched/sched_switch sched/sched_wakeup irq/irq_handler_entry \
		 irq/irq_handler_exit raw_syscalls/sys_enter raw_syscalls/sys_exit
	do
		first "$t/events/$f/enable"
		[ "$REPLY" = 0 ] || { echo "$f enabled"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}
