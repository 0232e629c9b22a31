// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the published result and the files that show it.
 *
 * "results" is for people, "results_kv" for programs (stable key=value
 * lines, Documentation/ABI).  Both come from the same code: every fact is
 * written once, with its key and its label, by put_fact(), and every
 * figure of the tables once, by row_figures().  "status" shows the
 * progress of the run in progress.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-counters.h"

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

/* Protects last_result and published_runs. */
static DEFINE_MUTEX(result_lock);
static struct lttng_calibrate_result *last_result;
static u64 published_runs;

/**
 * lttng_calibrate_result_alloc() - an empty result for a run
 * @set: the run's settings
 * @asked: iterations asked for
 * @cpu: the run's CPU
 *
 * Context: process context, may sleep.
 * Return: the result, or NULL without memory.
 */
struct lttng_calibrate_result *
lttng_calibrate_result_alloc(const struct lttng_calibrate_settings *set,
			     u64 asked, int cpu)
{
	unsigned int nr = set->counters.nr, m, i;
	struct lttng_calibrate_result *res;
	int row;

	res = kvzalloc(struct_size(res, stats, 1 + nr), GFP_KERNEL_ACCOUNT);
	if (!res)
		return NULL;
	for (m = 0; m <= nr; m++)
		for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
			lttng_calibrate_stats_init(&res->stats[m][row]);
	res->asked = asked;
	res->cpu = cpu;
	res->irqs_enabled = set->irqs_enabled;
	res->mechanism = set->mechanism;
	res->target_kind = set->target_kind;
	res->work_cycles = set->work_cycles;
	res->nr_counters = nr;
	for (i = 0; i < nr; i++)
		res->counter[i].spec = set->counters.spec[i];
	return res;
}

/**
 * lttng_calibrate_result_publish() - make @res the last result
 * @res: a finished result; the files own it from now on
 *
 * Context: process context, may sleep.
 */
void lttng_calibrate_result_publish(struct lttng_calibrate_result *res)
{
	struct lttng_calibrate_result *old;

	mutex_lock(&result_lock);
	res->number = ++published_runs;
	old = last_result;
	last_result = res;
	mutex_unlock(&result_lock);
	kvfree(old);
}

/**
 * struct run_status - what "status" shows of the current run
 * @running: a run is in progress; set last, with release ordering, once the
 *	other fields describe it
 * @cpu: the CPU it is bound to
 * @asked: iterations asked for
 * @done: iterations done so far, updated once per chunk
 */
struct run_status {
	bool running;
	int cpu;
	u64 asked;
	u64 done;
};

static struct run_status run_status;

/**
 * lttng_calibrate_status_start() - "status" shows a run
 * @cpu: its CPU
 * @asked: its iterations
 */
void lttng_calibrate_status_start(int cpu, u64 asked)
{
	WRITE_ONCE(run_status.cpu, cpu);
	WRITE_ONCE(run_status.asked, asked);
	WRITE_ONCE(run_status.done, 0);
	/* Pairs with the acquire in status: the fields above are visible. */
	smp_store_release(&run_status.running, true);
}

/**
 * lttng_calibrate_status_update() - the run's progress
 * @done: iterations done
 */
void lttng_calibrate_status_update(u64 done)
{
	WRITE_ONCE(run_status.done, done);
}

/**
 * lttng_calibrate_status_stop() - "status" shows idle
 */
void lttng_calibrate_status_stop(void)
{
	/* Pairs with the acquire in status. */
	smp_store_release(&run_status.running, false);
}

/**
 * enum result_column - one column of a row of the results
 * @COLUMN_MEAN: mean
 * @COLUMN_STDDEV: sample standard deviation
 * @COLUMN_MIN: smallest sample
 * @COLUMN_MEDIAN: median, from the histogram
 * @COLUMN_P99: 99th percentile, from the histogram
 * @COLUMN_MAX: largest sample
 * @COLUMN_COLD: the cold first sample
 * @NR_COLUMNS: number of columns
 */
enum result_column {
	COLUMN_MEAN,
	COLUMN_STDDEV,
	COLUMN_MIN,
	COLUMN_MEDIAN,
	COLUMN_P99,
	COLUMN_MAX,
	COLUMN_COLD,
	NR_COLUMNS,
};

static const char *const stat_names[] = {
	[COLUMN_MEAN] = "mean",
	[COLUMN_STDDEV] = "stddev",
	[COLUMN_MIN] = "min",
	[COLUMN_MEDIAN] = "median",
	[COLUMN_P99] = "p99",
	[COLUMN_MAX] = "max",
	[COLUMN_COLD] = "cold",
};

static_assert(ARRAY_SIZE(stat_names) == NR_COLUMNS);

static const char *const row_names[] = {
	[LTTNG_CALIBRATE_TARGET] = "target",
	[LTTNG_CALIBRATE_BASELINE] = "baseline",
	[LTTNG_CALIBRATE_DIFFERENCE] = "difference",
};

static_assert(ARRAY_SIZE(row_names) == LTTNG_CALIBRATE_NR_ROWS);

static const char *const end_names[] = {
	[LTTNG_CALIBRATE_END_COMPLETE] = "complete",
	[LTTNG_CALIBRATE_END_INTERRUPTED] = "interrupted",
	[LTTNG_CALIBRATE_END_MIGRATED] = "migrated",
};

static_assert(ARRAY_SIZE(end_names) == LTTNG_CALIBRATE_NR_ENDS);

/**
 * struct results_table - one table of the results
 * @metric: 0 for time, 1 + i for counter i
 * @ns: time converted to nanoseconds (metric 0 only)
 * @name: what the table counts: "cycles", "ns", or "counter NAME"
 * @key: the same for results_kv keys: "cycles", "ns", "counter.NAME"
 */
struct results_table {
	unsigned int metric;
	bool ns;
	char name[64];
	char key[64];
};

/* Tables of a result: cycles, ns, then one per counter. */
static bool table_get(const struct lttng_calibrate_result *res, unsigned int i,
		      struct results_table *t)
{
	const char *counter;

	if (i > res->nr_counters + 1)
		return false;
	t->metric = i < 2 ? 0 : i - 1;
	t->ns = i == 1;
	if (i < 2) {
		strscpy(t->name, t->ns ? "ns" : "cycles", sizeof(t->name));
		strscpy(t->key, t->name, sizeof(t->key));
		return true;
	}
	counter = res->counter[t->metric - 1].spec.name;
	snprintf(t->name, sizeof(t->name), "counter %s", counter);
	snprintf(t->key, sizeof(t->key), "counter.%s", counter);
	return true;
}

/* A counter whose figures are withheld, or NULL. */
static const struct lttng_calibrate_counter_result *
table_invalid(const struct lttng_calibrate_result *res,
	      const struct results_table *t)
{
	const struct lttng_calibrate_counter_result *c;

	if (!t->metric)
		return NULL;
	c = &res->counter[t->metric - 1];
	return c->valid ? NULL : c;
}

/**
 * struct row_values - one row of the results, as printed
 * @count: number of samples
 * @milli: each column in thousandths of the unit
 */
struct row_values {
	u64 count;
	s64 milli[NR_COLUMNS];
};

/* Every figure of a table's row, in the table's unit. */
static void row_figures(const struct lttng_calibrate_result *res,
			const struct results_table *t, int row,
			struct row_values *val)
{
	struct lttng_calibrate_summary sum;
	int i;

	lttng_calibrate_stats_summarize(&res->stats[t->metric][row], &sum);
	val->count = sum.count;
	val->milli[COLUMN_MEAN] = sum.mean_milli;
	val->milli[COLUMN_STDDEV] = min_t(u64, sum.stddev_milli, S64_MAX);
	val->milli[COLUMN_MIN] = lttng_calibrate_milli(sum.min);
	val->milli[COLUMN_MEDIAN] = lttng_calibrate_milli(sum.median);
	val->milli[COLUMN_P99] = lttng_calibrate_milli(sum.p99);
	val->milli[COLUMN_MAX] = lttng_calibrate_milli(sum.max);
	val->milli[COLUMN_COLD] =
		lttng_calibrate_milli(res->cold[t->metric][row]);
	if (t->ns)
		for (i = 0; i < NR_COLUMNS; i++)
			val->milli[i] = lttng_calibrate_milli_to_ns(val->milli[i],
								    res->clock_khz);
}

/*
 * A value in thousandths: three decimals, except counts that are whole
 * numbers by nature (all but mean and standard deviation, outside ns).
 */
static const char *format_milli(char *buf, size_t size,
				s64 milli, bool decimals)
{
	u64 mag = milli < 0 ? -(u64)milli : milli;
	u32 frac;
	u64 whole = div_u64_rem(mag, 1000, &frac);

	if (decimals)
		snprintf(buf, size, "%s%llu.%03u", milli < 0 ? "-" : "", whole,
			 frac);
	else
		snprintf(buf, size, "%s%llu", milli < 0 ? "-" : "", whole);
	return buf;
}

/* One figure of a table: three decimals only where it has them. */
static const char *table_value(char *buf, size_t size,
			       const struct results_table *t,
			       int stat, s64 milli)
{
	return format_milli(buf, size, milli,
			    t->ns || stat == COLUMN_MEAN ||
			    stat == COLUMN_STDDEV);
}

/**
 * struct facts_out - where facts go, and in which form
 * @m: the file
 * @kv: "key=value" lines (results_kv), else "label: value" (results)
 */
struct facts_out {
	struct seq_file *m;
	bool kv;
};

/* One fact of a result, in the form of the file it goes to. */
static __printf(4, 5) void put_fact(const struct facts_out *o, const char *key,
				    const char *label, const char *fmt, ...)
{
	char value[64];
	va_list args;

	va_start(args, fmt);
	vsnprintf(value, sizeof(value), fmt, args);
	va_end(args);
	if (o->kv)
		seq_printf(o->m, "%s=%s\n", key, value);
	else
		seq_printf(o->m, "%-36s %s\n", label, value);
}

static void put_milli(const struct facts_out *o,
		      const char *key, const char *label, s64 milli)
{
	char buf[32];

	put_fact(o, key, label, "%s",
		 format_milli(buf, sizeof(buf), milli, true));
}

/* Means of the target and baseline rows, in thousandths of a cycle. */
static void means(const struct lttng_calibrate_result *res,
		  s64 *target_milli, s64 *baseline_milli)
{
	struct lttng_calibrate_summary sum;

	lttng_calibrate_stats_summarize(&res->stats[0][LTTNG_CALIBRATE_TARGET],
					&sum);
	*target_milli = sum.mean_milli;
	lttng_calibrate_stats_summarize(&res->stats[0][LTTNG_CALIBRATE_BASELINE],
					&sum);
	*baseline_milli = sum.mean_milli;
}

static void put_run(const struct facts_out *o,
		    const struct lttng_calibrate_result *res)
{
	put_fact(o, "run.number", "run:", "%llu", res->number);
	put_fact(o, "run.state", "state:", "%s", end_names[res->end]);
	put_fact(o, "run.partial", "partial:", "%d", res->done < res->asked);
	put_fact(o, "run.iterations.asked", "iterations asked:",
		 "%llu", res->asked);
	put_fact(o, "run.iterations.done", "iterations done:",
		 "%llu", res->done);
	put_fact(o, "run.cpu", "cpu:", "%d", res->cpu);
	put_fact(o, "run.irqs", "interrupts inside samples:", "%s",
		 res->irqs_enabled ? "enabled" : "disabled");
	put_fact(o, "clock.name", "clock:", "%s", res->clock_name);
	put_fact(o, "clock.khz", "clock kHz:", "%u", res->clock_khz);
	put_fact(o, "target.kind", "target:", "%s",
		 lttng_calibrate_target_name(res->target_kind));
	put_fact(o, "target.symbol", "target symbol:", "%s",
		 lttng_calibrate_target_symbol(res->target_kind));
	put_fact(o, "baseline.symbol",
		 "baseline symbol (never instrumented):", "%s",
		 LTTNG_CALIBRATE_BASELINE_SYMBOL);
	put_fact(o, "probe.mechanism", "probe:", "%s",
		 lttng_calibrate_mechanism_name(res->mechanism));
	put_fact(o, "probe.nmissed", "probe hits missed:", "%lu", res->nmissed);
	put_fact(o, "probe.work_cycles", "handler work (cycles):",
		 "%llu", res->work_cycles);
}

static void put_counters(const struct facts_out *o,
			 const struct lttng_calibrate_result *res)
{
	const struct lttng_calibrate_counter_result *c;
	char key[96], label[96];
	unsigned int i;

	if (o->kv) {
		seq_puts(o->m, "counters=");
		for (i = 0; i < res->nr_counters; i++)
			seq_printf(o->m, "%s%s", i ? "," : "",
				   res->counter[i].spec.name);
		seq_putc(o->m, '\n');
	}
	for (i = 0; i < res->nr_counters; i++) {
		c = &res->counter[i];
		snprintf(key, sizeof(key), "counter.%s.valid", c->spec.name);
		snprintf(label, sizeof(label), "counter %s valid:", c->spec.name);
		put_fact(o, key, label, "%d", c->valid);
		snprintf(key, sizeof(key), "counter.%s.counted", c->spec.name);
		snprintf(label, sizeof(label), "counter %s counted:",
			 c->spec.name);
		put_fact(o, key, label, "%d", c->counted);
		snprintf(key, sizeof(key), "counter.%s.refused", c->spec.name);
		snprintf(label, sizeof(label), "counter %s refused (errno):",
			 c->spec.name);
		put_fact(o, key, label, "%d", -c->refused);
		snprintf(key, sizeof(key), "counter.%s.enabled_ns", c->spec.name);
		snprintf(label, sizeof(label), "counter %s enabled (ns):",
			 c->spec.name);
		put_fact(o, key, label, "%llu", c->enabled);
		snprintf(key, sizeof(key), "counter.%s.running_ns", c->spec.name);
		snprintf(label, sizeof(label), "counter %s counting (ns):",
			 c->spec.name);
		put_fact(o, key, label, "%llu", c->running);
	}
}

/*
 * The overhead per call (the difference row's mean, with its 95 %
 * interval) per valid table, relative to the baseline, and the harness
 * cross-check: wall time per iteration, the time inside the two windows,
 * and the rest (the snapshots' own edges, statistics, loop, scheduling
 * points).
 */
static void put_overhead(const struct facts_out *o,
			 const struct lttng_calibrate_result *res)
{
	struct row_values d;
	struct results_table t;
	s64 target, baseline, pct, wall, ci;
	char key[96], label[96];
	unsigned int i;

	for (i = 0; table_get(res, i, &t); i++) {
		if (table_invalid(res, &t))
			continue;
		row_figures(res, &t, LTTNG_CALIBRATE_DIFFERENCE, &d);
		snprintf(key, sizeof(key), "overhead.%s.mean", t.key);
		snprintf(label, sizeof(label), "overhead per call, %s:", t.name);
		put_milli(o, key, label, d.milli[COLUMN_MEAN]);
		ci = lttng_calibrate_ci95_milli(d.milli[COLUMN_STDDEV],
						d.count);
		snprintf(key, sizeof(key), "overhead.%s.ci95", t.key);
		put_milli(o, key, "  +/- (95% confidence):", ci);
	}
	means(res, &target, &baseline);
	if (lttng_calibrate_percent_milli(target - baseline, baseline, &pct))
		put_milli(o, "overhead.relative_percent",
			  "overhead, % of the baseline:", pct);
	wall = div64_u64(lttng_calibrate_milli(res->wall_cycles), res->done);
	put_milli(o, "harness.wall_cycles_per_iteration",
		  "harness per iteration, wall cycles:", wall);
	put_milli(o, "harness.timed_cycles_per_iteration",
		  "  inside the two windows:", target + baseline);
	put_milli(o, "harness.outside_cycles_per_iteration",
		  "  outside them:", wall - target - baseline);
}

/* The facts of a result, then its tables, in @o's form. */
static void put_facts(const struct facts_out *o,
		      const struct lttng_calibrate_result *res)
{
	put_run(o, res);
	put_counters(o, res);
	if (res->done)
		put_overhead(o, res);
}

static void print_table(struct seq_file *m,
			const struct lttng_calibrate_result *res,
			const struct results_table *t)
{
	const struct lttng_calibrate_counter_result *bad;
	struct row_values val;
	char buf[32];
	int row, i, width;

	bad = table_invalid(res, t);
	if (bad && bad->refused) {
		seq_printf(m, "%s: NOT VALID, figures withheld: did not open on CPU %d: %s (error %d)\n",
			   t->name, res->cpu,
			   lttng_calibrate_counter_hint(&bad->spec,
							bad->refused),
			   bad->refused);
		return;
	}
	/* Counting all the time it was enabled, and reading 0 over it. */
	if (bad && !bad->counted && bad->running &&
	    bad->running == bad->enabled) {
		seq_printf(m, "%s: NOT VALID, figures withheld: never counted, it read 0 over the whole run (%llu ns enabled)\n",
			   t->name, bad->enabled);
		return;
	}
	if (bad) {
		seq_printf(m, "%s: NOT VALID, figures withheld: counted %llu of %llu ns enabled, or not on CPU %d all the time\n",
			   t->name, bad->running, bad->enabled, res->cpu);
		return;
	}
	/* The first column holds the table's name, however long. */
	width = max_t(int, 24, strlen(t->name));
	seq_printf(m, "%-*s %10s", width, t->name, "count");
	for (i = 0; i < NR_COLUMNS; i++)
		seq_printf(m, " %12s", stat_names[i]);
	seq_putc(m, '\n');
	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++) {
		row_figures(res, t, row, &val);
		seq_printf(m, "%-*s %10llu", width, row_names[row], val.count);
		for (i = 0; i < NR_COLUMNS; i++)
			seq_printf(m, " %12s",
				   table_value(buf, sizeof(buf), t, i,
					       val.milli[i]));
		seq_putc(m, '\n');
	}
}

static void kv_table(struct seq_file *m,
		     const struct lttng_calibrate_result *res,
		     const struct results_table *t)
{
	struct row_values val;
	const char *r;
	char buf[32];
	int row, i;

	if (table_invalid(res, t))
		return;
	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++) {
		r = row_names[row];
		row_figures(res, t, row, &val);
		seq_printf(m, "%s.%s.count=%llu\n", r, t->key, val.count);
		for (i = 0; i < NR_COLUMNS; i++)
			seq_printf(m, "%s.%s.%s=%s\n", r, t->key, stat_names[i],
				   table_value(buf, sizeof(buf), t, i,
					       val.milli[i]));
	}
}

static int show_results(struct seq_file *m, bool kv)
{
	const struct facts_out o = { .m = m, .kv = kv };
	const struct lttng_calibrate_result *res;
	struct results_table t;
	unsigned int i;

	if (mutex_lock_killable(&result_lock))
		return -EINTR;
	res = last_result;
	if (kv)
		seq_puts(m, "format=1\n");
	if (!res) {
		seq_puts(m, kv ? "run.state=none\n" :
			 "no run yet: write an iteration count to run, e.g. echo 100000 > run\n");
		goto out_unlock;
	}
	put_facts(&o, res);
	for (i = 0; table_get(res, i, &t); i++) {
		if (kv) {
			kv_table(m, res, &t);
		} else {
			seq_putc(m, '\n');
			print_table(m, res, &t);
		}
	}
out_unlock:
	mutex_unlock(&result_lock);
	return 0;
}

static int results_show(struct seq_file *m, void *v)
{
	return show_results(m, false);
}

LTTNG_CALIBRATE_DEFINE_SHOW(results);

static int results_kv_show(struct seq_file *m, void *v)
{
	return show_results(m, true);
}

LTTNG_CALIBRATE_DEFINE_SHOW(results_kv);

static int status_show(struct seq_file *m, void *v)
{
	struct run_status *st = &run_status;

	/* Pairs with the release in status_start(): fields are set. */
	if (!smp_load_acquire(&st->running)) {
		seq_puts(m, "state=idle\n");
		return 0;
	}
	seq_printf(m, "state=running\ncpu=%d\ndone=%llu\nasked=%llu\n",
		   READ_ONCE(st->cpu), READ_ONCE(st->done), READ_ONCE(st->asked));
	return 0;
}

LTTNG_CALIBRATE_DEFINE_SHOW(status);

/**
 * lttng_calibrate_results_init() - create "results", "results_kv", "status"
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept one of them from being created.
 */
int lttng_calibrate_results_init(struct dentry *dir)
{
	return lttng_calibrate_create_file("results", 0400, dir, NULL,
					   &results_fops) ?:
	       lttng_calibrate_create_file("results_kv", 0400, dir, NULL,
					   &results_kv_fops) ?:
	       lttng_calibrate_create_file("status", 0400, dir, NULL,
					   &status_fops);
}

/**
 * lttng_calibrate_results_exit() - free the last result
 *
 * Context: after the debugfs files are gone.
 */
void lttng_calibrate_results_exit(void)
{
	kvfree(last_result);
	last_result = NULL;
}
