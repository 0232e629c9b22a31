# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by the tools' tests/run-tests.sh: test programs print unnumbered
# "ok - ..." / "not ok - ..." lines; component() collects them, with one
# more line for each program's exit status, and tap_finish() prints them
# as one numbered TAP stream and fails if any test failed.
#
# The caller sets $tmp to a scratch directory it removes.

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

# tap_finish: the collected lines, numbered, as TAP on stdout
tap_finish() {
	echo "TAP version 13"
	echo "1..$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/all")"
	awk '
	/^ok / { n++; print "ok " n substr($0, 3); next }
	/^not ok / { n++; bad++; print "not ok " n substr($0, 7); next }
	{ print }
	END { exit bad ? 1 : 0 }
	' "$tmp/all"
}
