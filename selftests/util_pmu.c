// SPDX-License-Identifier: GPL-2.0
/*
 * The test PMU (lttng_calibrate_test_pmu.ko, selftests/module/), and what
 * the machine's own PMU counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "lttng_calibrate_util.h"

/**
 * test_pmu_type() - the test PMU's perf type number
 *
 * Return: the number, or -1 when it is not loaded.
 */
int test_pmu_type(void)
{
	char *text = lc_read_file(TEST_PMU_DIR "type", NULL);
	int type = text ? atoi(text) : -1;

	free(text);
	return type;
}

/**
 * test_pmu_load() - load the test PMU, after unloading an earlier copy
 * @params: its parameters ("counters=1"), "" for none
 *
 * $LTTNG_CALIBRATE_TEST_PMU_KO, else beside the test program or in its
 * module/, else modprobe.
 *
 * Return: its type number, or -1.
 */
int test_pmu_load(const char *params)
{
	syscall(__NR_delete_module, TEST_PMU_MODULE, O_NONBLOCK);
	load_module(TEST_PMU_MODULE, "LTTNG_CALIBRATE_TEST_PMU_KO", params);
	return test_pmu_type();
}

/**
 * test_pmu_unload() - unload the test PMU
 *
 * Return: 0, or the errno of delete_module().
 */
int test_pmu_unload(void)
{
	return syscall(__NR_delete_module, TEST_PMU_MODULE, O_NONBLOCK) ?
	       errno : 0;
}

/**
 * test_pmu_event() - a counters list word for an event of the test PMU
 * @buf: the word
 * @size: room in @buf
 * @type: the test PMU's type number
 * @alias: the event's name
 * @code: its event=@code
 * @more: ":CONFIG1[:CONFIG2]" after the code, "" for none
 *
 * Named as lttng-calibrate names it: "lttng_calibrate_test/ALIAS/=TYPE:CODE".
 *
 * Return: @buf.
 */
const char *test_pmu_event(char *buf, size_t size, int type,
			   const char *alias, int code, const char *more)
{
	snprintf(buf, size, TEST_PMU "/%s/=%d:0x%x%s", alias, type, code,
		 more);
	return buf;
}

/**
 * tsc_per_cycle() - counts of the test PMU's tsc event per cycle of a run
 * @kv: the run's results_kv
 *
 * From its events/tsc.scale (ns per count, as perf reads it) and the run's
 * clock.khz: 1 on x86, where the clock is the TSC; on arm64 the clock is
 * the CPU's cycle counter and tsc the generic timer's.
 *
 * Return: the ratio, or NAN when either is missing.
 */
double tsc_per_cycle(const char *kv)
{
	char *text = lc_read_file(TEST_PMU_DIR "events/tsc.scale", NULL);
	double scale = text ? strtod(text, NULL) : 0;
	double khz = lc_kv_double(kv, "clock.khz", 0);

	free(text);
	if (!(scale > 0) || !(khz > 0))
		return NAN;
	return 1e6 / (scale * khz);
}

/**
 * perf_event_answer() - what the kernel answers to a counting event
 * @type: its perf type
 * @config: its config
 *
 * Opened on CPU 0 as lttng_calibrate opens its counters (CPU-wide,
 * pinned).  Perf hands a hardware event to the CPU's PMU, whatever its
 * driver and name (cpu or cpu_core on x86, armv8_pmuv3 on arm64), so this
 * tells what the machine's PMU counts on any architecture.
 *
 * Return: 0 when it opens, else its errno.
 */
int perf_event_answer(__u32 type, __u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
		.disabled = 1,
	};
	long fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/**
 * pmu_present() - whether the machine has a PMU that counts
 *
 * Cycles or instructions: not x86 under QEMU TCG, which has none; arm64
 * under TCG has one (cycles, and instructions under -icount).
 *
 * Return: true when it counts either.
 */
bool pmu_present(void)
{
	return !perf_event_answer(PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_CPU_CYCLES) ||
	       !perf_event_answer(PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS);
}
