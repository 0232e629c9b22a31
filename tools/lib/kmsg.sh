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
