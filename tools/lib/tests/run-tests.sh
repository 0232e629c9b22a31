#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh: the tests of the tools' library (tools/lib), as one TAP
# stream on stdout; exit 1 if any failed.  lc-test (also under ASan and
# UBSan) tests lc.c and kmsg_patterns.h, options-test (also under ASan and
# UBSan) options.c, proc-test (also under ASan and UBSan) proc.c,
# output-test (also under ASan and UBSan) the output layer (output.c,
# svg.c, bench-schema.c); tap-test.sh tests tap.sh, tap.h and kmsg.sh,
# options-sh-test.sh options.sh.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$dir/../tap.sh"
tap_collect "$tmp/all"

tap_component "lc unit tests" "$dir/lc-test"
tap_component "[asan] lc unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/lc-test-san"
tap_component "options unit tests" "$dir/options-test"
tap_component "[asan] options unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/options-test-san"
tap_component "proc unit tests" "$dir/proc-test"
tap_component "[asan] proc unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/proc-test-san"
tap_component "output layer unit tests" "$dir/output-test"
tap_component "[asan] output layer unit tests" env TAP_PREFIX="[asan] " \
	ASAN_OPTIONS=exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99 "$dir/output-test-san"
tap_component "tap.sh, tap.h and kmsg.sh tests" sh "$dir/tap-test.sh" "$dir"
tap_component "options.sh tests" bash "$dir/options-sh-test.sh"

tap_finish
