#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh DIR: the layers of tools/README.rst ("The layers") checked
# from the objects of DIR (tools/cli, after its build), as TAP results
# of a component: nm says what each object defines and what it leaves
# undefined, which gives what each calls.  The output layer (output.o,
# svg.o, bench-schema.o) calls nothing of a command; the bench's files
# and predict's call nothing of each other; the files under both call
# neither; predict's printing calls its model's figures and the output
# layer, not the bench's rows.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
objs=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"

# "FROM TO" for every object FROM that calls a function or uses data of
# another object TO of $objs.
(cd "$objs" && nm -A -g --defined-only ./*.o && nm -A -u ./*.o) |
	awk '{ sub(/^\.\//, ""); split($1, f, ":") }
	     $2 == "U" { use[f[1] " " $3] = 1; next }
	     NF == 3 { def[$3] = f[1] }
	     END { for (u in use) { split(u, p, " ")
			if ((p[2] in def) && def[p[2]] != p[1])
				print p[1], def[p[2]] } }' |
	sort -u >"$tmp/calls"

# calls_only FROM TO...: FROM calls nothing but TO... (and the library,
# lc.o, stats.o, proc.o, cgroup.o, json-read.o)
calls_only() {
	from=$1
	shift
	awk -v from="$from" -v ok="$* lc.o stats.o proc.o cgroup.o json-read.o" '
		BEGIN { n = split(ok, o, " "); for (i = 1; i <= n; i++) allow[o[i]] = 1 }
		$1 == from && !($2 in allow) { print from " calls " $2; bad = 1 }
		END { exit bad }' "$tmp/calls"
}

# calls_none FROM PATTERN: FROM calls no object whose name matches PATTERN
calls_none() {
	awk -v from="$1" -v re="$2" '$1 == from && $2 ~ re {
		print from " calls " $2; bad = 1 } END { exit bad }' "$tmp/calls"
}

[ -s "$tmp/calls" ] || tap_bail_out "no calls between the objects of $objs"
check "layers: the output layer is built into the command" \
	test -e "$objs/output.o" -a -e "$objs/svg.o" -a -e "$objs/bench-schema.o"
check "layers: lib/bench-schema.c calls nothing" calls_only bench-schema.o
check "layers: lib/output.c calls lib/lc.c only" calls_only output.o
check "layers: lib/svg.c calls the output layer only" calls_only svg.o output.o
for f in bench.o bench-format.o; do
	check "layers: ${f%.o}.c calls nothing of predict" \
		calls_none "$f" '^predict'
done
for f in predict.o predict-format.o predict-model.o predict-run.o; do
	check "layers: ${f%.o}.c calls nothing of the bench's command" \
		calls_none "$f" '^bench(-format)?[.]o$'
done
for f in mechanisms.o tracers.o event-sets.o sessions.o tracefs.o \
	tracer-run.o formats.o setup.o kv.o pmu-event.o pmu-sysfs.o; do
	check "layers: ${f%.o}.c, under both commands, calls neither" \
		calls_none "$f" '^(bench|bench-format|predict.*|main)[.]o$'
done
check "layers: predict-format.c calls its model's figures and the output layer" \
	calls_only predict-format.o predict-model.o output.o svg.o \
	bench-schema.o
check "layers: bench-format.c calls the bench's rows and the output layer" \
	calls_only bench-format.o formats.o output.o svg.o bench-schema.o
check "layers: formats.c calls the bench row's schema only" \
	calls_only formats.o bench-schema.o
tap_done
