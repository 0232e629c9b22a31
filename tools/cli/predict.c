// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate predict, the command: what will tracing cost this
 * workload?  Its options, and its steps in order: the configurations
 * asked for checked, the cost of one event calibrated by the bench's rows
 * (mechanisms.c), the workload run untraced and under each configuration
 * (predict-run.c), the figures (predict-model.c) printed
 * (predict-format.c), and everything undone whatever happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/options.h"
#include "lttng-calibrate.h"
#include "mechanisms.h"
#include "predict-format.h"
#include "predict-model.h"
#include "predict-run.h"
#include "predict.h"

#define LC_PREDICT_DEFAULT_RUNS	5
#define LC_PREDICT_DEFAULT_N	20000ULL

static const char lc_predict_usage[] =
"Usage: lttng-calibrate predict [OPTION]... -- COMMAND [ARG]...\n"
"\n"
"Predict what tracing will cost COMMAND, then measure it.  COMMAND runs N\n"
"times untraced, then N times under each tracing configuration; the CPU\n"
"time it and its children use is measured every time (and the throughput\n"
"it prints, as tbench's \"Throughput N MB/sec\").  Each configuration's\n"
"events per run, times the cost of one event calibrated by the module on\n"
"this kernel (lttng-calibrate bench's rows), is the predicted overhead;\n"
"traced minus untraced CPU time, with its 95% interval (Welch), the\n"
"measured one.  One row per configuration: events per run and lost, cost\n"
"per event, predicted and measured overhead, the part of the measured the\n"
"prediction explains, and whether the two agree.  Must be run as root.\n"
"\n"
"Configurations (--mechanism), in this order: ftrace, perf and bpftrace\n"
"(the event set: ftrace-SET ...); with --function, kprobe and kretprobe\n"
"(ftrace's events on it); lttng-loaded (LTTng's modules, no session) and\n"
"lttng (lttng-SET).\n"
"\n";

static const char lc_predict_usage_end[] =
"\n"
"Exit status: 0 done (rows may be unavailable), 1 an error (a command that\n"
"fails, a configuration named that this machine cannot trace), 2 a usage\n"
"error, 130 interrupted by Ctrl-C; tracing is stopped and every session,\n"
"event and probe removed whatever happened.\n";

/**
 * struct lc_predict_opts - the command line
 * @chosen: the configurations named with --mechanism (by index), or none
 * @nr_chosen: how many were named
 * @set: the event set
 * @function: --function, or NULL
 * @runs: N
 * @iterations: iterations of each calibration run
 * @format: how to print the rows
 * @plot: the SVG file, or NULL
 * @argv: the command
 */
struct lc_predict_opts {
	bool chosen[16];
	int nr_chosen;
	const struct lc_predict_set *set;
	const char *function;
	unsigned long long runs;
	unsigned long long iterations;
	enum lc_format format;
	const char *plot;
	char **argv;
};

/* Configurations */

static const char *lc_pr_config_name(const struct lc_predict_tracer *t,
				     const struct lc_predict_opts *o,
				     char *buf, size_t len)
{
	if (t->function)
		snprintf(buf, len, "ftrace-%s-%s", t->name, o->function);
	else if (t->cost)
		snprintf(buf, len, "%s-%s", t->name, o->set->name);
	else
		snprintf(buf, len, "%s", t->name);
	return buf;
}

/*
 * The bench rows the configurations asked for need, comma separated,
 * after "none".
 */
static void lc_pr_cost_rows(const struct lc_predict *p, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "none");
	for (i = 0; i < p->nr; i++) {
		const struct lc_predict_tracer *t = p->rows[i].tracer;

		if (p->rows[i].status != LC_BENCH_OK || !t->cost)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), ",%s", t->cost);
	}
}

static int lc_pr_tmpdir(struct lc_predict_ctx *pc)
{
	snprintf(pc->tracer.tmpdir, sizeof(pc->tracer.tmpdir),
		 "/tmp/lttng-calibrate-predict.XXXXXX");
	if (!mkdtemp(pc->tracer.tmpdir)) {
		lc_err("mkdtemp %s: %s", pc->tracer.tmpdir, strerror(errno));
		pc->tracer.tmpdir[0] = '\0';
		return -1;
	}
	return 0;
}

static void lc_pr_header(struct lc_predict *p, const struct lc_predict_opts *o)
{
	struct utsname u;
	char **a;

	if (!uname(&u))
		snprintf(p->kernel, sizeof(p->kernel), "%s", u.release);
	for (a = o->argv; *a; a++)
		snprintf(p->command + strlen(p->command),
			 sizeof(p->command) - strlen(p->command), "%s%s",
			 a == o->argv ? "" : " ", *a);
}

/*
 * Every configuration asked for, prepared to check that it can run here
 * and torn down; those named on the command line must.
 */
static int lc_pr_rows(struct lc_predict *p, struct lc_predict_ctx *pc,
		      const struct lc_predict_opts *o)
{
	char why[LC_BENCH_REASON_MAX];
	size_t i;

	for (i = 0; i < lc_predict_nr_tracers; i++) {
		const struct lc_predict_tracer *t = lc_predict_tracers[i];
		struct lc_predict_row *row;
		enum lc_tracer_prep rc;

		if (o->nr_chosen ? !o->chosen[i] : t->function && !o->function)
			continue;
		row = &p->rows[p->nr++];
		row->tracer = t;
		lc_pr_config_name(t, o, row->name, sizeof(row->name));
		why[0] = '\0';
		rc = t->prepare(&pc->tracer, why, sizeof(why));
		t->teardown(&pc->tracer);
		if (rc == LC_PREP_OK)
			continue;
		row->status = rc == LC_PREP_UNAVAILABLE ? LC_BENCH_UNAVAILABLE :
			      LC_BENCH_FAILED;
		snprintf(row->reason, sizeof(row->reason), "%s", why);
		if (o->nr_chosen)
			return lc_err("predict: %s: %s", row->name, why);
	}
	return 0;
}

/* Measure: calibrate, the untraced runs, each configuration's runs. */
static int lc_pr_measure(struct lc_predict *p, struct lc_predict_ctx *pc,
			 const struct lc_predict_opts *o)
{
	static struct lc_bench b;
	char only[512], why[LC_BENCH_REASON_MAX];
	size_t i;
	int rc;

	/* "none" too: every calibration has the module's clock. */
	lc_pr_cost_rows(p, only, sizeof(only));
	if (lc_mechanisms_measure(only, o->iterations, &b) ||
	    lc_signal_caught())
		return -1;
	snprintf(p->clock, sizeof(p->clock), "%s", b.clock);
	p->clock_khz = b.clock_khz;
	if (p->clock_khz <= 0)
		return lc_err("predict: the module gives no clock frequency (clock.khz in %s/results_kv)",
			      LC_DIR);
	for (i = 0; i < p->nr; i++)
		if (p->rows[i].status == LC_BENCH_OK)
			lc_predict_cost(&p->rows[i], p->rows[i].tracer->cost,
					&b);
	/* A configuration's own state: sessiond, buffers, FIFOs. */
	snprintf(pc->tracer.session, sizeof(pc->tracer.session),
		 "lttng-calibrate-predict-%d", (int)getpid());
	setenv("LTTNG_HOME", pc->tracer.tmpdir, 1);
	lc_tracefs_find(&pc->tracer);
	rc = lc_predict_runs(pc, o->argv, o->runs, NULL, &p->base, why,
			     sizeof(why));
	if (rc)
		return -1;
	for (i = 0; i < p->nr && !lc_signal_caught(); i++) {
		struct lc_predict_row *row = &p->rows[i];
		const struct lc_predict_tracer *t = row->tracer;

		if (row->status != LC_BENCH_OK)
			continue;
		why[0] = '\0';
		if (t->prepare(&pc->tracer, why, sizeof(why)) != LC_PREP_OK)
			rc = -1;
		else
			rc = lc_predict_runs(pc, o->argv, o->runs, t,
					     &row->runs, why, sizeof(why));
		t->teardown(&pc->tracer);
		if (rc == -2)
			return -1;
		if (rc) {
			row->status = LC_BENCH_FAILED;
			snprintf(row->reason, sizeof(row->reason), "%s", why);
		}
	}
	return lc_signal_caught() ? -1 : 0;
}

static int lc_pr_opt_mechanism(const struct lc_option *opt, const char *name)
{
	struct lc_predict_opts *o = opt->value;
	char names[256] = "";
	size_t i;

	for (i = 0; i < lc_predict_nr_tracers; i++) {
		if (!strcmp(name, lc_predict_tracers[i]->name)) {
			o->nr_chosen += !o->chosen[i];
			o->chosen[i] = true;
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? ", " : "", lc_predict_tracers[i]->name);
	}
	return lc_err("predict: unknown mechanism '%s' (mechanisms: %s)", name,
		      names);
}

static int lc_pr_opt_events(const struct lc_option *opt, const char *name)
{
	struct lc_predict_opts *o = opt->value;
	char names[128] = "";
	size_t i;

	for (i = 0; i < lc_predict_nr_sets; i++) {
		if (!strcmp(name, lc_predict_sets[i].name)) {
			o->set = &lc_predict_sets[i];
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? ", " : "", lc_predict_sets[i].name);
	}
	return lc_err("predict: unknown event set '%s' (sets: %s)", name,
		      names);
}

static int lc_pr_opt_function(const struct lc_option *opt, const char *arg)
{
	if (!*arg || strpbrk(arg, " \t\n:/"))
		return lc_err("predict: --function '%s': not a kernel function name",
			      arg);
	*(const char **)opt->value = arg;
	return 0;
}

static int lc_pr_opt_runs(const struct lc_option *opt, const char *arg)
{
	unsigned long long *runs = opt->value;

	if (lc_parse_count(arg, LC_PREDICT_MAX_RUNS, runs) || *runs < 2)
		return lc_err("predict: --runs '%s': a count from 2 to %d",
			      arg, LC_PREDICT_MAX_RUNS);
	return 0;
}

static int lc_pr_opt_list(const struct lc_option *opt, const char *arg)
{
	size_t i;

	(void)opt;
	(void)arg;
	for (i = 0; i < lc_predict_nr_tracers; i++)
		puts(lc_predict_tracers[i]->name);
	return LC_OPT_DONE;
}

static int lc_pr_opt_list_events(const struct lc_option *opt, const char *arg)
{
	size_t i;

	(void)opt;
	(void)arg;
	for (i = 0; i < lc_predict_nr_sets; i++)
		puts(lc_predict_sets[i].name);
	return LC_OPT_DONE;
}

/* 0 to go on, 2 on a usage error, -1 when done (--help). */
static int lc_pr_parse(int argc, char **argv, struct lc_predict_opts *o)
{
	const struct lc_option options[] = {
		LC_OPT_CALLBACK(0, "mechanism", o, "NAME",
				"this configuration (repeat it for more; default:\n"
				"all, those this machine lacks listed as\n"
				"unavailable)", lc_pr_opt_mechanism),
		LC_OPT_CALLBACK(0, "events", o, "SET",
				"syscalls-sched (default: sched_switch,\n"
				"sched_wakeup, irq_handler_entry/exit, every system\n"
				"call's entry and exit), sched or syscalls",
				lc_pr_opt_events),
		LC_OPT_CALLBACK(0, "function", &o->function, "NAME",
				"a kernel function for kprobe and kretprobe",
				lc_pr_opt_function),
		LC_OPT_CALLBACK(0, "runs", &o->runs, "N",
				"runs of each (default 5, at least 2)",
				lc_pr_opt_runs),
		LC_OPT_CALLBACK('n', "iterations", &o->iterations, "N",
				"iterations of each calibration run (default 20000)",
				lc_opt_iterations),
		LC_OPT_CALLBACK(0, "format", &o->format, "FORMAT",
				"table (default), csv or json", lc_opt_format),
		LC_OPT_STRING(0, "plot", &o->plot, "FILE.svg",
			      "also draw predicted and measured overheads as an\n"
			      "SVG bar chart"),
		LC_OPT_CALLBACK(0, "list", NULL, NULL, "the mechanisms, and exit",
				lc_pr_opt_list),
		LC_OPT_CALLBACK(0, "list-events", NULL, NULL,
				"the event sets, and exit", lc_pr_opt_list_events),
		LC_OPT_HELP('h', "help", "this text"),
		LC_OPT_END(),
	};
	const struct lc_opt_cmd cmd = {
		.command = "lttng-calibrate predict",
		.name = "predict",
		.options = options,
		.head = lc_predict_usage,
		.tail = lc_predict_usage_end,
		.flags = LC_OPT_STOP_AT_OPERAND | LC_OPT_OWN_ERRORS,
		.status = 2,
	};
	char path[PATH_MAX];
	int first, rc;
	size_t i;

	rc = lc_opt_parse(&cmd, argc, argv, &first);
	if (rc)
		return rc;
	if (first >= argc) {
		lc_err("predict: no command: lttng-calibrate predict [OPTION]... -- COMMAND [ARG]...");
		return 2;
	}
	o->argv = argv + first;
	for (i = 0; i < lc_predict_nr_tracers; i++) {
		if (o->chosen[i] && lc_predict_tracers[i]->function &&
		    !o->function) {
			lc_err("predict: --mechanism %s needs --function NAME",
			       lc_predict_tracers[i]->name);
			return 2;
		}
	}
	if (lc_proc_find(o->argv[0], path, sizeof(path))) {
		lc_err("predict: %s: command not found", o->argv[0]);
		return 2;
	}
	return 0;
}

/**
 * lc_predict_main() - the predict subcommand
 * @argc: its arguments' count, "predict" included
 * @argv: its arguments, argv[0] being "predict"
 *
 * Return: the exit status: 0, 1 on an error, 2 on a usage error, 128 +
 * the signal when interrupted.
 */
int lc_predict_main(int argc, char **argv)
{
	static struct lc_predict p;
	struct lc_predict_report r;
	static struct lc_predict_ctx pc;
	struct lc_predict_opts o = {
		.set = &lc_predict_sets[0],
		.runs = LC_PREDICT_DEFAULT_RUNS,
		.iterations = LC_PREDICT_DEFAULT_N,
		.format = LC_FORMAT_TABLE,
	};
	FILE *plot = NULL;
	int rc, err;

	lc_tracers_init();
	rc = lc_pr_parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (lc_need_root())
		return 1;
	if (o.plot) {
		plot = fopen(o.plot, "w");
		if (!plot) {
			lc_err("--plot %s: %s", o.plot, strerror(errno));
			return 1;
		}
	}
	lc_signal_catch();
	if (lc_setup() || lc_pr_tmpdir(&pc)) {
		if (plot)
			fclose(plot);
		return 1;
	}
	pc.tracer.set = o.set;
	pc.tracer.function = o.function;
	lc_predict_cgroup_make(&pc, p.cpu_time, sizeof(p.cpu_time));
	/* The ring buffer of the ftrace configurations: 64 MB per CPU. */
	pc.tracer.iterations = 1000000;
	lc_pr_header(&p, &o);
	lc_tracefs_find(&pc.tracer);
	setenv("LTTNG_HOME", pc.tracer.tmpdir, 1);
	snprintf(pc.tracer.session, sizeof(pc.tracer.session),
		 "lttng-calibrate-predict-%d", (int)getpid());
	err = lc_pr_rows(&p, &pc, &o);
	lc_tracers_finish(&pc.tracer);
	if (!err)
		err = lc_pr_measure(&p, &pc, &o);
	lc_tracers_finish(&pc.tracer);
	if (lc_predict_cgroup_remove(&pc))
		lc_err("predict: %s is still mounted: %s and what is in it left in place",
		       pc.cgroup.mnt, pc.tracer.tmpdir);
	else if (lc_rm_tree(pc.tracer.tmpdir))
		lc_err("predict: removing %s: %s", pc.tracer.tmpdir,
		       strerror(errno));
	if (lc_signal_caught() || err) {
		if (plot) {
			fclose(plot);
			unlink(o.plot);
		}
		if (!lc_signal_caught())
			return 1;
		lc_err("interrupted: tracing stopped, every session, event and probe removed");
		return 128 + lc_signal_caught();
	}
	lc_predict_work(&p);
	lc_predict_report(&p, &r);
	if (o.format == LC_FORMAT_JSON)
		err = lc_predict_print_json(&p, &r, stdout);
	else if (o.format == LC_FORMAT_CSV)
		err = lc_predict_print_csv(&p, &r, stdout);
	else
		err = lc_predict_print_table(&p, &r, stdout);
	if (fflush(stdout) || err) {
		lc_err("writing the rows: %s", strerror(errno));
		err = -1;
	}
	if (plot && (lc_predict_plot(&p, &r, plot) | fclose(plot))) {
		lc_err("writing %s: %s", o.plot, strerror(errno));
		err = -1;
	}
	return err ? 1 : 0;
}
