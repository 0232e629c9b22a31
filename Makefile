# SPDX-License-Identifier: GPL-2.0
#
# lttng-calibrate.  Kbuild builds the module (see Kbuild); this file wraps it
# and the userspace parts:
#
#   make [KVER=...]        the module, against /lib/modules/$(KVER)/build
#   make test-pmu          the kselftests' test PMU module, for KVER
#   make tools             the userspace tools in tools/
#   make selftests         the kselftests, installed in build/kselftest/
#   make man               the man pages, from Documentation/man/, in
#                          build/man/
#   make install           install-module and install-tools
#   make install-module    modules_install (in /lib/modules/KVER/extra) +
#                          depmod
#   make install-tools     the tools in $(DESTDIR)$(PREFIX)/bin, their man
#                          pages in .../share/man/man1 and man7, the bash
#                          completion in .../share/bash-completion/completions
#   make uninstall         removes what install put (uninstall-tools,
#                          uninstall-module)
#   make dkms              the module under DKMS, for every kernel with
#                          headers, and its man page lttng_calibrate(7)
#   make install-dkms-source
#                          the module's source and dkms.conf in
#                          $(DESTDIR)/usr/src/lttng-calibrate-VERSION, as
#                          "make dkms" and the -dkms package install them
#   make dkms-remove       DKMS forgets it again; the page is removed
#   make kselftest-tarball the kselftests and the module for KVER, as one
#                          archive for kernel CI labs (build/); with
#                          ARCH=arm64, the arm64 one
#   make check             every test (same as tools/testing/run-tests)
#   make clean
#   make clean-tools       all but the module's kbuild output (needs no
#                          kernel headers)
#
# KVER defaults to tools/kver's choice: the running kernel when its headers
# are installed, else Debian's linux-image-amd64 kernel.  Each kernel's
# module is built in a copy of the sources, build/modules/KVER/, so that
# builds for several kernels never mix objects; the module of the last
# build is also copied to ./lttng_calibrate.ko.  PREFIX (default
# /usr/local) applies to the tools, pages and completion; DESTDIR, a
# staging directory, to them and to the module (DESTDIR/lib/modules/KVER).
# VERSION comes from debian/changelog (version.mk): the module's
# MODULE_VERSION, dkms.conf's PACKAGE_VERSION and the tools' --version.
#
# Cross-building (ARCH=arm64, which a KVER ending in -arm64 implies, with
# KVER and KDIR naming that architecture's kernel and headers, by default
# tools/arch-guest's, and CROSS_COMPILE=aarch64-linux-gnu- by default):
# the module is built in build/modules/KVER/ only, ./lttng_calibrate.ko
# stays the host's, and "make tools" builds the commands in
# build/tools-ARCH/, a copy of their sources, leaving the host's in tools/
# as they are; the kselftests are linked statically and installed in
# build/kselftest-ARCH/.

include version.mk

# A KVER of Debian's arm64 kernels implies ARCH=arm64, as it does
# --arch arm64 for tools/lttng-calibrate-vm.
ifneq ($(filter %-arm64,$(KVER)),)
ARCH ?= arm64
export ARCH
endif

# ARCH=arm64, an architecture other than the machine's: Debian's kernel
# for it, with its headers, as tools/arch-guest downloads and caches them
# (KVER defaults to its choice: the machine's kernel ABI built for arm64),
# Debian's cross compiler, and kselftests linked statically, which run on
# any arm64 userspace, a kernel CI lab's as well as the runner's.
ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
export CROSS_COMPILE
KSFT_LDFLAGS := -static
KSFT_INSTALL := $(CURDIR)/build/kselftest-$(ARCH)
ifneq ($(filter undefined,$(origin KVER) $(origin KDIR)),)
ARCH_GUEST := $(shell $(CURDIR)/tools/arch-guest \
	$(if $(filter undefined,$(origin KVER)),,--kver $(KVER)) $(ARCH))
$(if $(ARCH_GUEST),,$(error tools/arch-guest found no $(ARCH) kernel))
KVER ?= $(patsubst kver=%,%,$(filter kver=%,$(ARCH_GUEST)))
KDIR ?= $(patsubst headers=%,%,$(filter headers=%,$(ARCH_GUEST)))
endif
endif

KVER ?= $(shell $(CURDIR)/tools/kver)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
# Where bash-completion loads a command's completion from, on demand.
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL_MOD_DIR ?= extra

BUILD := $(CURDIR)/build
KSRC := $(BUILD)/linux-source-6.1
KSFT_SRC := $(KSRC)/tools/testing/selftests
KSFT_INSTALL ?= $(BUILD)/kselftest
TOOL_DIRS := tools/compare tools/trace tools/cli
MAN_DIR := Documentation/man
# One completion script for every command, installed under the name of
# each (bash-completion looks for a file named after the command).
COMPLETION := tools/completion/lttng-calibrate.bash
COMMANDS := lttng-calibrate lttng-calibrate-trace lttng-calibrate-compare
# The pages installed: the commands' and the module's.  The series
# command's page is built too (make man), for the command of the source
# tree it describes (tools/lttng-calibrate-series), which is not installed.
INSTALL_PAGES := $(COMMANDS:=.1) lttng_calibrate.7

MODULE_FILES := Kbuild $(wildcard lttng-calibrate*.[ch] lttng_calibrate*.h)
MODDIR := $(BUILD)/modules/$(KVER)

DKMS_NAME := lttng-calibrate
DKMS_VERSION := $(LTTNG_CALIBRATE_VERSION)
DKMS_SRC := /usr/src/$(DKMS_NAME)-$(DKMS_VERSION)

.PHONY: all module modules test-pmu tools selftests install check clean \
	dkms dkms-remove kselftest-tarball man install-module install-tools \
	uninstall uninstall-module uninstall-tools install-dkms-source \
	clean-tools FORCE

all: module

# The module and the test PMU are built again only when one of their
# sources, the kernel's build tree (its .config, its Module.symvers), this
# Makefile or a variable that reaches kbuild changed since the last build
# (a stamp in each build directory): kbuild takes seconds to find a module
# up to date, and the tests ask for it dozens of times in a run.
KDIR_CHECK = @test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR):" \
	"apt-get install linux-headers-$(KVER)" >&2; exit 1; }
KBUILD_DEPS := $(wildcard $(KDIR)/.config $(KDIR)/Module.symvers) Makefile \
	$(MODDIR)/.vars
KBUILD_VARS := $(KDIR) $(ARCH) $(CROSS_COMPILE) $(LLVM) $(CC) $(KCFLAGS) \
	$(W) $(C) $(LTTNG_CALIBRATE_VERSION)

$(MODDIR)/.vars: FORCE
	$(KDIR_CHECK)
	@mkdir -p $(@D)
	@echo '$(KBUILD_VARS)' | cmp -s - $@ || echo '$(KBUILD_VARS)' >$@

$(MODDIR)/.built: $(MODULE_FILES) $(KBUILD_DEPS)
	rm -f $@
	cp -p $(MODULE_FILES) $(MODDIR)/
	$(MAKE) -C $(KDIR) M=$(MODDIR) \
		LTTNG_CALIBRATE_VERSION=$(LTTNG_CALIBRATE_VERSION) modules
	touch $@

module modules: $(MODDIR)/.built
	$(if $(CROSS_COMPILE),,cp $(MODDIR)/lttng_calibrate.ko \
		lttng_calibrate.ko.$(KVER).tmp)
	$(if $(CROSS_COMPILE),,mv lttng_calibrate.ko.$(KVER).tmp \
		lttng_calibrate.ko)

# The kselftests' test PMU (selftests/module/), built apart from the
# module: it is a test module, never installed.
TEST_PMU_DIR := $(MODDIR)/test-pmu
TEST_PMU_FILES := selftests/module/lttng_calibrate_test_pmu.c \
	lttng-calibrate-compat.h

$(TEST_PMU_DIR)/.built: $(TEST_PMU_FILES) $(KBUILD_DEPS)
	rm -f $@
	mkdir -p $(TEST_PMU_DIR)
	cp -p $(TEST_PMU_FILES) $(TEST_PMU_DIR)/
	echo 'obj-m += lttng_calibrate_test_pmu.o' >$(TEST_PMU_DIR)/Kbuild
	$(MAKE) -C $(KDIR) M=$(TEST_PMU_DIR) modules
	touch $@

test-pmu: $(TEST_PMU_DIR)/.built

ifeq ($(CROSS_COMPILE),)
tools:
	for d in $(TOOL_DIRS); do $(MAKE) -C $$d || exit; done
else
# Only the sources are copied (their folders too, as cli/tracers/; not
# tests/): objects built for the host in tools/ must not look up to date
# there.  The copies are made anew, their times kept, so that a source
# removed since leaves nothing and the objects of the others stay.
TOOLS_BUILD := $(BUILD)/tools-$(ARCH)
tools:
	@test -n "$(ARCH)" || { echo "CROSS_COMPILE needs ARCH" >&2; exit 1; }
	mkdir -p $(TOOLS_BUILD)/debian $(addprefix $(TOOLS_BUILD)/,$(TOOL_DIRS) tools/lib)
	cp -p version.mk $(TOOLS_BUILD)/
	cp -p debian/changelog $(TOOLS_BUILD)/debian/
	cp -p tools/lib/*.mk $(TOOLS_BUILD)/tools/lib/
	for d in tools/lib $(TOOL_DIRS); do \
		find $(TOOLS_BUILD)/$$d -name '*.[ch]' -delete && \
		(cd $$d && cp -p --parents Makefile \
			$$(find . -path ./tests -prune -o -name '*.[ch]' -print) \
			$(abspath $(TOOLS_BUILD))/$$d/) || exit; done
	for d in $(TOOL_DIRS); do \
		$(MAKE) -C $(TOOLS_BUILD)/$$d CC=$(CROSS_COMPILE)gcc || exit; done
endif

# The kselftest framework comes from Debian's linux-source-6.1; our tests
# are built inside a copy of it, as they would be in a kernel tree.  They
# are the same for every kernel of an architecture: built again only when
# a file of selftests/ (the module's sources with it), the framework's
# or this Makefile is newer than the last build (KSFT_STAMP, beside the
# installed tests, not in their archive), or the installed tests are gone.
KSFT_STAMP := $(KSFT_INSTALL).built
KSFT_DEPS := $(shell find -L selftests -type f 2>/dev/null) Makefile \
	$(wildcard $(KSFT_SRC)/lib.mk $(KSFT_SRC)/kselftest_harness.h \
		$(KSFT_SRC)/run_kselftest.sh) \
	$(if $(wildcard $(KSFT_INSTALL)/run_kselftest.sh),,FORCE)

selftests:
	tools/kernel-files $(BUILD)
	@$(MAKE) --no-print-directory $(KSFT_STAMP)

$(KSFT_STAMP): $(KSFT_DEPS)
	rm -rf $(KSFT_SRC)/lttng_calibrate $(KSFT_INSTALL) $@
	cp -rL selftests $(KSFT_SRC)/lttng_calibrate
	$(MAKE) -C $(KSFT_SRC) TARGETS=lttng_calibrate \
		INSTALL_PATH=$(KSFT_INSTALL)$(KSFT_LDFLAGS:%= LDFLAGS=%) install
	touch $@

FORCE:

man:
	$(MAKE) -C $(MAN_DIR) O=$(BUILD)/man

install: install-module install-tools

# With DESTDIR (a package's staging tree) the module goes under
# $(DESTDIR)/lib/modules/KVER and depmod is left to the package's
# installation.
install-module: module
	$(MAKE) -C $(KDIR) M=$(MODDIR) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(abspath $(DESTDIR))) \
		modules_install
	$(if $(DESTDIR),,depmod $(KVER))

install-tools: tools man
	for d in $(TOOL_DIRS); do \
		$(MAKE) -C $$d install PREFIX=$(PREFIX) || exit; done
	$(MAKE) -C $(MAN_DIR) O=$(BUILD)/man MANDIR=$(MANDIR) \
		PAGES="$(INSTALL_PAGES)" install
	install -D -m 644 $(COMPLETION) \
		$(DESTDIR)$(COMPLETIONSDIR)/$(firstword $(COMMANDS))
	for c in $(wordlist 2,$(words $(COMMANDS)),$(COMMANDS)); do \
		ln -sf $(firstword $(COMMANDS)) $(DESTDIR)$(COMPLETIONSDIR)/$$c \
			|| exit; done

uninstall: uninstall-tools uninstall-module

# The module as modules_install names it, compressed or not.
uninstall-module:
	rm -f $(addprefix $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/, \
		lttng_calibrate.ko lttng_calibrate.ko.gz lttng_calibrate.ko.xz \
		lttng_calibrate.ko.zst)
	$(if $(DESTDIR),,! test -d /lib/modules/$(KVER) || depmod $(KVER))

uninstall-tools:
	for d in $(TOOL_DIRS); do \
		$(MAKE) -C $$d uninstall PREFIX=$(PREFIX) || exit; done
	$(MAKE) -C $(MAN_DIR) MANDIR=$(MANDIR) PAGES="$(INSTALL_PAGES)" \
		uninstall
	for c in $(COMMANDS); do rm -f $(DESTDIR)$(COMPLETIONSDIR)/$$c; done

# The sources DKMS builds are copied, so the tree can change meanwhile.
# DKMS_KVERS: the kernels to build for (default: every one with headers).
DKMS_KVERS ?= $(shell tools/kver --list)

# dkms.conf's PACKAGE_VERSION is "#MODULE_VERSION#" in git, the placeholder
# dh_dkms fills in for the package; this fills it in the same way.
install-dkms-source:
	install -d $(DESTDIR)$(DKMS_SRC)
	install -m 644 $(MODULE_FILES) $(DESTDIR)$(DKMS_SRC)/
	sed 's/#MODULE_VERSION#/$(DKMS_VERSION)/' dkms.conf \
		>$(DESTDIR)$(DKMS_SRC)/dkms.conf

dkms: dkms-remove
	tools/install-deps dkms python3-docutils
	$(MAKE) install-dkms-source DESTDIR=
	dkms add $(DKMS_NAME)/$(DKMS_VERSION)
	for k in $(DKMS_KVERS); do \
		dkms build $(DKMS_NAME)/$(DKMS_VERSION) -k $$k && \
		dkms install $(DKMS_NAME)/$(DKMS_VERSION) -k $$k || exit; \
	done
	$(MAKE) -C $(MAN_DIR) O=$(BUILD)/man MANDIR=$(MANDIR) \
		PAGES=lttng_calibrate.7 install

dkms-remove:
	! command -v dkms >/dev/null || \
		! dkms status $(DKMS_NAME)/$(DKMS_VERSION) | grep -q . || \
		dkms remove $(DKMS_NAME)/$(DKMS_VERSION) --all
	rm -rf $(DKMS_SRC)
	$(MAKE) -C $(MAN_DIR) MANDIR=$(MANDIR) PAGES=lttng_calibrate.7 uninstall

# What kernel CI labs (KernelCI, LKFT) run: run_kselftest.sh,
# kselftest-list.txt, the tests with their settings and config, and the
# module and the test PMU built for KVER, which the tests load when they
# are not loaded yet.
KSFT_TARBALL := $(BUILD)/kselftest-lttng_calibrate-$(KVER).tar.gz

kselftest-tarball: selftests module test-pmu
	cp $(MODDIR)/lttng_calibrate.ko \
		$(TEST_PMU_DIR)/lttng_calibrate_test_pmu.ko \
		$(KSFT_INSTALL)/lttng_calibrate/
	tar -C $(KSFT_INSTALL) -czf $(KSFT_TARBALL) .
	@echo $(KSFT_TARBALL)

check:
	tools/testing/run-tests

clean: clean-tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -f lttng_calibrate.ko

# All but the kernel's clean, which needs headers: the package's clean.
clean-tools:
	for d in $(TOOL_DIRS); do $(MAKE) -C $$d clean; done
	rm -rf $(BUILD)
