// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate-compare - is the difference real?
 *
 * Compares samples like FreeBSD's ministat, with Welch's t-test, or
 * finds where an ordered series (patches, commits, kernel versions)
 * changes level. See README.rst.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../lib/lc.h"
#include "../lib/options.h"
#include "bench.h"
#include "groups.h"
#include "input.h"
#include "report.h"
#include "series.h"
#include "steps.h"
#include "../lib/stats.h"

#define EXIT_DIFFERENCE 1
#define EXIT_USAGE 2
#define DEFAULT_WIDTH 74
#define MAX_VALUE 1e150 /* squares of differences must stay finite */

static const char program_name[] = "lttng-calibrate-compare";

enum direction {
	FAIL_NEVER,
	FAIL_INCREASE,
	FAIL_DECREASE,
	FAIL_ANY,
};

/**
 * struct options - the command line
 * @input:        where values are found in the files
 * @report:       how results are printed
 * @group_column: compare mode: samples named by this column, 0 for none
 * @series:       1 for series mode
 * @bench:        1 for bench mode (--bench, or a first FILE that is JSON)
 * @bench_metric: bench mode: the metric, from --metric
 * @steps:        series mode: the report of a patch series (--steps)
 * @plot:         series mode: the SVG plot of its steps, or NULL
 * @min_segment:  series mode: fewest values on each side of a change
 * @fail_if:      which proven differences make the exit status 1
 * @files:        the file arguments
 * @nfiles:       number of @files
 */
struct options {
	struct input_config input;
	struct report report;
	int group_column;
	int series;
	int bench;
	enum bench_metric bench_metric;
	int steps;
	const char *plot;
	size_t min_segment;
	enum direction fail_if;
	char **files;
	int nfiles;
};

static const char usage_head[] =
	"Usage: lttng-calibrate-compare [OPTION]... FILE FILE...\n"
	"       lttng-calibrate-compare --series [OPTION]... FILE...\n"
	"       lttng-calibrate-compare [--bench] [OPTION]... BENCH.json BENCH.json...\n"
	"Is the difference real? Compare samples (ministat-like, Welch's t-test),\n"
	"or find where an ordered series of labelled values changes level.\n"
	"\n"
	"Compare mode: each FILE ('-' for standard input, a directory for all its\n"
	"files) is one sample, compared with the first. Series mode: lines\n"
	"\"LABEL VALUE...\" in order; a label may repeat or hold several values.\n"
	"Bench mode: outputs of 'lttng-calibrate bench --format json' (detected\n"
	"when the first FILE starts with '{'), compared per mechanism with the\n"
	"first one.\n";

static const char usage_tail[] =
	"\n"
	"Exit status: 0 success (no gating difference), 1 a difference proven in\n"
	"the --fail-if direction, 2 usage or input error.\n"
	"\n"
	"Examples:\n"
	"  lttng-calibrate-compare base.txt new.txt\n"
	"  lttng-calibrate-compare -m target.cycles.mean runs/base/ runs/new/\n"
	"  lttng-calibrate-compare --series --select with tbench-series.tsv\n"
	"  lttng-calibrate-compare -m overhead_ns bench-6.1.json bench-6.12.json\n";

/*
 * Every function below returns 0 to go on, or the exit status after its
 * message; only main() exits.
 */

/* "Try 'PROG --help'." after a usage error already said; EXIT_USAGE */
static int try_help(void)
{
	fprintf(stderr, "Try '%s --help'.\n", program_name);
	return EXIT_USAGE;
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lc_verr(fmt, ap);
	va_end(ap);
	return try_help();
}

static int out_of_memory(void)
{
	lc_err("out of memory");
	return EXIT_USAGE;
}

/* The callbacks of the options: 0, or -1 after the message. */

static int parse_count(const char *text, const char *option, long max,
		       int *count)
{
	unsigned long long value;

	if (lc_parse_count(text, max, &value) || !value)
		return lc_err("%s: '%s' is not an integer in 1..%ld", option,
			      text, max);
	*count = (int)value;
	return 0;
}

/* --column, --group-column, --label-column, --select-column: 1..10000 */
static int opt_column(const struct lc_option *o, const char *arg)
{
	char option[32];

	snprintf(option, sizeof(option), "--%s", o->long_name);
	return parse_count(arg, option, 10000, o->value);
}

static int opt_width(const struct lc_option *o, const char *arg)
{
	return parse_count(arg, "--width", 1000, o->value);
}

static int opt_min_segment(const struct lc_option *o, const char *arg)
{
	int count = 2;

	if (parse_count(arg, "--min-segment", 1000000, &count))
		return -1;
	*(size_t *)o->value = count;
	return 0;
}

static int opt_confidence(const struct lc_option *o, const char *arg)
{
	double *value = o->value;
	const char *why;

	if (parse_number(arg, value, &why) || !(*value > 50 && *value < 100))
		return usage_error("--confidence: '%s' is not a percentage in (50, 100), e.g. 95 or 99.5",
				   arg);
	return 0;
}

static int opt_min_change(const struct lc_option *o, const char *arg)
{
	double *value = o->value;
	const char *why;

	if (parse_number(arg, value, &why) || !(*value >= 0 && *value < 100))
		return usage_error("--min-change: '%s' is not a percentage in [0, 100), e.g. 1 or 0.5",
				   arg);
	return 0;
}

static int opt_fail_if(const struct lc_option *o, const char *arg)
{
	enum direction *direction = o->value;

	if (!strcmp(arg, "increase"))
		*direction = FAIL_INCREASE;
	else if (!strcmp(arg, "decrease"))
		*direction = FAIL_DECREASE;
	else if (!strcmp(arg, "any"))
		*direction = FAIL_ANY;
	else
		return usage_error("--fail-if: '%s' is not increase, decrease or any",
				   arg);
	return 0;
}

static int opt_delimiters(const struct lc_option *o, const char *arg)
{
	if (!*arg)
		return usage_error("%s", "--delimiters: empty");
	*(const char **)o->value = arg;
	return 0;
}

static int opt_format(const struct lc_option *o, const char *arg)
{
	if (lc_opt_format(o, arg)) {
		try_help();
		return -1;
	}
	return 0;
}

static int opt_no_plot(const struct lc_option *o, const char *arg)
{
	(void)arg;
	*(int *)o->value = 0;
	return 0;
}

/* -w, else $COLUMNS, else the terminal on standard output, else 74 */
static int plot_width(int asked)
{
	const char *columns = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long value;

	if (asked)
		return asked;
	if (columns && *columns) {
		value = strtol(columns, &end, 10);
		if (!*end && value >= 12 && value <= 1000)
			return (int)value;
	}
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= 12)
		return ws.ws_col;
	return DEFAULT_WIDTH;
}

static int check_options(struct options *opt)
{
	struct input_config *in = &opt->input;

	if (opt->nfiles < 1)
		return usage_error("%s", "no input FILE");
	if (opt->report.width < 12)
		return usage_error("%s", "--width: at least 12 columns");
	if (opt->min_segment < 2)
		return usage_error("%s", "--min-segment: at least 2 (a variance needs "
				         "two values)");
	if (in->metric && (opt->group_column || in->select))
		return usage_error("%s", "--metric reads KEY=value lines: no "
				         "--group-column or --select with it");
	if (!opt->series && in->label_column)
		return usage_error("%s", "--label-column is for --series");
	if (!opt->series && opt->report.min_change > 0)
		return usage_error("%s", "--min-change is for --series");
	if (!opt->series && (opt->steps || opt->plot))
		return usage_error("%s", opt->steps ? "--steps is for --series" :
					 "--plot is for --series");
	if (opt->series && opt->group_column)
		return usage_error("%s", "--group-column is for compare mode");
	if (opt->series && !in->metric && opt->nfiles != 1)
		return usage_error("%s", "--series reads one FILE (or several with "
				         "--metric, one label each)");
	if (opt->series && !in->metric && !in->label_column)
		in->label_column = in->select ? in->select_column + 1 : 1;
	if (!opt->series)
		in->label_column = opt->group_column;
	return 0;
}

/* Bench mode reads whole JSON documents: no columns, labels or series. */
static int check_bench_options(struct options *opt)
{
	const struct input_config *in = &opt->input;

	if (opt->series)
		return usage_error("%s", "--bench and --series exclude each other");
	if (opt->steps || opt->plot)
		return usage_error("%s", "--steps and --plot are for --series");
	if (in->value_column || opt->group_column || in->label_column ||
	    in->select)
		return usage_error("%s", "bench mode reads JSON: no --column, "
				         "--group-column, --label-column or --select");
	if (in->metric && bench_metric_parse(in->metric, &opt->bench_metric))
		return usage_error("--metric: '%s' is not overhead_cycles or "
			           "overhead_ns (bench mode)",
			           in->metric);
	if (opt->nfiles < 2)
		return usage_error("%s", "bench mode needs 2 or more FILEs, the "
				         "first one being the base");
	return 0;
}

/*
 * 0 to run, -1 when the help or the version was printed, else the exit
 * status
 */
static int parse_options(struct options *opt, int argc, char **argv)
{
	struct input_config *in = &opt->input;
	int first, ret, width = 0;
	const struct lc_option options[] = {
		LC_OPT_GROUP("Input:"),
		LC_OPT_CALLBACK('C', "column", &in->value_column, "N",
				"value column, from 1 (default: lines hold one\n"
				"value, or in series mode all fields after the\n"
				"label are values)", opt_column),
		LC_OPT_CALLBACK('d', "delimiters", &in->delimiters, "CHARS",
				"field separators (default: space and tab)",
				opt_delimiters),
		LC_OPT_CALLBACK('g', "group-column", &opt->group_column, "N",
				"compare mode: one sample per distinct value of\n"
				"column N, across all files", opt_column),
		LC_OPT_CALLBACK('l', "label-column", &in->label_column, "N",
				"series mode: label column (default 1, or the\n"
				"column after the --select column)", opt_column),
		LC_OPT_STRING('m', "metric", &in->metric, "KEY",
			      "read lines \"KEY=value\" (results of the module\n"
			      "and of lttng-calibrate); each one is a value,\n"
			      "other lines are ignored; series mode: each FILE\n"
			      "is a label"),
		LC_OPT_STRING('s', "select", &in->select, "NAME",
			      "keep only lines whose select column is NAME"),
		LC_OPT_CALLBACK(0, "select-column", &in->select_column, "N",
				"column for --select (default 1)", opt_column),
		LC_OPT_GROUP("Tests:"),
		LC_OPT_CALLBACK('c', "confidence", &opt->report.confidence,
				"PCT", "80, 90, 95 (default), 98, 99, 99.5, or any\n"
				"level in (50, 100)", opt_confidence),
		LC_OPT_FLAG('S', "series", &opt->series,
			    "series mode: find change points by binary\n"
			    "segmentation with t-tests (Bonferroni)"),
		LC_OPT_CALLBACK(0, "min-change", &opt->report.min_change, "PCT",
				"series mode: a change point moves the mean by\n"
				"at least PCT % (default 0: any change)",
				opt_min_change),
		LC_OPT_CALLBACK(0, "min-segment", &opt->min_segment, "N",
				"series mode: fewest values on each side of a\n"
				"change (default 2)", opt_min_segment),
		LC_OPT_FLAG(0, "steps", &opt->steps,
			    "series mode: the labels are the steps of a\n"
			    "patch series: lttng-calibrate-series' report\n"
			    "(each step's mean and interval, the change\n"
			    "points and the line for a mail), with the\n"
			    "unit and the steps of the FILE's \"# unit:\",\n"
			    "\"# steps:\", \"# patches:\", \"# missing:\" lines"),
		LC_OPT_FLAG('B', "bench", &opt->bench,
			    "bench mode (the default when the first FILE\n"
			    "starts with '{'); --metric is overhead_cycles\n"
			    "(default) or overhead_ns"),
		LC_OPT_GROUP("Output:"),
		LC_OPT_CALLBACK('f', "format", &opt->report.format, "FORMAT",
				"table (default; also: text), csv or json",
				opt_format),
		LC_OPT_CALLBACK('n', "no-plot", &opt->report.plot, NULL,
				"no ASCII plot in text output", opt_no_plot),
		LC_OPT_STRING(0, "plot", &opt->plot, "FILE.svg",
			      "series mode: also draw each step's mean and\n"
			      "interval and the change points into FILE.svg"),
		LC_OPT_CALLBACK('w', "width", &width, "N",
				"plot width (default: $COLUMNS, the terminal,\n"
				"or 74)", opt_width),
		LC_OPT_CALLBACK(0, "fail-if", &opt->fail_if, "DIR",
				"exit 1 when a difference (compare) or a change\n"
				"point (series) is proven in direction DIR:\n"
				"increase, decrease or any", opt_fail_if),
		LC_OPT_HELP('h', "help", "this help"),
		LC_OPT_VERSION("lttng-calibrate-compare " LC_VERSION),
		LC_OPT_END(),
	};
	const struct lc_opt_cmd cmd = {
		.command = program_name,
		.options = options,
		.head = usage_head,
		.tail = usage_tail,
		.column = 26,
		.flags = LC_OPT_TRY_HELP | LC_OPT_ARG_EQUALS,
		.status = EXIT_USAGE,
	};

	ret = lc_opt_parse(&cmd, argc, argv, &first);
	if (ret)
		return ret;
	opt->files = argv + first;
	opt->nfiles = argc - first;
	opt->report.width = plot_width(width);
	if (!opt->series && opt->nfiles && bench_looks_like(opt->files[0]))
		opt->bench = 1;
	return opt->bench ? check_bench_options(opt) : check_options(opt);
}

static int fails(enum direction fail_if, double diff)
{
	return fail_if == FAIL_ANY || (fail_if == FAIL_INCREASE && diff > 0) ||
	       (fail_if == FAIL_DECREASE && diff < 0);
}

/* Callbacks from input_read(): ctx is the group_set being filled. */
static int append_to_last(void *ctx, const char *label, double value)
{
	struct group_set *set = ctx;

	(void)label;
	if (group_append(&set->groups[set->n - 1], value))
		return lc_err("out of memory");
	return 0;
}

static int append_to_label(void *ctx, const char *label, double value)
{
	struct group *group = group_set_find_or_new(ctx, label);

	if (!group || group_append(group, value))
		return lc_err("out of memory");
	return 0;
}

static int read_samples(const struct options *opt, struct group_set *set)
{
	int i;

	for (i = 0; i < opt->nfiles; i++) {
		if (!opt->group_column &&
		    !group_set_new(set, strcmp(opt->files[i], "-") ?
						opt->files[i] :
						"<stdin>"))
			return out_of_memory();
		if (input_read(opt->files[i], &opt->input,
			       opt->group_column ? append_to_label :
						   append_to_last,
			       set))
			return EXIT_USAGE;
	}
	return 0;
}

static int check_sample(const struct group *sample, struct summary *sum)
{
	const char *msg = NULL;

	if (!sample->n)
		msg = "empty sample (no values)";
	else if (sample->n == 1)
		msg = "a sample of one value has no variance: need at least 2";
	else if (summarize(sample->values, sample->n, sum))
		return out_of_memory();
	else if (!(fabs(sum->min) < MAX_VALUE && fabs(sum->max) < MAX_VALUE))
		msg = "values too large for the statistics (limit 1e150)";
	if (msg) {
		lc_err("%s: %s", sample->name, msg);
		return EXIT_USAGE;
	}
	return 0;
}

static int run_compare(const struct options *opt)
{
	struct group_set set = { 0 };
	struct summary sums[MAX_SAMPLES];
	struct welch tests[MAX_SAMPLES];
	size_t i;
	int ret;

	ret = read_samples(opt, &set);
	if (!ret && (set.n < 2 || set.n > MAX_SAMPLES)) {
		lc_err("%zu sample%s: compare needs 2 to %d", set.n,
		       set.n == 1 ? "" : "s", MAX_SAMPLES);
		ret = EXIT_USAGE;
	}
	for (i = 0; !ret && i < set.n; i++)
		ret = check_sample(&set.groups[i], &sums[i]);
	for (i = 1; !ret && i < set.n; i++)
		welch_test(&sums[0], &sums[i], opt->report.confidence,
			   &tests[i]);
	if (!ret && report_compare(stdout, &opt->report, set.groups, sums,
				   tests, set.n))
		ret = out_of_memory();
	for (i = 1; !ret && i < set.n; i++)
		if (tests[i].significant && fails(opt->fail_if, tests[i].diff))
			ret = EXIT_DIFFERENCE;
	group_set_free(&set);
	return ret;
}

static int read_series(const struct options *opt, struct group_set *set)
{
	size_t i, values = 0;
	int f;

	for (f = 0; f < opt->nfiles; f++)
		if (input_read(opt->files[f], &opt->input, append_to_label,
			       set))
			return EXIT_USAGE;
	for (i = 0; i < set->n; i++)
		values += set->groups[i].n;
	if (set->n < 2 || values < 2 * opt->min_segment) {
		lc_err("%s: series of %zu labels and %zu values: "
		       "needs at least 2 labels and %zu values%s",
		       opt->report.source, set->n, values,
		       2 * opt->min_segment,
		       opt->input.select ? " (does --select match?)" : "");
		return EXIT_USAGE;
	}
	return 0;
}

static int check_series_values(const struct group_set *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < set->groups[i].n; j++)
			if (!(fabs(set->groups[i].values[j]) < MAX_VALUE)) {
				lc_err("label '%s': values too large for the "
				       "statistics (limit 1e150)",
				       set->groups[i].name);
				return EXIT_USAGE;
			}
	return 0;
}

static int run_series(struct options *opt)
{
	struct steps_header header = { .total = -1, .boot_runs = -1 };
	struct group_set set = { 0 };
	struct series_result result;
	static char source[512];
	size_t i;
	int ret;

	snprintf(source, sizeof(source), "%s%s%s%s%s",
		 opt->input.metric ? opt->input.metric : opt->files[0],
		 opt->input.select ? " (select " : "",
		 opt->input.select ? opt->input.select : "",
		 opt->input.select ? ")" : "",
		 opt->input.metric ? " over the files" : "");
	opt->report.source = source;
	if (opt->steps || opt->plot) {
		opt->input.comment = steps_comment;
		opt->input.comment_ctx = &header;
	}
	ret = read_series(opt, &set);
	if (!ret)
		ret = check_series_values(&set);
	if (!ret && series_segment(set.groups, set.n, opt->report.confidence,
				   opt->min_segment, opt->report.min_change,
				   &result))
		ret = out_of_memory();
	if (ret) {
		steps_header_free(&header);
		group_set_free(&set);
		return ret;
	}
	for (i = 0; i < result.n; i++)
		if (fails(opt->fail_if, result.points[i].step.diff))
			ret = EXIT_DIFFERENCE;
	if (!opt->steps)
		report_series(stdout, &opt->report, set.groups, set.n, &result);
	if ((opt->steps || opt->plot) &&
	    steps_report(stdout, &opt->report, &header, set.groups, set.n,
			 &result, opt->steps, opt->plot))
		ret = EXIT_USAGE;
	steps_header_free(&header);
	series_result_free(&result);
	group_set_free(&set);
	return ret;
}

static int run_bench(const struct options *opt)
{
	struct bench_comparison cmp;
	struct bench_cell *cell;
	struct bench_file *files;
	int ret = EXIT_SUCCESS, i, n = 0;
	size_t m, k;

	files = calloc(opt->nfiles, sizeof(*files));
	if (!files)
		return out_of_memory();
	for (i = 0; i < opt->nfiles && !ret; i++, n++)
		if (bench_read(opt->files[i], opt->bench_metric, &files[i]))
			ret = EXIT_USAGE;
	if (!ret && bench_compare(files, opt->nfiles, opt->bench_metric,
				  opt->report.confidence, &cmp))
		ret = out_of_memory();
	if (!ret) {
		for (m = 0; m < cmp.nmechs; m++)
			for (k = 1; k < cmp.nfiles; k++) {
				cell = &cmp.mechs[m].cells[k];
				if (cell->tested && cell->test.significant &&
				    fails(opt->fail_if, cell->test.diff))
					ret = EXIT_DIFFERENCE;
			}
		bench_report(stdout, opt->report.format, &cmp);
		bench_comparison_free(&cmp);
	}
	for (i = 0; i < n; i++)
		bench_file_free(&files[i]);
	free(files);
	return ret;
}

int main(int argc, char **argv)
{
	struct options opt = {
		.input = { .delimiters = " \t", .select_column = 1 },
		.report = { .format = LC_FORMAT_TABLE,
			    .confidence = 95.0,
			    .plot = 1 },
		.min_segment = 2,
	};
	int ret;

	lc_set_prog(program_name);
	ret = parse_options(&opt, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_SUCCESS : ret;
	if (opt.bench)
		ret = run_bench(&opt);
	else
		ret = opt.series ? run_series(&opt) : run_compare(&opt);
	if (fflush(stdout) || ferror(stdout)) {
		lc_err("write error: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return ret;
}
