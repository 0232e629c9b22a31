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

/* Hard limit of max_iterations: histogram buckets count in u32. */
#define LTTNG_CALIBRATE_ITERATIONS_LIMIT	1000000000UL
#define LTTNG_CALIBRATE_CHUNK_LIMIT		10000000U
/* Longest text accepted by "run": a u64 in decimal and a newline. */
#define LTTNG_CALIBRATE_RUN_INPUT_MAX		32

/*
 * Module parameters.  Each is read once when a run starts, so changing one
 * in sysfs affects the next run only.
 */
static int run_cpu = -1;
static unsigned long max_iterations = 100000000UL;
static unsigned int chunk_iterations = 10000;

static int lttng_calibrate_param_range(const char *val,
				       const struct kernel_param *kp,
				       unsigned long min, unsigned long max,
				       unsigned long *out)
{
	unsigned long v;

	if (kstrtoul(val, 0, &v) || v < min || v > max) {
		pr_err("%s=%s is invalid: must be %lu..%lu\n",
		       kp->name, val, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

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

static int lttng_calibrate_set_max_iterations(const char *val,
					      const struct kernel_param *kp)
{
	unsigned long v;
	int ret;

	ret = lttng_calibrate_param_range(val, kp, 1,
					  LTTNG_CALIBRATE_ITERATIONS_LIMIT, &v);
	if (!ret)
		WRITE_ONCE(max_iterations, v);
	return ret;
}

static int lttng_calibrate_set_chunk(const char *val,
				     const struct kernel_param *kp)
{
	unsigned long v;
	int ret;

	ret = lttng_calibrate_param_range(val, kp, 1,
					  LTTNG_CALIBRATE_CHUNK_LIMIT, &v);
	if (!ret)
		WRITE_ONCE(chunk_iterations, v);
	return ret;
}

static const struct kernel_param_ops lttng_calibrate_cpu_ops = {
	.set = lttng_calibrate_set_cpu,
	.get = param_get_int,
};

static const struct kernel_param_ops lttng_calibrate_max_iterations_ops = {
	.set = lttng_calibrate_set_max_iterations,
	.get = param_get_ulong,
};

static const struct kernel_param_ops lttng_calibrate_chunk_ops = {
	.set = lttng_calibrate_set_chunk,
	.get = param_get_uint,
};

module_param_cb(cpu, &lttng_calibrate_cpu_ops, &run_cpu, 0644);
MODULE_PARM_DESC(cpu,
		 "CPU that runs are pinned to; -1 (default): the CPU the writer is on");
module_param_cb(max_iterations, &lttng_calibrate_max_iterations_ops,
		&max_iterations, 0644);
MODULE_PARM_DESC(max_iterations,
		 "Largest iteration count accepted by run (default 100000000, at most 1000000000)");
module_param_cb(chunk_iterations, &lttng_calibrate_chunk_ops,
		&chunk_iterations, 0644);
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

static void (*lttng_calibrate_target_call)(void) = lttng_calibrate_target;
static void (*lttng_calibrate_baseline_call)(void) = lttng_calibrate_baseline;

static struct dentry *lttng_calibrate_dir;

/* One run at a time; a second writer gets -EBUSY rather than waiting. */
static DEFINE_MUTEX(lttng_calibrate_run_lock);

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

/*
 * One sample: the target and the baseline, each between two ordered clock
 * reads, preemption off.  The order alternates between samples so that
 * neither function always pays for being called first.  What lies between
 * the clock reads is the contract: the indirect call, the function, its
 * return, and whatever instrumentation is attached to it.
 *
 * Returns false, without timing anything, when the thread is no longer on
 * @cpu.
 */
static bool lttng_calibrate_sample(int cpu, bool target_first,
				   s64 sample[LTTNG_CALIBRATE_NR_ROWS])
{
	typeof(lttng_calibrate_target) *target, *baseline, *first, *second;
	u64 t0, t1, t2;

	target = READ_ONCE(lttng_calibrate_target_call);
	baseline = READ_ONCE(lttng_calibrate_baseline_call);
	first = target_first ? target : baseline;
	second = target_first ? baseline : target;

	preempt_disable();
	if (smp_processor_id() != cpu) {
		preempt_enable();
		return false;
	}
	t0 = lttng_calibrate_clock_read();
	first();
	t1 = lttng_calibrate_clock_read();
	second();
	t2 = lttng_calibrate_clock_read();
	preempt_enable();

	sample[LTTNG_CALIBRATE_TARGET] = target_first ? t1 - t0 : t2 - t1;
	sample[LTTNG_CALIBRATE_BASELINE] = target_first ? t2 - t1 : t1 - t0;
	sample[LTTNG_CALIBRATE_DIFFERENCE] = sample[LTTNG_CALIBRATE_TARGET] -
					     sample[LTTNG_CALIBRATE_BASELINE];
	return true;
}

static void lttng_calibrate_record(struct lttng_calibrate_result *res,
				   const s64 sample[LTTNG_CALIBRATE_NR_ROWS])
{
	int row;

	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
		lttng_calibrate_stats_add(&res->stats[row], sample[row]);
}

/*
 * The loop of a run, on the CPU the thread is pinned to.  It runs in chunks;
 * between two chunks it reports progress, gives RCU and RCU-tasks a
 * quiescent state (so a long run does not hold up the freeing of kprobe or
 * ftrace trampolines) and checks for a fatal signal.
 */
static int lttng_calibrate_loop(struct lttng_calibrate_result *res,
				unsigned int chunk)
{
	s64 sample[LTTNG_CALIBRATE_NR_ROWS];
	u64 i, end;

	/* The cold sample: first call after the run began, kept apart. */
	if (!lttng_calibrate_sample(res->cpu, true, res->cold))
		return -EAGAIN;

	for (i = 0; i < res->asked; ) {
		if (fatal_signal_pending(current))
			return -EINTR;
		end = min(res->asked, i + chunk);
		for (; i < end; i++) {
			if (!lttng_calibrate_sample(res->cpu, i & 1, sample))
				return -EAGAIN;
			lttng_calibrate_record(res, sample);
			res->done = i + 1;
		}
		WRITE_ONCE(lttng_calibrate_progress.done, res->done);
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

static void lttng_calibrate_publish(struct lttng_calibrate_result *res)
{
	struct lttng_calibrate_result *old;

	mutex_lock(&lttng_calibrate_result_lock);
	old = lttng_calibrate_last;
	lttng_calibrate_last = res;
	mutex_unlock(&lttng_calibrate_result_lock);
	kvfree(old);
}

static struct lttng_calibrate_result *lttng_calibrate_result_alloc(u64 asked,
								   int cpu)
{
	struct lttng_calibrate_result *res;
	int row;

	res = kvzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		return NULL;
	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
		lttng_calibrate_stats_init(&res->stats[row]);
	res->asked = asked;
	res->cpu = cpu;
	res->clock_khz = lttng_calibrate_clock_khz();
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
 * A run: pin the thread, loop, restore its affinity, publish what was
 * measured.  An early end still publishes the iterations done, marked as
 * partial; a run that could not start changes nothing.
 *
 * Context: process context, lttng_calibrate_run_lock held.
 */
static int lttng_calibrate_run(u64 asked)
{
	struct lttng_calibrate_result *res;
	cpumask_var_t saved;
	int ret, c;

	c = lttng_calibrate_pick_cpu();
	if (c < 0)
		return c;
	if (!alloc_cpumask_var(&saved, GFP_KERNEL))
		return -ENOMEM;
	res = lttng_calibrate_result_alloc(asked, c);
	if (!res) {
		ret = -ENOMEM;
		goto out_free_mask;
	}

	cpumask_copy(saved, current->cpus_ptr);
	ret = set_cpus_allowed_ptr(current, cpumask_of(c));
	if (ret)
		goto out_free_result;

	lttng_calibrate_progress_start(res);
	ret = lttng_calibrate_loop(res, READ_ONCE(chunk_iterations));
	lttng_calibrate_progress_stop();
	set_cpus_allowed_ptr(current, saved);

	if (ret == -EINTR)
		res->end = LTTNG_CALIBRATE_END_INTERRUPTED;
	else if (ret == -EAGAIN)
		res->end = LTTNG_CALIBRATE_END_MIGRATED;

	mutex_lock(&lttng_calibrate_result_lock);
	res->number = ++lttng_calibrate_runs;
	mutex_unlock(&lttng_calibrate_result_lock);
	lttng_calibrate_publish(res);
	res = NULL;

out_free_result:
	kvfree(res);
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

	if (!mutex_trylock(&lttng_calibrate_run_lock))
		return -EBUSY;
	ret = lttng_calibrate_run(asked);
	mutex_unlock(&lttng_calibrate_run_lock);

	return ret ? ret : count;
}

static const struct file_operations lttng_calibrate_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lttng_calibrate_run_write,
	.llseek = noop_llseek,
};

/**
 * enum lttng_calibrate_unit - unit of a table of the results
 * @LTTNG_CALIBRATE_CYCLES: clock cycles as counted
 * @LTTNG_CALIBRATE_NS: nanoseconds, converted from cycles
 * @LTTNG_CALIBRATE_NR_UNITS: number of units
 */
enum lttng_calibrate_unit {
	LTTNG_CALIBRATE_CYCLES,
	LTTNG_CALIBRATE_NS,
	LTTNG_CALIBRATE_NR_UNITS,
};

static const char *const lttng_calibrate_unit_names[] = {
	[LTTNG_CALIBRATE_CYCLES] = "cycles",
	[LTTNG_CALIBRATE_NS] = "ns",
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
				int row, enum lttng_calibrate_unit unit,
				struct lttng_calibrate_row_values *val)
{
	struct lttng_calibrate_summary sum;
	int i;

	lttng_calibrate_stats_summarize(&res->stats[row], &sum);
	val->count = sum.count;
	val->milli[LTTNG_CALIBRATE_MEAN] = sum.mean_milli;
	val->milli[LTTNG_CALIBRATE_STDDEV] = min_t(u64, sum.stddev_milli,
						   S64_MAX);
	val->milli[LTTNG_CALIBRATE_MIN] = lttng_calibrate_milli(sum.min);
	val->milli[LTTNG_CALIBRATE_MEDIAN] = lttng_calibrate_milli(sum.median);
	val->milli[LTTNG_CALIBRATE_P99] = lttng_calibrate_milli(sum.p99);
	val->milli[LTTNG_CALIBRATE_MAX] = lttng_calibrate_milli(sum.max);
	val->milli[LTTNG_CALIBRATE_COLD] = lttng_calibrate_milli(res->cold[row]);
	if (unit == LTTNG_CALIBRATE_NS)
		for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
			val->milli[i] = lttng_calibrate_to_ns(val->milli[i],
							      res->clock_khz);
}

/*
 * A value in thousandths: three decimals, except cycle counts that are
 * whole numbers by nature (all but mean and standard deviation).
 */
static void lttng_calibrate_print_value(struct seq_file *m, const char *fmt,
					enum lttng_calibrate_unit unit,
					int stat, s64 milli)
{
	u64 mag = milli < 0 ? -(u64)milli : milli;
	char buf[32];
	u32 frac;
	u64 whole = div_u64_rem(mag, 1000, &frac);

	if (unit == LTTNG_CALIBRATE_CYCLES && stat != LTTNG_CALIBRATE_MEAN &&
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

static void lttng_calibrate_table(struct seq_file *m,
				  const struct lttng_calibrate_result *res,
				  enum lttng_calibrate_unit unit)
{
	struct lttng_calibrate_row_values val;
	int row, i;

	seq_printf(m, "%-10s %10s", lttng_calibrate_unit_names[unit], "count");
	for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
		seq_printf(m, " %12s", lttng_calibrate_stat_names[i]);
	seq_putc(m, '\n');
	for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++) {
		lttng_calibrate_row(res, row, unit, &val);
		seq_printf(m, "%-10s %10llu", lttng_calibrate_row_names[row],
			   val.count);
		for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++)
			lttng_calibrate_print_value(m, " %12s", unit, i,
						    val.milli[i]);
		seq_putc(m, '\n');
	}
}

static int lttng_calibrate_results_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_result *res;
	enum lttng_calibrate_unit unit;

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
	seq_printf(m, "target: %s; baseline: %s (never instrumented)\n",
		   LTTNG_CALIBRATE_TARGET_SYMBOL,
		   LTTNG_CALIBRATE_BASELINE_SYMBOL);
	for (unit = 0; unit < LTTNG_CALIBRATE_NR_UNITS; unit++) {
		seq_putc(m, '\n');
		lttng_calibrate_table(m, res, unit);
	}
out_unlock:
	mutex_unlock(&lttng_calibrate_result_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lttng_calibrate_results);

static void lttng_calibrate_kv_row(struct seq_file *m,
				   const struct lttng_calibrate_result *res,
				   int row, enum lttng_calibrate_unit unit)
{
	struct lttng_calibrate_row_values val;
	const char *r = lttng_calibrate_row_names[row];
	const char *u = lttng_calibrate_unit_names[unit];
	int i;

	lttng_calibrate_row(res, row, unit, &val);
	seq_printf(m, "%s.%s.count=%llu\n", r, u, val.count);
	for (i = 0; i < LTTNG_CALIBRATE_NR_STATS; i++) {
		seq_printf(m, "%s.%s.%s=", r, u, lttng_calibrate_stat_names[i]);
		lttng_calibrate_print_value(m, "%s\n", unit, i, val.milli[i]);
	}
}

static int lttng_calibrate_results_kv_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_result *res;
	enum lttng_calibrate_unit unit;
	int row;

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
	seq_printf(m, "target.symbol=%s\nbaseline.symbol=%s\n",
		   LTTNG_CALIBRATE_TARGET_SYMBOL,
		   LTTNG_CALIBRATE_BASELINE_SYMBOL);
	for (unit = 0; unit < LTTNG_CALIBRATE_NR_UNITS; unit++)
		for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
			lttng_calibrate_kv_row(m, res, row, unit);
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
	lttng_calibrate_dir = dir;
	return 0;
}

static void __exit lttng_calibrate_exit(void)
{
	/* Waits for readers and writers still inside a file operation. */
	debugfs_remove_recursive(lttng_calibrate_dir);
	kvfree(lttng_calibrate_last);
}

module_init(lttng_calibrate_init);
module_exit(lttng_calibrate_exit);

MODULE_DESCRIPTION("Measure what kernel instrumentation costs: kprobes, kretprobes, tracepoints, LTTng");
MODULE_LICENSE("GPL");
