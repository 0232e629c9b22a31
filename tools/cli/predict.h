/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict, the command, as main.c calls it.  Calls go one
 * way, down:
 *
 *   predict.c          the command line and its steps; the costs of
 *                      the bench's rows (mechanisms.h)
 *   predict-run.c      the runs of the workload, in a cgroup of its own
 *   predict-format.c   the rows printed, through the output layer
 *   predict-model.c    the cost model (predict-model.h)
 *   tracers.h          the tracers' layer under both commands: every
 *                      tracer's configurations (struct
 *                      lc_predict_tracer), each one's set-up, start and
 *                      stop around one run, its events counted, its
 *                      teardown
 *
 * No file of predict calls a file of the bench's command (bench.c).
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_H
#define LTTNG_CALIBRATE_CLI_PREDICT_H

/* predict.c: the subcommand. */
int lc_predict_main(int argc, char **argv);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_H */
