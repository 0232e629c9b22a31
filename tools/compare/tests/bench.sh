#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh BINARY: bench mode of lttng-calibrate-compare seen from the
# command line, on the fixtures tests/data/bench-*.json (see
# tests/data/README.rst). Prints "ok - ..." / "not ok - ..." lines;
# run-tests.sh numbers them.
#
# Expected numbers were computed independently with Python's mpmath 1.3
# (Welch's t, Welch-Satterthwaite df, t quantile by findroot on the CDF):
#   base vs plus10, kprobe 100 -> 110 (sd 10, n 1000 each): +10,
#     halfwidth 0.8770538439, p 5.01e-99; kretprobe 200 -> 180 (sd 20):
#     -20 +/- 1.754107688; none 0 -> 0.05 (sd 1): p 0.2637
#   base vs other-cpu, kprobe 100 -> 99: -1 +/- 0.877, p 0.0255
#   6.1 vs 6.12 (recorded by lttng-calibrate bench, Documentation/bench/),
#     kprobe 174.176 (sd 3.053) -> 184.156 (sd 3.048), n 200000: +9.98
#     +/- 0.01890692993 (+5.730% +/- 0.01086%); kretprobe 424.117 (sd
#     3.055) -> 472.159 (sd 3.1): +48.042 +/- 0.0190748 (+11.33% +/-
#     0.004498%)
set -eu

bin=$1
dir=$(cd "$(dirname "$0")" && pwd)
data=$dir/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$dir/common.sh"
# check DESC CONDITION...: the last run's output shown when it fails
tap_show="$tmp/out $tmp/err"
tap_show_lines=30

base=$data/bench-base.json
same=$data/bench-same.json
plus10=$data/bench-plus10.json
other=$data/bench-other-cpu.json
v61=$data/bench-6.1-recorded.json
v612=$data/bench-6.12-recorded.json

test_recorded() {
	tap_run "$bin" "$v61" "$v612"
	check "recorded: detected as bench JSON, exit 0" status 0
	check "recorded: header of the base" \
		out_has "[1] $v61: kernel 6.1.0-57-amd64, cpu QEMU TCG CPU version 2.5+, 200000 iterations, clock tsc (999999 kHz) (base)"
	check "recorded: LKP-like columns" \
		out_has "      6.1.0-57-amd64              6.12.95+deb12-amd64"
	check "recorded: kprobe line, value, ci and %change" \
		out_has "     174.18 ±  0.01%       +5.7%      184.16 ±  0.01%  kprobe"
	check "recorded: kprobe verdict as computed with mpmath" \
		out_has "Difference at 95.0% confidence: +9.98 +/- 0.0189069 (+5.73% +/- 0.0109%)"
	check "recorded: kretprobe verdict as computed with mpmath" \
		out_has "Difference at 95.0% confidence: +48.042 +/- 0.0190748 (+11.3% +/- 0.0045%)"
	check "recorded: none, zero on both sides, absolute change" \
		out_has "       0.00 ± 0.0131          +0        0.00 ± 0.0131  none"
	check "recorded: fprobe unavailable on 6.1, with its reason" \
		out_has "[1] 6.1.0-57-amd64: unavailable (the module says: the kernel is built without CONFIG_FPROBE)"
	check "recorded: fprobe, no verdict" \
		out_has "[2] 6.12.95+deb12-amd64: no verdict"
	check "recorded: the 26 mechanisms, one table line each" \
		sh -c "[ \$(grep -cE '^ .*  [a-z][a-z-]*\$' '$tmp/out') -eq 26 ]"
	check "recorded: none and tracepoint-off, no difference proven" \
		count "No difference proven at 95.0% confidence" 2
	check "recorded: the 21 others that both kernels offer, a difference" \
		count "Difference at 95.0% confidence" 21
	check "recorded: same machine, no warning" \
		sh -c "! grep -q '^warning' '$tmp/out'"
	tap_run "$bin" -m overhead_ns "$v61" "$v612"
	check "recorded: -m overhead_ns" \
		out_has "     174.18 ±  0.01%       +5.7%      184.16 ±  0.01%  kprobe"
	check "recorded: -m overhead_ns header" out_has "overhead_ns, 95.0%"
	tap_run "$bin" -m overhead_ns -f csv "$v61" "$v612"
	# shellcheck disable=SC2016 # awk fields
	check "recorded: ns stddev from stddev_cycles / clock_khz (CSV)" \
		awk -F, '$1 == "\"kprobe\"" && $2 == 1 && $8 > 3.0530030 &&
			$8 < 3.0530031 { ok = 1 } END { exit !ok }' "$tmp/out"
}

test_verdicts() {
	tap_run "$bin" "$base" "$same"
	check "equal inputs: exit 0" status 0
	check "equal inputs: no difference proven for the 4 ok mechanisms" \
		count "No difference proven at 95.0% confidence" 4
	check "equal inputs: no difference line at all" \
		count "Difference at" 0
	tap_run "$bin" --fail-if any "$base" "$same"
	check "equal inputs: --fail-if any exits 0" status 0
	tap_run "$bin" "$base" "$plus10"
	check "+10%: kprobe proven, sign and size as mpmath" \
		out_has "Difference at 95.0% confidence: +10 +/- 0.877054 (+10% +/- 0.877%)"
	check "+10%: kprobe %change column" \
		out_has "     100.00 ±  0.62%      +10.0%      110.00 ±  0.56%  kprobe"
	check "-10%: kretprobe proven with a minus sign" \
		out_has "Difference at 95.0% confidence: -20 +/- 1.75411 (-10% +/- 0.877%)"
	check "+10%: none +0.05 (p = 0.264) not proven" \
		out_has "(Welch's t = 1.118, df = 1998, p = 0.264)"
	check "unavailable in the base: shown with its reason" \
		out_has "[1] base-kernel: unavailable (no CONFIG_FPROBE)"
	check "unavailable in the base: the table says so" \
		out_has "         unavailable                  300.00 ±  0.62%  fprobe"
	check "missing from the base: listed last, no verdict" \
		sh -c "tail -3 '$tmp/out' | tr '\n' '|' | grep -qF 'uprobe:|	[1] base-kernel: absent|	[2] plus10-kernel: no verdict|'"
	check "missing from the other: absent, no verdict" \
		out_has "[2] plus10-kernel: absent, no verdict"
	tap_run "$bin" -c 99 "$base" "$plus10"
	check "-c 99: interval columns and verdicts at 99 %" \
		sh -c "grep -qF '%ci99' '$tmp/out' && grep -qF 'Difference at 99.0% confidence: +10' '$tmp/out'"
}

test_fail_if() {
	tap_run "$bin" --fail-if increase "$base" "$plus10"
	check "gate: --fail-if increase, kprobe +10% exits 1" status 1
	tap_run "$bin" --fail-if increase "$base" "$other"
	check "gate: --fail-if increase, kprobe -1% (proven) exits 0" status 0
	tap_run "$bin" --fail-if decrease "$base" "$other"
	check "gate: --fail-if decrease, kprobe -1% exits 1" status 1
	tap_run "$bin" --fail-if decrease "$base" "$same" "$other"
	check "gate: any input counts (three inputs)" status 1
	tap_run "$bin" --fail-if any "$v61" "$v612"
	check "gate: --fail-if any on the recorded figures" status 1
}

test_three() {
	tap_run "$bin" "$base" "$plus10" "$other"
	check "three inputs: exit 0" status 0
	check "three inputs: one warning line for cpu_model and clock" \
		sh -c "[ \$(grep -c '^warning' '$tmp/out') -eq 1 ] &&
			grep -qF 'warning: the inputs differ in cpu_model and clock' '$tmp/out'"
	check "three inputs: a column pair per other input" \
		out_has "         base-kernel                    plus10-kernel                    other-machine"
	check "three inputs: each against the base" \
		out_has "[3] other-machine: Difference at 95.0% confidence: -1 +/- 0.877054 (-1% +/- 0.877%)"
	check "three inputs: a lost row, with its reason, no verdict" \
		out_has "[3] other-machine: lost (12 events lost), no verdict"
	tap_run "$bin" "$base" "$other"
	check "other machine: the warning names what differs" \
		out_has "warning: the inputs differ in cpu_model and clock"
}

test_formats() {
	tap_run "$bin" -f csv "$base" "$plus10" "$other"
	check "csv: a header and a line per mechanism and input" \
		[ "$(wc -l < "$tmp/out")" -eq 19 ]
	check "csv: kprobe of +10% with its verdict" \
		grep -q '^"kprobe",2,"plus10-kernel",.*,ok,"",110,10,1000,.*,10,0.877053.*,95,difference$' "$tmp/out"
	check "csv: unavailable base row" \
		grep -q '^"fprobe",1,.*,unavailable,"no CONFIG_FPROBE",.*,95,none$' "$tmp/out"
	if ! command -v python3 > /dev/null; then
		echo "ok - ${TAP_PREFIX:-}bench json: valid JSON # SKIP no python3"
		return
	fi
	tap_run "$bin" -f json "$base" "$plus10" "$other"
	check "json: parses, with per-mechanism, per-input results" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "bench" and d["cpu_model_differs"] and d["clock_differs"]
assert [i["kernel"] for i in d["inputs"]] == ["base-kernel", "plus10-kernel", "other-machine"]
m = {x["mechanism"]: x for x in d["mechanisms"]}
k = m["kprobe"]["results"][1]
assert k["verdict"] == "difference" and k["change"]["significant"]
assert abs(k["change"]["halfwidth"] - 0.8770538439) < 1e-8
assert m["kprobe"]["results"][0]["verdict"] == "reference"
assert m["fprobe"]["results"][0]["status"] == "unavailable"
assert m["fprobe"]["results"][1]["change"] is None
assert not m["uprobe"]["in_base"] and m["uprobe"]["results"][0]["status"] == "absent"
assert m["kretprobe"]["results"][2]["reason"] == "12 events lost"
' "$tmp/out"
}

test_inputs() {
	tap_run "$bin" --bench "$base" - < "$plus10"
	check "--bench: standard input as an input" \
		out_has "[2] <stdin>: kernel plus10-kernel"
	printf '\n  \t' > "$tmp/sp"
	cat "$base" >> "$tmp/sp"
	tap_run "$bin" "$tmp/sp" "$plus10"
	check "detection: white space before the '{'" status 0
}

# with_row SED: the base file edited by a sed expression, in $tmp/edited
edited() {
	sed "$1" "$base" > "$tmp/edited"
	tap_run "$bin" "$base" "$tmp/edited"
}

test_bad() {
	tap_run "$bin" "$base"
	check "bad: a single input" usage_error "bench mode needs 2 or more FILEs"
	tap_run "$bin" --bench "$base" "$data/base.txt"
	check "bad: a text file with --bench" \
		usage_error "$data/base.txt:1:1: not valid JSON: expected a value, found '#'"
	tap_run "$bin" "$base" "$data/bench-not-bench.json"
	check "bad: JSON that is not bench JSON" \
		usage_error "bench-not-bench.json: not bench JSON: no \"format\": \"lttng-calibrate-bench/1\""
	tap_run "$bin" "$base" "$data/bench-bad-version.json"
	check "bad: another format version" \
		usage_error "format 'lttng-calibrate-bench/2' is not supported"
	tap_run "$bin" "$base" "$data/bench-bad-syntax.json"
	check "bad: a trailing comma, with line and column" \
		usage_error "bench-bad-syntax.json:3:1: not valid JSON: expected a value, found ']'"
	tap_run "$bin" "$base" "$data/bench-bad-number.json"
	check "bad: a number in quotes" \
		usage_error "rows[1] (kprobe): \"overhead_cycles\": expected a number or null, found a string"
	edited 's/"overhead_cycles": 100.0/"overhead_cycles": 0100.0/'
	check "bad: a leading zero" usage_error "not valid JSON: leading zero in a number"
	edited 's/"overhead_cycles": 100.0/"overhead_cycles": NaN/'
	check "bad: NaN" usage_error "not valid JSON: expected a value, found 'N'"
	edited 's/"overhead_cycles": 100.0/"overhead_cycles": 1e999/'
	check "bad: a number out of range" usage_error "number out of range: 1e999"
	edited 's/"overhead_cycles": 100.0/"overhead_cycles": 1e200/'
	check "bad: too large for the statistics" usage_error "too large for the statistics"
	edited 's/"overhead_cycles": 100.0/"overhead_cycles": null/'
	check "bad: null in an ok row" \
		usage_error "rows[1] (kprobe): \"overhead_cycles\" is null in a row of status \"ok\""
	edited '3s/"samples": 1000/"samples": 1.5/'
	check "bad: a fractional count" usage_error "\"samples\": 1.5 is not a count of 2 or more"
	edited '3s/"samples": 1000/"samples": 1/'
	check "bad: a count of one" usage_error "\"samples\": 1 is not a count of 2 or more"
	edited '3s/"stddev_cycles": 10.0/"stddev_cycles": -1/'
	check "bad: a negative stddev" usage_error "negative standard deviation"
	edited '3s/"status": "ok"/"status": "maybe"/'
	check "bad: an unknown status" usage_error "\"status\": 'maybe' is not ok, lost, unavailable or failed"
	edited '3s/"mechanism": "kprobe"/"mechanism": "none"/'
	check "bad: a mechanism given twice" usage_error "rows[1] (none): mechanism given twice (also rows[0])"
	edited '3s/"mechanism": "kprobe", //'
	check "bad: a row without mechanism" usage_error "rows[1]: no \"mechanism\""
	edited 's/"kernel": "base-kernel", //'
	check "bad: no kernel" usage_error "no \"kernel\""
	head='{"format": "lttng-calibrate-bench/1", "kernel": "k", "cpu_model": null, "iterations": null, "clock": null, "clock_khz": null'
	printf '%s, "rows": {"kprobe": 1}}\n' "$head" > "$tmp/rows"
	tap_run "$bin" "$base" "$tmp/rows"
	check "bad: rows not an array" usage_error "no \"rows\" array"
	printf '%s, "rows": []}\n' "$head" > "$tmp/rows"
	tap_run "$bin" "$base" "$tmp/rows"
	check "bad: no rows" usage_error "\"rows\" is empty"
	printf '%s, "rows": [{"mechanism": "kprobe", "status": "unavailable", "reason": null}]}\n' \
		"$head" > "$tmp/rows"
	tap_run "$bin" "$base" "$tmp/rows"
	check "null header fields and reason are accepted" \
		sh -c "[ $rc -eq 0 ] && grep -qF '[2] k: unavailable, no verdict' '$tmp/out' && grep -qF 'cpu unknown, iterations unknown, clock unknown' '$tmp/out'"
	edited 's/"cpu_model": "Test CPU"/"cpu_model": 12/'
	check "bad: cpu_model not a string" \
		usage_error "\"cpu_model\": expected a string or null, found a number"
	edited 's/"kernel": "base-kernel"/"kernel": "a", "kernel": "b"/'
	check "bad: a duplicate member" usage_error "duplicate member 'kernel'"
	printf '[1, 2]\n' > "$tmp/array"
	tap_run "$bin" --bench "$base" "$tmp/array"
	check "bad: an array" usage_error "not bench JSON: an array, not an object"
	tap_run "$bin" "$base" "$tmp/does-not-exist"
	check "bad: unreadable file" usage_error "does-not-exist: No such file"
	tap_run "$bin" -m target.cycles.mean "$base" "$plus10"
	check "bad: --metric other than overhead_*" \
		usage_error "--metric: 'target.cycles.mean' is not overhead_cycles or overhead_ns"
	tap_run "$bin" -C 2 "$base" "$plus10"
	check "bad: --column in bench mode" usage_error "bench mode reads JSON"
	tap_run "$bin" --bench --series "$base" "$plus10"
	check "bad: --bench with --series" usage_error "exclude each other"
}

# Every prefix (every 7th byte) of a fixture: exit 2 with a message,
# never a signal or a success.
test_truncated() {
	size=$(wc -c < "$base")
	bad=0
	cut=0
	while [ "$cut" -lt "$size" ]; do
		head -c "$cut" "$base" > "$tmp/cut"
		rc=0
		"$bin" --bench "$base" "$tmp/cut" > "$tmp/out" 2> "$tmp/err" ||
			rc=$?
		if [ "$rc" -ne 2 ] || ! grep -q "^lttng-calibrate-compare: " \
			"$tmp/err"; then
			bad=$((bad + 1))
			echo "# truncated at $cut: exit $rc" >&2
		fi
		cut=$((cut + 7))
	done
	check "truncated files: every prefix refused with a message" [ "$bad" -eq 0 ]
}

test_recorded
test_verdicts
test_fail_if
test_three
test_formats
test_inputs
test_bad
test_truncated
