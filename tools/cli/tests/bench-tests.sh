#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-tests.sh: host-side tests of "lttng-calibrate bench", no module, no
# root: its options and their errors, and its table, CSV, JSON and SVG
# output of rows recorded in tests/data/bench.kv (--from-kv), and the charts
# of Documentation/bench (every text inside, each the one its JSON gives
# today, through tests/chart-from-json).  Prints
# unnumbered "ok - ..." / "not ok - ..." lines, for tests/run-tests.sh to
# number; exits 0 (the results say what failed).
#
# Usage: tests/bench-tests.sh [PATH/TO/lttng-calibrate]
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$(dirname "$dir")/lttng-calibrate}
kv=$dir/data/bench.kv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Results as "ok - bench: DESC", numbered by tests/run-tests.sh.
TAP_PREFIX="${TAP_PREFIX:-}bench: "
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"

help_ok() {
	"$bin" bench --help > "$tmp/h" && cat "$tmp/h" &&
		grep -q -- "--only LIST" "$tmp/h" &&
		grep -q -- "--plot FILE.svg" "$tmp/h" &&
		"$bin" --help | grep -q "lttng-calibrate bench"
}

list_ok() {
	"$bin" bench --list > "$tmp/l" && cat "$tmp/l" &&
		[ "$(tr '\n' ' ' < "$tmp/l")" = "none kprobe kretprobe fprobe fprobe-exit ftrace-kprobe ftrace-kretprobe ftrace-fprobe ftrace-function ftrace-graph tracepoint-off tracepoint-ftrace tracepoint-perf tracepoint-bpf tracepoint-lttng payload-ftrace payload-perf payload-bpf payload-lttng lttng-function lttng-function-contexts lttng-kprobe perf-probe bpftrace-kprobe bpftrace-kretprobe bpftrace-fentry " ]
}

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$dir/common.sh"

table_ok() {
	"$bin" bench --from-kv "$kv" > "$tmp/t" && cat "$tmp/t" &&
		grep -q '^# kernel 6.1.0-57-amd64; CPU QEMU TCG CPU version 2.5+$' "$tmp/t" &&
		grep -q '^# 20000 iterations per row; clock tsc at 1000000 kHz' "$tmp/t" &&
		grep -Eq '^kretprobe +ok +422.248 \+/- 0.005 +422.248 \+/- 0.005 +421 +2.44 +20001 +20001$' "$tmp/t" &&
		grep -Eq '^fprobe +unavailable .*  the module says: needs CONFIG_FPROBE' "$tmp/t" &&
		grep -Eq '^ftrace-kretprobe +lost .* 20001 +19989  the ring buffer lost 12' "$tmp/t" &&
		[ "$(grep -vc '^#' "$tmp/t")" -eq 9 ] &&
		# aligned: every row's status starts in the header's column
		awk 'NR == 3 { col = index($0, "status") }
		     NR > 3 && substr($0, col - 1, 1) != " " { exit 1 }
		     NR > 3 && substr($0, col, 1) == " " { exit 1 }' "$tmp/t"
}

text_is_table() {
	"$bin" bench --from-kv "$kv" > "$tmp/t" &&
		"$bin" bench --from-kv "$kv" --format text > "$tmp/text" &&
		cmp "$tmp/t" "$tmp/text"
}

csv_ok() {
	"$bin" bench --from-kv "$kv" --format csv > "$tmp/c" && cat "$tmp/c" &&
		python3 "$dir/bench-check.py" csv "$tmp/c"
}

json_ok() {
	"$bin" bench --from-kv "$kv" --format json > "$tmp/j" && cat "$tmp/j" &&
		python3 "$dir/bench-check.py" json "$tmp/j"
}

# A chart of Documentation/bench is what chart-from-json draws from its JSON.
drawn_from() {
	"$dir/chart-from-json" "$1" > "$tmp/drawn.svg" &&
		cmp -s "$tmp/drawn.svg" "${1%.json}.svg"
}

svg_ok() {
	"$bin" bench --from-kv "$kv" --format csv --plot "$tmp/p.svg" \
		> /dev/null && python3 "$dir/bench-check.py" svg "$tmp/p.svg"
}

check "--help: the bench's usage, and the command's mentions it" help_ok
check "--list: the mechanisms in the rows' order" list_ok
check "-n 0 is an invalid iteration count" fails_with \
	"invalid iteration count '0': a decimal number from 1" bench -n 0
check "-n with a sign is invalid" fails_with "invalid iteration count '-5'" bench \
	-n -5
check "-n beyond 64 bits is invalid" fails_with "invalid iteration count" bench \
	-n 99999999999999999999
check "--format xml is invalid" fails_with \
	"invalid format 'xml': table, csv or json" bench --format xml
check "--only with an unknown mechanism names them all" fails_with \
	"--only: unknown mechanism 'kprobes' (mechanisms: none, kprobe, kretprobe," bench \
	--only kprobe,kprobes
check "--only '' is refused" fails_with "--only: an empty list" bench --only ''
check "a stray argument is refused" fails_with \
	"bench: unexpected argument 'now'" bench now
check "an unknown option is refused" fails_with \
	"bench: unknown option '--bogus' (see lttng-calibrate bench --help)" bench --bogus
check "not root: refused before anything" not_root "$bin" bench -n 10 --only kprobe
check "--from-kv of a missing file" fails_with \
	"--from-kv $tmp/none: No such file or directory" bench --from-kv "$tmp/none"
printf 'format=other/1\n' > "$tmp/bad1"
check "--from-kv of another format" fails_with \
	"--from-kv $tmp/bad1: line 1: bad format 'other/1'" bench \
	--from-kv "$tmp/bad1"
printf 'format=lttng-calibrate-bench-kv/1\nrow=x\nstatus=maybe\n' > "$tmp/bad2"
check "--from-kv with a bad status" fails_with \
	"--from-kv $tmp/bad2: line 3: bad status 'maybe'" bench \
	--from-kv "$tmp/bad2"
check "--plot into a missing directory" fails_with \
	"--plot $tmp/no/p.svg: No such file or directory" bench --from-kv "$kv" \
	--plot "$tmp/no/p.svg"
check "table: header, aligned columns, reasons" table_ok
check "--format text is the table" text_is_table
if command -v python3 > /dev/null; then
	check "CSV: the JSON fields as header, rectangular, quoted reasons" csv_ok
	check "JSON: the lttng-calibrate-bench/1 schema, nulls, ratios" json_ok
	check "SVG: well-formed, one bar and error bar per measured row, labelled, every text inside" svg_ok
	for svg in "$dir"/../../../Documentation/bench/*.svg; do
		check "${svg##*/}: every text inside the chart" \
			python3 "$dir/bench-check.py" svg-fits "$svg"
	done
	for json in "$dir"/../../../Documentation/bench/*.json; do
		check "${json##*/}: its chart is what today's code draws (make charts)" \
			drawn_from "$json"
	done
else
	for t in CSV JSON SVG "Documentation's charts"; do
		tap_skip "$t output" "no python3"
	done
fi
