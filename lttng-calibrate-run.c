// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the run engine, the "run" file that starts it, and the
 * "irqs" file that says how it samples.
 *
 * A run is measured by a kernel thread bound to the run's CPU, the way
 * resctrl's pseudo-lock measures: the writer's own affinity is never
 * touched, and the writer waits interruptibly, so any signal (or the
 * freezer, or a ptrace stop) stops the run.  The thread works in chunks of
 * at most chunk_iterations iterations and LTTNG_CALIBRATE_CHUNK_US of run
 * time; between two chunks it reports progress, gives the scheduler, RCU
 * and RCU-tasks a quiescent state, and checks whether it must stop.  No
 * lock is held across a chunk.
 *
 * The write's outcome is the kernel's usual one: its length for a complete
 * run, published; -ERESTARTSYS when a signal stopped a run that published
 * nothing (restarted transparently under SA_RESTART, job control, ptrace
 * and the freezer); -EINTR when it stopped a run that published a partial
 * result; -ENODEV when the run's CPU went away (a partial result published
 * if something was measured).  No state is kept per open file.
 *
 * The writer waits for the thread only as long as it may: if the thread
 * has not ended RUN_STOP_WAIT after the signal (its CPU is held by a task
 * of higher priority that does not let it run), the writer gives the run
 * up and returns -ERESTARTSYS, nothing published; the thread ends the run,
 * publishing nothing, when it gets its CPU, and holds the module and the
 * run slot (other writes get -EBUSY) until then.
 *
 * One iteration is one sample: the target and the baseline, each between
 * two snapshots (the clock, then every counter), local interrupts off
 * unless "irqs" says otherwise.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-clock.h"
#include "lttng-calibrate-counters.h"

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

/* Run time between two scheduling points, at most. */
#define LTTNG_CALIBRATE_CHUNK_US	10000

/* Longest text accepted by "run": a u64 in decimal and a newline. */
#define RUN_INPUT_MAX	32

/*
 * Longest wait for the thread to end after a signal, uninterruptible so
 * that a fatal signal still publishes the partial run: well above a chunk
 * (what the wait lasts when the thread has its CPU), well below the
 * hung-task timeout.
 */
#define RUN_STOP_WAIT	(5 * HZ)

/* Who ends a run: the writer, unless it gave the run up to its thread. */
enum run_owner {
	RUN_WRITER_WAITS,
	RUN_THREAD_DONE,
	RUN_GIVEN_UP,
};

/*
 * Times each CPU went offline since the module was loaded: a run whose CPU
 * went away, even if it came back, ends as migrated, because the perf
 * events of a CPU that goes offline are detached from it for good.
 */
static DEFINE_PER_CPU(unsigned long, cpu_gone);
static enum cpuhp_state cpuhp_online;

/**
 * struct run_state - one run, from the write that starts it
 * @set: the settings, as they were when the run started
 * @cpu: the CPU the run is bound to
 * @gone: cpu_gone of @cpu when the run started
 * @clock: what times the run
 * @chunk_cycles: clock cycles a chunk may last
 * @probe: the target, its baseline and what is attached to the target
 * @counters: the perf events read around every call
 * @deltas: the ring of the last iterations
 * @shown: @deltas is the ring "deltas" shows: the run has measured
 * @res: the result being built
 * @snap: the three snapshots of a sample; here rather than on the stack,
 *	which the kernel may zero on every sample (INIT_STACK_ALL_ZERO)
 * @ret: how the loop ended: 0, -EINTR (asked to stop), -EAGAIN (the thread
 *	was not on @cpu, or @cpu went away)
 * @stop: the writer asks the thread to stop, at its next chunk
 * @owner: an enum run_owner: who ends the run, set once by whichever of the
 *	writer and the thread gets there first
 * @finished: the loop ended, and the writer ends the run
 */
struct run_state {
	struct lttng_calibrate_settings set;
	int cpu;
	unsigned long gone;
	struct lttng_calibrate_clock clock;
	u64 chunk_cycles;
	struct lttng_calibrate_probe probe;
	struct lttng_calibrate_run_counters counters;
	struct lttng_calibrate_deltas *deltas;
	bool shown;
	struct lttng_calibrate_result *res;
	u64 snap[3][LTTNG_CALIBRATE_MAX_METRICS];
	int ret;
	bool stop;
	atomic_t owner;
	struct completion finished;
};

/*
 * The clock, then every counter: one edge of a timed window.  A PMU's
 * read() is only ever called with interrupts off (perf calls it so), also
 * when "irqs" leaves them enabled around the calls.
 */
static __always_inline void take_snapshot(struct run_state *run,
					  u64 snap[LTTNG_CALIBRATE_MAX_METRICS])
{
	unsigned int i, nr = run->counters.nr;
	unsigned long flags = 0;

	snap[0] = lttng_calibrate_clock_read(&run->clock);
	if (!nr)
		return;
	if (run->set.irqs_enabled)
		local_irq_save(flags);
	for (i = 0; i < nr; i++)
		snap[1 + i] = lttng_calibrate_counter_read(&run->counters, i);
	if (run->set.irqs_enabled)
		local_irq_restore(flags);
}

/*
 * One sample: the target and the baseline, each between two snapshots.
 * The order alternates between samples so that neither function always
 * pays for being called first.  What lies between two snapshots is the
 * contract: the tail of the first snapshot (its counter reads), the
 * indirect call, the function, its return, whatever instrumentation is
 * attached to it, and the clock read of the second snapshot.  All of it but
 * the instrumentation is the same for both functions and cancels in the
 * difference.
 *
 * Returns false, without timing anything, when the thread is not on its
 * CPU; else the clock at the end of the sample, in @now.
 */
static __always_inline bool
take_sample(struct run_state *run, bool target_first,
	    s64 sample[][LTTNG_CALIBRATE_NR_ROWS], u64 *now)
{
	u64 *s0 = run->snap[0], *s1 = run->snap[1], *s2 = run->snap[2];
	typeof(run->probe.target) first, second;
	unsigned int m, nr = run->counters.nr;
	unsigned long flags = 0;
	s64 d1, d2;

	first = target_first ? run->probe.target : run->probe.baseline;
	second = target_first ? run->probe.baseline : run->probe.target;

	if (run->set.irqs_enabled)
		preempt_disable();
	else
		local_irq_save(flags);
	if (unlikely(smp_processor_id() != run->cpu)) {
		if (run->set.irqs_enabled)
			preempt_enable();
		else
			local_irq_restore(flags);
		return false;
	}
	take_snapshot(run, s0);
	first();
	take_snapshot(run, s1);
	second();
	take_snapshot(run, s2);
	if (run->set.irqs_enabled)
		preempt_enable();
	else
		local_irq_restore(flags);
	/* A clock that stopped counting timed nothing: the sample is void. */
	if (unlikely(run->clock.lost))
		return false;

	for (m = 0; m <= nr; m++) {
		d1 = s1[m] - s0[m];
		d2 = s2[m] - s1[m];
		sample[m][LTTNG_CALIBRATE_TARGET] = target_first ? d1 : d2;
		sample[m][LTTNG_CALIBRATE_BASELINE] = target_first ? d2 : d1;
		sample[m][LTTNG_CALIBRATE_DIFFERENCE] =
			sample[m][LTTNG_CALIBRATE_TARGET] -
			sample[m][LTTNG_CALIBRATE_BASELINE];
	}
	*now = s2[0];
	return true;
}

static __always_inline void record_sample(struct run_state *run,
					  s64 sample[][LTTNG_CALIBRATE_NR_ROWS])
{
	struct lttng_calibrate_stats (*stats)[LTTNG_CALIBRATE_NR_ROWS];
	unsigned int m;

	stats = run->res->stats;
	for (m = 0; m <= run->counters.nr; m++) {
		lttng_calibrate_stats_add(&stats[m][LTTNG_CALIBRATE_TARGET],
					  sample[m][LTTNG_CALIBRATE_TARGET]);
		lttng_calibrate_stats_add(&stats[m][LTTNG_CALIBRATE_BASELINE],
					  sample[m][LTTNG_CALIBRATE_BASELINE]);
		lttng_calibrate_stats_add(&stats[m][LTTNG_CALIBRATE_DIFFERENCE],
					  sample[m][LTTNG_CALIBRATE_DIFFERENCE]);
	}
	/* A counter found not counting is withheld before its row is seen. */
	if (unlikely(run->counters.lost))
		lttng_calibrate_deltas_withhold(run->deltas,
						run->counters.lost);
	lttng_calibrate_deltas_add(run->deltas, sample);
}

/*
 * One chunk: from iteration res->done, until chunk_iterations are done or
 * chunk_cycles have passed, whichever comes first.
 */
static int run_chunk(struct run_state *run)
{
	s64 sample[LTTNG_CALIBRATE_MAX_METRICS][LTTNG_CALIBRATE_NR_ROWS];
	struct lttng_calibrate_result *res = run->res;
	u64 i = res->done, end, start, now;
	int ret = 0;

	end = min_t(u64, res->asked, i + run->set.chunk_iterations);
	start = lttng_calibrate_clock_read(&run->clock);
	while (i < end) {
		if (!take_sample(run, i & 1, sample, &now)) {
			ret = -EAGAIN;
			break;
		}
		record_sample(run, sample);
		i++;
		if (now - start >= run->chunk_cycles)
			break;
	}
	res->done = i;
	return ret;
}

/* Counts the pending samples of every statistic, before publishing. */
static void flush_result(struct lttng_calibrate_result *res)
{
	unsigned int m;
	int row;

	for (m = 0; m <= res->nr_counters; m++)
		for (row = 0; row < LTTNG_CALIBRATE_NR_ROWS; row++)
			lttng_calibrate_stats_flush(&res->stats[m][row]);
}

static bool cpu_went_away(const struct run_state *run)
{
	return READ_ONCE(per_cpu(cpu_gone, run->cpu)) != run->gone;
}

/* Counters that are not counting on the run's CPU are lost for the run. */
static void check_counters(struct run_state *run)
{
	unsigned long flags;

	local_irq_save(flags);
	if (smp_processor_id() == run->cpu)
		lttng_calibrate_counters_check(&run->counters);
	local_irq_restore(flags);
	if (run->counters.lost)
		lttng_calibrate_deltas_withhold(run->deltas,
						run->counters.lost);
}

/* The handlers' work must last LTTNG_CALIBRATE_WORK_MAX_US at most. */
static int check_work(const struct run_state *run)
{
	u64 max = div_u64((u64)run->clock.khz * LTTNG_CALIBRATE_WORK_MAX_US,
			  USEC_PER_MSEC);

	if (run->set.work_cycles <= max)
		return 0;
	pr_info_ratelimited("work_cycles %llu is more than %d us of the run's clock (%s, %u kHz): at most %llu\n",
			    run->set.work_cycles, LTTNG_CALIBRATE_WORK_MAX_US,
			    run->clock.name, run->clock.khz, max);
	return -ERANGE;
}

/* The loop of a run, on its kernel thread. */
static int run_loop(struct run_state *run)
{
	struct lttng_calibrate_result *res = run->res;
	u64 start, now;
	int ret = 0;

	if (READ_ONCE(run->stop))
		return -EINTR;
	if (cpu_went_away(run))
		return -EAGAIN;
	ret = lttng_calibrate_clock_start(&run->clock);
	if (ret)
		return ret;
	res->clock_name = run->clock.name;
	res->clock_khz = run->clock.khz;
	run->chunk_cycles = div_u64((u64)run->clock.khz *
				    LTTNG_CALIBRATE_CHUNK_US, USEC_PER_MSEC);
	ret = check_work(run);
	if (ret)
		return ret;
	check_counters(run);
	/* The cold sample: first call after the run began, kept apart. */
	if (!take_sample(run, true, res->cold, &now))
		return -EAGAIN;

	/* Wall time of the iterations, for the harness cross-check. */
	start = lttng_calibrate_clock_read(&run->clock);
	while (res->done < res->asked) {
		if (READ_ONCE(run->stop)) {
			ret = -EINTR;
			break;
		}
		if (cpu_went_away(run)) {
			ret = -EAGAIN;
			break;
		}
		ret = run_chunk(run);
		check_counters(run);
		if (res->done && !run->shown) {
			lttng_calibrate_deltas_show(run->deltas);
			run->shown = true;
		}
		lttng_calibrate_status_update(res->done);
		if (ret)
			break;
		cond_resched_tasks_rcu_qs();
	}
	res->wall_cycles = lttng_calibrate_clock_read(&run->clock) - start;
	return ret;
}

static bool run_end(struct run_state *run, bool publish);

/*
 * The thread: the loop, then the run is the writer's to end, or, if the
 * writer gave it up, the thread's.  It holds a reference to the module
 * from its creation, and drops it as it exits.
 */
static int run_thread(void *data)
{
	struct run_state *run = data;

	run->ret = run_loop(run);
	if (atomic_cmpxchg(&run->owner, RUN_WRITER_WAITS, RUN_THREAD_DONE) ==
	    RUN_WRITER_WAITS) {
		/* The writer may free @run as soon as this is done. */
		complete(&run->finished);
	} else {
		pr_info("run on CPU %d: its thread got the CPU after its writer gave up; ended, nothing published\n",
			run->cpu);
		run_end(run, false);
	}
	module_put_and_kthread_exit(0);
}

/*
 * Starts the thread and waits for it.  A signal to the writer asks the
 * thread to stop at its next chunk, and the writer waits RUN_STOP_WAIT
 * more at most; then it gives the run up.
 *
 * Return: 0 when the writer ends the run (run->ret says how the loop
 * ended), -ERESTARTSYS when it gave the run up, or the error of the
 * thread's creation.
 */
static int run_measure(struct run_state *run)
{
	struct task_struct *task;

	task = kthread_create_on_cpu(run_thread, run, run->cpu,
				     "lttng_calibrate/%u");
	if (IS_ERR(task))
		return PTR_ERR(task);
	/* Our open file holds the module: this one is the thread's own. */
	__module_get(THIS_MODULE);
	atomic_set(&run->owner, RUN_WRITER_WAITS);
	lttng_calibrate_status_start(run->cpu, run->res->asked);
	wake_up_process(task);

	if (!wait_for_completion_interruptible(&run->finished))
		return 0;
	WRITE_ONCE(run->stop, true);
	if (wait_for_completion_timeout(&run->finished, RUN_STOP_WAIT))
		return 0;
	if (atomic_cmpxchg(&run->owner, RUN_WRITER_WAITS, RUN_GIVEN_UP) !=
	    RUN_WRITER_WAITS) {
		/* The thread ended as the wait did: it completes at once. */
		wait_for_completion(&run->finished);
		return 0;
	}
	pr_info("run on CPU %d: its thread did not stop within %d s of a signal (the CPU is held by a task of higher priority?); given up\n",
		run->cpu, RUN_STOP_WAIT / HZ);
	return -ERESTARTSYS;
}

static int pick_cpu(const struct lttng_calibrate_settings *set)
{
	if (set->cpu < 0)
		return raw_smp_processor_id();
	if (!cpu_online(set->cpu))
		return -ENODEV;
	return set->cpu;
}

/*
 * Sets a run up: its CPU, result, clock, counters, probe and deltas.  On
 * failure nothing is left of it.
 */
static int run_begin(struct run_state *run, u64 asked)
{
	struct lttng_calibrate_result *res;
	int ret;

	if (asked > run->set.max_iterations)
		return -E2BIG;
	ret = pick_cpu(&run->set);
	if (ret < 0)
		return ret;
	run->cpu = ret;
	run->gone = READ_ONCE(per_cpu(cpu_gone, run->cpu));
	init_completion(&run->finished);
	res = lttng_calibrate_result_alloc(&run->set, asked, run->cpu);
	if (!res)
		return -ENOMEM;
	run->res = res;

	ret = lttng_calibrate_clock_open(&run->clock, run->cpu);
	if (ret)
		goto out_free_result;
	ret = lttng_calibrate_counters_create(&run->counters,
					      &run->set.counters, run->cpu);
	if (ret)
		goto out_close_clock;
	ret = lttng_calibrate_probe_setup(&run->probe, &run->set, &run->clock);
	if (ret)
		goto out_release_counters;
	run->deltas = lttng_calibrate_deltas_alloc(&run->set.counters,
						   run->set.deltas_window);
	if (!run->deltas) {
		ret = -ENOMEM;
		goto out_teardown_probe;
	}
	return 0;

out_teardown_probe:
	lttng_calibrate_probe_teardown(&run->probe);
out_release_counters:
	lttng_calibrate_counters_release(&run->counters, NULL);
out_close_clock:
	lttng_calibrate_clock_close(&run->clock);
out_free_result:
	kvfree(res);
	return ret;
}

/*
 * Tears a run down, after its loop, and publishes what it measured if
 * @publish: an early end (signal, lost CPU) publishes the iterations done,
 * marked as partial; a run that did not measure one iteration (it could
 * not start, was stopped or lost its CPU first) changes nothing.  Frees
 * the run and releases the run slot.
 *
 * Return: whether a result was published.
 */
static bool run_end(struct run_state *run, bool publish)
{
	struct lttng_calibrate_result *res = run->res;
	int ret = run->ret;
	unsigned int i;

	if (ret == -EINTR)
		res->end = LTTNG_CALIBRATE_END_INTERRUPTED;
	else if (ret == -EAGAIN)
		res->end = LTTNG_CALIBRATE_END_MIGRATED;
	/* The verdicts, so that deltas withholds what results withholds. */
	lttng_calibrate_counters_release(&run->counters, res->counter);
	for (i = 0; i < res->nr_counters; i++)
		if (!res->counter[i].valid)
			lttng_calibrate_deltas_withhold(run->deltas, BIT(i));
	lttng_calibrate_deltas_put(run->deltas);
	lttng_calibrate_probe_teardown(&run->probe);
	res->nmissed = run->probe.nmissed;
	lttng_calibrate_clock_close(&run->clock);
	lttng_calibrate_status_stop();
	publish = publish && res->done &&
		  (!ret || ret == -EINTR || ret == -EAGAIN);
	if (publish) {
		flush_result(res);
		lttng_calibrate_result_publish(res);
	} else {
		kvfree(res);
	}
	kfree(run);
	lttng_calibrate_settings_end_run();
	return publish;
}

/*
 * One run, from the writer, which holds the run slot: the errno of the
 * ABI.  A lost CPU is -ENODEV; a signal is -EINTR once something was
 * published, else -ERESTARTSYS.  Frees @run and releases the slot, unless
 * the run is given up to its thread, which then does.
 */
static int do_run(struct run_state *run, u64 asked)
{
	bool published;
	int ret;

	ret = run_begin(run, asked);
	if (ret) {
		kfree(run);
		lttng_calibrate_settings_end_run();
		return ret;
	}
	ret = run_measure(run);
	if (ret == -ERESTARTSYS)
		return ret;	/* given up: its thread ends the run */
	if (ret) {
		run->ret = ret;
		run_end(run, false);
		return ret;
	}
	ret = run->ret;
	published = run_end(run, true);
	if (ret == -EAGAIN)
		return -ENODEV;
	if (ret == -EINTR && !published)
		return -ERESTARTSYS;
	return ret;
}

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[RUN_INPUT_MAX];
	struct run_state *run;
	ssize_t ret;
	s64 asked;

	ret = lttng_calibrate_copy_command(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	/* Counts beyond max_iterations, up to U64_MAX, are -E2BIG. */
	ret = lttng_calibrate_parse_decimal(buf, count, 0, S64_MAX, &asked);
	if (ret == -ERANGE)
		return -E2BIG;
	if (ret || !asked)
		return -EINVAL;

	run = kzalloc(sizeof(*run), GFP_KERNEL_ACCOUNT);
	if (!run)
		return -ENOMEM;
	ret = lttng_calibrate_settings_begin_run(&run->set);
	if (ret) {
		kfree(run);
		return ret;
	}
	ret = do_run(run, asked);
	return ret ? ret : count;
}

static int run_open(struct inode *inode, struct file *file)
{
	return lttng_calibrate_interface_open();
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.open = run_open,
	.write = run_write,
	.llseek = noop_llseek,
};

/* "irqs": whether local interrupts stay enabled inside samples. */
static const char *const irqs_names[] = {
	[false] = "disabled",
	[true] = "enabled",
};

static const char *irqs_name(int i)
{
	return irqs_names[i];
}

static int irqs_get(const struct lttng_calibrate_settings *s)
{
	return s->irqs_enabled;
}

static void irqs_set(struct lttng_calibrate_settings *s, int i)
{
	s->irqs_enabled = i;
}

static const struct lttng_calibrate_choice irqs_choice = {
	.nr = ARRAY_SIZE(irqs_names),
	.name = irqs_name,
	.get = irqs_get,
	.set = irqs_set,
};

static int cpu_offline(unsigned int cpu)
{
	this_cpu_inc(cpu_gone);
	return 0;
}

/**
 * lttng_calibrate_run_init() - create "run" and "irqs", follow CPUs going
 *	offline
 * @dir: the module's debugfs directory
 *
 * On failure nothing is left registered; the files created are removed
 * with @dir by the caller.
 *
 * Return: 0, or the error of the CPU hotplug registration or of a file.
 */
int lttng_calibrate_run_init(struct dentry *dir)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"lttng_calibrate:online", NULL,
					cpu_offline);
	if (ret < 0)
		return ret;
	cpuhp_online = ret;
	ret = lttng_calibrate_create_file("run", 0200, dir, NULL, &run_fops) ?:
	      lttng_calibrate_choice_file("irqs", dir, &irqs_choice);
	if (ret)
		cpuhp_remove_state_nocalls(cpuhp_online);
	return ret;
}

/**
 * lttng_calibrate_run_exit() - stop following CPUs
 *
 * Context: after the debugfs files are gone: no run is left.
 */
void lttng_calibrate_run_exit(void)
{
	cpuhp_remove_state_nocalls(cpuhp_online);
}
