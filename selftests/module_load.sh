#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load, unload and reload lttng_calibrate: the debugfs files come and go with
# the module, a fresh module says it has no results, parameters are checked
# at load time, and the kernel log stays clean.  The module is left loaded.
#
# The module is loaded from $LTTNG_CALIBRATE_KO when set, else from beside
# this script (a kselftest tarball), else by modprobe.
set -u

dir=/sys/kernel/debug/lttng_calibrate
params=/sys/module/lttng_calibrate/parameters
here=$(dirname "$0")

# TAP (check DESCRIPTION COMMAND...: one result from a command's status)
# and the kernel-log patterns, from the tools' library: beside this script
# (symlinks to tools/lib/ in the repository, copies in a kselftest tree).
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$here/tap.sh"
# shellcheck source-path=SCRIPTDIR source=kmsg.sh
. "$here/kmsg.sh"

# $LTTNG_CALIBRATE_KO, else the module beside this script (a kselftest
# tarball) or in its module/ (lib.mk's TEST_GEN_MODS_DIR), else modprobe.
ko=${LTTNG_CALIBRATE_KO:-}
for k in "$here/lttng_calibrate.ko" "$here/module/lttng_calibrate.ko"; do
	[ -n "$ko" ] || [ ! -f "$k" ] || ko=$k
done

load() {
	if [ -n "$ko" ]; then
		insmod "$ko" "$@"
	else
		modprobe lttng_calibrate "$@"
	fi
}

loaded() {
	[ -d /sys/module/lttng_calibrate ]
}

unload() {
	! loaded || rmmod lttng_calibrate
}

files_present() {
	[ -f "$dir/run" ] && [ -f "$dir/results" ] &&
		[ -f "$dir/results_kv" ] && [ -f "$dir/status" ]
}

fresh() {
	grep -q '^no run yet' "$dir/results" &&
		grep -qx 'run.state=none' "$dir/results_kv" &&
		grep -qx 'state=idle' "$dir/status"
}

run_ok() {
	echo "$1" > "$dir/run" &&
		grep -qx "run.iterations.done=$1" "$dir/results_kv" &&
		grep -qx "difference.cycles.count=$1" "$dir/results_kv"
}

# load_refused PARAM=VALUE: insmod fails, says why, and leaves nothing behind.
load_refused() {
	local name=${1%%=*} mark

	mark=$(kmsg_mark module_load.sh) || return
	! load "$1" 2>/dev/null && ! loaded && [ ! -d "$dir" ] &&
		kmsg_since "$mark" |
		grep -q "lttng_calibrate: $name=.* is invalid"
}

max_enforced() {
	load max_iterations=500 && grep -qx 500 "$params/max_iterations" &&
		! echo 501 2>/dev/null > "$dir/run" && fresh && run_ok 500
}

reload_defaults() {
	unload && load && grep -qx 100000000 "$params/max_iterations" &&
		grep -qx -- -1 "$params/cpu"
}

# unload_with_probe: a probe chosen, a run done, then unload: nothing of
# the module's stays in the kprobes list.
unload_with_probe() {
	echo kretprobe > "$dir/probe" && run_ok 100 && unload &&
		! grep -qw lttng_calibrate /sys/kernel/debug/kprobes/list && load
}

# log_clean: no kernel-log pattern (kmsg_patterns.h) since the start
log_clean() {
	local new rc=0

	# shellcheck disable=SC2119 # kmsg_grep reads stdin
	new=$(kmsg_since "$log_start" | kmsg_grep) || rc=$?
	[ "$rc" -ne 2 ] || return 1
	[ -z "$new" ] || { printf 'kernel log: %s\n' "$new"; return 1; }
}

tap_header
[ "$(id -u)" -eq 0 ] || tap_skip_all "must be run as root" || exit
if ! loaded && ! load 2>/dev/null; then
	tap_skip_all "lttng_calibrate is not loaded and cannot be loaded" ||
		exit
fi
[ -d /sys/kernel/debug/lttng_calibrate ] ||
	tap_skip_all "debugfs is not mounted on /sys/kernel/debug" || exit
kmsg_patterns >/dev/null || tap_bail_out "no kernel-log patterns" || exit
log_start=$(kmsg_mark module_load.sh) ||
	tap_bail_out "cannot write to /dev/kmsg" || exit
tap_plan 15

check "unload removes the module" unload
check "unload removes the debugfs directory" test ! -e "$dir"
check "load creates the debugfs files" eval 'load && files_present'
check "a fresh module says it has no results" fresh
check "run 1000 after load" run_ok 1000
for i in 1 2 3; do
	check "reload $i: fresh, then runs" \
		eval 'unload && load && fresh && run_ok 100'
done
check "max_iterations=0 refused at load" eval 'unload && load_refused max_iterations=0'
check "cpu=99999 refused at load" load_refused cpu=99999
check "chunk_iterations=0 refused at load" load_refused chunk_iterations=0
check "load with max_iterations=500 is enforced" max_enforced
check "reload with defaults" reload_defaults
check "unload with a kretprobe chosen leaves no probe registered" unload_with_probe
check "kernel log clean" log_clean

tap_done
