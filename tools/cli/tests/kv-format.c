// SPDX-License-Identifier: GPL-2.0
/*
 * kv-format FORMAT < results_kv: what lttng-calibrate --format FORMAT
 * prints for a results_kv, without a module; for the tests.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../kv.h"

int main(int argc, char **argv)
{
	struct lc_kv kv = { 0 };
	enum lc_format format;
	char *text;
	int err;

	lc_set_prog("kv-format");
	if (argc != 2 || lc_format_parse(argv[1], &format))
		return 2;
	text = lc_read_fd(STDIN_FILENO, NULL);
	if (!text) {
		lc_err("reading standard input failed");
		return 2;
	}
	err = lc_kv_parse(&kv, text);
	if (!err && format == LC_FORMAT_CSV)
		err = lc_kv_print_csv(&kv, stdout);
	else if (!err && format == LC_FORMAT_JSON)
		err = lc_kv_print_json(&kv, stdout);
	else if (!err)
		err = lc_kv_print_table(&kv, stdout);
	lc_kv_free(&kv);
	free(text);
	return err ? 1 : 0;
}
