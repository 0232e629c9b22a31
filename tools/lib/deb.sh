# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What dpkg says of a package, for the scripts that install packages
# (tools/install-deps) and those that must not find them installed
# (tools/package-vm-test).  Sourced, never run:
#
#   deb_installed PACKAGE   status 0 when dpkg has PACKAGE installed
#                           ("install ok installed", or "hold ok
#                           installed"), 1 otherwise (absent, removed with
#                           its configuration left, half installed)

deb_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
		grep -q ' ok installed$'
}
