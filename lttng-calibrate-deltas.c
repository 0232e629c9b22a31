// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the last per-iteration deltas of a run, in debugfs.
 *
 * "deltas" lists the last deltas_window iterations of the current or last
 * run, oldest first: per iteration, the time of the target and of the
 * baseline in clock cycles, then the same for every counter.  A reader gets
 * a snapshot taken when it opens the file: rows never tear, even during a
 * run, because the run adds rows only with the lock held and a reader copies
 * the whole ring under that lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lttng-calibrate.h"

static unsigned int deltas_window = 1000;

static struct lttng_calibrate_uint_param deltas_window_param = {
	.value = &deltas_window, .min = 0, .max = 65536,
};

module_param_cb(deltas_window, &lttng_calibrate_uint_ops,
		&deltas_window_param, 0644);
MODULE_PARM_DESC(deltas_window,
		 "Iterations kept in the deltas file (default 1000, at most 65536, 0: none)");

/**
 * struct lttng_calibrate_deltas - ring of the last per-iteration deltas
 * @nr_metrics: time, then each counter
 * @name: each counter's name, for the header line
 * @window: rows the ring holds
 * @rows: rows added so far; row i is in slot i % @window
 * @next: the slot of the next row, rows % @window kept up to date so that
 *	adding a row, once per iteration, needs no division
 * @value: @window rows of @nr_metrics pairs (target, baseline)
 */
struct lttng_calibrate_deltas {
	unsigned int nr_metrics;
	char name[LTTNG_CALIBRATE_MAX_COUNTERS][32];
	u32 window;
	u64 rows;
	u32 next;
	s64 value[];
};

/* Protects lttng_calibrate_deltas_ring and its content. */
static DEFINE_MUTEX(lttng_calibrate_deltas_mutex);
static struct lttng_calibrate_deltas *lttng_calibrate_deltas_ring;

static size_t lttng_calibrate_deltas_size(unsigned int nr_metrics, u32 window)
{
	return struct_size((struct lttng_calibrate_deltas *)NULL, value,
			   (size_t)window * nr_metrics * 2);
}

/**
 * lttng_calibrate_deltas_start() - give a new run an empty ring
 * @set: the counters the run reads
 *
 * Context: process context, may sleep; the run lock held.
 * Return: 0 or -ENOMEM.
 */
int lttng_calibrate_deltas_start(const struct lttng_calibrate_counter_set *set)
{
	u32 window = READ_ONCE(deltas_window);
	struct lttng_calibrate_deltas *d, *old;
	unsigned int i;

	d = kvzalloc(lttng_calibrate_deltas_size(1 + set->nr, window),
		     GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->nr_metrics = 1 + set->nr;
	d->window = window;
	for (i = 0; i < set->nr; i++)
		strscpy(d->name[i], set->spec[i].name, sizeof(d->name[i]));

	mutex_lock(&lttng_calibrate_deltas_mutex);
	old = lttng_calibrate_deltas_ring;
	lttng_calibrate_deltas_ring = d;
	mutex_unlock(&lttng_calibrate_deltas_mutex);
	kvfree(old);
	return 0;
}

/**
 * lttng_calibrate_deltas_lock() - hold the ring while adding rows
 *
 * The run holds it for one chunk at a time, so a reader waits at most one
 * chunk for its snapshot.
 */
void lttng_calibrate_deltas_lock(void)
{
	mutex_lock(&lttng_calibrate_deltas_mutex);
}

/**
 * lttng_calibrate_deltas_unlock() - let readers take a snapshot
 */
void lttng_calibrate_deltas_unlock(void)
{
	mutex_unlock(&lttng_calibrate_deltas_mutex);
}

/**
 * lttng_calibrate_deltas_add() - add one iteration to the ring
 * @sample: per metric, the target's and the baseline's delta
 *
 * Context: lttng_calibrate_deltas_lock() held.
 */
void lttng_calibrate_deltas_add(s64 sample[][LTTNG_CALIBRATE_NR_ROWS])
{
	struct lttng_calibrate_deltas *d = lttng_calibrate_deltas_ring;
	unsigned int m;
	s64 *row;

	if (!d || !d->window)
		return;
	row = d->value + (size_t)d->next * d->nr_metrics * 2;
	for (m = 0; m < d->nr_metrics; m++) {
		row[2 * m] = sample[m][LTTNG_CALIBRATE_TARGET];
		row[2 * m + 1] = sample[m][LTTNG_CALIBRATE_BASELINE];
	}
	d->rows++;
	if (++d->next == d->window)
		d->next = 0;
}

/* A reader's snapshot, and the iteration of its first (oldest) row. */
struct lttng_calibrate_deltas_view {
	struct lttng_calibrate_deltas *d;
	u64 first;
	u64 nr;
};

static void *lttng_calibrate_deltas_seq_start(struct seq_file *m, loff_t *pos)
{
	struct lttng_calibrate_deltas_view *v = m->private;

	/* Position 0 is the header line; position 1 + i is row i. */
	return *pos <= v->nr ? pos : NULL;
}

static void *lttng_calibrate_deltas_seq_next(struct seq_file *m, void *p,
					     loff_t *pos)
{
	++*pos;
	return lttng_calibrate_deltas_seq_start(m, pos);
}

static void lttng_calibrate_deltas_seq_stop(struct seq_file *m, void *p)
{
}

static void lttng_calibrate_deltas_header(struct seq_file *m,
					  const struct lttng_calibrate_deltas *d)
{
	unsigned int i;

	seq_puts(m, "iteration\ttarget.cycles\tbaseline.cycles");
	for (i = 0; i + 1 < d->nr_metrics; i++)
		seq_printf(m, "\ttarget.%s\tbaseline.%s", d->name[i],
			   d->name[i]);
	seq_putc(m, '\n');
}

static int lttng_calibrate_deltas_seq_show(struct seq_file *m, void *p)
{
	struct lttng_calibrate_deltas_view *v = m->private;
	const struct lttng_calibrate_deltas *d = v->d;
	loff_t pos = *(loff_t *)p;
	unsigned int i;
	const s64 *row;
	u64 iteration;
	u32 slot;

	if (!pos) {
		lttng_calibrate_deltas_header(m, d);
		return 0;
	}
	iteration = v->first + pos - 1;
	div_u64_rem(iteration, d->window, &slot);
	row = d->value + (size_t)slot * d->nr_metrics * 2;
	seq_printf(m, "%llu", iteration);
	for (i = 0; i < d->nr_metrics * 2; i++)
		seq_printf(m, "\t%lld", row[i]);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations lttng_calibrate_deltas_seq_ops = {
	.start = lttng_calibrate_deltas_seq_start,
	.next = lttng_calibrate_deltas_seq_next,
	.stop = lttng_calibrate_deltas_seq_stop,
	.show = lttng_calibrate_deltas_seq_show,
};

/* An empty ring: the header line of a run without counters, no rows. */
static struct lttng_calibrate_deltas lttng_calibrate_deltas_none = {
	.nr_metrics = 1,
};

static int lttng_calibrate_deltas_open(struct inode *inode, struct file *file)
{
	struct lttng_calibrate_deltas_view *v;
	struct lttng_calibrate_deltas *d;

	v = __seq_open_private(file, &lttng_calibrate_deltas_seq_ops,
			       sizeof(*v));
	if (!v)
		return -ENOMEM;

	mutex_lock(&lttng_calibrate_deltas_mutex);
	d = lttng_calibrate_deltas_ring;
	if (d) {
		size_t size = lttng_calibrate_deltas_size(d->nr_metrics,
							  d->window);

		v->d = kvmalloc(size, GFP_KERNEL);
		if (v->d)
			memcpy(v->d, d, size);
	}
	mutex_unlock(&lttng_calibrate_deltas_mutex);

	if (d && !v->d) {
		seq_release_private(inode, file);
		return -ENOMEM;
	}
	if (!v->d)
		v->d = &lttng_calibrate_deltas_none;
	v->nr = min_t(u64, v->d->rows, v->d->window);
	v->first = v->d->rows - v->nr;
	return 0;
}

static int lttng_calibrate_deltas_release(struct inode *inode,
					  struct file *file)
{
	struct lttng_calibrate_deltas_view *v =
		((struct seq_file *)file->private_data)->private;

	if (v->d != &lttng_calibrate_deltas_none)
		kvfree(v->d);
	return seq_release_private(inode, file);
}

static const struct file_operations lttng_calibrate_deltas_fops = {
	.owner = THIS_MODULE,
	.open = lttng_calibrate_deltas_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = lttng_calibrate_deltas_release,
};

/**
 * lttng_calibrate_deltas_init() - create the "deltas" file
 * @dir: the module's debugfs directory
 */
void lttng_calibrate_deltas_init(struct dentry *dir)
{
	debugfs_create_file("deltas", 0400, dir, NULL,
			    &lttng_calibrate_deltas_fops);
}

/**
 * lttng_calibrate_deltas_exit() - free the ring, once no file is left open
 */
void lttng_calibrate_deltas_exit(void)
{
	kvfree(lttng_calibrate_deltas_ring);
	lttng_calibrate_deltas_ring = NULL;
}
