// SPDX-License-Identifier: GPL-2.0
/*
 * A bench row's description (bench-schema.h): the names of its statuses,
 * of its fields and of their units.
 */
#include <string.h>

#include "bench-schema.h"

static const char *const lc_bench_status_names[LC_BENCH_NR_STATUS] = {
	[LC_BENCH_OK] = "ok",
	[LC_BENCH_LOST] = "lost",
	[LC_BENCH_UNAVAILABLE] = "unavailable",
	[LC_BENCH_FAILED] = "failed",
};

const char *const lc_bench_field_names[LC_BENCH_NR_FIELDS] = {
	[LC_BENCH_F_MECHANISM] = "mechanism",
	[LC_BENCH_F_STATUS] = "status",
	[LC_BENCH_F_REASON] = "reason",
	[LC_BENCH_F_OVERHEAD_CYCLES] = "overhead_cycles",
	[LC_BENCH_F_CI95_CYCLES] = "ci95_cycles",
	[LC_BENCH_F_STDDEV_CYCLES] = "stddev_cycles",
	[LC_BENCH_F_OVERHEAD_NS] = "overhead_ns",
	[LC_BENCH_F_CI95_NS] = "ci95_ns",
	[LC_BENCH_F_MEDIAN_CYCLES] = "median_cycles",
	[LC_BENCH_F_SAMPLES] = "samples",
	[LC_BENCH_F_PER_KPROBE] = "per_kprobe",
	[LC_BENCH_F_EVENTS_EXPECTED] = "events_expected",
	[LC_BENCH_F_EVENTS_RECORDED] = "events_recorded",
};

/* "" for a field without a unit: a name, a ratio. */
const char *const lc_bench_field_units[LC_BENCH_NR_FIELDS] = {
	[LC_BENCH_F_MECHANISM] = "",
	[LC_BENCH_F_STATUS] = "",
	[LC_BENCH_F_REASON] = "",
	[LC_BENCH_F_OVERHEAD_CYCLES] = "cycles",
	[LC_BENCH_F_CI95_CYCLES] = "cycles",
	[LC_BENCH_F_STDDEV_CYCLES] = "cycles",
	[LC_BENCH_F_OVERHEAD_NS] = "ns",
	[LC_BENCH_F_CI95_NS] = "ns",
	[LC_BENCH_F_MEDIAN_CYCLES] = "cycles",
	[LC_BENCH_F_SAMPLES] = "calls",
	[LC_BENCH_F_PER_KPROBE] = "",
	[LC_BENCH_F_EVENTS_EXPECTED] = "events",
	[LC_BENCH_F_EVENTS_RECORDED] = "events",
};

/**
 * lc_bench_status_name() - the name of a status in every output
 * @status: the status
 *
 * Return: "ok", "lost", "unavailable" or "failed".
 */
const char *lc_bench_status_name(enum lc_bench_status status)
{
	return lc_bench_status_names[status];
}

/**
 * lc_bench_status_parse() - a status from its name
 * @name: "ok", "lost", "unavailable" or "failed"
 * @status: where to put it
 *
 * Return: 0, or -1 when @name is none of them.
 */
int lc_bench_status_parse(const char *name, enum lc_bench_status *status)
{
	int s;

	for (s = LC_BENCH_OK; s < LC_BENCH_NR_STATUS; s++)
		if (!strcmp(name, lc_bench_status_names[s])) {
			*status = s;
			return 0;
		}
	return -1;
}
