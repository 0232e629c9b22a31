/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's options, declared once: one table of LC_OPT_* entries, each
 * with its long name, short letter, argument name, help and what it sets
 * (or the function it calls).  The table gives the parsing (getopt_long()
 * underneath, so that abbreviations, permutation and getopt's own
 * messages stay those of every GNU tool), the option list of --help, and
 * "COMMAND --list-options", which the man page test and the bash
 * completion read instead of keeping lists of their own.
 */
#ifndef LTTNG_CALIBRATE_LIB_OPTIONS_H
#define LTTNG_CALIBRATE_LIB_OPTIONS_H

#include <stdio.h>

/* What a callback returns when the option did all there was to do. */
#define LC_OPT_DONE		1

/* The option that lists a command's options, for scripts (hidden). */
#define LC_OPT_LIST_OPTIONS	"--list-options"

enum lc_opt_type {
	LC_OPT_TYPE_END,
	LC_OPT_TYPE_FLAG,
	LC_OPT_TYPE_STRING,
	LC_OPT_TYPE_CALLBACK,
	LC_OPT_TYPE_HELP,
	LC_OPT_TYPE_GROUP,
};

struct lc_option;

/**
 * typedef lc_opt_cb - what an option of type LC_OPT_TYPE_CALLBACK does
 * @opt: its entry (@opt->value is the entry's target)
 * @arg: its argument, or NULL when it takes none
 *
 * Return: 0 to go on, LC_OPT_DONE when the command has nothing more to do
 * (it exits 0), or a negative value after printing what is wrong (any
 * other value is taken for an error too).
 */
typedef int (*lc_opt_cb)(const struct lc_option *opt, const char *arg);

/**
 * struct lc_option - one option of a command
 * @type: what it does (LC_OPT_TYPE_*)
 * @short_name: its letter, or 0
 * @long_name: its name after "--", or NULL
 * @argh: the name of its argument in --help ("N", "FILE"), or NULL when
 *	it takes none
 * @help: its help, lines separated by '\n'; NULL hides the option; a
 *	GROUP's title
 * @value: what it sets: an int (FLAG, may be NULL: accepted, nothing
 *	set), a const char * (STRING), anything its callback takes
 * @cb: its callback (CALLBACK)
 */
struct lc_option {
	enum lc_opt_type type;
	int short_name;
	const char *long_name;
	const char *argh;
	const char *help;
	void *value;
	lc_opt_cb cb;
};

/* A compile-time check that @v has type @type, as the value of @v. */
#define LC_OPT_CHECK(v, type)	((void *)(1 ? (v) : (type)NULL))

#define LC_OPT_END()	{ .type = LC_OPT_TYPE_END }
#define LC_OPT_FLAG(s, l, v, h) \
	{ .type = LC_OPT_TYPE_FLAG, .short_name = (s), .long_name = (l), \
	  .value = LC_OPT_CHECK(v, int *), .help = (h) }
#define LC_OPT_STRING(s, l, v, a, h) \
	{ .type = LC_OPT_TYPE_STRING, .short_name = (s), .long_name = (l), \
	  .value = LC_OPT_CHECK(v, const char **), .argh = (a), .help = (h) }
#define LC_OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = LC_OPT_TYPE_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f) }
#define LC_OPT_HELP(s, l, h) \
	{ .type = LC_OPT_TYPE_HELP, .short_name = (s), .long_name = (l), \
	  .help = (h) }
/* --version: prints @text, "PROGRAM VERSION", and the command exits 0. */
#define LC_OPT_VERSION(text) \
	LC_OPT_CALLBACK(0, "version", (void *)(text), NULL, "the version", \
			lc_opt_version)
/* A title in --help above the options that follow, after a blank line. */
#define LC_OPT_GROUP(h)	{ .type = LC_OPT_TYPE_GROUP, .help = (h) }

/* Where a command stops reading options, and who says what is wrong. */
enum lc_opt_flags {
	/* Options end at the first operand ("+" of getopt). */
	LC_OPT_STOP_AT_OPERAND	= 1 << 0,
	/*
	 * An unknown option or a missing argument: "PROG: NAME: unknown
	 * option 'WORD' (see COMMAND --help)" instead of getopt's message.
	 */
	LC_OPT_OWN_ERRORS	= 1 << 1,
	/* After getopt's message: "Try 'COMMAND --help'." */
	LC_OPT_TRY_HELP		= 1 << 2,
	/* --help and --list-options write "--column=N", not "--column N". */
	LC_OPT_ARG_EQUALS	= 1 << 3,
};

/**
 * struct lc_opt_cmd - a command: its options and the text around them
 * @command: the command as typed ("lttng-calibrate bench"), for messages
 * @name: the prefix of its own messages ("bench"), or NULL
 * @options: its options, ended by LC_OPT_END()
 * @head: --help before the options: usage and what it does
 * @more: prints --help after the options, or NULL
 * @tail: --help after @more, or NULL
 * @column: the column of the options' help in --help, 0 for 24
 * @flags: LC_OPT_STOP_AT_OPERAND, LC_OPT_OWN_ERRORS, LC_OPT_TRY_HELP,
 *	LC_OPT_ARG_EQUALS
 * @status: the exit status of a usage error
 */
struct lc_opt_cmd {
	const char *command;
	const char *name;
	const struct lc_option *options;
	const char *head;
	void (*more)(FILE *out);
	const char *tail;
	int column;
	unsigned int flags;
	int status;
};

int lc_opt_parse(const struct lc_opt_cmd *cmd, int argc, char **argv,
		 int *first);
int lc_opt_parse_all(const struct lc_opt_cmd *cmd, int argc, char **argv);
void lc_opt_help(const struct lc_opt_cmd *cmd, FILE *out);
void lc_opt_print_options(const struct lc_opt_cmd *cmd, FILE *out);
void lc_opt_list(const struct lc_opt_cmd *cmd, FILE *out);
int lc_opt_format(const struct lc_option *opt, const char *arg);
int lc_opt_version(const struct lc_option *opt, const char *arg);

#endif /* LTTNG_CALIBRATE_LIB_OPTIONS_H */
