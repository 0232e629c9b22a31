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
 * the empty function, a function holding a tracepoint, or one holding a
 * tracepoint with a payload.  "work_cycles"
 * makes our handlers spin for a known number of clock cycles, so that the
 * measurement can be checked against a known answer.
 */
#include "lttng-calibrate.h"
#include "lttng-calibrate-clock.h"

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>

static const char *const target_names[] = {
	[LTTNG_CALIBRATE_TARGET_FUNCTION] = "function",
	[LTTNG_CALIBRATE_TARGET_TRACEPOINT] = "tracepoint",
	[LTTNG_CALIBRATE_TARGET_PAYLOAD] = "payload",
};

static_assert(ARRAY_SIZE(target_names) == LTTNG_CALIBRATE_NR_TARGETS);

static void (*const target_functions[])(void) = {
	[LTTNG_CALIBRATE_TARGET_FUNCTION] = lttng_calibrate_target,
	[LTTNG_CALIBRATE_TARGET_TRACEPOINT] = lttng_calibrate_tracepoint_target,
	[LTTNG_CALIBRATE_TARGET_PAYLOAD] = lttng_calibrate_payload_target,
};

static_assert(ARRAY_SIZE(target_functions) == LTTNG_CALIBRATE_NR_TARGETS);

static const char *const target_symbols[] = {
	[LTTNG_CALIBRATE_TARGET_FUNCTION] = LTTNG_CALIBRATE_TARGET_SYMBOL,
	[LTTNG_CALIBRATE_TARGET_TRACEPOINT] = "lttng_calibrate_tracepoint_target",
	[LTTNG_CALIBRATE_TARGET_PAYLOAD] = "lttng_calibrate_payload_target",
};

static_assert(ARRAY_SIZE(target_symbols) == LTTNG_CALIBRATE_NR_TARGETS);

/*
 * A known amount of work: at least @cycles cycles of the run's clock, busy.
 * Even for 0 cycles it reads the clock twice, so that the bare mechanism
 * (work 0) pays the same fixed cost as every other point of a ground-truth
 * sweep.  A clock found lost (the cycle counter no longer counting on this
 * CPU) stands still from then on: the wait ends there, and the run voids
 * the sample.
 */
static void spin_work(struct lttng_calibrate_probe *p)
{
	struct lttng_calibrate_clock *clk = p->clock;
	u64 start;

	start = lttng_calibrate_clock_read(clk);
	while (lttng_calibrate_clock_read(clk) - start < p->work_cycles &&
	       !READ_ONCE(clk->lost))
		cpu_relax();
}

NOKPROBE_SYMBOL(spin_work);

static int kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lttng_calibrate_probe *p =
		container_of(kp, struct lttng_calibrate_probe, kp);

	spin_work(p);
	return 0;
}

NOKPROBE_SYMBOL(kprobe_pre);

/* Per-instance data: the entry handler's mark, checked on return. */
struct probe_instance {
	u64 mark;
};

static int kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct probe_instance *data = (void *)ri->data;
	struct lttng_calibrate_probe *p =
		container_of(get_kretprobe(ri), struct lttng_calibrate_probe,
			     krp);

	data->mark = 1;
	spin_work(p);
	return 0;
}

NOKPROBE_SYMBOL(kretprobe_entry);

static int kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct probe_instance *data = (void *)ri->data;

	data->mark = 0;
	return 0;
}

NOKPROBE_SYMBOL(kretprobe_ret);

static int kprobe_setup(struct lttng_calibrate_probe *p)
{
	p->kp.addr = (kprobe_opcode_t *)p->target;
	p->kp.pre_handler = kprobe_pre;
	return register_kprobe(&p->kp);
}

static void kprobe_teardown(struct lttng_calibrate_probe *p)
{
	p->nmissed = p->kp.nmissed;
	unregister_kprobe(&p->kp);
}

/*
 * The run only ever calls one target, from one CPU, with preemption off: a
 * kretprobe never has more than one instance in flight, so two are enough;
 * a missed one would show in nmissed.
 */
static int kretprobe_setup(struct lttng_calibrate_probe *p)
{
	p->krp.kp.addr = (kprobe_opcode_t *)p->target;
	p->krp.entry_handler = kretprobe_entry;
	p->krp.handler = kretprobe_ret;
	p->krp.data_size = sizeof(struct probe_instance);
	p->krp.maxactive = 2;
	return register_kretprobe(&p->krp);
}

static void kretprobe_teardown(struct lttng_calibrate_probe *p)
{
	p->nmissed = p->krp.nmissed + p->krp.kp.nmissed;
	unregister_kretprobe(&p->krp);
}

#ifdef LTTNG_CALIBRATE_HAVE_FPROBE
static int fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
			unsigned long ret_ip,
			struct lttng_calibrate_fprobe_regs *regs,
			void *entry_data)
{
	struct lttng_calibrate_probe *p =
		container_of(fp, struct lttng_calibrate_probe, fp);
	struct probe_instance *data = entry_data;

	if (data)
		data->mark = 1;
	spin_work(p);
	return 0;
}

NOKPROBE_SYMBOL(fprobe_entry);

static void fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
			unsigned long ret_ip,
			struct lttng_calibrate_fprobe_regs *regs,
			void *entry_data)
{
	struct probe_instance *data = entry_data;

	data->mark = 0;
}

NOKPROBE_SYMBOL(fprobe_exit);

static int fprobe_register(struct lttng_calibrate_probe *p)
{
	p->fp.entry_handler = fprobe_entry;
	p->fp_addr = (unsigned long)p->target;
	return register_fprobe_ips(&p->fp, &p->fp_addr, 1);
}

static int fprobe_setup(struct lttng_calibrate_probe *p)
{
	return fprobe_register(p);
}

/*
 * As for a kretprobe: one instance in flight, two are enough (kernels since
 * 6.14 have no such limit: see lttng-calibrate-compat.h).
 */
static int fprobe_exit_setup(struct lttng_calibrate_probe *p)
{
	p->fp.exit_handler = fprobe_exit;
	p->fp.entry_data_size = sizeof(struct probe_instance);
	lttng_calibrate_fprobe_set_maxactive(&p->fp, 2);
	return fprobe_register(p);
}

static void fprobe_teardown(struct lttng_calibrate_probe *p)
{
	unregister_fprobe(&p->fp);
	p->nmissed = p->fp.nmissed;
}
#else
#define fprobe_setup		NULL
#define fprobe_exit_setup	NULL
#define fprobe_teardown		NULL
#endif

/**
 * struct mechanism_ops - one mechanism "probe" offers
 * @name: as written to "probe"
 * @unavailable: why it cannot be chosen on this kernel, or NULL
 * @setup: attach it to p->target; NULL when there is nothing to attach
 * @teardown: record p->nmissed and detach it
 */
struct mechanism_ops {
	const char *name;
	const char *unavailable;
	int (*setup)(struct lttng_calibrate_probe *p);
	void (*teardown)(struct lttng_calibrate_probe *p);
};

static const struct mechanism_ops mechanisms[] = {
	[LTTNG_CALIBRATE_PROBE_NONE] = { .name = "none" },
	[LTTNG_CALIBRATE_PROBE_KPROBE] = {
		.name = "kprobe",
		.setup = kprobe_setup,
		.teardown = kprobe_teardown,
	},
	[LTTNG_CALIBRATE_PROBE_KRETPROBE] = {
		.name = "kretprobe",
		.setup = kretprobe_setup,
		.teardown = kretprobe_teardown,
	},
	[LTTNG_CALIBRATE_PROBE_FPROBE] = {
		.name = "fprobe",
		.unavailable = LTTNG_CALIBRATE_FPROBE_UNAVAILABLE,
		.setup = fprobe_setup,
		.teardown = fprobe_teardown,
	},
	[LTTNG_CALIBRATE_PROBE_FPROBE_EXIT] = {
		.name = "fprobe-exit",
		.unavailable = LTTNG_CALIBRATE_FPROBE_UNAVAILABLE,
		.setup = fprobe_exit_setup,
		.teardown = fprobe_teardown,
	},
	[LTTNG_CALIBRATE_PROBE_EXTERNAL] = { .name = "external" },
};

static_assert(ARRAY_SIZE(mechanisms) == LTTNG_CALIBRATE_NR_MECHANISMS);

/**
 * lttng_calibrate_mechanism_name() - name of a probe mechanism
 * @mech: the mechanism
 *
 * Return: its name, as written to "probe".
 */
const char *lttng_calibrate_mechanism_name(enum lttng_calibrate_mechanism mech)
{
	return mechanisms[mech].name;
}

/**
 * lttng_calibrate_target_name() - name of a target kind
 * @kind: the kind
 *
 * Return: its name, as written to "target".
 */
const char *lttng_calibrate_target_name(enum lttng_calibrate_target_kind kind)
{
	return target_names[kind];
}

/**
 * lttng_calibrate_target_symbol() - the function a target kind times
 * @kind: the kind
 *
 * Return: the function's symbol name.
 */
const char *lttng_calibrate_target_symbol(enum lttng_calibrate_target_kind kind)
{
	return target_symbols[kind];
}

/**
 * lttng_calibrate_probe_setup() - the target and probe of a run
 * @p: filled in from @set, then its probe is registered
 * @set: the run's settings
 * @clock: the run's clock, which times the handlers' work
 *
 * Context: process context, may sleep.
 * Return: 0, or the error of the probe's registration (nothing is then
 * left registered).
 */
int lttng_calibrate_probe_setup(struct lttng_calibrate_probe *p,
				const struct lttng_calibrate_settings *set,
				struct lttng_calibrate_clock *clock)
{
	const struct mechanism_ops *ops;
	int ret;

	memset(p, 0, sizeof(*p));
	p->mechanism = set->mechanism;
	p->target_kind = set->target_kind;
	p->work_cycles = set->work_cycles;
	p->clock = clock;
	p->baseline = lttng_calibrate_baseline;
	p->target = target_functions[p->target_kind];

	ops = &mechanisms[p->mechanism];
	if (!ops->setup)
		return 0;
	ret = ops->setup(p);
	if (ret) {
		pr_info_ratelimited("cannot register a %s on %ps: %d\n",
				    ops->name, p->target, ret);
		return ret;
	}
	p->registered = true;
	return 0;
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
	mechanisms[p->mechanism].teardown(p);
	p->registered = false;
}

static const char *mechanism_word(int i)
{
	return mechanisms[i].name;
}

static const char *mechanism_unavailable(int i)
{
	return mechanisms[i].unavailable;
}

static int mechanism_get(const struct lttng_calibrate_settings *s)
{
	return s->mechanism;
}

static void mechanism_set(struct lttng_calibrate_settings *s, int i)
{
	s->mechanism = i;
}

static const struct lttng_calibrate_choice probe_choice = {
	.nr = LTTNG_CALIBRATE_NR_MECHANISMS,
	.name = mechanism_word,
	.unavailable = mechanism_unavailable,
	.get = mechanism_get,
	.set = mechanism_set,
};

static const char *target_word(int i)
{
	return target_names[i];
}

static int target_get(const struct lttng_calibrate_settings *s)
{
	return s->target_kind;
}

static void target_set(struct lttng_calibrate_settings *s, int i)
{
	s->target_kind = i;
}

static const struct lttng_calibrate_choice target_choice = {
	.nr = LTTNG_CALIBRATE_NR_TARGETS,
	.name = target_word,
	.get = target_get,
	.set = target_set,
};

static const struct lttng_calibrate_number work_number = {
	.offset = offsetof(struct lttng_calibrate_settings, work_cycles),
	.size = sizeof_field(struct lttng_calibrate_settings, work_cycles),
	.min = 0, .max = LTTNG_CALIBRATE_WORK_LIMIT,
};

/**
 * lttng_calibrate_probe_init() - create "probe", "target", "work_cycles"
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept one of them from being created.
 */
int lttng_calibrate_probe_init(struct dentry *dir)
{
	return lttng_calibrate_choice_file("probe", dir, &probe_choice) ?:
	       lttng_calibrate_choice_file("target", dir, &target_choice) ?:
	       lttng_calibrate_number_file("work_cycles", dir, &work_number);
}
