/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs for the tracers (tracefs.c): where it is mounted, its files
 * read and written, its ring buffer and dynamic events, and what the
 * tracers changed there undone.  Calls tracer-run.c and tools/lib only.
 */
#ifndef LTTNG_CALIBRATE_CLI_TRACEFS_H
#define LTTNG_CALIBRATE_CLI_TRACEFS_H

#include <stddef.h>

#include "tracer-run.h"

#define LC_TRACER_TRACEFS	"/sys/kernel/tracing"

/* tracefs.c: tracefs */
void lc_tracefs_find(struct lc_tracer_ctx *ctx);
void lc_tracefs_release(struct lc_tracer_ctx *ctx);
int lc_tfs_write(const struct lc_tracer_ctx *ctx, const char *file,
		 const char *text, int flags);
char *lc_tfs_read(const struct lc_tracer_ctx *ctx, const char *file);
int lc_tfs_exists(const struct lc_tracer_ctx *ctx, const char *file);
int lc_tfs_has(const struct lc_tracer_ctx *ctx, const char *file,
	       const char *word);
void lc_tfs_line(const struct lc_tracer_ctx *ctx, const char *file,
		 char *buf, size_t len);
enum lc_tracer_prep lc_tracefs_need(struct lc_tracer_ctx *ctx,
				    const char *file, char *why,
				    size_t len);
void lc_tracefs_remove_event(struct lc_tracer_ctx *ctx, const char *file,
			     const char *group, const char *name);

/* tracefs.c: the ring buffer and dynamic events */
enum lc_tracer_prep lc_tracefs_buffer(struct lc_tracer_ctx *ctx,
				      int per_call, char *why, size_t len);
enum lc_tracer_prep lc_tracefs_buffer_kb(struct lc_tracer_ctx *ctx,
					 unsigned long long kb, char *why,
					 size_t len);
enum lc_tracer_prep lc_tracefs_dyn_event(struct lc_tracer_ctx *ctx,
					 const char *file, const char *def,
					 const char *enable, char *why,
					 size_t len);
int lc_tracefs_buffer_stats(struct lc_tracer_ctx *ctx, long long *entries,
			    long long *lost);
void lc_tracefs_buffer_release(struct lc_tracer_ctx *ctx);

#endif /* LTTNG_CALIBRATE_CLI_TRACEFS_H */
