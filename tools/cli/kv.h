/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results_kv of lttng_calibrate, printed generically: every ROW.UNIT.count
 * key makes a row, every ROW.UNIT.STAT key a cell of it, and every other
 * key is information about the run.  The text is parsed by the library
 * (lc_kv_parse()).
 */
#ifndef LTTNG_CALIBRATE_CLI_KV_H
#define LTTNG_CALIBRATE_CLI_KV_H

#include <stdio.h>

#include "../lib/lc.h"

int lc_kv_print_csv(const struct lc_kv *kv, FILE *out);
int lc_kv_print_json(const struct lc_kv *kv, FILE *out);
int lc_kv_print_table(const struct lc_kv *kv, FILE *out);

#endif /* LTTNG_CALIBRATE_CLI_KV_H */
