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

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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

/*
 * The one report that a test may meet and still pass: the kernel's own
 * race between an open() of a debugfs file and delete_module() of the
 * file's module (the guide, "The kernel's unload race").  delete_module()
 * drops the module's last reference before it sets MODULE_STATE_GOING; an
 * open() between the two finds fops_get() failing on a module that is
 * still live, and debugfs WARNs.
 *
 * A test that opens the module's files while it unloads it writes
 * LC_KMSG_UNLOAD_BEGINS to the kernel log before delete_module() and
 * LC_KMSG_UNLOAD_ENDS once it returned (the WARN comes before: the
 * module's exit waits for the open in debugfs_remove()).  Between the two,
 * on a kernel that has the window, the reports of that WARN are tolerated
 * when each is exactly it: a "WARNING:" line in one of
 * lc_kmsg_unload_race_functions, one LC_KMSG_UNLOAD_RACE line naming a
 * file of lc_kmsg_unload_race_files, at most one "Call Trace".  Anything
 * else between the markers (another WARN, the same text on another file
 * or in another function, a stack dump) makes every report there count.
 * kmsg.sh reads the markers, the text, the versions and both lists from
 * here: keep each entry on a line of its own, as above.
 */
#define LC_KMSG_UNLOAD_BEGINS	"lttng_calibrate test: unload begins"
#define LC_KMSG_UNLOAD_ENDS	"lttng_calibrate test: unload ends"
#define LC_KMSG_UNLOAD_RACE	"debugfs file owner did not clean up at exit: "
/*
 * The kernels read that have the window, as MAJOR * 1000 + MINOR: 6.1 to
 * 7.2.  Outside, the report fails until someone reads that kernel's
 * kernel/module/main.c and fs/debugfs/file.c and moves these.
 */
#define LC_KMSG_UNLOAD_RACE_FIRST	6001
#define LC_KMSG_UNLOAD_RACE_LAST	7002

/*
 * Where debugfs WARNs it: full_proxy_open() in 6.1 and 6.12,
 * full_proxy_open_regular() in 7.2, open_proxy_open() for the files of
 * debugfs_create_file_unsafe() in all three.
 */
static const char *const lc_kmsg_unload_race_functions[] __attribute__((unused)) = {
	"full_proxy_open",
	"full_proxy_open_regular",
	"open_proxy_open",
};

/* The module's debugfs files (Documentation/ABI/testing/). */
static const char *const lc_kmsg_unload_race_files[] __attribute__((unused)) = {
	"run",
	"results",
	"results_kv",
	"status",
	"counters",
	"events",
	"deltas",
	"probe",
	"target",
	"work_cycles",
	"irqs",
};

/**
 * lc_kmsg_unload_race_kernel() - whether a kernel has the unload window
 * @release: its release, as uname -r gives it ("6.1.0-57-amd64")
 *
 * Return: true for LC_KMSG_UNLOAD_RACE_FIRST to LC_KMSG_UNLOAD_RACE_LAST.
 */
static inline bool lc_kmsg_unload_race_kernel(const char *release)
{
	int major, minor, v;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return false;
	v = major * 1000 + minor;
	return v >= LC_KMSG_UNLOAD_RACE_FIRST && v <= LC_KMSG_UNLOAD_RACE_LAST;
}

/**
 * struct lc_kmsg_scan - a kernel log read line by line
 * @window: the kernel has the unload window: tolerate its reports
 * @open: between LC_KMSG_UNLOAD_BEGINS and LC_KMSG_UNLOAD_ENDS
 * @warns: "WARNING:" lines in a race function, since the window opened
 * @messages: LC_KMSG_UNLOAD_RACE lines on the module's files, the same
 * @traces: "Call Trace" lines, the same
 * @foreign: any other line of a pattern there, or the text on another file
 * @errors: pattern lines that count, windows resolved so far
 * @tolerated: reports of the race tolerated
 */
struct lc_kmsg_scan {
	bool window, open;
	int warns, messages, traces, foreign;
	int errors, tolerated;
};

static inline bool lc_kmsg_in_list(const char *s, size_t len,
				   const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(s, list[i], len))
			return true;
	return false;
}

/* " FUNCTION+0x" of a race function in a "WARNING:" line. */
static inline bool lc_kmsg_race_function(const char *line)
{
	size_t n = sizeof(lc_kmsg_unload_race_functions) /
		   sizeof(*lc_kmsg_unload_race_functions);
	const char *p, *plus;

	for (p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
		plus = strstr(p + 1, "+0x");
		if (plus && !memchr(p + 1, ' ', plus - p - 1) &&
		    lc_kmsg_in_list(p + 1, plus - p - 1,
				    lc_kmsg_unload_race_functions, n))
			return true;
	}
	return false;
}

/* LC_KMSG_UNLOAD_RACE on a file of lc_kmsg_unload_race_files: 1; on another: -1 */
static inline int lc_kmsg_race_message(const char *line)
{
	size_t n = sizeof(lc_kmsg_unload_race_files) /
		   sizeof(*lc_kmsg_unload_race_files);
	const char *name = strstr(line, LC_KMSG_UNLOAD_RACE);
	size_t len;

	if (!name)
		return 0;
	name += strlen(LC_KMSG_UNLOAD_RACE);
	len = strcspn(name, "\r\n");
	return lc_kmsg_in_list(name, len, lc_kmsg_unload_race_files, n) ? 1 : -1;
}

/**
 * lc_kmsg_scan_start() - start reading a kernel log
 * @s: the scan
 * @release: the kernel's release (uname -r), for the window
 */
static inline void lc_kmsg_scan_start(struct lc_kmsg_scan *s,
				      const char *release)
{
	memset(s, 0, sizeof(*s));
	s->window = lc_kmsg_unload_race_kernel(release);
}

/* An unload window closes: its reports tolerated, or counted. */
static inline void lc_kmsg_scan_close(struct lc_kmsg_scan *s, bool ended)
{
	if (ended && s->window && !s->foreign && s->warns == s->messages &&
	    s->traces <= s->warns)
		s->tolerated += s->warns;
	else
		s->errors += s->warns + s->traces + s->foreign;
	s->open = false;
	s->warns = 0;
	s->messages = 0;
	s->traces = 0;
	s->foreign = 0;
}

/**
 * lc_kmsg_scan_line() - read one line (or one record) of a kernel log
 * @s: the scan
 * @line: the line, NUL-terminated
 *
 * Return: the pattern of lc_kmsg_patterns the line holds, or NULL.  Inside
 * an unload window whether it counts is known at LC_KMSG_UNLOAD_ENDS: read
 * @s->errors and @s->tolerated after lc_kmsg_scan_end().
 */
static inline const char *lc_kmsg_scan_line(struct lc_kmsg_scan *s,
					    const char *line)
{
	const char *pattern = lc_kmsg_match(line);
	int message;

	if (strstr(line, LC_KMSG_UNLOAD_BEGINS)) {
		s->open = true;
		return pattern;
	}
	if (strstr(line, LC_KMSG_UNLOAD_ENDS)) {
		if (s->open)
			lc_kmsg_scan_close(s, true);
		return pattern;
	}
	if (!s->open) {
		s->errors += !!pattern;
		return pattern;
	}
	message = lc_kmsg_race_message(line);
	if (message > 0)
		s->messages++;
	else if (message < 0)
		s->foreign++;
	if (!pattern)
		return NULL;
	if (!strcmp(pattern, "WARNING:") && lc_kmsg_race_function(line))
		s->warns++;
	else if (!strcmp(pattern, "Call Trace"))
		s->traces++;
	else
		s->foreign++;
	return pattern;
}

/**
 * lc_kmsg_scan_end() - the log read: a window left open counts whole
 * @s: the scan
 *
 * Return: the pattern lines that count (@s->errors).
 */
static inline int lc_kmsg_scan_end(struct lc_kmsg_scan *s)
{
	if (s->open)
		lc_kmsg_scan_close(s, false);
	return s->errors;
}

#endif /* LTTNG_CALIBRATE_KMSG_PATTERNS_H */
