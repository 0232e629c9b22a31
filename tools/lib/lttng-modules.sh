# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# LTTng's kernel modules (lttng-modules) as the project gets and builds
# them, for tools/lttng/build-lttng-modules (the modules every guest
# traces with) and tools/lttng-calibrate-series (a patch series of them,
# built step by step).  Sourced, never run; needs private-apt.sh sourced
# first and $top set to the top of the repository.
#
#   lttng_modules_suite KVER
#           the Debian suite whose lttng-modules-dkms builds against KVER:
#           trixie (2.13) up to 6.12, sid (2.16 builds against 7.2) after
#   lttng_modules_fetch SUITE VERSION DIR
#           lttng-modules-dkms VERSION of SUITE downloaded and unpacked in
#           DIR (private apt lists: private_apt SUITE first); prints its
#           source tree, DIR/pkg/usr/src/lttng-modules-*; status 1, the
#           reason on stderr, when it cannot
#   lttng_modules_prepare SRC
#           makes the source tree SRC build as the project builds it:
#           2.13's lttng-probe-timer left out (it fails against 6.1 and
#           6.12 stable: trace_hrtimer_start changed), 2.16's leak of each
#           kretprobe's symbol name fixed, and LTTng's probe for the
#           module's tracepoints (tools/lttng/probe) added as one of
#           LTTng's own probes; made again, it changes nothing more
#   lttng_modules_probe_id
#           a hash of that probe's sources: what the built modules depend
#           on besides lttng-modules and the kernel
#   lttng_modules_make SRC KDIR [MAKE ARGUMENT...]
#           make in SRC against the kernel headers KDIR, one job per CPU
#
# lttng_modules_prepare and lttng_modules_make read and write SRC, and run
# its code, through the caller's build_as, an array that prefixes each of
# their commands (lttng-calibrate-series: as its build user); unset, as
# the caller.

lttng_modules_suite() {
	case $1 in
	[0-5].*|6.[0-9].*|6.1[0-2].*) echo trixie ;;
	*) echo sid ;;
	esac
}

lttng_modules_fetch() {
	local suite=$1 version=$2 dir=$3 src

	# apt drops root privileges to _apt for downloads.
	chown _apt "$dir" 2>/dev/null || true
	# shellcheck disable=SC2154 # set by private_apt
	(cd "$dir" && apt-get "${private_apt_opts[@]}" download -q \
		"lttng-modules-dkms=$version") >"$dir/download.log" 2>&1 || {
		cat "$dir/download.log" >&2
		echo "apt-get download lttng-modules-dkms=$version ($suite) failed" >&2
		return 1
	}
	dpkg-deb -x "$dir"/lttng-modules-dkms_*.deb "$dir/pkg" || return 1
	src=$(find "$dir/pkg/usr/src" -mindepth 1 -maxdepth 1 -type d \
		-name 'lttng-modules-*' | head -n 1)
	if [ -z "$src" ] || [ ! -f "$src/src/probes/Kbuild" ]; then
		echo "no usr/src/lttng-modules-* tree in lttng-modules-dkms" >&2
		return 1
	fi
	echo "$src"
}

# shellcheck disable=SC2154 # $top is the caller's
lttng_modules_prepare() {
	local src=$1 probe=$top/tools/lttng/probe krp=$1/src/lttng-kretprobes.c
	local line
	local -a run=(${build_as[@]+"${build_as[@]}"})

	if "${run[@]}" grep -q '^#define LTTNG_MODULES_MINOR_VERSION 13$' \
		"$src/include/lttng/tracer.h" 2>/dev/null; then
		"${run[@]}" sed -i -e '/lttng-probe-timer\.o/d' \
			"$src/src/probes/Kbuild" || return 1
	fi
	# 2.16 frees krp.kp.symbol_name, NULL for a kretprobe not registered
	# then, instead of the copy itself (kmemleak reports its 256 bytes on
	# the debug kernel): both are the same pointer otherwise.
	if "${run[@]}" test -f "$krp"; then
		"${run[@]}" sed -i -e 's/kfree(lttng_krp->krp\.kp\.symbol_name);/kfree(lttng_krp->symbol_name);/' \
			"$krp" || return 1
	fi
	# Their times kept: made again in a tree already built (a series'
	# copy), they are not rebuilt.
	"${run[@]}" cp -p "$probe/lttng-probe-lttng-calibrate.c" \
		"$top/lttng_calibrate_trace.h" "$src/src/probes/" &&
	"${run[@]}" cp -p "$probe/lttng_calibrate.h" \
		"$src/include/instrumentation/events/" || return 1
	# shellcheck disable=SC2016 # a make variable, for make
	line='obj-$(CONFIG_LTTNG) += lttng-probe-lttng-calibrate.o'
	"${run[@]}" grep -qxF "$line" "$src/src/probes/Kbuild" && return
	# shellcheck disable=SC2016 # sh's own arguments
	"${run[@]}" sh -c 'echo "$1" >>"$2"' sh "$line" "$src/src/probes/Kbuild"
}

# shellcheck disable=SC2154 # $top is the caller's
lttng_modules_probe_id() {
	cat "$top/tools/lttng/probe"/* "$top/lttng_calibrate_trace.h" |
		sha256sum | cut -c 1-12
}

lttng_modules_make() {
	local src=$1 kdir=$2

	shift 2
	${build_as[@]+"${build_as[@]}"} make -C "$src" KERNELDIR="$kdir" \
		-j"$(nproc)" "$@"
}
