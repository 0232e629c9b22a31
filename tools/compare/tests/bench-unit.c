// SPDX-License-Identifier: GPL-2.0
/*
 * bench-unit DATA_DIR [ROUNDS]: unit tests of the JSON reader
 * (tools/lib/json-read.c) and of bench mode (bench.c) on the fixtures of
 * DATA_DIR, and ROUNDS (default 20000) randomly edited files.
 * Prints "ok - ..." lines; run-tests.sh numbers them.
 *
 * Expected Welch numbers were computed with Python's mpmath 1.3
 * (Welch-Satterthwaite df, t quantile by findroot on the incomplete
 * beta), independently of stats.c:
 *   kprobe 100 +/- sd 10 (n 1000) -> 110 (sd 10, n 1000): diff +10,
 *     halfwidth 0.8770538439, t 22.36067977, df 1998, p 5.0128e-99
 *   none 0 (sd 1) -> 0.05 (sd 1): t 1.118033989, p 0.2636868869
 *   t(0.975, 999) * 10 / sqrt(1000) = 0.6205468564 (mean half width)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json-read.h"
#include "../../lib/lc.h"
#include "../../lib/tap.h"
#include "../bench.h"

static void test_json_values(void)
{
	static const char text[] =
		" {\"a\": [1, -0, 1.5e3, -12E-1, 0.25], \"b\": {\"c\": null},\n"
		"  \"t\": true, \"f\": false,\n"
		"  \"s\": \"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\\u00e9\\u20ac"
		"\\ud83d\\ude00\\u0041\"} \n";
	static const char want[] = "q\"b\\s/\b\f\n\r\t\xc3\xa9\xe2\x82\xac"
				   "\xf0\x9f\x98\x80"
				   "A";
	const struct json_value *a, *s;
	struct json_error err;
	struct json_value *v;

	v = json_parse(text, strlen(text), &err);
	if (!tap_check(v != NULL, "json: a valid document parses"))
		tap_diag("%d:%d: %s", err.line, err.column, err.message);
	if (!v)
		return;
	a = json_get(v, "a");
	tap_check(v->type == JSON_OBJECT && v->n == 5,
		  "json: an object of 5 members");
	tap_check(a && a->type == JSON_ARRAY && a->n == 5 &&
			  a->items[0].number == 1 && a->items[1].number == 0 &&
			  signbit(a->items[1].number) &&
			  a->items[2].number == 1500 &&
			  a->items[3].number == -1.2 &&
			  a->items[4].number == 0.25,
		  "json: numbers (integer, -0, exponents, fraction)");
	tap_check(json_get(json_get(v, "b"), "c") &&
			  json_get(json_get(v, "b"), "c")->type == JSON_NULL &&
			  json_get(v, "t")->type == JSON_TRUE &&
			  json_get(v, "f")->type == JSON_FALSE,
		  "json: null, true, false, nested object");
	s = json_get(v, "s");
	tap_check(s && s->type == JSON_STRING && s->len == strlen(want) &&
			  !strcmp(s->string, want),
		  "json: every escape, \\u to UTF-8, a surrogate pair");
	tap_check(!json_get(v, "nope") && !json_get(a, "a"),
		  "json: json_get of a missing member, of an array");
	json_free(v);
}

/**
 * struct bad_json - a text json_parse() must refuse
 * @text:    the input
 * @message: what the message must contain
 * @line:    where the error must be, 0 to skip the check
 * @column:  its column
 */
struct bad_json {
	const char *text;
	const char *message;
	int line;
	int column;
};

static const struct bad_json bad_json[] = {
	{ "", "expected a value, found end of input", 1, 1 },
	{ "  \n ", "expected a value, found end of input", 2, 2 },
	{ "{\"a\": 1,}", "expected a member name, found '}'", 1, 9 },
	{ "[1, 2,]", "expected a value, found ']'", 1, 7 },
	{ "{\"a\" 1}", "expected ':', found '1'", 1, 6 },
	{ "[1 2]", "expected ',' or ']', found '2'", 1, 4 },
	{ "{\"a\": 1 \"b\": 2}", "expected ',' or '}'", 1, 9 },
	{ "[1]x", "unexpected data after the JSON value", 1, 4 },
	{ "{} {}", "unexpected data after the JSON value", 1, 4 },
	{ "017", "leading zero in a number", 1, 2 },
	{ "1.", "expected a digit after '.'", 1, 3 },
	{ "1.e5", "expected a digit after '.'", 1, 3 },
	{ "1e+", "expected a digit in the exponent", 1, 4 },
	{ "-", "expected a digit, found end of input", 1, 2 },
	{ "+1", "expected a value, found '+'", 1, 1 },
	{ ".5", "expected a value, found '.'", 1, 1 },
	{ "NaN", "expected a value, found 'N'", 1, 1 },
	{ "Infinity", "expected a value", 1, 1 },
	{ "nul", "expected a value, found 'n'", 1, 1 },
	{ "True", "expected a value, found 'T'", 1, 1 },
	{ "[1e999]", "number out of range: 1e999", 1, 2 },
	{ "\"abc", "unterminated string", 1, 1 },
	{ "\"a\\\"", "unterminated string", 1, 1 },
	{ "\"a\tb\"", "control character 0x09 in a string", 1, 3 },
	{ "\"a\nb\"", "control character 0x0a", 1, 3 },
	{ "\"\\x\"", "expected an escape", 1, 3 },
	{ "\"\\u12g4\"", "expected 4 hex digits after \\u, found 'g'", 1, 6 },
	{ "\"\\ud800\"", "high surrogate without its low half", 1, 8 },
	{ "\"\\ud800\\u0041\"", "high surrogate without its low half", 0, 0 },
	{ "\"\\udc00\"", "lone low surrogate", 1, 8 },
	{ "{\"a\": 1, \"a\": 2}", "duplicate member 'a'", 1, 13 },
	{ "{1: 2}", "expected a member name, found '1'", 1, 2 },
	{ "['a']", "expected a value, found '''", 1, 2 },
	{ "[1, /* c */ 2]", "expected a value, found '/'", 1, 5 },
	{ "\xef\xbb\xbf{}", "expected a value, found byte 0xef", 1, 1 },
	{ "{\n  \"rows\": [\n    tru\n  ]\n}", "expected a value", 3, 5 },
};

static void test_json_errors(void)
{
	struct json_error err;
	struct json_value *v;
	size_t i;
	int ok;

	for (i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++) {
		const struct bad_json *b = &bad_json[i];

		memset(&err, 0, sizeof(err));
		v = json_parse(b->text, strlen(b->text), &err);
		ok = !v && strstr(err.message, b->message) &&
		     (!b->line || (err.line == b->line &&
				   err.column == b->column));
		if (!tap_check(ok, "json: refused with \"%s\"", b->message))
			tap_diag("got %s at %d:%d: %s", v ? "a value" : "NULL",
				 err.line, err.column, err.message);
		json_free(v);
	}
}

static void test_json_limits(void)
{
	char text[2 * (JSON_MAX_DEPTH + 1) + 1];
	struct json_error err;
	struct json_value *v;
	int depth, ok = 1;
	char nul[] = "[\"a\\u0000b\"]";

	for (depth = JSON_MAX_DEPTH; depth <= JSON_MAX_DEPTH + 1; depth++) {
		memset(text, '[', depth);
		memset(text + depth, ']', depth);
		v = json_parse(text, 2 * depth, &err);
		ok &= depth == JSON_MAX_DEPTH ? v != NULL :
						!v && strstr(err.message,
							     "nested deeper");
		json_free(v);
	}
	tap_check(ok, "json: %d nested arrays parse, %d do not",
		  JSON_MAX_DEPTH, JSON_MAX_DEPTH + 1);
	v = json_parse(nul, strlen(nul), &err);
	tap_check(v && v->items[0].len == 3 && !v->items[0].string[1],
		  "json: \\u0000 kept, with its length");
	json_free(v);
	v = json_parse("[1] garbage", 3, &err);
	tap_check(v && v->n == 1, "json: only @len bytes are read");
	json_free(v);
}

static char path_buf[4096];

static const char *data_path(const char *dir, const char *name)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
	return path_buf;
}

static void test_bench_read(const char *dir)
{
	struct bench_file f;
	const struct bench_row *r;
	int ret;

	ret = bench_read(data_path(dir, "bench-6.1-recorded.json"),
			 BENCH_CYCLES, &f);
	tap_check(!ret && f.nrows == 26 && !strcmp(f.kernel, "6.1.0-57-amd64") &&
			  !strcmp(f.clock, "tsc") && f.iterations == 200000 &&
			  f.clock_khz == 999999,
		  "bench: the recorded 6.1 file, header and 26 rows");
	if (!ret) {
		r = &f.rows[1];
		tap_check(!strcmp(r->mechanism, "kprobe") &&
				  r->status == LC_BENCH_OK && r->sum.n == 200000 &&
				  r->sum.mean == 174.176 &&
				  r->sum.stddev == 3.053,
			  "bench: kprobe row, cycles: n, mean, stddev");
		r = &f.rows[3];
		tap_check(!strcmp(r->mechanism, "fprobe") &&
				  r->status == LC_BENCH_UNAVAILABLE &&
				  !strcmp(r->reason,
					  "the module says: the kernel is built without CONFIG_FPROBE"),
			  "bench: fprobe unavailable, with its reason");
	}
	bench_file_free(&f);
	ret = bench_read(data_path(dir, "bench-base.json"), BENCH_NS, &f);
	tap_check(!ret && f.rows[1].sum.mean == 41.6667,
		  "bench: overhead_ns read as the mean");
	if (!ret)
		tap_near(f.rows[1].sum.stddev, 10 / 2.4, 1e-12,
			 "bench: stddev in ns from stddev_cycles and clock_khz");
	bench_file_free(&f);
	ret = bench_read(data_path(dir, "bench-6.1-recorded.json"), BENCH_NS,
			 &f);
	if (!ret)
		tap_near(f.rows[1].sum.stddev, 3.053 / 0.999999, 1e-12,
			 "bench: the same at the recorded 999999 kHz");
	else
		tap_check(0, "bench: the recorded file, in ns");
	bench_file_free(&f);
}

static void test_bench_compare(const char *dir)
{
	struct bench_file files[2];
	struct bench_comparison cmp;
	const struct bench_cell *c;
	int ok;

	ok = !bench_read(data_path(dir, "bench-base.json"), BENCH_CYCLES,
			 &files[0]);
	ok &= !bench_read(data_path(dir, "bench-plus10.json"), BENCH_CYCLES,
			  &files[1]);
	ok &= !bench_compare(files, 2, BENCH_CYCLES, 95.0, &cmp);
	if (!tap_check(ok, "compare: base and +10%% read and compared"))
		return;
	tap_check(cmp.nmechs == 6 && !strcmp(cmp.mechs[0].name, "none") &&
			  !strcmp(cmp.mechs[5].name, "uprobe") &&
			  !cmp.mechs[5].in_base && cmp.mechs[4].in_base,
		  "compare: base mechanisms first, then the others");
	c = &cmp.mechs[1].cells[1];
	tap_check(c->tested && c->test.significant && c->test.diff == 10,
		  "compare: kprobe +10 proven");
	tap_near(c->test.halfwidth, 0.8770538439, 1e-9,
		 "compare: kprobe half width as mpmath");
	tap_near(c->test.t, 22.36067977, 1e-8, "compare: kprobe Welch t");
	tap_near(c->test.df, 1998, 1e-9, "compare: kprobe Welch df");
	tap_near(c->test.p / 5.012825213e-99, 1, 1e-6,
		 "compare: kprobe p-value");
	tap_near(cmp.mechs[1].cells[0].halfwidth, 0.6205468564, 1e-9,
		 "compare: half width of the base mean, t(0.975, 999)");
	c = &cmp.mechs[2].cells[1];
	tap_check(c->tested && c->test.significant && c->test.diff == -20,
		  "compare: kretprobe -20 proven");
	c = &cmp.mechs[0].cells[1];
	tap_check(c->tested && !c->test.significant, "compare: none +0.05 not");
	tap_near(c->test.p, 0.2636868869, 1e-9, "compare: none p-value");
	tap_check(!cmp.mechs[3].cells[1].tested && cmp.mechs[3].cells[1].row,
		  "compare: fprobe unavailable in the base: no test");
	tap_check(!cmp.mechs[4].cells[1].row && !cmp.mechs[4].cells[1].tested,
		  "compare: tracepoint-off absent from +10%%: no test");
	tap_check(!cmp.mechs[5].cells[0].row && !cmp.mechs[5].cells[1].tested,
		  "compare: uprobe absent from the base: no test");
	tap_check(!cmp.cpu_differs && !cmp.clock_differs,
		  "compare: same cpu_model and clock");
	bench_comparison_free(&cmp);
	bench_file_free(&files[0]);
	bench_file_free(&files[1]);
}

static unsigned long long fuzz_state;

static unsigned int fuzz_next(void)
{
	fuzz_state ^= fuzz_state << 13;
	fuzz_state ^= fuzz_state >> 7;
	fuzz_state ^= fuzz_state << 17;
	return (unsigned int)(fuzz_state >> 32);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	*len = f && buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/*
 * Reproducible random edits of a good file (bytes replaced by JSON
 * syntax, digits or anything, deleted, duplicated): the reader and the
 * checks must accept or refuse each one with a message, never crash or
 * leak (run also under AddressSanitizer).
 */
static void test_fuzz(const char *dir, int rounds)
{
	static const char syntax[] = "{}[]\",:\\0123456789eE.-+ \ntfnu";
	struct bench_file f;
	char *good, *text;
	size_t len, n, at, i;
	int r, edits, accepted = 0, refused = 0;

	good = slurp(data_path(dir, "bench-plus10.json"), &len);
	text = malloc(2 * len + 16);
	if (!good || !text || !len) {
		tap_check(0, "fuzz: fixture read");
		free(good);
		free(text);
		return;
	}
	if (!freopen("/dev/null", "w", stderr))
		tap_diag("stderr not redirected");
	fuzz_state = 0x2545f4914f6cdd1dULL;
	for (r = 0; r < rounds; r++) {
		memcpy(text, good, len);
		n = len;
		for (edits = 1 + fuzz_next() % 4; edits; edits--) {
			at = fuzz_next() % n;
			switch (fuzz_next() % 4) {
			case 0:
				text[at] = syntax[fuzz_next() %
						  (sizeof(syntax) - 1)];
				break;
			case 1:
				text[at] = (char)(fuzz_next() & 0xff);
				break;
			case 2:
				memmove(text + at, text + at + 1, n - at - 1);
				n--;
				break;
			default:
				i = fuzz_next() % 16;
				if (at + i > n)
					i = n - at;
				memmove(text + at + i, text + at, n - at);
				n += i;
			}
			if (!n)
				break;
		}
		if (bench_parse("fuzz", text, n, r % 2 ? BENCH_NS :
							 BENCH_CYCLES,
				&f))
			refused++;
		else
			accepted++;
		bench_file_free(&f);
	}
	tap_check(accepted + refused == rounds && refused > rounds / 2,
		  "fuzz: %d edited files, %d refused, %d accepted, no crash",
		  rounds, refused, accepted);
	free(good);
	free(text);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/data";

	lc_set_prog("bench-unit");
	test_json_values();
	test_json_errors();
	test_json_limits();
	test_bench_read(dir);
	test_bench_compare(dir);
	test_fuzz(dir, argc > 2 ? atoi(argv[2]) : 20000);
	return tap_exit_status();
}
