/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sysfs says of a PMU, for pmu-event.c: its directory and type
 * number, its format/ fields, its events/ aliases; and the messages that
 * name what it offers when a word asks for something else.
 */
#ifndef LTTNG_CALIBRATE_CLI_PMU_SYSFS_H
#define LTTNG_CALIBRATE_CLI_PMU_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>

#define LC_PMU_WORDS		3	/* config, config1, config2 */
#define LC_PMU_TERM_MAX		128	/* a key, a value, a PMU name */
#define LC_PMU_ATTR_MAX		4096	/* a sysfs attribute: one page */

/* Where a message goes: a caller's buffer. */
struct lc_msg {
	char *buf;
	size_t size;
};

/* A PMU, as its sysfs directory describes it. */
struct lc_pmu {
	char name[LC_PMU_TERM_MAX];
	char dir[PATH_MAX];
	unsigned int type;
	struct lc_msg *msg;
};

/* Bits of a config word that a field, or a config term, sets. */
struct lc_pmu_field {
	unsigned int word;
	unsigned long long mask;
};

__attribute__((format(printf, 2, 3)))
int lc_msg_set(struct lc_msg *msg, const char *fmt, ...);
void lc_names_free(char **names, size_t nr);
int lc_path(char *path, const char *dir, const char *sub, const char *name);
bool lc_pmu_companion(const char *name);
char **lc_list_dir(const char *path, size_t *nr);
int lc_pmu_add_choices(const struct lc_pmu *pmu);
bool lc_pmu_has(const struct lc_pmu *pmu, const char *sub, const char *name);
int lc_pmu_read(const struct lc_pmu *pmu, const char *sub, const char *name,
		char *buf, size_t size);
int lc_parse_number(const char *s, unsigned long long *value);
int lc_pmu_open(struct lc_pmu *pmu, const char *sysfs, const char *name,
		size_t len);
int lc_config_word(const char *key);
int lc_field_spec_parse(const char *spec, struct lc_pmu_field *field);
bool lc_pmu_scaled(const struct lc_pmu *pmu, const char *alias);

#endif /* LTTNG_CALIBRATE_CLI_PMU_SYSFS_H */
