// SPDX-License-Identifier: GPL-2.0
/*
 * What sysfs says of a PMU, read the way perf's tools/perf/util/pmu.c
 * reads it:
 *
 *   SYSFS/bus/event_source/devices/PMU/type          its type number
 *   SYSFS/bus/event_source/devices/PMU/format/FIELD  "config:0-7,32-35"
 *   SYSFS/bus/event_source/devices/PMU/events/ALIAS  "event=0x2e,umask=0x41"
 *
 * and the messages that list what a PMU offers.  pmu-event.c parses the
 * words and encodes them from it.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/lc.h"
#include "pmu-event.h"
#include "pmu-sysfs.h"

/**
 * lc_msg_set() - a message, in place of what @msg held
 * @msg: where it goes
 * @fmt: printf()'s format, then its arguments
 *
 * Return: -1, for the caller's own return.
 */
int lc_msg_set(struct lc_msg *msg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg->buf, msg->size, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 2, 3)))
static void lc_msg_add(struct lc_msg *msg, const char *fmt, ...)
{
	size_t used = strlen(msg->buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg->buf + used, msg->size - used, fmt, ap);
	va_end(ap);
}

/* Names, comma separated, cut with "..." when the message is full. */
static void lc_msg_add_names(struct lc_msg *msg, char **names, size_t nr)
{
	size_t i;

	if (!nr)
		lc_msg_add(msg, "none");
	for (i = 0; i < nr; i++) {
		if (strlen(msg->buf) + strlen(names[i]) + 8 >= msg->size) {
			lc_msg_add(msg, "%s...", i ? ", " : "");
			return;
		}
		lc_msg_add(msg, "%s%s", i ? ", " : "", names[i]);
	}
}

static int lc_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/**
 * lc_names_free() - free what lc_list_dir() returned
 * @names: the names, or NULL
 * @nr: how many
 */
void lc_names_free(char **names, size_t nr)
{
	while (nr)
		free(names[--nr]);
	free(names);
}

/**
 * lc_path() - DIR/SUB, or DIR/SUB/NAME
 * @path: receives it (PATH_MAX bytes)
 * @dir: a directory
 * @sub: an entry of it
 * @name: an entry of that, or NULL
 *
 * Return: 0, or -1 when it is too long.
 */
int lc_path(char *path, const char *dir, const char *sub, const char *name)
{
	int n = snprintf(path, PATH_MAX, "%s/%s%s%s", dir, sub,
			 name ? "/" : "", name ? name : "");

	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/**
 * lc_pmu_companion() - does an events/ entry describe another?
 * @name: the entry: ALIAS.scale, ALIAS.unit, ... describe ALIAS
 *
 * Return: true for such a companion file.
 */
bool lc_pmu_companion(const char *name)
{
	static const char *const suffixes[] = {
		".scale", ".unit", ".per-pkg", ".snapshot",
	};
	size_t len = strlen(name), i, n;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		n = strlen(suffixes[i]);
		if (len > n && !strcmp(name + len - n, suffixes[i]))
			return true;
	}
	return false;
}

/**
 * lc_list_dir() - the entries of a directory
 * @path: the directory
 * @nr: receives how many
 *
 * The entries, sorted, without dot files and events' companion files.
 *
 * Return: the names, to lc_names_free(); NULL (and *@nr 0) when it
 * cannot be read.
 */
char **lc_list_dir(const char *path, size_t *nr)
{
	DIR *dir = opendir(path);
	char **names = NULL, **bigger;
	size_t alloc = 0;
	struct dirent *de;

	*nr = 0;
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || lc_pmu_companion(de->d_name))
			continue;
		if (*nr == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			bigger = realloc(names, alloc * sizeof(*names));
			if (!bigger)
				break;
			names = bigger;
		}
		names[*nr] = strdup(de->d_name);
		if (!names[*nr])
			break;
		(*nr)++;
	}
	if (dir)
		closedir(dir);
	if (names)
		qsort(names, *nr, sizeof(*names), lc_cmp_names);
	return names;
}

/* The names under PMU/SUB (format, events), for a message. */
static void lc_pmu_add_dir(const struct lc_pmu *pmu, const char *sub)
{
	char path[PATH_MAX];
	char **names = NULL;
	size_t nr = 0;

	if (!lc_path(path, pmu->dir, sub, NULL))
		names = lc_list_dir(path, &nr);
	lc_msg_add(pmu->msg, "%s: ", sub);
	lc_msg_add_names(pmu->msg, names, nr);
	lc_names_free(names, nr);
}

/**
 * lc_pmu_add_choices() - what a PMU offers, after a message on its terms
 * @pmu: the PMU; "(format: ...; events: ...)" is added to its message
 *
 * Return: -1, for the caller's own return.
 */
int lc_pmu_add_choices(const struct lc_pmu *pmu)
{
	lc_msg_add(pmu->msg, " (");
	lc_pmu_add_dir(pmu, "format");
	lc_msg_add(pmu->msg, "; ");
	lc_pmu_add_dir(pmu, "events");
	lc_msg_add(pmu->msg, ")");
	return -1;
}

/**
 * lc_pmu_has() - is this a regular file of PMU/SUB?
 * @pmu: the PMU
 * @sub: its format or events directory
 * @name: the file's name
 *
 * Return: true when PMU/SUB/NAME is a regular file.
 */
bool lc_pmu_has(const struct lc_pmu *pmu, const char *sub, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!*name || name[0] == '.')
		return false;
	return !lc_path(path, pmu->dir, sub, name) && !stat(path, &st) &&
	       S_ISREG(st.st_mode);
}

/*
 * A sysfs attribute (lc_read_file()), NUL-terminated, without its trailing
 * whitespace.
 * Return: 0, or -1 when it cannot be read or is longer than @size - 1.
 */
static int lc_read_attr(const char *path, char *buf, size_t size)
{
	size_t len;
	char *text = lc_read_file(path, &len);

	if (!text || len >= size) {
		free(text);
		return -1;
	}
	memcpy(buf, text, len + 1);
	free(text);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return 0;
}

/**
 * lc_pmu_read() - the contents of PMU/SUB/NAME
 * @pmu: the PMU
 * @sub: its format or events directory
 * @name: the file's name
 * @buf: receives the contents, as lc_read_attr() reads them
 * @size: size of @buf
 *
 * Return: 0, or -1 after a message when it cannot be read.
 */
int lc_pmu_read(const struct lc_pmu *pmu, const char *sub, const char *name,
		char *buf, size_t size)
{
	char path[PATH_MAX];

	if (lc_path(path, pmu->dir, sub, name))
		return lc_msg_set(pmu->msg, "PMU '%s': path of %s/%s too long",
				  pmu->name, sub, name);
	if (!lc_read_attr(path, buf, size))
		return 0;
	return lc_msg_set(pmu->msg, "cannot read %s", path);
}

/**
 * lc_parse_number() - a number, as perf reads one
 * @s: decimal, or 0x and hexadecimal digits, in 64 bits
 * @value: receives it
 *
 * Return: 0, or -1 when @s is not such a number.
 */
int lc_parse_number(const char *s, unsigned long long *value)
{
	unsigned long long v = 0;
	unsigned int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (v > (ULLONG_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*value = v;
	return 0;
}

/**
 * lc_pmu_open() - a PMU's directory and type number
 * @pmu: receives them; its message says why when it fails
 * @sysfs: where sysfs is
 * @name: the PMU's name
 * @len: its length (@name need not end there)
 *
 * Return: 0, or -1 after a message.
 */
int lc_pmu_open(struct lc_pmu *pmu, const char *sysfs, const char *name,
		size_t len)
{
	char path[PATH_MAX], text[64], **names;
	unsigned long long type;
	struct stat st;
	size_t nr;

	if (!len)
		return lc_msg_set(pmu->msg, "no PMU name before the '/'");
	if (name[0] == '.' || len >= sizeof(pmu->name))
		return lc_msg_set(pmu->msg, "invalid PMU name '%.*s'",
				  (int)len, name);
	memcpy(pmu->name, name, len);
	pmu->name[len] = '\0';
	if (lc_path(path, sysfs, LC_PMU_DEVICES, NULL) ||
	    lc_path(pmu->dir, path, pmu->name, NULL))
		return lc_msg_set(pmu->msg, "sysfs path '%s' too long", sysfs);
	if (stat(pmu->dir, &st) || !S_ISDIR(st.st_mode)) {
		lc_msg_set(pmu->msg, "unknown PMU '%s': no %s (PMUs: ",
			   pmu->name, pmu->dir);
		names = lc_list_dir(path, &nr);
		lc_msg_add_names(pmu->msg, names, nr);
		lc_names_free(names, nr);
		lc_msg_add(pmu->msg, ")");
		return -1;
	}
	if (lc_path(path, pmu->dir, "type", NULL) ||
	    lc_read_attr(path, text, sizeof(text)))
		return lc_msg_set(pmu->msg, "PMU '%s': cannot read %s",
				  pmu->name, path);
	if (lc_parse_number(text, &type) || type > UINT_MAX)
		return lc_msg_set(pmu->msg, "PMU '%s': %s/type is '%s', not a type number",
				  pmu->name, pmu->dir, text);
	pmu->type = type;
	return 0;
}

/**
 * lc_config_word() - the config word a key names
 * @key: config, config1, config2, or any other key
 *
 * Return: the word itself (0 to 2); -1 for any other key.
 */
int lc_config_word(const char *key)
{
	static const char *const words[LC_PMU_WORDS] = {
		"config", "config1", "config2",
	};
	int i;

	for (i = 0; i < LC_PMU_WORDS; i++)
		if (!strcmp(key, words[i]))
			return i;
	return -1;
}

/**
 * lc_field_spec_parse() - the word and the bits of a format/ field
 * @spec: the field's file, "config1:0-7,32-35"
 * @field: receives the word and its bits
 *
 * Return: 0, or -1 if @spec is not of that form.
 */
int lc_field_spec_parse(const char *spec, struct lc_pmu_field *field)
{
	const char *colon = strchr(spec, ':');
	unsigned long lo, hi;
	char word[16], *end;
	int w;

	if (!colon || (size_t)(colon - spec) >= sizeof(word))
		return -1;
	memcpy(word, spec, colon - spec);
	word[colon - spec] = '\0';
	w = lc_config_word(word);
	if (w < 0)
		return -1;
	field->word = w;
	field->mask = 0;
	spec = colon;
	do {
		if (!isdigit((unsigned char)spec[1]))
			return -1;
		lo = strtoul(spec + 1, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi > 63)
			return -1;
		for (; lo <= hi; lo++)
			field->mask |= 1ULL << lo;
		spec = end;
	} while (*spec == ',');
	return *spec ? -1 : 0;
}

/**
 * lc_pmu_scaled() - does events/ALIAS.scale scale the counts?
 * @pmu: the PMU
 * @alias: the event
 *
 * perf would scale them, the module does not.
 *
 * Return: true when events/ALIAS.scale is there and is not 1, or cannot
 * be read.
 */
bool lc_pmu_scaled(const struct lc_pmu *pmu, const char *alias)
{
	char name[LC_PMU_TERM_MAX + 8], text[64], path[PATH_MAX];
	int n = snprintf(name, sizeof(name), "%s.scale", alias);

	if (n < 0 || (size_t)n >= sizeof(name) ||
	    lc_path(path, pmu->dir, "events", name) ||
	    !lc_pmu_has(pmu, "events", name))
		return false;
	return lc_read_attr(path, text, sizeof(text)) ||
	       strtod(text, NULL) != 1.0;
}
