#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh: run every test of lttng-calibrate-trace and print them
# as one TAP stream on stdout; exit 1 if any test failed. The test
# programs print unnumbered "ok - ..." lines; this script numbers them.
# The sanitizer builds in asan/, when present, run the unit, command-line
# and fuzz tests again, and a smaller streaming test.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$dir")
bin=lttng-calibrate-trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
tap_collect "$tmp/all"

# install_test: make install into a scratch DESTDIR
install_test() {
	make --no-print-directory -C "$top" install DESTDIR="$tmp/dest" \
		PREFIX=/usr/local >&2
	check "make install puts $bin in DESTDIR/PREFIX/bin" \
		test -x "$tmp/dest/usr/local/bin/$bin"
}

tap_component "unit tests" "$dir/unit"
tap_component "command-line tests" sh "$dir/cli.sh" "$top/$bin"
tap_component "10-million-event test" sh "$dir/big.sh" "$top/$bin" \
	"$dir/gen-events" 10000002 51200
tap_component "fuzz test" sh "$dir/fuzz.sh" "$top/$bin" "$dir/mutate" 120
tap_component "install test" install_test
if [ -x "$top/asan/$bin" ] && [ -x "$top/asan/unit" ]; then
	ASAN_OPTIONS=exitcode=99:detect_leaks=1
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
	TAP_PREFIX="[asan] "
	export ASAN_OPTIONS UBSAN_OPTIONS TAP_PREFIX
	tap_component "[asan] unit tests" "$top/asan/unit"
	tap_component "[asan] command-line tests" sh "$dir/cli.sh" "$top/asan/$bin"
	tap_component "[asan] streaming test" sh "$dir/big.sh" "$top/asan/$bin" \
		"$dir/gen-events" 300000
	tap_component "[asan] fuzz test" sh "$dir/fuzz.sh" "$top/asan/$bin" \
		"$dir/mutate" 100
else
	tap_skip "sanitizer build" "asan/$bin not built"
fi

tap_finish
