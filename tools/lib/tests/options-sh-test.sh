#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# options-sh-test.sh: options.sh seen from a command that declares its
# options with it: the variables and functions each option sets or
# calls, the words after "--", --NAME=VALUE, --help's layout,
# --list-options, the usage errors and their status, and the declarations
# it refuses.  Each case runs a small command in a bash of its own; its
# output and status are compared with what they must be.  Prints "ok -
# ..." lines; run-tests.sh numbers them.
set -eu

lib=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$lib/tap.sh"
tap_show="$tmp/want $tmp/got"

# The command of the tests: two flags, a value, an array, a callback, a
# hidden option, a help line too wide for the column.  $1 is "equals" or
# "usage-errors"; the rest its arguments.  It prints what was set.
cat >"$tmp/cmd" <<'EOF'
set -eu
. "$1"
mode=$2
shift 2
verbose=0
color=auto
name=
items=()
seen=
check_level() {
	case $2 in
	[0-9]) level=$2 ;;
	*) echo "cmd: $1 takes a digit, not '$2'" >&2; exit 3 ;;
	esac
}
level=
lc_opt_init cmd 2 20 "$mode"
lc_opt_head=$(printf 'Usage: cmd [OPTION]... [-- WORD...]\n\nOptions:')
lc_opt_tail=$(printf '\nExit status: 0, or 2.')
lc_opt verbose v '' verbose=1 'say more'
lc_opt no-color '' '' 'color=never ever' 'no color'
lc_opt name n NAME name 'the name,' 'on two lines'
lc_opt item '' ITEM items+= 'an item (repeatable)'
lc_opt level '' DIGIT 'check_level()' 'a level'
lc_opt secret '' '' seen=yes
lc_opt a-rather-long-option '' WORD name 'beside it, two spaces after'
lc_opt seventeen-chars '' '' verbose=2 'one short of the column'
lc_opt help h '' 'lc_opt_show_help()' 'this text'
lc_opt_parse "$@"
set -- ${lc_opt_rest[@]+"${lc_opt_rest[@]}"}
echo "verbose=$verbose color=$color name=$name level=$level seen=$seen"
echo "items=${#items[@]}:${items[*]-} rest=$#:$*"
EOF

# run MODE ARG...: the command; its stdout and stderr in $tmp/got, its
# status in $rc.
run() {
	rc=0
	bash "$tmp/cmd" "$lib/options.sh" "$@" >"$tmp/got" 2>&1 || rc=$?
}

# want STATUS LINE...: the output was those lines, the status STATUS.
want() {
	local status=$1

	shift
	printf '%s\n' "$@" >"$tmp/want"
	cmp -s "$tmp/want" "$tmp/got" || return 1
	[ "$rc" -eq "$status" ] || { echo "status $rc, want $status"; return 1; }
}

help_text=(
	'Usage: cmd [OPTION]... [-- WORD...]'
	''
	'Options:'
	'  -v, --verbose     say more'
	'  --no-color        no color'
	'  -n, --name NAME   the name,'
	'                    on two lines'
	'  --item ITEM       an item (repeatable)'
	'  --level DIGIT     a level'
	'  --a-rather-long-option WORD  beside it, two spaces after'
	'  --seventeen-chars  one short of the column'
	'  -h, --help        this text'
	''
	'Exit status: 0, or 2.'
)

defaults() {
	run equals
	want 0 'verbose=0 color=auto name= level= seen=' 'items=0: rest=0:'
}
check "no option: the defaults" defaults

every_kind() {
	run equals -v --no-color --name x --item 'a b' --item=c --level 7 \
		--secret
	want 0 'verbose=1 color=never ever name=x level=7 seen=yes' \
		'items=2:a b c rest=0:'
}
check "each kind of action: VAR=VALUE, VAR, VAR+=, FUNC(), a hidden option" \
	every_kind

short_and_equals() {
	run equals -n short --name=long=er --name= -v
	want 0 'verbose=1 color=auto name= level= seen=' 'items=0: rest=0:' ||
		return 1
	run equals --name=a=b
	want 0 'verbose=0 color=auto name=a=b level= seen=' 'items=0: rest=0:'
}
check "a short option's value; --NAME=VALUE splits at the first =" \
	short_and_equals

value_is_next_word() {
	run equals --name --verbose -- x
	want 0 'verbose=0 color=auto name=--verbose level= seen=' \
		'items=0: rest=1:x'
}
check "a value is the next word, whatever it looks like" value_is_next_word

rest() {
	run equals -v -- --name 'two words' ''
	want 0 'verbose=1 color=auto name= level= seen=' \
		'items=0: rest=3:--name two words ' || return 1
	run equals --
	want 0 'verbose=0 color=auto name= level= seen=' 'items=0: rest=0:'
}
check "the words after -- are left to the command, options or not" rest

help_layout() {
	run equals --help
	want 0 "${help_text[@]}" || return 1
	run equals -v -h --bogus
	want 0 "${help_text[@]}"
}
check "--help: head, one line an option and its help lines, tail; status 0" \
	help_layout

list_options() {
	run equals --list-options
	want 0 '-v --verbose' '--no-color' '-n --name NAME' '--item ITEM' \
		'--level DIGIT' '--a-rather-long-option WORD' \
		'--seventeen-chars' '-h --help'
}
check "--list-options: spellings then argument, hidden options left out" \
	list_options

list_options_alone() {
	run equals --list-options -v
	want 2 "cmd: unknown argument '--list-options' (see --help)"
}
check "--list-options among other options is unknown" list_options_alone

unknown() {
	local w

	for w in --bogus -x foo '' - -vn --verb --list-option --@ -@ \
		'--name]' -h=x; do
		run equals "$w"
		want 2 "cmd: unknown argument '$w' (see --help)" ||
			{ echo "for '$w'"; return 1; }
	done
}
check "unknown words: PROG: unknown argument 'WORD' (see --help), status 2" \
	unknown

no_value() {
	run equals -v --name
	want 2 "cmd: --name needs a value (see --help)" || return 1
	run equals -n
	want 2 "cmd: -n needs a value (see --help)"
}
check "an option without its value: PROG: OPTION needs a value, status 2" \
	no_value

flag_with_value() {
	run equals --verbose=x
	want 2 "cmd: unknown argument 'x' (see --help)"
}
check "--FLAG=VALUE: the value is the next word, as before" flag_with_value

no_equals() {
	run usage-errors --name=x
	want 2 "${help_text[@]}" || return 1
	run usage-errors --name x
	want 0 'verbose=0 color=auto name=x level= seen=' 'items=0: rest=0:'
}
check "without \"equals\", --NAME=VALUE is unknown" no_equals

usage_errors() {
	local w

	for w in --bogus --name; do
		run usage-errors "$w"
		want 2 "${help_text[@]}" || { echo "for '$w'"; return 1; }
	done
}
check "\"usage-errors\": the help on stderr instead of a message" usage_errors

callback_status() {
	run equals --level x
	want 3 "cmd: --level takes a digit, not 'x'"
}
check "a callback's own message and status" callback_status

# declared LINE...: a command declaring its options with LINE..., after
# "set -eu"; its stdout and stderr in $tmp/got, its status in $rc.
declared() {
	rc=0
	printf '%s\n' 'set -eu' ". '$lib/options.sh'" "$@" 'echo declared' \
		>"$tmp/decl"
	bash "$tmp/decl" >"$tmp/got" 2>&1 || rc=$?
}

bad_declarations() {
	declared "lc_opt a '' '' a=1" "lc_opt b '' X 'f()'" "lc_opt c '' X c+="
	want 0 declared || return 1
	declared "lc_opt a '' X a=1"
	want 1 "lc_opt: --a: action 'a=1' does not fit argument 'X'" || return 1
	declared "lc_opt a '' '' a"
	want 1 "lc_opt: --a: action 'a' does not fit argument ''" || return 1
	declared "lc_opt a '' '' a+="
	want 1 "lc_opt: --a: action 'a+=' does not fit argument ''" || return 1
	declared "lc_opt a '' X 'f g()'"
	want 1 "lc_opt: --a: action 'f g()' does not fit argument 'X'" || return 1
	declared "lc_opt a '' '' a=1" "lc_opt a '' '' b=1"
	want 1 "lc_opt: --a: not a new long name" || return 1
	declared "lc_opt -a '' '' a=1"
	want 1 "lc_opt: ---a: not a new long name" || return 1
	declared "lc_opt a x '' a=1" "lc_opt b x '' b=1"
	want 1 "lc_opt: -x: not a new short letter" || return 1
	declared "lc_opt a xy '' a=1"
	want 1 "lc_opt: -xy: not a new short letter" || return 1
	declared "lc_opt_init p 2 24 bogus"
	want 1 "lc_opt_init: unknown flag 'bogus'"
}
check "declarations that cannot work stop the command (status 1)" \
	bad_declarations
