// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the counters with the test PMU (lttng_calibrate_test_pmu.ko),
 * a perf PMU of known counts: counts around every call, counters that are
 * scheduled out, fail, are taken away or unloaded as a hardware PMU's
 * are, checked on the run's CPU, read with interrupts off and never shown
 * once lost.  The counters' interface is counters_test.c.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

/*
 * The test PMU (lttng_calibrate_test_pmu.ko) behaves like hardware: a few
 * counters per CPU, events of known counts, and the ways a counter ends up
 * not counting.  Its events are given by type and config, named as the
 * command names them.
 */
FIXTURE(test_pmu) {
	struct env env;
	int type;
	char tsc[96], calls[96], idle[96];
};

FIXTURE_SETUP(test_pmu)
{
	env_setup(_metadata, &self->env);
	self->type = test_pmu_load("counters=2");
	ASSERT_LE(0, self->type);
	test_pmu_event(self->tsc, sizeof(self->tsc), self->type, "tsc", 1, "");
	test_pmu_event(self->calls, sizeof(self->calls), self->type, "calls",
		       2, "");
	test_pmu_event(self->idle, sizeof(self->idle), self->type, "idle", 3,
		       "");
}

FIXTURE_TEARDOWN(test_pmu)
{
	if (self->env.child > 0) {
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, NULL, 0);
		self->env.child = 0;
	}
	write_str(DIR "counters", "\n");
	EXPECT_EQ(0, test_pmu_unload());
	env_teardown(_metadata, &self->env);
}

static void select_list(struct __test_metadata *_metadata, const char *a,
			const char *b, const char *c)
{
	char list[400];

	snprintf(list, sizeof(list), "%s %s %s\n", a, b ? b : "", c ? c : "");
	ASSERT_EQ(0, write_str(DIR "counters", list)) {
		TH_LOG("counters: %s", list);
	}
}

/* The counter's valid flag in results_kv, -1 when absent. */
static long long counter_valid(const char *text, const char *name)
{
	char key[128];

	snprintf(key, sizeof(key), "counter.%s.valid", name);
	return lc_kv_ll(text, key, -1);
}

/*
 * A counter that did not count the whole run: flagged, and none of its
 * figures anywhere (results, results_kv, deltas).
 */
static void expect_withheld(struct __test_metadata *_metadata,
			    const char *name)
{
	char key[128], *text, *line;
	int col = -1, i;
	const char *p;

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, counter_valid(text, name));
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s.counter.%s.", rows[i], name);
		EXPECT_EQ(NULL, strstr(text, key)) {
			TH_LOG("%s in results_kv", key);
		}
	}
	snprintf(key, sizeof(key), "overhead.counter.%s.", name);
	EXPECT_EQ(NULL, strstr(text, key));
	free(text);

	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	snprintf(key, sizeof(key), "\ncounter %s: NOT VALID, figures withheld",
		 name);
	EXPECT_NE(NULL, strstr(text, key));
	snprintf(key, sizeof(key), "overhead per call, counter %s:", name);
	EXPECT_EQ(NULL, strstr(text, key));
	free(text);

	/* Its two columns in deltas read "-" in every row. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	snprintf(key, sizeof(key), "\ttarget.%s\t", name);
	p = strstr(text, key);
	ASSERT_NE(NULL, p);
	col = 0;
	for (; p > text; p--)
		col += p[-1] == '\t';
	col++;
	for (line = strchr(text, '\n'); line && line[1]; ) {
		line++;
		for (p = line, i = 0; i < col; i++)
			p = strchr(p, '\t') + 1;
		EXPECT_EQ(0, strncmp(p, "-\t-", 3)) {
			TH_LOG("deltas row: %.80s", line);
			break;
		}
		line = strchr(line, '\n');
	}
	free(text);
}

/*
 * Counting: read in place around every call.  calls counts exactly one
 * call of the target per iteration, none of the baseline; tsc counts the
 * architecture's counter, which is the clock the cycles rows are timed
 * with on x86, and at its own rate elsewhere.
 */
TEST_F(test_pmu, counts_around_every_call)
{
	long long n = 20000, cyc, tsc;
	char key[128], *text, *line;
	double ratio;
	int r;

	select_list(_metadata, self->tsc, self->calls, NULL);
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, TEST_PMU "/tsc/\t" TEST_PMU "\t0x1\t"));
	free(text);
	ASSERT_EQ(0, run("20000"));
	check_results(_metadata, n);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	for (r = 0; r < 3; r++) {
		snprintf(key, sizeof(key), "counter.%s/calls/", TEST_PMU);
		EXPECT_EQ(n, kv_stat(text, rows[r], key, "count"));
		EXPECT_EQ(r == 1 ? 0 : 1000, kv_stat(text, rows[r], key, "min"));
		EXPECT_EQ(r == 1 ? 0 : 1000, kv_stat(text, rows[r], key, "max"));
	}
	EXPECT_EQ(1000, kv_stat(text, "overhead", "counter." TEST_PMU "/calls/",
				"mean"));
	/*
	 * tsc and the cycles rows time the same windows: their medians
	 * agree, tsc converted to the run's clock.
	 */
	ratio = tsc_per_cycle(text);
	ASSERT_LT(0, ratio);
	cyc = kv_stat(text, "target", "cycles", "median");
	tsc = kv_stat(text, "target", "counter." TEST_PMU "/tsc/", "median") /
	      ratio;
	EXPECT_LT(0, tsc);
	EXPECT_GT(cyc / 4 + 100000 / ratio, llabs(cyc - tsc)) {
		TH_LOG("target median: cycles %lld, tsc %lld in cycles (%.4f a cycle) (thousandths)",
		       cyc, tsc, ratio);
	}
	free(text);

	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU "/tsc/ "));
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU "/calls/ "));
	EXPECT_EQ(NULL, strstr(text, "NOT VALID"));
	free(text);

	/* deltas: calls reads 1 for the target and 0 for the baseline. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ttarget." TEST_PMU "/tsc/\tbaseline."
			       TEST_PMU "/tsc/\ttarget." TEST_PMU "/calls/\t"));
	for (line = strchr(text, '\n'); line && line[1];
	     line = strchr(line + 1, '\n')) {
		long long v[7];
		char *p = line + 1;

		for (r = 0; r < 7; r++)
			v[r] = strtoll(p, &p, 10);
		EXPECT_EQ(1, v[5]);
		EXPECT_EQ(0, v[6]);
		EXPECT_LT(0, v[3]);
		if (v[5] != 1 || v[6] != 0)
			break;
	}
	free(text);
}

/* More pinned events than counters: the extra one never counts. */
TEST_F(test_pmu, more_events_than_counters)
{
	char *text, *line;

	select_list(_metadata, self->tsc, self->calls, self->idle);
	ASSERT_EQ(0, run("2000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_LT(0, kv_stat(text, "target", "counter." TEST_PMU "/tsc/",
			     "median"));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/idle/");
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "counted 0 of ")) {
		line = strstr(text, "\ncounter " TEST_PMU "/idle/: ");
		TH_LOG("%.*s", line ? (int)strcspn(line + 1, "\n") : 0,
		       line ? line + 1 : "");
	}
	free(text);
	/*
	 * With a third counter, all three are scheduled for the whole run;
	 * idle, which then reads 0 all the time, is withheld as a counter
	 * that never counted, not reported as 0.
	 */
	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "3"));
	ASSERT_EQ(0, run("2000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_EQ(1, lc_kv_ll(text, "counter." TEST_PMU "/calls/.counted", -1));
	EXPECT_EQ(0, lc_kv_ll(text, "counter." TEST_PMU "/idle/.counted", -1));
	EXPECT_EQ(lc_kv_ll(text, "counter." TEST_PMU "/idle/.enabled_ns", -1),
		  lc_kv_ll(text, "counter." TEST_PMU "/idle/.running_ns", -2));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/idle/");
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\ncounter " TEST_PMU
			       "/idle/: NOT VALID, figures withheld: never counted"));
	free(text);
}

/* add() fails for fail_add=1: that counter only is withheld. */
TEST_F(test_pmu, add_failing)
{
	char failing[96], *text;

	/* Unnamed, as the command leaves it: PMU:0x1:0x1. */
	snprintf(failing, sizeof(failing), "%d:0x1:0x1", self->type);
	select_list(_metadata, failing, self->calls, NULL);
	ASSERT_EQ(0, run("2000"));
	check_results(_metadata, 2000);
	expect_withheld(_metadata, TEST_PMU ":0x1:0x1");
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/calls/"));
	EXPECT_EQ(1000, kv_stat(text, "difference", "counter." TEST_PMU "/calls/",
				"mean"));
	free(text);
}

/*
 * A counter taken away during the run: another pinned user of the PMU
 * comes on the run's CPU when there are no counters left for it, and perf
 * schedules the CPU's events again.  The run's counter loses its counter;
 * a software counter of the same run stays valid.
 */
TEST_F_TIMEOUT(test_pmu, counter_taken_away_during_run, 120)
{
	struct perf_event_attr attr = {
		.type = self->type,
		.size = sizeof(attr),
		.config = 3,
		.pinned = 1,
	};
	char *text;
	int fd;

	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "1"));
	ASSERT_EQ(0, param_write("cpu", "0"));
	select_list(_metadata, "cpu-clock", self->tsc, NULL);
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(2000, 30000));
	/* Counting so far: its columns in deltas are numbers. */
	text = lc_read_file(DIR "deltas", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "\t-\t"));
	EXPECT_EQ(NULL, strstr(text, "\t-\n"));
	free(text);

	ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "0"));
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	ASSERT_LE(0, fd) {
		TH_LOG("perf_event_open: %s", strerror(errno));
	}
	sleep_ms(200);
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	close(fd);
	ASSERT_TRUE(wait_idle(10000));

	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "run.partial", LLONG_MIN));
	EXPECT_EQ(1, counter_valid(text, "cpu-clock"));
	EXPECT_LT(0, kv_stat(text, "target", "counter.cpu-clock", "count"));
	free(text);
	expect_withheld(_metadata, TEST_PMU "/tsc/");
}

/*
 * The PMU cannot be unloaded while its events are selected or counting;
 * once they are not, it unloads with nothing left behind, and its type
 * number names no PMU any more.
 */
TEST_F_TIMEOUT(test_pmu, unload_while_selected, 120)
{
	char *text;
	int err;

	select_list(_metadata, self->tsc, NULL, NULL);
	err = test_pmu_unload();
	EXPECT_TRUE(err == EAGAIN || err == EBUSY) {
		TH_LOG("unload with its event selected: %s", strerror(err));
	}
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(1000, 30000));
	err = test_pmu_unload();
	EXPECT_TRUE(err == EAGAIN || err == EBUSY) {
		TH_LOG("unload during a run: %s", strerror(err));
	}
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	ASSERT_TRUE(wait_idle(10000));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	free(text);

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	text = lc_read_file("/sys/module/" TEST_PMU_MODULE "/refcnt", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("0\n", text);
	free(text);
	ASSERT_EQ(0, test_pmu_unload());

	/* Its events now name no PMU: refused, the selection unchanged. */
	expect_list_refused(_metadata, self->tsc, ENOENT,
			    "# last list refused: " TEST_PMU
			    "/tsc/: no PMU has this type");
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
	/* Loaded again for the teardown's unload. */
	ASSERT_LE(0, test_pmu_load(""));
}

/* Its calls event needs calls_symbol: none, and it fails to open. */
TEST_F(test_pmu, event_that_cannot_open)
{
	char *before, *after;
	int type;

	EXPECT_EQ(0, test_pmu_unload());
	type = test_pmu_load("calls_symbol=no_such_function_here");
	ASSERT_LE(0, type);
	test_pmu_event(self->calls, sizeof(self->calls), type, "calls", 2, "");
	before = counter_list();
	ASSERT_NE(NULL, before);
	EXPECT_NE(0, write_str(DIR "counters", self->calls));
	after = counter_list();
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

/* Lines of kprobes/list on calls_symbol's default, lttng_calibrate_target. */
static int target_kprobes(void)
{
	char *text = lc_read_file("/sys/kernel/debug/kprobes/list", NULL);
	char *line, *save = NULL;
	int n = 0;

	/*
	 * "ADDRESS  k  SYMBOL+OFFSET  [MODULE] [FLAGS]", the offset past an
	 * endbr64 where the kernel has IBT.
	 */
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		n += !!strstr(line, " lttng_calibrate_target+0x");
	free(text);
	return n;
}

/*
 * The calls event's kprobe is registered when the test PMU loads, not by
 * its ->event_init(): perf calls that for a group's sibling with the
 * leader's ctx->mutex held, and arming a kprobe takes cpus_read_lock(),
 * which CPU hotplug takes before ctx->mutex.  So the kprobe is listed
 * before any calls event exists, and once only while one does.
 */
TEST_F(test_pmu, calls_kprobe_registered_at_load)
{
	EXPECT_EQ(1, target_kprobes());
	select_list(_metadata, self->tsc, self->calls, NULL);
	EXPECT_EQ(1, target_kprobes());
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	EXPECT_EQ(1, target_kprobes());
}

/*
 * Review findings, each with the test that showed it.
 */

/*
 * An unnamed event is named after its PMU and its config words.  With a
 * long PMU name and 64-bit words the name is longer than its buffer: it is
 * cut there, and the kernel log stays clean (an unclamped snprintf() chain
 * made vsnprintf() warn).
 */
TEST_F(test_pmu, long_name_cut_to_its_buffer)
{
	static const char pmu[] = "lttng_calibrate_test_pmu_named_at_length";
	char path[160], word[96], *text, *tab;
	int type;

	EXPECT_EQ(0, test_pmu_unload());
	load_module(TEST_PMU_MODULE, "LTTNG_CALIBRATE_TEST_PMU_KO",
		    "name=lttng_calibrate_test_pmu_named_at_length");
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	text = lc_read_file(path, NULL);
	ASSERT_NE(NULL, text);
	type = atoi(text);
	free(text);
	snprintf(word, sizeof(word), "%d:0x1:0xfffffffffffffffe:0x7", type);
	ASSERT_EQ(0, write_str(DIR "counters", word));
	text = counter_list();
	ASSERT_NE(NULL, text);
	tab = strchr(text, '\t');
	ASSERT_NE(NULL, tab);
	/* 47 characters: the PMU's 31 first, ":0x1", then what fits. */
	EXPECT_EQ(47, tab - text);
	EXPECT_EQ(0, strncmp(text, pmu, 31));
	EXPECT_EQ(0, strncmp(text + 31, ":0x1:0xfffff", 12));
	free(text);
	ASSERT_EQ(0, run("100"));
	check_results(_metadata, 100);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
}

/*
 * Counters are checked on the CPU runs count on, not on the writer's: a
 * PMU of CPU 1 only (as a hybrid machine's PMU of one kind of core) is
 * accepted from a writer on CPU 0 when runs are bound to CPU 1, counts
 * there, and moving runs to CPU 0 is refused while it is selected.
 */
TEST_F(test_pmu, counters_checked_on_the_runs_cpu)
{
	char *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	EXPECT_EQ(0, test_pmu_unload());
	ASSERT_EQ(self->type, test_pmu_load("cpus=2"));
	pin_to(_metadata, 0);
	ASSERT_EQ(0, param_write("cpu", "1"));
	EXPECT_EQ(0, write_str(DIR "counters", self->tsc));
	EXPECT_EQ(0, run("1000"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "run.cpu", LLONG_MIN));
	EXPECT_EQ(1, counter_valid(text, TEST_PMU "/tsc/"));
	free(text);
	/* Not on CPU 0: the move is refused, the setting stays. */
	EXPECT_EQ(ENOENT, param_write("cpu", "0"));
	EXPECT_EQ(1, param_read("cpu"));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "on CPU 0)"));
	free(text);
	/* Without the selection, CPU 0 is fine again. */
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	EXPECT_EQ(0, param_write("cpu", "0"));
	unpin();
}

/*
 * With cpu -1 a run goes to the CPU its writer is on, any of them: the
 * counters are checked on every online CPU.  A PMU of CPU 0 only is
 * refused from a writer on CPU 0, and counters says where it does not
 * open; with runs bound to CPU 0 it is accepted.
 */
TEST_F(test_pmu, cpu_minus_1_checks_every_online_cpu)
{
	char *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	EXPECT_EQ(0, test_pmu_unload());
	ASSERT_EQ(self->type, test_pmu_load("cpus=1"));
	pin_to(_metadata, 0);
	EXPECT_EQ(ENOENT, write_str(DIR "counters", self->tsc));
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "# last list refused: " TEST_PMU)) {
		TH_LOG("counters:\n%s", text);
	}
	EXPECT_NE(NULL, strstr(text, "on CPU 1; with cpu -1"));
	free(text);
	ASSERT_EQ(0, param_write("cpu", "0"));
	EXPECT_EQ(0, write_str(DIR "counters", self->tsc));
	/* Back to -1: checked everywhere again, refused, the setting stays. */
	EXPECT_EQ(ENOENT, param_write("cpu", "-1"));
	EXPECT_EQ(0, param_read("cpu"));
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	EXPECT_EQ(0, param_write("cpu", "-1"));
	unpin();
}

/*
 * A CPU that comes online after the selection was checked (with cpu -1)
 * may not host the counters: a run written from it measures without the
 * counter, and its own result says which and why (counter.NAME.refused,
 * the errno; "results" in words), not a note shared by every run.  The
 * next run whose counters open says nothing of it.
 */
TEST_F(test_pmu, counter_refused_on_the_runs_cpu_is_in_its_result)
{
	const char *key = "counter." TEST_PMU "/tsc/.refused";
	const char *valid = "counter." TEST_PMU "/tsc/.valid";
	char *text;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU");
	EXPECT_EQ(0, test_pmu_unload());
	ASSERT_EQ(self->type, test_pmu_load("cpus=1"));
	pin_to(_metadata, 0);
	ASSERT_EQ(0, cpu_online_set(1, 0));
	self->env.offlined = 1;
	EXPECT_EQ(0, write_str(DIR "counters", self->tsc));
	ASSERT_EQ(0, cpu_online_set(1, 1));
	self->env.offlined = -1;
	pin_to(_metadata, 1);
	EXPECT_EQ(0, run("100"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(1, lc_kv_ll(text, "run.cpu", -1));
	EXPECT_TRUE(lc_kv_is(text, "run.state", "complete"));
	EXPECT_EQ(100, lc_kv_ll(text, "run.iterations.done", -1));
	EXPECT_LT(0, lc_kv_ll(text, key, -1)) {
		TH_LOG("results_kv:\n%s", text);
	}
	EXPECT_EQ(0, lc_kv_ll(text, valid, -1));
	EXPECT_EQ(NULL, lc_kv_value(text, "target.counter." TEST_PMU
					  "/tsc/.mean", NULL));
	free(text);
	text = lc_read_file(DIR "results", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "NOT VALID, figures withheld: did not open on CPU 1: ")) {
		TH_LOG("results:\n%s", text);
	}
	free(text);
	text = lc_read_file(DIR "counters", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "refused")) {
		TH_LOG("counters:\n%s", text);
	}
	free(text);
	pin_to(_metadata, 0);
	EXPECT_EQ(0, run("100"));
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, lc_kv_ll(text, key, -1));
	EXPECT_EQ(1, lc_kv_ll(text, valid, -1));
	free(text);
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	unpin();
}

/* The test PMU's count of reads made with interrupts on; -1 unread. */
static int reads_irqs_on(void)
{
	char *text = lc_read_file(TEST_PMU_PARAMS "reads_irqs_on", NULL);
	int n = text ? atoi(text) : -1;

	free(text);
	return n;
}

/* With "irqs" enabled, counters are still read with interrupts off. */
TEST_F(test_pmu, counters_read_with_irqs_off)
{
	ASSERT_EQ(0, write_str(DIR "irqs", "enabled"));
	select_list(_metadata, self->tsc, self->calls, NULL);
	ASSERT_EQ(0, run("2000"));
	check_results(_metadata, 2000);
	EXPECT_EQ(0, reads_irqs_on());
	ASSERT_EQ(0, write_str(DIR "irqs", "disabled"));
	ASSERT_EQ(0, run("2000"));
	EXPECT_EQ(0, reads_irqs_on());
}

/*
 * Rows of deltas whose column @col (0 based) is neither "-" nor above 0;
 * -1 when the file cannot be read.
 */
static int bad_rows(int col)
{
	char *text = lc_read_file(DIR "deltas", NULL), *line, *p;
	int bad = 0, i;

	if (!text)
		return -1;
	for (line = strchr(text, '\n'); line && line[1];
	     line = strchr(line + 1, '\n')) {
		for (p = line + 1, i = 0; p && i < col; i++) {
			p = strchr(p, '\t');
			if (p)
				p++;
		}
		if (p && *p != '-' && strtoll(p, NULL, 10) <= 0)
			bad++;
	}
	free(text);
	return bad;
}

/*
 * A counter found not counting is withheld in deltas from the very row it
 * was found in: a reader never sees the zeros it read while lost, not
 * even until the end of that chunk.  The tsc counter's deltas are above 0
 * whenever it counts.
 */
TEST_F_TIMEOUT(test_pmu, lost_counter_never_shown_in_deltas, 120)
{
	struct perf_event_attr attr = {
		.type = self->type,
		.size = sizeof(attr),
		.config = 3,
		.pinned = 1,
	};
	int round, fd, bad = 0, reads = 0;
	long long end;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		SKIP(return, "needs a second CPU to read from");
	pin_to(_metadata, 1);
	ASSERT_EQ(0, param_write("deltas_window", "64"));
	ASSERT_EQ(0, param_write("cpu", "0"));
	for (round = 0; round < 4 && !bad; round++) {
		ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "1"));
		select_list(_metadata, self->tsc, NULL, NULL);
		self->env.child = start_run(LONG_RUN);
		ASSERT_LT(0, self->env.child);
		ASSERT_TRUE(wait_running(2000, 30000));
		/* Columns: iteration, 2 of cycles, then target.tsc. */
		EXPECT_EQ(0, bad_rows(3));
		ASSERT_EQ(0, write_str(TEST_PMU_PARAMS "counters", "0"));
		fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
		ASSERT_LE(0, fd);
		for (end = now_ms() + 300; now_ms() < end && !bad; reads++)
			bad = bad_rows(3);
		close(fd);
		kill(self->env.child, SIGKILL);
		waitpid(self->env.child, NULL, 0);
		self->env.child = 0;
		ASSERT_TRUE(wait_idle(10000));
		ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	}
	EXPECT_EQ(0, bad) {
		TH_LOG("a lost counter's zeros shown in deltas (after %d reads)",
		       reads);
	}
	unpin();
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
