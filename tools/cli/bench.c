// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate bench, the command: its options, and the rows of the
 * mechanisms asked for (measured by mechanisms.c, or read back from a
 * key=value file) printed in the format asked for (bench-format.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
"\n"
"  -n, --iterations N    iterations of each run (default 200000)\n"
"      --format FORMAT   table (default), csv or json\n"
"      --plot FILE.svg   also draw the rows as an SVG bar chart\n"
"      --only LIST       only these mechanisms, comma separated\n"
"      --list            the mechanisms, in order, and exit\n"
"      --from-kv FILE    print rows recorded as key=value (see\n"
"                        lttng-calibrate(1)) instead of measuring\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 done (rows may be unavailable), 1 error or a failed row,\n"
"130 interrupted by Ctrl-C (the rows measured so far are printed).\n";

enum {
	LC_BENCH_OPT_FORMAT = 256,
	LC_BENCH_OPT_PLOT,
	LC_BENCH_OPT_ONLY,
	LC_BENCH_OPT_LIST,
	LC_BENCH_OPT_FROM_KV,
};

static const struct option lc_bench_options[] = {
	{ "iterations", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, LC_BENCH_OPT_FORMAT },
	{ "plot", required_argument, NULL, LC_BENCH_OPT_PLOT },
	{ "only", required_argument, NULL, LC_BENCH_OPT_ONLY },
	{ "list", no_argument, NULL, LC_BENCH_OPT_LIST },
	{ "from-kv", required_argument, NULL, LC_BENCH_OPT_FROM_KV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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

static int lc_bench_parse(int argc, char **argv, struct lc_bench_opts *o)
{
	size_t i;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "n:h", lc_bench_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (lc_parse_iterations(optarg, &o->iterations))
				return 1;
			break;
		case LC_BENCH_OPT_FORMAT:
			if (lc_format_parse(optarg, &o->format))
				return 1;
			break;
		case LC_BENCH_OPT_PLOT:
			o->plot = optarg;
			break;
		case LC_BENCH_OPT_ONLY:
			if (lc_bench_check_only(optarg))
				return 1;
			o->only = optarg;
			break;
		case LC_BENCH_OPT_LIST:
			for (i = 0; i < lc_nr_mechanisms; i++)
				puts(lc_mechanisms[i]->name);
			return -1;
		case LC_BENCH_OPT_FROM_KV:
			o->from_kv = optarg;
			break;
		case 'h':
			fputs(lc_bench_usage, stdout);
			return -1;
		default:
			lc_err("bench: unknown option '%s' (see lttng-calibrate bench --help)",
			       argv[optind - 1]);
			return 1;
		}
	}
	if (optind < argc) {
		lc_err("bench: unexpected argument '%s'", argv[optind]);
		return 1;
	}
	return 0;
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
	int rc = lc_bench_parse(argc, argv, &o);
	FILE *plot = NULL;

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
