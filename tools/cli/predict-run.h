/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict's runs of the workload (predict-run.c), as
 * predict.c drives them.  Calls predict-tracers.c (through struct
 * lc_predict_tracer), tracers.c and tools/lib (cgroup.c, proc.c).
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_RUN_H
#define LTTNG_CALIBRATE_CLI_PREDICT_RUN_H

#include "predict-model.h"
#include "predict.h"

void lc_predict_cgroup_make(struct lc_predict_ctx *pc, char *cpu_time,
			    size_t len);
int lc_predict_runs(struct lc_predict_ctx *pc, char **argv,
		    unsigned long long runs, const struct lc_predict_tracer *t,
		    struct lc_predict_runs *r, char *why, size_t len);
int lc_predict_cgroup_remove(struct lc_predict_ctx *pc);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_RUN_H */
