#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli.sh BINARY: lttng-calibrate-trace seen from the command line, on
# the trace captured from the real flow (fixtures/calibrate-10.txt, see
# tools/lttng/README.rst), on traces printed by the real babeltrace2 and
# babeltrace 1 (fixtures/bt*.txt, capture-fixtures.sh) and on crafted
# edge cases. Prints "ok - ..." / "not ok - ..." lines.
#
# Expected values, worked out by hand from the files (exit - entry of
# each consecutive pair; sample standard deviation; checked with
# Python's statistics module):
#   calibrate-10.txt, 11 pairs, all on CPU 1:
#     time_ns     27190 1740 1390 1280 1300 1280 1280 1270 1280 1280 1260
#                 sum 40550, mean 3686.363636, stddev 7796.513673
#     cpu_clock   19830 1642 1382 1262 1262 1242 1262 1242 1252 1252 1242
#                 sum 32870, mean 2988.181818, stddev 5587.075117
#     page_fault  all 0
#   bt*-edges*.txt (gen-ctf.py edges), 6 pairs on CPUs 0-1, 2 unmatched
#   entries (lost return, migrated entry), 2 unmatched exits (exit
#   without entry, migrated exit), 1 sched_switch; the third pair
#   crosses midnight (23:59:59.999999000 to 00:00:00.000000200):
#     time_ns     900 1100 1200 800 700 900: 933.333333, 186.189867
#     cpu_clock   900 1100 1000 800 700 900: 900, 141.421356
#     page_fault  0 1 2 0 0 1: 0.666667, 0.816497
#   bt2-return.txt, 4 pairs: LLC_load 5 6 7 8: 6.5, 1.290994;
#     LLC_store 0 2 4 6: 3, 2.581989; time 1000..1030: 1015, 12.909944
set -eu

bin=$1
dir=$(cd "$(dirname "$0")" && pwd)
fix=$dir/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
# check DESCRIPTION CONDITION...: the last run's output shown on failure
tap_show="$tmp/out $tmp/err"

has() {
	grep -q -x -F -- "$1" "$tmp/out"
}

# calibrate-10.txt, the trace of a real run
tap_run "$bin" "$fix/calibrate-10.txt"
check "real trace: 11 pairs on CPU 1, nothing unmatched" [ "$rc" -eq 0 ]
check "real trace: summary line" has \
	"calibrate: pairs 11 on CPUs 1; unmatched: 0 entries, 0 exits; other events 0; malformed lines 0"
tap_run "$bin" -f csv "$fix/calibrate-10.txt"
check "real trace: time deltas" has \
	"calibrate,time_ns,,11,3686.363636,7796.513673,1260,27190,11,0,0,0,0,0"
check "real trace: cpu-clock deltas" has \
	"calibrate,perf_cpu_cpu_clock,perf:cpu:cpu-clock,11,2988.181818,5587.075117,1242,19830,11,0,0,0,0,0"
check "real trace: page-fault deltas" has \
	"calibrate,perf_cpu_page_fault,perf:cpu:page-fault,11,0.000000,0.000000,0,0,11,0,0,0,0,0"
tap_run sh -c "cat '$fix/calibrate-10.txt' | '$bin' -f csv"
check "standard input reads the same" has \
	"calibrate,perf_cpu_cpu_clock,perf:cpu:cpu-clock,11,2988.181818,5587.075117,1242,19830,11,0,0,0,0,0"
sed 's/$/\r/' "$fix/calibrate-10.txt" > "$tmp/crlf.txt"
tap_run "$bin" -f csv "$tmp/crlf.txt"
check "CR LF line ends" has \
	"calibrate,time_ns,,11,3686.363636,7796.513673,1260,27190,11,0,0,0,0,0"

# every format of the real babeltrace tools, same trace, same numbers
edges="calibrate,TIME,,6,933.333333,186.189867,700,1200,6,2,2,1,0,W
calibrate,perf_cpu_cpu_clock,perf:cpu:cpu-clock,6,900.000000,141.421356,700,1100,6,2,2,1,0,W
calibrate,perf_cpu_page_fault,perf:cpu:page-fault,6,0.666667,0.816497,0,2,6,2,2,1,0,W"
for f in bt2-edges bt2-edges-seconds bt2-edges-date bt2-edges-cycles \
	 bt2-edges-names bt2-edges-warning bt1-edges bt1-edges-names; do
	time=time_ns
	warnings=0
	case $f in
	*cycles) time=time_cycles ;;
	*warning) warnings=1 ;;
	esac
	tap_run "$bin" -f csv "$fix/$f.txt"
	echo "$edges" | sed "s/TIME/$time/; s/W\$/$warnings/" > "$tmp/want"
	tail -n +2 "$tmp/out" > "$tmp/got"
	check "$f.txt: migration, lost return, exit without entry, midnight" \
		cmp -s "$tmp/want" "$tmp/got"
done
tap_run "$bin" -f csv "$fix/bt2-return.txt"
check "bt2-return.txt: _return naming, old perf context names" has \
	"calibrate,perf_LLC_load_misses,perf:LLC-load-misses,4,6.500000,1.290994,5,8,4,0,0,0,0,0"
check "bt2-return.txt: second counter and time" sh -c \
	"grep -q -x 'calibrate,perf_LLC_store_misses,perf:LLC-store-misses,4,3.000000,2.581989,0,6,4,0,0,0,0,0' '$tmp/out' &&
	 grep -q -x 'calibrate,time_ns,,4,1015.000000,12.909944,1000,1030,4,0,0,0,0,0' '$tmp/out'"
tap_run "$bin" "$fix/bt2-edges-nonames.txt"
check "--names=none output: status 2, FILE:LINE: reason" sh -c \
	"[ $rc -eq 2 ] && grep -q '^$fix/bt2-edges-nonames.txt:1: context field without a name' '$tmp/err'"

if sh "$dir/capture-fixtures.sh" "$tmp/capture" > /dev/null 2>&1; then
	tap_run diff -r "$fix" "$tmp/capture"
	check "fixtures captured again with babeltrace2 and babeltrace: same" \
		sh -c "grep -v calibrate-10.txt '$tmp/out' | { ! grep -q .; }"
else
	tap_skip "capture fixtures again" \
		"babeltrace2, babeltrace or python3 missing"
fi

# malformed input
sed '5s/.*/[19:09:02.8365] garbage/' "$fix/calibrate-10.txt" > "$tmp/bad.txt"
tap_run "$bin" "$tmp/bad.txt"
check "malformed line: status 2, FILE:LINE: reason, no report" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$tmp/out' ] && [ \$(wc -l < '$tmp/err') -eq 1 ] &&
	 grep -q '^$tmp/bad.txt:5: no event name' '$tmp/err'"
tap_run "$bin" --skip-malformed "$tmp/bad.txt"
check "--skip-malformed: counted, the pair around it dropped" sh -c \
	"[ $rc -eq 0 ] && grep -q -x 'calibrate: pairs 10 on CPUs 1; unmatched: 0 entries, 1 exits; other events 0; malformed lines 1' '$tmp/out' &&
	 grep -q 'bad.txt:5: .*(skipped)' '$tmp/err'"
sed '3s/277270916/18446744073709551616/' "$fix/calibrate-10.txt" > "$tmp/huge.txt"
tap_run "$bin" "$tmp/huge.txt"
check "2^64 in a counter: malformed, not wrapped" sh -c \
	"[ $rc -eq 2 ] && grep -q '^$tmp/huge.txt:3: integer out of range' '$tmp/err'"
sed '3s/277270916/18446744073709551615/' "$fix/calibrate-10.txt" > "$tmp/max.txt"
tap_run "$bin" -f csv "$tmp/max.txt"
check "2^64 - 1 in a counter: exact negative delta" \
	grep -q ',-18446744073432279057,' "$tmp/out"
head -c 700 "$fix/calibrate-10.txt" > "$tmp/cut.txt"
tap_run "$bin" "$tmp/cut.txt"
check "truncated last line: status 2 with its line number" sh -c \
	"[ $rc -eq 2 ] && grep -q '^$tmp/cut.txt:4: ' '$tmp/err'"
tap_run "$bin" "$bin"
check "binary garbage: status 2 at line 1" sh -c \
	"[ $rc -eq 2 ] && grep -q '^$bin:1: ' '$tmp/err'"
tap_run "$bin" -s "$bin"
check "binary garbage skipped: status 1, no pair" sh -c \
	"[ $rc -eq 1 ] && grep -q 'pairs 0 on CPUs none' '$tmp/out'"
{
	head -2 "$fix/calibrate-10.txt"
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "0123456789"; print "" }'
	tail -2 "$fix/calibrate-10.txt"
} > "$tmp/long.txt"
tap_run "$bin" "$tmp/long.txt"
check "3 MB line: status 2, line too long" sh -c \
	"[ $rc -eq 2 ] && grep -q -x '$tmp/long.txt:3: line too long' '$tmp/err'"
tap_run "$bin" -s "$tmp/long.txt"
check "3 MB line skipped: both pairs kept" grep -q 'pairs 2 on CPUs 1' "$tmp/out"

# options, status
tap_run "$bin" -e nosuch "$fix/calibrate-10.txt"
check "no pair: status 1, report with 22 other events" sh -c \
	"[ $rc -eq 1 ] && grep -q 'nosuch: pairs 0 on CPUs none; unmatched: 0 entries, 0 exits; other events 22' '$tmp/out'"
tap_run "$bin" < /dev/null
check "empty input: status 1" [ "$rc" -eq 1 ]
tap_run "$bin" --event calib "$fix/calibrate-10.txt"
check "--event matches a prefix" grep -q '^calibrate: pairs 11 ' "$tmp/out"
tap_run "$bin" --version
check "--version: status 0, the name and a version" sh -c \
	"[ $rc -eq 0 ] && grep -qx 'lttng-calibrate-trace [0-9][0-9.]*' '$tmp/out'"
for args in "-f xml" "-x" "a b" "/nonexistent" "-e ''"; do
	# shellcheck disable=SC2086 # the arguments are split on purpose
	eval "tap_run \"\$bin\" $args"
	check "usage error ($args): status 2 with a message" sh -c \
		"[ $rc -eq 2 ] && [ -s '$tmp/err' ] && [ ! -s '$tmp/out' ]"
done
tap_run "$bin" -f json "$fix/bt2-edges-warning.txt"
if command -v python3 > /dev/null; then
	check "JSON output is valid JSON with the counts" python3 -c "
import json, sys
d = json.load(open('$tmp/out'))
f = d['functions'][0]
sys.exit(not (f['pairs'] == 6 and f['cpus'] == [0, 1] and
	f['unmatched_entries'] == 2 and d['warnings'] == 1 and
	f['counters'][2]['stddev'] == 0.816497))"
else
	tap_skip "JSON validation" "python3 missing"
fi
tap_run "$bin" -f csv "$fix/bt2-edges.txt"
check "CSV: 14 columns on every line" sh -c \
	"awk -F, 'NF != 14 { bad = 1 } END { exit bad }' '$tmp/out'"
