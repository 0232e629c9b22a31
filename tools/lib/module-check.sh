# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Which module a kernel loads: the check that a guest of
# tools/lttng-calibrate-series measures the step's modules, not others
# that shadow them (lttng-modules-dkms installs lttng-modules under
# updates/dkms, which depmod prefers to extra/).  Sourced, never run: the
# series' guest script sources it from the host's tree, which every guest
# sees.
#
#   module_check_path NAME DIR [BASEDIR]
#           the file modprobe would load for the module NAME (as modinfo
#           finds it, in BASEDIR's /lib/modules when given) is under DIR;
#           else status 1 and, on stderr, what shadows it and what to do
#   module_check_loaded NAME SRCVERSION [SYSFS]
#           the module NAME is loaded (in SYSFS, /sys by default) and its
#           srcversion is SRCVERSION (the step's build's); else status 1,
#           said on stderr

module_check_path() {
	local name=$1 dir=$2 path
	local -a base=()

	[ -z "${3:-}" ] || base=(-b "$3")
	path=$(modinfo "${base[@]}" -k "$(uname -r)" -n "$name" 2>/dev/null) || {
		echo "no module $name for $(uname -r): depmod found none under ${3:-}/lib/modules/$(uname -r)" >&2
		return 1
	}
	case $path in
	"${3:-}$dir"/*|"$dir"/*) return 0 ;;
	esac
	echo "modprobe $name would load $path, not the step's under $dir: it shadows the step's modules (depmod prefers updates/ to extra/); remove it (dkms remove lttng-modules/VERSION --all, or apt-get remove lttng-modules-dkms) or measure on a kernel without it" >&2
	return 1
}

module_check_loaded() {
	local name=${1//-/_} want=$2 have

	have=$(cat "${3:-/sys}/module/$name/srcversion" 2>/dev/null) || {
		echo "the module $1 is not loaded once modprobed: the step's modules would not be measured" >&2
		return 1
	}
	[ "$have" = "$want" ] && return 0
	echo "the loaded $1 has srcversion $have, the step's build $want: another build of it was measured" >&2
	return 1
}
