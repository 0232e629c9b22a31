// SPDX-License-Identifier: GPL-2.0
/*
 * predict-format-test FORMAT > OUT: predict's output (table, csv, json or
 * svg) of a made-up prediction, printed by predict-format.c without the
 * module or a tracer: an ok row scaled to work, rows unavailable and
 * failed, a row of one run (no interval).  run-tests.sh compares it with
 * tests/data/predict.FORMAT, what the command printed before its figures
 * were computed once (lc_predict_report()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/lc.h"
#include "../predict-format.h"

static struct lc_predict p;

/* @n runs of about @cpu_ns, @events each, and @tput. */
static void runs(struct lc_predict_runs *r, size_t n, double cpu_ns,
		 double events, double tput)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		r->cpu_ns[i] = cpu_ns + 1000.0 * (double)(i % 3) - 1000;
		r->events[i] = events + (double)(i % 2);
		r->lost[i] = i == 1 ? 3 : 0;
		r->throughput[i] = tput + (double)i / 10;
	}
	r->nr = n;
}

static void row(const char *name, enum lc_bench_status s, const char *why,
		double cpu_ns, size_t n, double events, double tput)
{
	struct lc_predict_row *r = &p.rows[p.nr++];

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->status = s;
	snprintf(r->reason, sizeof(r->reason), "%s", why);
	runs(&r->runs, n, cpu_ns, events, tput);
	r->cost_cycles = 97.25;
	r->cost_ci95 = 1.5;
	snprintf(r->cost_basis, sizeof(r->cost_basis), "tracepoint-ftrace");
}

int main(int argc, char **argv)
{
	struct lc_predict_report r;
	const char *f = argc == 2 ? argv[1] : "";

	snprintf(p.kernel, sizeof(p.kernel), "6.1.0-57-amd64");
	snprintf(p.command, sizeof(p.command), "tbench -t 10 1 \"127.0.0.1\"");
	snprintf(p.clock, sizeof(p.clock), "tsc");
	p.clock_khz = 2000000;
	snprintf(p.cpu_time, sizeof(p.cpu_time), "cgroup");
	runs(&p.base, 5, 1e9, 0, 500);
	row("ftrace-syscalls-sched", LC_BENCH_OK, "", 1.1e9, 5, 2e5, 480);
	row("lttng-syscalls-sched", LC_BENCH_UNAVAILABLE,
	    "no lttng-modules for this kernel", 0, 0, 0, 0);
	row("perf-syscalls-sched-with-a-very-long-name", LC_BENCH_OK, "",
	    1.05e9, 5, 2e5, 490);
	row("bpftrace-syscalls", LC_BENCH_FAILED, "bpftrace: <exit 1> & more",
	    0, 0, 0, 0);
	lc_predict_work(&p);
	lc_predict_report(&p, &r);
	if (!strcmp(f, "table"))
		return lc_predict_print_table(&p, &r, stdout);
	if (!strcmp(f, "csv"))
		return lc_predict_print_csv(&p, &r, stdout);
	if (!strcmp(f, "json"))
		return lc_predict_print_json(&p, &r, stdout);
	if (!strcmp(f, "svg"))
		return lc_predict_plot(&p, &r, stdout);
	return lc_err("usage: predict-format-test table|csv|json|svg");
}
