#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tap-test.sh TESTS_DIR: tap.sh, tap.h and kmsg.sh seen from the scripts
# and programs that use them: small scripts and tap-example, their whole
# output and exit status compared with what they must be, under every
# shell at hand (sh, bash).  Prints "ok - ..." lines; run-tests.sh numbers
# them.
set -eu

tests=$1
lib=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$lib/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$lib/tap.sh"
tap_show="$tmp/want $tmp/got"

# run_script SHELL BODY: BODY, after sourcing tap.sh, as a script run by
# SHELL; its stdout and stderr in $tmp/got, its exit status in $rc
run_script() {
	{
		echo "lib='$lib'; d='$tmp'"
		# shellcheck disable=SC2016 # expanded by the script
		echo '. "$lib/tap.sh"'
		printf '%s\n' "$2"
	} > "$tmp/script"
	rc=0
	env -u TAP_PREFIX -u LTTNG_CALIBRATE_NO_SKIP "$1" "$tmp/script" \
		> "$tmp/got" 2>&1 || rc=$?
}

# same STATUS: $tmp/got is $tmp/want and the exit status was STATUS
same() {
	cmp -s "$tmp/want" "$tmp/got" && [ "$rc" -eq "$1" ]
}

shells="sh"
! command -v bash > /dev/null || shells="sh bash"

# The scripts' bodies are single-quoted: their variables are theirs.
# shellcheck disable=SC2016
for sh in $shells; do
	run_script "$sh" '
tap_plan 4
tap_ok "one"
tap_not_ok "two"
tap_result 0 "three"
tap_skip "four" "not here"
tap_done'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	1..4
	ok 1 - one
	not ok 2 - two
	ok 3 - three
	ok 4 - four # SKIP not here
	# 2 passed, 1 failed, 1 skipped
	EOF
	check "$sh: a plan, then numbered results, a skip, the summary" same 1

	run_script "$sh" '
set -eu
tap_header
x=0
set_x() { x=1; echo "said"; }
check "sets x" set_x
check "x is set" [ "$x" = 1 ]
failing() { echo "out line"; echo "err line" >&2; return 3; }
echo "shown" > "$d/shown"
tap_show="$d/shown"
check "fails" failing
tap_diag "a note"
printf "l1\nl2\n" | tap_diag
tap_done'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	ok 1 - sets x
	ok 2 - x is set
	not ok 3 - fails
	# out line
	# err line
	# shown: shown
	# a note
	# l1
	# l2
	1..3
	# 2 passed, 1 failed, 0 skipped
	EOF
	check "$sh: check keeps variables, hides output unless it fails; plan last; set -e goes on" \
		same 1

	run_script "$sh" '
set -eu
tmp=$d/run
mkdir -p "$tmp"
tap_run sh -c "echo out; echo err >&2; exit 3"
echo "rc=$rc out=$(cat "$tmp/out") err=$(cat "$tmp/err")"
tap_run true
echo "rc=$rc out=$(cat "$tmp/out")"'
	printf 'rc=3 out=out err=err\nrc=0 out=\n' > "$tmp/want"
	check "$sh: tap_run keeps stdout, stderr and the status; set -e goes on" \
		same 0

	run_script "$sh" '
tap_plan 3
tap_ok a
tap_ok b
tap_done'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	1..3
	ok 1 - a
	ok 2 - b
	# planned 3 tests, ran 2
	# 2 passed, 0 failed, 0 skipped
	EOF
	check "$sh: a plan not kept fails" same 1

	run_script "$sh" '
tap_plan 2
tap_ok a
check b true
tap_done'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	1..2
	ok 1 - a
	ok 2 - b
	# 2 passed, 0 failed, 0 skipped
	EOF
	check "$sh: all passed, plan kept: status 0" same 0

	run_script "$sh" '
TAP_PREFIX="[asan] "
tap_ok a
tap_not_ok b
tap_skip c why
check d true
tap_diag e
tap_done'
	cat > "$tmp/want" <<-'EOF'
	ok - [asan] a
	not ok - [asan] b
	ok - [asan] c # SKIP why
	ok - [asan] d
	# e
	EOF
	check "$sh: without a header, unnumbered results with \$TAP_PREFIX" \
		same 1

	run_script "$sh" '
tap_plan 2
tap_ok a
tap_bail_out "no module" || exit
echo not reached'
	printf 'TAP version 13\n1..2\nok 1 - a\nBail out! no module\n' \
		> "$tmp/want"
	check "$sh: tap_bail_out: the line, status 1" same 1

	run_script "$sh" 'tap_skip_all "must be run as root" || exit
echo not reached'
	printf 'TAP version 13\n1..0 # SKIP must be run as root\n' > "$tmp/want"
	check "$sh: tap_skip_all: a skip, status 4" same 4

	run_script "$sh" 'LTTNG_CALIBRATE_NO_SKIP=1
tap_skip_all "must be run as root" || exit
echo not reached'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	1..1
	not ok 1 - must be run as root (LTTNG_CALIBRATE_NO_SKIP is set)
	EOF
	check "$sh: tap_skip_all with LTTNG_CALIBRATE_NO_SKIP: a failure" \
		same 1

	printf '%s\n' ". '$lib/tap.sh'" 'tap_ok p1' 'echo "# a diag"' \
		'tap_not_ok p2' > "$tmp/part.sh"
	run_script "$sh" '
echo stale > "$d/all"
tap_collect "$d/all"
tap_component part sh "$d/part.sh"
tap_component crash sh -c "echo \"ok - c1\"; echo boom >&2; exit 3"
tap_ok own
tap_skip skipped because
tap_finish'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	1..7
	ok 1 - p1
	# a diag
	not ok 2 - p2
	ok 3 - part ran to completion
	ok 4 - c1
	not ok 5 - crash exited with status 3
	# boom
	ok 6 - own
	ok 7 - skipped # SKIP because
	EOF
	check "$sh: a collector numbers its parts, one result per part" same 1

	printf '%s\n' ". '$lib/tap.sh'" 'tap_ok i1' 'tap_skip i2 "no x"' \
		'echo "# a diag"' 'echo stray' 'tap_not_ok i3' 'exit 1' \
		> "$tmp/inc.sh"
	run_script "$sh" '
tap_header
tap_ok own
tap_include inc sh "$d/inc.sh"
tap_done'
	cat > "$tmp/want" <<-'EOF'
	TAP version 13
	ok 1 - own
	ok 2 - i1
	ok 3 - i2 # SKIP no x
	# a diag
	# stray
	not ok 4 - i3
	not ok 5 - inc ran to completion (status 1)
	1..5
	# 2 passed, 2 failed, 1 skipped
	EOF
	check "$sh: tap_include numbers a component's results in this stream" \
		same 1
done

# tap.h, through tap-example
rc=0
"$tests/tap-example" > "$tmp/got" 2>&1 || rc=$?
cat > "$tmp/want" <<-'EOF'
ok - one 1
not ok - two
# two: why
not ok - near
# got 1, want 1.5 +/- 0.1
ok - near enough
ok - five: not here # SKIP
EOF
check "tap.h: unnumbered results, diagnostics, tap_near, a skip" same 1
rc=0
TAP_PREFIX="[asan] " "$tests/tap-example" 5 > "$tmp/got" 2>&1 || rc=$?
cat > "$tmp/want" <<-'EOF'
TAP version 13
1..5
ok 1 - [asan] one 1
not ok 2 - [asan] two
# two: why
not ok 3 - [asan] near
# got 1, want 1.5 +/- 0.1
ok 4 - [asan] near enough
ok 5 - [asan] five: not here # SKIP
EOF
check "tap.h: tap_plan numbers them; \$TAP_PREFIX" same 1
rc=0
"$tests/tap-example" 6 > "$tmp/got" 2>&1 || rc=$?
check "tap.h: a plan not kept is a diagnostic and status 1" \
	sh -c "[ $rc -eq 1 ] && tail -n 1 '$tmp/got' | grep -qx '# planned 6 tests, ran 5'"

# kmsg.sh (bash), against the C list and through symlinks
if command -v bash > /dev/null; then
	"$tests/kmsg-list" > "$tmp/want"
	rc=0
	bash -c ". '$lib/kmsg.sh' && kmsg_patterns" > "$tmp/got" 2>&1 || rc=$?
	check "kmsg.sh: the same patterns as kmsg_patterns.h in C" same 0
	printf '%s\n' '[ 1.0] lttng_calibrate: loaded' \
		'[ 2.0] WARNING: CPU: 1 PID: 7 at x.c:3 f+0x1/0x2' \
		'[ 3.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
		'[ 4.0] done' > "$tmp/log"
	printf '%s\n' '[ 2.0] WARNING: CPU: 1 PID: 7 at x.c:3 f+0x1/0x2' \
		'[ 3.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
		> "$tmp/want"
	rc=0
	bash -c ". '$lib/kmsg.sh' && kmsg_grep '$tmp/log'" > "$tmp/got" 2>&1 ||
		rc=$?
	check "kmsg.sh: kmsg_grep finds a warning and a stall" same 0
	rc=0
	bash -c ". '$lib/kmsg.sh' && sed 2,3d '$tmp/log' | kmsg_grep -q" ||
		rc=$?
	check "kmsg.sh: kmsg_grep on a clean log: status 1" [ "$rc" -eq 1 ]
	mkdir "$tmp/flat" "$tmp/alone"
	for f in kmsg.sh kmsg_patterns.h; do
		ln -s "$lib/$f" "$tmp/flat/$f"
	done
	rc=0
	bash -c ". '$tmp/flat/kmsg.sh' && kmsg_grep -c '$tmp/log'" \
		> "$tmp/got" 2>&1 || rc=$?
	echo 2 > "$tmp/want"
	check "kmsg.sh: through symlinks, finds kmsg_patterns.h beside them" \
		same 0
	cp "$lib/kmsg.sh" "$tmp/alone/"
	rc=0
	bash -c ". '$tmp/alone/kmsg.sh' && kmsg_grep -q '$tmp/log'" \
		> "$tmp/got" 2>&1 || rc=$?
	check "kmsg.sh: without kmsg_patterns.h: status 2, never a silent pass" \
		[ "$rc" -eq 2 ]
	# The kernel's unload race: the logs captured in guests (fixtures/),
	# as lc-test reads them in C.  Not vacuous: each holds reports that
	# kmsg_grep finds; each variant that makes it another report fails.
	fx=$tests/fixtures
	race() { # KVER FILE [SED]: kmsg_grep -c of what kmsg_unload_race left
		sed -e "${3:-p;d}" "$2" > "$tmp/race.log"
		rc=0
		bash -c ". '$lib/kmsg.sh' && kmsg_unload_race '$1' < '$tmp/race.log' |
			kmsg_grep -c" > "$tmp/got" 2> "$tmp/race.err" || rc=$?
	}
	for v in 6.1 6.12 7.2; do
		race "" "$fx/kmsg-unload-race-$v.log"
		check "kmsg.sh: unload race: $v's log holds reports" \
			sh -c "[ $rc -eq 0 ] && [ \$(cat '$tmp/got') -ge 2 ]"
	done
	race 6.1.0-57-arm64 "$fx/kmsg-unload-race-6.1.log"
	echo 0 > "$tmp/want"
	check "kmsg.sh: unload race: 6.1's log on 6.1: tolerated" \
		sh -c "[ $rc -eq 1 ] && cmp -s '$tmp/want' '$tmp/got' &&
			grep -q '^kmsg.sh: 2 report(s)' '$tmp/race.err'"
	race 6.12.95+deb12-amd64 "$fx/kmsg-unload-race-6.12.log"
	check "kmsg.sh: unload race: 6.12's log on 6.12: tolerated" \
		sh -c "[ $rc -eq 1 ] && cmp -s '$tmp/want' '$tmp/got'"
	race 7.2.13-lc-debug "$fx/kmsg-unload-race-7.2.log"
	check "kmsg.sh: unload race: 7.2's log on 7.2: tolerated" \
		sh -c "[ $rc -eq 1 ] && cmp -s '$tmp/want' '$tmp/got'"
	while IFS='|' read -r kver script what; do
		race "$kver" "$fx/kmsg-unload-race-6.1.log" "$script"
		check "kmsg.sh: unload race: 6.1's log, $what: counted" \
			sh -c "[ $rc -eq 0 ] && [ \$(cat '$tmp/got') -ge 1 ]"
	done <<-'EOF'
	6.1.0-57-amd64|s/did not clean up at exit/did not cleanup at exit/|other text
	6.1.0-57-amd64|s/clean up at exit: results_kv/&2/|another file
	6.1.0-57-amd64|s/ full_proxy_open+/ full_proxy_release+/|another function
	6.1.0-57-amd64|s/ full_proxy_open+/ my_full_proxy_open+/|a function whose name ends the same
	6.1.0-57-amd64|s/test: unload begins/test: unload start/|no unload begun
	6.1.0-57-amd64|s/test: unload ends/test: unload over/|an unload never ended
	6.1.0-57-amd64|s/debugfs file owner did not clean up at exit: results_kv/WARNING: possible circular locking dependency detected/|another warning beside it
	6.1.0-57-amd64|s/---\[ end trace/Call Trace:/|a stack dump beside it
	7.3.0|p;d|a kernel after the window's last
	6.0.19|p;d|a kernel before the window
	EOF
	# Another kind of report beside it: all of them count, the race's too.
	race 6.1.0-57-amd64 "$fx/kmsg-unload-race-6.1.log" \
		's/Modules linked in:.*/BUG: KASAN: slab-use-after-free in f+0x1\/0x2/'
	check "kmsg.sh: unload race: 6.1's log, a BUG beside it: all counted" \
		sh -c "[ $rc -eq 0 ] && [ \$(cat '$tmp/got') -eq 6 ]"
	race 7.2.13-lc-debug "$fx/kmsg-unload-race-7.2.log" \
		's/ full_proxy_open_regular+/ full_proxy_open_short+/'
	check "kmsg.sh: unload race: 7.2's log, another function: counted" \
		sh -c "[ $rc -eq 0 ] && [ \$(cat '$tmp/got') -ge 1 ]"
else
	tap_skip "kmsg.sh" "no bash"
fi

# The kselftests reach the library through symlinks that cp -rL follows.
links_ok() {
	for f in lc.c lc.h kmsg_patterns.h kmsg.sh tap.sh; do
		if [ ! -L "$top/selftests/$f" ] ||
		   ! cmp -s "$top/selftests/$f" "$lib/$f"; then
			echo "selftests/$f: not a symlink to tools/lib/$f"
			return 1
		fi
	done
}
check "selftests/ reaches tools/lib through symlinks" links_ok
