#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh BINARY MUTATOR COUNT: COUNT reproducible mutations of the
# fixtures (seed 1 .. COUNT; "MUTATOR FILE SEED" reproduces one) read
# from standard input in three modes: strict, --skip-malformed, and
# --skip-malformed --format json. Every run must end with status 0, 1
# or 2, never a signal or a sanitizer report (status 99); a strict
# status 2 must say "<stdin>:LINE: reason"; --skip-malformed must never
# give up on the input and must always print a report.
set -eu

bin=$1
mutate=$2
count=$3
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
bases="calibrate-10.txt bt2-edges-warning.txt bt1-edges-names.txt"

: > "$tmp/faults"
: > "$tmp/outcomes"

# one MODE SEED OPTION...: run, check, record
one() {
	mode=$1
	seed=$2
	shift 2
	rc=0
	"$bin" "$@" < "$tmp/in" > "$tmp/out" 2> "$tmp/err" || rc=$?
	fault=
	if [ "$rc" -gt 2 ]; then
		fault="status $rc"
	elif [ "$mode" = strict ] && [ "$rc" -eq 2 ] &&
	     ! grep -q '^<stdin>:[0-9][0-9]*: ' "$tmp/err"; then
		fault="status 2 without <stdin>:LINE: reason"
	elif [ "$mode" != strict ] && [ "$rc" -eq 2 ]; then
		fault="status 2 with --skip-malformed"
	elif [ "$rc" -lt 2 ] && [ ! -s "$tmp/out" ]; then
		fault="status $rc without a report"
	fi
	if [ -n "$fault" ]; then
		echo "$mode seed $seed ($base): $fault" >> "$tmp/faults"
		head -3 "$tmp/err" >> "$tmp/faults"
	fi
	echo "$mode $rc" >> "$tmp/outcomes"
}

seed=1
while [ "$seed" -le "$count" ]; do
	# shellcheck disable=SC2086 # split on purpose
	set -- $bases
	shift $((seed % 3))
	base=$1
	"$mutate" "$dir/fixtures/$base" "$seed" > "$tmp/in"
	one strict "$seed"
	one skip "$seed" --skip-malformed
	one json "$seed" -s -f json
	seed=$((seed + 1))
done

faults=$(grep -c seed "$tmp/faults" || true)
rejected=$(grep -c '^strict 2$' "$tmp/outcomes" || true)
accepted=$(grep -c '^strict [01]$' "$tmp/outcomes" || true)
if [ "$faults" -eq 0 ]; then
	tap_ok "fuzz, $count mutated traces x 3 modes: no crash, every error with its line ($rejected rejected, $accepted accepted)"
else
	tap_not_ok "fuzz: $faults faults"
	head -20 "$tmp/faults" | tap_diag
fi
if [ "$rejected" -gt 0 ] && [ "$accepted" -gt 0 ]; then
	tap_ok "fuzz: some mutations rejected, some accepted"
else
	tap_not_ok "fuzz: mutations all rejected or all accepted"
fi
