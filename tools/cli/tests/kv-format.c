// SPDX-License-Identifier: GPL-2.0
/*
 * kv-format FORMAT < results_kv: what lttng-calibrate --format FORMAT
 * prints for a results_kv, without a module; for the tests.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kv.h"

int main(int argc, char **argv)
{
	struct lc_kv kv = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	int ch, err;

	if (argc != 2 || !mem)
		return 2;
	while ((ch = getchar()) != EOF)
		fputc(ch, mem);
	fclose(mem);
	err = lc_kv_parse(&kv, text);
	if (!err && !strcmp(argv[1], "csv"))
		err = lc_kv_print_csv(&kv, stdout);
	else if (!err && !strcmp(argv[1], "json"))
		err = lc_kv_print_json(&kv, stdout);
	else if (!err)
		err = lc_kv_print_table(&kv, stdout);
	lc_kv_free(&kv);
	free(text);
	return err ? 1 : 0;
}
