/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log text that means something went wrong: a warning, a BUG, an
 * oops, a lockdep report, a soft or hard lockup, a hung task, an RCU
 * stall, a panic, a sanitizer report, a debug-objects report, kmemleak's
 * notice of new leaks, a sleep in atomic context.  A test or a run whose kernel log
 * gained one of these fails.
 *
 * The one list, for C and shell alike: the C tests include this header
 * (lc_kmsg_match()); kmsg.sh, beside it, reads the lines between the
 * braces of lc_kmsg_patterns, so keep each entry on a line of its own, as
 * a fixed string (no '"' nor '\' inside) followed by a comma.
 */
#ifndef LTTNG_CALIBRATE_KMSG_PATTERNS_H
#define LTTNG_CALIBRATE_KMSG_PATTERNS_H

#include <stddef.h>
#include <string.h>

static const char *const lc_kmsg_patterns[] __attribute__((unused)) = {
	"WARNING:",
	"BUG:",
	"kernel BUG at",
	"Oops",
	"general protection",
	"Call Trace",
	"possible circular locking",
	"inconsistent lock state",
	"DEADLOCK",
	"detected stall",
	"hard LOCKUP",
	"blocked for more than",
	"Kernel panic",
	"UBSAN:",
	"KASAN:",
	"suspicious RCU usage",
	"sleeping function called from invalid context",
	"ODEBUG:",
	"suspected memory leaks",
};

/**
 * lc_kmsg_match() - the first pattern that a kernel log text holds
 * @text: one record, or several lines, NUL-terminated
 *
 * Return: the pattern found, or NULL when the text is clean.
 */
static inline const char *lc_kmsg_match(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(lc_kmsg_patterns) / sizeof(*lc_kmsg_patterns);
	     i++)
		if (strstr(text, lc_kmsg_patterns[i]))
			return lc_kmsg_patterns[i];
	return NULL;
}

#endif /* LTTNG_CALIBRATE_KMSG_PATTERNS_H */
