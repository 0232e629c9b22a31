# SPDX-License-Identifier: GPL-2.0
#
# The test command's stages as make targets, for "make -jN" to schedule
# (tools/testing/run-tests gives the variables, which stages.txt's matrix
# of stages and kernels makes, and the job count; each recipe is
# tools/testing/run-stage, which writes the stage's TAP and never fails).
#
#   HOST_LANES  the host stages, a lane per word, its stages joined by
#               commas (package,lint,lib,stats,cli compare,series,trace):
#               a lane's stages one after the other, lanes side by side
#   MAN         "man" when asked: after every host lane, for it builds
#               every command's directory (make install-tools)
#   CHAINS      a word per kernel (and one per stage that runs on its
#               own: an arm64 kernel's dkms, series-vm, lava), its
#               stages as STAGE@KVER joined by commas, the longest first: a
#               kernel's stages one after the other (they install into
#               that kernel's module tree), after every host stage and
#               the commands' build (prepare); kernels side by side
#   DEBUG       "debug" when the debug kernel's stages are asked: its
#               build (debug-kernel) comes first, and its stages, whose
#               KVER is "debug", after it
#   DEBUG_SLOT  "debug-kernel-slot" when jobs > 1: the debug kernel's
#               build is "make -j2", two of the jobs; this target holds
#               the second until the build ends
#   LAST        package-vm, lab, series-kernel, series-lttng, series-null,
#               series-wallclock (those
#               asked).  lab's guests boot LAVA's ramdisk, not the host's
#               root: it runs once the commands are built, as soon as a
#               job is free of every kernel's chain (last in the order
#               below), side by side with the chains still running.
#               package-vm installs packages on the host every guest
#               shares: after every other stage but the series, which
#               come after it
#   LAST_KVERS  the kernels the last stages run on; JOBS, their guests
#               side by side
#
# make walks the prerequisites of "all" in order each time a job ends and
# starts the first ones ready: the order below is the priority.

comma := ,
# A stage is no sub-make of this one: its makes (kbuild's among them) run
# as from the shell, with jobs of their own.
run := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL tools/testing/run-stage
lanes := $(subst $(comma), ,$(HOST_LANES))
host := $(lanes) $(MAN)
kernel := $(subst $(comma), ,$(CHAINS))
debug_build := $(if $(DEBUG),debug-kernel)

all: $(debug_build) $(host) $(DEBUG_SLOT) $(kernel) $(LAST)

# chain TARGET...: each target after the one before it.
chain = $(if $(word 2,$1),$(eval $(word 2,$1): $(word 1,$1))$(call chain,$(wordlist 2,$(words $1),$1)))
$(foreach l,$(HOST_LANES),$(call chain,$(subst $(comma), ,$(l))))
$(foreach c,$(CHAINS),$(call chain,$(subst $(comma), ,$(c))))

$(MAN): $(lanes)

ifneq ($(kernel),)
firsts := $(foreach c,$(CHAINS),$(firstword $(subst $(comma), ,$(c))))
$(firsts): prepare
$(filter %@debug,$(firsts)): $(debug_build)
prepare: $(host)
endif

lab: $(host) $(debug_build) $(if $(kernel),prepare)
package-vm $(filter series-%,$(LAST)): $(host) $(kernel)
ifneq ($(filter lab,$(LAST)),)
package-vm: lab
endif
ifneq ($(filter package-vm,$(LAST)),)
$(filter series-%,$(LAST)): package-vm
endif

$(debug_build) prepare $(host):
	@$(run) $@

$(kernel):
	@$(run) $(subst @, ,$@)

$(DEBUG_SLOT):
	@while [ ! -s build/tap/debug-kernel.rc ]; do sleep 1; done

$(LAST):
	@$(run) $@ --jobs $(JOBS) $(LAST_KVERS)

.PHONY: all $(debug_build) prepare $(host) $(kernel) $(DEBUG_SLOT) $(LAST)
