# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel-log patterns of kmsg_patterns.h, for bash scripts: the one
# list, which the C tests compile in; this file reads it from beside
# itself (a symlink to it works too).  Sourced, never run:
#
#   kmsg_patterns             the patterns, one fixed string a line; fails
#                             when it finds none (a missing or broken
#                             kmsg_patterns.h)
#   kmsg_grep [OPTION]... [FILE]...
#                             grep -F for any of them, with grep's options
#                             (-q, -B2 -A10, ...); exit status 0 when a line
#                             matches, 1 when none does, 2 on an error
#                             (patterns unreadable included)
#   kmsg_mark NAME            writes a line of its own to the kernel log
#                             (/dev/kmsg) and prints it: the marker that
#                             kmsg_since looks for
#   kmsg_since MARKER         the kernel log after the last line holding
#                             MARKER; all of it once MARKER was overwritten
#                             (everything left is newer).  A count of lines
#                             would stop growing once the log is full.
#   kmsg_unload_race KVER     a kernel log of KVER from stdin to stdout, the
#                             "WARNING:" and "Call Trace" lines of the
#                             kernel's unload race taken out where
#                             kmsg_patterns.h tolerates them (between a
#                             test's unload markers, on a kernel with the
#                             window, nothing else there); says how many on
#                             stderr.  kmsg_grep then reads what is left.

kmsg_header=$(dirname "${BASH_SOURCE[0]}")/kmsg_patterns.h

kmsg_patterns() {
	local patterns

	patterns=$(sed -n '/^static const char \*const lc_kmsg_patterns\[\]/,/^};/s/^[[:space:]]*"\([^"\\]*\)",[[:space:]]*$/\1/p' \
		"$kmsg_header") || return
	[ -n "$patterns" ] || {
		echo "kmsg.sh: no pattern in $kmsg_header" >&2
		return 1
	}
	printf '%s\n' "$patterns"
}

# kmsg_header_list NAME: the strings of the array NAME of kmsg_patterns.h.
kmsg_header_list() {
	sed -n "/^static const char \\*const $1\\[\\]/,/^};/s/^[[:space:]]*\"\\([^\"\\\\]*\\)\",[[:space:]]*\$/\\1/p" \
		"$kmsg_header"
}

# kmsg_header_define NAME: the value of #define NAME, quotes taken off.
kmsg_header_define() {
	sed -n "s/^#define $1[[:space:]]\\{1,\\}\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}[[:space:]]*\$/\\1/p" \
		"$kmsg_header"
}

kmsg_unload_race() {
	local first last begins ends text functions files patterns

	first=$(kmsg_header_define LC_KMSG_UNLOAD_RACE_FIRST)
	last=$(kmsg_header_define LC_KMSG_UNLOAD_RACE_LAST)
	begins=$(kmsg_header_define LC_KMSG_UNLOAD_BEGINS)
	ends=$(kmsg_header_define LC_KMSG_UNLOAD_ENDS)
	text=$(kmsg_header_define LC_KMSG_UNLOAD_RACE)
	functions=$(kmsg_header_list lc_kmsg_unload_race_functions)
	files=$(kmsg_header_list lc_kmsg_unload_race_files)
	patterns=$(kmsg_patterns) || return 2
	if [ -z "$first" ] || [ -z "$last" ] || [ -z "$begins" ] ||
	   [ -z "$ends" ] || [ -z "$text" ] || [ -z "$functions" ] ||
	   [ -z "$files" ]; then
		echo "kmsg.sh: no unload race in $kmsg_header" >&2
		return 2
	fi
	awk -v kver="$1" -v first="$first" -v last="$last" \
	    -v begins="$begins" -v ends="$ends" -v text="$text" \
	    -v functions="$functions" -v files="$files" \
	    -v patterns="$patterns" '
	function close_window(ended,    i) {
		if (ended && window && !foreign && warns == messages &&
		    traces <= warns) {
			tolerated += warns
			for (i = 0; i < n; i++)
				if (!drop[i])
					print held[i]
		} else {
			for (i = 0; i < n; i++)
				print held[i]
		}
		open = n = warns = messages = traces = foreign = 0
		split("", drop)
	}
	# " FUNCTION+0x" of a race function
	function race_function(line,    w, i, k) {
		k = split(line, w, " ")
		for (i = 1; i <= k; i++)
			if (sub(/\+0x.*/, "", w[i]) && w[i] in fn)
				return 1
		return 0
	}
	BEGIN {
		split(kver, v, ".")
		window = v[1] * 1000 + v[2] >= first &&
			 v[1] * 1000 + v[2] <= last
		split(functions, l, "\n")
		for (i in l)
			fn[l[i]] = 1
		split(files, l, "\n")
		for (i in l)
			file[l[i]] = 1
		np = split(patterns, pattern, "\n")
	}
	# another pattern of kmsg_patterns.h than WARNING: and Call Trace
	function other_pattern(line,    i) {
		for (i = 1; i <= np; i++)
			if (pattern[i] != "WARNING:" && pattern[i] != "Call Trace" &&
			    index(line, pattern[i]))
				return 1
		return 0
	}
	index($0, begins) { if (!open) n = 0; open = 1; held[n++] = $0; next }
	index($0, ends) { if (!open) { print; next } held[n++] = $0; close_window(1); next }
	!open { print; next }
	{
		drop[n] = 0
		held[n] = $0
		if (i = index($0, text)) {
			name = substr($0, i + length(text))
			sub(/[[:space:]]+$/, "", name)
			if (name in file)
				messages++
			else
				foreign++
		}
		if (index($0, "WARNING:")) {
			if (race_function($0)) {
				warns++
				drop[n] = 1
			} else {
				foreign++
			}
		} else if (index($0, "Call Trace")) {
			traces++
			drop[n] = 1
		} else if (other_pattern($0)) {
			foreign++
		}
		n++
	}
	END {
		if (open)
			close_window(0)
		if (tolerated)
			printf "kmsg.sh: %d report(s) of the kernel'"'"'s unload race tolerated\n", tolerated > "/dev/stderr"
	}'
}

kmsg_grep() {
	local patterns

	patterns=$(kmsg_patterns) || return 2
	grep -F -e "$patterns" "$@"
}

kmsg_mark() {
	local marker

	marker="$1: log mark $$.$(date +%s%N)"
	echo "$marker" >/dev/kmsg || return
	printf '%s\n' "$marker"
}

kmsg_since() {
	dmesg | awk -v marker="$1" '
		index($0, marker) { n = 0; next }
		{ line[n++] = $0 }
		END { for (i = 0; i < n; i++) print line[i] }'
}
