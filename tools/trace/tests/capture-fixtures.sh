#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# capture-fixtures.sh [DIR]: write the CTF traces of gen-ctf.py and
# print them with the real babeltrace2 and babeltrace 1, in every
# timestamp and naming format lttng-calibrate-trace reads, into DIR
# (default: fixtures/ next to this script). The outputs are committed;
# cli.sh captures them again when both tools are installed and checks
# that nothing changed. Exits 4 when a tool is missing.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
out=${1:-$dir/fixtures}
for tool in python3 babeltrace2 babeltrace; do
	if ! command -v "$tool" > /dev/null; then
		echo "capture-fixtures.sh: $tool not found" >&2
		exit 4
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

python3 "$dir/gen-ctf.py" "$tmp/edges" edges
python3 "$dir/gen-ctf.py" "$tmp/return" return

# bt2 NAME TRACE [OPTION]...: babeltrace2's output, UTC
bt2() {
	name=$1
	trace=$2
	shift 2
	babeltrace2 --clock-gmt "$@" "$tmp/$trace" > "$out/$name" \
		2> "$tmp/$name.err"
}

bt2 bt2-edges.txt edges
bt2 bt2-edges-seconds.txt edges --clock-seconds
bt2 bt2-edges-date.txt edges --clock-date
bt2 bt2-edges-cycles.txt edges --clock-cycles
bt2 bt2-edges-names.txt edges --names=scope,context,payload
bt2 bt2-edges-nonames.txt edges --names=none
bt2 bt2-return.txt return
# babeltrace2 warns about the discarded events on stderr: put it first,
# as where it lands with 2>&1 depends on buffering
cat "$tmp/bt2-edges.txt.err" "$out/bt2-edges.txt" > "$out/bt2-edges-warning.txt"
babeltrace --clock-gmt "$tmp/edges" > "$out/bt1-edges.txt" 2> /dev/null
babeltrace --clock-gmt -n scope,context,payload "$tmp/edges" \
	> "$out/bt1-edges-names.txt" 2> /dev/null
sed -i "s|$tmp/||g" "$out/bt2-edges-warning.txt"
