/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results_kv of lttng_calibrate, parsed generically: every ROW.UNIT.count
 * key makes a row, every ROW.UNIT.STAT key a cell of it, and every other
 * key is information about the run.
 */
#ifndef LTTNG_CALIBRATE_CLI_KV_H
#define LTTNG_CALIBRATE_CLI_KV_H

#include <stddef.h>
#include <stdio.h>

/* One "key=value" line. */
struct lc_kv_pair {
	char *key;
	char *value;
};

/**
 * struct lc_kv - the lines of a results_kv file, in file order
 * @pairs: the lines; a key given twice keeps its first place, last value
 * @nr: how many
 * @alloc: room in @pairs
 */
struct lc_kv {
	struct lc_kv_pair *pairs;
	size_t nr;
	size_t alloc;
};

int lc_kv_parse(struct lc_kv *kv, const char *text);
void lc_kv_free(struct lc_kv *kv);
const char *lc_kv_get(const struct lc_kv *kv, const char *key);
int lc_kv_print_csv(const struct lc_kv *kv, FILE *out);
int lc_kv_print_json(const struct lc_kv *kv, FILE *out);
int lc_kv_print_table(const struct lc_kv *kv, FILE *out);

#endif /* LTTNG_CALIBRATE_CLI_KV_H */
