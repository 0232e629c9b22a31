/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --counters in perf's PMU event syntax: PMU/TERMS/ translated through
 * sysfs, the way perf's tools/perf/util/pmu.c encodes an event, into the
 * module's generic form [NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]].
 */
#ifndef LTTNG_CALIBRATE_CLI_PMU_EVENT_H
#define LTTNG_CALIBRATE_CLI_PMU_EVENT_H

#include <stddef.h>

/* Where sysfs is mounted; the tests give a fixture tree instead. */
#define LC_PMU_SYSFS		"/sys"
/* The PMUs, relative to the sysfs root. */
#define LC_PMU_DEVICES		"bus/event_source/devices"
/* The module's longest counter name (its name buffer holds 48 bytes). */
#define LC_PMU_NAME_MAX		47
/* Room for one translated event: NAME=TYPE and three config words. */
#define LC_PMU_EVENT_MAX	128
/* Room for an error message; a longer one is cut. */
#define LC_PMU_ERR_MAX		1024

int lc_pmu_translate_event(const char *sysfs, const char *event, char *out,
			   size_t out_size, char *err, size_t err_size);
char *lc_pmu_translate_list(const char *sysfs, const char *list, char *err,
			    size_t err_size);

#endif /* LTTNG_CALIBRATE_CLI_PMU_EVENT_H */
