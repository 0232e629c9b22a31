# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154 # $tmp and $rc are the caller's
#
# What the command-line tests of lttng-calibrate-compare (cli.sh, bench.sh)
# share: checks of the last tap_run's output.  Sourced, never run, after
# tools/lib/tap.sh; the caller sets $tmp (its scratch directory).

# out_has TEXT, err_has TEXT: TEXT (a fixed string) on stdout, on stderr
out_has() {
	grep -qF -- "$1" "$tmp/out"
}

err_has() {
	grep -qF -- "$1" "$tmp/err"
}

# count TEXT N: TEXT is on N lines of stdout
count() {
	[ "$(grep -cF -- "$1" "$tmp/out")" -eq "$2" ]
}

# usage_error MESSAGE: the last tap_run was a usage error: exit status 2,
# MESSAGE on stderr, nothing on stdout
usage_error() {
	tap_failed_with 2 "$1"
}

status() {
	[ "$rc" -eq "$1" ]
}
