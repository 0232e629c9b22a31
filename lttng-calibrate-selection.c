// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the "counters" file, the counters selected for runs.
 * A list is read (lttng-calibrate-events.c), and each of its events must
 * open on the CPU runs will count on; then the list is installed in the
 * settings, each event held, disabled, while it is selected.  Between
 * runs, only these are held.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-counters.h"

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

/* The longest list "counters" accepts, in bytes. */
#define COUNTERS_INPUT_MAX	512

/*
 * One event of each selected counter, created disabled and held while it
 * is selected.  Holding it keeps the PMU that hosts it (and its module)
 * from going away, so the type number stays that PMU's.  And for software
 * events: creating one enables a static key of perf's (in the page-fault
 * and scheduler paths) and releasing the last one disables it, both
 * patching kernel text on every CPU; holding one keeps runs from patching
 * text twice each.  Protected by the settings lock.
 */
static struct perf_event *keepers[LTTNG_CALIBRATE_MAX_COUNTERS];

/*
 * The kprobe and uprobe PMUs read a string from the opener's memory at the
 * address in config1 (kprobe_func, uprobe_path).  Every run opens its events
 * again, from the process that writes "run", where that address means
 * nothing: such events cannot be selected.
 */
static bool pmu_takes_pointer(const struct pmu *pmu)
{
	return pmu->name && (!strcmp(pmu->name, "kprobe") ||
			     !strcmp(pmu->name, "uprobe"));
}

/*
 * Every counter of @set must open on @cpu, the CPU runs will count on; each
 * is kept, disabled, in @keep.  Events of the generic form learn their PMU's
 * name.
 */
static int counters_try(struct lttng_calibrate_counter_set *set,
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
				lttng_calibrate_counter_hint(spec, err), err, cpu);
		}
		keep[i] = event;
		if (spec->type >= PERF_TYPE_MAX &&
		    pmu_takes_pointer(event->pmu))
			return lttng_calibrate_counters_refuse(-EOPNOTSUPP,
				"%s: events of the %s PMU take a pointer into the writer's memory; trace the function with a probe event instead",
				spec->name[0] ? spec->name : "an event",
				event->pmu->name);
		pmu = spec->type < PERF_TYPE_MAX ?
		      lttng_calibrate_event_type_name(spec->type) :
		      event->pmu->name;
		strscpy(spec->pmu, pmu ? pmu : "unnamed", sizeof(spec->pmu));
		if (!spec->name[0])
			lttng_calibrate_event_default_name(spec);
	}
	return 0;
}

/*
 * With cpu -1 a run counts on its writer's CPU, which may be any: every
 * counter of @set must open on every online CPU too.  Each is opened
 * there, disabled, and closed; a CPU that went offline meanwhile does not
 * count.
 */
static int counters_try_everywhere(const struct lttng_calibrate_counter_set *set,
				   int done)
{
	const struct lttng_calibrate_counter_spec *spec;
	struct perf_event *event;
	unsigned int i;
	int cpu, err;

	for_each_online_cpu(cpu) {
		if (cpu == done)
			continue;
		for (i = 0; i < set->nr; i++) {
			spec = &set->spec[i];
			event = lttng_calibrate_counter_open(spec, cpu, true);
			if (!IS_ERR(event)) {
				lttng_calibrate_counter_close(event);
				continue;
			}
			err = PTR_ERR(event);
			if (!cpu_online(cpu))
				break;
			return lttng_calibrate_counters_refuse(err,
				"%s: %s (error %d on CPU %d; with cpu -1, runs may go to any CPU: set cpu)",
				spec->name,
				lttng_calibrate_counter_hint(spec, err), err,
				cpu);
		}
	}
	return 0;
}

static void keepers_release(struct perf_event **keep)
{
	unsigned int i;

	for (i = 0; i < LTTNG_CALIBRATE_MAX_COUNTERS; i++) {
		lttng_calibrate_counter_close(keep[i]);
		keep[i] = NULL;
	}
}

static bool same_event(const struct lttng_calibrate_counter_spec *a,
		       const struct lttng_calibrate_counter_spec *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2;
}

/*
 * Splits @text into events; each given once, at most 8.  Not inlined: its
 * event and its caller's set would pass 1024 bytes of stack on 32-bit.
 */
static noinline_for_stack int
counters_parse(char *text, struct lttng_calibrate_counter_set *set)
{
	struct lttng_calibrate_counter_spec spec;
	unsigned int i;
	char *word;

	set->nr = 0;
	while ((word = strsep(&text, " \t\n,")) != NULL) {
		if (!*word)
			continue;
		if (lttng_calibrate_event_parse(word, &spec))
			return lttng_calibrate_counters_refuse(-EINVAL,
				"unknown event '%.48s'", word);
		for (i = 0; i < set->nr; i++)
			if (same_event(&set->spec[i], &spec))
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
static int counters_names(const struct lttng_calibrate_counter_set *set)
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
 * Tries @set where runs will count, @cpu (the "cpu" setting), or with -1
 * on every online CPU, and installs it with its events, held on @cpu or
 * the writer's CPU; or changes nothing.
 */
static int counters_install(struct lttng_calibrate_counter_set *set,
			    struct lttng_calibrate_settings *s, int cpu)
{
	struct perf_event *keep[LTTNG_CALIBRATE_MAX_COUNTERS] = { };
	int here = cpu >= 0 ? cpu : raw_smp_processor_id();
	int err;

	lttng_calibrate_settings_assert_locked();
	err = counters_try(set, keep, here);
	if (!err && cpu < 0)
		err = counters_try_everywhere(set, here);
	if (!err)
		err = counters_names(set);
	if (err) {
		keepers_release(keep);
		return err;
	}
	s->counters = *set;
	keepers_release(keepers);
	memcpy(keepers, keep, sizeof(keep));
	lttng_calibrate_counters_refusal_clear();
	return 0;
}

/* Parses, tries and installs a list; settings locked by the caller. */
static int counters_select(char *text, struct lttng_calibrate_settings *s)
{
	struct lttng_calibrate_counter_set set;
	int err;

	err = counters_parse(text, &set);
	if (err)
		return err;
	return counters_install(&set, s, s->cpu);
}

/**
 * lttng_calibrate_selection_move() - the selection, checked on another CPU
 * @s: the settings, locked
 * @cpu: the CPU runs will be bound to, -1 for the writer's
 *
 * A PMU may count on some CPUs only (the cores of one kind, on hybrid
 * machines; an uncore PMU's own CPU): the selected counters must open on
 * the CPU runs will count on, with -1 on every online CPU.  Their events
 * are opened there again, and held instead of the old ones.
 *
 * Context: process context, may sleep; settings locked.
 * Return: 0, or the error of an event that does not open on a CPU runs may
 * count on (nothing is then changed, and "counters" says which).
 */
int lttng_calibrate_selection_move(struct lttng_calibrate_settings *s, int cpu)
{
	struct lttng_calibrate_counter_set set = s->counters;

	if (!set.nr)
		return 0;
	return counters_install(&set, s, cpu);
}

static ssize_t counters_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct lttng_calibrate_settings *s;
	char *text;
	int err;

	if (count > COUNTERS_INPUT_MAX)
		return lttng_calibrate_counters_refuse(-EINVAL,
			"list longer than %d bytes", COUNTERS_INPUT_MAX);
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
	err = counters_select(text, s);
	lttng_calibrate_settings_unlock();
out_free:
	kfree(text);
	return err ? err : count;
}

static int counters_show(struct seq_file *m, void *v)
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
	lttng_calibrate_counters_refusal_show(m);
	return 0;
}

static int counters_open(struct inode *inode, struct file *file)
{
	return lttng_calibrate_interface_open() ?:
	       single_open(file, counters_show, NULL);
}

static const struct file_operations counters_fops = {
	.owner = THIS_MODULE,
	.open = counters_open,
	.read = seq_read,
	.write = counters_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * lttng_calibrate_selection_init() - create the "counters" file
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept it from being created.
 */
int lttng_calibrate_selection_init(struct dentry *dir)
{
	return lttng_calibrate_create_file("counters", 0600, dir, NULL,
					   &counters_fops);
}

/**
 * lttng_calibrate_selection_exit() - release the events held for the
 *	selection
 *
 * Context: after the debugfs files are gone, with the settings closed
 * (lttng_calibrate_settings_close()) and locked: no parameter write can
 * open them again.
 */
void lttng_calibrate_selection_exit(void)
{
	lttng_calibrate_settings_assert_locked();
	keepers_release(keepers);
}
