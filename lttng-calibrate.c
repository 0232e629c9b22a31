// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: what kernel instrumentation costs, measured in the kernel.
 *
 * Writing an iteration count N to /sys/kernel/debug/lttng_calibrate/run
 * times, N times, one call of lttng_calibrate_target() and one call of its
 * twin lttng_calibrate_baseline() on one CPU, interrupts off.  Whatever
 * instruments the target (a kretprobe, an LTTng event, a kprobe event, a
 * bpftrace probe) shows up as the difference between the two.
 *
 * This file holds the module's entry points and its parameters.  The other
 * concerns each have their file:
 *
 *	lttng-calibrate-target.c	the timed functions: the target, its
 *					twin, the tracepoint target
 *	lttng-calibrate-run.c		the run engine: run, irqs
 *	lttng-calibrate-results.c	results, results_kv, status
 *	lttng-calibrate-settings.c	the settings and the run slot
 *	lttng-calibrate-input.c		parsing what userspace writes; choice
 *					and number settings files, parameters
 *	lttng-calibrate-probe.c		mechanisms, the choice of target:
 *					probe, target, work_cycles
 *	lttng-calibrate-selection.c	the counters selected: counters
 *	lttng-calibrate-events.c	the events' names: events
 *	lttng-calibrate-counters.c	a run's perf counters
 *	lttng-calibrate-clock.c		the run's clock
 *	lttng-calibrate-deltas.c	the per-iteration deltas: deltas
 *	lttng-calibrate-stats.c		statistics, shared with userspace tests
 *
 * See Documentation/lttng-calibrate.rst.
 */
#include "lttng-calibrate.h"

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/security.h>
#include <linux/stddef.h>

/* The selected counters must open on the CPU runs will count on. */
static int cpu_check(struct lttng_calibrate_settings *s, s64 cpu)
{
	return lttng_calibrate_selection_move(s, cpu);
}

/* -1 as the largest: the last possible CPU. */
static struct lttng_calibrate_number cpu_param = {
	.offset = offsetof(struct lttng_calibrate_settings, cpu),
	.size = sizeof_field(struct lttng_calibrate_settings, cpu),
	.min = -1, .max = -1,
	.check = cpu_check,
};
module_param_cb(cpu, &lttng_calibrate_number_param_ops, &cpu_param, 0644);
MODULE_PARM_DESC(cpu,
		 "CPU that runs are bound to; -1 (default): the CPU the writer is on");

/* The histogram's buckets count in u32: at most 10^9 iterations. */
static struct lttng_calibrate_number max_iterations_param = {
	.offset = offsetof(struct lttng_calibrate_settings, max_iterations),
	.size = sizeof_field(struct lttng_calibrate_settings, max_iterations),
	.min = 1, .max = 1000000000,
};
module_param_cb(max_iterations, &lttng_calibrate_number_param_ops,
		&max_iterations_param, 0644);
MODULE_PARM_DESC(max_iterations,
		 "Largest iteration count accepted by run (default 100000000, at most 1000000000)");

static struct lttng_calibrate_number chunk_iterations_param = {
	.offset = offsetof(struct lttng_calibrate_settings, chunk_iterations),
	.size = sizeof_field(struct lttng_calibrate_settings, chunk_iterations),
	.min = 1, .max = 10000000,
};
module_param_cb(chunk_iterations, &lttng_calibrate_number_param_ops,
		&chunk_iterations_param, 0644);
MODULE_PARM_DESC(chunk_iterations,
		 "Most iterations between two scheduling points of a run, which also come every 10 ms (default 10000)");

static struct lttng_calibrate_number deltas_window_param = {
	.offset = offsetof(struct lttng_calibrate_settings, deltas_window),
	.size = sizeof_field(struct lttng_calibrate_settings, deltas_window),
	.min = 0, .max = 65536,
};
module_param_cb(deltas_window, &lttng_calibrate_number_param_ops,
		&deltas_window_param, 0644);
MODULE_PARM_DESC(deltas_window,
		 "Iterations kept in the deltas file (default 1000, at most 65536, 0: none)");

static struct dentry *debugfs_dir;

/*
 * Removes the files, then undoes what they may have done: on unload, and
 * when a load fails after creating some (parameters can be written as soon
 * as the load begins; the files cannot be opened before init's end, see
 * lttng_calibrate_interface_ready()).
 */
static void teardown(struct dentry *dir)
{
	/* Waits for readers and writers still inside a file operation. */
	debugfs_remove_recursive(dir);
	/* The parameters stay writable until the module is freed. */
	lttng_calibrate_settings_close();
	lttng_calibrate_selection_exit();
	lttng_calibrate_settings_unlock();
	lttng_calibrate_deltas_exit();
	lttng_calibrate_results_exit();
}

static int __init lttng_calibrate_init(void)
{
	typeof(lttng_calibrate_baseline) *baseline = lttng_calibrate_baseline;
	struct dentry *dir;
	int ret;

	if (!lttng_calibrate_arch_counter_khz()) {
		pr_err("the %s frequency is unknown: cannot convert to time\n",
		       LTTNG_CALIBRATE_ARCH_COUNTER_NAME);
		return -ENODEV;
	}
	/* Hidden, so that the compiler cannot answer for us. */
	OPTIMIZER_HIDE_VAR(baseline);
	if (baseline == lttng_calibrate_target) {
		pr_err("the target and its baseline were folded into one function\n");
		return -EINVAL;
	}
	/* Under lockdown, debugfs refuses writes: "run" could never work. */
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		pr_err("kernel lockdown forbids writing debugfs files; cannot be driven\n");
		return -EPERM;
	}

	ret = lttng_calibrate_target_init();
	if (ret)
		return ret;

	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dir)) {
		pr_err("cannot create the debugfs directory: %ld\n",
		       PTR_ERR(dir));
		return PTR_ERR(dir);
	}
	/* Every file of the interface, or no module: nothing half loaded. */
	ret = lttng_calibrate_run_init(dir);
	if (ret)
		goto out_teardown;
	ret = lttng_calibrate_results_init(dir) ?:
	      lttng_calibrate_selection_init(dir) ?:
	      lttng_calibrate_events_init(dir) ?:
	      lttng_calibrate_deltas_init(dir) ?:
	      lttng_calibrate_probe_init(dir);
	if (ret)
		goto out_run_exit;
	debugfs_dir = dir;
	/* Last: until here no file opens, for a failed load frees the module. */
	lttng_calibrate_interface_ready();
	return 0;

out_run_exit:
	teardown(dir);
	lttng_calibrate_run_exit();
	return ret;
out_teardown:
	teardown(dir);
	return ret;
}

static void __exit lttng_calibrate_exit(void)
{
	teardown(debugfs_dir);
	lttng_calibrate_run_exit();
}

module_init(lttng_calibrate_init);
module_exit(lttng_calibrate_exit);

MODULE_DESCRIPTION("Measure what kernel instrumentation costs: kprobes, kretprobes, tracepoints, LTTng");
MODULE_LICENSE("GPL");
MODULE_VERSION(LTTNG_CALIBRATE_VERSION);
