// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: what userspace writes, parsed, and the settings files
 * and parameters built on it.
 *
 * Each write(2) to a settings file is one whole command: at most one
 * trailing newline, no leading or trailing blanks, no NUL byte, no sign
 * where none belongs; anything else is -EINVAL and changes nothing.  Two
 * kinds of setting share their code here: a choice of one word among
 * several ("probe", "target", "irqs"), and a number in a range (the
 * "work_cycles" file and the numeric module parameters alike).
 */
#include "lttng-calibrate.h"

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

/* Digits of the largest s64, and a sign. */
#define DECIMAL_MAX	20

/* The longest command a settings file takes: a word or a number. */
#define SETTING_INPUT_MAX	32

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
 * Not kstrtoll() nor kstrto*_from_user(): both take a leading '+', which
 * the ABI refuses, and the latter cannot tell a NUL byte from the end.
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
	if (i == len || len - i > DECIMAL_MAX)
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

/* ------------------------------------------------------------------------
 * Choice files: one word among several
 */

/*
 * Which word @text is (at most one trailing newline); -EINVAL if none.
 * Not sysfs_match_string(): the words come from c->name(), not an array.
 */
static int parse_choice(const char *text,
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

static ssize_t choice_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	const struct lttng_calibrate_choice *c = file_inode(file)->i_private;
	char buf[SETTING_INPUT_MAX];
	struct lttng_calibrate_settings *s;
	const char *why;
	ssize_t ret;
	int i;

	ret = lttng_calibrate_copy_command(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	i = parse_choice(buf, c);
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
static int choice_show(struct seq_file *m, void *v)
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

static int choice_open(struct inode *inode, struct file *file)
{
	return lttng_calibrate_interface_open() ?:
	       single_open(file, choice_show, inode->i_private);
}

static const struct file_operations choice_fops = {
	.owner = THIS_MODULE,
	.open = choice_open,
	.read = seq_read,
	.write = choice_write,
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
 *
 * Return: 0, or the error that kept the file from being created.
 */
int lttng_calibrate_choice_file(const char *name, struct dentry *dir,
				const struct lttng_calibrate_choice *choice)
{
	return lttng_calibrate_create_file(name, 0600, dir, (void *)choice,
					   &choice_fops);
}

/* ------------------------------------------------------------------------
 * Numbers: a debugfs file or a module parameter, one setting each
 */

static s64 number_max(const struct lttng_calibrate_number *n)
{
	return n->max < 0 ? (s64)nr_cpu_ids - 1 : n->max;
}

static void *number_field(struct lttng_calibrate_settings *s,
			  const struct lttng_calibrate_number *n)
{
	return (char *)s + n->offset;
}

static s64 number_value(struct lttng_calibrate_settings *s,
			const struct lttng_calibrate_number *n)
{
	void *field = number_field(s, n);

	return n->size == sizeof(u64) ? *(u64 *)field : *(int *)field;
}

/*
 * Parses @text (@len bytes as written), checks its range, then sets it:
 * -EINVAL or -ERANGE as lttng_calibrate_parse_decimal(), the settings'
 * -EBUSY or -EINTR, or what the number's check refuses it with.
 */
static int number_set(const struct lttng_calibrate_number *n,
		      const char *text, size_t len)
{
	struct lttng_calibrate_settings *s;
	void *field;
	int ret;
	s64 v;

	ret = lttng_calibrate_parse_decimal(text, len, n->min,
					    number_max(n), &v);
	if (ret)
		return ret;
	s = lttng_calibrate_settings_lock();
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = n->check ? n->check(s, v) : 0;
	if (!ret) {
		field = number_field(s, n);
		if (n->size == sizeof(u64))
			*(u64 *)field = v;
		else
			*(int *)field = v;
	}
	lttng_calibrate_settings_unlock();
	return ret;
}

static int number_get(const struct lttng_calibrate_number *n, s64 *v)
{
	struct lttng_calibrate_settings s;
	int ret = lttng_calibrate_settings_get(&s);

	if (!ret)
		*v = number_value(&s, n);
	return ret;
}

/* A number out of its range is too big for the file: -E2BIG. */
static ssize_t number_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	const struct lttng_calibrate_number *n = file_inode(file)->i_private;
	char buf[SETTING_INPUT_MAX];
	ssize_t ret;

	ret = lttng_calibrate_copy_command(buf, sizeof(buf), ubuf, count);
	if (ret < 0)
		return ret;
	ret = number_set(n, buf, count);
	if (ret)
		return ret == -ERANGE ? -E2BIG : ret;
	return count;
}

static int number_show(struct seq_file *m, void *unused)
{
	s64 v;
	int ret = number_get(m->private, &v);

	if (!ret)
		seq_printf(m, "%lld\n", v);
	return ret;
}

static int number_open(struct inode *inode, struct file *file)
{
	return lttng_calibrate_interface_open() ?:
	       single_open(file, number_show, inode->i_private);
}

/*
 * Not DEFINE_DEBUGFS_ATTRIBUTE(): its open cannot wait for the load's end
 * (lttng_calibrate_interface_open()), and its write takes a '+'.
 */
static const struct file_operations number_fops = {
	.owner = THIS_MODULE,
	.open = number_open,
	.read = seq_read,
	.write = number_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * lttng_calibrate_number_file() - create a settings file holding a number
 * @name: the file's name
 * @dir: the module's debugfs directory
 * @number: the setting and its range
 *
 * Writing a decimal number in range sets it; -EINVAL for anything that is
 * not a number, -E2BIG for one out of range, -EBUSY during a run, or what
 * the number's check says.  Reading shows the current value.
 *
 * Return: 0, or the error that kept the file from being created.
 */
int lttng_calibrate_number_file(const char *name, struct dentry *dir,
				const struct lttng_calibrate_number *number)
{
	return lttng_calibrate_create_file(name, 0600, dir, (void *)number,
					   &number_fops);
}

/* A parameter out of range or not a number is -EINVAL, and says why. */
static int number_param_set(const char *val, const struct kernel_param *kp)
{
	const struct lttng_calibrate_number *n = kp->arg;
	int ret;

	ret = number_set(n, val, strlen(val));
	if (ret == -EINVAL || ret == -ERANGE) {
		pr_err_ratelimited("%s=%.24s is invalid: must be %lld..%lld, in decimal\n",
				   kp->name, val, n->min, number_max(n));
		return -EINVAL;
	}
	return ret;
}

static int number_param_get(char *buf, const struct kernel_param *kp)
{
	s64 v;
	int ret = number_get(kp->arg, &v);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%lld\n", v);
}

/*
 * The numeric module parameters: module_param_cb() with a struct
 * lttng_calibrate_number as its argument.  They go through the settings:
 * checked, and -EBUSY during a run.
 */
const struct kernel_param_ops lttng_calibrate_number_param_ops = {
	.set = number_param_set,
	.get = number_param_get,
};
