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
# shellcheck source-path=SCRIPTDIR source=../../lib/tap-collect.sh
. "$dir/../../lib/tap-collect.sh"

# install_test: make install into a scratch DESTDIR
install_test() {
	make --no-print-directory -C "$top" install DESTDIR="$tmp/dest" \
		PREFIX=/usr/local >&2
	if [ -x "$tmp/dest/usr/local/bin/$bin" ]; then
		echo "ok - make install puts $bin in DESTDIR/PREFIX/bin"
	else
		echo "not ok - make install puts $bin in DESTDIR/PREFIX/bin"
	fi
}

component "unit tests" "$dir/unit"
component "command-line tests" sh "$dir/cli.sh" "$top/$bin"
component "10-million-event test" sh "$dir/big.sh" "$top/$bin" \
	"$dir/gen-events" 10000002 51200
component "fuzz test" sh "$dir/fuzz.sh" "$top/$bin" "$dir/mutate" 300
component "install test" install_test
if [ -x "$top/asan/$bin" ] && [ -x "$top/asan/unit" ]; then
	ASAN_OPTIONS=exitcode=99:detect_leaks=1
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
	TAP_PREFIX="[asan] "
	export ASAN_OPTIONS UBSAN_OPTIONS TAP_PREFIX
	component "[asan] unit tests" sh -c \
		"'$top/asan/unit' | sed 's/^\(not \)\{0,1\}ok - /&[asan] /'"
	component "[asan] command-line tests" sh "$dir/cli.sh" "$top/asan/$bin"
	component "[asan] streaming test" sh "$dir/big.sh" "$top/asan/$bin" \
		"$dir/gen-events" 300000
	component "[asan] fuzz test" sh "$dir/fuzz.sh" "$top/asan/$bin" \
		"$dir/mutate" 300
else
	echo "ok - sanitizer build # SKIP asan/$bin not built" >> "$tmp/all"
fi

tap_finish
