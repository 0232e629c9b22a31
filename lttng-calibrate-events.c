// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the names of the events "counters" takes, and the
 * "events" file that lists them.
 *
 * Event names are the ones perf(1) and "lttng add-context --type=perf:cpu:"
 * users type; any PMU's event is TYPE:CONFIG[:CONFIG1[:CONFIG2]], with a
 * name of the user's choosing.
 */
#include "lttng-calibrate.h"

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/string.h>

struct named_event {
	const char *name;
	u32 type;
	u64 config;
};

static const struct named_event named_events[] = {
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
static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static_assert(ARRAY_SIZE(cache_names) == PERF_COUNT_HW_CACHE_MAX);

static const struct {
	const char *name;
	u32 op, result;
} cache_ops[] = {
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

static bool parse_cache(const char *name,
			struct lttng_calibrate_counter_spec *spec)
{
	size_t len;
	int c, o;

	for (c = 0; c < ARRAY_SIZE(cache_names); c++) {
		len = strlen(cache_names[c]);
		if (strncmp(name, cache_names[c], len) || name[len] != '-')
			continue;
		for (o = 0; o < ARRAY_SIZE(cache_ops); o++) {
			if (strcmp(name + len + 1, cache_ops[o].name))
				continue;
			spec->type = PERF_TYPE_HW_CACHE;
			spec->config = c | cache_ops[o].op << 8 |
				cache_ops[o].result << 16;
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
static bool parse_raw(const char *name,
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
static bool parse_number(const char *s, u64 *value)
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
#define GENERIC_FORM_MAX	(10 + 3 * 19 + 1)

/*
 * TYPE:CONFIG[:CONFIG1[:CONFIG2]]: an event of any PMU, by the type number
 * of /sys/bus/event_source/devices/PMU/type and its config words.
 */
static bool parse_generic(const char *name,
			  struct lttng_calibrate_counter_spec *spec)
{
	char buf[GENERIC_FORM_MAX], *text = buf, *word;
	u64 *config[] = { &spec->config, &spec->config1, &spec->config2 };
	u64 type;
	int i;

	if (strscpy(buf, name, sizeof(buf)) < 0)
		return false;
	word = strsep(&text, ":");
	if (!text || !parse_number(word, &type) || type > U32_MAX)
		return false;
	spec->type = type;
	spec->config1 = 0;
	spec->config2 = 0;
	for (i = 0; i < ARRAY_SIZE(config) && text; i++) {
		word = strsep(&text, ":");
		if (!parse_number(word, config[i]))
			return false;
	}
	return !text;
}

/*
 * An event name as perf(1) spells it, or the generic form, which is named
 * when it is opened (@spec's name stays empty).
 */
static bool parse_event(const char *name,
			struct lttng_calibrate_counter_spec *spec)
{
	int i;

	spec->name[0] = '\0';
	spec->config1 = 0;
	spec->config2 = 0;
	if (parse_generic(name, spec))
		return true;
	if (strscpy(spec->name, name, sizeof(spec->name)) < 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		if (!strcmp(name, named_events[i].name)) {
			spec->type = named_events[i].type;
			spec->config = named_events[i].config;
			return true;
		}
	}
	return parse_cache(name, spec) || parse_raw(name, spec);
}

/*
 * A name given to an event of the generic form: 1 to 47 characters of
 * [A-Za-z0-9_./:+@-], and not the name of an event.
 */
static bool label_ok(const char *label)
{
	struct lttng_calibrate_counter_spec spec;
	size_t len = strlen(label);
	size_t i;

	if (!len || len >= sizeof(spec.name))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(label[i]) && !strchr("_./:+@-", label[i]))
			return false;
	return !parse_event(label, &spec);
}

/**
 * lttng_calibrate_event_parse() - one word of a "counters" list
 * @word: an event name as perf(1) spells it, or
 *	[NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]]; cut at its '='
 * @spec: receives the event (its PMU's name is learnt when it opens)
 *
 * Return: 0, or -EINVAL for anything else.
 */
int lttng_calibrate_event_parse(char *word,
				struct lttng_calibrate_counter_spec *spec)
{
	char *label = strsep(&word, "=");
	const char *event = word ? word : label;

	spec->pmu[0] = '\0';
	if (!parse_event(event, spec))
		return -EINVAL;
	if (word) {
		if (spec->name[0] || !label_ok(label))
			return -EINVAL;
		strscpy(spec->name, label, sizeof(spec->name));
	}
	return 0;
}

static const char *const type_names[] = {
	[PERF_TYPE_HARDWARE] = "hardware",
	[PERF_TYPE_SOFTWARE] = "software",
	[PERF_TYPE_TRACEPOINT] = "tracepoint",
	[PERF_TYPE_HW_CACHE] = "hardware-cache",
	[PERF_TYPE_RAW] = "raw",
	[PERF_TYPE_BREAKPOINT] = "breakpoint",
};

static_assert(ARRAY_SIZE(type_names) == PERF_TYPE_MAX);

/**
 * lttng_calibrate_event_type_name() - the name of a perf type of its own
 * @type: below PERF_TYPE_MAX
 *
 * Return: its name, as a PMU's name would be given.
 */
const char *lttng_calibrate_event_type_name(u32 type)
{
	return type < PERF_TYPE_MAX ? type_names[type] : NULL;
}

/**
 * lttng_calibrate_event_default_name() - names an event of the generic
 *	form that was given no name
 * @spec: the event, whose PMU's name is known
 *
 * "PMU:0xC", with ":0xC1[:0xC2]" when they are not 0.
 */
void lttng_calibrate_event_default_name(struct lttng_calibrate_counter_spec *spec)
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
 * The names "counters" takes, one per line (perf's names: what a shell's
 * completion offers), then the other forms as comments.  Whether this CPU
 * counts an event is known when it is selected.
 */
static int events_show(struct seq_file *m, void *v)
{
	size_t i, c;

	for (i = 0; i < ARRAY_SIZE(named_events); i++)
		seq_printf(m, "%s\n", named_events[i].name);
	for (c = 0; c < ARRAY_SIZE(cache_names); c++)
		for (i = 0; i < ARRAY_SIZE(cache_ops); i++)
			seq_printf(m, "%s-%s\n", cache_names[c],
				   cache_ops[i].name);
	seq_puts(m, "# raw: rNNNN (hexadecimal)\n");
	seq_puts(m, "# any PMU: [NAME=]TYPE:CONFIG[:CONFIG1[:CONFIG2]]\n");
	return 0;
}

LTTNG_CALIBRATE_DEFINE_SHOW(events);

/**
 * lttng_calibrate_events_init() - create the "events" file
 * @dir: the module's debugfs directory
 *
 * Return: 0, or the error that kept it from being created.
 */
int lttng_calibrate_events_init(struct dentry *dir)
{
	return lttng_calibrate_create_file("events", 0444, dir, NULL,
					   &events_fops);
}
