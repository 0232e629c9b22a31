# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Patch series made at test time from a tree by sed (a patch written once
# would stop applying as the tree moves on, and no kernel or lttng source
# is kept in the repository), for tools/testing/series-vm-test and
# tools/testing/series-bench.  Sourced, never run.
#
#   series_patch BASE DIR NAME FILE SED-SCRIPT
#           DIR/NAME: a patch (-p1 paths) of FILE of the tree BASE as
#           SED-SCRIPT edits it; status 1, said on stderr, when the script
#           changed nothing (the tree moved on: the test must say so)
#   series_comment BASE DIR NAME FILE
#           series_patch of a C comment appended to FILE: harmless, but
#           its object is built again
#   series_write DIR NAME...
#           DIR/series: the patches NAME..., in that order
#   series_named REPORT PATCH STEP STEPS
#           REPORT.json (lttng-calibrate-series --format json) has one
#           change point, at PATCH, step STEP, of STEPS steps all reported,
#           and REPORT.txt's mail line names it; else the report is shown
#   series_none REPORT STEPS
#           REPORT.json has no change point and STEPS steps, REPORT.txt
#           says so with its confidence; else the report is shown

series_patch() {
	local base=$1 dir=$2 name=$3 file=$4 new rc

	new=$(mktemp) || return
	sed -e "$5" "$base/$file" >"$new"
	diff -u --label "a/$file" --label "b/$file" "$base/$file" "$new" \
		>"$dir/$name"
	rc=$?
	rm -f "$new"
	[ $rc -eq 1 ] || {
		echo "$name: the edit of $file changed nothing" >&2
		return 1
	}
}

series_comment() {
	series_patch "$1" "$2" "$3" "$4" \
		"\$a /* A comment: the object is built again. */"
}

series_write() {
	local dir=$1

	shift
	printf '%s\n' "$@" >"$dir/series"
}

series_named() {
	jq -e --arg p "$2" --argjson s "$3" --argjson n "$4" \
		'[.change_points[] | .patch] == [$p] and
		 .change_points[0].step == $s and (.steps | length) == $n' \
		"$1.json" >/dev/null || { cat "$1.json"; return 1; }
	grep -q "^patch $3 of $(($4 - 1)), $2: " "$1.txt" ||
		{ cat "$1.txt"; return 1; }
}

series_none() {
	jq -e --argjson n "$2" '(.change_points | length) == 0 and
		(.steps | length) == $n' "$1.json" >/dev/null ||
		{ cat "$1.json"; return 1; }
	grep -q 'no change point at 95 % confidence' "$1.txt" ||
		{ cat "$1.txt"; return 1; }
}
