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

/* In the order of enum lc_bench_field, the JSON and CSV order. */
const char *const lc_bench_field_names[LC_BENCH_NR_FIELDS] = {
	"mechanism", "status", "reason", "overhead_cycles", "ci95_cycles",
	"stddev_cycles", "overhead_ns", "ci95_ns", "median_cycles",
	"samples", "per_kprobe", "events_expected", "events_recorded",
};

/* The same order; "" for a field without a unit. */
const char *const lc_bench_field_units[LC_BENCH_NR_FIELDS] = {
	"", "", "", "cycles", "cycles", "cycles", "ns", "ns", "cycles",
	"calls", "", "events", "events",
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
