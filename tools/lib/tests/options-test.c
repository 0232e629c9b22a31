// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of options.c: each type of entry with its short and long
 * spelling, an abbreviation, the operands after the options (permuted, or
 * from the first one with LC_OPT_STOP_AT_OPERAND), a callback's error and
 * its "done", the three ways of saying an option is unknown, --help's
 * layout (the column, a help of two lines, an option wider than the
 * column, a hidden one, titles of groups, "--column=N") and
 * --list-options.  "ok - ..." lines (tap.h);
 * run-tests.sh numbers them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lc.h"
#include "../options.h"
#include "../tap.h"

/**
 * struct test_opts - what the test command's options set
 * @quiet: -q
 * @name: --name
 * @count: --count, through its callback
 * @calls: how many times the callback ran
 */
static struct test_opts {
	int quiet;
	const char *name;
	int count;
	int calls;
} o;

static int test_count(const struct lc_option *opt, const char *arg)
{
	struct test_opts *t = opt->value;

	t->calls++;
	if (!strcmp(arg, "done"))
		return LC_OPT_DONE;
	if (!strcmp(arg, "bad"))
		return lc_err("--count '%s': not a count", arg);
	if (!strcmp(arg, "two"))
		return 2;
	t->count = atoi(arg);
	return 0;
}

static const struct lc_option test_options[] = {
	LC_OPT_FLAG('q', "quiet", &o.quiet, "say nothing"),
	LC_OPT_STRING(0, "name", &o.name, "NAME", "the name"),
	LC_OPT_CALLBACK('c', "count", &o, "N",
			"how many\n(a second line)", test_count),
	LC_OPT_FLAG(0, "accepted", NULL, "accepted, does nothing"),
	LC_OPT_STRING(0, "a-rather-long-option", &o.name, "ARGUMENT",
		      "wider than the column"),
	LC_OPT_FLAG('x', NULL, &o.quiet, NULL),
	LC_OPT_HELP('h', "help", "this text"),
	LC_OPT_END(),
};

static struct lc_opt_cmd cmd = {
	.command = "test-cmd",
	.options = test_options,
	.head = "Usage: test-cmd [OPTION]... [FILE]...\n\n",
	.tail = "\nThe end.\n",
	.status = 2,
};

static const char help_text[] =
	"Usage: test-cmd [OPTION]... [FILE]...\n"
	"\n"
	"  -q, --quiet           say nothing\n"
	"      --name NAME       the name\n"
	"  -c, --count N         how many\n"
	"                        (a second line)\n"
	"      --accepted        accepted, does nothing\n"
	"      --a-rather-long-option ARGUMENT\n"
	"                        wider than the column\n"
	"  -h, --help            this text\n"
	"\n"
	"The end.\n";

static const char list_text[] =
	"-q --quiet\n"
	"--name NAME\n"
	"-c --count N\n"
	"--accepted\n"
	"--a-rather-long-option ARGUMENT\n"
	"-h --help\n";

/*
 * lc_opt_parse() of @c on the NULL-terminated @args (after "test-cmd"),
 * what it prints on stdout and stderr kept in @out and @err (their size
 * @len).
 */
static int parse(const struct lc_opt_cmd *c, char **args, int *first,
		 char *out, char *err, size_t len)
{
	char *argv[16] = { "test-cmd" };
	FILE *fo = tmpfile(), *fe = tmpfile();
	int argc = 1, saved_out, saved_err, rc;
	size_t n;

	while (*args)
		argv[argc++] = *args++;
	memset(&o, 0, sizeof(o));
	fflush(stdout);
	saved_out = dup(1);
	saved_err = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	rc = lc_opt_parse(c, argc, argv, first);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	rewind(fo);
	n = fread(out, 1, len - 1, fo);
	out[n] = '\0';
	rewind(fe);
	n = fread(err, 1, len - 1, fe);
	err[n] = '\0';
	fclose(fo);
	fclose(fe);
	return rc;
}

#define PARSE(first, ...) \
	parse(&cmd, (char *[]){ __VA_ARGS__, NULL }, first, out, err, \
	      sizeof(out))

static char out[4096], err[4096];

static void test_types(void)
{
	int first = -1;

	tap_check(PARSE(&first, "-q", "--name", "n1", "-c", "3", "--accepted",
			"f") == 0 && first == 7,
		  "flag, string and callback options set their targets");
	tap_check(o.quiet == 1 && o.name && !strcmp(o.name, "n1") &&
		  o.count == 3 && o.calls == 1 && !*err,
		  "the targets hold the values given");
	PARSE(&first, "--quiet", "--name=n2", "-c7", "--count", "9");
	tap_check(o.quiet && !strcmp(o.name, "n2") && o.count == 9 &&
		  o.calls == 2 && first == 6,
		  "long spellings, --name=VALUE, -cVALUE, the last one wins");
	PARSE(&first, "--na", "n3", "--qui");
	tap_check(o.quiet && !strcmp(o.name, "n3"),
		  "an unambiguous abbreviation is the option");
	PARSE(&first, "-x");
	tap_check(o.quiet && !*out,
		  "a hidden option is accepted, not listed");
}

static void test_operands(void)
{
	int first = -1;

	PARSE(&first, "a", "-q", "b");
	tap_check(o.quiet && first == 2,
		  "options after operands are read (permuted)");
	cmd.flags = LC_OPT_STOP_AT_OPERAND;
	PARSE(&first, "-q", "cmd", "-c", "1");
	tap_check(o.quiet && !o.calls && first == 2,
		  "LC_OPT_STOP_AT_OPERAND: options end at the first operand");
	cmd.flags = 0;
	PARSE(&first, "--", "-q");
	tap_check(!o.quiet && first == 2, "\"--\" ends the options");
}

static void test_callback(void)
{
	int first = -1;

	tap_check(PARSE(&first, "-c", "bad") == 2 &&
		  !strcmp(err, "test-cmd: --count 'bad': not a count\n"),
		  "a callback's error: its message, the command's status");
	tap_check(PARSE(&first, "-c", "two", "-q") == 2 && !o.quiet,
		  "a callback's other value is an error too: nothing read after it");
	tap_check(PARSE(&first, "-c", "done", "-q") == -1 && !o.quiet,
		  "a callback's LC_OPT_DONE: -1, nothing read after it");
}

static void test_errors(void)
{
	int first = -1;

	tap_check(PARSE(&first, "--bogus") == 2 &&
		  strstr(err, "unrecognized option '--bogus'") &&
		  !strstr(err, "Try"),
		  "getopt's message for an unknown option, status 2");
	tap_check(PARSE(&first, "--name") == 2 &&
		  strstr(err, "requires an argument"),
		  "getopt's message for a missing argument");
	cmd.flags = LC_OPT_TRY_HELP;
	tap_check(PARSE(&first, "-z") == 2 && strstr(err, "invalid option") &&
		  strstr(err, "\nTry 'test-cmd --help'.\n"),
		  "LC_OPT_TRY_HELP: getopt's message, then \"Try ...\"");
	cmd.flags = LC_OPT_OWN_ERRORS;
	cmd.name = "sub";
	tap_check(PARSE(&first, "--bogus") == 2 &&
		  !strcmp(err, "test-cmd: sub: unknown option '--bogus' (see test-cmd --help)\n"),
		  "LC_OPT_OWN_ERRORS: one line of the command's own");
	tap_check(PARSE(&first, "-q", "--name") == 2 &&
		  !strcmp(err, "test-cmd: sub: unknown option '--name' (see test-cmd --help)\n"),
		  "LC_OPT_OWN_ERRORS: a missing argument names the option");
	cmd.name = NULL;
	tap_check(PARSE(&first, "-z") == 2 &&
		  !strcmp(err, "test-cmd: unknown option '-z' (see test-cmd --help)\n"),
		  "LC_OPT_OWN_ERRORS without a name");
	cmd.flags = 0;
}

static void test_help_text(void)
{
	int first = -1;

	tap_check(PARSE(&first, "--help") == -1 && !strcmp(out, help_text) &&
		  !*err,
		  "--help: head, options at column 24, tail, on stdout");
	if (strcmp(out, help_text))
		printf("# got:\n%s", out);
	cmd.column = 30;
	PARSE(&first, "-h");
	tap_check(strstr(out, "\n  -q, --quiet                 say nothing\n") &&
		  strstr(out, "\n                              (a second line)\n"),
		  "the column of the command");
	cmd.column = 0;
	tap_check(PARSE(&first, "--list-options") == -1 &&
		  !strcmp(out, list_text),
		  "--list-options alone: one line an option, hidden ones left out");
	if (strcmp(out, list_text))
		printf("# got:\n%s", out);
	tap_check(PARSE(&first, "--list-options", "x") == 2,
		  "--list-options is no option among others");
}

static const struct lc_option grouped_options[] = {
	LC_OPT_GROUP("Input:"),
	LC_OPT_STRING('C', "column", &o.name, "N", "value column"),
	LC_OPT_GROUP("Output:"),
	LC_OPT_FLAG('n', "no-plot", &o.quiet, "no plot"),
	LC_OPT_STRING('w', NULL, &o.name, "N", "plot width"),
	LC_OPT_END(),
};

static void test_groups(void)
{
	const struct lc_opt_cmd grouped = {
		.command = "test-cmd",
		.options = grouped_options,
		.head = "Usage: test-cmd FILE...\n",
		.column = 20,
		.flags = LC_OPT_ARG_EQUALS,
		.status = 2,
	};
	char **args = (char *[]){ "--no-plot", "--column", "3", NULL };
	FILE *f = tmpfile();
	int first = -1;
	size_t n;

	tap_check(!parse(&grouped, args, &first, out, err, sizeof(out)) &&
		  o.quiet && !strcmp(o.name, "3") && first == 4,
		  "groups: the options around the titles are read");
	lc_opt_help(&grouped, f);
	lc_opt_list(&grouped, f);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	tap_check(!strcmp(out, "Usage: test-cmd FILE...\n"
			  "\n"
			  "Input:\n"
			  "  -C, --column=N    value column\n"
			  "\n"
			  "Output:\n"
			  "  -n, --no-plot     no plot\n"
			  "  -w N              plot width\n"
			  "-C --column=N\n"
			  "-n --no-plot\n"
			  "-w N\n"),
		  "groups and LC_OPT_ARG_EQUALS: titles in --help, \"--column=N\"");
}

int main(void)
{
	lc_set_prog("test-cmd");
	test_types();
	test_operands();
	test_callback();
	test_errors();
	test_help_text();
	test_groups();
	return tap_exit_status();
}
