#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli.sh BINARY: behaviour of lttng-calibrate-compare seen from the
# command line, including the two tbench checks of the 2009 report.
# Prints "ok - ..." / "not ok - ..." lines; run-tests.sh numbers them.
#
# Expected numbers were computed independently with Python's mpmath
# (Welch's t, Welch-Satterthwaite df, t quantile by findroot on the CDF):
#   base.txt vs new.txt:  diff +1.34, halfwidth 0.3023518885,
#                         +2.994413408% +/- 0.6756466782%, p 5.98e-8
#   base.txt vs same.txt: p 0.795 (no difference)
#   tbench "with", first 5 vs last 6: step -61.094 = -4.651%,
#     pooled t -22.976, df 9, p 2.66e-9, x 8 splits = 2.13e-8
set -eu

bin=$1
dir=$(cd "$(dirname "$0")" && pwd)
data=$dir/data
tsv=$dir/tbench-series.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$dir/common.sh"
# check DESC CONDITION...: the last run's output shown when it fails
tap_show="$tmp/out $tmp/err"

json_ok() {
	python3 -m json.tool "$tmp/out" > /dev/null
}

test_compare() {
	tap_run "$bin" "$data/base.txt" "$data/new.txt"
	check "compare: exit 0 without --fail-if" status 0
	check "compare: ministat verdict, numbers as computed with mpmath" \
		out_has "Difference at 95.0% confidence: +1.34 +/- 0.302352 (+2.99% +/- 0.676%)"
	check "compare: summary row of base.txt" \
		out_has "x  10          44.1          45.3         44.75         44.75    0.36893239"
	check "compare: plot with mean and median bars" \
		grep -q '^| *|_*[AM]_*[AM]*_*| *|$' "$tmp/out"
	tap_run "$bin" "$data/base.txt" "$data/same.txt"
	check "compare: same kernel, no difference proven" \
		out_has "No difference proven at 95.0% confidence"
	tap_run "$bin" -c 80 "$data/base.txt" "$data/same.txt"
	check "compare: no difference at 80% either (p = 0.795)" \
		out_has "No difference proven at 80.0% confidence"
	tap_run "$bin" "$data/base.txt" "$data/same.txt" "$data/new.txt"
	check "compare: three samples, each against the first" \
		[ "$(grep -c 'Welch' "$tmp/out")" -eq 2 ]
	grep -v '^#' "$data/new.txt" > "$tmp/stdin-sample"
	tap_run "$bin" "$data/base.txt" - < "$tmp/stdin-sample"
	check "compare: a sample from standard input" \
		out_has "+ <stdin>"
}

test_plot_width() {
	tap_run "$bin" -w 40 "$data/base.txt" "$data/new.txt"
	check "plot: -w 40 gives lines of 40 columns" \
		[ "$(grep -c '^[|+].\{38\}[|+]$' "$tmp/out")" -ge 5 ]
	rc=0
	COLUMNS=100 "$bin" "$data/base.txt" "$data/new.txt" > "$tmp/out" ||
		rc=$?
	check "plot: width from \$COLUMNS" \
		grep -q '^+-\{98\}+$' "$tmp/out"
	tap_run "$bin" -n "$data/base.txt" "$data/new.txt"
	check "plot: -n leaves it out" \
		sh -c "! grep -q '^+--' '$tmp/out'"
}

test_columns() {
	printf '# run ns\n1 10.5\n2 11.0\n\n3 10.8 # third\n' > "$tmp/a"
	printf '1\t12.1\n2\t12.3\n3\t12.0\n' > "$tmp/b"
	tap_run "$bin" -C 2 "$tmp/a" "$tmp/b"
	check "columns: -C 2 with comments and blank lines" \
		out_has "Difference at 95.0% confidence"
	tap_run "$bin" -g 1 -C 3 "$tsv"
	check "columns: -g 1 makes one sample per series" \
		out_has "+ without"
}

test_series() {
	tap_run "$bin" --series --select with "$tsv"
	check "tbench with: a change point" status 0
	check "tbench with: exactly one change point" \
		[ "$(grep -c '^change point at' "$tmp/out")" -eq 1 ]
	check "tbench with: at fix-x86_64-sysenter-trace-race" \
		out_has "change point at fix-x86_64-sysenter-trace-race (label 6 of 11)"
	check "tbench with: step of -4.65%" out_has "(-4.65% +/-"
	tap_run "$bin" --series --select with -f csv "$tsv"
	# shellcheck disable=SC2016 # $2, $7, $13 are awk fields
	check "tbench with: about -4.6 % with high confidence (CSV)" \
		awk -F, 'NR == 2 && $2 == "\"fix-x86_64-sysenter-trace-race\"" &&
			$7 > -4.9 && $7 < -4.4 && $13 < 0.001 { ok = 1 }
			END { exit !(ok && NR == 2) }' "$tmp/out"
	tap_run "$bin" --series --select without "$tsv"
	check "tbench without: no change point" \
		out_has "no change point at 95.0% confidence"
	tap_run "$bin" --series --select without -c 80 -f csv "$tsv"
	check "tbench without: none even at 80% (CSV header only)" \
		[ "$(wc -l < "$tmp/out")" -eq 1 ]
	printf 'v1 10 10.2 9.9\nv2 10.1\nv3 12 12.1\nv2 9.8\nv4 12.2 11.9\n' \
		> "$tmp/s"
	tap_run "$bin" --series -f json "$tmp/s"
	check "series: several values per label, repeated labels merged" \
		out_has '"label_index": 3, "label": "v3"'
	check "series: json gives each label's mean and its interval" \
		out_has '"label_index": 1, "label": "v1", "n": 3, "min": 9.9, "max": 10.2, "median": 10, "mean": 10.03333333, "stddev": 0.1527525232, "halfwidth": 0.3794583034}'
	# Under -icount: a level, then a real step, then 0.003 % more, as
	# certain as the step but of no interest.
	printf '%s\n' 'a 515.38 515.38 515.40' 'b 515.37 515.44 515.39' \
		'c 1545.36 1545.36 1545.36' 'd 1545.35 1545.37 1545.39' \
		'e 1545.36 1545.35 1545.35' 'f 1545.40 1545.41 1545.41' >"$tmp/ic"
	tap_run "$bin" --series "$tmp/ic"
	check "series: a change of 0.003 % found when no minimum is asked" \
		[ "$(grep -c '^change point at' "$tmp/out")" -eq 2 ]
	tap_run "$bin" --series --min-change 1 -f json "$tmp/ic"
	# shellcheck disable=SC2016 # expanded by eval
	check "series: --min-change 1 keeps the step alone, says the minimum" \
		eval 'out_has "\"min_change_percent\": 1," &&
		      [ "$(grep -c "\"label\": \"c\", \"before\"" "$tmp/out")" -eq 1 ] &&
		      ! grep -q "\"label\": \"f\", \"before\"" "$tmp/out"'
	printf '%s\n' 'a 10 10.1 9.9' 'b 10.2 10.1 10.3' >"$tmp/small"
	tap_run "$bin" --series --min-change 5 "$tmp/small"
	check "series: no change point of 5 % or more, said so" \
		out_has "no change point at 95.0% confidence of a change of 5% or more"
}

test_formats() {
	if ! command -v python3 > /dev/null; then
		tap_skip "json: valid JSON" "no python3"
		return
	fi
	tap_run "$bin" -f json "$data/base.txt" "$data/new.txt"
	check "json: compare output parses" json_ok
	tap_run "$bin" -f json --series --select with "$tsv"
	check "json: series output parses" json_ok
	tap_run "$bin" -f csv "$data/base.txt" "$data/new.txt"
	check "csv: header and one row per sample" \
		[ "$(wc -l < "$tmp/out")" -eq 3 ]
	check "csv: verdict column" \
		grep -q ',difference$' "$tmp/out"
}

test_fail_if() {
	tap_run "$bin" --fail-if increase "$data/base.txt" "$data/new.txt"
	check "gate: --fail-if increase exits 1 on a proven increase" status 1
	tap_run "$bin" --fail-if decrease "$data/base.txt" "$data/new.txt"
	check "gate: --fail-if decrease exits 0 on an increase" status 0
	tap_run "$bin" --fail-if any "$data/base.txt" "$data/same.txt"
	check "gate: --fail-if any exits 0 without a difference" status 0
	tap_run "$bin" --series --select with --fail-if decrease "$tsv"
	check "gate: series drop fails --fail-if decrease" status 1
	tap_run "$bin" --series --select without --fail-if any "$tsv"
	check "gate: series without a change passes" status 0
}

results_file() {
	cat <<-END
	tap_run 1: done, 100000 of 100000 iterations on CPU 2
	row        count    mean
	target     100000   $1
	run.state=done
	clock.name=tsc
	target.cycles.mean=$1
	baseline.cycles.mean=40.000
	END
}

test_metric() {
	mkdir "$tmp/rbase" "$tmp/rnew"
	for v in 120.5 121.250 119.875 120.9; do
		results_file "$v" > "$tmp/rbase/run-$v"
	done
	for v in 131.5 130.25 132.0 131.125; do
		results_file "$v" > "$tmp/rnew/run-$v"
		results_file "$v" >> "$tmp/rnew-all"
	done
	tap_run "$bin" -m target.cycles.mean "$tmp/rbase" "$tmp/rnew"
	check "metric: one value per results file, directories as samples" \
		out_has "Difference at 95.0% confidence: +10.5875 +/- 1.1704"
	tap_run "$bin" -m target.cycles.mean "$tmp/rbase" "$tmp/rnew-all"
	check "metric: concatenated results, one value per occurrence" \
		out_has "+   4        130.25           132"
	tap_run "$bin" -m no.such.key "$tmp/rbase" "$tmp/rnew"
	check "metric: a missing key is an error" usage_error "no line 'no.such.key=VALUE'"
	tap_run "$bin" -m clock.name "$tmp/rbase" "$tmp/rnew"
	check "metric: a non-numeric value is an error with file:line" \
		usage_error ":5: not a number: 'tsc'"
	tap_run "$bin" --series -m target.cycles.mean "$tmp/rbase/run-120.5" \
		"$tmp/rbase/run-121.250" "$tmp/rnew/run-131.5" \
		"$tmp/rnew/run-130.25"
	check "metric: series over results files" \
		out_has "change point at $tmp/rnew/run-131.5"
}

test_bad_input() {
	printf '1\n2\nabc\n' > "$tmp/bad"
	tap_run "$bin" "$data/base.txt" "$tmp/bad"
	check "bad: non-numeric value named with file:line" \
		usage_error "$tmp/bad:3: not a number: 'abc'"
	printf '# nothing\n\n' > "$tmp/empty"
	tap_run "$bin" "$data/base.txt" "$tmp/empty"
	check "bad: empty sample" usage_error "empty sample"
	printf '5\n' > "$tmp/one"
	tap_run "$bin" "$tmp/one" "$data/base.txt"
	check "bad: a sample of one" usage_error "sample of one value"
	printf '1\nnan\n' > "$tmp/nan"
	tap_run "$bin" "$data/base.txt" "$tmp/nan"
	check "bad: NaN" usage_error "$tmp/nan:2: NaN is not a measurement"
	printf '1\n-inf\n' > "$tmp/inf"
	tap_run "$bin" "$data/base.txt" "$tmp/inf"
	check "bad: infinity" usage_error "$tmp/inf:2: infinity"
	printf '1\n1e999\n' > "$tmp/huge"
	tap_run "$bin" "$data/base.txt" "$tmp/huge"
	check "bad: overflowing number" usage_error "$tmp/huge:2: number out of range"
	printf '1 2\n3\n' > "$tmp/cols"
	printf '1 2\n3 4\n' > "$tmp/cols-ok"
	tap_run "$bin" -C 2 "$tmp/cols-ok" "$tmp/cols"
	check "bad: mismatched columns" usage_error "$tmp/cols:2: no value column 2"
	tap_run "$bin" "$data/base.txt" "$tmp/cols"
	check "bad: several fields without -C" usage_error "$tmp/cols:1: expected one value"
	printf '1\n2\0\n' > "$tmp/nul"
	tap_run "$bin" "$data/base.txt" "$tmp/nul"
	check "bad: NUL byte" usage_error "$tmp/nul:2: binary data"
	tap_run "$bin" "$data/base.txt" "$tmp/does-not-exist"
	check "bad: unreadable file" usage_error "does-not-exist: No such file"
	mkdir "$tmp/nofiles"
	tap_run "$bin" "$data/base.txt" "$tmp/nofiles"
	check "bad: empty directory" usage_error "no files in directory"
	tap_run "$bin" "$data/base.txt"
	check "bad: a single sample" usage_error "compare needs 2"
	tap_run "$bin" -c 100 "$data/base.txt" "$data/new.txt"
	check "bad: confidence 100" usage_error "--confidence"
	tap_run "$bin" --series --min-change -1 "$tsv"
	check "bad: --min-change -1" usage_error "--min-change: '-1' is not a percentage"
	tap_run "$bin" --min-change 1 "$data/base.txt" "$data/new.txt"
	check "bad: --min-change in compare mode" usage_error "--min-change is for --series"
	tap_run "$bin" --bogus "$data/base.txt" "$data/new.txt"
	check "bad: unknown option" status 2
	tap_run "$bin" --series --select nosuch "$tsv"
	check "bad: --select that matches nothing" usage_error "does --select match?"
	printf 'a 1\nb\n' > "$tmp/nolabelvalue"
	tap_run "$bin" --series "$tmp/nolabelvalue"
	check "bad: series label without a value" \
		usage_error "$tmp/nolabelvalue:2: no value after label 'b'"
	printf '1e200\n1\n' > "$tmp/toolarge"
	tap_run "$bin" "$data/base.txt" "$tmp/toolarge"
	check "bad: values too large for the statistics" usage_error "too large"
	tap_run "$bin" --help
	check "help: exit 0 and usage" out_has "Exit status: 0 success"
	tap_run "$bin" --version
	check "version: exit 0, the name and a version" \
		grep -qx 'lttng-calibrate-compare [0-9][0-9.]*' "$tmp/out"
}

# in_tests COMMAND...: COMMAND run in tests/, where the steps' sources are
in_tests() {
	(cd "$dir" && exec "$@")
}

# steps_prints NAME FORMAT MIN_CHANGE FILE [ARG]...: the report of a patch
# series (--steps, --plot), from tests/, is what lttng-calibrate-series'
# jq filter printed of it (tests/data/steps-NAME.*, see data/README.rst).
steps_prints() {
	name=$1 format=$2 change=$3 file=$4
	shift 4
	in_tests "$bin" --series --steps --format "$format" \
		--min-change "$change" --plot "$tmp/steps.svg" "$@" "$file" \
		> "$tmp/steps.out" &&
	cmp "$tmp/steps.out" "$data/steps-$name.$format" >&2 &&
	cmp "$tmp/steps.svg" "$data/steps-$name.svg" >&2
}

# plot_failed FILE: the report printed, then status 2 for FILE, and why
plot_failed() {
	status 2 && out_has "change point: fix-x86_64" &&
		err_has "--plot $1: No such file or directory"
}

test_steps() {
	for f in table csv json; do
		check "steps, tbench with, $f: the series command's report" \
			steps_prints with "$f" 1 tbench-series.tsv --select with
		check "steps, tbench without, $f: no change point" \
			steps_prints without "$f" 0 tbench-series.tsv \
			--select without
		check "steps, a base and runs, $f: step 0, the intervals" \
			steps_prints base "$f" 1 data/steps-base.values
		check "steps, a step not measured, $f: in its place, left out" \
			steps_prints missing "$f" 1 data/steps-missing.values
		check "steps, numbered steps, two missing, negative and tiny, $f" \
			steps_prints odd "$f" 0 data/steps-odd.values
	done
	tap_run in_tests "$bin" --series --select with --min-change 1 \
		--plot "$tmp/p.svg" tbench-series.tsv
	check "steps: --plot alone keeps --series' own report" \
		out_has "change point at fix-x86_64-sysenter-trace-race (label 6 of 11)"
	check "steps: --plot alone draws the plot" \
		cmp "$tmp/p.svg" "$data/steps-with.svg"
	printf '# unit: ns\nbase 0 0 0\none 0 0 0\ntwo 5 5 5\n' >"$tmp/zero.values"
	tap_run "$bin" --series --steps "$tmp/zero.values"
	check "steps, a level of 0: the change from 0, no percentage" \
		out_has "patch 2 of 2, two: 0.0 -> 5.0 ns (from 0, p < "
	# Runs of one boot under -icount agree to a few parts in a million:
	# the change is the threshold's to decide, and the report says so.
	printf '# unit: cycles\nbase 100 100.001 100\none 100 100.001 100\ntwo 106 106.001 106\n' \
		>"$tmp/icount.values"
	tap_run "$bin" --series --steps --min-change 1 "$tmp/icount.values"
	check "steps, runs that agree: the change decided by the threshold, said" \
		out_has "change point: two (step 2), decided by the 1 % threshold: the runs agree within 0.00113307 %"
	check "steps, runs that agree: the mail line gives the threshold, no p-value" \
		out_has "patch 2 of 2, two: 100.0 -> 106.0 cycles (+6.0 %, over the 1 % threshold)"
	tap_run "$bin" --series --steps --min-change 1 --format json \
		"$tmp/icount.values"
	check "steps, runs that agree, JSON: decided_by threshold" \
		out_has '"decided_by": "threshold"'
	tap_run "$bin" --steps "$data/base.txt" "$data/new.txt"
	check "bad: --steps in compare mode" usage_error "--steps is for --series"
	tap_run "$bin" --plot "$tmp/p.svg" "$data/base.txt" "$data/new.txt"
	check "bad: --plot in compare mode" usage_error "--plot is for --series"
	tap_run "$bin" --series --steps --select with --plot "$tmp/no/p.svg" \
		"$tsv"
	check "bad: --plot into a missing directory: the report, status 2, why" \
		plot_failed "$tmp/no/p.svg"
}

test_compare
test_plot_width
test_columns
test_series
test_steps
test_formats
test_fail_if
test_metric
test_bad_input
