// SPDX-License-Identifier: GPL-2.0
/*
 * The spreadsheet step of lttng-calibrate(1): pair every NAME_entry
 * with the next NAME_exit (or NAME_return) on the same CPU and keep
 * running statistics of the differences, in memory that depends on the
 * number of CPUs and context fields, not on the length of the trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lc.h"
#include "analysis.h"

#define NSEC_PER_DAY (86400ULL * 1000000000ULL)

enum event_kind {
	KIND_OTHER,
	KIND_ENTRY,
	KIND_EXIT,
};

static const struct {
	const char *suffix;
	enum event_kind kind;
} suffixes[] = {
	{ "_entry", KIND_ENTRY },
	{ "_exit", KIND_EXIT },
	{ "_return", KIND_EXIT },
};

const char trace_out_of_memory[] = "out of memory";

/**
 * trace_stats_add() - add one value (Welford's update)
 * @s: the statistics
 * @x: the value
 */
void trace_stats_add(struct trace_stats *s, long double x)
{
	long double d = x - s->mean;

	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	s->mean += d / (long double)s->n;
	s->m2 += d * (x - s->mean);
}

/**
 * trace_stats_stddev() - sample standard deviation (n - 1)
 * @s: the statistics
 *
 * Return: the standard deviation, or -1 with fewer than two values.
 */
long double trace_stats_stddev(const struct trace_stats *s)
{
	long double sq;

	if (s->n < 2)
		return -1;
	sq = s->m2 / (long double)(s->n - 1);
	return sq > 0 ? sqrtl(sq) : 0;
}

/**
 * trace_analysis_init() - start a pass
 * @an:     the state
 * @prefix: follow NAME_entry/NAME_exit when NAME starts with it
 */
void trace_analysis_init(struct trace_analysis *an, const char *prefix)
{
	memset(an, 0, sizeof(*an));
	an->prefix = prefix;
}

/* KIND_ENTRY or KIND_EXIT with @base set to NAME, or KIND_OTHER */
static enum event_kind classify(const struct trace_analysis *an,
				struct trace_span name, struct trace_span *base)
{
	size_t plen = strlen(an->prefix);

	if (name.len < plen || memcmp(name.s, an->prefix, plen))
		return KIND_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t slen = strlen(suffixes[i].suffix);

		if (name.len < plen + slen ||
		    memcmp(name.s + name.len - slen, suffixes[i].suffix, slen))
			continue;
		base->s = name.s;
		base->len = name.len - slen;
		return suffixes[i].kind;
	}
	return KIND_OTHER;
}

/* printable ASCII, and nothing that CSV or JSON would need to quote */
static bool plain_name(struct trace_span name)
{
	for (size_t i = 0; i < name.len; i++) {
		char ch = name.s[i];

		if (ch <= ' ' || ch > '~' || ch == '"' || ch == '\\' ||
		    ch == ',')
			return false;
	}
	return true;
}

static const char *find_function(struct trace_analysis *an,
				 struct trace_span base,
				 struct trace_function **fp)
{
	struct trace_function *f;

	for (unsigned int i = 0; i < an->nfunctions; i++) {
		f = an->function[i];
		if (strlen(f->name) == base.len &&
		    !memcmp(f->name, base.s, base.len)) {
			*fp = f;
			return NULL;
		}
	}
	if (!plain_name(base))
		return "unprintable characters in event name";
	if (an->nfunctions == TRACE_MAX_FUNCTIONS)
		return "too many distinct NAME_entry events";
	f = calloc(1, sizeof(*f));
	if (f)
		f->name = strndup(base.s, base.len);
	if (!f || !f->name) {
		free(f);
		return trace_out_of_memory;
	}
	an->function[an->nfunctions++] = f;
	*fp = f;
	return NULL;
}

/* index of context field @name in @f, added if new; -1 when full, -2 out of memory */
static int field_index(struct trace_function *f, unsigned int hint,
		       struct trace_span name)
{
	unsigned int i;

	if (hint < f->nfields && f->field_len[hint] == name.len &&
	    !memcmp(f->field[hint], name.s, name.len))
		return (int)hint;
	for (i = 0; i < f->nfields; i++)
		if (f->field_len[i] == name.len &&
		    !memcmp(f->field[i], name.s, name.len))
			return (int)i;
	if (f->nfields == TRACE_MAX_FIELDS)
		return -1;
	f->field[i] = strndup(name.s, name.len);
	if (!f->field[i])
		return -2;
	f->field_len[i] = name.len;
	f->nfields++;
	return (int)i;
}

static const char *entry(struct trace_function *f, const struct trace_event *ev,
			 long double time)
{
	struct trace_pending *p = f->cpu[ev->cpu_id];

	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return trace_out_of_memory;
		f->cpu[ev->cpu_id] = p;
		if (ev->cpu_id >= f->ncpus)
			f->ncpus = ev->cpu_id + 1;
	}
	if (p->open)
		f->unmatched_entries++;
	p->open = true;
	p->time = time;
	p->have = 0;
	for (unsigned int i = 0; i < ev->nfields; i++) {
		int k = field_index(f, i, ev->fields[i].name);

		if (k < 0) {
			p->open = false;
			return k == -2 ? trace_out_of_memory :
					 "too many distinct context fields";
		}
		p->value[k] = ev->fields[i].value;
		p->have |= 1ULL << k;
	}
	return NULL;
}

static const char *exit_(struct trace_function *f, const struct trace_event *ev,
			 long double time)
{
	struct trace_pending *p = f->cpu[ev->cpu_id];

	if (!p || !p->open) {
		f->unmatched_exits++;
		return NULL;
	}
	p->open = false;
	f->pairs++;
	f->paired[ev->cpu_id / 8] |= 1 << (ev->cpu_id % 8);
	trace_stats_add(&f->time, time - p->time);
	for (unsigned int i = 0; i < ev->nfields; i++) {
		int k = field_index(f, i, ev->fields[i].name);

		if (k < 0)
			return k == -2 ? trace_out_of_memory :
					 "too many distinct context fields";
		if (p->have & (1ULL << k))
			trace_stats_add(&f->stats[k],
					ev->fields[i].value - p->value[k]);
	}
	return NULL;
}

/*
 * One time line for the whole trace. babeltrace prints time of day
 * only: a jump back by more than 12 hours is taken for midnight.
 */
static const char *event_time(struct trace_analysis *an,
			      const struct trace_event *ev, long double *time)
{
	uint64_t t = ev->clock_value;

	if (an->clock == TRACE_CLOCK_NONE)
		an->clock = ev->clock;
	if (ev->clock != an->clock)
		return "timestamp format differs from the first event's";
	if (ev->clock == TRACE_CLOCK_DAY) {
		t += an->day_offset;
		if (an->last_time > t && an->last_time - t > NSEC_PER_DAY / 2) {
			an->day_offset += NSEC_PER_DAY;
			t += NSEC_PER_DAY;
		}
	}
	an->last_time = t;
	*time = (long double)t;
	return NULL;
}

static bool blank(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

/* babeltrace2 "WARNING: Tracer discarded ...", babeltrace "[warning] ..." */
static bool warning(const char *line, size_t len)
{
	static const char *const prefixes[] = { "WARNING: ", "[warning] " };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);

		if (len >= n && !memcmp(line, prefixes[i], n))
			return true;
	}
	return false;
}

static const char *event(struct trace_analysis *an, struct trace_event *ev)
{
	struct trace_function *f;
	struct trace_span base;
	enum event_kind kind;
	long double time;
	const char *err;

	err = event_time(an, ev, &time);
	if (err)
		return err;
	an->events++;
	kind = classify(an, ev->name, &base);
	if (kind == KIND_OTHER) {
		an->other_events++;
		return NULL;
	}
	err = trace_parse_fields(ev);
	if (!err)
		err = find_function(an, base, &f);
	if (err)
		return err;
	return kind == KIND_ENTRY ? entry(f, ev, time) : exit_(f, ev, time);
}

/**
 * trace_analysis_line() - take one line of babeltrace output
 * @an:   the state
 * @line: the line without its newline; need not be terminated
 * @len:  its length
 *
 * Blank lines are ignored; babeltrace warnings (discarded events) are
 * counted and drop the pending entries, since a pair around lost events
 * could be made of two different calls.
 *
 * Return: NULL, or why the line is malformed. The caller decides
 * whether to stop or to skip it (and then to drop the pending entries);
 * trace_out_of_memory is no malformed line, it stops the pass.
 */
const char *trace_analysis_line(struct trace_analysis *an, const char *line,
				size_t len)
{
	struct trace_event ev;
	const char *err;

	if (blank(line, len))
		return NULL;
	if (warning(line, len)) {
		an->warnings++;
		trace_analysis_drop_pending(an);
		return NULL;
	}
	err = trace_parse_header(line, len, &ev);
	return err ? err : event(an, &ev);
}

/**
 * trace_analysis_drop_pending() - count every waiting entry as unmatched
 * @an: the state
 *
 * Used at the end of the trace, and where events may have been lost.
 */
void trace_analysis_drop_pending(struct trace_analysis *an)
{
	for (unsigned int i = 0; i < an->nfunctions; i++) {
		struct trace_function *f = an->function[i];

		for (unsigned int cpu = 0; cpu < f->ncpus; cpu++) {
			if (f->cpu[cpu] && f->cpu[cpu]->open) {
				f->cpu[cpu]->open = false;
				f->unmatched_entries++;
			}
		}
	}
}

/**
 * trace_analysis_pairs() - number of pairs found, all functions
 * @an: the state
 *
 * Return: the number of pairs.
 */
uint64_t trace_analysis_pairs(const struct trace_analysis *an)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < an->nfunctions; i++)
		n += an->function[i]->pairs;
	return n;
}

/**
 * trace_analysis_free() - release the memory of a pass
 * @an: the state
 */
void trace_analysis_free(struct trace_analysis *an)
{
	for (unsigned int i = 0; i < an->nfunctions; i++) {
		struct trace_function *f = an->function[i];

		for (unsigned int k = 0; k < f->nfields; k++)
			free(f->field[k]);
		for (unsigned int cpu = 0; cpu < f->ncpus; cpu++)
			free(f->cpu[cpu]);
		free(f->name);
		free(f);
	}
	an->nfunctions = 0;
}
