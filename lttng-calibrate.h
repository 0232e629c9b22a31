/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: what kernel instrumentation costs, measured in the kernel.
 *
 * What the module's files share: the settings a run works with, the result
 * it publishes, and one block of prototypes per file.  Every file includes
 * this header first: pr_fmt is defined here, once.
 *
 * Calls between files go one way, down this list, never back up (each
 * file's line says whose functions it calls):
 *
 *	lttng-calibrate.c		run, results, probe, selection, events,
 *					deltas, input, settings, target: init
 *					and parameters
 *	lttng-calibrate-run.c		results, probe, counters, clock,
 *					deltas, input, settings, stats
 *	lttng-calibrate-results.c	probe (names), stats
 *	lttng-calibrate-probe.c		input, target, clock
 *	lttng-calibrate-selection.c	counters, events, settings
 *	lttng-calibrate-input.c		settings
 *	lttng-calibrate-counters.c,
 *	lttng-calibrate-clock.c,
 *	lttng-calibrate-events.c,
 *	lttng-calibrate-deltas.c,
 *	lttng-calibrate-settings.c,
 *	lttng-calibrate-stats.c,
 *	lttng-calibrate-target.c	nothing of the module
 *
 * A file that owns a setting hands input.c a table of callbacks (struct
 * lttng_calibrate_choice, struct lttng_calibrate_number): input.c calls
 * them without knowing whose they are.
 */
#ifndef _LTTNG_CALIBRATE_H
#define _LTTNG_CALIBRATE_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

#include "lttng-calibrate-compat.h"
#include "lttng-calibrate-stats.h"

/*
 * The names of the function that instrumentation is attached to and of its
 * twin that is never instrumented (lttng-calibrate-target.c) are unique in
 * the kernel (lttng-tracer.ko has its own lttng_calibrate_kretprobe()), so
 * that "lttng enable-event --function=lttng_calibrate_target" resolves to
 * ours.
 */
#define LTTNG_CALIBRATE_TARGET_SYMBOL	"lttng_calibrate_target"
#define LTTNG_CALIBRATE_BASELINE_SYMBOL	"lttng_calibrate_baseline"

/*
 * The longest busy-wait a handler may be asked for: in clock cycles, and
 * in time on the run's clock, whose rate is known when the run starts (a
 * generic timer's counter ticks at tens of MHz only), so that a sample
 * stays far below a chunk's 10 ms with interrupts off.
 */
#define LTTNG_CALIBRATE_WORK_LIMIT	1000000ULL
#define LTTNG_CALIBRATE_WORK_MAX_US	2000

/**
 * enum lttng_calibrate_row - what one row of the results describes
 * @LTTNG_CALIBRATE_TARGET: one call of the target
 * @LTTNG_CALIBRATE_BASELINE: one call of lttng_calibrate_baseline()
 * @LTTNG_CALIBRATE_DIFFERENCE: target minus baseline, per iteration: the
 *	cost of whatever instruments the target
 * @LTTNG_CALIBRATE_NR_ROWS: number of rows
 */
enum lttng_calibrate_row {
	LTTNG_CALIBRATE_TARGET,
	LTTNG_CALIBRATE_BASELINE,
	LTTNG_CALIBRATE_DIFFERENCE,
	LTTNG_CALIBRATE_NR_ROWS,
};

/**
 * enum lttng_calibrate_end - how a run ended
 * @LTTNG_CALIBRATE_END_COMPLETE: every asked iteration was done
 * @LTTNG_CALIBRATE_END_INTERRUPTED: a signal stopped the run
 * @LTTNG_CALIBRATE_END_MIGRATED: the run's CPU went offline (even if it
 *	came back), or the cycle counter that timed it stopped counting
 *	there, so the run stopped
 * @LTTNG_CALIBRATE_NR_ENDS: number of ends
 */
enum lttng_calibrate_end {
	LTTNG_CALIBRATE_END_COMPLETE,
	LTTNG_CALIBRATE_END_INTERRUPTED,
	LTTNG_CALIBRATE_END_MIGRATED,
	LTTNG_CALIBRATE_NR_ENDS,
};

/**
 * enum lttng_calibrate_mechanism - what the module attaches to the target
 * @LTTNG_CALIBRATE_PROBE_NONE: nothing
 * @LTTNG_CALIBRATE_PROBE_KPROBE: a kprobe with a pre-handler
 * @LTTNG_CALIBRATE_PROBE_KRETPROBE: a kretprobe with entry and return
 *	handlers and per-instance data
 * @LTTNG_CALIBRATE_PROBE_FPROBE: an fprobe with an entry handler, where the
 *	kernel has them
 * @LTTNG_CALIBRATE_PROBE_FPROBE_EXIT: an fprobe with entry and exit
 *	handlers and per-instance data
 * @LTTNG_CALIBRATE_PROBE_EXTERNAL: nothing of ours: someone else (LTTng,
 *	ftrace kprobe events, perf probe, bpftrace) instruments the target
 * @LTTNG_CALIBRATE_NR_MECHANISMS: number of mechanisms
 */
enum lttng_calibrate_mechanism {
	LTTNG_CALIBRATE_PROBE_NONE,
	LTTNG_CALIBRATE_PROBE_KPROBE,
	LTTNG_CALIBRATE_PROBE_KRETPROBE,
	LTTNG_CALIBRATE_PROBE_FPROBE,
	LTTNG_CALIBRATE_PROBE_FPROBE_EXIT,
	LTTNG_CALIBRATE_PROBE_EXTERNAL,
	LTTNG_CALIBRATE_NR_MECHANISMS,
};

/**
 * enum lttng_calibrate_target_kind - which function a run times
 * @LTTNG_CALIBRATE_TARGET_FUNCTION: lttng_calibrate_target(), empty
 * @LTTNG_CALIBRATE_TARGET_TRACEPOINT: lttng_calibrate_tracepoint_target(),
 *	which holds the lttng_calibrate:lttng_calibrate_event tracepoint
 * @LTTNG_CALIBRATE_TARGET_PAYLOAD: lttng_calibrate_payload_target(), which
 *	holds the lttng_calibrate:lttng_calibrate_payload tracepoint
 * @LTTNG_CALIBRATE_NR_TARGETS: number of targets
 */
enum lttng_calibrate_target_kind {
	LTTNG_CALIBRATE_TARGET_FUNCTION,
	LTTNG_CALIBRATE_TARGET_TRACEPOINT,
	LTTNG_CALIBRATE_TARGET_PAYLOAD,
	LTTNG_CALIBRATE_NR_TARGETS,
};

/* Counters read around every timed call, at most. */
#define LTTNG_CALIBRATE_MAX_COUNTERS	8
/* Metric 0 is time in clock cycles; metric 1 + i is counter i. */
#define LTTNG_CALIBRATE_MAX_METRICS	(1 + LTTNG_CALIBRATE_MAX_COUNTERS)
#define LTTNG_CALIBRATE_COUNTER_NAME_MAX	48
#define LTTNG_CALIBRATE_PMU_NAME_MAX	32

/**
 * struct lttng_calibrate_counter_spec - a counter, as selected by its name
 * @name: the name perf(1) gives it ("LLC-load-misses", "page-faults"); raw
 *	codes in normal form ("rc0"); for an event given by its PMU's type
 *	and config, the name it was given, else "PMU:0xCONFIG"
 * @type: perf_event_attr type
 * @config: perf_event_attr config
 * @config1: perf_event_attr config1
 * @config2: perf_event_attr config2
 * @pmu: the name of the PMU that hosts it, as in
 *	/sys/bus/event_source/devices/
 */
struct lttng_calibrate_counter_spec {
	char name[LTTNG_CALIBRATE_COUNTER_NAME_MAX];
	char pmu[LTTNG_CALIBRATE_PMU_NAME_MAX];
	u32 type;
	u64 config;
	u64 config1;
	u64 config2;
};

/**
 * struct lttng_calibrate_counter_set - the counters selected for runs
 * @nr: how many
 * @spec: each of them, in the order they were given
 */
struct lttng_calibrate_counter_set {
	unsigned int nr;
	struct lttng_calibrate_counter_spec spec[LTTNG_CALIBRATE_MAX_COUNTERS];
};

/**
 * struct lttng_calibrate_settings - what a run works with
 * @cpu: the CPU runs are bound to, -1 for the writer's
 * @max_iterations: largest iteration count "run" accepts
 * @chunk_iterations: most iterations between two scheduling points (a
 *	chunk also ends after LTTNG_CALIBRATE_CHUNK_US of run time)
 * @deltas_window: iterations the "deltas" file keeps
 * @mechanism: what the module attaches to the target
 * @target_kind: which target is timed
 * @work_cycles: cycles each of the module's handlers spins
 * @irqs_enabled: local interrupts stay enabled inside samples
 * @counters: counters read around every call
 *
 * One copy is current (lttng-calibrate-settings.c owns it); a run works on
 * a snapshot taken when it starts, and settings cannot change while a run
 * is in progress.
 */
struct lttng_calibrate_settings {
	int cpu;
	int max_iterations;
	int chunk_iterations;
	int deltas_window;
	enum lttng_calibrate_mechanism mechanism;
	enum lttng_calibrate_target_kind target_kind;
	u64 work_cycles;
	bool irqs_enabled;
	struct lttng_calibrate_counter_set counters;
};

/**
 * struct lttng_calibrate_counter_result - how a counter fared in a run
 * @spec: the counter
 * @valid: it was counting, on the run's CPU, for the whole run, and it
 *	counted; if not, its figures are withheld
 * @counted: it read more than 0 over the whole run, or it is a software
 *	or tracepoint event, whose 0 is a count.  A PMU counter that opens
 *	but does not count (an event this CPU or its emulator does not
 *	implement) reads 0 in every window, which is no measurement.
 * @refused: 0, or the error with which it did not open on the run's CPU
 *	(then it did not count, and is not valid)
 * @enabled: ns it was enabled
 * @running: ns it was counting
 */
struct lttng_calibrate_counter_result {
	struct lttng_calibrate_counter_spec spec;
	bool valid;
	bool counted;
	int refused;
	u64 enabled;
	u64 running;
};

/**
 * struct lttng_calibrate_result - the outcome of one run
 * @number: runs published since the module was loaded, this one included
 * @asked: iterations asked for
 * @done: iterations done; below @asked when the run ended early
 * @cpu: the CPU the run was bound to
 * @end: how the run ended
 * @clock_name: the clock that timed the run
 * @clock_khz: its frequency
 * @irqs_enabled: local interrupts were enabled inside samples
 * @mechanism: what the module attached to the target
 * @target_kind: which target was timed
 * @work_cycles: cycles each of the module's handlers spun
 * @nmissed: probe hits missed
 * @wall_cycles: clock cycles from the first iteration to the last, loop,
 *	statistics and scheduling points included
 * @nr_counters: counters read around every call
 * @counter: how each counter fared
 * @cold: the first (cold-cache) sample, per metric and row; it is taken
 *	before the @asked iterations and kept out of @stats
 * @stats: per metric (time in clock cycles, then each counter) and row,
 *	statistics over the @done iterations
 *
 * A result is built by a run, then published whole: readers only ever see
 * a finished result.
 */
struct lttng_calibrate_result {
	u64 number;
	u64 asked;
	u64 done;
	int cpu;
	enum lttng_calibrate_end end;
	const char *clock_name;
	u32 clock_khz;
	bool irqs_enabled;
	enum lttng_calibrate_mechanism mechanism;
	enum lttng_calibrate_target_kind target_kind;
	u64 work_cycles;
	unsigned long nmissed;
	u64 wall_cycles;
	unsigned int nr_counters;
	struct lttng_calibrate_counter_result counter[LTTNG_CALIBRATE_MAX_COUNTERS];
	s64 cold[LTTNG_CALIBRATE_MAX_METRICS][LTTNG_CALIBRATE_NR_ROWS];
	struct lttng_calibrate_stats stats[][LTTNG_CALIBRATE_NR_ROWS];
};

/**
 * struct lttng_calibrate_probe - the instrumentation of one run
 * @mechanism: what the module attaches
 * @target_kind: which target is timed
 * @work_cycles: cycles each of our handlers spins (ground truth)
 * @clock: the run's clock, which times the spin
 * @target: the timed function
 * @baseline: its twin, never instrumented
 * @kp: the kprobe, for @mechanism kprobe
 * @krp: the kretprobe, for @mechanism kretprobe
 * @fp: the fprobe, for @mechanism fprobe and fprobe-exit
 * @fp_addr: the address @fp probes
 * @registered: the mechanism's teardown is due
 * @nmissed: hits the probe missed, read before unregistering
 */
struct lttng_calibrate_clock;

struct lttng_calibrate_probe {
	enum lttng_calibrate_mechanism mechanism;
	enum lttng_calibrate_target_kind target_kind;
	u64 work_cycles;
	struct lttng_calibrate_clock *clock;
	void (*target)(void);
	void (*baseline)(void);
	struct kprobe kp;
	struct kretprobe krp;
#ifdef LTTNG_CALIBRATE_HAVE_FPROBE
	struct fprobe fp;
	unsigned long fp_addr;
#endif
	bool registered;
	unsigned long nmissed;
};

/**
 * struct lttng_calibrate_deltas - ring of the last per-iteration deltas
 * @ref: the run that fills it and the "deltas" file each hold one
 * @nr_metrics: time, then each counter
 * @name: each counter's name, for the header line
 * @window: rows the ring holds
 * @stride: values per row, 2 * @nr_metrics (target, baseline)
 * @next: the slot of the next row, kept so that adding a row needs no
 *	division
 * @begun: rows the run has started writing
 * @rows: rows completely written; row i is in slot i % @window.  @begun
 *	and @rows count at most a run's iterations (max_iterations, an int):
 *	native words, which smp_load_acquire() takes on 32-bit too
 * @withheld: bit i set once counter i was found not counting: its columns
 *	are withheld
 * @value: @window rows of @stride values
 *
 * The run writes without a lock; a reader copies the ring and keeps the
 * rows that @begun shows were not overwritten while it copied.
 */
struct lttng_calibrate_deltas {
	struct kref ref;
	unsigned int nr_metrics;
	char name[LTTNG_CALIBRATE_MAX_COUNTERS][LTTNG_CALIBRATE_COUNTER_NAME_MAX];
	u32 window;
	u32 stride;
	u32 next;
	unsigned long begun;
	unsigned long rows;
	unsigned long withheld;
	s64 value[];
};

/* Adds one iteration; only the run's thread calls it. */
static __always_inline void
lttng_calibrate_deltas_add(struct lttng_calibrate_deltas *d,
			   s64 sample[][LTTNG_CALIBRATE_NR_ROWS])
{
	unsigned long n = d->rows;
	unsigned int m;
	s64 *row;

	if (!d->window)
		return;
	WRITE_ONCE(d->begun, n + 1);
	/* Pairs with the smp_rmb() of a reader: begun is seen first. */
	smp_wmb();
	row = d->value + (size_t)d->next * d->stride;
	for (m = 0; m < d->nr_metrics; m++) {
		row[2 * m] = sample[m][LTTNG_CALIBRATE_TARGET];
		row[2 * m + 1] = sample[m][LTTNG_CALIBRATE_BASELINE];
	}
	/* Pairs with the acquire of a reader: the row is complete. */
	smp_store_release(&d->rows, n + 1);
	if (++d->next == d->window)
		d->next = 0;
}

/**
 * struct lttng_calibrate_choice - a settings file that holds one word
 * @nr: how many words there are
 * @name: word @i
 * @unavailable: NULL when word @i may be chosen on this kernel, else why
 *	not; NULL when all may
 * @get: the chosen word in @s
 * @set: choose word @i in @s
 */
struct lttng_calibrate_choice {
	int nr;
	const char *(*name)(int i);
	const char *(*unavailable)(int i);
	int (*get)(const struct lttng_calibrate_settings *s);
	void (*set)(struct lttng_calibrate_settings *s, int i);
};

/**
 * struct lttng_calibrate_number - a setting that holds a number
 * @offset: of its field in struct lttng_calibrate_settings
 * @size: of its field: sizeof(int) or sizeof(u64)
 * @min: smallest value accepted
 * @max: largest value accepted; -1 for the last possible CPU
 * @check: NULL, or what must agree with the new value before it is set,
 *	with the settings locked; 0 or the error that refuses it
 */
struct lttng_calibrate_number {
	size_t offset;
	size_t size;
	s64 min;
	s64 max;
	int (*check)(struct lttng_calibrate_settings *s, s64 v);
};

/**
 * lttng_calibrate_create_file() - create one file of the interface
 * @name: the file's name
 * @mode: its mode
 * @dir: the module's debugfs directory
 * @data: its inode's private data
 * @fops: its operations
 *
 * The debugfs files are the module's only interface: a load that cannot
 * create one of them fails, and names it, rather than leave a module
 * loaded without it.
 *
 * Return: 0, or the error of debugfs_create_file().
 */
static inline int lttng_calibrate_create_file(const char *name, umode_t mode,
					      struct dentry *dir, void *data,
					      const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_file(name, mode, dir, data, fops);

	if (IS_ERR(d)) {
		pr_err("cannot create %s in debugfs: error %ld\n", name,
		       PTR_ERR(d));
		return PTR_ERR(d);
	}
	return 0;
}

/*
 * DEFINE_SHOW_ATTRIBUTE(), with the open refused until the module's init
 * has finished (lttng_calibrate_interface_open()).
 */
#define LTTNG_CALIBRATE_DEFINE_SHOW(__name)				\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return lttng_calibrate_interface_open() ?:			\
	       single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.owner = THIS_MODULE,						\
	.open = __name ## _open,					\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

/* lttng-calibrate-target.c */
int lttng_calibrate_target_init(void);
void lttng_calibrate_target(void);
void lttng_calibrate_baseline(void);
void lttng_calibrate_tracepoint_target(void);
void lttng_calibrate_payload_target(void);

/* lttng-calibrate-settings.c */
struct lttng_calibrate_settings *lttng_calibrate_settings_lock(void);
void lttng_calibrate_settings_unlock(void);
void lttng_calibrate_settings_assert_locked(void);
void lttng_calibrate_settings_close(void);
int lttng_calibrate_settings_begin_run(struct lttng_calibrate_settings *snap);
void lttng_calibrate_settings_end_run(void);
int lttng_calibrate_settings_get(struct lttng_calibrate_settings *copy);
void lttng_calibrate_interface_ready(void);
int lttng_calibrate_interface_open(void);

/* lttng-calibrate-input.c */
int lttng_calibrate_parse_decimal(const char *text, size_t len, s64 min,
				  s64 max, s64 *val);
ssize_t lttng_calibrate_copy_command(char *buf, size_t size,
				     const char __user *ubuf, size_t count);
int lttng_calibrate_choice_file(const char *name, struct dentry *dir,
				const struct lttng_calibrate_choice *choice);
int lttng_calibrate_number_file(const char *name, struct dentry *dir,
				const struct lttng_calibrate_number *number);
extern const struct kernel_param_ops lttng_calibrate_number_param_ops;

/* lttng-calibrate-probe.c */
const char *lttng_calibrate_mechanism_name(enum lttng_calibrate_mechanism mech);
const char *lttng_calibrate_target_name(enum lttng_calibrate_target_kind kind);
const char *lttng_calibrate_target_symbol(enum lttng_calibrate_target_kind kind);
int lttng_calibrate_probe_setup(struct lttng_calibrate_probe *p,
				const struct lttng_calibrate_settings *set,
				struct lttng_calibrate_clock *clock);
void lttng_calibrate_probe_teardown(struct lttng_calibrate_probe *p);
int lttng_calibrate_probe_init(struct dentry *dir);

/* lttng-calibrate-selection.c */
int lttng_calibrate_selection_move(struct lttng_calibrate_settings *s, int cpu);
int lttng_calibrate_selection_init(struct dentry *dir);
void lttng_calibrate_selection_exit(void);

/* lttng-calibrate-events.c */
int lttng_calibrate_event_parse(char *word,
				struct lttng_calibrate_counter_spec *spec);
const char *lttng_calibrate_event_type_name(u32 type);
void lttng_calibrate_event_default_name(struct lttng_calibrate_counter_spec *spec);
int lttng_calibrate_events_init(struct dentry *dir);

/*
 * lttng-calibrate-counters.c: see lttng-calibrate-counters.h;
 * lttng-calibrate-clock.c: see lttng-calibrate-clock.h
 */

/* lttng-calibrate-deltas.c */
struct lttng_calibrate_deltas *
lttng_calibrate_deltas_alloc(const struct lttng_calibrate_counter_set *set,
			     u32 window);
void lttng_calibrate_deltas_show(struct lttng_calibrate_deltas *d);
void lttng_calibrate_deltas_put(struct lttng_calibrate_deltas *d);
void lttng_calibrate_deltas_withhold(struct lttng_calibrate_deltas *d,
				     unsigned long counters);
int lttng_calibrate_deltas_init(struct dentry *dir);
void lttng_calibrate_deltas_exit(void);

/* lttng-calibrate-results.c */
struct lttng_calibrate_result *
lttng_calibrate_result_alloc(const struct lttng_calibrate_settings *set,
			     u64 asked, int cpu);
void lttng_calibrate_result_publish(struct lttng_calibrate_result *res);
void lttng_calibrate_status_start(int cpu, u64 asked);
void lttng_calibrate_status_update(u64 done);
void lttng_calibrate_status_stop(void);
int lttng_calibrate_results_init(struct dentry *dir);
void lttng_calibrate_results_exit(void);

/* lttng-calibrate-run.c */
int lttng_calibrate_run_init(struct dentry *dir);
void lttng_calibrate_run_exit(void);

#endif /* _LTTNG_CALIBRATE_H */
