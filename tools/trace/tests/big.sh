#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# big.sh BINARY GENERATOR EVENTS [MAX_RSS_KB]: stream a generated trace
# of EVENTS calibrate events (plus one sched_switch per 1000) through a
# pipe, check the exact statistics and, when MAX_RSS_KB is given, that
# the tool's peak memory stayed below it (/usr/bin/time -f %M). The time
# taken is printed as a diagnostic.
#
# Pairs i = 0 .. n - 1 (n = EVENTS / 2, a multiple of 3 here): time
# deltas 1000, 1010, 1020 ns and cpu-clock deltas 100, 200, 300 in turn,
# so the means are 1010 and 200 and the stddevs sqrt(200/3 n/(n-1)) and
# sqrt(20000/3 n/(n-1)); page-fault deltas 0, 1 in turn.
set -eu

bin=$1
gen=$2
events=$3
max_rss=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$(dirname "$0")/../../lib/tap.sh"
pairs=$((events / 2))

start=$(date +%s.%N)
if [ -n "$max_rss" ] && [ -x /usr/bin/time ]; then
	"$gen" "$events" | /usr/bin/time -o "$tmp/rss" -f %M \
		"$bin" -f csv > "$tmp/out" 2> "$tmp/err" || true
else
	"$gen" "$events" | "$bin" -f csv > "$tmp/out" 2> "$tmp/err" || true
fi
end=$(date +%s.%N)
tap_diag "$events events ($pairs pairs) in" \
	"$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }') s"

want=$(awk -v n="$pairs" 'BEGIN {
	printf "time_ns %d 1010.000000 %.6f\n", n, sqrt(200 / 3 * n / (n - 1))
	printf "perf_cpu_cpu_clock %d 200.000000 %.6f\n", n,
		sqrt(20000 / 3 * n / (n - 1))
}')
got=$(awk -F, '$2 == "time_ns" || $2 == "perf_cpu_cpu_clock" {
	print $2, $4, $5, $6 }' "$tmp/out")
if [ "$got" = "$want" ]; then
	tap_ok "$events events through a pipe: exact statistics"
else
	tap_not_ok "$events events through a pipe: exact statistics"
	echo "$got" "$want" | tap_diag
	head -5 "$tmp/err" | tap_diag
fi
if grep -q ",$pairs,0,0,$((pairs / 500)),0,0\$" "$tmp/out"; then
	tap_ok "$events events: $pairs pairs, others counted"
else
	tap_not_ok "$events events: counts"
	tap_diag < "$tmp/out"
fi
if [ -n "$max_rss" ]; then
	rss=$(tail -1 "$tmp/rss" 2> /dev/null || echo unknown)
	tap_diag "peak memory $rss KB"
	if [ "$rss" != unknown ] && [ "$rss" -lt "$max_rss" ]; then
		tap_ok "$events events in less than $max_rss KB"
	else
		tap_not_ok "$events events in less than $max_rss KB ($rss)"
	fi
fi
