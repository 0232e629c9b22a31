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
: > "$tmp/all"

# component NAME COMMAND...: append its TAP lines, and one for its status
component() {
	name=$1
	shift
	rc=0
	"$@" >> "$tmp/all" 2> "$tmp/err" || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok - $name ran to completion" >> "$tmp/all"
	else
		echo "not ok - $name exited with status $rc" >> "$tmp/all"
		sed 's/^/# /' "$tmp/err" >> "$tmp/all"
	fi
}

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

echo "TAP version 13"
echo "1..$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/all")"
awk '
/^ok / { n++; print "ok " n substr($0, 3); next }
/^not ok / { n++; bad++; print "not ok " n substr($0, 7); next }
{ print }
END { exit bad ? 1 : 0 }
' "$tmp/all"
