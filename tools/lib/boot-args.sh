# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel command line a kernel of the matrix needs beyond the console,
# for every path that boots one (tools/lttng-calibrate-vm, the LAVA jobs
# of lava/kselftest-job).  Sourced, never run:
#
#   boot_args CONFIG          the arguments the kernel built with CONFIG
#                             (its /boot/config-KVER) needs, on one line;
#                             nothing for most kernels
#
# A KASAN kernel (tools/build-debug-kernel's) boots with 4-level paging:
# identify_cpu() clears the boot CPU's feature bits and sets them again,
# and an interrupt in between finds KASAN judging a 5-level direct-map
# address "wild" (a false report, "BUG: KASAN: wild-memory-access in
# do_raw_spin_lock" from handle_edge_irq, seen on 7.2 under -cpu max:
# pgtable_l5_enabled() reads X86_FEATURE_LA57).  And with PCI interrupt
# routing without ACPI, whose _PRT methods time out twice (60 s) under
# KASAN.

boot_args() {
	if grep -qx 'CONFIG_KASAN=y' "$1" 2>/dev/null; then
		echo "no5lvl pci=noacpi"
	fi
}
