/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bench's measurement of the tracers' rows, which both commands run:
 * lttng-calibrate bench prints the rows; predict takes the cost of one
 * event from some.  Calls go one way, down:
 *
 *   bench.c, predict.c  the commands: lc_mechanisms_measure()
 *   mechanisms.c        one row's run, set up and counted through its
 *                       tracer's struct lc_bench_mech, the module's
 *                       settings put back after each; the rows' figures
 *                       in struct lc_bench (formats.h)
 *   tracers.h           the tracers' layer below: every tracer's rows,
 *                       in order (lc_mechanisms[]), and what they share
 */
#ifndef LTTNG_CALIBRATE_CLI_MECHANISMS_H
#define LTTNG_CALIBRATE_CLI_MECHANISMS_H

#include "formats.h"
#include "tracers.h"

/* mechanisms.c: the rows measured */
int lc_mechanisms_listed(const char *list, const char *name);
int lc_mechanisms_measure(const char *only, unsigned long long n,
			  struct lc_bench *b);

#endif /* LTTNG_CALIBRATE_CLI_MECHANISMS_H */
