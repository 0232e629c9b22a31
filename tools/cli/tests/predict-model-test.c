// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of predict-model.c, predict's cost model, without the module,
 * a tracer or root: figures made up so that the answer is known, the
 * scaling to work done, and a row's cost taken from the bench's rows.
 * "ok - ..." lines (tap.h); run-tests.sh numbers them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../predict-model.h"
#include "../../lib/tap.h"

static struct lc_predict p;

/* @n runs of @cpu_ns each, @events each, with a throughput or NaN. */
static void runs(struct lc_predict_runs *r, size_t n, const double *cpu_ns,
		 double events, double throughput)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		r->cpu_ns[i] = cpu_ns[i];
		r->events[i] = events;
		r->throughput[i] = throughput;
	}
	r->nr = n;
}

/*
 * 1 GHz: a cycle a ns.  Untraced 1,000,000 ns a run; traced 1,100,000:
 * 100,000 cycles more, for 1000 events of 100 cycles: all explained.
 */
static void test_explained(void)
{
	static const double base[] = { 999000, 1001000, 1000000, 998000,
				       1002000 };
	static const double traced[] = { 1099000, 1101000, 1100000, 1098000,
					 1102000 };
	struct lc_predict_row *row = &p.rows[0];
	struct lc_predict_fig f;

	memset(&p, 0, sizeof(p));
	p.clock_khz = 1000000;
	runs(&p.base, 5, base, 0, NAN);
	row->status = LC_BENCH_OK;
	runs(&row->runs, 5, traced, 1000, NAN);
	row->cost_cycles = 100;
	row->cost_ci95 = 2;
	p.nr = 1;
	lc_predict_work(&p);
	tap_check(!p.per_work, "no throughput printed: figures not scaled");
	lc_predict_figures(&p, row, &f);
	tap_near(f.events, 1000, 1e-9, "events per run: their mean");
	tap_near(f.predicted, 100000, 1e-6, "predicted: events x cost");
	tap_near(f.predicted_ci95, 2000, 1e-6,
		 "predicted interval: events x the cost's");
	tap_near(f.base, 1000000, 1e-6, "untraced: the mean CPU time in cycles");
	tap_near(f.measured, 100000, 1e-6, "measured: traced minus untraced");
	tap_check(f.measured_ci95 > 0 && f.measured_ci95 < 5000,
		  "measured interval: Welch's, small for these runs (%g)",
		  f.measured_ci95);
	tap_near(f.explained, 1, 1e-9, "explained: predicted / measured");
	tap_near(f.measured_cost, 100, 1e-6,
		 "measured cost: measured over the events");
	tap_check(f.agree, "predicted and measured agree");
	tap_near(lc_predict_percent(f.predicted, f.base), 10, 1e-9,
		 "predicted: 10%% of the untraced CPU time");
	tap_check(isnan(f.throughput), "no throughput: NaN");
	row->cost_cycles = 10;
	row->cost_ci95 = 0;
	lc_predict_figures(&p, row, &f);
	tap_near(f.explained, 0.1, 1e-9, "a tenth explained");
	tap_check(!f.agree, "a prediction ten times too small disagrees");
}

/*
 * The prediction's interval counts the spread of the events per run, and
 * agreement is the difference inside its own interval: the half-widths
 * in quadrature, not added.
 */
static void test_interval(void)
{
	static const double base[] = { 1000000, 1000000, 1000000, 1000000 };
	static const double traced[] = { 1100000, 1100000, 1100000, 1100000 };
	static const double events[] = { 900, 1100, 950, 1050 };
	static const double base5[] = { 999000, 1001000, 1000000, 998000,
					1002000 };
	static const double traced5[] = { 1099000, 1101000, 1100000, 1098000,
					  1102000 };
	struct lc_predict_row *row = &p.rows[0];
	struct lc_predict_fig f;
	double t3 = 3.182446305284263; /* Student's t, 97.5 %, 3 df */
	double sd = sqrt((100.0 * 100 + 100 * 100 + 50 * 50 + 50 * 50) / 3);
	double m;
	size_t i;

	memset(&p, 0, sizeof(p));
	p.clock_khz = 1000000;
	runs(&p.base, 4, base, 0, NAN);
	row->status = LC_BENCH_OK;
	runs(&row->runs, 4, traced, 0, NAN);
	for (i = 0; i < 4; i++)
		row->runs.events[i] = events[i];
	row->cost_cycles = 100;
	row->cost_ci95 = 3;
	p.nr = 1;
	lc_predict_work(&p);
	lc_predict_figures(&p, row, &f);
	tap_near(f.predicted_ci95, hypot(1000 * 3.0, t3 * sd / 2 * 100), 1e-6,
		 "predicted interval: the cost's and the events' spread, in quadrature");
	/*
	 * The same events every run: the cost's interval alone.  Measured
	 * with a spread (half-width m); the prediction's half-width made
	 * about m too.  Off by 0.95 of the two in quadrature, it agrees; off
	 * by 1.05, it does not, though less than their sum apart.
	 */
	runs(&p.base, 5, base5, 0, NAN);
	runs(&row->runs, 5, traced5, 1000, NAN);
	row->cost_ci95 = 0;
	lc_predict_figures(&p, row, &f);
	m = f.measured_ci95;
	row->cost_ci95 = m / 1000;
	lc_predict_figures(&p, row, &f);
	tap_near(f.predicted_ci95, m, 1e-6,
		 "the same events every run: the cost's interval alone");
	row->cost_cycles = 100 - 0.95 * hypot(m, m) / 1000;
	lc_predict_figures(&p, row, &f);
	tap_check(f.agree, "off by 0.95 of the half-widths in quadrature: agrees");
	row->cost_cycles = 100 - 1.05 * hypot(m, m) / 1000;
	lc_predict_figures(&p, row, &f);
	tap_check(!f.agree && fabs(f.measured - f.predicted) < 2 * m,
		  "off by 1.05 of them, less than their sum: disagrees");
}

/* 2 GHz: 2 cycles a ns; no runs: NaN, never a division by zero. */
static void test_units(void)
{
	memset(&p, 0, sizeof(p));
	p.clock_khz = 2000000;
	tap_near(lc_predict_cycles(&p, 1500), 3000, 1e-9,
		 "cycles: ns x kHz / 1e6");
	tap_check(isnan(lc_predict_mean(NULL, 0)), "mean of nothing: NaN");
	tap_check(isnan(lc_predict_percent(1, 0)),
		  "percent of nothing: NaN");
}

/* A row that records nothing: no cost of one event to measure. */
static void test_no_events(void)
{
	static const double cpu[] = { 1000000, 1000000 };
	struct lc_predict_fig f;

	memset(&p, 0, sizeof(p));
	p.clock_khz = 1000000;
	runs(&p.base, 2, cpu, 0, NAN);
	p.rows[0].status = LC_BENCH_OK;
	runs(&p.rows[0].runs, 2, cpu, 0, NAN);
	p.nr = 1;
	lc_predict_figures(&p, &p.rows[0], &f);
	tap_check(isnan(f.measured_cost),
		  "no events: no measured cost, never a division by zero");
}

/*
 * A command that runs for a fixed time and prints its throughput: traced,
 * it does half the work in the same CPU time; scaled to the untraced
 * work, its CPU time doubles, and its events count twice.
 */
static void test_per_work(void)
{
	static const double cpu[] = { 1000000, 1000000, 1000000 };
	static const double cpu2[] = { 1000001, 999999, 1000000 };
	struct lc_predict_row *row = &p.rows[0];
	struct lc_predict_fig f;

	memset(&p, 0, sizeof(p));
	p.clock_khz = 1000000;
	runs(&p.base, 3, cpu2, 0, 200);
	row->status = LC_BENCH_OK;
	runs(&row->runs, 3, cpu, 500, 100);
	row->cost_cycles = 2000;
	p.nr = 1;
	p.rows[1].status = LC_BENCH_UNAVAILABLE;
	p.nr = 2;
	lc_predict_work(&p);
	tap_check(p.per_work,
		  "every run measured printed a throughput: scaled to work");
	tap_near(p.base_throughput, 200, 1e-9, "untraced throughput: the mean");
	lc_predict_figures(&p, row, &f);
	tap_near(f.measured, 1000000, 1e-3,
		 "measured: the CPU time of the untraced work");
	tap_near(f.predicted, 2000000, 1e-6,
		 "predicted: the events of the untraced work");
	tap_near(f.measured_cost, 1000, 1e-3,
		 "measured cost: over the events of the untraced work");
	tap_near(f.throughput, 100, 1e-9, "traced throughput: the mean");
	runs(&row->runs, 3, cpu, 500, NAN);
	lc_predict_work(&p);
	tap_check(!p.per_work, "a traced run without one: not scaled");
}

static void test_cost(void)
{
	static struct lc_bench b;
	struct lc_predict_row row;
	struct lc_bench_row *r;

	memset(&b, 0, sizeof(b));
	r = lc_bench_add_row(&b, "payload-ftrace");
	r->measured = 1;
	r->overhead_cycles = 588;
	r->ci95_cycles = 0.5;
	r = lc_bench_add_row(&b, "payload-bpf");
	lc_bench_row_set(r, LC_BENCH_UNAVAILABLE, "no bpftrace");

	memset(&row, 0, sizeof(row));
	lc_predict_cost(&row, "payload-ftrace", &b);
	tap_check(row.status == LC_BENCH_OK && row.cost_cycles == 588 &&
		  row.cost_ci95 == 0.5 &&
		  !strcmp(row.cost_basis, "payload-ftrace"),
		  "cost: the bench row's overhead and interval");
	memset(&row, 0, sizeof(row));
	lc_predict_cost(&row, NULL, &b);
	tap_check(row.status == LC_BENCH_OK && row.cost_cycles == 0 &&
		  !strcmp(row.cost_basis, "none"),
		  "no cost row: nothing recorded, basis none");
	memset(&row, 0, sizeof(row));
	lc_predict_cost(&row, "payload-bpf", &b);
	tap_check(row.status == LC_BENCH_UNAVAILABLE &&
		  !strcmp(row.reason, "calibration payload-bpf: no bpftrace"),
		  "an unavailable bench row: the row unavailable, says why (%s)",
		  row.reason);
	memset(&row, 0, sizeof(row));
	lc_predict_cost(&row, "payload-perf", &b);
	tap_check(row.status == LC_BENCH_FAILED &&
		  !strcmp(row.reason, "calibration payload-perf: not measured"),
		  "a bench row not measured: the row failed (%s)", row.reason);
}

int main(void)
{
	test_explained();
	test_interval();
	test_units();
	test_no_events();
	test_per_work();
	test_cost();
	return tap_exit_status();
}
