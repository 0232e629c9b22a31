# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What dpkg says of a package, for the scripts that install packages
# (tools/install-deps) and those that must not find them installed
# (tools/testing/package-vm-test); and what the project's packages leave, checked
# alike on this machine and in a guest (tools/testing/package-vm-test,
# tools/testing/dkms-test).  Sourced, never run:
#
#   deb_installed PACKAGE   status 0 when dpkg has PACKAGE installed
#                           ("install ok installed", or "hold ok
#                           installed"), 1 otherwise (absent, removed with
#                           its configuration left, half installed)
#   deb_module_runs VERSION N
#                           in a booted kernel, with nothing loaded:
#                           modprobe loads the DKMS-built lttng_calibrate
#                           of VERSION, /usr/bin/lttng-calibrate -n N runs
#                           and completes, rmmod unloads it; status 1 at
#                           the first check that fails
#   deb_left LISTED VERSION KVER...
#                           once the packages are removed: prints every
#                           file of LISTED (what dpkg -L listed) still
#                           there, the DKMS tree of VERSION and any
#                           lttng_calibrate module of a KVER; status 1
#                           when anything is left

deb_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
		grep -q ' ok installed$'
}

deb_module_runs() {
	local d=/sys/kernel/debug/lttng_calibrate k

	k=$(uname -r)
	! grep -q '^lttng_calibrate ' /proc/modules || return 1
	modprobe lttng_calibrate &&
		modinfo -n lttng_calibrate |
		grep -q "^/lib/modules/$k/updates/dkms/lttng_calibrate\\.ko" &&
		[ "$(cat /sys/module/lttng_calibrate/version)" = "$1" ] &&
		[ "$(command -v lttng-calibrate)" = /usr/bin/lttng-calibrate ] &&
		/usr/bin/lttng-calibrate -n "$2" &&
		grep -qx 'run.state=complete' "$d/results_kv" &&
		grep -qx "run.iterations.done=$2" "$d/results_kv" &&
		rmmod lttng_calibrate
}

deb_left() {
	local listed=$1 version=$2 f k left=0

	shift 2
	while read -r f; do
		[ ! -d "$f" ] || continue
		if [ -e "$f" ] || [ -L "$f" ]; then
			echo "left: $f"
			left=1
		fi
	done <"$listed"
	for f in "/usr/src/lttng-calibrate-$version" /var/lib/dkms/lttng-calibrate; do
		[ ! -e "$f" ] || { echo "left: $f"; left=1; }
	done
	for k; do
		f=$(find "/lib/modules/$k" -name 'lttng_calibrate.ko*' | head -n 1)
		[ -z "$f" ] || { echo "left: $f"; left=1; }
		! modinfo -k "$k" lttng_calibrate >/dev/null 2>&1 ||
			{ echo "modinfo -k $k still finds lttng_calibrate"; left=1; }
	done
	[ "$left" -eq 0 ]
}
