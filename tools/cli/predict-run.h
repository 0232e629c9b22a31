/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict's runs of the workload (predict-run.c), as
 * predict.c drives them.  Calls the tracers' layer (tracers.h: a
 * configuration through its struct lc_predict_tracer) and tools/lib
 * (cgroup.c, proc.c).
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_RUN_H
#define LTTNG_CALIBRATE_CLI_PREDICT_RUN_H

#include "../lib/cgroup.h"
#include "predict-model.h"
#include "tracers.h"

/**
 * struct lc_predict_ctx - what predict keeps while it runs the workload
 * @tracer: the tracers' state: the scratch directory, tracefs, the event
 *	set, what the configurations changed
 * @cgroup: the cgroup the command runs in
 */
struct lc_predict_ctx {
	struct lc_tracer_ctx tracer;
	struct lc_cgroup cgroup;
};

void lc_predict_cgroup_make(struct lc_predict_ctx *pc, char *cpu_time,
			    size_t len);
int lc_predict_runs(struct lc_predict_ctx *pc, char **argv,
		    unsigned long long runs, const struct lc_predict_tracer *t,
		    struct lc_predict_runs *r, char *why, size_t len);
int lc_predict_cgroup_remove(struct lc_predict_ctx *pc);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_RUN_H */
