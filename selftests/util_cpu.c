// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hot-plug, and the calling thread's affinity.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "lttng_calibrate_util.h"

/**
 * cpu_online_set() - take a CPU offline or bring it back
 * @cpu: the CPU
 * @online: 1 to bring it online, 0 to take it offline
 *
 * Return: 0, or the errno of the write.
 */
int cpu_online_set(int cpu, int online)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return write_str(path, online ? "1" : "0");
}

/**
 * pin_cpu() - bind the calling thread to one CPU
 * @cpu: the CPU
 *
 * unpin() lets it run anywhere again.
 *
 * Return: 0, or the errno of sched_setaffinity().
 */
int pin_cpu(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? errno : 0;
}

/**
 * unpin() - let the calling thread run on any CPU
 */
void unpin(void)
{
	cpu_set_t all;
	long c, n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&all);
	for (c = 0; c < n; c++)
		CPU_SET(c, &all);
	sched_setaffinity(0, sizeof(all), &all);
}
