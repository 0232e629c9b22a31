// SPDX-License-Identifier: GPL-2.0
/*
 * The mechanisms measured, one row each: every instrumentation mechanism
 * this kernel offers (every tracer's rows, lc_mechanisms[] of tracers.c)
 * attached to the module's target, one run against its
 * never-instrumented twin, what its tracer recorded counted, and all of
 * it detached and the module's settings put back, whatever happened;
 * Ctrl-C stops the run within one chunk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lttng-calibrate.h"
#include "mechanisms.h"

/**
 * struct lc_bench_module - the module's settings the bench changes
 * @probe: its probe setting as found
 * @target: its target setting as found
 * @work: its work_cycles as found
 */
struct lc_bench_module {
	char probe[LC_BENCH_NAME_MAX];
	char target[LC_BENCH_NAME_MAX];
	char work[LC_BENCH_NAME_MAX];
};

/* The word in brackets of a choice file ("none [kprobe] ..."). */
static void lc_bench_choice(const char *path, char *buf, size_t len)
{
	char *text = lc_read_file(path, NULL);
	char *open = text ? strchr(text, '[') : NULL;
	char *close = open ? strchr(open, ']') : NULL;

	buf[0] = '\0';
	if (close) {
		*close = '\0';
		snprintf(buf, len, "%s", open + 1);
	}
	free(text);
}

/**
 * struct lc_bench_state - what the bench keeps while it measures
 * @ctx: what the mechanisms see
 * @module: the module's settings as found, put back after every row
 * @tracer: the tracer that runs the writer in the row's run (perf,
 *	bpftrace), until the row is torn down
 */
struct lc_bench_state {
	struct lc_tracer_ctx ctx;
	struct lc_bench_module module;
	struct lc_proc tracer;
};

static void lc_bench_save_module(struct lc_bench_module *mod)
{
	char *work = lc_read_file(LC_DIR "/work_cycles", NULL);

	lc_bench_choice(LC_DIR "/probe", mod->probe, sizeof(mod->probe));
	lc_bench_choice(LC_DIR "/target", mod->target, sizeof(mod->target));
	snprintf(mod->work, sizeof(mod->work), "%s", work ? work : "");
	mod->work[strcspn(mod->work, "\n")] = '\0';
	free(work);
}

/* The module's probe, target and work_cycles as they were found. */
static void lc_bench_restore_module(const struct lc_bench_module *mod)
{
	if (mod->probe[0])
		lc_tracer_write(LC_DIR "/probe", mod->probe, 0);
	if (mod->target[0])
		lc_tracer_write(LC_DIR "/target", mod->target, 0);
	if (mod->work[0] && strcmp(mod->work, "0"))
		lc_tracer_write(LC_DIR "/work_cycles", mod->work, 0);
}

/* The row's numbers from the results_kv of its run. */
static void lc_bench_fill(struct lc_bench_row *row, const char *kv)
{
	row->measured = 1;
	row->overhead_cycles = lc_kv_double(kv, "overhead.cycles.mean", 0);
	row->ci95_cycles = lc_kv_double(kv, "overhead.cycles.ci95", 0);
	row->overhead_ns = lc_kv_double(kv, "overhead.ns.mean", 0);
	row->ci95_ns = lc_kv_double(kv, "overhead.ns.ci95", 0);
	row->stddev_cycles = lc_kv_double(kv,
					  "difference.cycles.stddev", 0);
	row->median_cycles = lc_kv_ll(kv, "difference.cycles.median", 0);
	row->samples = lc_kv_ll(kv, "run.iterations.done", 0);
}

/* The run itself: the bench writes N, or the tracer runs the writer. */
static int lc_bench_do_run(struct lc_bench_state *st,
			   const struct lc_bench_mech *m, char *why,
			   size_t len)
{
	char *argv[LC_TRACER_ARGV_MAX], buf[4096], count[32];
	char out[PATH_MAX + 16], err[PATH_MAX + 16], last[160];
	struct lc_tracer_ctx *ctx = &st->ctx;
	int e, code;

	if (!m->command) {
		snprintf(count, sizeof(count), "%llu\n", ctx->iterations);
		e = lc_tracer_write(LC_DIR "/run", count, 0);
		if (e && e != EINTR)
			snprintf(why, len, "writing %s/run: %s", LC_DIR,
				 strerror(e));
		return e ? -1 : 0;
	}
	if (m->command(ctx, m, argv, buf, sizeof(buf))) {
		snprintf(why, len, "no command line for %s", m->name);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/%s.out", ctx->tmpdir, m->name);
	snprintf(err, sizeof(err), "%s/%s.err", ctx->tmpdir, m->name);
	/* Its own group: teardown stops what is left of it. */
	st->tracer = (struct lc_proc){
		.argv = argv, .out = out, .err = err, .null_in = true,
		.group = true, .stop_on_signal = true,
		.kill_ms = LC_TRACER_KILL_MS,
	};
	if (lc_proc_start(&st->tracer)) {
		snprintf(why, len, "%s: %s", argv[0], strerror(errno));
		return -1;
	}
	code = lc_proc_wait(&st->tracer) ? -1 :
	       lc_proc_exit_code(st->tracer.status);
	if (code) {
		lc_tracer_last_line(err, last, sizeof(last));
		if (lc_signal_caught())
			snprintf(why, len, "interrupted");
		else
			snprintf(why, len, "%s exited with status %d: %s",
				 argv[0], code, last);
		return -1;
	}
	return 0;
}

/*
 * After a row, whatever happened: its tracer stopped, what its mechanism
 * attached detached, the module's settings put back.
 */
static void lc_bench_teardown(struct lc_bench_state *st,
			      const struct lc_bench_mech *m)
{
	lc_proc_reap(&st->tracer);
	if (m->teardown)
		m->teardown(&st->ctx, m);
	lc_bench_restore_module(&st->module);
}

/* One row: prepare, run, read the results, count, tear down. */
static void lc_bench_row(struct lc_bench_state *st, struct lc_bench *b,
			 const struct lc_bench_mech *m)
{
	struct lc_bench_row *row = lc_bench_add_row(b, m->name);
	struct lc_tracer_ctx *ctx = &st->ctx;
	char why[LC_BENCH_REASON_MAX] = "", state[32] = "";
	struct lc_tracer_count c = { 0 };
	long long before, after;
	const char *value;
	size_t len;
	int e, ran;

	if (!row)
		return;
	switch (m->prepare ? m->prepare(ctx, m, why, sizeof(why)) :
		LC_PREP_OK) {
	case LC_PREP_OK:
		break;
	case LC_PREP_UNAVAILABLE:
		lc_bench_row_set(row, LC_BENCH_UNAVAILABLE, "%s", why);
		goto out;
	default:
		lc_bench_row_set(row, LC_BENCH_FAILED, "%s", why);
		goto out;
	}
	e = lc_tracer_write(LC_DIR "/probe", m->probe, 0);
	if (!e)
		e = lc_tracer_write(LC_DIR "/target", m->target, 0);
	if (!e && st->module.work[0] && strcmp(st->module.work, "0"))
		e = lc_tracer_write(LC_DIR "/work_cycles", "0", 0);
	if (e) {
		lc_bench_row_set(row, LC_BENCH_FAILED,
				 "module settings (probe %s, target %s): %s",
				 m->probe, m->target, strerror(e));
		goto out;
	}
	if (lc_signal_caught()) {
		lc_bench_row_set(row, LC_BENCH_FAILED, "interrupted");
		goto out;
	}
	free(ctx->results);
	ctx->results = lc_read_file(LC_DIR "/results_kv", NULL);
	before = lc_kv_ll(ctx->results, "run.number", 0);
	ran = !lc_bench_do_run(st, m, why, sizeof(why));
	free(ctx->results);
	ctx->results = lc_read_file(LC_DIR "/results_kv", NULL);
	after = lc_kv_ll(ctx->results, "run.number", 0);
	value = lc_kv_value(ctx->results, "run.state", &len);
	if (value)
		snprintf(state, sizeof(state), "%.*s", (int)len, value);
	if (after <= before) {
		lc_bench_row_set(row, LC_BENCH_FAILED, "%s",
				 why[0] ? why : "the run did not take place");
		goto out;
	}
	lc_bench_fill(row, ctx->results);
	if (strcmp(state, "complete")) {
		lc_bench_row_set(row, LC_BENCH_FAILED,
				 "run %s (%lld of %llu iterations)",
				 lc_signal_caught() ? "interrupted" : state,
				 row->samples, ctx->iterations);
		goto out;
	}
	if (!ran) {
		lc_bench_row_set(row, LC_BENCH_FAILED, "%s", why);
		goto out;
	}
	if (!m->count)
		goto out;
	/* Every run calls the target once more, for its cold sample. */
	row->events_expected = row->samples + 1;
	c.expected = row->events_expected;
	c.recorded = row->events_recorded;
	e = m->count(ctx, m, &c);
	row->events_recorded = c.recorded;
	if (e) {
		lc_bench_row_set(row, c.lost ? LC_BENCH_LOST : LC_BENCH_FAILED,
				 "%s", c.reason);
		goto out;
	}
	if (row->events_recorded < row->events_expected) {
		lc_bench_row_set(row, LC_BENCH_LOST, "lost %lld of %lld calls",
				 row->events_expected - row->events_recorded,
				 row->events_expected);
	} else if (row->events_recorded > row->events_expected) {
		lc_bench_row_set(row, LC_BENCH_FAILED,
				 "recorded %lld calls, more than the run made (another tracer on the target?)",
				 row->events_recorded);
	}
out:
	lc_bench_teardown(st, m);
}

/**
 * lc_mechanisms_listed() - is a name in a comma-separated list?
 * @list: the list, as --only takes it
 * @name: the name
 *
 * Return: 1 or 0.
 */
int lc_mechanisms_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static void lc_bench_header(struct lc_bench *b, unsigned long long n)
{
	struct utsname u;
	char *cpuinfo = lc_read_file("/proc/cpuinfo", NULL);
	char model[LC_BENCH_TEXT_MAX] = "unknown";
	const char *value;
	size_t len;

	if (!uname(&u))
		snprintf(b->kernel, sizeof(b->kernel), "%s", u.release);
	value = lc_field(cpuinfo, "model name\t: ", &len);
	if (value) {
		while (len && value[len - 1] == ' ')
			len--;
		snprintf(model, sizeof(model), "%.*s", (int)len, value);
	}
	snprintf(b->cpu_model, sizeof(b->cpu_model), "%s", model);
	free(cpuinfo);
	b->iterations = n;
	snprintf(b->clock, sizeof(b->clock), "tsc");
	b->clock_khz = -1;
}

static void lc_bench_clock(struct lc_bench *b)
{
	char *kv = lc_read_file(LC_DIR "/results_kv", NULL);
	const char *value;
	size_t len;

	value = lc_kv_value(kv, "clock.name", &len);
	if (value)
		snprintf(b->clock, sizeof(b->clock), "%.*s", (int)len, value);
	b->clock_khz = lc_kv_ll(kv, "clock.khz", -1);
	free(kv);
}

/* Does a row after @i, among those asked for, share @m's finish? */
static bool lc_bench_finish_later(const char *only, size_t i,
				  const struct lc_bench_mech *m)
{
	for (i++; i < lc_nr_mechanisms; i++)
		if (lc_mechanisms[i]->finish == m->finish &&
		    (!only ||
		     lc_mechanisms_listed(only, lc_mechanisms[i]->name)))
			return true;
	return false;
}

/**
 * lc_mechanisms_measure() - measure rows, for the bench or for another
 * command (predict)
 * @only: the rows, comma separated, as --only takes them, or NULL for all
 * @n: iterations of each run
 * @b: where the rows go, in the bench's order
 *
 * Every row is set up, measured and torn down; the rows' figures, their
 * ratios to the kprobe row and the module's clock go to @b.  A Ctrl-C
 * stops at the row it interrupts (lc_signal_caught() says so).
 *
 * Return: 0, or -1, @b left with no row, when the module or the scratch
 * directory cannot be set up (said on stderr).
 */
int lc_mechanisms_measure(const char *only, unsigned long long n,
			  struct lc_bench *b)
{
	static struct lc_bench_state st;
	struct lc_tracer_ctx *ctx = &st.ctx;
	size_t i;

	memset(&st, 0, sizeof(st));
	memset(b, 0, sizeof(*b));
	ctx->iterations = n;
	lc_bench_header(b, n);
	lc_signal_catch();
	if (lc_setup() || lc_tracer_scratch(ctx)) {
		lc_tracer_scratch_remove(ctx);
		return -1;
	}
	lc_bench_save_module(&st.module);
	lc_tracefs_find(ctx);
	snprintf(ctx->session, sizeof(ctx->session), "lttng-calibrate-bench-%d",
		 (int)getpid());
	/* LTTng's client writes its .lttngrc there, not in $HOME. */
	setenv("LTTNG_HOME", ctx->tmpdir, 1);

	for (i = 0; i < lc_nr_mechanisms && !lc_signal_caught(); i++) {
		const struct lc_bench_mech *m = lc_mechanisms[i];

		if (only && !lc_mechanisms_listed(only, m->name))
			continue;
		lc_bench_row(&st, b, m);
		if (m->finish && !lc_bench_finish_later(only, i, m))
			m->finish(ctx);
	}
	/* After an interruption too: every finish is idempotent. */
	for (i = 0; i < lc_nr_mechanisms; i++)
		if (lc_mechanisms[i]->finish)
			lc_mechanisms[i]->finish(ctx);
	lc_tracefs_release(ctx);
	lc_tracer_scratch_remove(ctx);
	unsetenv("LTTNG_HOME");
	free(ctx->results);
	ctx->results = NULL;
	lc_bench_clock(b);
	lc_bench_set_ratios(b);
	return 0;
}
