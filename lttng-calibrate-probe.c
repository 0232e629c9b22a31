// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the instrumentation the module attaches itself, and the
 * targets it can time.
 *
 * "probe" chooses what is attached to the target for the next runs: nothing
 * (none), a kprobe with an empty pre-handler, a kretprobe with empty entry
 * and return handlers, or nothing of ours while someone else instruments the
 * target (external).  Probes are registered when a run starts and
 * unregistered when it ends, whatever the outcome: nothing stays registered
 * between runs.  "target" chooses the function timed against the baseline:
 * the empty function, or a function holding a tracepoint.  "work_cycles"
 * makes our handlers spin for a known number of clock cycles, so that the
 * measurement can be checked against a known answer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lttng-calibrate.h"

#define CREATE_TRACE_POINTS
#include "lttng_calibrate_trace.h"

/* The longest busy-wait a handler may be asked for, in clock cycles. */
#define LTTNG_CALIBRATE_WORK_LIMIT	10000000ULL

static const char *const lttng_calibrate_mechanism_names[] = {
	[LTTNG_CALIBRATE_PROBE_NONE] = "none",
	[LTTNG_CALIBRATE_PROBE_KPROBE] = "kprobe",
	[LTTNG_CALIBRATE_PROBE_KRETPROBE] = "kretprobe",
	[LTTNG_CALIBRATE_PROBE_FPROBE] = "fprobe",
	[LTTNG_CALIBRATE_PROBE_EXTERNAL] = "external",
};

static const char *const lttng_calibrate_target_names[] = {
	[LTTNG_CALIBRATE_TARGET_FUNCTION] = "function",
	[LTTNG_CALIBRATE_TARGET_TRACEPOINT] = "tracepoint",
};

/* Settings; they change under the run lock, between runs. */
static enum lttng_calibrate_mechanism lttng_calibrate_mechanism;
static enum lttng_calibrate_target_kind lttng_calibrate_target_kind;
static u64 lttng_calibrate_work_cycles;

/**
 * lttng_calibrate_tracepoint_target() - the target holding a tracepoint
 *
 * Same shape as lttng_calibrate_target(), plus the tracepoint: a static key
 * that jumps over the call to the probes when nothing is attached.
 */
__noipa void lttng_calibrate_tracepoint_target(void)
{
	trace_lttng_calibrate_event(0);
}

/**
 * lttng_calibrate_mechanism_name() - name of a probe mechanism
 * @mech: the mechanism
 *
 * Return: its name, as written to "probe".
 */
const char *lttng_calibrate_mechanism_name(enum lttng_calibrate_mechanism mech)
{
	return lttng_calibrate_mechanism_names[mech];
}

/**
 * lttng_calibrate_target_name() - name of a target kind
 * @kind: the kind
 *
 * Return: its name, as written to "target".
 */
const char *lttng_calibrate_target_name(enum lttng_calibrate_target_kind kind)
{
	return lttng_calibrate_target_names[kind];
}

/*
 * A known amount of work: at least @cycles clock cycles, busy.  Even for 0
 * cycles it reads the clock twice, so that the bare mechanism (work 0) pays
 * the same fixed cost as every other point of a ground-truth sweep.
 */
static void lttng_calibrate_spin(u64 cycles)
{
	u64 start;

	start = lttng_calibrate_clock_read();
	while (lttng_calibrate_clock_read() - start < cycles)
		cpu_relax();
}

NOKPROBE_SYMBOL(lttng_calibrate_spin);

static int lttng_calibrate_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	lttng_calibrate_spin(READ_ONCE(lttng_calibrate_work_cycles));
	return 0;
}

NOKPROBE_SYMBOL(lttng_calibrate_kprobe_pre);

/* Per-instance data: the entry handler's mark, checked on return. */
struct lttng_calibrate_instance {
	u64 mark;
};

static int lttng_calibrate_kretprobe_entry(struct kretprobe_instance *ri,
					   struct pt_regs *regs)
{
	struct lttng_calibrate_instance *data = (void *)ri->data;

	data->mark = 1;
	lttng_calibrate_spin(READ_ONCE(lttng_calibrate_work_cycles));
	return 0;
}

NOKPROBE_SYMBOL(lttng_calibrate_kretprobe_entry);

static int lttng_calibrate_kretprobe_ret(struct kretprobe_instance *ri,
					 struct pt_regs *regs)
{
	struct lttng_calibrate_instance *data = (void *)ri->data;

	data->mark = 0;
	return 0;
}

NOKPROBE_SYMBOL(lttng_calibrate_kretprobe_ret);

/**
 * lttng_calibrate_probe_setup() - settings and probes for a run
 * @p: filled in with the run's settings, then its probes
 *
 * Chooses the target and baseline, and registers the chosen probe on the
 * target.  The run only ever calls one target, from one CPU, with
 * preemption off: a kretprobe never has more than one instance in flight,
 * so two are enough; a missed one would show in nmissed.
 *
 * Context: process context, may sleep; the run lock held.
 * Return: 0, or the error of the probe's registration (nothing is then
 * left registered).
 */
int lttng_calibrate_probe_setup(struct lttng_calibrate_probe *p)
{
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->mechanism = lttng_calibrate_mechanism;
	p->target_kind = lttng_calibrate_target_kind;
	p->work_cycles = lttng_calibrate_work_cycles;
	p->baseline = lttng_calibrate_baseline;
	p->target = p->target_kind == LTTNG_CALIBRATE_TARGET_TRACEPOINT ?
		    lttng_calibrate_tracepoint_target : lttng_calibrate_target;

	switch (p->mechanism) {
	case LTTNG_CALIBRATE_PROBE_KPROBE:
		p->kp.addr = (kprobe_opcode_t *)p->target;
		p->kp.pre_handler = lttng_calibrate_kprobe_pre;
		ret = register_kprobe(&p->kp);
		break;
	case LTTNG_CALIBRATE_PROBE_KRETPROBE:
		p->krp.kp.addr = (kprobe_opcode_t *)p->target;
		p->krp.entry_handler = lttng_calibrate_kretprobe_entry;
		p->krp.handler = lttng_calibrate_kretprobe_ret;
		p->krp.data_size = sizeof(struct lttng_calibrate_instance);
		p->krp.maxactive = 2;
		ret = register_kretprobe(&p->krp);
		break;
	default:
		break;
	}
	if (ret) {
		pr_info("cannot register a %s on %ps: %d\n",
			lttng_calibrate_mechanism_name(p->mechanism), p->target,
			ret);
		p->mechanism = LTTNG_CALIBRATE_PROBE_NONE;
	}
	p->registered = !ret && (p->mechanism == LTTNG_CALIBRATE_PROBE_KPROBE ||
				 p->mechanism == LTTNG_CALIBRATE_PROBE_KRETPROBE);
	return ret;
}

/**
 * lttng_calibrate_probe_teardown() - unregister the run's probe
 * @p: what lttng_calibrate_probe_setup() filled in
 *
 * Records how many hits the probe missed, then unregisters it.
 *
 * Context: process context, may sleep.
 */
void lttng_calibrate_probe_teardown(struct lttng_calibrate_probe *p)
{
	if (!p->registered)
		return;
	if (p->mechanism == LTTNG_CALIBRATE_PROBE_KPROBE) {
		p->nmissed = p->kp.nmissed;
		unregister_kprobe(&p->kp);
	} else {
		p->nmissed = p->krp.nmissed + p->krp.kp.nmissed;
		unregister_kretprobe(&p->krp);
	}
	p->registered = false;
}

/* Which of @names was written (one optional newline); -EINVAL if none. */
static int lttng_calibrate_parse_word(const char __user *ubuf, size_t count,
				      const char *const *names, int nr)
{
	char buf[16];
	int i;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;
	if (buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	for (i = 0; i < nr; i++)
		if (!strcmp(buf, names[i]))
			return i;
	return -EINVAL;
}

static ssize_t lttng_calibrate_probe_write(struct file *file,
					   const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	int m;

	m = lttng_calibrate_parse_word(ubuf, count,
				       lttng_calibrate_mechanism_names,
				       ARRAY_SIZE(lttng_calibrate_mechanism_names));
	if (m < 0)
		return m;
	if (m == LTTNG_CALIBRATE_PROBE_FPROBE) {
		/* Debian's 6.1 has no CONFIG_FPROBE; others: not done yet. */
		pr_info("fprobe is not available: %s\n",
			IS_ENABLED(CONFIG_FPROBE) ?
			"not supported by lttng_calibrate yet" :
			"the kernel is built without CONFIG_FPROBE");
		return -EOPNOTSUPP;
	}
	if (!lttng_calibrate_run_trylock())
		return -EBUSY;
	lttng_calibrate_mechanism = m;
	lttng_calibrate_run_unlock();
	return count;
}

/* Like ftrace's "current_tracer" choices: every option, the chosen in []. */
static void lttng_calibrate_show_choices(struct seq_file *m,
					 const char *const *names, int nr,
					 int chosen)
{
	int i;

	for (i = 0; i < nr; i++)
		seq_printf(m, i == chosen ? "%s[%s]" : "%s%s", i ? " " : "",
			   names[i]);
	seq_putc(m, '\n');
}

static int lttng_calibrate_probe_show(struct seq_file *m, void *v)
{
	lttng_calibrate_show_choices(m, lttng_calibrate_mechanism_names,
				     ARRAY_SIZE(lttng_calibrate_mechanism_names),
				     READ_ONCE(lttng_calibrate_mechanism));
	return 0;
}

static int lttng_calibrate_probe_open(struct inode *inode, struct file *file)
{
	return single_open(file, lttng_calibrate_probe_show, NULL);
}

static const struct file_operations lttng_calibrate_probe_fops = {
	.owner = THIS_MODULE,
	.open = lttng_calibrate_probe_open,
	.read = seq_read,
	.write = lttng_calibrate_probe_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t lttng_calibrate_target_write(struct file *file,
					    const char __user *ubuf,
					    size_t count, loff_t *ppos)
{
	int t;

	t = lttng_calibrate_parse_word(ubuf, count,
				       lttng_calibrate_target_names,
				       ARRAY_SIZE(lttng_calibrate_target_names));
	if (t < 0)
		return t;
	if (!lttng_calibrate_run_trylock())
		return -EBUSY;
	lttng_calibrate_target_kind = t;
	lttng_calibrate_run_unlock();
	return count;
}

static int lttng_calibrate_target_show(struct seq_file *m, void *v)
{
	lttng_calibrate_show_choices(m, lttng_calibrate_target_names,
				     ARRAY_SIZE(lttng_calibrate_target_names),
				     READ_ONCE(lttng_calibrate_target_kind));
	return 0;
}

static int lttng_calibrate_target_open(struct inode *inode, struct file *file)
{
	return single_open(file, lttng_calibrate_target_show, NULL);
}

static const struct file_operations lttng_calibrate_target_fops = {
	.owner = THIS_MODULE,
	.open = lttng_calibrate_target_open,
	.read = seq_read,
	.write = lttng_calibrate_target_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int lttng_calibrate_work_get(void *data, u64 *val)
{
	*val = READ_ONCE(lttng_calibrate_work_cycles);
	return 0;
}

static int lttng_calibrate_work_set(void *data, u64 val)
{
	if (val > LTTNG_CALIBRATE_WORK_LIMIT)
		return -E2BIG;
	if (!lttng_calibrate_run_trylock())
		return -EBUSY;
	WRITE_ONCE(lttng_calibrate_work_cycles, val);
	lttng_calibrate_run_unlock();
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(lttng_calibrate_work_fops, lttng_calibrate_work_get,
			 lttng_calibrate_work_set, "%llu\n");

/**
 * lttng_calibrate_probe_init() - create "probe", "target", "work_cycles"
 * @dir: the module's debugfs directory
 */
void lttng_calibrate_probe_init(struct dentry *dir)
{
	debugfs_create_file("probe", 0600, dir, NULL,
			    &lttng_calibrate_probe_fops);
	debugfs_create_file("target", 0600, dir, NULL,
			    &lttng_calibrate_target_fops);
	debugfs_create_file_unsafe("work_cycles", 0600, dir, NULL,
				   &lttng_calibrate_work_fops);
}
