// SPDX-License-Identifier: GPL-2.0
/*
 * Named groups of values. A series can have many thousands of labels
 * (one per commit), so labels are found through a small hash table
 * rather than by a linear scan.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"

static size_t hash_name(const char *name)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	while (*name) {
		h ^= (unsigned char)*name++;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

static void slots_insert(size_t *slots, size_t nslots, const char *name,
			 size_t index)
{
	size_t i = hash_name(name) & (nslots - 1);

	while (slots[i])
		i = (i + 1) & (nslots - 1);
	slots[i] = index + 1;
}

/* Keep the table at most half full. */
static int slots_grow(struct group_set *set)
{
	size_t nslots = set->nslots ? set->nslots * 2 : 64;
	size_t *slots, i;

	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	for (i = 0; i < set->n; i++)
		slots_insert(slots, nslots, set->groups[i].name, i);
	free(set->slots);
	set->slots = slots;
	set->nslots = nslots;
	return 0;
}

/**
 * group_set_new() - append a new, empty group, even if the name exists
 * @set:  the set
 * @name: its name, copied
 *
 * Return: the group, or NULL when out of memory.
 */
struct group *group_set_new(struct group_set *set, const char *name)
{
	struct group *groups, *group;

	if (2 * (set->n + 1) > set->nslots && slots_grow(set))
		return NULL;
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 8;
		groups = realloc(set->groups, set->cap * sizeof(*groups));
		if (!groups)
			return NULL;
		set->groups = groups;
	}
	group = &set->groups[set->n];
	memset(group, 0, sizeof(*group));
	group->name = strdup(name);
	if (!group->name)
		return NULL;
	slots_insert(set->slots, set->nslots, name, set->n);
	set->n++;
	return group;
}

/**
 * group_set_find_or_new() - the group called @name, created if needed
 * @set:  the set
 * @name: its name
 *
 * Return: the group, or NULL when out of memory.
 */
struct group *group_set_find_or_new(struct group_set *set, const char *name)
{
	size_t i;

	if (set->nslots) {
		i = hash_name(name) & (set->nslots - 1);
		for (; set->slots[i]; i = (i + 1) & (set->nslots - 1)) {
			struct group *group = &set->groups[set->slots[i] - 1];

			if (!strcmp(group->name, name))
				return group;
		}
	}
	return group_set_new(set, name);
}

/**
 * group_append() - add one value to a group
 * @group: the group
 * @value: the value
 *
 * Return: 0, or -1 when out of memory.
 */
int group_append(struct group *group, double value)
{
	double *values;

	if (group->n == group->cap) {
		group->cap = group->cap ? group->cap * 2 : 16;
		values = realloc(group->values, group->cap * sizeof(*values));
		if (!values)
			return -1;
		group->values = values;
	}
	group->values[group->n++] = value;
	return 0;
}

/**
 * group_set_free() - release every group and the set's tables
 * @set: the set, left empty and reusable
 */
void group_set_free(struct group_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->groups[i].name);
		free(set->groups[i].values);
	}
	free(set->groups);
	free(set->slots);
	memset(set, 0, sizeof(*set));
}
