// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: PMU and software counters read around every timed call.
 *
 * Event names are the ones perf(1) and "lttng add-context --type=perf:cpu:"
 * users type.  A run's counters are created for its CPU before it starts,
 * pinned, counting everything that happens on that CPU, read in place
 * around every call, and released when it ends.  Between runs, only the
 * software events of the selection are held, disabled.
 *
 * The clock of a run is here too where it is a perf event: on arm64, the
 * CPU's cycle counter, finer than the generic timer's counter (62.5 MHz
 * under QEMU, 16 ns a tick), and exact under QEMU -icount.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-counters.h"

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

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

static_assert(ARRAY_SIZE(lttng_calibrate_caches) == PERF_COUNT_HW_CACHE_MAX);

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

/*
 * rNNNN: a raw, model-specific event code, 1 to 16 hexadecimal digits and
 * nothing else.  Its name is normalised ("r00C0" is "rc0"), so that one
 * code cannot be selected twice under two spellings.
 */
static bool lttng_calibrate_parse_raw(const char *name,
				      struct lttng_calibrate_counter_spec *spec)
{
	size_t len = strlen(name);
	size_t i;

	if (name[0] != 'r' || len < 2 || len > 17)
		return false;
	for (i = 1; i < len; i++)
		if (!isxdigit(name[i]))
			return false;
	if (kstrtou64(name + 1, 16, &spec->config))
		return false;
	spec->type = PERF_TYPE_RAW;
	snprintf(spec->name, sizeof(spec->name), "r%llx", spec->config);
	return true;
}

/*
 * A number of the generic form: 0x and 1 to 16 hexadecimal digits, or
 * decimal digits without a leading zero.
 */
static bool lttng_calibrate_parse_number(const char *s, u64 *value)
{
	size_t len = strlen(s);
	size_t i;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
		if (len < 1 || len > 16)
			return false;
		for (i = 0; i < len; i++)
			if (!isxdigit(s[i]))
				return false;
		return !kstrtou64(s, 16, value);
	}
	if (len < 1 || (s[0] == '0' && len > 1))
		return false;
	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return false;
	return !kstrtou64(s, 10, value);
}

/* The longest generic form: a 10-digit type and three 0x + 16 digits. */
#define LTTNG_CALIBRATE_GENERIC_MAX	(10 + 3 * 19 + 1)

/*
 * TYPE:CONFIG[:CONFIG1[:CONFIG2]]: an event of any PMU, by the type number
 * of /sys/bus/event_source/devices/PMU/type and its config words.
 */
static bool lttng_calibrate_parse_generic(const char *name,
					  struct lttng_calibrate_counter_spec *spec)
{
	char buf[LTTNG_CALIBRATE_GENERIC_MAX], *text = buf, *word;
	u64 *config[] = { &spec->config, &spec->config1, &spec->config2 };
	u64 type;
	int i;

	if (strscpy(buf, name, sizeof(buf)) < 0)
		return false;
	word = strsep(&text, ":");
	if (!text || !lttng_calibrate_parse_number(word, &type) ||
	    type > U32_MAX)
		return false;
	spec->type = type;
	spec->config1 = 0;
	spec->config2 = 0;
	for (i = 0; i < ARRAY_SIZE(config) && text; i++) {
		word = strsep(&text, ":");
		if (!lttng_calibrate_parse_number(word, config[i]))
			return false;
	}
	return !text;
}

/*
 * An event name as perf(1) spells it, or the generic form, which is named
 * when it is opened (@spec's name stays empty).
 */
static bool lttng_calibrate_parse_event(const char *name,
					struct lttng_calibrate_counter_spec *spec)
{
	int i;

	spec->name[0] = '\0';
	spec->config1 = 0;
	spec->config2 = 0;
	if (lttng_calibrate_parse_generic(name, spec))
		return true;
	if (strscpy(spec->name, name, sizeof(spec->name)) < 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(lttng_calibrate_events); i++) {
		if (!strcmp(name, lttng_calibrate_events[i].name)) {
			spec->type = lttng_calibrate_events[i].type;
			spec->config = lttng_calibrate_events[i].config;
			return true;
		}
	}
	return lttng_calibrate_parse_cache(name, spec) ||
	       lttng_calibrate_parse_raw(name, spec);
}

/*
 * A name given to an event of the generic form: 1 to 47 characters of
 * [A-Za-z0-9_./:+@-], and not the name of an event.
 */
static bool lttng_calibrate_label_ok(const char *label)
{
	struct lttng_calibrate_counter_spec spec;
	size_t len = strlen(label);
	size_t i;

	if (!len || len >= sizeof(spec.name))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(label[i]) && !strchr("_./:+@-", label[i]))
			return false;
	return !lttng_calibrate_parse_event(label, &spec);
}

/*
 * One word of a "counters" list: an event name as perf(1) spells it, or
 * [NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]].  -EINVAL for anything else.
 */
static int lttng_calibrate_counter_parse(char *word,
					 struct lttng_calibrate_counter_spec *spec)
{
	char *label = strsep(&word, "=");
	const char *event = word ? word : label;

	spec->pmu[0] = '\0';
	if (!lttng_calibrate_parse_event(event, spec))
		return -EINVAL;
	if (word) {
		if (spec->name[0] || !lttng_calibrate_label_ok(label))
			return -EINVAL;
		strscpy(spec->name, label, sizeof(spec->name));
	}
	return 0;
}

static struct perf_event *
lttng_calibrate_counter_open(const struct lttng_calibrate_counter_spec *spec,
			     int cpu, bool disabled)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.config1 = spec->config1,
		.config2 = spec->config2,
		.pinned = 1,
		.disabled = disabled,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/*
 * Only real events are released: releasing an error pointer is what makes
 * other tracers oops when a hardware event cannot be created.
 */
static void lttng_calibrate_counter_close(struct perf_event *event)
{
	if (!IS_ERR_OR_NULL(event))
		perf_event_release_kernel(event);
}

static void lttng_calibrate_counters_run_refused(const struct lttng_calibrate_counter_spec *spec,
						 int err, int cpu);
static void lttng_calibrate_counters_run_opened(void);

/**
 * lttng_calibrate_counters_create() - the perf events of a run
 * @rc: receives them
 * @set: the counters selected
 * @cpu: the CPU whose activity they count
 *
 * Each is pinned: it never shares its PMU register by multiplexing; if the
 * PMU cannot host it, it does not count, which the run detects.
 *
 * Context: process context, may sleep.
 * Return: 0, or the error of the first event that cannot be created (the
 * others are then released; "counters" and the kernel log name it).
 */
int lttng_calibrate_counters_create(struct lttng_calibrate_run_counters *rc,
				    const struct lttng_calibrate_counter_set *set,
				    int cpu)
{
	struct perf_event *event;
	unsigned int i;

	rc->nr = 0;
	rc->cpu = cpu;
	rc->lost = 0;
	for (i = 0; i < set->nr; i++) {
		event = lttng_calibrate_counter_open(&set->spec[i], cpu, false);
		if (IS_ERR(event)) {
			lttng_calibrate_counters_release(rc, NULL);
			lttng_calibrate_counters_run_refused(&set->spec[i],
							     PTR_ERR(event),
							     cpu);
			return PTR_ERR(event);
		}
		rc->event[rc->nr++] = event;
	}
	lttng_calibrate_counters_run_opened();
	return 0;
}

/**
 * lttng_calibrate_counters_check() - mark counters that are not counting
 * @rc: the run's events
 *
 * The rule of perf_event_read_local(): an event is read in place only
 * while it is active on this CPU.  One that is not (never scheduled on a
 * full PMU, detached when its CPU went offline) is lost for the run.
 *
 * Context: on the run's CPU, interrupts or preemption off.
 */
void lttng_calibrate_counters_check(struct lttng_calibrate_run_counters *rc)
{
	unsigned int i;

	for (i = 0; i < rc->nr; i++)
		if (READ_ONCE(rc->event[i]->state) != PERF_EVENT_STATE_ACTIVE ||
		    READ_ONCE(rc->event[i]->oncpu) != rc->cpu)
			rc->lost |= BIT(i);
}

/**
 * lttng_calibrate_counters_release() - each counter's verdict, and release
 * @rc: the run's events
 * @out: receives, per counter, whether it counted the whole run and its
 *	times; NULL to only release
 *
 * A counter is valid only if it was never seen away from the run's CPU and
 * it ran all the time it was enabled; and, for a counter of a PMU other
 * than perf's software and tracepoint ones, if its count over the whole
 * run (harness and set-up included) is not 0.  A software event that did
 * not happen reads 0, which is its count; a PMU counter that reads 0 over
 * a whole run of executed code does not count here (an event the CPU or
 * its emulator does not implement, such as raw 0x08 on arm64 under QEMU
 * without -icount).
 *
 * Context: process context, may sleep or send an IPI.
 */
void lttng_calibrate_counters_release(struct lttng_calibrate_run_counters *rc,
				      struct lttng_calibrate_counter_result *out)
{
	unsigned int i;
	u64 count;
	u32 type;

	for (i = 0; i < rc->nr; i++) {
		if (out) {
			count = perf_event_read_value(rc->event[i],
						      &out[i].enabled,
						      &out[i].running);
			type = rc->event[i]->attr.type;
			out[i].counted = count || type == PERF_TYPE_SOFTWARE ||
					 type == PERF_TYPE_TRACEPOINT;
			out[i].valid = !(rc->lost & BIT(i)) &&
				       out[i].enabled == out[i].running &&
				       out[i].counted;
		}
		lttng_calibrate_counter_close(rc->event[i]);
		rc->event[i] = NULL;
	}
	rc->nr = 0;
}

/* How long the cycle counter is measured against the ns clock. */
#define LTTNG_CALIBRATE_CLOCK_CALIBRATION_NS	(NSEC_PER_MSEC)

/**
 * lttng_calibrate_clock_open() - the clock of a run
 * @clk: receives it
 * @cpu: the run's CPU
 *
 * The architecture's counter, or, where the architecture has a finer clock
 * (LTTNG_CALIBRATE_HAVE_PMU_CLOCK), the CPU's cycle counter, as a pinned
 * cycles event.  A CPU without a PMU, or whose PMU refuses the event,
 * falls back to the architecture's counter.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOMEM.
 */
int lttng_calibrate_clock_open(struct lttng_calibrate_clock *clk, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.pinned = 1,
	};
	struct perf_event *event;

	*clk = (struct lttng_calibrate_clock) {
		.name = LTTNG_CALIBRATE_ARCH_COUNTER_NAME,
		.khz = lttng_calibrate_arch_counter_khz(),
		.cpu = cpu,
	};
	if (!LTTNG_CALIBRATE_HAVE_PMU_CLOCK)
		return 0;
	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(event))
		return PTR_ERR(event) == -ENOMEM ? -ENOMEM : 0;
	clk->event = event;
	clk->pmu = true;
	clk->name = "cpu_cycles";
	clk->khz = 0;
	return 0;
}

/**
 * lttng_calibrate_clock_start() - the clock's frequency, before the run
 * @clk: what lttng_calibrate_clock_open() gave
 *
 * The cycle counter runs at the CPU's frequency, which the kernel does not
 * publish: it is measured against the monotonic clock, for
 * LTTNG_CALIBRATE_CLOCK_CALIBRATION_NS with interrupts off.  A cycle
 * counter that the PMU could not schedule (its counters all taken by other
 * pinned events) gives way to the architecture's counter.
 *
 * Context: the run's thread, bound to its CPU.
 * Return: 0; -EAGAIN when the thread is not on the run's CPU (it went
 * offline, or never let the thread run there); -EIO when the counter did
 * not advance.
 */
int lttng_calibrate_clock_start(struct lttng_calibrate_clock *clk)
{
	u64 c0, c1, t0, t1, khz;
	unsigned long flags;

	if (!clk->pmu)
		return 0;
	local_irq_save(flags);
	if (smp_processor_id() != clk->cpu) {
		local_irq_restore(flags);
		return -EAGAIN;
	}
	c0 = lttng_calibrate_clock_read(clk);
	t0 = ktime_get_mono_fast_ns();
	do {
		t1 = ktime_get_mono_fast_ns();
	} while (t1 - t0 < LTTNG_CALIBRATE_CLOCK_CALIBRATION_NS);
	c1 = lttng_calibrate_clock_read(clk);
	local_irq_restore(flags);
	if (clk->lost) {
		clk->pmu = false;
		clk->lost = false;
		clk->name = LTTNG_CALIBRATE_ARCH_COUNTER_NAME;
		clk->khz = lttng_calibrate_arch_counter_khz();
		return 0;
	}
	if (c1 <= c0 || c1 - c0 > U64_MAX / NSEC_PER_MSEC)
		return -EIO;
	khz = div64_u64((c1 - c0) * NSEC_PER_MSEC, t1 - t0);
	if (!khz || khz > U32_MAX)
		return -EIO;
	clk->khz = khz;
	return 0;
}

/* Context: process context, may sleep. */
void lttng_calibrate_clock_close(struct lttng_calibrate_clock *clk)
{
	if (clk->event)
		perf_event_release_kernel(clk->event);
	clk->event = NULL;
	clk->pmu = false;
}

/* The longest list "counters" accepts, in bytes. */
#define LTTNG_CALIBRATE_COUNTERS_INPUT_MAX	512

/*
 * The last refusal, of a list ("last list refused: ...") or of a run's
 * counter ("last run refused: ..."), as "counters" shows it; and its lock.
 */
static DEFINE_MUTEX(lttng_calibrate_refusal_lock);
static char lttng_calibrate_counters_refusal[256];

/*
 * One event of each selected counter, created disabled and held while it
 * is selected.  Holding it keeps the PMU that hosts it (and its module)
 * from going away, so the type number stays that PMU's.  And for software
 * events: creating one enables a static key of perf's (in the page-fault
 * and scheduler paths) and releasing the last one disables it, both
 * patching kernel text on every CPU; holding one keeps runs from patching
 * text twice each.  Protected by the settings lock.
 */
static struct perf_event *lttng_calibrate_keepers[LTTNG_CALIBRATE_MAX_COUNTERS];

static __printf(2, 3) int lttng_calibrate_counters_refuse(int err,
							   const char *fmt, ...)
{
	va_list args;
	size_t n;

	va_start(args, fmt);
	mutex_lock(&lttng_calibrate_refusal_lock);
	n = scnprintf(lttng_calibrate_counters_refusal,
		      sizeof(lttng_calibrate_counters_refusal),
		      "last list refused: ");
	vsnprintf(lttng_calibrate_counters_refusal + n,
		  sizeof(lttng_calibrate_counters_refusal) - n, fmt, args);
	mutex_unlock(&lttng_calibrate_refusal_lock);
	va_end(args);
	return err;
}

static const char *
lttng_calibrate_open_hint(const struct lttng_calibrate_counter_spec *spec,
			  int err)
{
	if (err == -ENOENT && spec->type >= PERF_TYPE_MAX)
		return "no PMU has this type, or it has no such event";
	switch (err) {
	case -ENODEV:
		return "its PMU is going away, or the CPU is offline";
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

/*
 * A selected counter that does not open on a run's CPU: a PMU of some CPUs
 * only (the cores of one kind, on hybrid machines), where the list was
 * checked on another (the writer's, with cpu -1).  "counters" and the
 * kernel log say which, and why.
 */
static void lttng_calibrate_counters_run_refused(const struct lttng_calibrate_counter_spec *spec,
						 int err, int cpu)
{
	mutex_lock(&lttng_calibrate_refusal_lock);
	snprintf(lttng_calibrate_counters_refusal,
		 sizeof(lttng_calibrate_counters_refusal),
		 "last run refused: %s: %s (error %d on CPU %d)", spec->name,
		 lttng_calibrate_open_hint(spec, err), err, cpu);
	mutex_unlock(&lttng_calibrate_refusal_lock);
	pr_info_ratelimited("run on CPU %d: counter %s: %s (error %d)\n", cpu,
			    spec->name, lttng_calibrate_open_hint(spec, err),
			    err);
}

/* A run's counters all opened: an earlier run's refusal no longer holds. */
static void lttng_calibrate_counters_run_opened(void)
{
	static const char tag[] = "last run refused: ";

	mutex_lock(&lttng_calibrate_refusal_lock);
	if (!strncmp(lttng_calibrate_counters_refusal, tag, sizeof(tag) - 1))
		lttng_calibrate_counters_refusal[0] = '\0';
	mutex_unlock(&lttng_calibrate_refusal_lock);
}

static const char *const lttng_calibrate_type_names[] = {
	[PERF_TYPE_HARDWARE] = "hardware",
	[PERF_TYPE_SOFTWARE] = "software",
	[PERF_TYPE_TRACEPOINT] = "tracepoint",
	[PERF_TYPE_HW_CACHE] = "hardware-cache",
	[PERF_TYPE_RAW] = "raw",
	[PERF_TYPE_BREAKPOINT] = "breakpoint",
};

static_assert(ARRAY_SIZE(lttng_calibrate_type_names) == PERF_TYPE_MAX);

/*
 * Names an event of the generic form that was given no name: "PMU:0xC",
 * with ":0xC1[:0xC2]" when they are not 0, after the PMU that opened it.
 */
static void lttng_calibrate_counter_name(struct lttng_calibrate_counter_spec *spec)
{
	size_t n;

	/* scnprintf(): n stays inside the buffer when the name is cut. */
	n = scnprintf(spec->name, sizeof(spec->name), "%s:0x%llx", spec->pmu,
		      spec->config);
	if (spec->config1 || spec->config2)
		n += scnprintf(spec->name + n, sizeof(spec->name) - n,
			       ":0x%llx", spec->config1);
	if (spec->config2)
		scnprintf(spec->name + n, sizeof(spec->name) - n, ":0x%llx",
			  spec->config2);
}

/*
 * The kprobe and uprobe PMUs read a string from the opener's memory at the
 * address in config1 (kprobe_func, uprobe_path).  Every run opens its events
 * again, from the process that writes "run", where that address means
 * nothing: such events cannot be selected.
 */
static bool lttng_calibrate_pmu_takes_pointer(const struct pmu *pmu)
{
	return pmu->name && (!strcmp(pmu->name, "kprobe") ||
			     !strcmp(pmu->name, "uprobe"));
}

/*
 * Every counter of @set must open on @cpu, the CPU runs will count on; each
 * is kept, disabled, in @keep.  Events of the generic form learn their PMU's
 * name.
 */
static int lttng_calibrate_counters_try(struct lttng_calibrate_counter_set *set,
					struct perf_event **keep, int cpu)
{
	struct lttng_calibrate_counter_spec *spec;
	struct perf_event *event;
	const char *pmu;
	unsigned int i;
	int err;

	for (i = 0; i < set->nr; i++) {
		spec = &set->spec[i];
		event = lttng_calibrate_counter_open(spec, cpu, true);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			if (!spec->name[0])
				snprintf(spec->name, sizeof(spec->name),
					 "%u:0x%llx", spec->type, spec->config);
			return lttng_calibrate_counters_refuse(err,
				"%s: %s (error %d on CPU %d)", spec->name,
				lttng_calibrate_open_hint(spec, err), err, cpu);
		}
		keep[i] = event;
		if (spec->type >= PERF_TYPE_MAX &&
		    lttng_calibrate_pmu_takes_pointer(event->pmu))
			return lttng_calibrate_counters_refuse(-EOPNOTSUPP,
				"%s: events of the %s PMU take a pointer into the writer's memory; trace the function with a probe event instead",
				spec->name[0] ? spec->name : "an event",
				event->pmu->name);
		pmu = spec->type < PERF_TYPE_MAX ?
		      lttng_calibrate_type_names[spec->type] :
		      event->pmu->name;
		strscpy(spec->pmu, pmu ? pmu : "unnamed", sizeof(spec->pmu));
		if (!spec->name[0])
			lttng_calibrate_counter_name(spec);
	}
	return 0;
}

static void lttng_calibrate_keepers_release(struct perf_event **keep)
{
	unsigned int i;

	for (i = 0; i < LTTNG_CALIBRATE_MAX_COUNTERS; i++) {
		lttng_calibrate_counter_close(keep[i]);
		keep[i] = NULL;
	}
}

static bool lttng_calibrate_same_event(const struct lttng_calibrate_counter_spec *a,
				       const struct lttng_calibrate_counter_spec *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2;
}

/* Splits @text into events; each given once, at most 8. */
static int lttng_calibrate_counters_parse(char *text,
					  struct lttng_calibrate_counter_set *set)
{
	struct lttng_calibrate_counter_spec spec;
	unsigned int i;
	char *word;

	set->nr = 0;
	while ((word = strsep(&text, " \t\n,")) != NULL) {
		if (!*word)
			continue;
		if (lttng_calibrate_counter_parse(word, &spec))
			return lttng_calibrate_counters_refuse(-EINVAL,
				"unknown event '%.48s'", word);
		for (i = 0; i < set->nr; i++)
			if (lttng_calibrate_same_event(&set->spec[i], &spec))
				return lttng_calibrate_counters_refuse(-EINVAL,
					"%s is given twice (as %s)",
					spec.name[0] ? spec.name : "an event",
					set->spec[i].name[0] ?
					set->spec[i].name : "another");
		if (set->nr == LTTNG_CALIBRATE_MAX_COUNTERS)
			return lttng_calibrate_counters_refuse(-E2BIG,
				"more than %d counters",
				LTTNG_CALIBRATE_MAX_COUNTERS);
		set->spec[set->nr++] = spec;
	}
	return 0;
}

/* Two events of @set by one name would share their results' keys. */
static int lttng_calibrate_counters_names(const struct lttng_calibrate_counter_set *set)
{
	unsigned int i, j;

	for (i = 0; i < set->nr; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(set->spec[i].name, set->spec[j].name))
				return lttng_calibrate_counters_refuse(-EINVAL,
					"two events are named %s",
					set->spec[i].name);
	return 0;
}

/*
 * The CPU runs will count on: the "cpu" setting, else the writer's, which
 * is the CPU of a run written from here.
 */
static int lttng_calibrate_counters_cpu(int cpu)
{
	return cpu >= 0 ? cpu : raw_smp_processor_id();
}

/* Tries @set on @cpu and installs it with its events; or changes nothing. */
static int lttng_calibrate_counters_install(struct lttng_calibrate_counter_set *set,
					    struct lttng_calibrate_settings *s,
					    int cpu)
{
	struct perf_event *keep[LTTNG_CALIBRATE_MAX_COUNTERS] = { };
	int err;

	lttng_calibrate_settings_assert_locked();
	err = lttng_calibrate_counters_try(set, keep, cpu);
	if (!err)
		err = lttng_calibrate_counters_names(set);
	if (err) {
		lttng_calibrate_keepers_release(keep);
		return err;
	}
	s->counters = *set;
	lttng_calibrate_keepers_release(lttng_calibrate_keepers);
	memcpy(lttng_calibrate_keepers, keep, sizeof(keep));
	mutex_lock(&lttng_calibrate_refusal_lock);
	lttng_calibrate_counters_refusal[0] = '\0';
	mutex_unlock(&lttng_calibrate_refusal_lock);
	return 0;
}

/* Parses, tries and installs a list; settings locked by the caller. */
static int lttng_calibrate_counters_select(char *text,
					   struct lttng_calibrate_settings *s)
{
	struct lttng_calibrate_counter_set set;
	int err;

	err = lttng_calibrate_counters_parse(text, &set);
	if (err)
		return err;
	return lttng_calibrate_counters_install(&set, s,
						lttng_calibrate_counters_cpu(s->cpu));
}

/**
 * lttng_calibrate_counters_move() - the selection, checked on another CPU
 * @s: the settings, locked
 * @cpu: the CPU runs will be bound to, -1 for the writer's
 *
 * A PMU may count on some CPUs only (the cores of one kind, on hybrid
 * machines; an uncore PMU's own CPU): the selected counters must open on
 * the CPU runs will count on.  Their events are opened there again, and
 * held instead of the old ones.
 *
 * Context: process context, may sleep; settings locked.
 * Return: 0, or the error of an event that does not open on @cpu (nothing
 * is then changed, and "counters" says which).
 */
int lttng_calibrate_counters_move(struct lttng_calibrate_settings *s, int cpu)
{
	struct lttng_calibrate_counter_set set = s->counters;

	if (!set.nr)
		return 0;
	return lttng_calibrate_counters_install(&set, s,
						lttng_calibrate_counters_cpu(cpu));
}

static ssize_t lttng_calibrate_counters_write(struct file *file,
					      const char __user *ubuf,
					      size_t count, loff_t *ppos)
{
	struct lttng_calibrate_settings *s;
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
	s = lttng_calibrate_settings_lock();
	if (IS_ERR(s)) {
		err = PTR_ERR(s);
		goto out_free;
	}
	err = lttng_calibrate_counters_select(text, s);
	lttng_calibrate_settings_unlock();
out_free:
	kfree(text);
	return err ? err : count;
}

static int lttng_calibrate_counters_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_counter_spec *spec;
	struct lttng_calibrate_settings s;
	unsigned int i;
	int ret;

	ret = lttng_calibrate_settings_get(&s);
	if (ret)
		return ret;
	for (i = 0; i < s.counters.nr; i++) {
		spec = &s.counters.spec[i];
		seq_printf(m, "%s\t%s\t0x%llx", spec->name, spec->pmu,
			   spec->config);
		if (spec->config1 || spec->config2)
			seq_printf(m, ":0x%llx", spec->config1);
		if (spec->config2)
			seq_printf(m, ":0x%llx", spec->config2);
		seq_puts(m, "\topened\n");
	}
	if (!s.counters.nr)
		seq_puts(m, "# none selected\n");
	mutex_lock(&lttng_calibrate_refusal_lock);
	if (lttng_calibrate_counters_refusal[0])
		seq_printf(m, "# %s\n", lttng_calibrate_counters_refusal);
	mutex_unlock(&lttng_calibrate_refusal_lock);
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

/*
 * The names "counters" takes, one per line (perf's names: what a shell's
 * completion offers), then the other forms as comments.  Whether this CPU
 * counts an event is known when it is selected.
 */
static int lttng_calibrate_events_show(struct seq_file *m, void *v)
{
	size_t i, c;

	for (i = 0; i < ARRAY_SIZE(lttng_calibrate_events); i++)
		seq_printf(m, "%s\n", lttng_calibrate_events[i].name);
	for (c = 0; c < ARRAY_SIZE(lttng_calibrate_caches); c++)
		for (i = 0; i < ARRAY_SIZE(lttng_calibrate_cache_ops); i++)
			seq_printf(m, "%s-%s\n", lttng_calibrate_caches[c],
				   lttng_calibrate_cache_ops[i].name);
	seq_puts(m, "# raw: rNNNN (hexadecimal)\n");
	seq_puts(m, "# any PMU: [NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]]\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lttng_calibrate_events);

/**
 * lttng_calibrate_counters_init() - create the "counters" and "events"
 *	files
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept one of them from being created.
 */
int lttng_calibrate_counters_init(struct dentry *dir)
{
	return lttng_calibrate_create_file("counters", 0600, dir, NULL,
					   &lttng_calibrate_counters_fops) ?:
	       lttng_calibrate_create_file("events", 0444, dir, NULL,
					   &lttng_calibrate_events_fops);
}

/**
 * lttng_calibrate_counters_exit() - release the events held for the
 *	selection
 *
 * Context: after the debugfs files are gone, with the settings closed
 * (lttng_calibrate_settings_close()) and locked: no parameter write can
 * open them again.
 */
void lttng_calibrate_counters_exit(void)
{
	lttng_calibrate_settings_assert_locked();
	lttng_calibrate_keepers_release(lttng_calibrate_keepers);
}
