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
# shellcheck source-path=SCRIPTDIR source=../../lib/tap-collect.sh
. "$dir/../../lib/tap-collect.sh"

component "unit tests" "$dir/unit"
component "command-line tests" sh "$dir/cli.sh" "$top/$bin"
component "fuzz test" sh "$dir/fuzz.sh" "$top/$bin" "$dir/fuzz-input" 400
if [ -x "$top/asan/$bin" ]; then
	ASAN_OPTIONS=exitcode=99
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
	TAP_PREFIX="[asan] "
	export ASAN_OPTIONS UBSAN_OPTIONS TAP_PREFIX
	component "[asan] command-line tests" sh "$dir/cli.sh" "$top/asan/$bin"
	component "[asan] fuzz test" sh "$dir/fuzz.sh" "$top/asan/$bin" \
		"$dir/fuzz-input" 150
else
	echo "ok - sanitizer build # SKIP asan/$bin not built" >> "$tmp/all"
fi

tap_finish
