#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh: the host-side tests of lttng-calibrate, as one TAP stream
# on stdout; exit 1 if any failed.  Nothing here needs the module or root:
# the command-line tests stop before the command touches the kernel.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$dir")
bin=$top/lttng-calibrate
data=$dir/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$dir/../../lib/tap.sh"
tap_collect "$tmp/all"

json_valid() {
	"$dir/kv-format" json < "$1" | python3 -c 'import json, sys; json.load(sys.stdin)'
}

# Every CSV line has as many fields as the header (no quoted commas here).
csv_rectangular() {
	"$dir/kv-format" csv < "$1" |
		awk -F, 'NR == 1 { n = NF } NF != n { exit 1 } END { exit NR < 2 }'
}

help_ok() {
	"$bin" --help > "$tmp/cout" && grep -q -- "--iterations N" "$tmp/cout"
}

version_ok() {
	"$bin" --version > "$tmp/cout" &&
		grep -q "^lttng-calibrate [0-9]" "$tmp/cout"
}

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$dir/common.sh"

# What stops the command on a kernel that cannot load modules (and, when
# it is also locked down, as build machines are, the lockdown first), from
# the command and from its bench: each line says what to do.
no_module_support() {
	no_modules="this kernel cannot load modules (no /proc/modules: built without CONFIG_MODULES); try tools/lttng-calibrate-vm (a kernel of its own, under QEMU)"
	fails_with "$no_modules" "$@" || return 1
	if grep -qF '[integrity]' /sys/kernel/security/lockdown 2>/dev/null ||
		grep -qF '[confidentiality]' /sys/kernel/security/lockdown 2>/dev/null; then
		[ "$(cat "$tmp/err")" = "lttng-calibrate: kernel lockdown forbids debugfs writes (/sys/kernel/security/lockdown)
lttng-calibrate: $no_modules" ]
	fi
}

tap_component "kv unit tests" "$dir/kv-test" "$data"
tap_component "[asan] kv unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/kv-test-san" "$data"
tap_component "pmu-event unit tests" "$dir/pmu-event-test" "$data/sysfs"
tap_component "[asan] pmu-event unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 \
	"$dir/pmu-event-test-san" "$data/sysfs"
tap_component "tracers unit tests" "$dir/tracers-test"
tap_component "[asan] tracers unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/tracers-test-san"
tap_component "predict-model unit tests" "$dir/predict-model-test"
tap_component "[asan] predict-model unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/predict-model-test-san"
# predict's output of a made-up prediction, as the command printed it
# before its figures were computed once (tests/predict-format-test.c).
predict_prints() {
	"$dir/predict-format-test" "$1" > "$tmp/predict.$1" &&
		cmp "$tmp/predict.$1" "$data/predict.$1" >&2
}
for f in table csv json svg; do
	check "predict --format $f (or --plot): what it printed before" \
		predict_prints "$f"
done
if command -v python3 > /dev/null; then
	check "JSON of the captured results_kv is valid JSON" \
		json_valid "$data/results_kv"
	printf 'a.b.count=1\nk="x\\\n' > "$tmp/odd"
	check "JSON of odd input is valid JSON" json_valid "$tmp/odd"
	printf '%s\n' 'counter.cpu/cache-misses/.valid=1' \
		'target.counter.cpu/cache-misses/.count=2' \
		'target.counter.cpu:0x3c.count=2' > "$tmp/names"
	check "JSON of PMU counter names ('/', ':') is valid JSON" \
		json_valid "$tmp/names"
else
	tap_skip "JSON validity" "no python3"
fi
check "CSV of the captured results_kv is rectangular" \
	csv_rectangular "$data/results_kv"

# The layers, from the objects: the tracers' layer stays under the
# output layer and the commands.
check "the tracers' layer includes and calls nothing of the output layer or of a command" \
	"$dir/tracer-layer" "$top"

check "--help prints the usage and exits 0" help_ok
check "--version prints the version" version_ok
check "-u is refused: kernel only" fails_with \
	"userspace calibration is not supported: this facility measures kernel instrumentation only" -u
check "--userspace is refused too" fails_with "userspace calibration" \
	--kernel --userspace
check "-n 0 is an invalid iteration count" fails_with \
	"invalid iteration count '0'" -n 0
check "-n with a sign is invalid" fails_with "invalid iteration count" -n -5
check "-n beyond 64 bits is invalid" fails_with "invalid iteration count" \
	-n 99999999999999999999
check "--format xml is invalid" fails_with "invalid format 'xml'" \
	--format xml
check "--cpu 1024 is out of range" fails_with "invalid CPU '1024'" --cpu 1024
check "a stray argument is refused" fails_with "unexpected argument" run
check "not root: refused before anything" not_root "$bin" -k --function -n 10
if [ "$(id -u)" -ne 0 ]; then
	tap_skip "no module support: says to try the VM" "not root"
	tap_skip "bench, no module support: says to try the VM" "not root"
elif [ -e /proc/modules ]; then
	tap_skip "no module support: says to try the VM" \
		"this kernel can load modules (tests/vm-test checks the module's messages)"
	tap_skip "bench, no module support: says to try the VM" \
		"this kernel can load modules"
else
	check "no module support: says to try the VM" no_module_support -n 10
	check "bench, no module support: says to try the VM" \
		no_module_support bench -n 10 --only none
fi

# Which file calls which (tools/README.rst, "The layers"), from the objects.
tap_component "layers" "$dir/layers.sh" "$top"

# lttng-calibrate bench: options, and its outputs of recorded rows.
tap_component "bench host tests" "$dir/bench-tests.sh" "$bin"
tap_component "[asan] bench host tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1 \
	"$dir/bench-tests.sh" "$top/asan/lttng-calibrate"

tap_finish
