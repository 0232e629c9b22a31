# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the scripts that take packages from another Debian suite or
# architecture than the machine's (bookworm-backports kernels, trixie's
# lttng-modules source, Debian's arm64 kernel and userspace) without
# changing the machine's apt configuration: apt-get and apt-cache get a
# private source list and package lists, under the cache directory.
#
# private_apt [--arch ARCH] SUITE...: sets the array private_apt_opts to
# the apt options for the SUITEs, and private_apt_dir to the directory of
# their configuration and lists (a SUITE named *-security comes from the
# security archive) and refreshes their package lists once a day.  With
# --arch, apt knows ARCH alone, and an empty dpkg status and a package
# cache of its own: it resolves dependencies as on an empty ARCH machine,
# never mixing in the packages installed here, and downloads ARCH's
# packages without "dpkg --add-architecture".  Never install with those
# options: they are for apt-cache, apt-get download and apt-get -s.

private_apt_opts=()
private_apt_dir=

private_apt() {
	local arch='' name suite dir

	if [ "${1:-}" = --arch ]; then
		arch=$2
		shift 2
	fi
	name=$(IFS=+; echo "$*")
	dir=${LTTNG_CALIBRATE_CACHE:-/var/cache/lttng-calibrate}/apt/${arch:+$arch/}$name
	# shellcheck disable=SC2034 # for the scripts that source this file
	private_apt_dir=$dir

	mkdir -p "$dir/lists/partial"
	for suite; do
		case $suite in
		*-security) echo "deb http://deb.debian.org/debian-security $suite main" ;;
		*) echo "deb http://deb.debian.org/debian $suite main" ;;
		esac
	done >"$dir/sources.list"
	private_apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists")
	if [ -n "$arch" ]; then
		mkdir -p "$dir/cache/archives/partial"
		[ -f "$dir/status" ] || : >"$dir/status"
		private_apt_opts+=(-o "APT::Architecture=$arch"
			-o "APT::Architectures=$arch"
			-o "Dir::State::status=$dir/status"
			-o "Dir::Cache=$dir/cache")
	fi
	# apt-get update fails at once when another holds the lists' lock:
	# scripts that start together wait for one another here instead.
	(
		flock 8
		if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
			apt-get "${private_apt_opts[@]}" update -qq >&2
		fi
	) 8>"$dir/update.lock" || return
}
