// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate predict's cost model: from the runs' CPU time and events
 * and the cost of one event, each configuration's predicted overhead
 * (events times cost) and measured one (traced minus untraced CPU time,
 * Welch's interval), and how much of the second the first explains.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/stats.h"
#include "predict-model.h"

/**
 * lc_predict_cycles() - a time in clock cycles
 * @p: the prediction, for its clock's frequency
 * @ns: the time, in ns
 *
 * Return: @ns in cycles of the module's clock.
 */
double lc_predict_cycles(const struct lc_predict *p, double ns)
{
	return ns * (double)p->clock_khz / 1e6;
}

/**
 * lc_predict_mean() - the mean of some figures
 * @v: the figures
 * @n: how many
 *
 * Return: their mean, or NaN when there are none.
 */
double lc_predict_mean(const double *v, size_t n)
{
	struct summary s;

	if (!n || summarize(v, n, &s))
		return NAN;
	return s.mean;
}

/**
 * lc_predict_percent() - a figure in percent of another
 * @v: the figure
 * @base: what it is a part of
 *
 * Return: 100 * @v / @base, or NaN when @base is not above 0.
 */
double lc_predict_percent(double v, double base)
{
	return base > 0 ? 100.0 * v / base : NAN;
}

/*
 * Run @i's scale: 1, or where the command prints its throughput (it runs
 * for a fixed time, as tbench does, and tracing shows as less work done
 * in the same CPU time), the untraced runs' mean throughput over the
 * run's, so that every run's figures are those of the same work.
 */
static double lc_predict_scale(const struct lc_predict *p,
			       const struct lc_predict_runs *r, size_t i)
{
	return p->per_work ? p->base_throughput / r->throughput[i] : 1;
}

/**
 * lc_predict_figures() - a row's figures, from its runs and its cost
 * @p: the prediction: the clock, the untraced runs, the scaling to work
 * @row: the row: its traced runs and its cost of one event
 * @f: where the figures go
 *
 * The predicted overhead is the events per run times the cost of one
 * event; its interval counts the spread of both (the events' 95 %
 * interval over the runs, Student's, and the cost's), their variances
 * added.  The measured one is traced minus untraced CPU time with Welch's
 * 95 % interval.  They agree when their difference is inside its own
 * interval: the two half-widths in quadrature (the variances of two
 * independent estimates added), not their sum.  The measured cost of one
 * event is the measured overhead over the events, both of the same work.
 */
void lc_predict_figures(const struct lc_predict *p,
			const struct lc_predict_row *row,
			struct lc_predict_fig *f)
{
	double base[LC_PREDICT_MAX_RUNS], traced[LC_PREDICT_MAX_RUNS];
	double pred[LC_PREDICT_MAX_RUNS];
	const struct lc_predict_runs *r = &row->runs;
	struct summary sb, st, se;
	struct welch w;
	size_t i, n = 0;
	double events_ci95 = 0, work_events;

	for (i = 0; i < p->base.nr; i++)
		base[i] = lc_predict_cycles(p, p->base.cpu_ns[i]) *
			  lc_predict_scale(p, &p->base, i);
	for (i = 0; i < r->nr; i++) {
		traced[i] = lc_predict_cycles(p, r->cpu_ns[i]) *
			    lc_predict_scale(p, r, i);
		pred[i] = r->events[i] * lc_predict_scale(p, r, i);
	}
	memset(f, 0, sizeof(*f));
	f->events = lc_predict_mean(r->events, r->nr);
	f->lost = lc_predict_mean(r->lost, r->nr);
	if (r->nr > 1 && !summarize(pred, r->nr, &se))
		events_ci95 = student_t_quantile(0.5 + LC_PREDICT_CONFIDENCE / 200,
						 r->nr - 1) *
			      se.stddev / sqrt(r->nr);
	/* The events of the untraced runs' work (their number when unscaled). */
	work_events = lc_predict_mean(pred, r->nr);
	f->predicted = work_events * row->cost_cycles;
	f->predicted_ci95 = hypot(work_events * row->cost_ci95,
				  events_ci95 * row->cost_cycles);
	f->measured = NAN;
	f->measured_ci95 = NAN;
	f->base = NAN;
	f->explained = NAN;
	if (!summarize(base, p->base.nr, &sb) &&
	    !summarize(traced, r->nr, &st)) {
		welch_test(&sb, &st, LC_PREDICT_CONFIDENCE, &w);
		f->base = sb.mean;
		f->measured = w.diff;
		f->measured_ci95 = w.halfwidth;
	}
	if (f->measured != 0 && isfinite(f->measured))
		f->explained = f->predicted / f->measured;
	f->measured_cost = work_events > 0 ? f->measured / work_events : NAN;
	f->agree = isfinite(f->measured_ci95) &&
		   fabs(f->measured - f->predicted) <=
		   hypot(f->measured_ci95, f->predicted_ci95);
	for (i = 0; i < r->nr; i++)
		if (isfinite(r->throughput[i]))
			traced[n++] = r->throughput[i];
	f->throughput = n ? lc_predict_mean(traced, n) : NAN;
}

/**
 * lc_predict_base_throughput() - the untraced runs' mean throughput
 * @p: the prediction
 *
 * Return: the mean of the throughputs the untraced runs printed, or NaN
 * when none printed one.
 */
double lc_predict_base_throughput(const struct lc_predict *p)
{
	double v[LC_PREDICT_MAX_RUNS];
	size_t i, n = 0;

	for (i = 0; i < p->base.nr; i++)
		if (isfinite(p->base.throughput[i]))
			v[n++] = p->base.throughput[i];
	return n ? lc_predict_mean(v, n) : NAN;
}

/* Did every run print a throughput?  Then figures are of the same work. */
static bool lc_predict_has_throughput(const struct lc_predict_runs *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!isfinite(r->throughput[i]) || r->throughput[i] <= 0)
			return false;
	return r->nr > 0;
}

/**
 * lc_predict_work() - scale the figures to work done, when they can be
 * @p: the prediction, its runs done: sets @p->per_work and
 *	@p->base_throughput
 *
 * Every run, untraced and of every row measured, printed a throughput:
 * the command runs for a fixed time, and each run's figures are scaled to
 * the untraced runs' work.
 */
void lc_predict_work(struct lc_predict *p)
{
	size_t i;

	p->per_work = lc_predict_has_throughput(&p->base);
	for (i = 0; i < p->nr && p->per_work; i++)
		if (p->rows[i].status == LC_BENCH_OK)
			p->per_work =
				lc_predict_has_throughput(&p->rows[i].runs);
	p->base_throughput = lc_predict_base_throughput(p);
}

static const struct lc_bench_row *lc_predict_bench_row(const struct lc_bench *b,
						       const char *name)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (!strcmp(b->rows[i].mechanism, name))
			return &b->rows[i];
	return NULL;
}

/**
 * lc_predict_cost() - a row's cost of one event, from the bench's rows
 * @row: the row: its cost and cost_basis set, or its status and reason
 *	when the bench row is not ok
 * @cost: the bench row's name, or NULL for a configuration that records
 *	nothing (cost 0, basis "none")
 * @b: the bench's rows
 */
void lc_predict_cost(struct lc_predict_row *row, const char *cost,
		     const struct lc_bench *b)
{
	const struct lc_bench_row *c;

	if (!cost) {
		snprintf(row->cost_basis, sizeof(row->cost_basis), "none");
		return;
	}
	c = lc_predict_bench_row(b, cost);
	if (!c || c->status != LC_BENCH_OK) {
		row->status = c && c->status == LC_BENCH_UNAVAILABLE ?
			      LC_BENCH_UNAVAILABLE : LC_BENCH_FAILED;
		snprintf(row->reason, sizeof(row->reason),
			 "calibration %s: %.200s", c ? c->mechanism : cost,
			 c ? c->reason : "not measured");
		return;
	}
	row->cost_cycles = c->overhead_cycles;
	row->cost_ci95 = c->ci95_cycles;
	snprintf(row->cost_basis, sizeof(row->cost_basis), "%s", cost);
}

/**
 * lc_predict_report() - every figure the outputs show, computed once
 * @p: the prediction
 * @r: where the figures go
 *
 * The table, CSV, JSON and the chart print these; none computes a figure
 * of its own.
 */
void lc_predict_report(const struct lc_predict *p, struct lc_predict_report *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->base_ns = lc_predict_mean(p->base.cpu_ns, p->base.nr);
	r->base_cycles = lc_predict_cycles(p, r->base_ns);
	r->throughput = lc_predict_base_throughput(p);
	for (i = 0; i < p->nr && i < LC_PREDICT_MAX_ROWS; i++) {
		struct lc_predict_shown *s = &r->rows[i];
		const struct lc_predict_fig *f = &s->fig;

		s->ok = p->rows[i].status == LC_BENCH_OK;
		if (!s->ok)
			continue;
		lc_predict_figures(p, &p->rows[i], &s->fig);
		s->predicted_percent = lc_predict_percent(f->predicted, f->base);
		s->predicted_ci95_percent = lc_predict_percent(f->predicted_ci95,
							       f->base);
		s->measured_percent = lc_predict_percent(f->measured, f->base);
		s->measured_ci95_percent = lc_predict_percent(f->measured_ci95,
							      f->base);
	}
}
