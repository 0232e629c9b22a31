// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs for the tracers of every command: found, or mounted and
 * unmounted after; its files read and written; its ring buffer sized,
 * emptied, counted and put back as found; dynamic events defined and our
 * own removed.  Calls tools/lib only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lttng-calibrate.h"
#include "tracefs.h"

/**
 * lc_tracefs_find() - where tracefs is, mounting it when it is not
 * @ctx: the bench; @tracefs is set ("" when there is none)
 *
 * /sys/kernel/tracing, mounted there when it is not (and unmounted by
 * lc_tracefs_release()), else debugfs' tracing directory.
 */
void lc_tracefs_find(struct lc_tracer_ctx *ctx)
{
	char *const mount_argv[] = { "mount", "-t", "tracefs", "nodev",
				     LC_TRACER_TRACEFS, NULL };

	ctx->tracefs[0] = '\0';
	if (!access(LC_TRACER_TRACEFS "/trace", F_OK)) {
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_TRACER_TRACEFS);
		return;
	}
	if (!access(LC_TRACER_TRACEFS, F_OK) &&
	    !lc_tracer_exec(mount_argv, NULL, NULL, 30, false) &&
	    !access(LC_TRACER_TRACEFS "/trace", F_OK)) {
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_TRACER_TRACEFS);
		ctx->touched |= LC_T_TRACEFS_MOUNTED;
		return;
	}
	if (!access(LC_DEBUGFS "/tracing/trace", F_OK))
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_DEBUGFS "/tracing");
}

/**
 * lc_tracefs_release() - unmount tracefs if the bench mounted it
 * @ctx: the bench
 */
void lc_tracefs_release(struct lc_tracer_ctx *ctx)
{
	char *argv[] = { "umount", ctx->tracefs, NULL };

	if (!(ctx->touched & LC_T_TRACEFS_MOUNTED))
		return;
	lc_tracer_exec(argv, NULL, NULL, 30, false);
	ctx->touched &= ~LC_T_TRACEFS_MOUNTED;
}

static void lc_tfs_path(char *buf, size_t len, const struct lc_tracer_ctx *ctx,
			const char *file)
{
	snprintf(buf, len, "%s/%s", ctx->tracefs, file);
}

/**
 * lc_tfs_write() - write a string to a tracefs file in one write()
 * @ctx: the bench
 * @file: the file, relative to tracefs
 * @text: the string
 * @flags: O_APPEND, O_TRUNC
 *
 * Return: 0, or the errno.
 */
int lc_tfs_write(const struct lc_tracer_ctx *ctx, const char *file,
		 const char *text, int flags)
{
	char path[PATH_MAX + 64];

	lc_tfs_path(path, sizeof(path), ctx, file);
	return lc_tracer_write(path, text, flags);
}

/**
 * lc_tfs_read() - a whole tracefs file
 * @ctx: the bench
 * @file: the file, relative to tracefs
 *
 * Return: its text, to free(), or NULL.
 */
char *lc_tfs_read(const struct lc_tracer_ctx *ctx, const char *file)
{
	char path[PATH_MAX + 64];

	lc_tfs_path(path, sizeof(path), ctx, file);
	return lc_read_file(path, NULL);
}

/**
 * lc_tfs_exists() - is there such a tracefs file?
 * @ctx: the bench
 * @file: the file, relative to tracefs
 *
 * Return: 1 or 0 (0 too when there is no tracefs).
 */
int lc_tfs_exists(const struct lc_tracer_ctx *ctx, const char *file)
{
	char path[PATH_MAX + 64];

	if (!ctx->tracefs[0])
		return 0;
	lc_tfs_path(path, sizeof(path), ctx, file);
	return !access(path, F_OK);
}

/**
 * lc_tfs_has() - does a tracefs file (available_tracers, README) hold a word?
 * @ctx: the bench
 * @file: the file, relative to tracefs
 * @word: the word
 *
 * Return: 1 or 0.
 */
int lc_tfs_has(const struct lc_tracer_ctx *ctx, const char *file,
	       const char *word)
{
	char *text = lc_tfs_read(ctx, file);
	int found = text && strstr(text, word);

	free(text);
	return found;
}

/**
 * lc_tfs_line() - the first line of a tracefs file, without its newline
 * @ctx: the bench
 * @file: the file, relative to tracefs
 * @buf: where to copy it ("" when it cannot be read)
 * @len: its size
 */
void lc_tfs_line(const struct lc_tracer_ctx *ctx, const char *file,
		 char *buf, size_t len)
{
	char *text = lc_tfs_read(ctx, file);

	snprintf(buf, len, "%s", text ? text : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
}

/**
 * lc_tracefs_need() - is there tracefs, and that file in it?
 * @ctx: the bench
 * @file: the file, relative to tracefs, or NULL
 * @why: where to say why not
 * @len: its size
 *
 * Return: LC_PREP_OK, or LC_PREP_UNAVAILABLE with @why set.
 */
enum lc_tracer_prep lc_tracefs_need(struct lc_tracer_ctx *ctx,
				    const char *file, char *why,
				    size_t len)
{
	if (!ctx->tracefs[0]) {
		snprintf(why, len, "no tracefs (mount -t tracefs nodev %s)",
			 LC_TRACER_TRACEFS);
		return LC_PREP_UNAVAILABLE;
	}
	if (file && !lc_tfs_exists(ctx, file)) {
		snprintf(why, len, "this kernel has no %s/%s", ctx->tracefs,
			 file);
		return LC_PREP_UNAVAILABLE;
	}
	return LC_PREP_OK;
}

/**
 * lc_tracefs_remove_event() - disable and remove one of our dynamic events
 * @ctx: the bench
 * @file: kprobe_events or dynamic_events
 * @group: the event's group
 * @name: the event's name (only the bench's own: nobody else's is removed)
 *
 * Nothing happens when the event is not there.
 */
void lc_tracefs_remove_event(struct lc_tracer_ctx *ctx, const char *file,
			     const char *group, const char *name)
{
	char dir[128], def[160];

	snprintf(dir, sizeof(dir), "events/%s/%s", group, name);
	if (!lc_tfs_exists(ctx, dir))
		return;
	snprintf(def, sizeof(def), "%s/enable", dir);
	lc_tfs_write(ctx, def, "0", 0);
	snprintf(def, sizeof(def), "-:%s/%s", group, name);
	lc_tfs_write(ctx, file, def, O_APPEND);
}

/* The ring buffer and dynamic events */

/**
 * lc_tracefs_buffer_kb() - the ring buffer emptied, at least @kb per CPU,
 * tracing on
 * @ctx: the tracer context
 * @kb: the size per CPU it needs, in kB
 * @why: where to say why not
 * @len: its size
 *
 * lc_tracefs_buffer_release() puts back what it changed.
 *
 * Return: LC_PREP_OK, or LC_PREP_FAILED with @why set.
 */
enum lc_tracer_prep lc_tracefs_buffer_kb(struct lc_tracer_ctx *ctx,
					 unsigned long long kb, char *why,
					 size_t len)
{
	char line[64];
	int e;

	if (!(ctx->touched & LC_T_BUFFER_SIZE)) {
		char *exp;

		lc_tfs_line(ctx, "buffer_size_kb", line, sizeof(line));
		/* "7 (expanded: 1408)" before the buffer is first used */
		exp = strstr(line, "expanded: ");
		snprintf(ctx->saved_buffer_kb, sizeof(ctx->saved_buffer_kb),
			 "%llu", strtoull(exp ? exp + 10 : line, NULL, 10));
	}
	if (!(ctx->touched & LC_T_TRACING_ON))
		lc_tfs_line(ctx, "tracing_on", ctx->saved_tracing_on,
			    sizeof(ctx->saved_tracing_on));
	ctx->touched |= LC_T_TRACE_BUFFER;
	lc_tfs_write(ctx, "trace", "", O_TRUNC);
	if (strtoull(ctx->saved_buffer_kb, NULL, 10) < kb) {
		snprintf(line, sizeof(line), "%llu", kb);
		ctx->touched |= LC_T_BUFFER_SIZE;
		e = lc_tfs_write(ctx, "buffer_size_kb", line, 0);
		if (e) {
			snprintf(why, len, "buffer_size_kb %s: %s", line,
				 strerror(e));
			return LC_PREP_FAILED;
		}
	}
	ctx->touched |= LC_T_TRACING_ON;
	e = lc_tfs_write(ctx, "tracing_on", "1", 0);
	if (e) {
		snprintf(why, len, "tracing_on: %s", strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/**
 * lc_tracefs_buffer() - the ring buffer, for an ftrace row: emptied,
 * big enough for every call of the run (per CPU: the run's CPU gets them
 * all), tracing on
 * @ctx: the bench (its iterations size the buffer)
 * @per_call: events per call
 * @why: where to say why not
 * @len: its size
 *
 * Return: as lc_tracefs_buffer_kb().
 */
enum lc_tracer_prep lc_tracefs_buffer(struct lc_tracer_ctx *ctx,
				      int per_call, char *why, size_t len)
{
	unsigned long long need = (ctx->iterations + 1) * per_call * 64 /
				  1024 + 2048;

	/* 64 MB per CPU at most: a longer run may then lose events. */
	if (need > 65536)
		need = 65536;
	return lc_tracefs_buffer_kb(ctx, need, why, len);
}

/**
 * lc_tracefs_dyn_event() - a kprobe_events or dynamic_events definition,
 * then its enable file
 * @ctx: the bench
 * @file: kprobe_events or dynamic_events
 * @def: the definition
 * @enable: the event's enable file, relative to tracefs
 * @why: where to say why not
 * @len: its size
 *
 * Return: LC_PREP_OK, or LC_PREP_FAILED with @why set.
 */
enum lc_tracer_prep lc_tracefs_dyn_event(struct lc_tracer_ctx *ctx,
					 const char *file, const char *def,
					 const char *enable, char *why,
					 size_t len)
{
	int e;

	ctx->touched |= LC_T_DYN_EVENTS;
	e = lc_tfs_write(ctx, file, def, O_APPEND);
	if (e) {
		snprintf(why, len, "'%s' >> %s: %s", def, file, strerror(e));
		return LC_PREP_FAILED;
	}
	e = lc_tfs_write(ctx, enable, "1", 0);
	if (e) {
		snprintf(why, len, "%s: %s", enable, strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/**
 * lc_tracefs_buffer_stats() - what the ring buffer holds and lost, all CPUs
 * @ctx: the bench
 * @entries: where to put the events it holds
 * @lost: where to put those it lost (overrun, dropped)
 *
 * Tracing is turned off first: nothing more may come in while it reads.
 *
 * Return: 0, or -1 when there are no per-CPU stats.
 */
int lc_tracefs_buffer_stats(struct lc_tracer_ctx *ctx, long long *entries,
			    long long *lost)
{
	char pattern[PATH_MAX + 32];
	glob_t g;
	size_t i;

	*entries = 0;
	*lost = 0;
	lc_tfs_write(ctx, "tracing_on", "0", 0);
	snprintf(pattern, sizeof(pattern), "%s/per_cpu/cpu*/stats",
		 ctx->tracefs);
	if (glob(pattern, 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		char *text = lc_read_file(g.gl_pathv[i], NULL);

		if (!text)
			continue;
		*entries += lc_field_ll(text, "entries: ", 0);
		*lost += lc_field_ll(text, "overrun: ", 0);
		*lost += lc_field_ll(text, "dropped events: ", 0);
		free(text);
	}
	globfree(&g);
	return 0;
}

/**
 * lc_tracefs_buffer_release() - tracing_on, the ring buffer and its size as
 * lc_tracefs_buffer() found them
 * @ctx: the bench
 */
void lc_tracefs_buffer_release(struct lc_tracer_ctx *ctx)
{
	if (ctx->touched & LC_T_TRACING_ON)
		lc_tfs_write(ctx, "tracing_on",
			     ctx->saved_tracing_on[0] ?
			     ctx->saved_tracing_on : "1", 0);
	if (ctx->touched & LC_T_TRACE_BUFFER)
		lc_tfs_write(ctx, "trace", "", O_TRUNC);
	if (ctx->touched & LC_T_BUFFER_SIZE)
		lc_tfs_write(ctx, "buffer_size_kb", ctx->saved_buffer_kb, 0);
	ctx->touched &= ~(LC_T_TRACING_ON | LC_T_TRACE_BUFFER |
			  LC_T_BUFFER_SIZE);
}
