// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: what kernel instrumentation costs, measured in the kernel.
 *
 * Writing an iteration count N to /sys/kernel/debug/lttng_calibrate/run pins
 * the writer to one CPU and, N times, times one call of lttng_calibrate_target()
 * and one call of its twin lttng_calibrate_baseline() with preemption off.
 * Whatever instruments the target (a kretprobe, an LTTng event, a kprobe
 * event, a bpftrace probe) shows up as the difference between the two.
 * "results" holds the statistics of the last run, "status" its progress.
 *
 * See Documentation/lttng-calibrate.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include "lttng-calibrate.h"

/* Longest text accepted by "run": a u64 in decimal and a newline. */
#define LTTNG_CALIBRATE_RUN_INPUT_MAX		32

/**
 * lttng_calibrate_set_uint() - set a ranged unsigned module parameter
 * @val: the text written
 * @kp: the parameter; its arg is a struct lttng_calibrate_uint_param
 *
 * Return: 0, or -EINVAL (and a message saying the range) out of range.
 */
static int lttng_calibrate_set_uint(const char *val,
				    const struct kernel_param *kp)
{
	const struct lttng_calibrate_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < p->min || v > p->max) {
		pr_err("%s=%s is invalid: must be %u..%u\n",
		       kp->name, val, p->min, p->max);
		return -EINVAL;
	}
	WRITE_ONCE(*p->value, v);
	return 0;
}

static int lttng_calibrate_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct lttng_calibrate_uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*p->value));
}

const struct kernel_param_ops lttng_calibrate_uint_ops = {
	.set = lttng_calibrate_set_uint,
	.get = lttng_calibrate_get_uint,
};

/*
 * Module parameters.  Each is read once when a run starts, so changing one
 * in sysfs affects the next run only.
 */
static int run_cpu = -1;
static unsigned int max_iterations = 100000000;
static unsigned int chunk_iterations = 10000;

static int lttng_calibrate_set_cpu(const char *val,
				   const struct kernel_param *kp)
{
	int v;

	if (kstrtoint(val, 0, &v) || v < -1 || v >= (int)nr_cpu_ids) {
		pr_err("cpu=%s is invalid: must be -1 (the writer's CPU) or 0..%u\n",
		       val, nr_cpu_ids - 1);
		return -EINVAL;
	}
	WRITE_ONCE(run_cpu, v);
	return 0;
}

static const struct kernel_param_ops lttng_calibrate_cpu_ops = {
	.set = lttng_calibrate_set_cpu,
	.get = param_get_int,
};

/* The histogram's buckets count in u32: at most 10^9 iterations. */
static struct lttng_calibrate_uint_param max_iterations_param = {
	.value = &max_iterations, .min = 1, .max = 1000000000,
};

static struct lttng_calibrate_uint_param chunk_iterations_param = {
	.value = &chunk_iterations, .min = 1, .max = 10000000,
};

module_param_cb(cpu, &lttng_calibrate_cpu_ops, &run_cpu, 0644);
MODULE_PARM_DESC(cpu,
		 "CPU that runs are pinned to; -1 (default): the CPU the writer is on");
module_param_cb(max_iterations, &lttng_calibrate_uint_ops,
		&max_iterations_param, 0644);
MODULE_PARM_DESC(max_iterations,
		 "Largest iteration count accepted by run (default 100000000, at most 1000000000)");
module_param_cb(chunk_iterations, &lttng_calibrate_uint_ops,
		&chunk_iterations_param, 0644);
MODULE_PARM_DESC(chunk_iterations,
		 "Iterations between two scheduling points of a run (default 10000)");

/*
 * The probe target and its baseline twin: same empty body, same prologue and
 * return.  __noipa keeps each a function of its own (no inlining, no
 * identical-code folding into one address, no assumption about its body at
 * the call site), and the calls go through pointers so every call is made.
 */
__noipa void lttng_calibrate_target(void)
{
}

__noipa void lttng_calibrate_baseline(void)
{
}

static struct dentry *lttng_calibrate_dir;

/* One run at a time; a second writer gets -EBUSY rather than waiting. */
static DEFINE_MUTEX(lttng_calibrate_run_lock);

/**
 * lttng_calibrate_run_trylock() - keep runs from starting, unless one is on
 *
 * Settings that a run reads when it starts change under this lock.
 *
 * Return: true when the lock was taken.
 */
bool lttng_calibrate_run_trylock(void)
{
	return mutex_trylock(&lttng_calibrate_run_lock);
}

/**
 * lttng_calibrate_run_unlock() - release lttng_calibrate_run_trylock()
 */
void lttng_calibrate_run_unlock(void)
{
	mutex_unlock(&lttng_calibrate_run_lock);
}

/* Protects lttng_calibrate_last and lttng_calibrate_runs. */
static DEFINE_MUTEX(lttng_calibrate_result_lock);
static struct lttng_calibrate_result *lttng_calibrate_last;
static u64 lttng_calibrate_runs;

/**
 * struct lttng_calibrate_progress - what "status" shows of the current run
 * @running: a run is in progress; set last, with release ordering, once the
 *	other fields describe it
 * @cpu: the CPU it is pinned to
 * @asked: iterations asked for
 * @done: iterations done so far, updated once per chunk
 */
struct lttng_calibrate_progress {
	bool running;
	int cpu;
	u64 asked;
	u64 done;
};

static struct lttng_calibrate_progress lttng_calibrate_progress;

static const char *const lttng_calibrate_row_names[LTTNG_CALIBRATE_NR_ROWS] = {
	[LTTNG_CALIBRATE_TARGET] = "target",
	[LTTNG_CALIBRATE_BASELINE] = "baseline",
	[LTTNG_CALIBRATE_DIFFERENCE] = "difference",
};

static const char *const lttng_calibrate_end_names[] = {
	[LTTNG_CALIBRATE_END_COMPLETE] = "complete",
	[LTTNG_CALIBRATE_END_INTERRUPTED] = "interrupted",
	[LTTNG_CALIBRATE_END_MIGRATED] = "migrated",
};

/**
 * struct lttng_calibrate_run_state - what a run works with
 * @set: the counters selected when the run started
 * @probe: the target, its baseline and what is attached to the target
 * @res: the result being built
 * @nr_counters: counters created
 * @event: each counter created
 * @read: each counter read around every call, or NULL when it was not
 *	counting (not scheduled on the PMU) when the run began: it is then
 *	not read, and its figures are withheld
 */
struct lttng_calibrate_run_state {
	struct lttng_calibrate_counter_set set;
	struct lttng_calibrate_probe probe;
	struct lttng_calibrate_result *res;
	unsigned int nr_counters;
	struct perf_event *event[LTTNG_CALIBRATE_MAX_COUNTERS];
	struct perf_event *read[LTTNG_CALIBRATE_MAX_COUNTERS];
};

/* The clock, then every counter: one edge of a timed window. */
static __always_inline void
lttng_calibrate_snapshot(const struct lttng_calibrate_run_state *run,
			 u64 snap[LTTNG_CALIBRATE_MAX_METRICS])
{
	unsigned int i;

	snap[0] = lttng_calibrate_clock_read();
	for (i = 0; i < run->nr_counters; i++)
		snap[1 + i] = run->read[i] ?
			lttng_calibrate_counter_read(run->read[i]) : 0;
}

/*
 * One sample: the target and the baseline, each between two snapshots,
 * preemption off.  The order alternates between samples so that neither
 * function always pays for being called first.  What lies between two
 * snapshots is the contract: the tail of the first snapshot (its counter
 * reads), the indirect call, the function, its return, whatever
 * instrumentation is attached to it, and the clock read of the second
 * snapshot.  All of it but the instrumentation is the same for both
 * functions and cancels in the difference.
 *
 * Returns false, without timing anything, when the thread is no longer on
 * its CPU.
 */
static bool lttng_calibrate_sample(const struct lttng_calibrate_run_state *run,
				   bool target_first,
				   s64 sample[][LTTNG_CALIBRATE_NR_ROWS])
{
	typeof(lttng_calibrate_target) *target, *baseline, *first, *second;
	u64 s0[LTTNG_CALIBRATE_MAX_METRICS], s1[LTTNG_CALIBRATE_MAX_METRICS];
	u64 s2[LTTNG_CALIBRATE_MAX_METRICS];
	s64 d1, d2;
	unsigned int m;

	target = run->probe.target;
	baseline = run->probe.baseline;
	first = target_first ? target : baseline;
	second = target_first ? baseline : target;

	preempt_disable();
	if (smp_processor_id() != run->res->cpu) {
		preempt_enable();
		return false;
	}
	lttng_calibrate_snapshot(run, s0);
	first();
	lttng_calibrate_snapshot(run, s1);
	second();
	lttng_calibrate_snapshot(run, s2);
	preempt_enable();

	for (m = 0; m <= run->nr_counters; m++) {
		d1 = s1[m] - s0[m];
		d2 = s2[m] - s1[m];
		sample[m][LTTNG_CALIBRATE_TARGET] = target_first ? d1 : d2;
		sample[m][LTTNG_CALIBRATE_BASELINE] = target_first ? d2 : d1;
		sample[m][LTTNG_CALIBRATE_DIFFERENCE] =
			sample[m][LTTNG_CALIBRATE_TARGET] -
			sample[m][LTTNG_CALIBRATE_BASELINE];
	}
	return true;
}

static void lttng_calibrate_record(struct lttng_calibrate_result *res,
				   s64 sample[][LTTNG_CALIBRATE_NR_ROWS])
{
	unsigned int m;
	int row;

	for (m = 0; m <= res->nr_counters; m++)
		for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
			lttng_calibrate_stats_add(&res->stats[m][row],
						  sample[m][row]);
	lttng_calibrate_deltas_add(sample);
}

/* Iterations @i to @end - 1; the deltas ring is held for their duration. */
static int lttng_calibrate_chunk(const struct lttng_calibrate_run_state *run,
				 u64 i, u64 end)
{
	s64 sample[LTTNG_CALIBRATE_MAX_METRICS][LTTNG_CALIBRATE_NR_ROWS];
	int ret = 0;

	lttng_calibrate_deltas_lock();
	for (; i < end; i++) {
		if (!lttng_calibrate_sample(run, i & 1, sample)) {
			ret = -EAGAIN;
			break;
		}
		lttng_calibrate_record(run->res, sample);
		run->res->done = i + 1;
	}
	lttng_calibrate_deltas_unlock();
	return ret;
}

/*
 * The loop of a run, on the CPU the thread is pinned to.  It runs in chunks;
 * between two chunks it reports progress, gives RCU and RCU-tasks a
 * quiescent state (so a long run does not hold up the freeing of kprobe or
 * ftrace trampolines) and checks for a fatal signal.
 */
static int lttng_calibrate_loop(const struct lttng_calibrate_run_state *run,
				unsigned int chunk)
{
	struct lttng_calibrate_result *res = run->res;
	u64 end;
	int ret;

	u64 start;

	/* The cold sample: first call after the run began, kept apart. */
	if (!lttng_calibrate_sample(run, true, res->cold))
		return -EAGAIN;

	/* Wall time of the iterations, for the harness cross-check. */
	start = lttng_calibrate_clock_read();
	ret = 0;
	while (!ret && res->done < res->asked) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		end = min(res->asked, res->done + chunk);
		ret = lttng_calibrate_chunk(run, res->done, end);
		WRITE_ONCE(lttng_calibrate_progress.done, res->done);
		if (!ret)
			cond_resched_tasks_rcu_qs();
	}
	res->wall_cycles = lttng_calibrate_clock_read() - start;
	return ret;
}

static void lttng_calibrate_publish(struct lttng_calibrate_result *res)
{
	struct lttng_calibrate_result *old;

	mutex_lock(&lttng_calibrate_result_lock);
	res->number = ++lttng_calibrate_runs;
	old = lttng_calibrate_last;
	lttng_calibrate_last = res;
	mutex_unlock(&lttng_calibrate_result_lock);
	kvfree(old);
}

static struct lttng_calibrate_result *
lttng_calibrate_result_alloc(u64 asked, int cpu,
			     const struct lttng_calibrate_counter_set *set)
{
	struct lttng_calibrate_result *res;
	unsigned int m, i;
	int row;

	res = kvzalloc(struct_size(res, stats, 1 + set->nr), GFP_KERNEL);
	if (!res)
		return NULL;
	for (m = 0; m <= set->nr; m++)
		for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
			lttng_calibrate_stats_init(&res->stats[m][row]);
	res->asked = asked;
	res->cpu = cpu;
	res->clock_khz = lttng_calibrate_clock_khz();
	res->nr_counters = set->nr;
	for (i = 0; i < set->nr; i++)
		res->counter[i].spec = set->spec[i];
	return res;
}

static int lttng_calibrate_pick_cpu(void)
{
	int c = READ_ONCE(run_cpu);

	if (c < 0)
		return raw_smp_processor_id();
	if (c >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_online(c))
		return -ENODEV;
	return c;
}

static void lttng_calibrate_progress_start(const struct lttng_calibrate_result *res)
{
	WRITE_ONCE(lttng_calibrate_progress.cpu, res->cpu);
	WRITE_ONCE(lttng_calibrate_progress.asked, res->asked);
	WRITE_ONCE(lttng_calibrate_progress.done, 0);
	/* Pairs with the acquire in status: the fields above are visible. */
	smp_store_release(&lttng_calibrate_progress.running, true);
}

static void lttng_calibrate_progress_stop(void)
{
	/* Pairs with the acquire in status. */
	smp_store_release(&lttng_calibrate_progress.running, false);
}

/*
 * Counters for the run's CPU, created before the timed region (creating one
 * may sleep).  A counter the PMU cannot schedule right now is kept open but
 * not read; its figures are withheld.
 */
static int lttng_calibrate_counters_create(struct lttng_calibrate_run_state *run)
{
	struct lttng_calibrate_result *res = run->res;
	struct perf_event *event;
	unsigned int i;

	for (i = 0; i < res->nr_counters; i++) {
		event = lttng_calibrate_counter_open(&res->counter[i].spec,
						     res->cpu);
		if (IS_ERR(event))
			return PTR_ERR(event);
		run->event[i] = event;
		run->nr_counters = i + 1;
	}
	for (i = 0; i < run->nr_counters; i++) {
		res->counter[i].valid =
			lttng_calibrate_counter_active(run->event[i]);
		if (res->counter[i].valid)
			run->read[i] = run->event[i];
	}
	return 0;
}

/* Whether each counter counted all along, then release them all. */
static void lttng_calibrate_counters_release(struct lttng_calibrate_run_state *run)
{
	struct lttng_calibrate_counter_result *c;
	unsigned int i;

	for (i = 0; i < run->nr_counters; i++) {
		c = &run->res->counter[i];
		lttng_calibrate_counter_times(run->event[i], &c->enabled,
					      &c->running);
		if (c->enabled != c->running)
			c->valid = false;
		lttng_calibrate_counter_close(run->event[i]);
		run->event[i] = NULL;
		run->read[i] = NULL;
	}
	run->nr_counters = 0;
}

/* Pinned to the run's CPU: counters, the loop, and the counters' verdict. */
static int lttng_calibrate_pinned(struct lttng_calibrate_run_state *run)
{
	struct lttng_calibrate_result *res = run->res;
	int ret;

	ret = lttng_calibrate_counters_create(run);
	if (ret)
		goto out_release;
	ret = lttng_calibrate_probe_setup(&run->probe);
	if (ret)
		goto out_release;
	ret = lttng_calibrate_deltas_start(&run->set);
	if (ret)
		goto out_teardown;

	lttng_calibrate_progress_start(res);
	ret = lttng_calibrate_loop(run, READ_ONCE(chunk_iterations));
	lttng_calibrate_progress_stop();
	if (ret == -EINTR || ret == -EAGAIN)
		res->end = ret == -EINTR ? LTTNG_CALIBRATE_END_INTERRUPTED :
					   LTTNG_CALIBRATE_END_MIGRATED;
out_teardown:
	lttng_calibrate_probe_teardown(&run->probe);
	res->mechanism = run->probe.mechanism;
	res->target_kind = run->probe.target_kind;
	res->work_cycles = run->probe.work_cycles;
	res->nmissed = run->probe.nmissed;
out_release:
	lttng_calibrate_counters_release(run);
	return ret;
}

/*
 * A run: pin the thread, measure, restore its affinity, publish what was
 * measured.  An early end (signal, migration) still publishes the
 * iterations done, marked as partial; a run that could not start changes
 * nothing.
 *
 * Context: process context, lttng_calibrate_run_lock held.
 */
static int lttng_calibrate_run(u64 asked)
{
	struct lttng_calibrate_run_state run = { };
	cpumask_var_t saved;
	int ret, c;

	c = lttng_calibrate_pick_cpu();
	if (c < 0)
		return c;
	lttng_calibrate_counters_get(&run.set);
	if (!alloc_cpumask_var(&saved, GFP_KERNEL))
		return -ENOMEM;
	run.res = lttng_calibrate_result_alloc(asked, c, &run.set);
	if (!run.res) {
		ret = -ENOMEM;
		goto out_free_mask;
	}

	cpumask_copy(saved, current->cpus_ptr);
	ret = set_cpus_allowed_ptr(current, cpumask_of(c));
	if (ret)
		goto out_free_result;
	ret = lttng_calibrate_pinned(&run);
	set_cpus_allowed_ptr(current, saved);

	if (!ret || ret == -EINTR || ret == -EAGAIN) {
		lttng_calibrate_publish(run.res);
		run.res = NULL;
	}
out_free_result:
	kvfree(run.res);
out_free_mask:
	free_cpumask_var(saved);
	return ret;
}

static ssize_t lttng_calibrate_run_write(struct file *file,
					 const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	char buf[LTTNG_CALIBRATE_RUN_INPUT_MAX + 1];
	u64 asked;
	int ret;

	if (count > LTTNG_CALIBRATE_RUN_INPUT_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* A NUL byte would hide what follows it from kstrtoull(). */
	if (strlen(buf) != count || kstrtoull(buf, 10, &asked) || !asked)
		return -EINVAL;
	if (asked > READ_ONCE(max_iterations))
		return -E2BIG;

	if (!lttng_calibrate_run_trylock())
		return -EBUSY;
	ret = lttng_calibrate_run(asked);
	lttng_calibrate_run_unlock();

	return ret ? ret : count;
}

static const struct file_operations lttng_calibrate_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lttng_calibrate_run_write,
	.llseek = noop_llseek,
};

/**
 * enum lttng_calibrate_stat - one column of a row of the results
 * @LTTNG_CALIBRATE_MEAN: mean
 * @LTTNG_CALIBRATE_STDDEV: sample standard deviation
 * @LTTNG_CALIBRATE_MIN: smallest sample
 * @LTTNG_CALIBRATE_MEDIAN: median, from the histogram
 * @LTTNG_CALIBRATE_P99: 99th percentile, from the histogram
 * @LTTNG_CALIBRATE_MAX: largest sample
 * @LTTNG_CALIBRATE_COLD: the cold first sample
 * @LTTNG_CALIBRATE_NR_STATS: number of columns
 */
enum lttng_calibrate_stat {
	LTTNG_CALIBRATE_MEAN,
	LTTNG_CALIBRATE_STDDEV,
	LTTNG_CALIBRATE_MIN,
	LTTNG_CALIBRATE_MEDIAN,
	LTTNG_CALIBRATE_P99,
	LTTNG_CALIBRATE_MAX,
	LTTNG_CALIBRATE_COLD,
	LTTNG_CALIBRATE_NR_STATS,
};

static const char *const lttng_calibrate_stat_names[] = {
	[LTTNG_CALIBRATE_MEAN] = "mean",
	[LTTNG_CALIBRATE_STDDEV] = "stddev",
	[LTTNG_CALIBRATE_MIN] = "min",
	[LTTNG_CALIBRATE_MEDIAN] = "median",
	[LTTNG_CALIBRATE_P99] = "p99",
	[LTTNG_CALIBRATE_MAX] = "max",
	[LTTNG_CALIBRATE_COLD] = "cold",
};

/**
 * struct lttng_calibrate_table - one table of the results
 * @metric: 0 for time, 1 + i for counter i
 * @ns: time converted to nanoseconds (metric 0 only)
 * @name: what the table counts: "cycles", "ns", or "counter NAME"
 * @key: the same for results_kv keys: "cycles", "ns", "counter.NAME"
 */
struct lttng_calibrate_table {
	unsigned int metric;
	bool ns;
	char name[48];
	char key[48];
};

/* Tables of a result: cycles, ns, then one per counter. */
static bool lttng_calibrate_table_get(const struct lttng_calibrate_result *res,
				      unsigned int i,
				      struct lttng_calibrate_table *t)
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

/**
 * struct lttng_calibrate_row_values - one row of the results, as printed
 * @count: number of samples
 * @milli: each column in thousandths of the unit
 */
struct lttng_calibrate_row_values {
	u64 count;
	s64 milli[LTTNG_CALIBRATE_NR_STATS];
};

static s64 lttng_calibrate_milli(s64 v)
{
	s64 milli;

	if (check_mul_overflow(v, (s64)1000, &milli))
		return v < 0 ? S64_MIN : S64_MAX;
	return milli;
}

/* Cycles to nanoseconds, both in thousandths, saturating at S64_MAX. */
static s64 lttng_calibrate_to_ns(s64 cycles, u32 khz)
{
	u64 mag = cycles < 0 ? -(u64)cycles : cycles;
	u64 whole, ns;
	u32 rem;

	whole = div_u64_rem(mag, khz, &rem);
	if (check_mul_overflow(whole, (u64)USEC_PER_SEC, &ns) ||
	    check_add_overflow(ns, div_u64((u64)rem * USEC_PER_SEC, khz), &ns) ||
	    ns > S64_MAX)
		ns = S64_MAX;
	return cycles < 0 ? -(s64)ns : (s64)ns;
}

/*
 * Every value goes through the same conversions, which preserve order: what
 * holds in cycles (min <= median <= p99 <= max, mean in [min, max]) holds in
 * nanoseconds too.
 */
static void lttng_calibrate_row(const struct lttng_calibrate_result *res,
				const struct lttng_calibrate_table *t, int row,
				struct lttng_calibrate_row_values *val)
{
	struct lttng_calibrate_summary sum;
	int i;

	lttng_calibrate_stats_summarize(&res->stats[t->metric][row], &sum);
	val->count = sum.count;
	val->milli[LTTNG_CALIBRATE_MEAN] = sum.mean_milli;
	val->milli[LTTNG_CALIBRATE_STDDEV] = min_t(u64, sum.stddev_milli,
						   S64_MAX);
	val->milli[LTTNG_CALIBRATE_MIN] = lttng_calibrate_milli(sum.min);
	val->milli[LTTNG_CALIBRATE_MEDIAN] = lttng_calibrate_milli(sum.median);
	val->milli[LTTNG_CALIBRATE_P99] = lttng_calibrate_milli(sum.p99);
	val->milli[LTTNG_CALIBRATE_MAX] = lttng_calibrate_milli(sum.max);
	val->milli[LTTNG_CALIBRATE_COLD] =
		lttng_calibrate_milli(res->cold[t->metric][row]);
	if (t->ns)
		for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
			val->milli[i] = lttng_calibrate_to_ns(val->milli[i],
							      res->clock_khz);
}

/*
 * A value in thousandths: three decimals, except counts that are whole
 * numbers by nature (all but mean and standard deviation, outside ns).
 */
static void lttng_calibrate_print_value(struct seq_file *m, const char *fmt,
					const struct lttng_calibrate_table *t,
					int stat, s64 milli)
{
	u64 mag = milli < 0 ? -(u64)milli : milli;
	char buf[32];
	u32 frac;
	u64 whole = div_u64_rem(mag, 1000, &frac);

	if (!t->ns && stat != LTTNG_CALIBRATE_MEAN &&
	    stat != LTTNG_CALIBRATE_STDDEV)
		snprintf(buf, sizeof(buf), "%s%llu", milli < 0 ? "-" : "",
			 whole);
	else
		snprintf(buf, sizeof(buf), "%s%llu.%03u", milli < 0 ? "-" : "",
			 whole, frac);
	seq_printf(m, fmt, buf);
}

static const char *lttng_calibrate_end_name(const struct lttng_calibrate_result *res)
{
	return lttng_calibrate_end_names[res->end];
}

/* A counter whose figures are withheld, or NULL. */
static const struct lttng_calibrate_counter_result *
lttng_calibrate_invalid(const struct lttng_calibrate_result *res,
			const struct lttng_calibrate_table *t)
{
	const struct lttng_calibrate_counter_result *c;

	if (!t->metric)
		return NULL;
	c = &res->counter[t->metric - 1];
	return c->valid ? NULL : c;
}

static void lttng_calibrate_print_table(struct seq_file *m,
					const struct lttng_calibrate_result *res,
					const struct lttng_calibrate_table *t)
{
	const struct lttng_calibrate_counter_result *bad;
	struct lttng_calibrate_row_values val;
	int row, i;

	bad = lttng_calibrate_invalid(res, t);
	if (bad) {
		seq_printf(m, "%s: NOT VALID, figures withheld: counted %llu of %llu ns enabled (pushed out of the PMU, or never scheduled)\n",
			   t->name, bad->running, bad->enabled);
		return;
	}
	seq_printf(m, "%-24s %10s", t->name, "count");
	for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
		seq_printf(m, " %12s", lttng_calibrate_stat_names[i]);
	seq_putc(m, '\n');
	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++) {
		lttng_calibrate_row(res, t, row, &val);
		seq_printf(m, "%-24s %10llu", lttng_calibrate_row_names[row],
			   val.count);
		for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
			lttng_calibrate_print_value(m, " %12s", t, i,
						    val.milli[i]);
		seq_putc(m, '\n');
	}
}

/* Student's t, 97.5 % quantile, in thousandths, for @n samples. */
static u32 lttng_calibrate_t975_milli(u64 n)
{
	static const u16 t[] = {
		12706, 4303, 3182, 2776, 2571, 2447, 2365, 2306, 2262, 2228,
		2201, 2179, 2160, 2145, 2131, 2120, 2110, 2101, 2093, 2086,
		2080, 2074, 2069, 2064, 2060, 2056, 2052, 2048, 2045, 2042,
	};
	u64 df = n - 1;

	if (df <= ARRAY_SIZE(t))
		return t[df - 1];
	if (df < 60)
		return 2021;
	if (df < 120)
		return 2000;
	return df < 1000 ? 1980 : 1960;
}

/* Half-width of the 95 % confidence interval of a mean, in thousandths. */
static s64 lttng_calibrate_ci95_milli(s64 stddev_milli, u64 n)
{
	u64 sqrt_n_milli, ci;

	if (n < 2)
		return 0;
	/* n <= 10^9, so n * 10^6 fits and its square root is sqrt(n) * 1000. */
	sqrt_n_milli = int_sqrt64(n * 1000000);
	if (check_mul_overflow((u64)stddev_milli,
			       (u64)lttng_calibrate_t975_milli(n), &ci))
		return div64_u64(stddev_milli, sqrt_n_milli) *
		       lttng_calibrate_t975_milli(n);
	return div64_u64(ci, sqrt_n_milli);
}

/* @num / @den * 100, in thousandths of a percent; false if undefined. */
static bool lttng_calibrate_percent_milli(s64 num_milli, s64 den_milli,
					  s64 *out)
{
	s64 scaled;

	if (den_milli <= 0 ||
	    check_mul_overflow(num_milli, (s64)100000, &scaled))
		return false;
	*out = div64_s64(scaled, den_milli);
	return true;
}

/**
 * struct lttng_calibrate_summary_line - what a run's overhead comes to
 * @mean_milli: mean of the difference row: the overhead per call
 * @ci_milli: half-width of its 95 % confidence interval
 */
struct lttng_calibrate_summary_line {
	s64 mean_milli;
	s64 ci_milli;
};

static void lttng_calibrate_overhead(const struct lttng_calibrate_result *res,
				     const struct lttng_calibrate_table *t,
				     struct lttng_calibrate_summary_line *o)
{
	struct lttng_calibrate_row_values d;

	lttng_calibrate_row(res, t, LTTNG_CALIBRATE_DIFFERENCE, &d);
	o->mean_milli = d.milli[LTTNG_CALIBRATE_MEAN];
	o->ci_milli = lttng_calibrate_ci95_milli(d.milli[LTTNG_CALIBRATE_STDDEV],
						 d.count);
}

/* Means of the target and baseline rows, in thousandths of a cycle. */
static void lttng_calibrate_means(const struct lttng_calibrate_result *res,
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

/*
 * The harness cross-check, per iteration in thousandths of a cycle: wall
 * time of the run, time inside the two timed windows, and the rest (the
 * snapshots' own edges, statistics, loop, scheduling points).
 */
static void lttng_calibrate_harness(const struct lttng_calibrate_result *res,
				    s64 *wall_milli, s64 *timed_milli)
{
	s64 target, baseline;

	lttng_calibrate_means(res, &target, &baseline);
	*timed_milli = target + baseline;
	*wall_milli = res->done ?
		div64_u64(lttng_calibrate_milli(res->wall_cycles), res->done) : 0;
}

static const char *lttng_calibrate_target_symbol(const struct lttng_calibrate_result *res)
{
	return res->target_kind == LTTNG_CALIBRATE_TARGET_TRACEPOINT ?
	       "lttng_calibrate_tracepoint_target" :
	       LTTNG_CALIBRATE_TARGET_SYMBOL;
}

static void lttng_calibrate_print_overhead(struct seq_file *m,
					   const struct lttng_calibrate_result *res)
{
	struct lttng_calibrate_summary_line o;
	struct lttng_calibrate_table t;
	s64 target, baseline, pct, wall, timed;
	unsigned int i;

	seq_puts(m, "overhead per call (difference mean, 95% confidence):");
	for (i = 0; lttng_calibrate_table_get(res, i, &t) && i < 2; i++) {
		lttng_calibrate_overhead(res, &t, &o);
		lttng_calibrate_print_value(m, " %s", &t, LTTNG_CALIBRATE_MEAN,
					    o.mean_milli);
		lttng_calibrate_print_value(m, " +/- %s", &t,
					    LTTNG_CALIBRATE_MEAN, o.ci_milli);
		seq_printf(m, " %s%s", t.name, i ? "" : ",");
	}
	lttng_calibrate_means(res, &target, &baseline);
	if (lttng_calibrate_percent_milli(target - baseline, baseline, &pct))
		lttng_calibrate_print_value(m, ", %s%% of the baseline", &t,
					    LTTNG_CALIBRATE_MEAN, pct);
	seq_putc(m, '\n');
	for (; lttng_calibrate_table_get(res, i, &t); i++) {
		if (lttng_calibrate_invalid(res, &t))
			continue;
		lttng_calibrate_overhead(res, &t, &o);
		seq_printf(m, "  %s:", t.name);
		lttng_calibrate_print_value(m, " %s", &t, LTTNG_CALIBRATE_MEAN,
					    o.mean_milli);
		lttng_calibrate_print_value(m, " +/- %s\n", &t,
					    LTTNG_CALIBRATE_MEAN, o.ci_milli);
	}
	lttng_calibrate_harness(res, &wall, &timed);
	t.ns = false;
	seq_puts(m, "harness per iteration, in cycles:");
	lttng_calibrate_print_value(m, " %s of wall time,", &t,
				    LTTNG_CALIBRATE_MEAN, wall);
	lttng_calibrate_print_value(m, " %s inside the two windows,", &t,
				    LTTNG_CALIBRATE_MEAN, timed);
	lttng_calibrate_print_value(m, " %s outside them\n", &t,
				    LTTNG_CALIBRATE_MEAN, wall - timed);
}

static void lttng_calibrate_kv_overhead(struct seq_file *m,
					const struct lttng_calibrate_result *res)
{
	struct lttng_calibrate_summary_line o;
	struct lttng_calibrate_table t;
	s64 target, baseline, pct, wall, timed;
	unsigned int i;

	for (i = 0; lttng_calibrate_table_get(res, i, &t); i++) {
		if (lttng_calibrate_invalid(res, &t))
			continue;
		lttng_calibrate_overhead(res, &t, &o);
		seq_printf(m, "overhead.%s.mean=", t.key);
		lttng_calibrate_print_value(m, "%s\n", &t, LTTNG_CALIBRATE_MEAN,
					    o.mean_milli);
		seq_printf(m, "overhead.%s.ci95=", t.key);
		lttng_calibrate_print_value(m, "%s\n", &t, LTTNG_CALIBRATE_MEAN,
					    o.ci_milli);
	}
	t.ns = false;
	lttng_calibrate_means(res, &target, &baseline);
	if (lttng_calibrate_percent_milli(target - baseline, baseline, &pct))
		lttng_calibrate_print_value(m, "overhead.relative_percent=%s\n",
					    &t, LTTNG_CALIBRATE_MEAN, pct);
	lttng_calibrate_harness(res, &wall, &timed);
	lttng_calibrate_print_value(m, "harness.wall_cycles_per_iteration=%s\n",
				    &t, LTTNG_CALIBRATE_MEAN, wall);
	lttng_calibrate_print_value(m, "harness.timed_cycles_per_iteration=%s\n",
				    &t, LTTNG_CALIBRATE_MEAN, timed);
	lttng_calibrate_print_value(m, "harness.outside_cycles_per_iteration=%s\n",
				    &t, LTTNG_CALIBRATE_MEAN, wall - timed);
}

static int lttng_calibrate_results_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_result *res;
	struct lttng_calibrate_table t;
	unsigned int i;

	mutex_lock(&lttng_calibrate_result_lock);
	res = lttng_calibrate_last;
	if (!res) {
		seq_puts(m, "no run yet: write an iteration count to run, e.g. echo 100000 > run\n");
		goto out_unlock;
	}
	seq_printf(m, "run %llu: %s, %llu of %llu iterations%s on CPU %d\n",
		   res->number, lttng_calibrate_end_name(res), res->done,
		   res->asked, res->done < res->asked ? " (partial)" : "",
		   res->cpu);
	seq_printf(m, "clock: %s at %u kHz; one cold sample kept apart\n",
		   LTTNG_CALIBRATE_CLOCK_NAME, res->clock_khz);
	seq_printf(m, "target: %s %s; baseline: %s (never instrumented)\n",
		   lttng_calibrate_target_name(res->target_kind),
		   lttng_calibrate_target_symbol(res),
		   LTTNG_CALIBRATE_BASELINE_SYMBOL);
	seq_printf(m, "probe: %s (missed %lu); handler work: %llu cycles\n",
		   lttng_calibrate_mechanism_name(res->mechanism),
		   res->nmissed, res->work_cycles);
	if (res->done)
		lttng_calibrate_print_overhead(m, res);
	for (i = 0; lttng_calibrate_table_get(res, i, &t); i++) {
		seq_putc(m, '\n');
		lttng_calibrate_print_table(m, res, &t);
	}
out_unlock:
	mutex_unlock(&lttng_calibrate_result_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lttng_calibrate_results);

static void lttng_calibrate_kv_table(struct seq_file *m,
				     const struct lttng_calibrate_result *res,
				     const struct lttng_calibrate_table *t)
{
	struct lttng_calibrate_row_values val;
	const char *r;
	int row, i;

	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++) {
		r = lttng_calibrate_row_names[row];
		lttng_calibrate_row(res, t, row, &val);
		seq_printf(m, "%s.%s.count=%llu\n", r, t->key, val.count);
		for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++) {
			seq_printf(m, "%s.%s.%s=", r, t->key,
				   lttng_calibrate_stat_names[i]);
			lttng_calibrate_print_value(m, "%s\n", t, i,
						    val.milli[i]);
		}
	}
}

static void lttng_calibrate_kv_counters(struct seq_file *m,
					const struct lttng_calibrate_result *res)
{
	const struct lttng_calibrate_counter_result *c;
	unsigned int i;

	seq_puts(m, "counters=");
	for (i = 0; i < res->nr_counters; i++)
		seq_printf(m, "%s%s", i ? "," : "", res->counter[i].spec.name);
	seq_putc(m, '\n');
	for (i = 0; i < res->nr_counters; i++) {
		c = &res->counter[i];
		seq_printf(m, "counter.%s.valid=%d\ncounter.%s.enabled_ns=%llu\ncounter.%s.running_ns=%llu\n",
			   c->spec.name, c->valid, c->spec.name, c->enabled,
			   c->spec.name, c->running);
	}
}

static int lttng_calibrate_results_kv_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_result *res;
	struct lttng_calibrate_table t;
	unsigned int i;

	seq_puts(m, "format=1\n");
	mutex_lock(&lttng_calibrate_result_lock);
	res = lttng_calibrate_last;
	if (!res) {
		seq_puts(m, "run.state=none\n");
		goto out_unlock;
	}
	seq_printf(m, "run.number=%llu\nrun.state=%s\nrun.partial=%d\n",
		   res->number, lttng_calibrate_end_name(res),
		   res->done < res->asked);
	seq_printf(m, "run.iterations.asked=%llu\nrun.iterations.done=%llu\n",
		   res->asked, res->done);
	seq_printf(m, "run.cpu=%d\nclock.name=%s\nclock.khz=%u\n", res->cpu,
		   LTTNG_CALIBRATE_CLOCK_NAME, res->clock_khz);
	seq_printf(m, "target.kind=%s\ntarget.symbol=%s\nbaseline.symbol=%s\n",
		   lttng_calibrate_target_name(res->target_kind),
		   lttng_calibrate_target_symbol(res),
		   LTTNG_CALIBRATE_BASELINE_SYMBOL);
	seq_printf(m, "probe.mechanism=%s\nprobe.nmissed=%lu\nprobe.work_cycles=%llu\n",
		   lttng_calibrate_mechanism_name(res->mechanism),
		   res->nmissed, res->work_cycles);
	lttng_calibrate_kv_counters(m, res);
	if (res->done)
		lttng_calibrate_kv_overhead(m, res);
	for (i = 0; lttng_calibrate_table_get(res, i, &t); i++)
		if (!lttng_calibrate_invalid(res, &t))
			lttng_calibrate_kv_table(m, res, &t);
out_unlock:
	mutex_unlock(&lttng_calibrate_result_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lttng_calibrate_results_kv);

static int lttng_calibrate_status_show(struct seq_file *m, void *v)
{
	struct lttng_calibrate_progress *p = &lttng_calibrate_progress;

	/* Pairs with the release in progress_start(): fields are set. */
	if (!smp_load_acquire(&p->running)) {
		seq_puts(m, "state=idle\n");
		return 0;
	}
	seq_printf(m, "state=running\ncpu=%d\ndone=%llu\nasked=%llu\n",
		   READ_ONCE(p->cpu), READ_ONCE(p->done), READ_ONCE(p->asked));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lttng_calibrate_status);

static int __init lttng_calibrate_init(void)
{
	struct dentry *dir;

	if (!lttng_calibrate_clock_khz()) {
		pr_err("the %s frequency is unknown: cannot convert to time\n",
		       LTTNG_CALIBRATE_CLOCK_NAME);
		return -ENODEV;
	}
	/* Under lockdown, debugfs refuses writes: "run" could never work. */
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		pr_err("kernel lockdown forbids writing debugfs files; cannot be driven\n");
		return -EPERM;
	}

	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dir)) {
		pr_err("cannot create the debugfs directory: %ld\n",
		       PTR_ERR(dir));
		return PTR_ERR(dir);
	}
	debugfs_create_file("run", 0200, dir, NULL, &lttng_calibrate_run_fops);
	debugfs_create_file("results", 0400, dir, NULL,
			    &lttng_calibrate_results_fops);
	debugfs_create_file("results_kv", 0400, dir, NULL,
			    &lttng_calibrate_results_kv_fops);
	debugfs_create_file("status", 0400, dir, NULL,
			    &lttng_calibrate_status_fops);
	lttng_calibrate_counters_init(dir);
	lttng_calibrate_deltas_init(dir);
	lttng_calibrate_probe_init(dir);
	lttng_calibrate_dir = dir;
	return 0;
}

static void __exit lttng_calibrate_exit(void)
{
	/* Waits for readers and writers still inside a file operation. */
	debugfs_remove_recursive(lttng_calibrate_dir);
	lttng_calibrate_deltas_exit();
	kvfree(lttng_calibrate_last);
}

module_init(lttng_calibrate_init);
module_exit(lttng_calibrate_exit);

MODULE_DESCRIPTION("Measure what kernel instrumentation costs: kprobes, kretprobes, tracepoints, LTTng");
MODULE_LICENSE("GPL");
