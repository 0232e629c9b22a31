// SPDX-License-Identifier: GPL-2.0
/*
 * The table of tracers, as the commands walk it: every tracer's file
 * (tracers/) hands one struct lc_tracer; the bench's rows and predict's
 * configurations are theirs, put in order once, by lc_tracers_init() at
 * the start of main().  Also what every command does after its last
 * tracer.
 */
#include <stdlib.h>

#include "tracers.h"

/* Every tracer; adding one is adding its file and its line here. */
const struct lc_tracer *const lc_tracers[] = {
	&lc_tracer_kernel,
	&lc_tracer_ftrace,
	&lc_tracer_perf,
	&lc_tracer_bpftrace,
	&lc_tracer_lttng,
};

const size_t lc_nr_tracers = ARRAY_SIZE(lc_tracers);

/* Every tracer's rows and configurations, in increasing order. */
const struct lc_bench_mech *lc_mechanisms[LC_TRACERS_MAX_ROWS];
size_t lc_nr_mechanisms;
const struct lc_predict_tracer *lc_predict_tracers[LC_TRACERS_MAX_ROWS];
size_t lc_predict_nr_tracers;

static int lc_mech_cmp(const void *a, const void *b)
{
	const struct lc_bench_mech *const *x = a, *const *y = b;

	return ((*x)->order > (*y)->order) - ((*x)->order < (*y)->order);
}

static int lc_config_cmp(const void *a, const void *b)
{
	const struct lc_predict_tracer *const *x = a, *const *y = b;

	return ((*x)->order > (*y)->order) - ((*x)->order < (*y)->order);
}

/**
 * lc_tracers_init() - lc_mechanisms[] and lc_predict_tracers[] from the
 * table, once, first thing in main(): the commands read them as arrays,
 * from their option parsing on.  A table larger than
 * LC_TRACERS_MAX_ROWS is a bug of this program.
 */
void lc_tracers_init(void)
{
	size_t i, j;

	if (lc_nr_mechanisms || lc_predict_nr_tracers)
		return;

	for (i = 0; i < lc_nr_tracers; i++) {
		const struct lc_tracer *t = lc_tracers[i];

		if (lc_nr_mechanisms + t->nr_rows > LC_TRACERS_MAX_ROWS ||
		    lc_predict_nr_tracers + t->nr_configs >
		    LC_TRACERS_MAX_ROWS)
			abort();
		for (j = 0; j < t->nr_rows; j++)
			lc_mechanisms[lc_nr_mechanisms++] = &t->rows[j];
		for (j = 0; j < t->nr_configs; j++)
			lc_predict_tracers[lc_predict_nr_tracers++] =
				&t->configs[j];
	}
	qsort(lc_mechanisms, lc_nr_mechanisms, sizeof(lc_mechanisms[0]),
	      lc_mech_cmp);
	qsort(lc_predict_tracers, lc_predict_nr_tracers,
	      sizeof(lc_predict_tracers[0]), lc_config_cmp);
}

/**
 * lc_tracers_finish() - after a command's last tracer, or an interruption:
 * the lttng-sessiond it started stopped, tracefs unmounted if it was
 * mounted
 * @ctx: the tracers' state
 */
void lc_tracers_finish(struct lc_tracer_ctx *ctx)
{
	lc_session_finish(ctx);
	lc_tracefs_release(ctx);
}
