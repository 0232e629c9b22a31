// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate-compare - is the difference real?
 *
 * Compares samples like FreeBSD's ministat, with Welch's t-test, or
 * finds where an ordered series (patches, commits, kernel versions)
 * changes level. See README.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../lib/lc.h"
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

static const char usage_text[] =
	"Usage: %1$s [OPTION]... FILE FILE...\n"
	"       %1$s --series [OPTION]... FILE...\n"
	"       %1$s [--bench] [OPTION]... BENCH.json BENCH.json...\n"
	"Is the difference real? Compare samples (ministat-like, Welch's t-test),\n"
	"or find where an ordered series of labelled values changes level.\n"
	"\n"
	"Compare mode: each FILE ('-' for standard input, a directory for all its\n"
	"files) is one sample, compared with the first. Series mode: lines\n"
	"\"LABEL VALUE...\" in order; a label may repeat or hold several values.\n"
	"Bench mode: outputs of 'lttng-calibrate bench --format json' (detected\n"
	"when the first FILE starts with '{'), compared per mechanism with the\n"
	"first one.\n"
	"\n"
	"Input:\n"
	"  -C, --column=N          value column, from 1 (default: lines hold one\n"
	"                          value, or in series mode all fields after the\n"
	"                          label are values)\n"
	"  -d, --delimiters=CHARS  field separators (default: space and tab)\n"
	"  -g, --group-column=N    compare mode: one sample per distinct value of\n"
	"                          column N, across all files\n"
	"  -l, --label-column=N    series mode: label column (default 1, or the\n"
	"                          column after the --select column)\n"
	"  -m, --metric=KEY        read lines \"KEY=value\" (results of the module\n"
	"                          and of lttng-calibrate); each one is a value,\n"
	"                          other lines are ignored; series mode: each FILE\n"
	"                          is a label\n"
	"  -s, --select=NAME       keep only lines whose select column is NAME\n"
	"      --select-column=N   column for --select (default 1)\n"
	"\n"
	"Tests:\n"
	"  -c, --confidence=PCT    80, 90, 95 (default), 98, 99, 99.5, or any\n"
	"                          level in (50, 100)\n"
	"  -S, --series            series mode: find change points by binary\n"
	"                          segmentation with t-tests (Bonferroni)\n"
	"      --min-change=PCT    series mode: a change point moves the mean by\n"
	"                          at least PCT %% (default 0: any change)\n"
	"      --min-segment=N     series mode: fewest values on each side of a\n"
	"                          change (default 2)\n"
	"      --steps             series mode: the labels are the steps of a\n"
	"                          patch series: lttng-calibrate-series' report\n"
	"                          (each step's mean and interval, the change\n"
	"                          points and the line for a mail), with the\n"
	"                          unit and the steps of the FILE's \"# unit:\",\n"
	"                          \"# steps:\", \"# patches:\", \"# missing:\" lines\n"
	"  -B, --bench             bench mode (the default when the first FILE\n"
	"                          starts with '{'); --metric is overhead_cycles\n"
	"                          (default) or overhead_ns\n"
	"\n"
	"Output:\n"
	"  -f, --format=FORMAT     table (default; also: text), csv or json\n"
	"  -n, --no-plot           no ASCII plot in text output\n"
	"      --plot=FILE.svg     series mode: also draw each step's mean and\n"
	"                          interval and the change points into FILE.svg\n"
	"  -w, --width=N           plot width (default: $COLUMNS, the terminal,\n"
	"                          or 74)\n"
	"      --fail-if=DIR       exit 1 when a difference (compare) or a change\n"
	"                          point (series) is proven in direction DIR:\n"
	"                          increase, decrease or any\n"
	"  -h, --help              this help\n"
	"      --version           the version\n"
	"\n"
	"Exit status: 0 success (no gating difference), 1 a difference proven in\n"
	"the --fail-if direction, 2 usage or input error.\n"
	"\n"
	"Examples:\n"
	"  %1$s base.txt new.txt\n"
	"  %1$s -m target.cycles.mean runs/base/ runs/new/\n"
	"  %1$s --series --select with tbench-series.tsv\n"
	"  %1$s -m overhead_ns bench-6.1.json bench-6.12.json\n";

static const struct option long_options[] = {
	{ "bench", no_argument, NULL, 'B' },
	{ "column", required_argument, NULL, 'C' },
	{ "confidence", required_argument, NULL, 'c' },
	{ "delimiters", required_argument, NULL, 'd' },
	{ "fail-if", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "group-column", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "label-column", required_argument, NULL, 'l' },
	{ "metric", required_argument, NULL, 'm' },
	{ "min-segment", required_argument, NULL, 'M' },
	{ "min-change", required_argument, NULL, 'P' },
	{ "no-plot", no_argument, NULL, 'n' },
	{ "plot", required_argument, NULL, 'O' },
	{ "select", required_argument, NULL, 's' },
	{ "select-column", required_argument, NULL, 'L' },
	{ "series", no_argument, NULL, 'S' },
	{ "steps", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'V' },
	{ "width", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

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

static int parse_count(const char *text, const char *option, long max,
		       int *count)
{
	unsigned long long value;

	if (lc_parse_count(text, max, &value) || !value) {
		lc_err("%s: '%s' is not an integer in 1..%ld", option, text,
		       max);
		return EXIT_USAGE;
	}
	*count = (int)value;
	return 0;
}

static int parse_confidence(const char *text, double *value)
{
	const char *why;

	if (parse_number(text, value, &why) || !(*value > 50 && *value < 100))
		return usage_error("--confidence: '%s' is not a percentage in "
				   "(50, 100), e.g. 95 or 99.5",
				   text);
	return 0;
}

static int parse_min_change(const char *text, double *value)
{
	const char *why;

	if (parse_number(text, value, &why) || !(*value >= 0 && *value < 100))
		return usage_error("--min-change: '%s' is not a percentage in "
				   "[0, 100), e.g. 1 or 0.5",
				   text);
	return 0;
}

static int parse_direction(const char *text, enum direction *direction)
{
	if (!strcmp(text, "increase"))
		*direction = FAIL_INCREASE;
	else if (!strcmp(text, "decrease"))
		*direction = FAIL_DECREASE;
	else if (!strcmp(text, "any"))
		*direction = FAIL_ANY;
	else
		return usage_error("--fail-if: '%s' is not increase, decrease "
				   "or any",
				   text);
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

static int parse_option(struct options *opt, int c, const char *arg,
			int *width)
{
	int count = 2, ret;

	switch (c) {
	case 'B':
		opt->bench = 1;
		break;
	case 'C':
		return parse_count(arg, "--column", 10000,
				   &opt->input.value_column);
	case 'c':
		return parse_confidence(arg, &opt->report.confidence);
	case 'd':
		if (!*arg)
			return usage_error("%s", "--delimiters: empty");
		opt->input.delimiters = arg;
		break;
	case 'F':
		return parse_direction(arg, &opt->fail_if);
	case 'f':
		if (lc_format_parse(arg, &opt->report.format))
			return try_help();
		break;
	case 'g':
		return parse_count(arg, "--group-column", 10000,
				   &opt->group_column);
	case 'l':
		return parse_count(arg, "--label-column", 10000,
				   &opt->input.label_column);
	case 'L':
		return parse_count(arg, "--select-column", 10000,
				   &opt->input.select_column);
	case 'm':
		opt->input.metric = arg;
		break;
	case 'M':
		ret = parse_count(arg, "--min-segment", 1000000, &count);
		opt->min_segment = count;
		return ret;
	case 'P':
		return parse_min_change(arg, &opt->report.min_change);
	case 'n':
		opt->report.plot = 0;
		break;
	case 'O':
		opt->plot = arg;
		break;
	case 's':
		opt->input.select = arg;
		break;
	case 'S':
		opt->series = 1;
		break;
	case 'T':
		opt->steps = 1;
		break;
	case 'w':
		return parse_count(arg, "--width", 1000, width);
	default:
		return try_help();
	}
	return 0;
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
	int c, ret, width = 0;

	while ((c = getopt_long(argc, argv, "BC:c:d:f:g:hl:m:ns:Sw:",
				long_options, NULL)) != -1) {
		if (c == 'h') {
			printf(usage_text, program_name);
			return -1;
		}
		if (c == 'V') {
			printf("%s %s\n", program_name, LC_VERSION);
			return -1;
		}
		ret = parse_option(opt, c, optarg, &width);
		if (ret)
			return ret;
	}
	opt->files = argv + optind;
	opt->nfiles = argc - optind;
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
	struct steps_header header = { .total = -1 };
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
