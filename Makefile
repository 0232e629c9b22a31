# SPDX-License-Identifier: GPL-2.0
#
# lttng-calibrate.  Kbuild builds the module (see Kbuild); this file wraps it
# and the userspace parts:
#
#   make [KVER=...]        the module, against /lib/modules/$(KVER)/build
#   make tools             the userspace tools in tools/
#   make selftests         the kselftests, installed in build/kselftest/
#   make install           modules_install + depmod, and the tools
#   make check             every test (same as tools/run-tests)
#   make clean
#
# KVER defaults to the running kernel when its headers are installed, else
# to the newest kernel whose headers are.

KVER ?= $(shell $(CURDIR)/tools/kver)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local

BUILD := $(CURDIR)/build
KSRC := $(BUILD)/linux-source-6.1
KSFT_SRC := $(KSRC)/tools/testing/selftests
KSFT_INSTALL := $(BUILD)/kselftest
TOOL_DIRS := tools/compare tools/trace tools/cli

.PHONY: all module modules tools selftests install check clean

all: module

module modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR):" \
		"apt-get install linux-headers-$(KVER)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	for d in $(TOOL_DIRS); do $(MAKE) -C $$d || exit; done

# The kselftest framework comes from Debian's linux-source-6.1; our tests
# are built inside a copy of it, as they would be in a kernel tree.
selftests:
	tools/kernel-files $(BUILD)
	rm -rf $(KSFT_SRC)/lttng_calibrate $(KSFT_INSTALL)
	cp -r selftests $(KSFT_SRC)/lttng_calibrate
	$(MAKE) -C $(KSFT_SRC) TARGETS=lttng_calibrate \
		INSTALL_PATH=$(KSFT_INSTALL) install

install: module tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod $(KVER)
	for d in $(TOOL_DIRS); do \
		$(MAKE) -C $$d install PREFIX=$(PREFIX) || exit; done

check:
	tools/run-tests

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	for d in $(TOOL_DIRS); do $(MAKE) -C $$d clean; done
	rm -rf $(BUILD)
