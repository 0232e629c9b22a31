# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# What the tests of the command share.  Sourced, never run, after
# tools/lib/tap.sh; the caller sets $tmp (its scratch directory) and $bin
# (the command).

# not_root ARG...: lttng-calibrate ARG... as nobody (or as the current
# user, when not root) exits 1 with the root message and nothing else.
# shellcheck disable=SC2154
not_root() {
	if [ "$(id -u)" -eq 0 ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	fi
	rc=0
	"$@" > "$tmp/cerr" 2>&1 || rc=$?
	cat "$tmp/cerr"
	[ "$rc" -eq 1 ] &&
		[ "$(cat "$tmp/cerr")" = "lttng-calibrate: must be run as root: try again with sudo" ]
}

# fails_with MESSAGE ARG...: lttng-calibrate ARG... exits 1, prints
# nothing on stdout and "lttng-calibrate: MESSAGE" on stderr.
# shellcheck disable=SC2154
fails_with() {
	fails_with_msg=$1
	shift
	tap_fails 1 "lttng-calibrate: $fails_with_msg" "$bin" "$@"
}

# cli_checks NAME: which checks LTTNG_CALIBRATE_CLI_CHECKS asks NAME (a
# guest test) for, printed: "all" (the default), or "kernel": those whose
# outcome depends on the kernel or the module, without the command's own
# (its options, formats, messages, completion, SIGINT), which no kernel
# changes.  tools/testing/run-tests asks for the command's own on the first x86
# kernel and on arm64 (the command's two builds), "kernel" elsewhere.
# Another value: says so, returns 2.
cli_checks() {
	case ${LTTNG_CALIBRATE_CLI_CHECKS:-all} in
	all|kernel) echo "${LTTNG_CALIBRATE_CLI_CHECKS:-all}" ;;
	*) echo "$1: LTTNG_CALIBRATE_CLI_CHECKS=$LTTNG_CALIBRATE_CLI_CHECKS: all or kernel" >&2
	   return 2 ;;
	esac
}
