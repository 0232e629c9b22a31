// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own mechanisms, as lttng-calibrate bench measures them:
 * its probes (its probe file, set by the bench), nothing attached, and its
 * tracepoint off.  predict runs none of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lttng-calibrate.h"
#include "../tracers.h"

/* Module mechanisms: offered by the probe file? */
static enum lc_tracer_prep lc_module_prepare(struct lc_tracer_ctx *ctx,
					     const struct lc_bench_mech *m,
					     char *why, size_t len)
{
	char *text = lc_read_file(LC_DIR "/probe", NULL);
	char tag[64], *line;
	enum lc_tracer_prep rc = LC_PREP_OK;

	(void)ctx;
	if (!text) {
		snprintf(why, len, "%s/probe: %s", LC_DIR, strerror(errno));
		return LC_PREP_FAILED;
	}
	snprintf(tag, sizeof(tag), " %s ", m->probe);
	text[strcspn(text, "\n")] = ' ';
	if (!strstr(text, tag) && !strstr(text, tag + 1)) {
		snprintf(tag, sizeof(tag), "[%s]", m->probe);
		if (!strstr(text, tag)) {
			snprintf(why, len, "this lttng_calibrate has no %s probe",
				 m->probe);
			rc = LC_PREP_UNAVAILABLE;
		}
	}
	snprintf(tag, sizeof(tag), "# %s: unavailable: ", m->probe);
	line = strstr(text, tag);
	if (line) {
		line += strlen(tag);
		line[strcspn(line, "\n")] = '\0';
		snprintf(why, len, "the module says: %s", line);
		rc = LC_PREP_UNAVAILABLE;
	}
	free(text);
	return rc;
}

/* Module mechanisms: every call hit, but those the probe missed. */
static int lc_module_count(struct lc_tracer_ctx *ctx,
			   const struct lc_bench_mech *m,
			   struct lc_tracer_count *c)
{
	(void)m;
	c->recorded = c->expected -
		(ctx->results ? lc_kv_ll(ctx->results, "probe.nmissed", 0) : 0);
	return 0;
}

/* A row of the module's own probe: its probe file set to that name. */
#define LC_MODULE_PROBE(_probe, _order) {				\
	.name = _probe, .order = _order, .probe = _probe,		\
	.target = "function", .prepare = lc_module_prepare,		\
	.count = lc_module_count,					\
}

static const struct lc_bench_mech lc_kernel_rows[] = {
	/* Nothing attached: the target against its twin, as they are. */
	{ .name = "none", .order = 10, .probe = "none", .target = "function" },
	LC_MODULE_PROBE("kprobe", 20),
	LC_MODULE_PROBE("kretprobe", 30),
	LC_MODULE_PROBE("fprobe", 40),
	LC_MODULE_PROBE("fprobe-exit", 50),
	/* The tracepoint in the target, nothing attached to it. */
	{
		.name = "tracepoint-off", .order = 110, .probe = "none",
		.target = "tracepoint",
	},
};

const struct lc_tracer lc_tracer_kernel = {
	.name = "kernel",
	.rows = lc_kernel_rows, .nr_rows = ARRAY_SIZE(lc_kernel_rows),
};
