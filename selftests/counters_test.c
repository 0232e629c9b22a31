// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the counters a run reads around every call: the events file,
 * software and hardware perf events, rejected counter lists and PMUs that
 * take pointers.  The counters of the test PMU, scheduled out, failing,
 * taken away or unloaded as a hardware PMU's are, are tested in
 * pmu_test.c.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

ENV_FIXTURE(calib)

/*
 * Every name the events file lists is one counters takes: selected alone it
 * is counted (a software event), or refused because this machine cannot
 * count it (ENOENT, EOPNOTSUPP: hardware events under QEMU), never as an
 * unknown name (EINVAL).
 */
TEST_F(calib, events_are_names_counters_takes)
{
	char *text = lc_read_file(DIR "events", NULL), *line, *save = NULL;
	int n = 0, counted = 0, err;

	ASSERT_NE(NULL, text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		n++;
		err = write_str(DIR "counters", line);
		EXPECT_TRUE(!err || err == ENOENT || err == EOPNOTSUPP) {
			TH_LOG("%s: %s", line, strerror(err));
		}
		counted += !err;
	}
	free(text);
	EXPECT_EQ(0, write_str(DIR "counters", "\n"));
	/* perf's 24 named events and 7 caches x 6 operations */
	EXPECT_EQ(24 + 7 * 6, n);
	/* the software events at least */
	EXPECT_LE(10, counted);
}

TEST_F(calib, software_counters)
{
	static const char *const names[] = {
		"page-faults", "context-switches", "cpu-clock"
	};
	long long n = 100000, ns, clk;
	char key[96], *text;
	size_t i;
	int r;

	ASSERT_EQ(0, write_str(DIR "counters",
			       "page-faults context-switches cpu-clock\n"));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	for (i = 0; i < 3; i++)
		EXPECT_NE(NULL, strstr(text, names[i]));
	EXPECT_EQ(3, count_lines(text));
	free(text);

	ASSERT_EQ(0, run("100000"));
	check_results(_metadata, n);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, lc_kv_value(text, "counters", NULL));
	EXPECT_TRUE(lc_kv_is(text, "counters",
			     "page-faults,context-switches,cpu-clock"));
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "counter.%s.valid", names[i]);
		EXPECT_EQ(1, lc_kv_ll(text, key, LLONG_MIN));
		/* A software event's 0 is a count, not a counter that
		 * does not count.
		 */
		snprintf(key, sizeof(key), "counter.%s.counted", names[i]);
		EXPECT_EQ(1, lc_kv_ll(text, key, LLONG_MIN));
		for (r = 0; r < 3; r++) {
			snprintf(key, sizeof(key), "counter.%s", names[i]);
			EXPECT_EQ(n, kv_stat(text, rows[r], key, "count"));
		}
	}
	/* Nothing faults or switches in an empty function, preemption off. */
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "counter.%s", names[i]);
		for (r = 0; r < 3; r++) {
			EXPECT_EQ(0, kv_stat(text, rows[r], key, "median"));
			EXPECT_EQ(0, kv_stat(text, rows[r], key, "p99"));
			EXPECT_GE(10, kv_stat(text, rows[r], key, "mean"));
		}
	}
	/* cpu-clock counts ns: in line with the ns timing of the target. */
	ns = kv_stat(text, "target", "ns", "median");
	clk = kv_stat(text, "target", "counter.cpu-clock", "median");
	EXPECT_LT(ns / 2, clk);
	EXPECT_GT(ns * 2, clk);
	free(text);
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter page-faults "));
	EXPECT_NE(NULL, strstr(text, "\ncounter cpu-clock "));
	free(text);
}

#define LLC_MISSES(op) \
	(PERF_COUNT_HW_CACHE_LL | (op) << 8 | PERF_COUNT_HW_CACHE_RESULT_MISS << 16)

/* Hardware events, with the perf type and config their names stand for. */
static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} hardware_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_READ) },
	{ "LLC-store-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_WRITE) },
	{ "LLC-prefetch-misses", PERF_TYPE_HW_CACHE,
	  LLC_MISSES(PERF_COUNT_HW_CACHE_OP_PREFETCH) },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "r1c2", PERF_TYPE_RAW, 0x1c2 },
};

/*
 * Each hardware event the machine cannot count fails cleanly: every one
 * without a PMU (x86 under QEMU TCG), those its PMU lacks where it has one
 * (instructions on arm64 under TCG without -icount), as the kernel answers
 * when asked directly.
 */
TEST_F(calib, hardware_counters_refused_without_pmu)
{
	char *before, *after, *text;
	size_t i, refused = 0;
	int err;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	for (i = 0; i < ARRAY_SIZE(hardware_events); i++) {
		if (!perf_event_answer(hardware_events[i].type,
				       hardware_events[i].config))
			continue;
		refused++;
		err = write_str(DIR "counters", hardware_events[i].name);
		EXPECT_TRUE(err == ENOENT || err == EOPNOTSUPP ||
			    err == EINVAL) {
			TH_LOG("%s: %s", hardware_events[i].name,
			       strerror(err));
		}
		after = counter_list();
		ASSERT_NE(NULL, after);
		EXPECT_STREQ(before, after);
		free(after);
		text = lc_read_file(DIR "counters", NULL);
		ASSERT_NE(NULL, text);
		EXPECT_NE(NULL, strstr(text, "# last list refused: "));
		EXPECT_NE(NULL, strstr(text, hardware_events[i].name));
		free(text);
	}
	free(before);
	if (!refused)
		SKIP(return, "the PMU counts each hardware event: see hardware_counters_count");
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
}

/*
 * Counters of a PMU count around every call: the machine's own (cycles and
 * instructions, each where its PMU counts it), or, where it has none (QEMU
 * TCG on x86), the test PMU's (TSC cycles and calls of the target).
 */
TEST_F(calib, hardware_counters_count)
{
	char tsc[96], calls[96], list[200], *text;
	const char *a = "counter.cycles", *b = "counter.instructions";
	int type = -1;

	if (pmu_present()) {
		if (perf_event_answer(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_CPU_CYCLES))
			a = NULL;
		if (perf_event_answer(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_INSTRUCTIONS))
			b = NULL;
		snprintf(list, sizeof(list), "%s %s\n", a ? "cycles" : "",
			 b ? "instructions" : "");
		ASSERT_EQ(0, write_str(DIR "counters", list));
	} else {
		type = test_pmu_load("");
		ASSERT_LE(0, type);
		snprintf(list, sizeof(list), "%s %s\n",
			 test_pmu_event(tsc, sizeof(tsc), type, "tsc", 1, ""),
			 test_pmu_event(calls, sizeof(calls), type, "calls", 2,
					""));
		ASSERT_EQ(0, write_str(DIR "counters", list));
		a = "counter." TEST_PMU "/tsc/";
		b = "counter." TEST_PMU "/calls/";
	}
	ASSERT_EQ(0, run("10000"));
	check_results(_metadata, 10000);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	if (a)
		EXPECT_LT(0, kv_stat(text, "target", a, "median"));
	if (b)
		EXPECT_LT(0, kv_stat(text, "target", b, "median"));
	free(text);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	if (type >= 0)
		EXPECT_EQ(0, test_pmu_unload());
}

ENV_FIXTURE(bad_counters)

FIXTURE_VARIANT(bad_counters) {
	const char *input;
	size_t len;
	int err;
};

#define BAD_LIST(name, text, e) \
	FIXTURE_VARIANT_ADD(bad_counters, name) { .input = text, .err = e }

BAD_LIST(unknown, "page-faults bogus-event\n", EINVAL);
BAD_LIST(partial_name, "page-fau", EINVAL);
BAD_LIST(duplicate, "cpu-clock page-faults cpu-clock\n", EINVAL);
BAD_LIST(too_many, "cpu-clock task-clock page-faults context-switches "
	 "cpu-migrations minor-faults major-faults alignment-faults "
	 "emulation-faults\n", E2BIG);
BAD_LIST(garbage, "\x01\xfe\x80\n", EINVAL);
BAD_LIST(bad_raw, "rxyz\n", EINVAL);
BAD_LIST(too_long,
	 "cpu-clock                                                       "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                "
	 "                                                                ",
	 EINVAL);
BAD_LIST(generic_no_config, "1:\n", EINVAL);
BAD_LIST(generic_no_type, ":0x1\n", EINVAL);
BAD_LIST(generic_bare_0x, "1:0x\n", EINVAL);
BAD_LIST(generic_17_digits, "1:0x12345678901234567\n", EINVAL);
BAD_LIST(generic_decimal_too_big, "1:18446744073709551616\n", EINVAL);
BAD_LIST(generic_leading_zero, "1:01\n", EINVAL);
BAD_LIST(generic_five_words, "1:0x1:0x2:0x3:0x4\n", EINVAL);
BAD_LIST(generic_sign, "1:-1\n", EINVAL);
BAD_LIST(generic_type_too_big, "4294967296:0x1\n", EINVAL);
BAD_LIST(generic_same_as_named, "cpu-clock 1:0x0\n", EINVAL);
BAD_LIST(generic_same_twice, "a=1:0x2 b=1:2\n", EINVAL);
BAD_LIST(generic_no_such_type, "2147483647:0x1\n", ENOENT);
/*
 * config1 has every bit but bit 1: the arm64 PMU driver (armv8_pmuv3)
 * reads that bit, "rdpmc", before the type, and refuses a CPU-wide event
 * that asks for it with EINVAL, for all types; without it, every PMU
 * refuses the type with ENOENT, on every architecture.
 */
BAD_LIST(generic_longest_no_such_type,
	 "x=4294967295:0xffffffffffffffff:0xfffffffffffffffd:0xffffffffffffffff\n",
	 ENOENT);
BAD_LIST(label_on_named_event, "clock=cpu-clock\n", EINVAL);
BAD_LIST(label_is_an_event, "page-faults=1:0x0\n", EINVAL);
BAD_LIST(label_empty, "=1:0x0\n", EINVAL);
BAD_LIST(label_bad_character, "a;b=1:0x0\n", EINVAL);
BAD_LIST(label_too_long,
	 "a23456789012345678901234567890123456789012345678=1:0x0\n", EINVAL);
BAD_LIST(label_twice, "x=1:0x0 x=1:0x3\n", EINVAL);
BAD_LIST(two_equals, "x=y=1:0x0\n", EINVAL);
FIXTURE_VARIANT_ADD(bad_counters, nul_byte) {
	.input = "cpu-clock\0page-faults", .len = 21, .err = EINVAL
};

TEST_F(bad_counters, list_unchanged)
{
	char *before, *after;
	size_t len;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults,cpu-clock\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	EXPECT_EQ(2, count_lines(before));

	len = variant->len ? variant->len : strlen(variant->input);
	EXPECT_EQ(variant->err, lc_write_file(DIR "counters", variant->input,
					    len));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

TEST_F(calib, empty_list_clears_counters)
{
	char *text;

	ASSERT_EQ(0, write_str(DIR "counters", "page-faults\n"));
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	text = counter_list();
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("", text);
	free(text);
	ASSERT_EQ(0, run("10"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(lc_kv_is(text, "counters", ""));
	EXPECT_EQ(NULL, strstr(text, "counter."));
	free(text);
}

TEST_F_TIMEOUT(calib, counters_busy_during_run, 120)
{
	char *before, *after;

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	before = counter_list();
	ASSERT_NE(NULL, before);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(0, 30000));
	EXPECT_EQ(EBUSY, write_str(DIR "counters", "page-faults\n"));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

/* The address of @text, as a config word. */
static void pointer_word(char *buf, size_t size, const char *pmu,
			 const char *text, unsigned long long config2)
{
	char path[128], *type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	type = lc_read_file(path, NULL);
	snprintf(buf, size, "%d:0x0:0x%llx:0x%llx", type ? atoi(type) : -1,
		 (unsigned long long)(uintptr_t)text, config2);
	free(type);
}

/*
 * The kprobe and uprobe PMUs take a pointer into the opener's memory in
 * config1; every run opens its events again from the run's writer, where
 * that pointer means nothing.  They are refused, with the reason.
 */
TEST_F(calib, pointer_taking_pmus_refused)
{
	static const char func[] = "lttng_calibrate_target";
	static const char path[] = "/bin/sh";
	const char *pmus[] = { "kprobe", "uprobe" };
	char word[128];
	int i, tested = 0;

	for (i = 0; i < 2; i++) {
		if (access(i ? "/sys/bus/event_source/devices/uprobe" :
			   "/sys/bus/event_source/devices/kprobe", F_OK))
			continue;
		pointer_word(word, sizeof(word), pmus[i], i ? path : func, 0);
		expect_list_refused(_metadata, word, EOPNOTSUPP, pmus[i]);
		tested++;
	}
	if (!tested)
		SKIP(return, "this kernel has neither a kprobe nor a uprobe PMU");
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
