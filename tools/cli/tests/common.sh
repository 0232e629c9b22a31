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
