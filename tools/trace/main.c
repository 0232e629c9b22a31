// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate-trace - the spreadsheet step of lttng-calibrate(1)
 *
 * Reads babeltrace2 (or babeltrace 1) text output, pairs each
 * NAME_entry with the next NAME_exit or NAME_return on the same CPU and
 * prints, per context field, the statistics of exit - entry. See
 * README.rst.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/options.h"
#include "analysis.h"
#include "input.h"
#include "report.h"

#define EXIT_NO_PAIRS 1
#define EXIT_BAD_INPUT 2
/* reasons shown for skipped lines before going quiet */
#define MAX_SKIP_MESSAGES 10

static const char program_name[] = "lttng-calibrate-trace";

/**
 * struct options - the command line
 * @prefix:         follow NAME_entry/NAME_exit with NAME starting so
 * @format:         table, CSV or JSON
 * @skip_malformed: count malformed lines instead of stopping
 * @file:           the input, "-" for standard input
 */
struct options {
	const char *prefix;
	enum lc_format format;
	int skip_malformed;
	const char *file;
};

static const char usage_head[] =
	"Usage: lttng-calibrate-trace [OPTION]... [FILE]\n"
	"Pair NAME_entry and NAME_exit (or NAME_return) events of babeltrace\n"
	"text output (FILE, or standard input) on each CPU and print, per\n"
	"context field, count, average, standard deviation, min and max of\n"
	"exit - entry.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit status: 0 pairs found, 1 no pair found, 2 bad input or usage.\n";

/*
 * 0 to go on, 1 when the help or the version was printed, -1 on a usage
 * error (the usage printed on stderr)
 */
static int parse_options(int argc, char **argv, struct options *opt)
{
	const struct lc_option options[] = {
		LC_OPT_STRING('e', "event", &opt->prefix, "PREFIX",
			      "follow events whose NAME starts with PREFIX\n"
			      "(default: calibrate)"),
		LC_OPT_CALLBACK('f', "format", &opt->format, "FORMAT",
				"table (default), csv or json", lc_opt_format),
		LC_OPT_FLAG('s', "skip-malformed", &opt->skip_malformed,
			    "skip and count malformed lines"),
		LC_OPT_HELP('h', "help", "this help"),
		LC_OPT_VERSION("lttng-calibrate-trace " LC_VERSION),
		LC_OPT_END(),
	};
	const struct lc_opt_cmd cmd = {
		.command = program_name,
		.options = options,
		.head = usage_head,
		.tail = usage_tail,
		.column = 25,
		.status = EXIT_BAD_INPUT,
	};
	int first, ret;

	ret = lc_opt_parse(&cmd, argc, argv, &first);
	if (ret < 0)
		return 1;
	if (!ret && argc - first > 1)
		ret = lc_err("one input file at most");
	if (ret) {
		lc_opt_help(&cmd, stderr);
		return -1;
	}
	if (first < argc)
		opt->file = argv[first];
	return 0;
}

/* a malformed line: 0 when skipped, -1 when it ends the run */
static int malformed(struct trace_analysis *an, const struct options *opt,
		     const char *name, unsigned long long lineno,
		     const char *reason)
{
	if (!opt->skip_malformed) {
		fprintf(stderr, "%s:%llu: %s\n", name, lineno, reason);
		return -1;
	}
	if (an->malformed < MAX_SKIP_MESSAGES)
		fprintf(stderr, "%s:%llu: %s (skipped)\n", name, lineno,
			reason);
	an->malformed++;
	/* it may have been an entry or an exit: trust no pending pair */
	trace_analysis_drop_pending(an);
	return 0;
}

static int read_trace(struct trace_analysis *an, const struct options *opt,
		      FILE *file, const char *name)
{
	unsigned long long lineno = 0;
	struct input in;
	int ret;

	input_init(&in, file);
	while ((ret = input_read_line(&in)) > 0) {
		const char *err;

		lineno++;
		if (in.too_long)
			err = "line too long";
		else
			err = trace_analysis_line(an, in.line, in.line_len);
		if (err == trace_out_of_memory) {
			lc_err("out of memory");
			ret = -2;
			break;
		}
		if (err && malformed(an, opt, name, lineno, err)) {
			ret = -2;
			break;
		}
	}
	if (ret == -1)
		fprintf(stderr, "%s: %s\n", name,
			errno ? strerror(errno) : "read error");
	input_free(&in);
	return ret;
}

int main(int argc, char **argv)
{
	struct options opt = { .prefix = "calibrate", .file = "-" };
	static struct trace_analysis an;
	const char *name;
	FILE *file;
	int ret;

	lc_set_prog(program_name);
	ret = parse_options(argc, argv, &opt);
	if (ret > 0)
		return 0;
	if (ret)
		return EXIT_BAD_INPUT;
	if (!*opt.prefix) {
		lc_err("empty event prefix");
		return EXIT_BAD_INPUT;
	}
	name = strcmp(opt.file, "-") ? opt.file : "<stdin>";
	file = strcmp(opt.file, "-") ? fopen(opt.file, "r") : stdin;
	if (!file) {
		lc_err("%s: %s", opt.file, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	trace_analysis_init(&an, opt.prefix);
	ret = read_trace(&an, &opt, file, name);
	if (file != stdin)
		fclose(file);
	if (ret < 0) {
		trace_analysis_free(&an);
		return EXIT_BAD_INPUT;
	}
	trace_analysis_drop_pending(&an);
	report_print(stdout, &an, opt.format);
	ret = trace_analysis_pairs(&an) ? 0 : EXIT_NO_PAIRS;
	if (ret)
		lc_err("no %s*_entry/_exit pair found", opt.prefix);
	trace_analysis_free(&an);
	if (fflush(stdout) || ferror(stdout)) {
		lc_err("write error");
		return EXIT_BAD_INPUT;
	}
	return ret;
}
