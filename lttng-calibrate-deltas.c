// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the last per-iteration deltas of a run, in debugfs.
 *
 * "deltas" lists the last deltas_window iterations of the current or last
 * run, oldest first: per iteration, the time of the target and of the
 * baseline in clock cycles, then the same for every counter.  A reader gets
 * a snapshot taken when it opens the file.  Neither side waits for the
 * other: the run writes rows without a lock (lttng_calibrate_deltas_add()),
 * and a reader copies the ring oldest row first, keeping only the rows that
 * the run did not start overwriting before it copied them, and chasing the
 * rows the run adds meanwhile.  So rows never tear and a snapshot holds a
 * whole window, unless the run outpaces the reader.  The columns of a
 * counter found not counting are withheld ("-"), in every row: during the
 * run from the moment it is found, after it if its verdict is "not valid".
 */
#include "lttng-calibrate.h"

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

/* Copies a reader makes before it settles for what it has. */
#define DELTAS_TRIES	4

/*
 * Snapshots open at once, at most: each is a copy of the ring, up to
 * 65536 rows of 18 values (9 MiB), charged to the reader's memory cgroup.
 */
#define DELTAS_MAX_OPEN	8
static atomic_t deltas_open_nr = ATOMIC_INIT(0);

/* Protects the pointer to the current ring, not its content. */
static DEFINE_SPINLOCK(deltas_lock);
static struct lttng_calibrate_deltas *deltas_ring;

static size_t deltas_size(const struct lttng_calibrate_deltas *d)
{
	return struct_size(d, value, (size_t)d->window * d->stride);
}

static void deltas_free(struct kref *ref)
{
	kvfree(container_of(ref, struct lttng_calibrate_deltas, ref));
}

/**
 * lttng_calibrate_deltas_put() - drop a reference to a ring
 * @d: the ring, or NULL
 */
void lttng_calibrate_deltas_put(struct lttng_calibrate_deltas *d)
{
	if (d)
		kref_put(&d->ref, deltas_free);
}

/**
 * lttng_calibrate_deltas_alloc() - a new, empty ring for a run
 * @set: the counters the run reads
 * @window: rows it keeps
 *
 * Nobody sees the ring until lttng_calibrate_deltas_show(): a run that
 * never measures leaves "deltas" as it was.
 *
 * Context: process context, may sleep.
 * Return: the ring, with a reference for the run; NULL without memory.
 */
struct lttng_calibrate_deltas *
lttng_calibrate_deltas_alloc(const struct lttng_calibrate_counter_set *set,
			     u32 window)
{
	struct lttng_calibrate_deltas tmp = {
		.nr_metrics = 1 + set->nr,
		.window = window,
		.stride = 2 * (1 + set->nr),
	};
	struct lttng_calibrate_deltas *d;
	unsigned int i;

	d = kvzalloc(deltas_size(&tmp), GFP_KERNEL_ACCOUNT);
	if (!d)
		return NULL;
	*d = tmp;
	for (i = 0; i < set->nr; i++)
		strscpy(d->name[i], set->spec[i].name, sizeof(d->name[i]));
	kref_init(&d->ref);
	return d;
}

/**
 * lttng_calibrate_deltas_show() - make a run's ring the one "deltas" shows
 * @d: the ring, once the run has measured
 *
 * Context: process context, may sleep.
 */
void lttng_calibrate_deltas_show(struct lttng_calibrate_deltas *d)
{
	struct lttng_calibrate_deltas *old;

	kref_get(&d->ref);	/* the file's */
	spin_lock(&deltas_lock);
	old = deltas_ring;
	deltas_ring = d;
	spin_unlock(&deltas_lock);
	lttng_calibrate_deltas_put(old);
}

/**
 * lttng_calibrate_deltas_withhold() - withhold counters' columns
 * @d: the ring of a run
 * @counters: bit i for counter i
 *
 * Context: the run that fills @d.
 */
void lttng_calibrate_deltas_withhold(struct lttng_calibrate_deltas *d,
				     unsigned long counters)
{
	WRITE_ONCE(d->withheld, d->withheld | counters);
}

/**
 * struct deltas_view - what a reader of "deltas" holds
 * @d: its copy of the ring
 * @first: the iteration of its first (oldest) row
 * @nr: rows it shows
 */
struct deltas_view {
	struct lttng_calibrate_deltas *d;
	u64 first;
	u64 nr;
};

/* Rows a reader copies between two looks at how far the run has got. */
#define DELTAS_STEP	64

/*
 * Copies rows of @d into the same slots of @copy, oldest first, in steps,
 * until it has caught up with the run (or copied four windows' worth).
 * The run overwrites the oldest rows first: after each step, the rows
 * before begun - window may have been overwritten before they were copied,
 * and are dropped; rows the run completes meanwhile are copied too.  So a
 * reader that was held up (interrupted, preempted) still ends with a whole
 * window of consecutive rows, the last ones when it caught up.  Returns
 * false when it has none.
 */
static bool deltas_copy(const struct lttng_calibrate_deltas *d,
			struct lttng_calibrate_deltas *copy,
			struct deltas_view *v)
{
	u64 rows, begun, first, i, end, budget = 4 * (u64)d->window;
	u32 slot;

	/* Only the shape, fixed at allocation: the run moves the counters. */
	copy->nr_metrics = d->nr_metrics;
	memcpy(copy->name, d->name, sizeof(copy->name));
	copy->window = d->window;
	copy->stride = d->stride;
	/* Pairs with the release in lttng_calibrate_deltas_add(). */
	rows = smp_load_acquire(&d->rows);
	first = rows - min_t(u64, rows, d->window);
	for (i = first; budget; ) {
		/* Pairs with the release in lttng_calibrate_deltas_add(). */
		rows = smp_load_acquire(&d->rows);
		if (i >= rows)
			break;
		end = min_t(u64, rows, i + DELTAS_STEP);
		div_u64_rem(i, d->window, &slot);
		end = min_t(u64, end, i + d->window - slot);
		/* Racy on purpose: rows the run overwrote meanwhile are dropped. */
		data_race(memcpy(copy->value + (size_t)slot * d->stride,
				 d->value + (size_t)slot * d->stride,
				 (end - i) * d->stride * sizeof(s64)));
		budget -= min(budget, end - i);
		/* Pairs with the smp_wmb() in lttng_calibrate_deltas_add(). */
		smp_rmb();
		begun = READ_ONCE(d->begun);
		if (begun > d->window)
			first = max(first, begun - d->window);
		i = max(end, first);
	}
	/* Counters found not counting while the rows were copied, too. */
	copy->withheld = READ_ONCE(d->withheld);
	/* [first, i) are whole rows; the window keeps the last ones. */
	if (i > d->window)
		first = max(first, i - d->window);
	if (first >= i && i > 0)
		return false;
	v->first = first;
	v->nr = i - first;
	return true;
}

static void *deltas_seq_start(struct seq_file *m, loff_t *pos)
{
	struct deltas_view *v = m->private;

	/* Position 0 is the header line; position 1 + i is row i. */
	return *pos <= v->nr ? pos : NULL;
}

static void *deltas_seq_next(struct seq_file *m, void *p, loff_t *pos)
{
	++*pos;
	return deltas_seq_start(m, pos);
}

static void deltas_seq_stop(struct seq_file *m, void *p)
{
}

static void deltas_header(struct seq_file *m,
			  const struct lttng_calibrate_deltas *d)
{
	unsigned int i;

	seq_puts(m, "iteration\ttarget.cycles\tbaseline.cycles");
	for (i = 0; i + 1 < d->nr_metrics; i++)
		seq_printf(m, "\ttarget.%s\tbaseline.%s", d->name[i],
			   d->name[i]);
	seq_putc(m, '\n');
}

static int deltas_seq_show(struct seq_file *m, void *p)
{
	struct deltas_view *v = m->private;
	const struct lttng_calibrate_deltas *d = v->d;
	loff_t pos = *(loff_t *)p;
	unsigned int i;
	const s64 *row;
	u64 iteration;
	u32 slot;

	if (!pos) {
		deltas_header(m, d);
		return 0;
	}
	iteration = v->first + pos - 1;
	div_u64_rem(iteration, d->window, &slot);
	row = d->value + (size_t)slot * d->stride;
	seq_printf(m, "%llu", iteration);
	for (i = 0; i < d->stride; i++) {
		/* Values 2 m and 2 m + 1 are metric m's; metric 1 + c counter c's. */
		if (i >= 2 && d->withheld & BIT(i / 2 - 1))
			seq_puts(m, "\t-");
		else
			seq_printf(m, "\t%lld", row[i]);
	}
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations deltas_seq_ops = {
	.start = deltas_seq_start,
	.next = deltas_seq_next,
	.stop = deltas_seq_stop,
	.show = deltas_seq_show,
};

/* An empty ring: the header line of a run without counters, no rows. */
static struct lttng_calibrate_deltas deltas_none = {
	.nr_metrics = 1,
	.stride = 2,
};

/* A reference to the current ring, or NULL before the first run. */
static struct lttng_calibrate_deltas *deltas_current(void)
{
	struct lttng_calibrate_deltas *d;

	spin_lock(&deltas_lock);
	d = deltas_ring;
	if (d)
		kref_get(&d->ref);
	spin_unlock(&deltas_lock);
	return d;
}

/*
 * Memory per open: one copy of the ring, at most 65536 rows of 18 values,
 * and DELTAS_MAX_OPEN copies at once (-EMFILE past them).
 */
static int deltas_snapshot(struct deltas_view *v)
{
	struct lttng_calibrate_deltas *d = deltas_current();
	int tries;

	if (!d) {
		v->d = &deltas_none;
		return 0;
	}
	if (!atomic_add_unless(&deltas_open_nr, 1, DELTAS_MAX_OPEN)) {
		lttng_calibrate_deltas_put(d);
		return -EMFILE;
	}
	v->d = kvmalloc(deltas_size(d), GFP_KERNEL_ACCOUNT);
	if (!v->d) {
		atomic_dec(&deltas_open_nr);
		lttng_calibrate_deltas_put(d);
		return -ENOMEM;
	}
	for (tries = 0; tries < DELTAS_TRIES; tries++) {
		if (deltas_copy(d, v->d, v))
			break;
		v->nr = 0;
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	lttng_calibrate_deltas_put(d);
	return 0;
}

static int deltas_open(struct inode *inode, struct file *file)
{
	struct deltas_view *v;
	int ret;

	ret = lttng_calibrate_interface_open();
	if (ret)
		return ret;
	v = __seq_open_private(file, &deltas_seq_ops, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ret = deltas_snapshot(v);
	if (ret)
		seq_release_private(inode, file);
	return ret;
}

static int deltas_release(struct inode *inode, struct file *file)
{
	struct deltas_view *v =
		((struct seq_file *)file->private_data)->private;

	if (v->d != &deltas_none) {
		kvfree(v->d);
		atomic_dec(&deltas_open_nr);
	}
	return seq_release_private(inode, file);
}

static const struct file_operations deltas_fops = {
	.owner = THIS_MODULE,
	.open = deltas_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = deltas_release,
};

/**
 * lttng_calibrate_deltas_init() - create the "deltas" file
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept it from being created.
 */
int lttng_calibrate_deltas_init(struct dentry *dir)
{
	return lttng_calibrate_create_file("deltas", 0400, dir, NULL,
					   &deltas_fops);
}

/**
 * lttng_calibrate_deltas_exit() - drop the file's ring
 *
 * Context: after the debugfs files are gone and no run is left.
 */
void lttng_calibrate_deltas_exit(void)
{
	lttng_calibrate_deltas_put(deltas_ring);
	deltas_ring = NULL;
}
