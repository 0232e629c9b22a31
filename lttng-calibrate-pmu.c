// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: PMU and software counters read around every timed call.
 *
 * Event names are the ones perf(1) and "lttng add-context --type=perf:cpu:"
 * users type.  Counters are created for the run's CPU before the run,
 * pinned, counting everything that happens on that CPU, and released when
 * the run ends: nothing is held while idle.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "lttng-calibrate.h"

struct lttng_calibrate_event_name {
	const char *name;
	u32 type;
	u64 config;
};

static const struct lttng_calibrate_event_name lttng_calibrate_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_EMULATION_FAULTS },
};

/* Hardware cache events: CACHE-OP[-misses], as perf(1) names them. */
static const char *const lttng_calibrate_caches[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const struct {
	const char *name;
	u32 op, result;
} lttng_calibrate_cache_ops[] = {
	{ "loads", PERF_COUNT_HW_CACHE_OP_READ,
	  PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "load-misses", PERF_COUNT_HW_CACHE_OP_READ,
	  PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "stores", PERF_COUNT_HW_CACHE_OP_WRITE,
	  PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "store-misses", PERF_COUNT_HW_CACHE_OP_WRITE,
	  PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH,
	  PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "prefetch-misses", PERF_COUNT_HW_CACHE_OP_PREFETCH,
	  PERF_COUNT_HW_CACHE_RESULT_MISS },
};

static bool lttng_calibrate_parse_cache(const char *name,
					struct lttng_calibrate_counter_spec *spec)
{
	size_t len;
	int c, o;

	for (c = 0; c < ARRAY_SIZE(lttng_calibrate_caches); c++) {
		len = strlen(lttng_calibrate_caches[c]);
		if (strncmp(name, lttng_calibrate_caches[c], len) ||
		    name[len] != '-')
			continue;
		for (o = 0; o < ARRAY_SIZE(lttng_calibrate_cache_ops); o++) {
			if (strcmp(name + len + 1,
				   lttng_calibrate_cache_ops[o].name))
				continue;
			spec->type = PERF_TYPE_HW_CACHE;
			spec->config = c |
				lttng_calibrate_cache_ops[o].op << 8 |
				lttng_calibrate_cache_ops[o].result << 16;
			return true;
		}
	}
	return false;
}

/* rNNNN: a raw, model-specific event code in hexadecimal. */
static bool lttng_calibrate_parse_raw(const char *name,
				      struct lttng_calibrate_counter_spec *spec)
{
	if (name[0] != 'r' || !name[1] || kstrtou64(name + 1, 16, &spec->config))
		return false;
	spec->type = PERF_TYPE_RAW;
	return true;
}

/**
 * lttng_calibrate_counter_parse() - turn an event name into a counter spec
 * @name: NUL-terminated event name, as perf(1) spells it
 * @spec: filled in on success
 *
 * Return: 0, or -EINVAL for a name that is not an event (or too long).
 */
int lttng_calibrate_counter_parse(const char *name,
				  struct lttng_calibrate_counter_spec *spec)
{
	int i;

	if (strscpy(spec->name, name, sizeof(spec->name)) < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lttng_calibrate_events); i++) {
		if (!strcmp(name, lttng_calibrate_events[i].name)) {
			spec->type = lttng_calibrate_events[i].type;
			spec->config = lttng_calibrate_events[i].config;
			return 0;
		}
	}
	if (lttng_calibrate_parse_cache(name, spec) ||
	    lttng_calibrate_parse_raw(name, spec))
		return 0;
	return -EINVAL;
}

/**
 * lttng_calibrate_counter_open() - create one counter on one CPU
 * @spec: what to count
 * @cpu: the CPU whose activity it counts
 *
 * The counter is pinned: it never shares its PMU register by multiplexing;
 * if the PMU cannot host it, it stops counting, which lttng_calibrate
 * detects and reports as "not counting the whole time".
 *
 * Context: process context, may sleep.
 * Return: the event, or an ERR_PTR(); never NULL.
 */
struct perf_event *
lttng_calibrate_counter_open(const struct lttng_calibrate_counter_spec *spec,
			     int cpu)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.pinned = 1,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/**
 * lttng_calibrate_counter_close() - release a counter
 * @event: an event from lttng_calibrate_counter_open(), an ERR_PTR() or NULL
 *
 * Only real events are released: releasing an error pointer is what makes
 * other tracers oops when a hardware event cannot be created.
 *
 * Context: process context, may sleep.
 */
void lttng_calibrate_counter_close(struct perf_event *event)
{
	if (!IS_ERR_OR_NULL(event))
		perf_event_release_kernel(event);
}

/**
 * lttng_calibrate_counter_active() - whether a counter is counting now
 * @event: an open counter
 *
 * Return: true when the event is scheduled on its PMU.
 */
bool lttng_calibrate_counter_active(struct perf_event *event)
{
	return READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE;
}

/**
 * lttng_calibrate_counter_times() - total value and times of a counter
 * @event: an open counter
 * @enabled: time it was enabled, in ns
 * @running: time it was counting, in ns; below @enabled when it was pushed
 *	out of the PMU for a while
 *
 * Context: process context, may sleep or send an IPI: not for the timed
 * region.
 * Return: the counter's value.
 */
u64 lttng_calibrate_counter_times(struct perf_event *event, u64 *enabled,
				  u64 *running)
{
	return perf_event_read_value(event, enabled, running);
}

/* The longest list "counters" accepts, in bytes. */
#define LTTNG_CALIBRATE_COUNTERS_INPUT_MAX	512

/* Protects the selected counters and the last refusal. */
static DEFINE_MUTEX(lttng_calibrate_counters_lock);
static struct lttng_calibrate_counter_set lttng_calibrate_counters;
static char lttng_calibrate_counters_refusal[160];

/**
 * lttng_calibrate_counters_get() - copy the counters selected for runs
 * @set: where to copy them
 */
void lttng_calibrate_counters_get(struct lttng_calibrate_counter_set *set)
{
	mutex_lock(&lttng_calibrate_counters_lock);
	*set = lttng_calibrate_counters;
	mutex_unlock(&lttng_calibrate_counters_lock);
}

static __printf(2, 3) int lttng_calibrate_counters_refuse(int err,
							   const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	mutex_lock(&lttng_calibrate_counters_lock);
	vsnprintf(lttng_calibrate_counters_refusal,
		  sizeof(lttng_calibrate_counters_refusal), fmt, args);
	mutex_unlock(&lttng_calibrate_counters_lock);
	va_end(args);
	return err;
}

static const char *lttng_calibrate_open_hint(int err)
{
	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
		return "not supported by this CPU or kernel (no hardware PMU?)";
	case -EINVAL:
		return "rejected by the PMU";
	case -EBUSY:
		return "the PMU is busy";
	case -EACCES:
	case -EPERM:
		return "not permitted";
	default:
		return "cannot be opened";
	}
}

/* Every counter of @set must open on the CPU we are on. */
static int lttng_calibrate_counters_try(const struct lttng_calibrate_counter_set *set)
{
	int cpu = raw_smp_processor_id();
	struct perf_event *event;
	unsigned int i;
	int err;

	for (i = 0; i < set->nr; i++) {
		event = lttng_calibrate_counter_open(&set->spec[i], cpu);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			return lttng_calibrate_counters_refuse(err,
				"%s: %s (error %d on CPU %d)",
				set->spec[i].name,
				lttng_calibrate_open_hint(err), err, cpu);
		}
		lttng_calibrate_counter_close(event);
	}
	return 0;
}

/* Splits @text into names; each must be an event, given once, at most 8. */
static int lttng_calibrate_counters_parse(char *text,
					  struct lttng_calibrate_counter_set *set)
{
	struct lttng_calibrate_counter_spec spec;
	unsigned int i;
	char *name;

	set->nr = 0;
	while ((name = strsep(&text, " \t\n,")) != NULL) {
		if (!*name)
			continue;
		if (lttng_calibrate_counter_parse(name, &spec))
			return lttng_calibrate_counters_refuse(-EINVAL,
				"unknown event '%.32s'", name);
		for (i = 0; i < set->nr; i++)
			if (!strcmp(set->spec[i].name, spec.name))
				return lttng_calibrate_counters_refuse(-EINVAL,
					"%s is given twice", spec.name);
		if (set->nr == LTTNG_CALIBRATE_MAX_COUNTERS)
			return lttng_calibrate_counters_refuse(-E2BIG,
				"more than %d counters",
				LTTNG_CALIBRATE_MAX_COUNTERS);
		set->spec[set->nr++] = spec;
	}
	return 0;
}

static ssize_t lttng_calibrate_counters_write(struct file *file,
					      const char __user *ubuf,
					      size_t count, loff_t *ppos)
{
	struct lttng_calibrate_counter_set set;
	char *text;
	int err;

	if (count > LTTNG_CALIBRATE_COUNTERS_INPUT_MAX)
		return lttng_calibrate_counters_refuse(-EINVAL,
			"list longer than %d bytes",
			LTTNG_CALIBRATE_COUNTERS_INPUT_MAX);
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	if (strlen(text) != count) {
		err = lttng_calibrate_counters_refuse(-EINVAL,
						      "NUL byte in the list");
		goto out_free;
	}
	/* Counters change between runs, never during one. */
	if (!lttng_calibrate_run_trylock()) {
		err = -EBUSY;
		goto out_free;
	}
	err = lttng_calibrate_counters_parse(text, &set);
	if (!err)
		err = lttng_calibrate_counters_try(&set);
	if (!err) {
		mutex_lock(&lttng_calibrate_counters_lock);
		lttng_calibrate_counters = set;
		lttng_calibrate_counters_refusal[0] = '\0';
		mutex_unlock(&lttng_calibrate_counters_lock);
	}
	lttng_calibrate_run_unlock();
out_free:
	kfree(text);
	return err ? err : count;
}

static const char *const lttng_calibrate_type_names[] = {
	[PERF_TYPE_HARDWARE] = "hardware",
	[PERF_TYPE_SOFTWARE] = "software",
	[PERF_TYPE_TRACEPOINT] = "tracepoint",
	[PERF_TYPE_HW_CACHE] = "hardware-cache",
	[PERF_TYPE_RAW] = "raw",
	[PERF_TYPE_BREAKPOINT] = "breakpoint",
};

static int lttng_calibrate_counters_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_counter_spec *spec;
	unsigned int i;

	mutex_lock(&lttng_calibrate_counters_lock);
	for (i = 0; i < lttng_calibrate_counters.nr; i++) {
		spec = &lttng_calibrate_counters.spec[i];
		seq_printf(m, "%s\t%s\t0x%llx\topened\n", spec->name,
			   lttng_calibrate_type_names[spec->type], spec->config);
	}
	if (!lttng_calibrate_counters.nr)
		seq_puts(m, "# none selected\n");
	if (lttng_calibrate_counters_refusal[0])
		seq_printf(m, "# last list refused: %s\n",
			   lttng_calibrate_counters_refusal);
	mutex_unlock(&lttng_calibrate_counters_lock);
	return 0;
}

static int lttng_calibrate_counters_open(struct inode *inode, struct file *file)
{
	return single_open(file, lttng_calibrate_counters_show, NULL);
}

static const struct file_operations lttng_calibrate_counters_fops = {
	.owner = THIS_MODULE,
	.open = lttng_calibrate_counters_open,
	.read = seq_read,
	.write = lttng_calibrate_counters_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * lttng_calibrate_counters_init() - create the "counters" file
 * @dir: the module's debugfs directory
 */
void lttng_calibrate_counters_init(struct dentry *dir)
{
	debugfs_create_file("counters", 0600, dir, NULL,
			    &lttng_calibrate_counters_fops);
}
