// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmu-event.c and pmu-sysfs.c: perf's PMU/TERMS/ syntax
 * translated into the module's NAME=TYPE:CONFIG[:CONFIG1[:CONFIG2]], on
 * the sysfs trees of data/sysfs (Intel, AMD, the test PMU, POWER's
 * hv_24x7, odd cases).
 * "ok - ..." lines; run-tests.sh numbers them.
 *
 * Usage: pmu-event-test SYSFS_TREES_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/lc.h"
#include "../../lib/tap.h"
#include "../pmu-event.h"

static const char *trees;
/* @s for a TAP line: tabs and newlines as \t and \n; static buffer. */
static const char *shown(const char *s)
{
	static char buf[1024];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(buf); s++) {
		if (*s == '\n' || *s == '\t') {
			buf[n++] = '\\';
			buf[n++] = *s == '\n' ? 'n' : 't';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

/* Translate a list against the fixture tree @tree. */
static char *translate(const char *tree, const char *list, char *err)
{
	char root[4096];

	snprintf(root, sizeof(root), "%s/%s", trees, tree);
	return lc_pmu_translate_list(root, list, err, LC_PMU_ERR_MAX);
}

/* @list becomes @want on @tree. */
static void expect(const char *tree, const char *list, const char *want,
		   const char *what)
{
	char err[LC_PMU_ERR_MAX];
	char *got = translate(tree, list, err);

	if (!tap_check(got && !strcmp(got, want), "%s: %s: '%s' -> '%s'", tree,
		       what, shown(list), want))
		tap_diag("got: %s", got ? got : err);
	free(got);
}

/* @list is refused on @tree with a message holding each string given. */
__attribute__((sentinel))
static void refused(const char *tree, const char *list, const char *what,
		    ...)
{
	char err[LC_PMU_ERR_MAX];
	char *got = translate(tree, list, err);
	const char *word;
	int ok = !got;
	va_list ap;

	va_start(ap, what);
	while ((word = va_arg(ap, const char *)))
		ok = ok && strstr(err, word);
	va_end(ap);
	if (!tap_check(ok, "%s: %s: '%s' refused", tree, what, shown(list)))
		tap_diag("got: %s", got ? got : err);
	free(got);
}

static void test_aliases(void)
{
	expect("intel", "cpu/cpu-cycles/", "cpu/cpu-cycles/=4:0x3c",
	       "an alias alone names the counter");
	expect("intel", "cpu/cache-misses/", "cpu/cache-misses/=4:0x412e",
	       "alias of two fields");
	expect("intel", "cpu/ref-cycles/", "cpu/ref-cycles/=4:0x300",
	       "alias with event=0x00");
	expect("intel", "cpu/mem-loads/", "cpu/mem-loads/=4:0x1cd:0x3",
	       "alias with a config1 field (ldlat)");
	expect("intel", "cpu/topdown-total-slots/",
	       "cpu/topdown-total-slots/=4:0x3c",
	       "alias with a .scale companion");
	expect("amd", "cpu/branch-misses/", "cpu/branch-misses/=4:0xc3",
	       "AMD alias");
	expect("test-pmu", "lttng_calibrate_test/tsc/",
	       "lttng_calibrate_test/tsc/=12:0x1", "test PMU alias");
	expect("test-pmu", "lttng_calibrate_test/idle/",
	       "lttng_calibrate_test/idle/=12:0x3", "test PMU alias idle");
}

static void test_fields(void)
{
	expect("intel", "cpu/event=0xc4,umask=0x1/", "4:0x1c4",
	       "two fields, no alias of that encoding");
	expect("intel", "cpu/event=0x3c,edge/", "4:0x4003c",
	       "a bare field is 1");
	expect("intel", "cpu/event=0x3c,inv,cmask=1/", "4:0x180003c",
	       "bare inv and cmask=1");
	expect("intel", "cpu/event=0xc0,in_tx,in_tx_cp/", "4:0x3000000c0",
	       "fields above bit 31");
	expect("intel", "cpu/event=0xb7,umask=0x1,offcore_rsp=0x3fffc00001/",
	       "4:0x1b7:0x3fffc00001", "a 64-bit config1 field");
	expect("intel", "cpu/offcore_rsp=0xffffffffffffffff,event=0xb7/",
	       "4:0xb7:0xffffffffffffffff", "all 64 bits of a field");
	expect("intel", "cpu/event=0xc6,frontend=0x400406/",
	       "4:0xc6:0x400406", "frontend in config1");
	expect("intel", "cpu/event=200,umask=1/", "4:0x1c8",
	       "decimal values");
	expect("intel", "cpu/event=0X3C,umask=0XA/", "4:0xa3c",
	       "0X and capital hex digits");
	expect("intel", "cpu/event=0x3c,event=0xc0/",
	       "cpu/instructions/=4:0xc0",
	       "a field given twice: the last value");
	expect("test-pmu", "lttng_calibrate_test/event=0x2,tag=0xff/",
	       "12:0x2:0x0:0xff", "config2 field, config1 zero kept");
	expect("test-pmu", "lttng_calibrate_test/tsc,fail_add/", "12:0x1:0x1",
	       "alias and a bare config1 field");
	expect("test-pmu", "kprobe/retprobe/", "6:0x1",
	       "a PMU without events/");
	expect("power", "hv_24x7/PM_PB_CYC,chip=1/", "8:0x3c000010002",
	       "alias parameter given");
}

static void test_split_ranges(void)
{
	expect("amd", "cpu/event=0x1c2/", "4:0x1000000c2",
	       "bit 8 of event goes to bit 32");
	expect("amd", "cpu/event=0xfff,umask=0x1/", "4:0xf000001ff",
	       "event bits 8-11 to 32-35");
	expect("amd", "cpu/event=0xff/", "4:0xff", "event within bits 0-7");
	refused("amd", "cpu/event=0x1000/", "12 bits of two ranges",
		"value 0x1000 too big for field 'event' (12 bits)", NULL);
}

static void test_config_words(void)
{
	expect("intel", "cpu/config=0x1234,config1=5,config2=0x6/",
	       "4:0x1234:0x5:0x6", "config, config1, config2 directly");
	expect("intel", "cpu/config2=1/", "4:0x0:0x0:0x1",
	       "zero words before a non-zero one are written");
	expect("intel", "cpu/config=0x3c/", "cpu/cpu-cycles/=4:0x3c",
	       "config= alone, named by reverse lookup");
	expect("intel", "cpu/event=0x3c,config=0x2e/", "4:0x2e",
	       "config= replaces the word");
	expect("test-pmu", "software/config=0x2/", "1:0x2",
	       "a PMU without format/");
}

static void test_overrides(void)
{
	expect("intel", "cpu/cache-misses,umask=0x4f/", "4:0x4f2e",
	       "a field after an alias overrides it; no name");
	expect("intel", "cpu/umask=0x4f,cache-misses/", "4:0x4f2e",
	       "alias terms are weak, as in perf, wherever the alias is");
	expect("intel", "cpu/bus-cycles,umask=0/", "4:0x3c",
	       "an override to 0 clears the alias's bits");
	expect("intel", "cpu/mem-loads,ldlat=0x40/", "4:0x1cd:0x40",
	       "override in config1");
}

static void test_names(void)
{
	expect("intel", "cpu/event=0x2e,umask=0x41/",
	       "cpu/cache-misses/=4:0x412e", "reverse lookup");
	expect("intel", "cpu/umask=0x4f,event=0x2e/",
	       "cpu/cache-references/=4:0x4f2e",
	       "reverse lookup, terms in any order");
	expect("intel", "cpu/event=0x3c,umask=0x0/", "cpu/cpu-cycles/=4:0x3c",
	       "reverse lookup leaves out the scaled topdown-total-slots");
	expect("test-pmu", "lttng_calibrate_test/event=0x1/",
	       "lttng_calibrate_test/tsc/=12:0x1", "reverse lookup, test PMU");
	expect("test-pmu", "lttng_calibrate_test/event=0x9/", "12:0x9",
	       "no alias of that encoding: no name");
	expect("amd", "cpu/event=0x76/", "cpu/cpu-cycles/=4:0x76",
	       "reverse lookup, AMD");
	expect("intel", "cpu/event=0xc0,name=insn.all/", "insn.all=4:0xc0",
	       "name= term");
	expect("intel", "cpu/cpu-cycles,name=my:cycles@1/",
	       "my:cycles@1=4:0x3c", "name= wins over the alias's name");
	expect("odd", "odd_pmu/event_whose_name_is_too_long_for_a_module_name/",
	       "20:0x11", "PMU/ALIAS/ over 47 characters: no name");
	expect("odd", "odd_pmu/event=0x11/", "20:0x11",
	       "reverse lookup over 47 characters: no name");
	expect("odd", "odd_pmu/l3%miss/", "20:0x12",
	       "a character the module refuses: no name");
	expect("odd", "odd_pmu/event=0x14/", "20:0x14",
	       "two aliases of one encoding: no name");
	expect("odd", "odd_pmu/event=0x13/", "20:0x13",
	       "a broken alias is no match");
	expect("intel", "cpu/cpu-cycles,instructions/", "4:0xc0",
	       "two aliases: no name, the last wins");
}

static void test_lists(void)
{
	expect("intel", "cpu/event=0x3c,umask=0x0/,cycles",
	       "cpu/cpu-cycles/=4:0x3c,cycles",
	       "a comma inside the slashes does not split");
	expect("intel", " page-faults \tcpu/event=0xc4,umask=0x1/\n,,LLC-load-misses ",
	       "page-faults,4:0x1c4,LLC-load-misses",
	       "commas and whitespace split, empty words dropped");
	expect("intel", "cycles,r1a8,page-faults", "cycles,r1a8,page-faults",
	       "names the module knows pass through");
	expect("intel", "4:0x3c,tsc=12:0x1:0x0:0x5",
	       "4:0x3c,tsc=12:0x1:0x0:0x5",
	       "TYPE:CONFIG words pass through");
	expect("intel", "nosuch-event", "nosuch-event",
	       "unknown plain names are the module's to refuse");
	expect("intel", "", "", "empty list");
	expect("intel", " ,\t", "", "separators only");
	expect("intel", "cpu/event=0xc0, umask=0x1/", "4:0x1c0",
	       "whitespace around a term inside the slashes");
	expect("test-pmu", "lttng_calibrate_test/tsc/,lttng_calibrate_test/calls/",
	       "lttng_calibrate_test/tsc/=12:0x1,lttng_calibrate_test/calls/=12:0x2",
	       "two PMU events");
}

static void test_errors(void)
{
	refused("intel", "foo/bar/", "unknown PMU", "'foo/bar/': ",
		"unknown PMU 'foo'", "no ", "/bus/event_source/devices/foo",
		"PMUs: breakpoint, cpu, software, tracepoint", NULL);
	refused("intel", "cycles,cpu/bogus/", "unknown field or event",
		"'cpu/bogus/': ", "unknown field or event 'bogus' of PMU 'cpu'",
		"format: any, cmask, edge,", "events: branch-instructions,",
		NULL);
	refused("intel", "cpu/bogus=1/", "unknown field",
		"unknown field 'bogus' of PMU 'cpu'", "ldlat", "mem-loads",
		NULL);
	refused("intel", "cpu/topdown-total-slots.scale/",
		"a companion file is no alias", "'topdown-total-slots.scale'",
		NULL);
	refused("intel", "cpu/..,event=1/", "no way out of the PMU directory",
		"unknown field or event '..'", NULL);
	refused("test-pmu", "lttng_calibrate_test/tag=0x100/",
		"value too big",
		"value 0x100 too big for field 'tag' (8 bits)", NULL);
	refused("intel", "cpu/frontend=0x1000000/", "value too big, config1",
		"value 0x1000000 too big for field 'frontend' (24 bits)", NULL);
	refused("intel", "cpu/umask=zz/", "bad number", "bad value 'zz'",
		"'umask'", NULL);
	refused("intel", "cpu/event=/", "empty value", "bad value ''", NULL);
	refused("intel", "cpu/event=0x/", "0x without digits",
		"bad value '0x'", NULL);
	refused("intel", "cpu/event=-1/", "negative", "bad value '-1'", NULL);
	refused("intel", "cpu/event=010x/", "junk after digits",
		"bad value '010x'", NULL);
	refused("intel", "cpu/config=0x10000000000000000/", "above 64 bits",
		"bad value '0x10000000000000000'", NULL);
	refused("intel", "cpu/config=18446744073709551616/",
		"decimal above 64 bits", "bad value", NULL);
	refused("intel", "cpu/event=0x3c,cycles", "unterminated",
		"'cpu/event=0x3c,cycles': ", "no closing '/' after 'cpu/'",
		NULL);
	refused("intel", "cpu//", "empty terms",
		"no terms between the slashes: 'cpu//'", NULL);
	refused("intel", "cpu/event=0x3c,,umask=1/", "an empty term",
		"empty term", NULL);
	refused("intel", "cpu/=5/", "a term without a field",
		"term '=5' has no field name", NULL);
	refused("intel", "/event=1/", "no PMU name",
		"no PMU name before the '/'", NULL);
	refused("intel", "cpu/event=0x3c/u", "perf modifiers",
		"'u' after the closing '/'", NULL);
	refused("power", "hv_24x7/PM_PB_CYC/", "alias needing a parameter",
		"event 'PM_PB_CYC' of PMU 'hv_24x7' needs a value for 'chip'",
		"hv_24x7/PM_PB_CYC,chip=VALUE/", NULL);
	refused("intel", "cpu/event=0xc0,name=a=b/", "bad name",
		"bad name 'a=b'", NULL);
	refused("intel", "cpu/event=0xc0,name=a_name_of_more_than_47_characters_is_refused_here/",
		"name too long", "bad name", "1 to 47 characters", NULL);
	refused("intel", "cpu/config3=1/", "config3",
		"config3 is not supported", NULL);
	refused("odd", "odd_pmu/ext=1/", "a field in config3",
		"field 'ext' of PMU 'odd_pmu' is in config3", NULL);
	refused("odd", "odd_pmu/reversed=1/",
		"a format this command cannot read",
		"field 'reversed'", "'config:7-0'", NULL);
	refused("odd", "odd_pmu/colons=1/", "a format with two colons",
		"field 'colons'", "'config:0-3:5'", NULL);
	refused("odd", "odd_pmu/broken/", "a broken alias",
		"event 'broken' of PMU 'odd_pmu'", "unknown field 'bogus'",
		NULL);
	refused("odd", "no_type/config=1/", "a type that is no number",
		"PMU 'no_type'", "not a type number", NULL);
	refused("intel", ".cpu/event=1/", "a PMU name with a leading dot",
		"invalid PMU name '.cpu'", NULL);
	refused("intel", "cycles,cpu/bogus/,foo/x/", "the first bad word",
		"'cpu/bogus/'", NULL);
}

/* The table of --counters in lttng-calibrate(1), row by row. */
static void test_man_page(void)
{
	static const char *const rows[][3] = {
		{ "intel", "cpu/event=0x2e,umask=0x41/",
		  "cpu/cache-misses/=4:0x412e" },
		{ "intel", "cpu/cache-misses/", "cpu/cache-misses/=4:0x412e" },
		{ "intel", "cpu/cache-misses,umask=0x4f/", "4:0x4f2e" },
		{ "intel", "cpu/event=0x3c,inv,cmask=1/", "4:0x180003c" },
		{ "intel", "cpu/mem-loads/", "cpu/mem-loads/=4:0x1cd:0x3" },
		{ "intel", "cpu/event=0xc0,name=insn/", "insn=4:0xc0" },
		{ "amd", "cpu/event=0x1c2/", "4:0x1000000c2" },
		{ "test-pmu", "lttng_calibrate_test/tsc/",
		  "lttng_calibrate_test/tsc/=12:0x1" },
		{ "test-pmu", "lttng_calibrate_test/event=1/",
		  "lttng_calibrate_test/tsc/=12:0x1" },
		{ "test-pmu", "lttng_calibrate_test/tag=7/", "12:0x0:0x0:0x7" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		expect(rows[i][0], rows[i][1], rows[i][2],
		       "lttng-calibrate(1) example");
}

/* The function for one word, and its bounds. */
static void test_event(void)
{
	char out[LC_PMU_EVENT_MAX], small[8], err[LC_PMU_ERR_MAX], root[4096];
	int rc;

	snprintf(root, sizeof(root), "%s/intel", trees);
	rc = lc_pmu_translate_event(root, "cpu/cache-misses/", out, sizeof(out),
				    err, sizeof(err));
	tap_check(!rc && !strcmp(out, "cpu/cache-misses/=4:0x412e"),
	          "lc_pmu_translate_event: one word");
	rc = lc_pmu_translate_event(root, "page-faults", out, sizeof(out), err,
				    sizeof(err));
	tap_check(!rc && !strcmp(out, "page-faults"),
	          "lc_pmu_translate_event: a plain word is copied");
	rc = lc_pmu_translate_event(root, "cpu/cache-misses/", small,
				    sizeof(small), err, sizeof(err));
	tap_check(rc && strstr(err, "does not fit"),
	          "lc_pmu_translate_event: an output buffer too small");
	rc = lc_pmu_translate_event(root, "foo/x/", out, sizeof(out), small,
				    sizeof(small));
	tap_check(rc && strlen(small) == sizeof(small) - 1,
	          "lc_pmu_translate_event: a message cut to its buffer");
	rc = lc_pmu_translate_event("/nonexistent", "cpu/event=1/", out,
				    sizeof(out), err, sizeof(err));
	tap_check(rc && strstr(err, "unknown PMU 'cpu'") && strstr(err, "none"),
	          "lc_pmu_translate_event: a root without PMUs");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pmu-event-test SYSFS_TREES_DIR\n");
		return 2;
	}
	trees = argv[1];
	test_aliases();
	test_fields();
	test_split_ranges();
	test_config_words();
	test_overrides();
	test_names();
	test_lists();
	test_errors();
	test_man_page();
	test_event();
	return tap_exit_status();
}
