// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: time the kernel's calibration target against its
 * baseline with the lttng_calibrate module, and print the results.  The
 * successor of "lttng calibrate --kernel --function" (lttng-tools <= 2.8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/options.h"
#include "bench.h"
#include "lttng-calibrate.h"
#include "predict.h"

/* The CPU sets of the writer are fixed-size (cpu_set_t, 1024 CPUs). */
#define LC_MAX_CPU		1023

/**
 * struct lc_cmd - a subcommand: its name, its main() and what it does
 * @name: the word after "lttng-calibrate"
 * @fn: its main(), given the arguments from its name on
 * @usage: its synopsis, after "lttng-calibrate NAME"
 * @help: what it does, for --help
 */
struct lc_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *help;
};

/* The one list of subcommands: --help, --list-commands and dispatch. */
static const struct lc_cmd lc_cmds[] = {
	{ "bench", lc_bench_main, "[OPTION]...",
	  "every instrumentation mechanism of this kernel (module probes,\n"
	  "ftrace, the tracepoint, LTTng, perf, bpftrace) measured in turn, one row\n"
	  "each, set up and torn down by the command." },
	{ "predict", lc_predict_main, "[OPTION]... -- COMMAND [ARG]...",
	  "what tracing will cost COMMAND, predicted from the bench's cost\n"
	  "per event and the events each tracer records, then measured." },
};

static const char lc_usage[] =
"Usage: lttng-calibrate [-k|--kernel] [--function] [OPTION]...\n"
"       lttng-calibrate COMMAND [OPTION]...\n"
"\n"
"Time N calls of lttng_calibrate_target() against its never-instrumented\n"
"twin lttng_calibrate_baseline(), in the kernel, with the lttng_calibrate\n"
"module (loaded with modprobe when needed), and print the results.  Attach\n"
"the instrumentation to measure to lttng_calibrate_target first; the\n"
"\"difference\" row is its cost per call.  Must be run as root.\n"
"\n";

static const char lc_usage_end[] =
"\n"
"Exit status: 0 done, 1 error, 130 interrupted by Ctrl-C (partial results\n"
"printed).  See lttng-calibrate(1).\n";

/* --help after the options: the commands and what each does. */
static void lc_print_commands(FILE *out)
{
	const char *p, *nl;
	size_t i;

	fputs("\nCommands (see lttng-calibrate COMMAND --help):\n", out);
	for (i = 0; i < ARRAY_SIZE(lc_cmds); i++) {
		fprintf(out, "  lttng-calibrate %s %s\n", lc_cmds[i].name,
			lc_cmds[i].usage);
		for (p = lc_cmds[i].help; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			fprintf(out, "      %.*s\n",
				(int)(nl ? (size_t)(nl - p) : strlen(p)), p);
		}
	}
}

static int lc_opt_userspace(const struct lc_option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	return lc_err("userspace calibration is not supported: this facility measures kernel instrumentation only");
}

static int lc_opt_cpu(const struct lc_option *opt, const char *arg)
{
	unsigned long long n;

	if (lc_parse_count(arg, LC_MAX_CPU, &n))
		return lc_err("invalid CPU '%s': a CPU number from 0 to %d",
			      arg, LC_MAX_CPU);
	*(int *)opt->value = (int)n;
	return 0;
}

static int lc_opt_list_commands(const struct lc_option *opt, const char *arg)
{
	size_t i;

	(void)opt;
	(void)arg;
	for (i = 0; i < ARRAY_SIZE(lc_cmds); i++)
		printf("%s\n", lc_cmds[i].name);
	return LC_OPT_DONE;
}

/* 0 to go on, -1 when done (--help), else the exit status. */
static int lc_parse_options(int argc, char **argv, struct lc_options *opts)
{
	const struct lc_option options[] = {
		LC_OPT_FLAG('k', "kernel", NULL,
			    "kernel calibration (the default and only domain)"),
		LC_OPT_FLAG(0, "function", NULL,
			    "function calibration (the default and only mode)"),
		LC_OPT_CALLBACK('u', "userspace", NULL, NULL,
				"not supported: fails", lc_opt_userspace),
		LC_OPT_CALLBACK('n', "iterations", &opts->iterations, "N",
				"iterations of the run (default 100000)",
				lc_opt_iterations),
		LC_OPT_STRING(0, "counters", &opts->counters, "LIST",
			      "perf events read around every call, comma or space\n"
			      "separated (\"\" for none); kept for later runs.\n"
			      "Words: perf names (cycles, LLC-load-misses);\n"
			      "PMU/TERMS/ as in perf, translated through sysfs\n"
			      "(cpu/event=0x2e,umask=0x41/, cpu/cache-misses/,\n"
			      "lttng_calibrate_test/tsc/); the module's\n"
			      "[NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]]"),
		LC_OPT_STRING(0, "probe", &opts->probe, "MECH",
			      "what the module attaches to the target:\n"
			      "none, kprobe, kretprobe, ... (kept for later runs)"),
		LC_OPT_CALLBACK(0, "cpu", &opts->cpu, "N",
				"run on CPU N (default: the CPU the run starts on)",
				lc_opt_cpu),
		LC_OPT_CALLBACK(0, "format", &opts->format, "FORMAT",
				"table (default), csv or json", lc_opt_format),
		LC_OPT_HELP('h', "help", "this text"),
		LC_OPT_VERSION("lttng-calibrate " LC_VERSION),
		LC_OPT_CALLBACK(0, "list-commands", NULL, NULL,
				"the commands, one per line",
				lc_opt_list_commands),
		LC_OPT_END(),
	};
	const struct lc_opt_cmd cmd = {
		.command = "lttng-calibrate",
		.options = options,
		.head = lc_usage,
		.more = lc_print_commands,
		.tail = lc_usage_end,
		.flags = LC_OPT_TRY_HELP,
		.status = 1,
	};

	return lc_opt_parse_all(&cmd, argc, argv);
}

int main(int argc, char **argv)
{
	struct lc_options opts = {
		.iterations = 100000,
		.cpu = -1,
		.format = LC_FORMAT_TABLE,
	};
	size_t i;
	int rc;

	lc_set_prog("lttng-calibrate");
	for (i = 0; argc > 1 && i < ARRAY_SIZE(lc_cmds); i++)
		if (!strcmp(argv[1], lc_cmds[i].name))
			return lc_cmds[i].fn(argc - 1, argv + 1);
	rc = lc_parse_options(argc, argv, &opts);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (lc_need_root() || lc_setup() || lc_apply_settings(&opts))
		return 1;
	return lc_run(&opts);
}
