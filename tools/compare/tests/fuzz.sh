#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh BINARY GENERATOR COUNT: feed COUNT reproducible broken inputs
# (random bytes, mutated numbers, series and key=value lines, huge
# numbers, NUL bytes, truncated files) to BINARY in six modes. Every run
# must end with status 0, 1 or 2 (never a signal or a sanitizer report,
# which exits 99), every status 2 must come with a message on stderr and
# every success with output. Prints "ok - ..." lines; a failure names the
# seed, so "GENERATOR SEED" reproduces the input.
set -eu

bin=$1
gen=$2
count=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"

modes="plain columns series select metric group"

# options MODE: the command-line arguments of one mode
options() {
	case $1 in
	plain) echo "$tmp/in $tmp/in" ;;
	columns) echo "-C 3 -f csv $tmp/in $tmp/in" ;;
	series) echo "--series -l 2 --min-segment 3 $tmp/in" ;;
	select) echo "--series --select with -f json $tmp/in" ;;
	metric) echo "-m target.cycles.mean $tmp/in $tmp/in" ;;
	group) echo "-g 1 -C 3 -w 20 $tmp/in" ;;
	esac
}

# one MODE: run it on $tmp/in, count the outcome, log any fault
one() {
	rc=0
	# shellcheck disable=SC2046 # the options are split on purpose
	"$bin" $(options "$1") > "$tmp/out" 2> "$tmp/err" || rc=$?
	fault=
	if [ "$rc" -gt 2 ]; then
		fault="exit status $rc"
	elif [ "$rc" -eq 2 ] && [ ! -s "$tmp/err" ]; then
		fault="status 2 without a message"
	elif [ "$rc" -lt 2 ] && [ ! -s "$tmp/out" ]; then
		fault="status $rc without output"
	fi
	if [ -n "$fault" ]; then
		echo "$1 seed $seed: $fault" >> "$tmp/faults"
		head -5 "$tmp/err" >> "$tmp/faults"
	fi
	echo "$1 $rc" >> "$tmp/outcomes"
}

: > "$tmp/faults"
: > "$tmp/outcomes"
seed=1
while [ "$seed" -le "$count" ]; do
	"$gen" "$seed" > "$tmp/in"
	for mode in $modes; do
		one "$mode"
	done
	seed=$((seed + 1))
done

# fixed edge cases: empty file, a lone CR, a directory, /dev/null
for input in empty cr; do
	case $input in
	empty) : > "$tmp/in" ;;
	cr) printf '\r' > "$tmp/in" ;;
	esac
	seed=$input
	for mode in $modes; do
		one "$mode"
	done
done

for mode in $modes; do
	rejected=$(grep -c "^$mode 2$" "$tmp/outcomes" || true)
	accepted=$(grep -c "^$mode [01]$" "$tmp/outcomes" || true)
	faults=$(grep -c "^$mode seed" "$tmp/faults" || true)
	if [ "$faults" -eq 0 ]; then
		tap_ok "fuzz $mode: no crash, every error explained ($rejected rejected, $accepted accepted)"
	else
		tap_not_ok "fuzz $mode: $faults faults"
		grep -A5 "^$mode seed" "$tmp/faults" | head -20 | tap_diag
	fi
done
if grep -q ' [01]$' "$tmp/outcomes"; then
	tap_ok "fuzz: some inputs get through to the statistics"
else
	tap_not_ok "fuzz: every input rejected, generator too harsh"
fi
