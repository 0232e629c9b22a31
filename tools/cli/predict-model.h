/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate predict's cost model: a workload's runs, untraced and
 * traced, and the bench's cost of one event, made into each
 * configuration's predicted and measured overhead.  Pure arithmetic over
 * the figures (predict-model.c): no kernel, no tracer, no output, so that
 * tests/predict-model-test.c drives it without a guest.  Calls
 * ../lib/stats.c only.
 */
#ifndef LTTNG_CALIBRATE_CLI_PREDICT_MODEL_H
#define LTTNG_CALIBRATE_CLI_PREDICT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "formats.h"	/* the bench's rows, for the cost */

#define LC_PREDICT_MAX_RUNS	1000
#define LC_PREDICT_NAME_MAX	96
#define LC_PREDICT_CONFIDENCE	95.0
#define LC_PREDICT_MAX_ROWS	16

struct lc_predict_tracer;

/**
 * struct lc_predict_runs - what N runs of the command measured
 * @cpu_ns: CPU time of the command and its children, per run
 * @events: events recorded, per run
 * @lost: events lost, per run
 * @throughput: throughput printed, per run (NaN when none)
 * @nr: runs done
 */
struct lc_predict_runs {
	double cpu_ns[LC_PREDICT_MAX_RUNS];
	double events[LC_PREDICT_MAX_RUNS];
	double lost[LC_PREDICT_MAX_RUNS];
	double throughput[LC_PREDICT_MAX_RUNS];
	size_t nr;
};

/**
 * struct lc_predict_row - one configuration's figures
 * @name: the configuration ("ftrace-syscalls-sched")
 * @tracer: how it traces
 * @status: LC_BENCH_OK, LC_BENCH_UNAVAILABLE or LC_BENCH_FAILED
 * @reason: why it is not ok
 * @runs: its traced runs
 * @cost_cycles: cost of one event (0 when it records none)
 * @cost_ci95: half-width of its 95 % interval
 * @cost_basis: the bench rows it comes from
 */
struct lc_predict_row {
	char name[LC_PREDICT_NAME_MAX];
	const struct lc_predict_tracer *tracer;
	enum lc_bench_status status;
	char reason[LC_BENCH_REASON_MAX];
	struct lc_predict_runs runs;
	double cost_cycles;
	double cost_ci95;
	char cost_basis[64];
};

/**
 * struct lc_predict - the whole prediction
 * @kernel: uname -r
 * @command: the command, its words joined by spaces
 * @clock: the module's clock, and its frequency in kHz
 * @clock_khz: see @clock
 * @cpu_time: how CPU time is measured: "cgroup", or "getrusage" and why
 * @per_work: every run printed a throughput: figures are scaled to the
 *	untraced runs' work (lc_pr_scale())
 * @base_throughput: the untraced runs' mean throughput
 * @base: the untraced runs
 * @rows: one per configuration
 * @nr: how many
 */
struct lc_predict {
	char kernel[LC_BENCH_TEXT_MAX];
	char command[1024];
	char clock[LC_BENCH_NAME_MAX];
	long long clock_khz;
	char cpu_time[192];
	bool per_work;
	double base_throughput;
	struct lc_predict_runs base;
	struct lc_predict_row rows[LC_PREDICT_MAX_ROWS];
	size_t nr;
};

/**
 * struct lc_predict_fig - a row's figures, computed from its runs
 * @events: events per run
 * @lost: events lost per run
 * @predicted: predicted overhead per run, cycles
 * @predicted_ci95: its interval's half-width, from the cost's
 * @measured: traced minus untraced CPU time per run, cycles (Welch)
 * @measured_ci95: its interval's half-width
 * @measured_cost: @measured over the events per run (scaled as it is):
 *	what one event cost in this workload, cycles (NaN without events)
 * @base: untraced CPU time per run, cycles
 * @explained: @predicted over @measured
 * @agree: they agree within their intervals
 * @throughput: mean throughput of the traced runs (NaN when none)
 */
struct lc_predict_fig {
	double events;
	double lost;
	double predicted;
	double predicted_ci95;
	double measured;
	double measured_ci95;
	double measured_cost;
	double base;
	double explained;
	bool agree;
	double throughput;
};

/**
 * struct lc_predict_shown - a row's figures as every output shows them
 * @ok: the row is ok: the figures are set (zero otherwise)
 * @fig: its figures
 * @predicted_percent: @fig.predicted in percent of @fig.base
 * @predicted_ci95_percent: its half-width, the same way
 * @measured_percent: @fig.measured in percent of @fig.base
 * @measured_ci95_percent: its half-width, the same way
 */
struct lc_predict_shown {
	bool ok;
	struct lc_predict_fig fig;
	double predicted_percent;
	double predicted_ci95_percent;
	double measured_percent;
	double measured_ci95_percent;
};

/**
 * struct lc_predict_report - a prediction's figures, computed once
 *	(lc_predict_report()) and then printed in any format
 * @base_ns: the untraced runs' mean CPU time, ns
 * @base_cycles: the same, in cycles of the module's clock
 * @throughput: the untraced runs' mean throughput (NaN when none)
 * @rows: each row's, in the order of the prediction's
 */
struct lc_predict_report {
	double base_ns;
	double base_cycles;
	double throughput;
	struct lc_predict_shown rows[LC_PREDICT_MAX_ROWS];
};

double lc_predict_cycles(const struct lc_predict *p, double ns);
double lc_predict_mean(const double *v, size_t n);
double lc_predict_percent(double v, double base);
void lc_predict_figures(const struct lc_predict *p,
			const struct lc_predict_row *row,
			struct lc_predict_fig *f);
double lc_predict_base_throughput(const struct lc_predict *p);
void lc_predict_work(struct lc_predict *p);
void lc_predict_report(const struct lc_predict *p,
		       struct lc_predict_report *r);
void lc_predict_cost(struct lc_predict_row *row, const char *cost,
		     const struct lc_bench *b);

#endif /* LTTNG_CALIBRATE_CLI_PREDICT_MODEL_H */
