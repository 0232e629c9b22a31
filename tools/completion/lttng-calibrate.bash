# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Bash completion for lttng-calibrate (and its bench and predict),
# lttng-calibrate-trace, lttng-calibrate-compare and the source tree's
# tools/lttng-calibrate-series.  "make install-tools" installs it as
# share/bash-completion/completions/COMMAND for each of the three
# installed commands, where bash-completion loads it the first time the
# command is completed; it can also be sourced after bash-completion
# (which tools/lttng-calibrate-series needs: bash finds a completion for
# a command typed with its path under the command's name).
#
# The options are those of the table the command declares them in, which
# "COMMAND [SUBCOMMAND] --list-options" prints, so they follow the command
# (lttng-calibrate-series': its lc_opt table, tools/lib/options.sh).
# Values:
#   --format, --fail-if, -c     the values the commands accept
#   --probe                     the mechanisms the module's probe file
#                               offers, less those it marks unavailable
#   --counters                  comma separated: the perf names the module
#                               takes (its events file), every event alias
#                               of the PMUs in sysfs as PMU/ALIAS/, and the
#                               counters selected now (its counters file)
#   --cpu                       the online CPUs
#   COMMAND                     lttng-calibrate --list-commands
#   bench --only                lttng-calibrate bench --list, comma
#                               separated
#   predict --mechanism         lttng-calibrate predict --list
#   predict --events            lttng-calibrate predict --list-events
#   predict -- COMMAND          a command and its arguments
#   series --kver               tools/kver --list, beside the command
#   series --bench              lttng-calibrate bench --list
#   series -- COMMAND           a command and its arguments
#   series --modules-source, --kernel-source, --quilt
#                               directories
#   compare -m                  overhead_cycles, overhead_ns, the keys of
#                               the module's results_kv and of the files
#                               already on the command line
#   --plot, --from-kv, FILE     file names
# The module's files are read where they are readable (as root), from
# $LTTNG_CALIBRATE_DEBUGFS (default /sys/kernel/debug/lttng_calibrate);
# sysfs from $LTTNG_CALIBRATE_SYSFS (default /sys).  The tests point both
# at fixtures (tools/completion/tests/completion-test).

# The module's debugfs directory.
_lttng_calibrate_debugfs()
{
	printf '%s\n' "${LTTNG_CALIBRATE_DEBUGFS:-/sys/kernel/debug/lttng_calibrate}"
}

# _lttng_calibrate_reply WORD...: COMPREPLY, the WORDs that start with $cur.
_lttng_calibrate_reply()
{
	local w

	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
	return 0
}

# The values of --format (lc_format_parse() of the tools' library), and
# the extra WORDs a command lists in its --help.
_lttng_calibrate_formats()
{
	_lttng_calibrate_reply table "$@" csv json
}

# Readline replaces only what follows the last word-break character of the
# word (":" and "=" by default, which counter names and keys may hold): cut
# what comes before it off every reply, as __ltrim_colon_completions does
# for ":" alone.
_lttng_calibrate_ltrim()
{
	local breaks='' prefix

	[[ $COMP_WORDBREAKS == *:* ]] && breaks+=':'
	[[ $COMP_WORDBREAKS == *=* ]] && breaks+='='
	[[ -n $breaks && $cur == *["$breaks"]* ]] || return 0
	prefix=${cur%"${cur##*["$breaks"]}"}
	COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
}

# _lttng_calibrate_list WORD...: complete the last element of the comma
# separated list in $cur with the WORDs.  A comma between the slashes of a
# PMU/TERMS/ word does not separate.
_lttng_calibrate_list()
{
	local i slashes=0 cut=0 prefix w

	for ((i = 0; i < ${#cur}; i++)); do
		case ${cur:i:1} in
		/) slashes=$((slashes + 1)) ;;
		,) ((slashes % 2)) || cut=$((i + 1)) ;;
		esac
	done
	prefix=${cur:0:cut}
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "${cur:cut}"* ]] && COMPREPLY+=("$prefix$w")
	done
	_lttng_calibrate_ltrim
}

# The mechanisms of the module's probe file: "[none] kprobe ...", then
# "# NAME: unavailable: REASON" lines.
_lttng_calibrate_probes()
{
	local file line w
	local -a words offered=() unavailable=()

	file=$(_lttng_calibrate_debugfs)/probe
	[[ -r $file ]] || return 0
	while IFS= read -r line; do
		case $line in
		'# '*': unavailable'*)
			w=${line#'# '}
			unavailable+=("${w%%:*}")
			;;
		'#'*) ;;
		*)
			read -ra words <<<"$line"
			offered+=("${words[@]}")
			;;
		esac
	done <"$file"
	for w in "${offered[@]}"; do
		w=${w#[}
		w=${w%]}
		[[ " ${unavailable[*]} " == *" $w "* ]] || printf '%s\n' "$w"
	done
}

# What --counters can be given: the perf names the module knows, PMU/ALIAS/
# for every event alias in sysfs, and the counters selected now as they can
# be written again (the counters file: NAME, PMU, CONFIG[:C1[:C2]], ...).
_lttng_calibrate_counters()
{
	local sysfs dir file ev pmu name config type

	sysfs=${LTTNG_CALIBRATE_SYSFS:-/sys}
	dir=$sysfs/bus/event_source/devices
	file=$(_lttng_calibrate_debugfs)/events
	[[ ! -r $file ]] || grep -v '^#' "$file"
	for ev in "$dir"/*/events/*; do
		[[ -f $ev ]] || continue
		case ${ev##*/} in
		*.scale | *.unit | *.snapshot | *.per-pkg) continue ;;
		esac
		pmu=${ev%/events/*}
		printf '%s\n' "${pmu##*/}/${ev##*/}/"
	done
	file=$(_lttng_calibrate_debugfs)/counters
	[[ -r $file ]] || return 0
	while IFS=$'\t' read -r name pmu config _; do
		case $name in
		'' | '#'*) ;;
		*/*) printf '%s\n' "$name" ;;
		*)
			case $pmu in
			hardware | software | hardware-cache | raw)
				printf '%s\n' "$name"
				;;
			*)
				type=
				{ read -r type <"$dir/$pmu/type"; } 2>/dev/null
				[[ -z $type ]] || printf '%s\n' "$name=$type:$config"
				;;
			esac
			;;
		esac
	done <"$file"
}

# The online CPUs, from sysfs: "0-3,8".
_lttng_calibrate_cpus()
{
	local online range i
	local -a ranges

	{ read -r online <"${LTTNG_CALIBRATE_SYSFS:-/sys}/devices/system/cpu/online"; } 2>/dev/null ||
		return 0
	IFS=, read -ra ranges <<<"$online"
	for range in "${ranges[@]}"; do
		for ((i = ${range%-*}; i <= ${range#*-}; i++)); do
			printf '%s\n' "$i"
		done
	done
}

# The keys of key=value lines with a number for value, in FILE... (a
# directory: its first regular file).
_lttng_calibrate_keys()
{
	local f g

	for f in "$@"; do
		if [[ -d $f ]]; then
			for g in "$f"/*; do
				[[ -f $g ]] && { f=$g; break; }
			done
		fi
		[[ -f $f && -r $f ]] || continue
		sed -n 's/^\([A-Za-z0-9_][^=[:space:]]*\)=-\{0,1\}[0-9][0-9.eE+-]*$/\1/p' \
			"$f" 2>/dev/null
	done
}

# The options of COMMAND [SUBCOMMAND], from the table they are declared in
# ("COMMAND [SUBCOMMAND] --list-options": one line an option, its
# spellings then its argument): the long spelling of each, or its letter;
# "--column=" (no space then) for a command that writes "--column=N".
_lttng_calibrate_options()
{
	local w opt
	local -a spellings opts=()

	while read -ra spellings; do
		opt=
		for w in "${spellings[@]}"; do
			[[ $w == -*=* ]] && w=${w%%=*}=
			[[ $w == -* ]] && opt=$w
		done
		[[ -z $opt ]] || opts+=("$opt")
	done < <("$@" --list-options 2>/dev/null)
	_lttng_calibrate_reply ${opts[@]+"${opts[@]}"}
	[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
	return 0
}

# _lttng_calibrate_output: the value of --format or --plot, the options of
# bench and predict that print their rows; status 1 for any other option.
_lttng_calibrate_output()
{
	case $prev in
	--format) _lttng_calibrate_formats ;;
	--plot) _filedir svg ;;
	*) return 1 ;;
	esac
}

# _lttng_calibrate_command FROM: after a "--" at word FROM or later, a
# command and its arguments; status 1 when there is no "--".
_lttng_calibrate_command()
{
	local i

	for ((i = $1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			_command_offset $((i + 1))
			return 0
		fi
	done
	return 1
}

_lttng_calibrate_bench()
{
	local -a words_out

	_lttng_calibrate_output && return
	case $prev in
	-n | --iterations) return ;;
	--from-kv)
		_filedir
		return
		;;
	--only)
		mapfile -t words_out < <("$1" bench --list 2>/dev/null)
		_lttng_calibrate_list "${words_out[@]}"
		return
		;;
	esac
	$split && return
	[[ $cur == -* ]] && _lttng_calibrate_options "$1" bench
}

_lttng_calibrate_predict()
{
	local -a words_out

	_lttng_calibrate_command 2 && return
	_lttng_calibrate_output && return
	case $prev in
	-n | --iterations | --runs | --function) return ;;
	--mechanism)
		mapfile -t words_out < <("$1" predict --list 2>/dev/null)
		_lttng_calibrate_reply "${words_out[@]}"
		return
		;;
	--events)
		mapfile -t words_out < <("$1" predict --list-events 2>/dev/null)
		_lttng_calibrate_reply "${words_out[@]}"
		return
		;;
	esac
	$split && return
	[[ $cur == -* ]] && _lttng_calibrate_options "$1" predict
}

_lttng_calibrate()
{
	local cur prev words cword split
	local -a values

	_init_completion -s -n : || return
	if ((cword > 1)) && [[ ${words[1]} == bench ]]; then
		_lttng_calibrate_bench "$1"
		return
	fi
	if ((cword > 1)) && [[ ${words[1]} == predict ]]; then
		_lttng_calibrate_predict "$1"
		return
	fi
	case $prev in
	-n | --iterations) return ;;
	--counters)
		mapfile -t values < <(_lttng_calibrate_counters | sort -u)
		_lttng_calibrate_list "${values[@]}"
		return
		;;
	--probe)
		mapfile -t values < <(_lttng_calibrate_probes)
		_lttng_calibrate_reply "${values[@]}"
		return
		;;
	--cpu)
		mapfile -t values < <(_lttng_calibrate_cpus)
		_lttng_calibrate_reply "${values[@]}"
		return
		;;
	--format)
		_lttng_calibrate_formats
		return
		;;
	esac
	$split && return
	if [[ $cur == -* ]]; then
		_lttng_calibrate_options "$1"
	elif ((cword == 1)); then
		local commands
		mapfile -t commands < <("$1" --list-commands 2>/dev/null)
		_lttng_calibrate_reply ${commands[@]+"${commands[@]}"}
	fi
}

# _lttng_calibrate_options_or_files COMMAND: after an option that takes no
# listed value, the options of COMMAND when the word starts with "-", else
# file names.
_lttng_calibrate_options_or_files()
{
	if [[ $cur == -* ]]; then
		_lttng_calibrate_options "$1"
	else
		_filedir
	fi
}

_lttng_calibrate_trace()
{
	local cur prev words cword split

	_init_completion -s || return
	case $prev in
	-e | --event)
		_lttng_calibrate_reply calibrate
		return
		;;
	-f | --format)
		_lttng_calibrate_formats
		return
		;;
	esac
	$split || _lttng_calibrate_options_or_files "$1"
}

_lttng_calibrate_compare()
{
	local cur prev words cword split i row unit stat
	local -a values files=()

	_init_completion -s -n : || return
	case $prev in
	-C | --column | -d | --delimiters | -g | --group-column | \
		-l | --label-column | -s | --select | --select-column | \
		--min-segment | -w | --width)
		return
		;;
	-c | --confidence)
		_lttng_calibrate_reply 80 90 95 98 99 99.5
		return
		;;
	-f | --format)
		_lttng_calibrate_formats text
		return
		;;
	--fail-if)
		_lttng_calibrate_reply increase decrease any
		return
		;;
	-m | --metric)
		# The FILE arguments already given, and the module's results.
		for ((i = 1; i < cword; i++)); do
			[[ ${words[i]} != -* && -e ${words[i]} ]] &&
				files+=("${words[i]}")
		done
		values=(overhead_cycles overhead_ns)
		for row in target baseline difference; do
			for unit in cycles ns; do
				for stat in mean median; do
					values+=("$row.$unit.$stat")
				done
			done
		done
		mapfile -t values < <({
			printf '%s\n' "${values[@]}"
			_lttng_calibrate_keys ${files[@]+"${files[@]}"} \
				"$(_lttng_calibrate_debugfs)/results_kv"
		} | sort -u)
		_lttng_calibrate_reply "${values[@]}"
		_lttng_calibrate_ltrim
		return
		;;
	esac
	$split || _lttng_calibrate_options_or_files "$1"
}

_lttng_calibrate_series()
{
	local cur prev words cword split cmd
	local -a values

	_init_completion -s || return
	_lttng_calibrate_command 1 && return
	_lttng_calibrate_output && return
	case $prev in
	--git | --runs | --select) return ;;
	--modules-source | --kernel-source | --quilt)
		_filedir -d
		return
		;;
	--config | --report-only)
		_filedir
		return
		;;
	--kver)
		cmd=$(type -P "$1") || return 0
		mapfile -t values < <("${cmd%/*}/kver" --list 2>/dev/null)
		_lttng_calibrate_reply ${values[@]+"${values[@]}"}
		return
		;;
	--bench)
		mapfile -t values < <(lttng-calibrate bench --list 2>/dev/null)
		_lttng_calibrate_reply ${values[@]+"${values[@]}"}
		return
		;;
	esac
	$split && return
	[[ $cur == -* ]] && _lttng_calibrate_options "$1"
}

complete -F _lttng_calibrate lttng-calibrate
complete -F _lttng_calibrate_trace lttng-calibrate-trace
complete -F _lttng_calibrate_compare lttng-calibrate-compare
complete -F _lttng_calibrate_series lttng-calibrate-series
