# SPDX-License-Identifier: GPL-2.0
#
# The version of lttng-calibrate, set in one place: the first line of
# debian/changelog, "lttng-calibrate (VERSION) ...".  The package is
# native, so the package's version is the module's and the tools' too.
# Included by the top Makefile (the module's MODULE_VERSION, the DKMS
# source's dkms.conf) and by tools/lib/tool.mk (the tools' --version).

LTTNG_CALIBRATE_CHANGELOG := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/debian/changelog
# (Braces: the parentheses of the pattern would end a $(shell ...).)
LTTNG_CALIBRATE_VERSION := ${shell sed -n \
	'1s/^lttng-calibrate (\([^)]*\)).*/\1/p' $(LTTNG_CALIBRATE_CHANGELOG)}
ifeq ($(LTTNG_CALIBRATE_VERSION),)
$(error no version in $(LTTNG_CALIBRATE_CHANGELOG))
endif
