// SPDX-License-Identifier: GPL-2.0
/*
 * A command's options from its one table (options.h): getopt_long()'s
 * arguments built from it, each option found again by the code getopt
 * returns, --help's option list and the list for scripts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lc.h"
#include "options.h"

/* Options of one command; a longer table is a bug, refused at parse. */
#define LC_OPT_MAX		48
/* getopt_long()'s code of the long option of entry N. */
#define LC_OPT_CODE(n)		(256 + (n))
#define LC_OPT_COLUMN		24

static size_t lc_opt_count(const struct lc_option *options)
{
	size_t n = 0;

	while (options[n].type != LC_OPT_TYPE_END)
		n++;
	return n;
}

/* The entry getopt_long() returned @code for, or NULL. */
static const struct lc_option *lc_opt_find(const struct lc_option *options,
					   size_t nr, int code)
{
	size_t i;

	if (code >= LC_OPT_CODE(0) && code < LC_OPT_CODE((int)nr))
		return &options[code - LC_OPT_CODE(0)];
	for (i = 0; i < nr; i++)
		if (options[i].short_name && options[i].short_name == code)
			return &options[i];
	return NULL;
}

/* getopt_long()'s option string and long options for the table. */
static void lc_opt_getopt_args(const struct lc_opt_cmd *cmd, size_t nr,
			       char *shortopts, struct option *longopts)
{
	const struct lc_option *opt;
	size_t i, n = 0;
	char *s = shortopts;

	if (cmd->flags & LC_OPT_STOP_AT_OPERAND)
		*s++ = '+';
	for (i = 0; i < nr; i++) {
		opt = &cmd->options[i];
		if (opt->short_name) {
			*s++ = (char)opt->short_name;
			if (opt->argh)
				*s++ = ':';
		}
		if (opt->long_name) {
			longopts[n].name = opt->long_name;
			longopts[n].has_arg = opt->argh ? required_argument :
							  no_argument;
			longopts[n].flag = NULL;
			longopts[n].val = LC_OPT_CODE((int)i);
			n++;
		}
	}
	*s = '\0';
	memset(&longopts[n], 0, sizeof(longopts[n]));
}

/* What getopt_long() refused, said as the command says it. */
static int lc_opt_bad(const struct lc_opt_cmd *cmd, char **argv)
{
	if (cmd->flags & LC_OPT_OWN_ERRORS) {
		if (cmd->name)
			lc_err("%s: unknown option '%s' (see %s --help)",
			       cmd->name, argv[optind - 1], cmd->command);
		else
			lc_err("unknown option '%s' (see %s --help)",
			       argv[optind - 1], cmd->command);
	} else if (cmd->flags & LC_OPT_TRY_HELP) {
		fprintf(stderr, "Try '%s --help'.\n", cmd->command);
	}
	return cmd->status;
}

/* One option found: 0 to go on, -1 when done, else the exit status. */
static int lc_opt_run(const struct lc_opt_cmd *cmd,
		      const struct lc_option *opt, const char *arg)
{
	int rc;

	switch (opt->type) {
	case LC_OPT_TYPE_FLAG:
		if (opt->value)
			*(int *)opt->value = 1;
		return 0;
	case LC_OPT_TYPE_STRING:
		*(const char **)opt->value = arg;
		return 0;
	case LC_OPT_TYPE_CALLBACK:
		rc = opt->cb(opt, arg);
		if (rc == LC_OPT_DONE)
			return -1;
		return rc ? cmd->status : 0;
	case LC_OPT_TYPE_HELP:
		lc_opt_help(cmd, stdout);
		return -1;
	default:
		return cmd->status;
	}
}

/**
 * lc_opt_parse() - read a command's options from its command line
 * @cmd: the command
 * @argc: the arguments' count
 * @argv: the arguments, argv[0] being the command (or the subcommand)
 * @first: where to store the index of the first operand
 *
 * "COMMAND --list-options", alone, lists the options (lc_opt_list()) and
 * is done.  Otherwise getopt_long() reads the options, with getopt's
 * messages unless @cmd's flags say otherwise, and each option does what
 * its entry says, in the order given.
 *
 * Return: 0 to go on with the operands from *@first, -1 when an option
 * did all there was to do (--help: the command exits 0), or @cmd's
 * status after a message saying what is wrong.
 */
int lc_opt_parse(const struct lc_opt_cmd *cmd, int argc, char **argv,
		 int *first)
{
	char shortopts[2 * LC_OPT_MAX + 2];
	struct option longopts[LC_OPT_MAX + 1];
	const struct lc_option *opt;
	size_t nr = lc_opt_count(cmd->options);
	int code, rc;

	if (nr > LC_OPT_MAX) {
		lc_err("%s: %zu options, at most %d", cmd->command, nr,
		       LC_OPT_MAX);
		return cmd->status;
	}
	if (argc == 2 && !strcmp(argv[1], LC_OPT_LIST_OPTIONS)) {
		lc_opt_list(cmd, stdout);
		return -1;
	}
	lc_opt_getopt_args(cmd, nr, shortopts, longopts);
	/* 0, not 1: glibc reads the "+" of a second table again. */
	optind = 0;
	opterr = !(cmd->flags & LC_OPT_OWN_ERRORS);
	while ((code = getopt_long(argc, argv, shortopts, longopts,
				   NULL)) != -1) {
		opt = lc_opt_find(cmd->options, nr, code);
		if (!opt)
			return lc_opt_bad(cmd, argv);
		rc = lc_opt_run(cmd, opt, optarg);
		if (rc)
			return rc;
	}
	*first = optind;
	return 0;
}

/* What joins an option to its argument's name: ' ', or '=' (--column=N). */
static char lc_opt_arg_sep(const struct lc_opt_cmd *cmd,
			   const struct lc_option *opt)
{
	return opt->long_name && (cmd->flags & LC_OPT_ARG_EQUALS) ? '=' : ' ';
}

/* Spaces to column @to from column @from, or a new line and the spaces. */
static void lc_opt_pad(FILE *out, int from, int to)
{
	if (from > to - 2) {
		fputc('\n', out);
		from = 0;
	}
	fprintf(out, "%*s", to - from, "");
}

/**
 * lc_opt_parse_all() - lc_opt_parse() for a command that takes no operand
 * @cmd: the command
 * @argc: the arguments' count
 * @argv: the arguments, argv[0] being the command (or the subcommand)
 *
 * Return: as lc_opt_parse(); an operand left is refused with @cmd's
 * status ("NAME: unexpected argument 'WORD'").
 */
int lc_opt_parse_all(const struct lc_opt_cmd *cmd, int argc, char **argv)
{
	int first, rc = lc_opt_parse(cmd, argc, argv, &first);

	if (rc || first >= argc)
		return rc;
	if (cmd->name)
		lc_err("%s: unexpected argument '%s'", cmd->name, argv[first]);
	else
		lc_err("unexpected argument '%s'", argv[first]);
	return cmd->status;
}

/**
 * lc_opt_print_options() - the option list of a command's --help
 * @cmd: the command
 * @out: where to print it
 *
 * One option a line, "  -n, --iterations N    its help" with the help at
 * @cmd's column (on the next line when the option is wider), the help's
 * further lines at that column too.  Hidden options are left out.
 */
void lc_opt_print_options(const struct lc_opt_cmd *cmd, FILE *out)
{
	int column = cmd->column ? cmd->column : LC_OPT_COLUMN;
	const struct lc_option *opt;
	const char *p, *nl;
	int len;

	for (opt = cmd->options; opt->type != LC_OPT_TYPE_END; opt++) {
		if (opt->type == LC_OPT_TYPE_GROUP)
			fprintf(out, "\n%s\n", opt->help);
		if (opt->type == LC_OPT_TYPE_GROUP || !opt->help)
			continue;
		if (opt->short_name)
			len = fprintf(out, "  -%c%s", opt->short_name,
				      opt->long_name ? ", " : "");
		else
			len = fprintf(out, "      ");
		if (opt->long_name)
			len += fprintf(out, "--%s", opt->long_name);
		if (opt->argh)
			len += fprintf(out, "%c%s", lc_opt_arg_sep(cmd, opt),
				       opt->argh);
		lc_opt_pad(out, len, column);
		for (p = opt->help; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			if (p != opt->help)
				fprintf(out, "%*s", column, "");
			fprintf(out, "%.*s\n",
				(int)(nl ? (size_t)(nl - p) : strlen(p)), p);
		}
	}
}

/**
 * lc_opt_help() - a command's --help
 * @cmd: the command
 * @out: where to print it
 *
 * Its head, its options (lc_opt_print_options()), then what its more()
 * prints and its tail.
 */
void lc_opt_help(const struct lc_opt_cmd *cmd, FILE *out)
{
	fputs(cmd->head, out);
	lc_opt_print_options(cmd, out);
	if (cmd->more)
		cmd->more(out);
	if (cmd->tail)
		fputs(cmd->tail, out);
}

/**
 * lc_opt_list() - the options, for scripts ("COMMAND --list-options")
 * @cmd: the command
 * @out: where to print them
 *
 * One line an option that --help shows: its spellings ("-n",
 * "--iterations"), then the name of its argument when it takes one, one
 * space between words; with LC_OPT_ARG_EQUALS, the long spelling and the
 * argument joined by '=' ("--column=N"), as --help writes them.  The man
 * page test and the bash completion read it.
 */
void lc_opt_list(const struct lc_opt_cmd *cmd, FILE *out)
{
	const struct lc_option *opt;

	for (opt = cmd->options; opt->type != LC_OPT_TYPE_END; opt++) {
		if (opt->type == LC_OPT_TYPE_GROUP || !opt->help)
			continue;
		if (opt->short_name)
			fprintf(out, "-%c%s", opt->short_name,
				opt->long_name ? " " : "");
		if (opt->long_name)
			fprintf(out, "--%s", opt->long_name);
		if (opt->argh)
			fprintf(out, "%c%s", lc_opt_arg_sep(cmd, opt),
				opt->argh);
		fputc('\n', out);
	}
}

/**
 * lc_opt_format() - the callback of every tool's --format
 * @opt: its entry, whose value is an enum lc_format
 * @arg: table, csv or json (lc_format_parse())
 *
 * Return: 0, or -1 after lc_format_parse()'s message.
 */
int lc_opt_format(const struct lc_option *opt, const char *arg)
{
	return lc_format_parse(arg, opt->value);
}

/**
 * lc_opt_version() - the callback of every tool's --version
 * @opt: its entry, whose value is the text to print (LC_OPT_VERSION())
 * @arg: none
 *
 * Return: LC_OPT_DONE.
 */
int lc_opt_version(const struct lc_option *opt, const char *arg)
{
	(void)arg;
	puts(opt->value);
	return LC_OPT_DONE;
}
