# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# options.sh: the options of a bash command, declared once, in one table,
# as options.h declares the C commands' (after the kernel's
# tools/lib/subcmd/parse-options.h): each lc_opt line gives an option's
# long name, its short letter, the name of its argument, what it does and
# its help, and the parsing loop, --help's list of options and
# --list-options all come from the table.
#
#	lc_opt_init PROG STATUS COLUMN [equals] [usage-errors]
#	lc_opt_head=... lc_opt_tail=...	# --help's text around the list
#	lc_opt LONG SHORT ARG ACTION [HELP-LINE]...
#	lc_opt_parse "$@"; set -- ${lc_opt_rest[@]+"${lc_opt_rest[@]}"}
#
# LONG is the name without "--", SHORT a letter or '', ARG the name of
# the argument ('' for an option that takes none).  ACTION is VAR=VALUE
# (an option without argument: VAR set to VALUE), VAR (VAR set to the
# argument), VAR+= (the argument appended to the array VAR) or FUNC()
# (FUNC called with the option as given, then its argument if it takes
# one).  The help lines are printed as given, the first in column COLUMN
# beside the option, the others under it; an option without help is
# hidden from --help and --list-options.  lc_opt_show_help() is the
# action of --help: it prints the help and exits 0.
#
# lc_opt_parse reads the options up to "--", in any order, and leaves the
# words after "--" in lc_opt_rest.  An argument is the next word; with
# "equals", "--NAME=VALUE" is "--NAME VALUE" too.  An unknown word, or an
# option without its argument, is a usage error: "PROG: MESSAGE" on
# stderr, or with "usage-errors" the help, and exit STATUS.  "COMMAND
# --list-options", alone, prints one line an option, as the C commands
# do: its spellings then its argument ("-h --help", "--kver KVER"), for
# the man page test and the bash completion.

lc_opt_prog=
lc_opt_status=2
lc_opt_column=24
lc_opt_equals=0
lc_opt_usage_errors=0
lc_opt_head=
lc_opt_tail=
lc_opt_names=()
lc_opt_rest=()
declare -A lc_opt_short_of=() lc_opt_arg_of=() lc_opt_action_of=() \
	lc_opt_help_of=() lc_opt_long_of=()

# lc_opt_init PROG STATUS COLUMN [equals] [usage-errors]: the command's
# name in its messages, the exit status of a usage error, the column of
# the help in --help; "--NAME=VALUE" accepted, the help shown on a usage
# error.
lc_opt_init() {
	local _lc_flag

	lc_opt_prog=$1
	lc_opt_status=$2
	lc_opt_column=$3
	shift 3
	for _lc_flag in "$@"; do
		case $_lc_flag in
		equals) lc_opt_equals=1 ;;
		usage-errors) lc_opt_usage_errors=1 ;;
		*) echo "lc_opt_init: unknown flag '$_lc_flag'" >&2; return 1 ;;
		esac
	done
}

# lc_opt LONG SHORT ARG ACTION [HELP-LINE]...: declares an option; a
# declaration that cannot work (a name taken, an ACTION that does not fit
# ARG) is an error of the command: status 1.
lc_opt() {
	local _lc_long=$1 _lc_short=$2 _lc_arg=$3 _lc_action=$4 _lc_ok=0

	shift 4
	case $_lc_action in
	*'()') [[ ${_lc_action%'()'} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && _lc_ok=1 ;;
	*+=) [ -n "$_lc_arg" ] &&
		[[ ${_lc_action%+=} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && _lc_ok=1 ;;
	*=*) [ -z "$_lc_arg" ] &&
		[[ ${_lc_action%%=*} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && _lc_ok=1 ;;
	*) [ -n "$_lc_arg" ] &&
		[[ $_lc_action =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && _lc_ok=1 ;;
	esac
	if [ $_lc_ok -eq 0 ]; then
		echo "lc_opt: --$_lc_long: action '$_lc_action'" \
			"does not fit argument '$_lc_arg'" >&2
		return 1
	fi
	if ! [[ $_lc_long =~ ^[A-Za-z0-9][A-Za-z0-9-]*$ ]] ||
	   [ -n "${lc_opt_action_of[$_lc_long]+set}" ]; then
		echo "lc_opt: --$_lc_long: not a new long name" >&2
		return 1
	fi
	if [ -n "$_lc_short" ] &&
	   { ! [[ $_lc_short =~ ^[A-Za-z0-9]$ ]] ||
	     [ -n "${lc_opt_long_of[$_lc_short]+set}" ]; }; then
		echo "lc_opt: -$_lc_short: not a new short letter" >&2
		return 1
	fi
	lc_opt_names+=("$_lc_long")
	lc_opt_short_of[$_lc_long]=$_lc_short
	lc_opt_arg_of[$_lc_long]=$_lc_arg
	lc_opt_action_of[$_lc_long]=$_lc_action
	[ -z "$_lc_short" ] || lc_opt_long_of[$_lc_short]=$_lc_long
	lc_opt_help_of[$_lc_long]=
	[ $# -eq 0 ] || lc_opt_help_of[$_lc_long]=$(printf '%s\n' "$@")
}

# lc_opt_spelling NAME: the option as --help shows it ("-h, --help",
# "--kver KVER").
lc_opt_spelling() {
	local _lc_s=--$1

	[ -z "${lc_opt_short_of[$1]}" ] || _lc_s="-${lc_opt_short_of[$1]}, $_lc_s"
	[ -z "${lc_opt_arg_of[$1]}" ] || _lc_s="$_lc_s ${lc_opt_arg_of[$1]}"
	printf '%s' "$_lc_s"
}

# lc_opt_help: --help: lc_opt_head, the options with their help, then
# lc_opt_tail.  A spelling too wide for the column has its help two
# spaces after it, on its line.
lc_opt_help() {
	local _lc_name _lc_s _lc_line _lc_first
	local -a _lc_lines

	printf '%s\n' "$lc_opt_head"
	for _lc_name in "${lc_opt_names[@]}"; do
		[ -n "${lc_opt_help_of[$_lc_name]}" ] || continue
		_lc_s=$(lc_opt_spelling "$_lc_name")
		mapfile -t _lc_lines <<<"${lc_opt_help_of[$_lc_name]}"
		_lc_first=1
		for _lc_line in "${_lc_lines[@]}"; do
			if [ $_lc_first -eq 0 ]; then
				printf '%*s%s\n' "$lc_opt_column" '' "$_lc_line"
			elif [ ${#_lc_s} -gt $((lc_opt_column - 4)) ]; then
				printf '  %s  %s\n' "$_lc_s" "$_lc_line"
			else
				printf '  %-*s%s\n' $((lc_opt_column - 2)) \
					"$_lc_s" "$_lc_line"
			fi
			_lc_first=0
		done
	done
	printf '%s\n' "$lc_opt_tail"
}

# lc_opt_show_help: the action of --help.
lc_opt_show_help() {
	lc_opt_help
	exit 0
}

# lc_opt_list: --list-options, one line an option that --help shows.
lc_opt_list() {
	local _lc_name

	for _lc_name in "${lc_opt_names[@]}"; do
		[ -n "${lc_opt_help_of[$_lc_name]}" ] || continue
		[ -z "${lc_opt_short_of[$_lc_name]}" ] ||
			printf -- '-%s ' "${lc_opt_short_of[$_lc_name]}"
		printf -- '--%s' "$_lc_name"
		[ -z "${lc_opt_arg_of[$_lc_name]}" ] ||
			printf ' %s' "${lc_opt_arg_of[$_lc_name]}"
		printf '\n'
	done
}

# lc_opt_usage_error MESSAGE: "PROG: MESSAGE", or the help, on stderr,
# and exit with the command's usage status.
lc_opt_usage_error() {
	if [ "$lc_opt_usage_errors" -eq 1 ]; then
		lc_opt_help >&2
	else
		echo "$lc_opt_prog: $1" >&2
	fi
	exit "$lc_opt_status"
}

# lc_opt_do NAME WORD [ARG]: what option NAME, given as WORD, does.
lc_opt_do() {
	local _lc_action=${lc_opt_action_of[$1]}
	local -n _lc_array

	case $_lc_action in
	*'()') "${_lc_action%'()'}" "${@:2}" ;;
	*+=) _lc_array=${_lc_action%+=}; _lc_array+=("$3") ;;
	*=*) printf -v "${_lc_action%%=*}" '%s' "${_lc_action#*=}" ;;
	*) printf -v "$_lc_action" '%s' "$3" ;;
	esac
}

# lc_opt_parse ARG...: reads the options (see the top of the file); the
# words after "--" are left in lc_opt_rest.
lc_opt_parse() {
	local _lc_word _lc_name

	lc_opt_rest=()
	if [ $# -eq 1 ] && [ "$1" = --list-options ]; then
		lc_opt_list
		exit 0
	fi
	while [ $# -gt 0 ]; do
		_lc_word=$1
		if [ "$lc_opt_equals" -eq 1 ] && [[ $_lc_word == --*=* ]]; then
			set -- "${_lc_word%%=*}" "${_lc_word#*=}" "${@:2}"
			continue
		fi
		# shellcheck disable=SC2034 # lc_opt_rest: the command's
		case $_lc_word in
		--) shift; lc_opt_rest=("$@"); return 0 ;;
		--?*) _lc_name=${_lc_word#--} ;;
		-[A-Za-z0-9]) _lc_name=${lc_opt_long_of[${_lc_word#-}]-} ;;
		*) _lc_name= ;;
		esac
		if [ -z "$_lc_name" ] ||
		   ! [[ $_lc_name =~ ^[A-Za-z0-9][A-Za-z0-9-]*$ ]] ||
		   [ -z "${lc_opt_action_of[$_lc_name]+set}" ]; then
			lc_opt_usage_error "unknown argument '$_lc_word' (see --help)"
		fi
		if [ -z "${lc_opt_arg_of[$_lc_name]}" ]; then
			lc_opt_do "$_lc_name" "$_lc_word"
			shift
			continue
		fi
		[ $# -ge 2 ] ||
			lc_opt_usage_error "$_lc_word needs a value (see --help)"
		lc_opt_do "$_lc_name" "$_lc_word" "$2"
		shift 2
	done
}
