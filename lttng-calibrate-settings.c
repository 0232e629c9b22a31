// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the settings runs work with, and the parsing of what
 * userspace writes to change them.
 *
 * One copy of the settings is current.  A run takes a snapshot when it
 * starts and works only on that; while it is in progress every change is
 * refused with -EBUSY, so what a result says about its settings is what
 * the run used.  The lock is only ever held for a moment: never across a
 * run, so no reader or writer waits for one.
 *
 * Each write(2) to a settings file is one whole command: at most one
 * trailing newline, no leading or trailing blanks, no NUL byte, no sign
 * where none belongs; anything else is -EINVAL and changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lttng-calibrate.h"

/* Digits of the largest s64, and a sign. */
#define LTTNG_CALIBRATE_DECIMAL_MAX	20

static DEFINE_MUTEX(lttng_calibrate_settings_mutex);
static bool lttng_calibrate_run_active;
static struct lttng_calibrate_settings lttng_calibrate_settings = {
	.cpu = -1,
	.max_iterations = 100000000,
	.chunk_iterations = 10000,
	.deltas_window = 1000,
};

/**
 * lttng_calibrate_settings_lock() - the current settings, to change them
 *
 * Context: process context, may sleep (killable).
 * Return: the settings, locked until lttng_calibrate_settings_unlock(); or
 * ERR_PTR(-EBUSY) while a run is in progress, ERR_PTR(-EINTR) when killed
 * while waiting.
 */
struct lttng_calibrate_settings *lttng_calibrate_settings_lock(void)
{
	if (mutex_lock_killable(&lttng_calibrate_settings_mutex))
		return ERR_PTR(-EINTR);
	if (lttng_calibrate_run_active) {
		mutex_unlock(&lttng_calibrate_settings_mutex);
		return ERR_PTR(-EBUSY);
	}
	return &lttng_calibrate_settings;
}

/**
 * lttng_calibrate_settings_unlock() - release lttng_calibrate_settings_lock()
 */
void lttng_calibrate_settings_unlock(void)
{
	lockdep_assert_held(&lttng_calibrate_settings_mutex);
	mutex_unlock(&lttng_calibrate_settings_mutex);
}

/**
 * lttng_calibrate_settings_assert_locked() - for state kept with the settings
 *
 * Other files keep state that changes with a setting (the events held for
 * the selected counters) under the settings lock: they assert it with this.
 */
void lttng_calibrate_settings_assert_locked(void)
{
	lockdep_assert_held(&lttng_calibrate_settings_mutex);
}

/**
 * lttng_calibrate_settings_begin_run() - claim the run slot
 * @snap: receives the settings the run works with
 *
 * Context: process context, may sleep (killable).
 * Return: 0, -EBUSY while another run is in progress, -EINTR if killed.
 */
int lttng_calibrate_settings_begin_run(struct lttng_calibrate_settings *snap)
{
	struct lttng_calibrate_settings *s = lttng_calibrate_settings_lock();

	if (IS_ERR(s))
		return PTR_ERR(s);
	*snap = *s;
	lttng_calibrate_run_active = true;
	lttng_calibrate_settings_unlock();
	return 0;
}

/**
 * lttng_calibrate_settings_end_run() - release the run slot
 *
 * Context: process context, may sleep; never fails.
 */
void lttng_calibrate_settings_end_run(void)
{
	mutex_lock(&lttng_calibrate_settings_mutex);
	lttng_calibrate_run_active = false;
	mutex_unlock(&lttng_calibrate_settings_mutex);
}

/**
 * lttng_calibrate_settings_get() - a copy of the current settings
 * @copy: receives them
 *
 * Works during a run too: the settings do not change then.
 *
 * Context: process context, may sleep (killable).
 * Return: 0, or -EINTR when killed while waiting.
 */
int lttng_calibrate_settings_get(struct lttng_calibrate_settings *copy)
{
	if (mutex_lock_killable(&lttng_calibrate_settings_mutex))
		return -EINTR;
	*copy = lttng_calibrate_settings;
	mutex_unlock(&lttng_calibrate_settings_mutex);
	return 0;
}

/**
 * lttng_calibrate_parse_decimal() - a whole command that is one number
 * @text: the command, NUL-terminated
 * @len: its length as written; a NUL byte before it is refused
 * @min: smallest value accepted; a leading '-' is accepted only if < 0
 * @max: largest value accepted
 * @val: the number
 *
 * Decimal digits only (leading zeros are still decimal), an optional '-',
 * at most one trailing newline.
 *
 * Return: 0; -EINVAL when @text is not such a number or its magnitude does
 * not fit in 64 bits; -ERANGE when it is one, outside [@min, @max].
 */
int lttng_calibrate_parse_decimal(const char *text, size_t len, s64 min,
				  s64 max, s64 *val)
{
	bool negative = false;
	size_t i = 0;
	u64 mag = 0;

	if (strnlen(text, len) != len)
		return -EINVAL;
	if (len && text[len - 1] == '\n')
		len--;
	if (len && text[0] == '-') {
		negative = true;
		i++;
	}
	if (i == len || len - i > LTTNG_CALIBRATE_DECIMAL_MAX)
		return -EINVAL;
	for (; i < len; i++) {
		if (!isdigit(text[i]))
			return -EINVAL;
		if (check_mul_overflow(mag, 10ULL, &mag) ||
		    check_add_overflow(mag, (u64)(text[i] - '0'), &mag))
			return -EINVAL;
	}
	if (negative) {
		if (min >= 0 || !mag)
			return -EINVAL;
		if (mag - 1 > (u64)-(min + 1))
			return -ERANGE;
		*val = -(s64)(mag - 1) - 1;
		return 0;
	}
	if (max < 0 || mag > (u64)max || (s64)mag < min)
		return -ERANGE;
	*val = mag;
	return 0;
}

/**
 * lttng_calibrate_copy_command() - a write(2) as one NUL-terminated command
 * @buf: where to copy it
 * @size: size of @buf; a command of @size bytes or more is refused
 * @ubuf: what userspace wrote
 * @count: how much
 *
 * Return: @count, -EINVAL for an empty, over-long or NUL-holding command,
 * -EFAULT.
 */
ssize_t lttng_calibrate_copy_command(char *buf, size_t size,
				     const char __user *ubuf, size_t count)
{
	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;
	return count;
}

/* Which word @text is (at most one trailing newline); -EINVAL if none. */
static int lttng_calibrate_parse_choice(const char *text,
					const struct lttng_calibrate_choice *c)
{
	size_t len = strlen(text);
	const char *name;
	int i;

	if (len && text[len - 1] == '\n')
		len--;
	for (i = 0; i < c->nr; i++) {
		name = c->name(i);
		if (strlen(name) == len && !strncmp(text, name, len))
			return i;
	}
	return -EINVAL;
}

static ssize_t lttng_calibrate_choice_write(struct file *file,
					    const char __user *ubuf,
					    size_t count, loff_t *ppos)
{
	const struct lttng_calibrate_choice *c = file_inode(file)->i_private;
	struct lttng_calibrate_settings *s;
	const char *why;
	char buf[32];
	ssize_t ret;
	int i;

	ret = lttng_calibrate_copy_command(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	i = lttng_calibrate_parse_choice(buf, c);
	if (i < 0)
		return i;
	why = c->unavailable ? c->unavailable(i) : NULL;
	if (why) {
		pr_info_ratelimited("%s is not available: %s\n", c->name(i),
				    why);
		return -EOPNOTSUPP;
	}
	s = lttng_calibrate_settings_lock();
	if (IS_ERR(s))
		return PTR_ERR(s);
	c->set(s, i);
	lttng_calibrate_settings_unlock();
	return count;
}

/*
 * Like ftrace's "current_tracer" choices: every word, the chosen in [];
 * then a comment line for each word this kernel cannot offer, and why.
 */
static int lttng_calibrate_choice_show(struct seq_file *m, void *v)
{
	const struct lttng_calibrate_choice *c = m->private;
	struct lttng_calibrate_settings s;
	int i, chosen, ret;

	ret = lttng_calibrate_settings_get(&s);
	if (ret)
		return ret;
	chosen = c->get(&s);
	for (i = 0; i < c->nr; i++)
		seq_printf(m, i == chosen ? "%s[%s]" : "%s%s", i ? " " : "",
			   c->name(i));
	seq_putc(m, '\n');
	for (i = 0; c->unavailable && i < c->nr; i++)
		if (c->unavailable(i))
			seq_printf(m, "# %s: unavailable: %s\n", c->name(i),
				   c->unavailable(i));
	return 0;
}

static int lttng_calibrate_choice_open(struct inode *inode, struct file *file)
{
	return single_open(file, lttng_calibrate_choice_show, inode->i_private);
}

static const struct file_operations lttng_calibrate_choice_fops = {
	.owner = THIS_MODULE,
	.open = lttng_calibrate_choice_open,
	.read = seq_read,
	.write = lttng_calibrate_choice_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * lttng_calibrate_choice_file() - create a settings file holding one word
 * @name: the file's name
 * @dir: the module's debugfs directory
 * @choice: its words and the setting they choose
 *
 * Writing one of the words (one optional trailing newline) chooses it,
 * -EINVAL for anything else, -EOPNOTSUPP for a word that is not available,
 * -EBUSY during a run.  Reading lists the words with the chosen one in
 * brackets, then why each unavailable one is.
 */
void lttng_calibrate_choice_file(const char *name, struct dentry *dir,
				 const struct lttng_calibrate_choice *choice)
{
	debugfs_create_file(name, 0600, dir, (void *)choice,
			    &lttng_calibrate_choice_fops);
}

static const char *const lttng_calibrate_irqs_names[] = {
	"disabled", "enabled",
};

static const char *lttng_calibrate_irqs_name(int i)
{
	return lttng_calibrate_irqs_names[i];
}

static int lttng_calibrate_irqs_get(const struct lttng_calibrate_settings *s)
{
	return s->irqs_enabled;
}

static void lttng_calibrate_irqs_set(struct lttng_calibrate_settings *s, int i)
{
	s->irqs_enabled = i;
}

static const struct lttng_calibrate_choice lttng_calibrate_irqs_choice = {
	.nr = ARRAY_SIZE(lttng_calibrate_irqs_names),
	.name = lttng_calibrate_irqs_name,
	.get = lttng_calibrate_irqs_get,
	.set = lttng_calibrate_irqs_set,
};

/**
 * lttng_calibrate_settings_init() - create the "irqs" file
 * @dir: the module's debugfs directory
 */
void lttng_calibrate_settings_init(struct dentry *dir)
{
	lttng_calibrate_choice_file("irqs", dir, &lttng_calibrate_irqs_choice);
}
