/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_COMPARE_GROUPS_H
#define LTTNG_CALIBRATE_COMPARE_GROUPS_H

#include <stddef.h>

/**
 * struct group - named list of values: a sample, or one label of a series
 * @name:   sample or label name
 * @values: values in input order
 * @n:      number of values
 * @cap:    allocated size of @values
 */
struct group {
	char *name;
	double *values;
	size_t n;
	size_t cap;
};

/**
 * struct group_set - groups in order of first appearance, found by name
 * @groups: the groups
 * @n:      number of groups
 * @cap:    allocated size of @groups
 * @slots:  open-addressing hash table of group index + 1 (0: empty)
 * @nslots: size of @slots, a power of two
 */
struct group_set {
	struct group *groups;
	size_t n;
	size_t cap;
	size_t *slots;
	size_t nslots;
};

struct group *group_set_new(struct group_set *set, const char *name);
struct group *group_set_find_or_new(struct group_set *set, const char *name);
int group_append(struct group *group, double value);
void group_set_free(struct group_set *set);

#endif
