// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing of one line of babeltrace2 or babeltrace 1 text output:
 *
 *   [TIMESTAMP] (+DELTA) HOST NAME: { cpu_id = 1 }, { perf_x = 5 }, { ip = 0x0 }
 *
 * The first braces hold the stream packet context, the last ones the
 * payload, the ones in between the event contexts; with babeltrace's
 * scope names (stream.packet.context = { ... }) the names say which is
 * which. Every function returns NULL or a reason for a malformed line,
 * and never reads past the end of the line, which need not be
 * terminated.
 */
#include <string.h>

#include "parse.h"

#define NSEC_PER_SEC 1000000000ULL
#define SEC_PER_DAY 86400ULL

/**
 * struct cursor - a position in the line
 * @p:   next character
 * @end: one past the last character
 */
struct cursor {
	const char *p;
	const char *end;
};

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

static bool peek(const struct cursor *c, char ch)
{
	return c->p < c->end && *c->p == ch;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_ident(char ch, bool first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '_' || (!first && is_digit(ch));
}

static void skip_spaces(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

bool trace_span_equal(struct trace_span a, struct trace_span b)
{
	return a.len == b.len && !memcmp(a.s, b.s, a.len);
}

static bool span_is(struct trace_span a, const char *s)
{
	return a.len == strlen(s) && !memcmp(a.s, s, a.len);
}

/* 1 to @max decimal digits; false on none, too many or overflow */
static bool read_digits(struct cursor *c, unsigned int max, uint64_t *v)
{
	unsigned int n = 0;

	*v = 0;
	while (!at_end(c) && is_digit(*c->p)) {
		uint64_t d = (uint64_t)(*c->p++ - '0');

		if (++n > max || *v > (UINT64_MAX - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	return n > 0;
}

/* ".NNNNNNNNN" (1 to 9 digits) as ns, or nothing */
static bool read_fraction(struct cursor *c, uint64_t *ns)
{
	const char *start;
	uint64_t v;

	*ns = 0;
	if (!peek(c, '.'))
		return true;
	c->p++;
	start = c->p;
	if (!read_digits(c, 9, &v))
		return false;
	for (size_t n = (size_t)(c->p - start); n < 9; n++)
		v *= 10;
	*ns = v;
	return true;
}

/* "HH:MM:SS" as seconds since midnight */
static bool read_time_of_day(struct cursor *c, uint64_t *sec)
{
	uint64_t h, m, s;

	if (!read_digits(c, 2, &h) || !peek(c, ':'))
		return false;
	c->p++;
	if (!read_digits(c, 2, &m) || !peek(c, ':'))
		return false;
	c->p++;
	if (!read_digits(c, 2, &s))
		return false;
	if (h > 23 || m > 59 || s > 60)
		return false;
	*sec = (h * 60 + m) * 60 + s;
	return true;
}

/* days since 1970-01-01 of a Gregorian date (H. Hinnant's algorithm) */
static uint64_t days_from_civil(uint64_t y, uint64_t m, uint64_t d)
{
	uint64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD HH:MM:SS" after the year, as seconds since the epoch */
static bool read_date(struct cursor *c, uint64_t year, uint64_t *sec)
{
	uint64_t mon, day, tod;

	c->p++;
	if (!read_digits(c, 2, &mon) || !peek(c, '-'))
		return false;
	c->p++;
	if (!read_digits(c, 2, &day) || !peek(c, ' '))
		return false;
	c->p++;
	if (year < 1970 || mon < 1 || mon > 12 || day < 1 || day > 31)
		return false;
	if (!read_time_of_day(c, &tod))
		return false;
	*sec = days_from_civil(year, mon, day) * SEC_PER_DAY + tod;
	return true;
}

static bool seconds_to_ns(uint64_t sec, uint64_t frac, uint64_t *ns)
{
	if (sec > (UINT64_MAX - frac) / NSEC_PER_SEC)
		return false;
	*ns = sec * NSEC_PER_SEC + frac;
	return true;
}

/* the four timestamp formats, between the brackets */
static const char *read_timestamp(struct cursor *c, struct trace_event *ev)
{
	const char *start = c->p;
	uint64_t lead, sec, frac;

	if (!read_digits(c, 20, &lead))
		return "bad timestamp";
	if (peek(c, ':')) {
		c->p = start;
		ev->clock = TRACE_CLOCK_DAY;
		if (!read_time_of_day(c, &sec))
			return "bad timestamp";
	} else if (peek(c, '-') && c->p - start == 4) {
		ev->clock = TRACE_CLOCK_DATE;
		if (!read_date(c, lead, &sec))
			return "bad timestamp";
	} else if (peek(c, '.')) {
		ev->clock = TRACE_CLOCK_SECONDS;
		sec = lead;
	} else {
		ev->clock = TRACE_CLOCK_CYCLES;
		ev->clock_value = lead;
		return peek(c, ']') ? NULL : "bad timestamp";
	}
	if (!read_fraction(c, &frac) || !peek(c, ']'))
		return "bad timestamp";
	if (!seconds_to_ns(sec, frac, &ev->clock_value))
		return "timestamp out of range";
	return NULL;
}

/* "NAME:" before the fields; anything before NAME (host) is skipped */
static const char *read_name(struct cursor *c, struct trace_event *ev)
{
	const char *colon = NULL, *name;

	for (const char *p = c->p; p < c->end && *p != '{'; p++) {
		if (*p == ':' && (p + 1 == c->end || p[1] == ' ')) {
			colon = p;
			break;
		}
	}
	if (!colon)
		return "no event name (NAME: expected)";
	name = colon;
	while (name > c->p && name[-1] != ' ' && name[-1] != '\t')
		name--;
	if (name == colon)
		return "empty event name";
	ev->name.s = name;
	ev->name.len = (size_t)(colon - name);
	c->p = colon + 1;
	return NULL;
}

/**
 * trace_parse_header() - parse the timestamp and the event name
 * @line: the line, without its newline; need not be terminated
 * @len:  its length
 * @ev:   the event, filled in; @ev->nfields and @ev->has_cpu cleared
 *
 * Return: NULL, or why the line is not an event line.
 */
const char *trace_parse_header(const char *line, size_t len,
			       struct trace_event *ev)
{
	struct cursor c = { line, line + len };
	const char *err;

	ev->nfields = 0;
	ev->has_cpu = false;
	if (memchr(line, '\0', len))
		return "NUL byte in line";
	if (!peek(&c, '['))
		return "not an event line ('[' expected)";
	c.p++;
	err = read_timestamp(&c, ev);
	if (err)
		return err;
	c.p++;
	skip_spaces(&c);
	if (peek(&c, '(')) {
		c.p = memchr(c.p, ')', (size_t)(c.end - c.p));
		if (!c.p)
			return "unterminated (+delta)";
		c.p++;
	}
	err = read_name(&c, ev);
	ev->rest = c.p;
	ev->end = c.end;
	return err;
}

/* a field value: up to ',' or '}' outside nested brackets and strings */
static const char *skip_value(struct cursor *c)
{
	long depth = 0;

	for (; !at_end(c); c->p++) {
		char ch = *c->p;

		if (ch == '"') {
			for (c->p++; !at_end(c) && *c->p != '"'; c->p++)
				if (*c->p == '\\' && c->p + 1 < c->end)
					c->p++;
			if (at_end(c))
				return "unterminated string";
		} else if (ch == '{' || ch == '[' || ch == '(') {
			depth++;
		} else if (ch == ')' || ch == ']' || (ch == '}' && depth)) {
			if (--depth < 0)
				return "unbalanced brackets";
		} else if ((ch == ',' || ch == '}') && !depth) {
			return NULL;
		}
	}
	return "unterminated '{'";
}

/* "NAME = " if there is one; otherwise the cursor stays */
static struct trace_span read_field_name(struct cursor *c)
{
	struct trace_span name = { c->p, 0 };
	struct cursor save = *c;

	while (!at_end(c) && is_ident(*c->p, c->p == name.s))
		c->p++;
	name.len = (size_t)(c->p - name.s);
	skip_spaces(c);
	if (name.len && peek(c, '=')) {
		c->p++;
		skip_spaces(c);
		return name;
	}
	*c = save;
	name.len = 0;
	return name;
}

enum scope {
	SCOPE_PACKET,
	SCOPE_CONTEXT,
	SCOPE_OTHER,
};

/**
 * struct group - one pair of braces
 * @scope: what it holds
 * @named: babeltrace printed its scope name
 * @start: first character after '{'
 * @cpu_field: it has a field named cpu_id
 * @perf_field: it has a field whose name starts with perf_
 */
struct group {
	enum scope scope;
	bool named;
	const char *start;
	bool cpu_field;
	bool perf_field;
};

static enum scope scope_of(struct trace_span name)
{
	if (span_is(name, "stream.packet.context"))
		return SCOPE_PACKET;
	if (span_is(name, "stream.event.context") ||
	    span_is(name, "event.context"))
		return SCOPE_CONTEXT;
	return SCOPE_OTHER;
}

/* the fields of one group, checked, and noted in @g; cursor after '}' */
static const char *scan_group(struct cursor *c, struct group *g)
{
	const char *err;

	c->p++;
	g->start = c->p;
	for (;;) {
		struct trace_span name;

		skip_spaces(c);
		if (peek(c, '}'))
			break;
		name = read_field_name(c);
		g->cpu_field |= span_is(name, "cpu_id");
		g->perf_field |= name.len > 5 && !memcmp(name.s, "perf_", 5);
		err = skip_value(c);
		if (err)
			return err;
		if (peek(c, ','))
			c->p++;
		else if (!peek(c, '}'))
			return "unterminated '{'";
	}
	c->p++;
	return NULL;
}

#define MAX_GROUPS 16

/* optional "scope.name = " then "{ ... }" */
static const char *read_group(struct cursor *c, struct group *g)
{
	struct trace_span name = { c->p, 0 };

	while (!at_end(c) && (is_ident(*c->p, false) || *c->p == '.'))
		c->p++;
	name.len = (size_t)(c->p - name.s);
	if (name.len) {
		skip_spaces(c);
		if (!peek(c, '='))
			return "'{' expected";
		c->p++;
		skip_spaces(c);
		g->named = true;
		g->scope = scope_of(name);
	}
	if (!peek(c, '{'))
		return "'{' expected";
	return scan_group(c, g);
}

static const char *read_groups(struct cursor *c, struct group *groups,
			       unsigned int *ngroups)
{
	const char *err;

	*ngroups = 0;
	skip_spaces(c);
	while (!at_end(c)) {
		struct group *g = &groups[*ngroups];

		if (*ngroups == MAX_GROUPS)
			return "too many '{ }' groups";
		memset(g, 0, sizeof(*g));
		err = read_group(c, g);
		if (err)
			return err;
		(*ngroups)++;
		skip_spaces(c);
		if (peek(c, ',')) {
			c->p++;
			skip_spaces(c);
		} else if (!at_end(c)) {
			return "',' expected after '}'";
		}
	}
	return NULL;
}

/*
 * Without scope names: the first group is the packet context when it
 * has cpu_id; of the others, the last is the payload and the rest are
 * contexts, except that a lone one is a context only if it has perf_
 * fields.
 */
static void assign_scopes(struct group *groups, unsigned int n)
{
	unsigned int first = 0, unnamed = 0;

	if (n && !groups[0].named && groups[0].cpu_field) {
		groups[0].scope = SCOPE_PACKET;
		first = 1;
	}
	for (unsigned int i = first; i < n; i++)
		unnamed += !groups[i].named;
	for (unsigned int i = first; i < n; i++) {
		if (groups[i].named)
			continue;
		if (unnamed == 1)
			groups[i].scope = groups[i].perf_field ? SCOPE_CONTEXT :
								 SCOPE_OTHER;
		else
			groups[i].scope = i + 1 < n ? SCOPE_CONTEXT :
						      SCOPE_OTHER;
	}
}

static bool is_integer_text(const char *s, size_t len)
{
	size_t i = len && s[0] == '-';

	if (i == len)
		return false;
	for (; i < len; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

static int parse_based(const char *s, size_t len, unsigned int shift,
		       uint64_t *v)
{
	*v = 0;
	if (!len)
		return 1;
	for (size_t i = 0; i < len; i++) {
		unsigned int d;
		char ch = s[i];

		if (is_digit(ch))
			d = (unsigned int)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned int)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned int)(ch - 'A' + 10);
		else
			return 1;
		if (d >> shift)
			return 1;
		if (*v >> (64 - shift))
			return -1;
		*v = *v << shift | d;
	}
	return 0;
}

static int parse_decimal(const char *s, size_t len, long double *value)
{
	bool neg = s[0] == '-';
	uint64_t v = 0;

	for (size_t i = neg; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return -1;
	*value = neg ? -(long double)v : (long double)v;
	return 0;
}

/**
 * trace_parse_integer() - an integer as babeltrace prints it
 * @s:     the text: decimal (optionally negative), 0x hex, 0b binary,
 *         or octal with a leading 0
 * @len:   its length
 * @value: the value, exact
 *
 * Return: 0 for an integer, 1 for anything else (a string, a float, a
 * structure), -1 for an integer out of range: above 2^64 - 1, or below
 * -2^63.
 */
int trace_parse_integer(const char *s, size_t len, long double *value)
{
	uint64_t v;
	int ret;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		ret = parse_based(s + 2, len - 2, 4, &v);
	else if (len > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		ret = parse_based(s + 2, len - 2, 1, &v);
	else if (len > 1 && s[0] == '0')
		ret = parse_based(s + 1, len - 1, 3, &v);
	else if (is_integer_text(s, len))
		return parse_decimal(s, len, value);
	else
		return 1;
	if (!ret)
		*value = (long double)v;
	return ret;
}

static const char *add_field(struct trace_event *ev, struct trace_span name,
			     struct trace_span value)
{
	struct trace_field *f;
	long double v;
	int ret;

	ret = trace_parse_integer(value.s, value.len, &v);
	if (ret < 0)
		return "integer out of range";
	if (ret > 0)
		return NULL;
	for (unsigned int i = 0; i < ev->nfields; i++)
		if (trace_span_equal(ev->fields[i].name, name))
			return "context field appears twice";
	if (ev->nfields == TRACE_MAX_FIELDS)
		return "too many context fields";
	f = &ev->fields[ev->nfields++];
	f->name = name;
	f->value = v;
	return NULL;
}

static const char *set_cpu(struct trace_event *ev, struct trace_span value)
{
	long double v;

	if (trace_parse_integer(value.s, value.len, &v) || v < 0 ||
	    v >= TRACE_MAX_CPUS)
		return "bad cpu_id";
	ev->has_cpu = true;
	ev->cpu_id = (unsigned int)v;
	return NULL;
}

/* the fields of an already checked group: cpu_id or numeric contexts */
static const char *collect(struct trace_event *ev, const struct group *g)
{
	struct cursor c = { g->start, ev->end };
	const char *err = NULL;

	for (skip_spaces(&c); !err && !peek(&c, '}'); skip_spaces(&c)) {
		struct trace_span name = read_field_name(&c), value;

		if (!name.len)
			return "context field without a name (babeltrace --names=none?)";
		value.s = c.p;
		skip_value(&c);
		value.len = (size_t)(c.p - value.s);
		while (value.len && value.s[value.len - 1] == ' ')
			value.len--;
		if (g->scope == SCOPE_PACKET && span_is(name, "cpu_id"))
			err = set_cpu(ev, value);
		else if (g->scope == SCOPE_CONTEXT)
			err = add_field(ev, name, value);
		if (peek(&c, ','))
			c.p++;
	}
	return err;
}

/**
 * trace_parse_fields() - parse the braces after the event name
 * @ev: an event filled in by trace_parse_header()
 *
 * Sets @ev->cpu_id from the packet context and @ev->fields from the
 * integer fields of the event contexts; the payload is checked for
 * syntax only. Must be called while the line is still in memory.
 *
 * Return: NULL, or why the line is malformed.
 */
const char *trace_parse_fields(struct trace_event *ev)
{
	struct cursor c = { ev->rest, ev->end };
	struct group groups[MAX_GROUPS];
	unsigned int n;
	const char *err;

	err = read_groups(&c, groups, &n);
	if (err)
		return err;
	assign_scopes(groups, n);
	for (unsigned int i = 0; i < n; i++) {
		if (groups[i].scope == SCOPE_OTHER)
			continue;
		err = collect(ev, &groups[i]);
		if (err)
			return err;
	}
	if (!ev->has_cpu)
		return "no cpu_id in the packet context";
	return NULL;
}
