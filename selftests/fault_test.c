// SPDX-License-Identifier: GPL-2.0
/*
 * Every allocation failure, injected: for each operation that changes the
 * module's state, the way syzkaller does it.  For N = 1, 2, ... this thread
 * writes N to /proc/thread-self/fail-nth (the N-th fault site it reaches
 * fails: failslab, fail_page_alloc), does the operation, and reads back
 * whether a fault was injected; it stops at the first N with no fault
 * injected, where the operation must have succeeded.  Every time:
 *
 *  - an operation that failed gave an errno and changed nothing anyone can
 *    read: the settings files, the parameters, results_kv and deltas read
 *    as before;
 *  - one that succeeded despite the fault is undone for the next N; a
 *    module load that succeeded has every file of its interface, one that
 *    failed left neither its debugfs directory nor its sysfs one;
 *  - the kernel log gained no warning, BUG or sanitizer report.
 *
 * It prints the number of fault sites of each operation.  At the end,
 * kmemleak (where the kernel has it) must find no leak.
 *
 * A module load's sites are those of the module's init function only (see
 * sweep_init()): the module loader's own are the kernel's, and a sweep of
 * them meets the kernel's own bugs (tools/testing/fault-sweep-insmod sweeps them;
 * the guide lists what it found, "What the fault stage leaves out").
 *
 * Where the kernel has no fault injection (Debian's own kernels) it skips.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define MAX_SITES	20000

/* The state a failed operation must leave as it was. */
static char *state(void)
{
	static const char *const files[] = {
		DIR "probe", DIR "target", DIR "irqs", DIR "work_cycles",
		DIR "counters", DIR "results_kv", DIR "deltas",
		PARAMS "cpu", PARAMS "max_iterations",
		PARAMS "chunk_iterations", PARAMS "deltas_window",
	};
	size_t len = 0, i, n;
	char *all = NULL, *text, *grown;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		text = lc_read_file(files[i], NULL);
		/* Its refusal note says why a list failed: the selection. */
		if (text && !strcmp(files[i], DIR "counters"))
			strip_comments(text);
		n = strlen(files[i]) + 2 + (text ? strlen(text) : 6);
		grown = realloc(all, len + n + 1);
		if (!grown) {
			free(text);
			free(all);
			return NULL;
		}
		all = grown;
		len += sprintf(all + len, "%s\n%s\n", files[i],
			       text ? text : "(none)");
		free(text);
	}
	return all;
}

/* Writes @v to one of the fault-injection debugfs attributes. */
static void fault_attr(const char *attr, const char *v)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/failslab/%s", attr);
	write_str(path, v);
	snprintf(path, sizeof(path), "/sys/kernel/debug/fail_page_alloc/%s",
		 attr);
	write_str(path, v);
}

/*
 * One operation: @prepare (may be NULL) sets it up, @run does it and
 * returns 0 or an errno; @check (may be NULL) says what is wrong after it
 * (NULL when nothing is), given its errno; @undo (may be NULL) puts the
 * state back after it succeeded.
 */
struct op {
	const char *name;
	int (*prepare)(void);
	int (*run)(void);
	const char *(*check)(int err);
	void (*undo)(void);
};

static int test_pmu_type_now;

static int w(const char *file, const char *v)
{
	return write_str(file, v);
}

static int op_probe(void) { return w(DIR "probe", "kprobe"); }
static int op_target(void) { return w(DIR "target", "tracepoint"); }
static int op_irqs(void) { return w(DIR "irqs", "enabled"); }
static int op_work(void) { return w(DIR "work_cycles", "100"); }
static int op_cpu(void) { return w(PARAMS "cpu", "0"); }
static int op_window(void) { return w(PARAMS "deltas_window", "100"); }
static int op_chunk(void) { return w(PARAMS "chunk_iterations", "500"); }
static void undo_probe(void) { w(DIR "probe", "none"); }
static void undo_target(void) { w(DIR "target", "function"); }
static void undo_irqs(void) { w(DIR "irqs", "disabled"); }
static void undo_work(void) { w(DIR "work_cycles", "0"); }
static void undo_cpu(void) { w(PARAMS "cpu", "-1"); }
static void undo_window(void) { w(PARAMS "deltas_window", "1000"); }
static void undo_chunk(void) { w(PARAMS "chunk_iterations", "10000"); }
static void undo_counters(void) { w(DIR "counters", "\n"); }

static int op_counters_sw(void)
{
	return w(DIR "counters", "cpu-clock page-faults");
}

static int op_counters_generic(void)
{
	return w(DIR "counters", "sw=1:0x0");
}

static int op_counters_test_pmu(void)
{
	char word[64];

	snprintf(word, sizeof(word), "tsc=%d:0x1 calls=%d:0x2",
		 test_pmu_type_now, test_pmu_type_now);
	return w(DIR "counters", word);
}

static int mechanism;
static const char *const mechanisms[] = {
	"kprobe", "kretprobe", "fprobe", "fprobe-exit",
};
/*
 * Where each mechanism's run takes faults, through the stack filter:
 *  - @reject: none in this kernel function.  A probe's unregistration
 *    cannot fail cleanly (a kprobe whose disarm fails stays registered);
 *    nor, in 7.2, can registering the function-graph tracer that an fprobe
 *    with an exit handler uses: when ftrace_startup_subops() fails,
 *    register_ftrace_graph() leaves FTRACE_OPS_FL_GRAPH set on fprobe's
 *    graph ops, and every later registration is refused (EBUSY, "function
 *    graph ops registered again");
 *  - @require: only in this function, or anywhere (NULL).  fprobe-exit's
 *    run takes faults in its set-up only, which keeps them out of its
 *    unregistration too; the run's other sites are those of the other
 *    mechanisms, swept with them.
 */
static const struct {
	const char *reject;
	const char *require;
} fault_sites[] = {
	{ "__unregister_kprobe_top", NULL },
	{ "__unregister_kprobe_top", NULL },
	{ "unregister_fprobe", NULL },
	{ "register_ftrace_graph", "lttng_calibrate_probe_setup" },
};

/*
 * [start, end) of the kernel function @name, from /proc/kallsyms: its
 * address and the next one up.  False when it is not there.
 */
static bool function_range(const char *name, unsigned long long *start,
			   unsigned long long *end)
{
	unsigned long long a, next = ~0ULL;
	char type, sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	bool found = false;

	if (!f)
		return false;
	*start = 0;
	while (fscanf(f, "%llx %c %255s%*[^\n]", &a, &type, sym) == 3) {
		if (!found && !strcmp(sym, name)) {
			*start = a;
			found = true;
		}
	}
	rewind(f);
	while (found && fscanf(f, "%llx %c %255s%*[^\n]", &a, &type, sym) == 3)
		if (a > *start && a < next)
			next = a;
	fclose(f);
	*end = next;
	return found && *start && next != ~0ULL;
}

/*
 * Faults only where the stack, in its 32 innermost frames, goes through the
 * kernel function @name (@how "require") or does not (@how "reject").
 * False when the kernel has no stack filter or no such function: then no
 * filter is set.
 */
static bool filter_faults(const char *how, const char *name)
{
	unsigned long long start, end;
	char attr[64], v[32];

	snprintf(attr, sizeof(attr), "/sys/kernel/debug/failslab/%s-start",
		 how);
	if (access(attr, W_OK) || !function_range(name, &start, &end))
		return false;
	fault_attr("stacktrace-depth", "32");
	snprintf(attr, sizeof(attr), "%s-start", how);
	snprintf(v, sizeof(v), "%llu", start);
	fault_attr(attr, v);
	snprintf(attr, sizeof(attr), "%s-end", how);
	snprintf(v, sizeof(v), "%llu", end);
	fault_attr(attr, v);
	return true;
}

/* Faults anywhere again: the stack filter's defaults. */
static void unfilter_faults(void)
{
	fault_attr("reject-start", "0");
	fault_attr("reject-end", "0");
	fault_attr("require-start", "0");
	fault_attr("require-end", "18446744073709551615");
}

static int prepare_mechanism(void)
{
	return w(DIR "probe", mechanisms[mechanism]);
}

static int op_run(void)
{
	return run("20");
}

static int prepare_counted_run(void)
{
	char word[64];

	snprintf(word, sizeof(word), "cpu-clock tsc=%d:0x1",
		 test_pmu_type_now);
	return w(PARAMS "deltas_window", "16") ?: w(DIR "counters", word);
}

static int read_whole(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY), err = 0;

	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

static int op_read_results(void) { return read_whole(DIR "results"); }
static int op_read_results_kv(void) { return read_whole(DIR "results_kv"); }
static int op_read_deltas(void) { return read_whole(DIR "deltas"); }

#define OP(n, p, r, u) { .name = n, .prepare = p, .run = r, .undo = u }
#define OP_CHECKED(n, p, r, c, u) \
	{ .name = n, .prepare = p, .run = r, .check = c, .undo = u }

static const struct op ops[] = {
	OP("probe kprobe", NULL, op_probe, undo_probe),
	OP("target tracepoint", NULL, op_target, undo_target),
	OP("irqs enabled", NULL, op_irqs, undo_irqs),
	OP("work_cycles 100", NULL, op_work, undo_work),
	OP("cpu 0", NULL, op_cpu, undo_cpu),
	OP("deltas_window 100", NULL, op_window, undo_window),
	OP("chunk_iterations 500", NULL, op_chunk, undo_chunk),
	OP("counters by perf name", NULL, op_counters_sw, undo_counters),
	OP("counters by TYPE:CONFIG", NULL, op_counters_generic, undo_counters),
	OP("counters of the test PMU", NULL, op_counters_test_pmu, undo_counters),
	OP("run, no probe", NULL, op_run, NULL),
	OP("run, counters and deltas", prepare_counted_run, op_run, NULL),
	OP("open and read results", NULL, op_read_results, NULL),
	OP("open and read results_kv", NULL, op_read_results_kv, NULL),
	OP("open and read deltas", NULL, op_read_deltas, NULL),
};

/*
 * A SKIP in a fixture's setup does not keep the harness (6.1's) from
 * running the test: each test says it again.
 */
#define REQUIRE_FAULT_INJECTION() do {					\
	if (access(FAIL_NTH, W_OK))					\
		SKIP(return, "this kernel has no fault injection (CONFIG_FAULT_INJECTION, FAILSLAB)"); \
} while (0)

FIXTURE(fault) {
	struct env env;
	int fail_nth;
	pid_t helper[2];
};

FIXTURE_SETUP(fault)
{
	if (access(FAIL_NTH, W_OK))
		SKIP(return, "this kernel has no fault injection (CONFIG_FAULT_INJECTION, FAILSLAB)");
	env_setup(_metadata, &self->env);
	self->fail_nth = open(FAIL_NTH, O_RDWR);
	ASSERT_LE(0, self->fail_nth);
	/* Fail sleeping allocations too, of any order, quietly. */
	fault_attr("ignore-gfp-wait", "N");
	fault_attr("min-order", "0");
	fault_attr("verbose", "0");
	test_pmu_type_now = test_pmu_load("");
	ASSERT_LE(0, test_pmu_type_now);
	ASSERT_EQ(0, run("10"));
}

/*
 * kmemleak, where the kernel has it: after every operation of a test, with
 * every fault, nothing unreferenced is left.  Objects younger than 5 s are
 * not reported: it waits that long first.
 */
/* Kills the helper processes a test started, and brings CPU 1 back. */
static void stop_helpers(pid_t *helper, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (helper[i] > 0) {
			kill(helper[i], SIGKILL);
			waitpid(helper[i], NULL, 0);
			helper[i] = 0;
		}
	}
	if (sysconf(_SC_NPROCESSORS_CONF) >= 2)
		cpu_online_set(1, 1);
}

FIXTURE_TEARDOWN(fault)
{
	if (access(FAIL_NTH, W_OK))
		return;
	stop_helpers(self->helper, ARRAY_SIZE(self->helper));
	unfilter_faults();
	write_str(DIR "counters", "\n");
	test_pmu_unload();
	close(self->fail_nth);
	expect_no_leak(_metadata);
	env_teardown(_metadata, &self->env);
}

/*
 * Operation @op with the @n-th fault site failing.  Returns its errno in
 * *err and whether a fault was injected.
 */
static bool inject(int fail_nth, int n, int (*run_op)(void), int *err)
{
	char buf[32];
	ssize_t len;

	len = snprintf(buf, sizeof(buf), "%d", n);
	if (pwrite(fail_nth, buf, len, 0) != len)
		return false;
	*err = run_op();
	len = pread(fail_nth, buf, sizeof(buf) - 1, 0);
	pwrite(fail_nth, "0", 1, 0);
	buf[len > 0 ? len : 0] = '\0';
	return len > 0 && atoi(buf) == 0;
}

/*
 * The kernel's own reports of a fault it was given, not the module's:
 *  - the page allocator's notice of a failed allocation, warn_alloc()'s
 *    ("page allocation failure", or "vmalloc error" when kvmalloc() falls
 *    back to vmalloc(); its stack, then "Mem-Info:"), which an injected
 *    failure gets like a real one;
 *  - the warning of event_define_fields() (once per boot, "error code is
 *    -12") when registering a module's trace event fails;
 *  - the warning of kprobes when arming a kprobe on ftrace fails ("Failed
 *    to arm kprobe-ftrace"): the registration then fails cleanly.
 * fprobe's WARN_ON_ONCE() when register_ftrace_graph() fails is not among
 * them: faults are kept out of that function (fault_sites).
 * Records from @fd on hold no report but these; each is said when seen.
 * Returns 1 for any other.
 */
static const char *const kernels_own[][2] = {
	{ "page allocation failure", "Mem-Info:" },
	{ "vmalloc error", "Mem-Info:" },
	{ "event_define_fields", "end trace" },
	{ "Failed to arm kprobe-ftrace", "end trace" },
};

static int kmsg_errors_but_kernels_own(int fd, const char *op, int n)
{
	const char *until = NULL;
	char rec[8192], prev[8192] = "";
	unsigned int i;
	int bad = 0;

	for (; kmsg_next(fd, rec, sizeof(rec)); strcpy(prev, rec)) {
		for (i = 0; !until && i < ARRAY_SIZE(kernels_own); i++) {
			if (!strstr(rec, kernels_own[i][0]))
				continue;
			fprintf(stderr, "# %s, fault site %d: the kernel's own report, not the module's: %s",
				op, n, rec);
			until = kernels_own[i][1];
		}
		if (until) {
			if (strstr(rec, until))
				until = NULL;
			continue;
		}
		if (lc_kmsg_match(rec)) {
			/* The line before a stack says whose it is. */
			if (!bad)
				fprintf(stderr, "# kernel log: %s", prev);
			fprintf(stderr, "# kernel log: %s", rec);
			bad = 1;
		}
	}
	return bad;
}

static void sweep(struct __test_metadata *_metadata, int fail_nth, int kmsg,
		  const struct op *op)
{
	int n, err = 0, failed = 0, survived = 0;
	char *before, *after;
	const char *wrong;

	for (n = 1; n <= MAX_SITES; n++) {
		if (op->prepare)
			ASSERT_EQ(0, op->prepare());
		before = state();
		ASSERT_NE(NULL, before);
		if (!inject(fail_nth, n, op->run, &err)) {
			free(before);
			break;
		}
		wrong = op->check ? op->check(err) : NULL;
		EXPECT_EQ(NULL, wrong) {
			TH_LOG("%s, fault site %d (%s): %s", op->name, n,
			       err ? strerror(err) : "succeeded", wrong);
		}
		if (err) {
			failed++;
			after = state();
			ASSERT_NE(NULL, after);
			EXPECT_STREQ(before, after) {
				TH_LOG("%s, fault site %d (%s): the state changed",
				       op->name, n, strerror(err));
			}
			free(after);
		} else {
			survived++;
			if (op->undo)
				op->undo();
		}
		free(before);
		ASSERT_EQ(0, kmsg_errors_but_kernels_own(kmsg, op->name, n)) {
			TH_LOG("%s, fault site %d (%s)", op->name, n,
			       strerror(err));
		}
	}
	ASSERT_GE(MAX_SITES, n);
	/* No fault left to inject: the operation works. */
	EXPECT_EQ(0, err) {
		TH_LOG("%s with no fault injected: %s", op->name,
		       strerror(err));
	}
	if (op->undo)
		op->undo();
	fprintf(stderr, "# %-28s %4d fault sites: %d failed cleanly, %d survived\n",
		op->name, n - 1, failed, survived);
}

/*
 * A sweep of @op, whose failed probe registrations are logged: at most the
 * ratelimit's burst of 10 lines every 5 s.
 */
static void expect_logged_ratelimited(struct __test_metadata *_metadata,
				      int fail_nth, int kmsg,
				      const struct op *op)
{
	long long start = now_ms(), allowed;
	int fd, lines;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	lseek(fd, 0, SEEK_END);
	sweep(_metadata, fail_nth, kmsg, op);
	lines = kmsg_count(fd, "cannot register a");
	close(fd);
	allowed = 10 * ((now_ms() - start) / 5000 + 1);
	fprintf(stderr, "# %-28s %4d lines logged, %lld allowed\n", op->name,
		lines, allowed);
	EXPECT_GE(allowed, lines);
}

TEST_F_TIMEOUT(fault, every_operation, 3000)
{
	unsigned int i;

	REQUIRE_FAULT_INJECTION();
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		sweep(_metadata, self->fail_nth, self->env.kmsg, &ops[i]);
	for (mechanism = 0; mechanism < (int)ARRAY_SIZE(mechanisms);
	     mechanism++) {
		struct op op = OP(NULL, prepare_mechanism, op_run, NULL);
		char name[48];

		if (!strncmp(mechanisms[mechanism], "fprobe", 6) &&
		    !fprobe_available())
			continue;
		snprintf(name, sizeof(name), "run, %s", mechanisms[mechanism]);
		unfilter_faults();
		if (!filter_faults("reject", fault_sites[mechanism].reject) ||
		    (fault_sites[mechanism].require &&
		     !filter_faults("require", fault_sites[mechanism].require))) {
			TH_LOG("%s: not swept: faults cannot be kept out of %s() without CONFIG_FAULT_INJECTION_STACKTRACE_FILTER",
			       name, fault_sites[mechanism].reject);
			continue;
		}
		op.name = name;
		expect_logged_ratelimited(_metadata, self->fail_nth,
					  self->env.kmsg, &op);
	}
	unfilter_faults();
}

/* The test PMU's own module, loaded with faults; lttng_calibrate's too. */
static int finit(const char *name, const char *env)
{
	char path[PATH_MAX];
	int fd, err = 0;

	if (!find_ko(name, env, path, sizeof(path)))
		return ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(__NR_finit_module, fd, "", 0))
		err = errno;
	close(fd);
	return err;
}

static int op_insmod_test_pmu(void)
{
	return finit(TEST_PMU_MODULE, "LTTNG_CALIBRATE_TEST_PMU_KO");
}

static void undo_insmod_test_pmu(void)
{
	test_pmu_unload();
}

/*
 * The test PMU loaded has its PMU and every file of it in sysfs; failed,
 * it left neither.
 */
static const char *check_insmod_test_pmu(int err)
{
	static const char *const files[] = {
		TEST_PMU_DIR "type", TEST_PMU_DIR "format/event",
		TEST_PMU_DIR "events/tsc", TEST_PMU_DIR "events/tsc.scale",
		TEST_PMU_DIR "events/calls", TEST_PMU_DIR "events/idle",
	};
	static char why[PATH_MAX + 32];
	size_t i;

	if (err) {
		if (!access(TEST_PMU_DIR, F_OK))
			return "failed, but left " TEST_PMU_DIR;
		if (!access("/sys/module/" TEST_PMU_MODULE, F_OK))
			return "failed, but left /sys/module/" TEST_PMU_MODULE;
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (access(files[i], F_OK)) {
			snprintf(why, sizeof(why), "loaded without %s",
				 files[i]);
			return why;
		}
	}
	return NULL;
}

static int prepare_no_test_pmu(void)
{
	test_pmu_unload();
	return access(TEST_PMU_DIR, F_OK) ? 0 : EBUSY;
}

/*
 * A module's own fault sites are those of its init function, which the
 * kernel calls through do_one_initcall(): the module loader's other sites
 * (copying, relocating, sysfs, the module's trace events and BTF) are the
 * kernel's, where 7.2 has bugs of its own that an injected failure meets
 * (a refcount warning at rmmod, an oops in the BTF relocation after which
 * no load of the module works until a reboot), and a TCG guest takes
 * seconds per load.  The sweep says so where it runs.  Where the stack
 * filter is missing, every site is swept.
 */
static void sweep_init(struct __test_metadata *_metadata, int fail_nth,
		       int kmsg, const struct op *op)
{
	if (filter_faults("require", "do_one_initcall")) {
		fprintf(stderr, "# %s: the fault sites of the module's init function only (under do_one_initcall())\n",
			op->name);
		fprintf(stderr, "# %s: the module loader's sites are left out: see \"What the fault stage leaves out\" in Documentation/lttng-calibrate.rst\n",
			op->name);
	} else {
		TH_LOG("%s: every fault site of the module loader swept: no stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)",
		       op->name);
	}
	sweep(_metadata, fail_nth, kmsg, op);
	unfilter_faults();
}

TEST_F_TIMEOUT(fault, insmod_test_pmu, 600)
{
	const struct op op = OP_CHECKED("insmod test PMU", prepare_no_test_pmu,
					op_insmod_test_pmu,
					check_insmod_test_pmu,
					undo_insmod_test_pmu);

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	sweep_init(_metadata, self->fail_nth, self->env.kmsg, &op);
	ASSERT_LE(0, test_pmu_load(""));
}

static int op_insmod_module(void)
{
	return finit("lttng_calibrate", "LTTNG_CALIBRATE_KO");
}

static void undo_insmod_module(void)
{
	syscall(__NR_delete_module, "lttng_calibrate", O_NONBLOCK);
}

/*
 * A load that succeeded has its whole interface; one that failed left
 * nothing: no debugfs directory, no module in sysfs.
 */
static const char *check_insmod_module(int err)
{
	static char why[PATH_MAX + 32];
	const char *missing;

	if (err) {
		if (!access(DIR, F_OK))
			return "failed, but left " DIR;
		if (!access("/sys/module/lttng_calibrate", F_OK))
			return "failed, but left /sys/module/lttng_calibrate";
		return NULL;
	}
	missing = abi_file_missing();
	if (!missing)
		return NULL;
	snprintf(why, sizeof(why), "loaded without %s", missing);
	return why;
}

static int prepare_no_module(void)
{
	undo_insmod_module();
	return access("/sys/module/lttng_calibrate", F_OK) ? 0 : EBUSY;
}

/*
 * Opens @file in a loop, holding it 100 ms each time it opens, then
 * letting the module be unloaded for 50 ms, until killed: the files of a
 * load that then fails must never open (the failed load frees the module,
 * open files or not).  "run" is opened, not written: a run would change
 * what the sweep compares.
 */
static pid_t start_opener(const char *file, int flags)
{
	pid_t pid;
	int fd;

	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		fd = open(file, flags);
		if (fd < 0)
			continue;
		usleep(100000);
		close(fd);
		usleep(50000);
	}
}

/*
 * Takes CPU 1 offline and back in a loop, until killed: a load that fails
 * as it creates "irqs" waits in cpuhp_remove_state_nocalls() for the
 * hotplug in progress, with "run" created; the window an opener needs.
 */
static pid_t start_hotplug(void)
{
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		cpu_online_set(1, 0);
		cpu_online_set(1, 1);
	}
}

/* As prepare_no_module(), waiting for the opener's file to be closed. */
static int prepare_no_module_opened(void)
{
	int i;

	for (i = 0; i < 500 && prepare_no_module(); i++)
		usleep(10000);
	return prepare_no_module();
}

static void undo_insmod_module_opened(void)
{
	prepare_no_module_opened();
}

/*
 * The module itself, loaded with faults: a load that fails leaves no
 * module and no debugfs file (state() reads every file as absent), one
 * that succeeds has every file of its interface (check_insmod_module()).
 * Meanwhile other processes open "run" and "results" and CPU 1 goes
 * offline and back: an open during the load fails (ENODEV) until init's
 * end, so that a load that fails after creating its files frees nothing
 * in use.  A file that was let open would be closed through the freed
 * module: an oops, or a KASAN report.
 */
TEST_F_TIMEOUT(fault, insmod_module_while_opened, 1200)
{
	const struct op op = OP_CHECKED("insmod lttng_calibrate, files opened meanwhile",
					prepare_no_module_opened,
					op_insmod_module, check_insmod_module,
					undo_insmod_module_opened);

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, write_str(DIR "counters", "\n"));
	/* The teardown kills them, whatever the sweep found. */
	self->env.child = start_opener(DIR "run", O_WRONLY);
	ASSERT_LT(0, self->env.child);
	self->helper[0] = start_opener(DIR "results", O_RDONLY);
	ASSERT_LT(0, self->helper[0]);
	if (sysconf(_SC_NPROCESSORS_CONF) >= 2) {
		self->helper[1] = start_hotplug();
		ASSERT_LT(0, self->helper[1]);
	}
	sweep_init(_metadata, self->fail_nth, self->env.kmsg, &op);
	stop_helpers(self->helper, ARRAY_SIZE(self->helper));
	kill(self->env.child, SIGKILL);
	waitpid(self->env.child, NULL, 0);
	self->env.child = 0;
	EXPECT_EQ(0, ensure_module());
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
