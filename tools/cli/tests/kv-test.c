// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kv.c: results_kv to CSV, JSON and a table, on a results_kv
 * captured from the module (data/results_kv, 2 counters, Debian 6.1 under
 * QEMU) and on hand-made corner cases.  "ok - ..." lines; run-tests.sh
 * numbers them.
 *
 * Usage: kv-test DATA_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/tap.h"
#include "../kv.h"

typedef int (*printer)(const struct lc_kv *kv, FILE *out);

/* Format text with a printer; returns the output, to free(). */
static char *format(const char *text, printer print)
{
	struct lc_kv kv = { 0 };
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	int err = lc_kv_parse(&kv, text) || print(&kv, mem);

	fclose(mem);
	lc_kv_free(&kv);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* Is line a whole line of text? */
static int has_line(const char *text, const char *line)
{
	size_t len = strlen(line);
	const char *p = text;

	while (p && (p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && p[len] == '\n')
			return 1;
		p++;
	}
	return 0;
}

static void test_fixture_parse(const char *text)
{
	struct lc_kv kv = { 0 };

	tap_check(!lc_kv_parse(&kv, text), "fixture: parses");
	tap_check(kv.nr == 130, "fixture: 130 keys (got %zu)", kv.nr);
	tap_check(lc_kv_get(&kv, "run.cpu") &&
	          !strcmp(lc_kv_get(&kv, "run.cpu"), "1"), "fixture: run.cpu=1");
	tap_check(lc_kv_get(&kv, "counters") &&
	          !strcmp(lc_kv_get(&kv, "counters"), "page-faults,cpu-clock"),
	          "fixture: a value with a comma is kept whole");
	tap_check(!lc_kv_get(&kv, "run.cpus"), "fixture: absent key is NULL");
	lc_kv_free(&kv);
	tap_check(kv.nr == 0 && !kv.pairs, "lc_kv_free leaves an empty set");
}

static void test_fixture_csv(const char *text)
{
	char *csv = format(text, lc_kv_print_csv);

	tap_check(!!csv, "fixture: CSV printed");
	tap_check(has_line(csv, "row,unit,count,mean,stddev,min,median,p99,max,cold"),
	          "fixture: CSV header lists the statistics in file order");
	tap_check(count_lines(csv) == 13,
	          "fixture: CSV has 12 rows: 3 rows x (cycles, ns, 2 counters)");
	tap_check(has_line(csv, "difference,ns,1000,-1.822,125.465,-1822.730,0.000,199.914,1281.920,18617.891"),
	          "fixture: CSV difference.ns row");
	tap_check(has_line(csv, "target,counter.cpu-clock,1000,143.846,87.575,100,120,331,1472,31627"),
	          "fixture: CSV counter unit keeps its dot");
	tap_check(!strstr(csv, "overhead") && !strstr(csv, "harness") &&
	          !strstr(csv, "\ncounter,"),
	          "fixture: keys without a count are not rows");
	free(csv);
}

static void test_fixture_json(const char *text, const char *golden)
{
	char *json = format(text, lc_kv_print_json);

	tap_check(!!json, "fixture: JSON printed");
	tap_check(json && strstr(json, "\"run.state\": \"complete\""),
	          "fixture: JSON info holds strings as strings");
	tap_check(json && strstr(json, "\"overhead.cycles.mean\": -4.732"),
	          "fixture: JSON info holds numbers as numbers");
	tap_check(json && strstr(json, "{\"row\": \"baseline\", \"unit\": \"counter.page-faults\", \"count\": 1000, \"mean\": 0.000,"),
	          "fixture: JSON row object");
	tap_check(json && golden && !strcmp(json, golden),
	          "fixture: JSON equals data/results_kv.json");
	free(json);
}

static void test_fixture_table(const char *text)
{
	char *table = format(text, lc_kv_print_table);

	tap_check(table && count_lines(table) == 13 &&
	          strstr(table, "\ndifference.cycles ") &&
	          strstr(table, "       -4.732 "),
	          "fixture: compact table, one line per row");
	free(table);
}

static void test_empty(void)
{
	char *csv = format("", lc_kv_print_csv);
	char *json = format("", lc_kv_print_json);

	tap_check(csv && !strcmp(csv, "row,unit\n"), "empty input: CSV header only");
	tap_check(json && !strcmp(json, "{\n  \"info\": {},\n  \"results\": []\n}\n"),
	          "empty input: empty JSON object and array");
	free(csv);
	free(json);
	json = format("format=1\nrun.state=none\n", lc_kv_print_json);
	tap_check(json && strstr(json, "\"run.state\": \"none\"") &&
	          strstr(json, "\"results\": []"), "no run yet: info, no rows");
	free(json);
}

static void test_odd_lines(void)
{
	const char *text = "garbage\n=nokey\na.b.count=2\na.b.count=3\n"
			   "a.b.note=x,\"y\"\nlast.c.count=1";
	char *csv = format(text, lc_kv_print_csv);

	tap_check(csv && has_line(csv, "row,unit,count,note"),
	          "odd input: columns are the union over rows");
	tap_check(csv && has_line(csv, "a,b,3,\"x,\"\"y\"\"\""),
	          "odd input: duplicate key keeps its last value; CSV quoting");
	tap_check(csv && has_line(csv, "last,c,1,"),
	          "odd input: missing cell is empty; last line without newline");
	tap_check(count_lines(csv) == 3, "odd input: lines without '=' or key ignored");
	free(csv);
}

static void test_json_values(void)
{
	const char *text = "n1=-0.5\nn2=007\nn3=1.\nn4=1e5\nn5=-\nn6=0\n"
			   "s=a\"b\\c\x01\xc3\xa9\xff\n";
	char *json = format(text, lc_kv_print_json);

	tap_check(json && strstr(json, "\"n1\": -0.5,") && strstr(json, "\"n6\": 0,"),
	          "JSON: decimals are numbers");
	tap_check(json && strstr(json, "\"n2\": \"007\"") &&
	          strstr(json, "\"n3\": \"1.\"") && strstr(json, "\"n4\": \"1e5\"") &&
	          strstr(json, "\"n5\": \"-\""),
	          "JSON: what is not a plain decimal stays a string");
	tap_check(json && strstr(json, "\"s\": \"a\\\"b\\\\c\\u0001\xc3\xa9\\ufffd\""),
	          "JSON: quotes, backslashes, control bytes escaped; UTF-8 kept, an invalid byte U+FFFD");
	free(json);
}

static void test_not_rows(void)
{
	const char *text = "x.count=1\n.a.count=1\na..count=1\nrun.iterations.asked=5\n"
			   "a.b.c.count=4\na.b.c.max=9\n";
	char *csv = format(text, lc_kv_print_csv);

	tap_check(csv && count_lines(csv) == 2 && has_line(csv, "a,b.c,4,9"),
	          "rows need ROW.UNIT.count with both parts non-empty");
	free(csv);
}

/* Are all lines as long as the first (the columns aligned)? */
static int lines_of_one_length(const char *text)
{
	size_t len = strcspn(text, "\n");

	while (*text) {
		if (strcspn(text, "\n") != len)
			return 0;
		text += len + (text[len] == '\n');
	}
	return 1;
}

/* Names of PMU events: '/', ':', '.', '@' and '+' in the UNIT. */
static void test_counter_names(void)
{
	const char *text =
		"counters=lttng_calibrate_test/tsc/,cpu:0x3c,insn.all\n"
		"counter.lttng_calibrate_test/tsc/.valid=1\n"
		"overhead.counter.cpu:0x3c.mean=1.5\n"
		"target.counter.lttng_calibrate_test/tsc/.count=10\n"
		"target.counter.lttng_calibrate_test/tsc/.mean=2.000\n"
		"difference.counter.cpu:0x3c.count=10\n"
		"difference.counter.cpu:0x3c.mean=-1.000\n"
		"baseline.counter.insn.all.count=3\n"
		"baseline.counter.insn.all.mean=7\n"
		"target.counter.my:cycles@1+x.count=1\n"
		"target.counter.my:cycles@1+x.mean=0\n"
		"difference.counter.forty-seven_characters_the_longest_name_allowed.count=2\n"
		"difference.counter.forty-seven_characters_the_longest_name_allowed.mean=5\n";
	char *csv = format(text, lc_kv_print_csv);
	char *json = format(text, lc_kv_print_json);
	char *table = format(text, lc_kv_print_table);

	tap_check(csv && has_line(csv, "row,unit,count,mean") &&
	          has_line(csv, "target,counter.lttng_calibrate_test/tsc/,10,2.000") &&
	          has_line(csv, "difference,counter.cpu:0x3c,10,-1.000") &&
	          has_line(csv, "baseline,counter.insn.all,3,7") &&
	          has_line(csv, "target,counter.my:cycles@1+x,1,0"),
	          "counter names with '/', ':', '.': CSV units whole, unquoted");
	tap_check(json && strstr(json, "{\"row\": \"target\", \"unit\": \"counter.lttng_calibrate_test/tsc/\", \"count\": 10, \"mean\": 2.000}") &&
	          strstr(json, "\"unit\": \"counter.cpu:0x3c\"") &&
	          strstr(json, "\"unit\": \"counter.insn.all\"") &&
	          strstr(json, "\"counter.lttng_calibrate_test/tsc/.valid\": 1") &&
	          strstr(json, "\"counters\": \"lttng_calibrate_test/tsc/,cpu:0x3c,insn.all\""),
	          "counter names with '/', ':', '.': JSON units and info keys");
	tap_check(table && lines_of_one_length(table) &&
	          strstr(table, "\ndifference.counter.forty-seven_"),
	          "table: the first column as wide as the longest ROW.UNIT");
	free(csv);
	free(json);
	free(table);
}

int main(int argc, char **argv)
{
	char path[4096];
	char *text, *golden;

	if (argc != 2) {
		fprintf(stderr, "usage: kv-test DATA_DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/results_kv", argv[1]);
	text = lc_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/results_kv.json", argv[1]);
	golden = lc_read_file(path, NULL);
	tap_check(!!text, "fixture %s/results_kv readable", argv[1]);
	if (text) {
		test_fixture_parse(text);
		test_fixture_csv(text);
		test_fixture_json(text, golden);
		test_fixture_table(text);
	}
	test_empty();
	test_odd_lines();
	test_json_values();
	test_not_rows();
	test_counter_names();
	free(text);
	free(golden);
	return tap_exit_status();
}
