# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# TAP for the shell scripts of lttng-calibrate (POSIX sh; bash too).
# Sourced, never run.
#
# A script that prints a TAP stream of its own:
#
#   tap_header               "TAP version 13"; results numbered from now on
#   tap_plan N               the header if not printed yet, then "1..N"
#   tap_skip_all REASON      nothing can run: "1..0 # SKIP REASON", status 4
#                            (kselftest's skip); with $LTTNG_CALIBRATE_NO_SKIP
#                            set, a failure instead ("1..1", "not ok 1 -
#                            REASON ..."), status 1.  Use: tap_skip_all R || exit
#   tap_ok DESC              "ok N - DESC"
#   tap_not_ok DESC          "not ok N - DESC"
#   tap_result STATUS DESC   tap_ok when STATUS is 0, else tap_not_ok
#   tap_skip DESC REASON     "ok N - DESC # SKIP REASON"
#   tap_run CMD...           CMD with its stdout in $tmp/out and its stderr
#                            in $tmp/err ($tmp: the caller's scratch
#                            directory), its exit status in $rc: for checks
#                            of what it printed, with tap_show="$tmp/out
#                            $tmp/err" to see it when one fails
#   tap_failed_with STATUS TEXT
#                            the last tap_run exited with STATUS, printed
#                            nothing on stdout and TEXT (a fixed string) on
#                            stderr
#   tap_fails STATUS TEXT CMD...
#                            tap_run CMD..., its output on stdout (for check
#                            to show), then tap_failed_with STATUS TEXT
#   check DESC CMD...        tap_result of CMD's exit status.  CMD runs in
#                            this shell (its variables stay set), its stdout
#                            and stderr kept aside: when it fails they are
#                            shown as diagnostics, and so are the files
#                            named in $tap_show (blank-separated paths), at
#                            most $tap_show_lines (20) lines each
#   tap_include NAME CMD...  CMD's unnumbered results ("ok - ...", as a
#                            component prints them) as results of this
#                            stream, its other output as diagnostics, then
#                            one result of its own for CMD's exit status
#   tap_diag [TEXT...]       "# TEXT"; without TEXT, every line of stdin
#   tap_bail_out REASON      "Bail out! REASON": the tests cannot go on;
#                            status 1.  Use: tap_bail_out R || exit
#   tap_done                 "1..N" when no plan was printed, a diagnostic
#                            when the plan was not kept, then "# N passed,
#                            N failed, N skipped"; status 0 when every
#                            result passed and the plan was kept
#
# $tap_n, $tap_failed and $tap_skipped count the results so far.  Every
# function returns 0 except tap_skip_all, tap_bail_out and tap_done: a
# failed result does not stop a "set -e" script.
#
# A script whose results are part of a stream that another one numbers
# (tests/cli.sh, run by tests/run-tests.sh) prints no header: its results
# are then "ok - DESC", unnumbered.  $TAP_PREFIX, when set, starts every
# description ("[asan] ").
#
# A script that collects several parts (tests/run-tests.sh) as one stream:
#
#   tap_collect FILE         results go to FILE, emptied, instead of stdout
#                            (it is $tap_out)
#   tap_component NAME CMD...
#                            CMD's stdout (unnumbered results) into FILE,
#                            then one result of its own for CMD's exit
#                            status, CMD's stderr as diagnostics when it
#                            failed (kept in FILE.err meanwhile)
#   tap_finish               FILE as one numbered TAP stream on stdout;
#                            status 1 when any result failed

tap_n=0
tap_failed=0
tap_skipped=0
tap_numbered=
tap_planned=
tap_show=
tap_show_lines=20
tap_out=

# tap_print LINE: to $tap_out, or stdout
tap_print() {
	if [ -n "$tap_out" ]; then
		printf '%s\n' "$1" >> "$tap_out"
	else
		printf '%s\n' "$1"
	fi
}

tap_header() {
	[ -n "$tap_numbered" ] || tap_print "TAP version 13"
	tap_numbered=1
}

tap_plan() {
	tap_header
	tap_planned=$1
	tap_print "1..$1"
}

tap_skip_all() {
	tap_header
	if [ -n "${LTTNG_CALIBRATE_NO_SKIP:-}" ]; then
		tap_plan 1
		tap_not_ok "$1 (LTTNG_CALIBRATE_NO_SKIP is set)"
		return 1
	fi
	tap_print "1..0 # SKIP $1"
	return 4
}

# tap_line "ok"|"not ok" DESC [DIRECTIVE]: one result, no $TAP_PREFIX
tap_line() {
	tap_n=$((tap_n + 1))
	[ "$1" = ok ] || tap_failed=$((tap_failed + 1))
	tap_number=
	[ -z "$tap_numbered" ] || tap_number=" $tap_n"
	if [ $# -gt 2 ]; then
		tap_print "$1$tap_number - $2 # $3"
	else
		tap_print "$1$tap_number - $2"
	fi
}

tap_ok() {
	tap_line ok "${TAP_PREFIX:-}$1"
}

tap_not_ok() {
	tap_line "not ok" "${TAP_PREFIX:-}$1"
}

tap_result() {
	if [ "$1" -eq 0 ]; then
		tap_ok "$2"
	else
		tap_not_ok "$2"
	fi
}

tap_skip() {
	tap_skipped=$((tap_skipped + 1))
	tap_line ok "${TAP_PREFIX:-}$1" "SKIP $2"
}

tap_diag() {
	if [ $# -gt 0 ]; then
		tap_print "# $*"
		return 0
	fi
	while IFS= read -r tap_diag_line || [ -n "$tap_diag_line" ]; do
		tap_print "# $tap_diag_line"
	done
	return 0
}

tap_bail_out() {
	tap_print "Bail out! $1"
	return 1
}

# tap_show_file FILE [LABEL]: its first $tap_show_lines lines, as "# LABEL: "
tap_show_file() {
	[ -s "$1" ] || return 0
	head -n "$tap_show_lines" "$1" |
		if [ $# -gt 1 ]; then
			sed -e "s|^|$2: |"
		else
			cat
		fi | tap_diag
}

# $tmp is the caller's; $rc is for the caller
# shellcheck disable=SC2154,SC2034
tap_run() {
	rc=0
	"$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
}

tap_failed_with() {
	[ "$rc" -eq "$1" ] && [ ! -s "$tmp/out" ] &&
		grep -qF -- "$2" "$tmp/err"
}

tap_fails() {
	tap_fails_status=$1
	tap_fails_text=$2
	shift 2
	tap_run "$@"
	cat "$tmp/out" "$tmp/err"
	tap_failed_with "$tap_fails_status" "$tap_fails_text"
}

check() {
	tap_desc=$1
	shift
	tap_log=$(mktemp) || {
		tap_not_ok "$tap_desc (mktemp failed)"
		return 0
	}
	if "$@" > "$tap_log" 2>&1; then
		tap_ok "$tap_desc"
	else
		tap_not_ok "$tap_desc"
		tap_show_file "$tap_log"
		for tap_file in $tap_show; do
			tap_show_file "$tap_file" "${tap_file##*/}"
		done
	fi
	rm -f "$tap_log"
	return 0
}

tap_done() {
	tap_status=0
	if [ -n "$tap_numbered" ] && [ -z "$tap_planned" ]; then
		tap_print "1..$tap_n"
	elif [ -n "$tap_planned" ] && [ "$tap_n" -ne "$tap_planned" ]; then
		tap_diag "planned $tap_planned tests, ran $tap_n"
		tap_status=1
	fi
	[ -z "$tap_numbered" ] || tap_diag "$((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" -eq 0 ] || tap_status=1
	return "$tap_status"
}

tap_include() {
	tap_name=$1
	shift
	tap_log=$(mktemp) || {
		tap_not_ok "$tap_name (mktemp failed)"
		return 0
	}
	tap_rc=0
	"$@" > "$tap_log" 2>&1 || tap_rc=$?
	while IFS= read -r tap_line_in || [ -n "$tap_line_in" ]; do
		case $tap_line_in in
		"ok - "*" # SKIP "*)
			tap_skipped=$((tap_skipped + 1))
			tap_line_in=${tap_line_in#ok - }
			tap_line ok "${tap_line_in% \# SKIP *}" \
				"SKIP ${tap_line_in##* \# SKIP }"
			;;
		"ok - "*) tap_line ok "${tap_line_in#ok - }" ;;
		"not ok - "*) tap_line "not ok" "${tap_line_in#not ok - }" ;;
		"#"*) tap_print "$tap_line_in" ;;
		*) tap_diag "$tap_line_in" ;;
		esac
	done < "$tap_log"
	rm -f "$tap_log"
	tap_result "$tap_rc" "$tap_name ran to completion (status $tap_rc)"
}

tap_collect() {
	tap_out=$1
	: > "$tap_out"
}

tap_component() {
	tap_name=$1
	shift
	tap_rc=0
	"$@" >> "$tap_out" 2> "$tap_out.err" || tap_rc=$?
	if [ "$tap_rc" -eq 0 ]; then
		tap_line ok "$tap_name ran to completion"
	else
		tap_line "not ok" "$tap_name exited with status $tap_rc"
		tap_diag < "$tap_out.err"
	fi
	return 0
}

tap_finish() {
	echo "TAP version 13"
	echo "1..$(grep -c '^\(not \)\{0,1\}ok ' "$tap_out")"
	awk '
	/^ok / { n++; print "ok " n substr($0, 3); next }
	/^not ok / { n++; bad++; print "not ok " n substr($0, 7); next }
	{ print }
	END { exit bad ? 1 : 0 }
	' "$tap_out"
}
