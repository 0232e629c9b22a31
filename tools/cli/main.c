// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: time the kernel's calibration target against its
 * baseline with the lttng_calibrate module, and print the results.  The
 * successor of "lttng calibrate --kernel --function" (lttng-tools <= 2.8).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
"\n"
"  -k, --kernel          kernel calibration (the default and only domain)\n"
"      --function        function calibration (the default and only mode)\n"
"  -u, --userspace       not supported: fails\n"
"  -n, --iterations N    iterations of the run (default 100000)\n"
"      --counters LIST   perf events read around every call, comma or space\n"
"                        separated (\"\" for none); kept for later runs.\n"
"                        Words: perf names (cycles, LLC-load-misses);\n"
"                        PMU/TERMS/ as in perf, translated through sysfs\n"
"                        (cpu/event=0x2e,umask=0x41/, cpu/cache-misses/,\n"
"                        lttng_calibrate_test/tsc/); the module's\n"
"                        [NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]]\n"
"      --probe MECH      what the module attaches to the target:\n"
"                        none, kprobe, kretprobe, ... (kept for later runs)\n"
"      --cpu N           run on CPU N (default: the CPU the run starts on)\n"
"      --format FORMAT   table (default), csv or json\n"
"  -h, --help            this text\n"
"      --version         the version\n"
"      --list-commands   the commands, one per line\n"
"\n"
"Commands (see lttng-calibrate COMMAND --help):\n";

static const char lc_usage_end[] =
"Exit status: 0 done, 1 error, 130 interrupted by Ctrl-C (partial results\n"
"printed).  See lttng-calibrate(1).\n";

static void lc_print_usage(void)
{
	size_t i;

	const char *p, *nl;

	fputs(lc_usage, stdout);
	for (i = 0; i < ARRAY_SIZE(lc_cmds); i++) {
		printf("  lttng-calibrate %s %s\n", lc_cmds[i].name,
		       lc_cmds[i].usage);
		for (p = lc_cmds[i].help; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			printf("      %.*s\n",
			       (int)(nl ? (size_t)(nl - p) : strlen(p)), p);
		}
	}
	printf("\n%s", lc_usage_end);
}

enum {
	LC_OPT_FUNCTION = 256,
	LC_OPT_COUNTERS,
	LC_OPT_PROBE,
	LC_OPT_CPU,
	LC_OPT_FORMAT,
	LC_OPT_VERSION,
	LC_OPT_LIST_COMMANDS,
};

static const struct option lc_long_options[] = {
	{ "kernel", no_argument, NULL, 'k' },
	{ "function", no_argument, NULL, LC_OPT_FUNCTION },
	{ "userspace", no_argument, NULL, 'u' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "counters", required_argument, NULL, LC_OPT_COUNTERS },
	{ "probe", required_argument, NULL, LC_OPT_PROBE },
	{ "cpu", required_argument, NULL, LC_OPT_CPU },
	{ "format", required_argument, NULL, LC_OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, LC_OPT_VERSION },
	{ "list-commands", no_argument, NULL, LC_OPT_LIST_COMMANDS },
	{ NULL, 0, NULL, 0 },
};

static int lc_parse_cpu(const char *s, int *cpu)
{
	unsigned long long n;

	if (lc_parse_count(s, LC_MAX_CPU, &n))
		return -1;
	*cpu = (int)n;
	return 0;
}

/* One option; 0 to go on, else the exit status (-1: exit 0). */
static int lc_option(int opt, struct lc_options *opts)
{
	switch (opt) {
	case 'k':
	case LC_OPT_FUNCTION:
		return 0;
	case 'u':
		lc_err("userspace calibration is not supported: this facility measures kernel instrumentation only");
		return 1;
	case 'n':
		return lc_parse_iterations(optarg, &opts->iterations) ? 1 : 0;
	case LC_OPT_COUNTERS:
		opts->counters = optarg;
		return 0;
	case LC_OPT_PROBE:
		opts->probe = optarg;
		return 0;
	case LC_OPT_CPU:
		if (!lc_parse_cpu(optarg, &opts->cpu))
			return 0;
		lc_err("invalid CPU '%s': a CPU number from 0 to %d", optarg,
		       LC_MAX_CPU);
		return 1;
	case LC_OPT_FORMAT:
		return lc_format_parse(optarg, &opts->format) ? 1 : 0;
	case 'h':
		lc_print_usage();
		return -1;
	case LC_OPT_LIST_COMMANDS:
		for (size_t i = 0; i < ARRAY_SIZE(lc_cmds); i++)
			printf("%s\n", lc_cmds[i].name);
		return -1;
	case LC_OPT_VERSION:
		printf("lttng-calibrate %s\n", LC_VERSION);
		return -1;
	default:
		fputs("Try 'lttng-calibrate --help'.\n", stderr);
		return 1;
	}
}

static int lc_parse_options(int argc, char **argv, struct lc_options *opts)
{
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "kun:h", lc_long_options,
				  NULL)) != -1) {
		rc = lc_option(opt, opts);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		lc_err("unexpected argument '%s'", argv[optind]);
		return 1;
	}
	return 0;
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
