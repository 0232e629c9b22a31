# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the scripts that take packages from another Debian suite than
# the machine's (bookworm-backports kernels, trixie's lttng-modules source)
# without changing the machine's apt sources: apt-get and apt-cache get a
# private source list and package lists, under the cache directory.
#
# private_apt SUITE: sets the array private_apt_opts to the apt options for
# SUITE and refreshes its package lists once a day.

private_apt_opts=()

private_apt() {
	local suite=$1
	local dir=${LTTNG_CALIBRATE_CACHE:-/var/cache/lttng-calibrate}/apt/$suite

	mkdir -p "$dir/lists/partial"
	echo "deb http://deb.debian.org/debian $suite main" >"$dir/sources.list"
	private_apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists")
	if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
		apt-get "${private_apt_opts[@]}" update -qq >&2 || return
	fi
}
