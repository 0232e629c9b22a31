// SPDX-License-Identifier: GPL-2.0
/*
 * --counters in perf's PMU event syntax.  A PMU/TERMS/ word is parsed and
 * encoded the way perf's tools/perf/util/pmu.c does it, from what sysfs
 * says of the PMU (its type, format/ fields and events/ aliases, which
 * pmu-sysfs.c reads), and written in the module's generic form,
 * NAME=TYPE:0xC:0xC1:0xC2.  Every other word goes through unchanged: the
 * module knows its own names.
 */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu-event.h"
#include "pmu-sysfs.h"

#define LC_PMU_MAX_TERMS	32
#define LC_PMU_SEPARATORS	", \t\n\r\v\f"
#define LC_PMU_NAME_CHARS	"_./:+@-"

/* One term of a list: "key=value", or "key" alone (bare). */
struct lc_pmu_term {
	char key[LC_PMU_TERM_MAX];
	char value[LC_PMU_TERM_MAX];
	bool bare;
};

struct lc_pmu_terms {
	struct lc_pmu_term term[LC_PMU_MAX_TERMS];
	size_t nr;
};

/* What a term list encodes, and what it named. */
struct lc_pmu_config {
	unsigned long long word[LC_PMU_WORDS];
	char name[LC_PMU_TERM_MAX];	/* from name=, or "" */
	char alias[LC_PMU_TERM_MAX];	/* the last event named */
	size_t aliases;			/* events named */
	size_t others;			/* other terms */
};

/* A counter name the module takes: 1 to 47 of [A-Za-z0-9_./:+@-]. */
static bool lc_name_ok(const char *name)
{
	size_t len = strlen(name), i;

	if (!len || len > LC_PMU_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) &&
		    !strchr(LC_PMU_NAME_CHARS, name[i]))
			return false;
	return true;
}

/* One term of @text (@len bytes), trimmed: "key=value" or "key". */
static int lc_term_parse(struct lc_msg *msg, const char *text, size_t len,
			 struct lc_pmu_term *t)
{
	const char *eq;
	size_t klen;

	while (len && isspace((unsigned char)*text)) {
		text++;
		len--;
	}
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (!len)
		return lc_msg_set(msg, "empty term");
	eq = memchr(text, '=', len);
	klen = eq ? (size_t)(eq - text) : len;
	if (!klen)
		return lc_msg_set(msg, "term '%.*s' has no field name",
				  (int)len, text);
	if (klen >= sizeof(t->key) || len - klen >= sizeof(t->value))
		return lc_msg_set(msg, "term '%.*s' is too long", (int)len,
				  text);
	memcpy(t->key, text, klen);
	t->key[klen] = '\0';
	t->bare = !eq;
	t->value[0] = '\0';
	if (eq) {
		memcpy(t->value, eq + 1, len - klen - 1);
		t->value[len - klen - 1] = '\0';
	}
	return 0;
}

/* A comma-separated term list, @len bytes of @text. */
static int lc_terms_parse(struct lc_msg *msg, const char *text, size_t len,
			  struct lc_pmu_terms *terms)
{
	const char *end = text + len, *comma;

	terms->nr = 0;
	for (;;) {
		comma = memchr(text, ',', end - text);
		if (!comma)
			comma = end;
		if (terms->nr == LC_PMU_MAX_TERMS)
			return lc_msg_set(msg, "more than %d terms",
					  LC_PMU_MAX_TERMS);
		if (lc_term_parse(msg, text, comma - text,
				  &terms->term[terms->nr++]))
			return -1;
		if (comma == end)
			return 0;
		text = comma + 1;
	}
}

/* What a key sets: a config word, or a field of format/; -1, message. */
static int lc_pmu_field(const struct lc_pmu *pmu,
			const struct lc_pmu_term *t,
			struct lc_pmu_field *field)
{
	char spec[LC_PMU_ATTR_MAX];
	int word = lc_config_word(t->key);

	if (word >= 0) {
		field->word = word;
		field->mask = ~0ULL;
		return 0;
	}
	if (!strcmp(t->key, "config3"))
		return lc_msg_set(pmu->msg, "config3 is not supported: the module sets config, config1 and config2");
	if (!lc_pmu_has(pmu, "format", t->key)) {
		lc_msg_set(pmu->msg, "unknown %s '%s' of PMU '%s'",
			   t->bare ? "field or event" : "field", t->key,
			   pmu->name);
		return lc_pmu_add_choices(pmu);
	}
	if (lc_pmu_read(pmu, "format", t->key, spec, sizeof(spec)))
		return -1;
	if (!strncmp(spec, "config3:", 8))
		return lc_msg_set(pmu->msg, "field '%s' of PMU '%s' is in config3 (%s): the module sets config, config1 and config2",
				  t->key, pmu->name, spec);
	if (lc_field_spec_parse(spec, field))
		return lc_msg_set(pmu->msg, "field '%s' of PMU '%s' has a format this command does not know: '%s'",
				  t->key, pmu->name, spec);
	return 0;
}

/*
 * The value's bits into the field's, lowest first, as perf's
 * pmu_format_value() does; the field's other bits are cleared.
 */
static int lc_pmu_put(const struct lc_pmu *pmu, const char *key,
		      const struct lc_pmu_field *field,
		      unsigned long long value, struct lc_pmu_config *cfg)
{
	unsigned long long *w = &cfg->word[field->word];
	unsigned int fbit, vbit = 0, bits = 0;

	for (fbit = 0; fbit < 64; fbit++)
		bits += field->mask >> fbit & 1;
	if (bits < 64 && value >> bits)
		return lc_msg_set(pmu->msg, "value 0x%llx too big for field '%s' (%u bits)",
				  value, key, bits);
	for (fbit = 0; fbit < 64; fbit++) {
		if (!(field->mask >> fbit & 1))
			continue;
		if (value >> vbit++ & 1)
			*w |= 1ULL << fbit;
		else
			*w &= ~(1ULL << fbit);
	}
	return 0;
}

/* A field or config term; a bare one means 1, as in perf. */
static int lc_pmu_apply(const struct lc_pmu *pmu, const struct lc_pmu_term *t,
			struct lc_pmu_config *cfg)
{
	unsigned long long value = 1;
	struct lc_pmu_field field;

	if (lc_pmu_field(pmu, t, &field))
		return -1;
	if (!t->bare && lc_parse_number(t->value, &value))
		return lc_msg_set(pmu->msg, "bad value '%s' for '%s': a decimal or 0x hexadecimal number of 64 bits at most",
				  t->value, t->key);
	return lc_pmu_put(pmu, t->key, &field, value, cfg);
}

/* Is the bare term an events/ alias rather than a field or a keyword? */
static bool lc_pmu_is_alias(const struct lc_pmu *pmu,
			    const struct lc_pmu_term *t)
{
	return t->bare && lc_config_word(t->key) < 0 &&
	       strcmp(t->key, "name") && !lc_pmu_has(pmu, "format", t->key) &&
	       !lc_pmu_companion(t->key) && lc_pmu_has(pmu, "events", t->key);
}

/* Does the user's list give a value to this field? */
static bool lc_terms_set(const struct lc_pmu_terms *user, const char *key)
{
	size_t i;

	for (i = 0; i < user->nr; i++)
		if (!user->term[i].bare && !strcmp(user->term[i].key, key))
			return true;
	return false;
}

/* One term of an alias; "F=?" is a parameter the user must give. */
static int lc_pmu_alias_term(const struct lc_pmu *pmu, const char *alias,
			     const char *text, const struct lc_pmu_term *t,
			     const struct lc_pmu_terms *user,
			     struct lc_pmu_config *cfg)
{
	if (strcmp(t->value, "?"))
		return lc_pmu_apply(pmu, t, cfg);
	if (lc_terms_set(user, t->key))
		return 0;
	return lc_msg_set(pmu->msg, "event '%s' of PMU '%s' needs a value for '%s' (%s): write %s/%s,%s=VALUE/",
			  alias, pmu->name, t->key, text, pmu->name, alias,
			  t->key);
}

/*
 * The terms of events/ALIAS.  They are weak, as in perf: the user's own
 * terms are applied after them, whatever their place in the list.
 */
static int lc_pmu_alias(const struct lc_pmu *pmu, const char *alias,
			const struct lc_pmu_terms *user,
			struct lc_pmu_config *cfg)
{
	char text[LC_PMU_ATTR_MAX], why[LC_PMU_ERR_MAX];
	struct lc_pmu_terms terms;
	size_t i;

	if (lc_pmu_read(pmu, "events", alias, text, sizeof(text)))
		return -1;
	if (lc_terms_parse(pmu->msg, text, strlen(text), &terms))
		goto out_explain;
	for (i = 0; i < terms.nr; i++) {
		if (lc_pmu_alias_term(pmu, alias, text, &terms.term[i], user,
				      cfg)) {
			if (!strcmp(terms.term[i].value, "?"))
				return -1;
			goto out_explain;
		}
	}
	return 0;

out_explain:
	snprintf(why, sizeof(why), "%s", pmu->msg->buf);
	return lc_msg_set(pmu->msg, "event '%s' of PMU '%s' ('%s'): %s",
			  alias, pmu->name, text, why);
}

/* name=NAME: the module's name for the counter. */
static int lc_pmu_name_term(const struct lc_pmu *pmu,
			    const struct lc_pmu_term *t,
			    struct lc_pmu_config *cfg)
{
	if (t->bare || !lc_name_ok(t->value))
		return lc_msg_set(pmu->msg, "bad name '%s': 1 to %d characters of A-Z a-z 0-9 %s",
				  t->value, LC_PMU_NAME_MAX, LC_PMU_NAME_CHARS);
	snprintf(cfg->name, sizeof(cfg->name), "%s", t->value);
	return 0;
}

/* The config words of the user's terms: aliases first, then the rest. */
static int lc_pmu_encode(const struct lc_pmu *pmu,
			 const struct lc_pmu_terms *user,
			 struct lc_pmu_config *cfg)
{
	bool alias[LC_PMU_MAX_TERMS];
	const struct lc_pmu_term *t;
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < user->nr; i++) {
		t = &user->term[i];
		alias[i] = lc_pmu_is_alias(pmu, t);
		if (!alias[i])
			continue;
		if (lc_pmu_alias(pmu, t->key, user, cfg))
			return -1;
		snprintf(cfg->alias, sizeof(cfg->alias), "%s", t->key);
		cfg->aliases++;
	}
	for (i = 0; i < user->nr; i++) {
		t = &user->term[i];
		if (alias[i])
			continue;
		if (!strcmp(t->key, "name")) {
			if (lc_pmu_name_term(pmu, t, cfg))
				return -1;
			continue;
		}
		cfg->others++;
		if (lc_pmu_apply(pmu, t, cfg))
			return -1;
	}
	return 0;
}

/* Does events/ALIAS alone encode @cfg's words? */
static bool lc_pmu_alias_is(struct lc_pmu *pmu, const char *alias,
			    const struct lc_pmu_config *cfg)
{
	static const struct lc_pmu_terms none;
	struct lc_pmu_config mine = { .word = { 0 } };
	char scratch[LC_PMU_ERR_MAX];
	struct lc_msg quiet = { scratch, sizeof(scratch) }, *msg = pmu->msg;
	bool same;

	pmu->msg = &quiet;
	same = strlen(alias) < LC_PMU_TERM_MAX && !lc_pmu_scaled(pmu, alias) &&
	       !lc_pmu_alias(pmu, alias, &none, &mine) &&
	       !memcmp(mine.word, cfg->word, sizeof(mine.word));
	pmu->msg = msg;
	return same;
}

/* "PMU/ALIAS/", or "" when that does not fit. */
static void lc_alias_name(char *name, size_t size, const struct lc_pmu *pmu,
			  const char *alias)
{
	int n = snprintf(name, size, "%s/%s/", pmu->name, alias);

	if (n < 0 || (size_t)n >= size)
		name[0] = '\0';
}

/* The one unscaled event of the PMU that encodes the same words, if any. */
static void lc_pmu_reverse(struct lc_pmu *pmu, const struct lc_pmu_config *cfg,
			   char *name, size_t size)
{
	char path[PATH_MAX], **names = NULL;
	size_t nr = 0, i, found = 0, match = 0;

	if (!lc_path(path, pmu->dir, "events", NULL))
		names = lc_list_dir(path, &nr);
	for (i = 0; i < nr && found < 2; i++)
		if (lc_pmu_alias_is(pmu, names[i], cfg))
			match = found++ ? match : i;
	if (found == 1)
		lc_alias_name(name, size, pmu, names[match]);
	lc_names_free(names, nr);
}

/* The counter's name: name=, the alias alone, or the reverse lookup. */
static void lc_pmu_name(struct lc_pmu *pmu, const struct lc_pmu_config *cfg,
			char *name, size_t size)
{
	name[0] = '\0';
	if (cfg->name[0])
		snprintf(name, size, "%s", cfg->name);
	else if (cfg->aliases == 1 && !cfg->others)
		lc_alias_name(name, size, pmu, cfg->alias);
	else if (!cfg->aliases)
		lc_pmu_reverse(pmu, cfg, name, size);
	if (!lc_name_ok(name))
		name[0] = '\0';
}

/* NAME=TYPE:0xC[:0xC1[:0xC2]], trailing zero words left out. */
static int lc_pmu_print(const struct lc_pmu *pmu,
			const struct lc_pmu_config *cfg, const char *name,
			char *out, size_t size)
{
	char text[LC_PMU_EVENT_MAX];
	int words = LC_PMU_WORDS, n, i;

	while (words > 1 && !cfg->word[words - 1])
		words--;
	n = snprintf(text, sizeof(text), "%s%s%u", name, *name ? "=" : "",
		     pmu->type);
	for (i = 0; i < words; i++)
		n += snprintf(text + n, sizeof(text) - n, ":0x%llx",
			      cfg->word[i]);
	if ((size_t)n >= size)
		return lc_msg_set(pmu->msg, "'%s' does not fit in %zu bytes",
				  text, size);
	memcpy(out, text, n + 1);
	return 0;
}

/* A word without '/', copied as it is. */
static int lc_copy_word(struct lc_msg *msg, const char *event, char *out,
			size_t size)
{
	size_t len = strlen(event);

	if (len >= size)
		return lc_msg_set(msg, "longer than %zu characters", size - 1);
	memcpy(out, event, len + 1);
	return 0;
}

/**
 * lc_pmu_translate_event() - one --counters word in the module's syntax
 * @sysfs: where sysfs is (LC_PMU_SYSFS, or a fixture tree)
 * @event: the word; PMU/TERMS/ is translated, any other copied unchanged
 * @out: receives the word for the module, NUL-terminated
 * @out_size: size of @out; LC_PMU_EVENT_MAX holds any translation
 * @err: receives the reason of a failure, NUL-terminated
 * @err_size: size of @err, at least 1; LC_PMU_ERR_MAX is enough
 *
 * PMU/TERMS/ becomes [NAME=]TYPE:0xCONFIG[:0xCONFIG1[:0xCONFIG2]], from
 * SYSFS/bus/event_source/devices/PMU: its type, format/ fields and events/
 * aliases, as perf encodes it.  NAME is the value of a name= term; else
 * PMU/ALIAS/ when TERMS is one alias alone, or when TERMS names no alias
 * and exactly one events/ alias of the PMU (one whose .scale is not 1
 * left out) gives the same config words; else none, and the module names
 * the counter itself.  A NAME the module would refuse (over 47 characters,
 * or characters outside [A-Za-z0-9_./:+@-]) is left out; a bad name= is an
 * error.
 *
 * Return: 0, or -1 with @err set.
 */
int lc_pmu_translate_event(const char *sysfs, const char *event, char *out,
			   size_t out_size, char *err, size_t err_size)
{
	struct lc_msg msg = { err, err_size };
	struct lc_pmu pmu = { .msg = &msg };
	const char *open = strchr(event, '/'), *close;
	char name[LC_PMU_TERM_MAX];
	struct lc_pmu_terms terms;
	struct lc_pmu_config cfg;

	err[0] = '\0';
	if (!open)
		return lc_copy_word(&msg, event, out, out_size);
	close = strchr(open + 1, '/');
	if (!close)
		return lc_msg_set(&msg, "no closing '/' after '%.*s/'",
				  (int)(open - event), event);
	if (close[1])
		return lc_msg_set(&msg, "'%s' after the closing '/': perf's modifiers are not supported",
				  close + 1);
	if (lc_pmu_open(&pmu, sysfs, event, open - event))
		return -1;
	if (close == open + 1)
		return lc_msg_set(&msg, "no terms between the slashes: '%s//'",
				  pmu.name);
	if (lc_terms_parse(&msg, open + 1, close - open - 1, &terms) ||
	    lc_pmu_encode(&pmu, &terms, &cfg))
		return -1;
	lc_pmu_name(&pmu, &cfg, name, sizeof(name));
	return lc_pmu_print(&pmu, &cfg, name, out, out_size);
}

/* The end of the word at @p: a separator, but not inside PMU/.../. */
static const char *lc_word_end(const char *p)
{
	size_t len = strcspn(p, LC_PMU_SEPARATORS "/");
	const char *close;

	if (p[len] != '/')
		return p + len;
	close = strchr(p + len + 1, '/');
	if (!close)
		return p + strlen(p);	/* unterminated: the rest */
	return close + 1 + strcspn(close + 1, LC_PMU_SEPARATORS);
}

/* One word of the list onto @out; -1 with @err set to "'WORD': why". */
static int lc_translate_word(const char *sysfs, const char *word, size_t len,
			     FILE *out, const char *sep, char *err,
			     size_t err_size)
{
	char event[LC_PMU_EVENT_MAX], why[LC_PMU_ERR_MAX];
	char *copy = malloc(len + 1);

	if (!copy) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	memcpy(copy, word, len);
	copy[len] = '\0';
	if (!strchr(copy, '/')) {
		fprintf(out, "%s%s", sep, copy);
	} else if (!lc_pmu_translate_event(sysfs, copy, event, sizeof(event),
					   why, sizeof(why))) {
		fprintf(out, "%s%s", sep, event);
	} else {
		snprintf(err, err_size, "'%s': %s", copy, why);
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

/**
 * lc_pmu_translate_list() - a --counters list in the module's syntax
 * @sysfs: where sysfs is (LC_PMU_SYSFS, or a fixture tree)
 * @list: the list: words separated by commas or whitespace, except that
 *	a PMU/TERMS/ word keeps the commas between its slashes
 * @err: receives the reason of a failure, "'WORD': why", NUL-terminated
 * @err_size: size of @err, at least 1; LC_PMU_ERR_MAX is enough
 *
 * Each word as lc_pmu_translate_event() makes it, comma separated: a list
 * of separators only gives "".  Nothing is written anywhere.
 *
 * Return: the list for the module's counters file, to free(); NULL with
 * @err set.
 */
char *lc_pmu_translate_list(const char *sysfs, const char *list, char *err,
			    size_t err_size)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	const char *sep = "", *end;
	int failed = !out;

	err[0] = '\0';
	while (!failed && *(list += strspn(list, LC_PMU_SEPARATORS))) {
		end = lc_word_end(list);
		failed = lc_translate_word(sysfs, list, end - list, out, sep,
					   err, err_size);
		sep = ",";
		list = end;
	}
	if (out && fclose(out))
		failed = 1;
	if (failed && !err[0])
		snprintf(err, err_size, "out of memory");
	if (failed) {
		free(text);
		return NULL;
	}
	return text;
}
