// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate bench, the command: its options, and the rows of the
 * mechanisms asked for (measured by mechanisms.c, or read back from a
 * key=value file) printed in the format asked for (bench-format.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/options.h"
#include "bench.h"
#include "bench-format.h"
#include "lttng-calibrate.h"
#include "mechanisms.h"

#define LC_BENCH_DEFAULT_N	200000ULL

static const char lc_bench_usage[] =
"Usage: lttng-calibrate bench [OPTION]...\n"
"\n"
"Measure, one run each on the running kernel, what every instrumentation\n"
"mechanism costs per call of lttng_calibrate_target(), against its\n"
"never-instrumented twin: nothing, the module's own kprobe, kretprobe,\n"
"fprobe and fprobe-exit, ftrace (kprobe, kretprobe and fprobe events, the\n"
"function and function_graph tracers), the module's tracepoint (off, and\n"
"on through ftrace, perf, bpftrace and LTTng), its payload tracepoint (a\n"
"system call's number and arguments, a task's name: through the same\n"
"four), LTTng (function event, with perf\n"
"contexts, kprobe event), perf probe and bpftrace (kprobe, kretprobe,\n"
"fentry).  Each is set up before its run and torn down after it, also on\n"
"an error or Ctrl-C.  One row per mechanism: overhead per call in cycles\n"
"and ns with its 95% interval, median, ratio to the kprobe, and the calls\n"
"the tracer recorded against those the run made.  What this machine cannot\n"
"offer is a row marked unavailable, with the reason.  Must be run as root.\n"
"\n";

static const char lc_bench_usage_end[] =
"\n"
"Exit status: 0 done (rows may be unavailable), 1 error or a failed row,\n"
"130 interrupted by Ctrl-C (the rows measured so far are printed).\n";

/**
 * struct lc_bench_opts - the bench's command line
 * @iterations: N
 * @format: how to print the rows
 * @plot: the SVG file, or NULL
 * @only: the comma-separated mechanisms, or NULL for all
 * @from_kv: the recorded rows to print, or NULL to measure
 */
struct lc_bench_opts {
	unsigned long long iterations;
	enum lc_format format;
	const char *plot;
	const char *only;
	const char *from_kv;
};

/* Every word of --only names a mechanism. */
static int lc_bench_check_only(const char *list)
{
	const char *p = list;
	char word[64];
	size_t i;

	while (*p) {
		size_t len = strcspn(p, ",");
		int found = 0;

		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		for (i = 0; i < lc_nr_mechanisms; i++)
			found |= !strcmp(word, lc_mechanisms[i]->name);
		if (!found) {
			char names[1024] = "";

			for (i = 0; i < lc_nr_mechanisms; i++)
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), "%s%s",
					 i ? ", " : "", lc_mechanisms[i]->name);
			lc_err("--only: unknown mechanism '%s' (mechanisms: %s)",
			       word, names);
			return -1;
		}
		p += len + (p[len] == ',');
	}
	if (!*list) {
		lc_err("--only: an empty list");
		return -1;
	}
	return 0;
}

static int lc_bench_output(const struct lc_bench *b,
			   const struct lc_bench_opts *o, FILE *plot)
{
	int err;

	if (o->format == LC_FORMAT_JSON)
		err = lc_bench_print_json(b, stdout);
	else if (o->format == LC_FORMAT_CSV)
		err = lc_bench_print_csv(b, stdout);
	else
		err = lc_bench_print_table(b, stdout);
	if (fflush(stdout) || err) {
		lc_err("writing the rows: %s", strerror(errno));
		err = -1;
	}
	if (plot) {
		if (lc_bench_plot_svg(b, plot) | fclose(plot)) {
			lc_err("writing %s: %s", o->plot, strerror(errno));
			err = -1;
		}
	}
	return err;
}

static int lc_bench_from_kv(const struct lc_bench_opts *o, FILE *plot)
{
	static struct lc_bench b;
	char why[256];
	char *text = lc_read_file(o->from_kv, NULL);

	if (!text) {
		lc_err("--from-kv %s: %s", o->from_kv, strerror(errno));
		if (plot)
			fclose(plot);
		return 1;
	}
	if (lc_bench_load_kv(&b, text, why, sizeof(why))) {
		lc_err("--from-kv %s: %s", o->from_kv, why);
		free(text);
		if (plot)
			fclose(plot);
		return 1;
	}
	free(text);
	return lc_bench_output(&b, o, plot) ? 1 : 0;
}

/* Measure every row asked for; the exit status. */
static int lc_bench_measure(const struct lc_bench_opts *o, FILE *plot)
{
	static struct lc_bench b;
	int failed = 0, rc;
	size_t i;

	if (lc_mechanisms_measure(o->only, o->iterations, &b)) {
		if (plot)
			fclose(plot);
		return 1;
	}
	for (i = 0; i < b.nr; i++)
		failed |= b.rows[i].status == LC_BENCH_FAILED;
	rc = lc_bench_output(&b, o, plot) ? 1 : 0;
	if (lc_signal_caught()) {
		lc_err("interrupted: every mechanism detached; %zu rows printed",
		       b.nr);
		return 128 + lc_signal_caught();
	}
	return rc || failed;
}

static int lc_bench_opt_only(const struct lc_option *opt, const char *arg)
{
	if (lc_bench_check_only(arg))
		return -1;
	*(const char **)opt->value = arg;
	return 0;
}

static int lc_bench_opt_list(const struct lc_option *opt, const char *arg)
{
	size_t i;

	(void)opt;
	(void)arg;
	for (i = 0; i < lc_nr_mechanisms; i++)
		puts(lc_mechanisms[i]->name);
	return LC_OPT_DONE;
}

/* 0 to go on, -1 when done (--help, --list), else the exit status. */
static int lc_bench_parse(int argc, char **argv, struct lc_bench_opts *o)
{
	const struct lc_option options[] = {
		LC_OPT_CALLBACK('n', "iterations", &o->iterations, "N",
				"iterations of each run (default 200000)",
				lc_opt_iterations),
		LC_OPT_CALLBACK(0, "format", &o->format, "FORMAT",
				"table (default), csv or json", lc_opt_format),
		LC_OPT_STRING(0, "plot", &o->plot, "FILE.svg",
			      "also draw the rows as an SVG bar chart"),
		LC_OPT_CALLBACK(0, "only", &o->only, "LIST",
				"only these mechanisms, comma separated",
				lc_bench_opt_only),
		LC_OPT_CALLBACK(0, "list", NULL, NULL,
				"the mechanisms, in order, and exit",
				lc_bench_opt_list),
		LC_OPT_STRING(0, "from-kv", &o->from_kv, "FILE",
			      "print rows recorded as key=value (see\n"
			      "lttng-calibrate(1)) instead of measuring"),
		LC_OPT_HELP('h', "help", "this text"),
		LC_OPT_END(),
	};
	const struct lc_opt_cmd cmd = {
		.command = "lttng-calibrate bench",
		.name = "bench",
		.options = options,
		.head = lc_bench_usage,
		.tail = lc_bench_usage_end,
		.flags = LC_OPT_OWN_ERRORS,
		.status = 1,
	};

	return lc_opt_parse_all(&cmd, argc, argv);
}

/**
 * lc_bench_main() - the bench subcommand
 * @argc: its arguments' count, "bench" included
 * @argv: its arguments, argv[0] being "bench"
 *
 * Return: the exit status: 0, 1 on an error or a failed row, 128 + the
 * signal when interrupted.
 */
int lc_bench_main(int argc, char **argv)
{
	struct lc_bench_opts o = {
		.iterations = LC_BENCH_DEFAULT_N,
		.format = LC_FORMAT_TABLE,
	};
	FILE *plot = NULL;
	int rc;

	lc_tracers_init();
	rc = lc_bench_parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!o.from_kv && lc_need_root())
		return 1;
	if (o.plot) {
		plot = fopen(o.plot, "w");
		if (!plot) {
			lc_err("--plot %s: %s", o.plot, strerror(errno));
			return 1;
		}
	}
	if (o.from_kv)
		return lc_bench_from_kv(&o, plot);
	return lc_bench_measure(&o, plot);
}
