// SPDX-License-Identifier: GPL-2.0
/*
 * gen-events N [CPUS]: print N events (N / 2 pairs) of babeltrace2 text,
 * in the fixture's format, round-robin over CPUS CPUs (default 4),
 * starting 2 s before midnight so that the time of day wraps.
 *
 * Pair i: time delta 1000 + 10 * (i % 3) ns, perf_cpu_cpu_clock delta
 * 100 * (1 + i % 3), perf_cpu_page_fault delta i % 2. Every 1000th
 * event is a sched_switch in between (not counted in N).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_DAY (86400ULL * NSEC_PER_SEC)

static void line(uint64_t ns, const char *name, unsigned int cpu,
		 uint64_t clock, uint64_t faults)
{
	uint64_t t = ns % NSEC_PER_DAY, s = t / NSEC_PER_SEC;

	printf("[%02u:%02u:%02u.%09u] (+0.000001000) (none) %s: { cpu_id = %u }, "
	       "{ perf_cpu_cpu_clock = %llu, perf_cpu_page_fault = %llu }, "
	       "{ ip = 0xFFFFFFFFC02F8000, parent_ip = 0xFFFFFFFFC02F845A }\n",
	       (unsigned int)(s / 3600), (unsigned int)(s / 60 % 60),
	       (unsigned int)(s % 60), (unsigned int)(t % NSEC_PER_SEC), name,
	       cpu, (unsigned long long)clock, (unsigned long long)faults);
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	uint64_t n, ns = NSEC_PER_DAY - 2 * NSEC_PER_SEC, clock = 1000000;
	uint64_t faults = 0;
	unsigned int cpus;

	if (argc < 2 || argc > 3) {
		fputs("usage: gen-events N [CPUS]\n", stderr);
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	cpus = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 4;
	if (!cpus)
		cpus = 1;
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	for (uint64_t i = 0; i < n / 2; i++) {
		unsigned int cpu = (unsigned int)(i % cpus);

		line(ns, "calibrate_entry", cpu, clock, faults);
		ns += 1000 + 10 * (i % 3);
		clock += 100 * (1 + i % 3);
		faults += i % 2;
		line(ns, "calibrate_exit", cpu, clock, faults);
		ns += 700;
		clock += 700;
		if (i % 500 == 499)
			line(ns, "sched_switch", cpu, clock, faults);
	}
	return fflush(stdout) ? 1 : 0;
}
