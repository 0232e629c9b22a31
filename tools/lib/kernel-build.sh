# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A kernel built from Debian's source for the guests of
# tools/lttng-calibrate-vm, as tools/build-debug-kernel builds its debug
# kernel and tools/lttng-calibrate-series the kernels of a series.
# Sourced, never run; needs private-apt.sh sourced first (and private_apt
# SUITE called) for kernel_source_fetch.
#
#   kernel_source_candidate [PACKAGE]
#           "PACKAGE VERSION": the version apt would take of PACKAGE
#           (default: the newest linux-source-X.Y) in the private lists
#           of private_apt; status 1, the reason on stderr, when there is
#           none
#   kernel_source_fetch PACKAGE VERSION DIR
#           linux-source-X.Y PACKAGE at VERSION downloaded (private apt
#           lists) and its tarball unpacked into DIR (made anew); the
#           download is not kept; status 1, the reason on stderr, when it
#           cannot
#   kernel_fragment_without SECTION... <FRAGMENT
#           FRAGMENT (tools/debug-kernel.config) without the sections
#           ("## TITLE", on one or more lines, up to the next title) whose
#           TITLE starts with one of the SECTIONs
#   kernel_configure SRC OBJ LOG FRAGMENT...
#           OBJ configured anew for SRC: x86_64_defconfig,
#           kvm_guest.config, the FRAGMENTs merged in order
#           (merge_config.sh: a later one's value wins), olddefconfig;
#           make's output appended to LOG; OBJ emptied and SRC's code
#           run through the caller's build_as, an array that prefixes
#           those commands (lttng-calibrate-series: as its build user,
#           who must own OBJ); unset, as the caller
#   kernel_config_unmet CONFIG FRAGMENT...
#           the lines of the FRAGMENTs (of an option set in more than
#           one, the last) that CONFIG (a .config) does not have as asked, a line "not set as asked: LINE (.config: ...)"
#           each on stdout, status 1 if any; an option turned off that
#           another one selects is only noted ("still set (selected by
#           another option): ..."), status unchanged

kernel_source_candidate() {
	local pkg=${1:-} version

	# shellcheck disable=SC2154 # set by private_apt
	[ -n "$pkg" ] || pkg=$(apt-cache "${private_apt_opts[@]}" search \
			--names-only '^linux-source-[0-9]+\.[0-9]+$' |
		cut -d ' ' -f 1 | sort -V | tail -n 1)
	[ -n "$pkg" ] || { echo "no linux-source-X.Y package" >&2; return 1; }
	version=$(apt-cache "${private_apt_opts[@]}" policy "$pkg" |
		sed -n 's/^ *Candidate: //p')
	case $version in
	''|'(none)') echo "no package $pkg" >&2; return 1 ;;
	esac
	echo "$pkg $version"
}

kernel_source_fetch() {
	local pkg=$1 version=$2 dir=$3 dl deb

	dl=$dir.dl
	rm -rf "$dir" "$dl"
	mkdir -p "$dl" "$dir"
	# shellcheck disable=SC2154 # set by private_apt
	(cd "$dl" && apt-get "${private_apt_opts[@]}" -o APT::Sandbox::User=root \
		-qq download "$pkg=$version" >&2) || {
		echo "cannot download $pkg $version" >&2
		rm -rf "$dl"
		return 1
	}
	deb=$(find "$dl" -name '*.deb' | head -n 1)
	if ! dpkg-deb -x "$deb" "$dl/root" ||
	   ! find "$dl/root/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' |
		grep -q .; then
		echo "$deb holds no linux-source tarball" >&2
		rm -rf "$dl"
		return 1
	fi
	tar -xf "$dl/root/usr/src/"linux-source-*.tar.* -C "$dir" \
		--strip-components=1
	rm -rf "$dl"
	[ -f "$dir/Makefile" ] || {
		echo "$pkg $version: no kernel source in its tarball" >&2
		return 1
	}
}

kernel_fragment_without() {
	awk -v drop="$(printf '%s\n' "$@")" '
		BEGIN { n = split(drop, d, "\n") }
		# A title may go on over more "## " lines.
		/^## / && !title {
			skip = 0
			for (i = 1; i <= n; i++)
				if (d[i] != "" && index($0, "## " d[i]) == 1)
					skip = 1
		}
		{ title = /^## / }
		!skip'
}

kernel_configure() {
	local src=$1 obj=$2 log=$3 f
	local -a run=(${build_as[@]+"${build_as[@]}"})

	shift 3
	mkdir -p "$obj" &&
	"${run[@]}" find "$obj" -mindepth 1 -delete &&
	"${run[@]}" make -C "$src" O="$obj" x86_64_defconfig >>"$log" 2>&1 &&
	"${run[@]}" make -C "$src" O="$obj" kvm_guest.config >>"$log" 2>&1 ||
		return
	for f; do
		(cd "$src" && "${run[@]}" scripts/kconfig/merge_config.sh -m \
			-O "$obj" "$obj/.config" "$f") >>"$log" 2>&1 || return
	done
	"${run[@]}" make -C "$src" O="$obj" olddefconfig >>"$log" 2>&1
}

kernel_config_unmet() {
	local config=$1 line name bad=0

	shift
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$config" && continue
			name=${line%%=*}
			echo "not set as asked: $line (.config:" \
				"$(grep -E "^($name=|# $name is not set)" "$config" ||
					echo absent))"
			bad=1 ;;
		"# CONFIG_"*" is not set")
			name=${line#\# }
			name=${name%% *}
			if grep -q "^$name=" "$config"; then
				echo "still set (selected by another option):" \
					"$(grep "^$name=" "$config")"
			fi ;;
		esac
	done < <(cat "$@" | awk '
		/^CONFIG_[A-Za-z0-9_]*=/ { name = $0; sub(/=.*/, "", name) }
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { name = $2 }
		name != "" { line[name] = $0; if (!(name in seen)) { seen[name] = 1; order[++n] = name } }
		{ name = "" }
		END { for (i = 1; i <= n; i++) print line[order[i]] }')
	return $bad
}
