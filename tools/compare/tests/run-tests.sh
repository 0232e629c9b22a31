#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh: run every test of lttng-calibrate-compare and print them
# as one TAP stream on stdout; exit 1 if any test failed. The test
# programs print unnumbered "ok - ..." lines; this script numbers them.
# A sanitizer build in asan/, when present, runs the command-line tests
# and the fuzz test again.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$dir")
bin=lttng-calibrate-compare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
tap_collect "$tmp/all"

tap_component "unit tests" "$dir/unit"
tap_component "bench unit tests" "$dir/bench-unit" "$dir/data"
tap_component "command-line tests" sh "$dir/cli.sh" "$top/$bin"
tap_component "fuzz test" sh "$dir/fuzz.sh" "$top/$bin" "$dir/fuzz-input" 150
tap_component "bench mode tests" sh "$dir/bench.sh" "$top/$bin"
if [ -x "$top/asan/$bin" ]; then
	ASAN_OPTIONS=exitcode=99
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
	TAP_PREFIX="[asan] "
	export ASAN_OPTIONS UBSAN_OPTIONS TAP_PREFIX
	tap_component "[asan] command-line tests" sh "$dir/cli.sh" "$top/asan/$bin"
	tap_component "[asan] bench mode tests" sh "$dir/bench.sh" \
		"$top/asan/$bin"
	if [ -x "$top/asan/bench-unit" ]; then
		tap_component "[asan] bench unit tests" "$top/asan/bench-unit" \
			"$dir/data" 5000
	fi
	tap_component "[asan] fuzz test" sh "$dir/fuzz.sh" "$top/asan/$bin" \
		"$dir/fuzz-input" 60
else
	tap_skip "sanitizer build" "asan/$bin not built"
fi

tap_finish
