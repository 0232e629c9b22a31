/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LTTng sessions for the tracers (sessions.c): the lttng client, and the
 * lttng-sessiond a command starts and stops.  Calls tracer-run.c and
 * tools/lib only.
 */
#ifndef LTTNG_CALIBRATE_CLI_SESSIONS_H
#define LTTNG_CALIBRATE_CLI_SESSIONS_H

#include <stddef.h>

#include "tracer-run.h"

/* sessions.c: LTTng */
int lc_session_lttng(const char *err, ...);
void lc_session_finish(struct lc_tracer_ctx *ctx);
enum lc_tracer_prep lc_session_available(struct lc_tracer_ctx *ctx,
					 char *why, size_t len);

#endif /* LTTNG_CALIBRATE_CLI_SESSIONS_H */
