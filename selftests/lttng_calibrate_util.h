/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lttng_calibrate kselftests share, compiled once and linked into
 * every test program: a prototype here for each function of a util_*.c
 * file, grouped by file, one concern each.  None of them asserts: what
 * uses kselftest_harness.h's assertions is in lttng_calibrate_harness.h,
 * which the test programs include.
 *
 * Files, key=value text and the kernel-log patterns come from the tools'
 * library (lc.h, lc.c, kmsg_patterns.h: symlinks to tools/lib/, which
 * "cp -rL" turns into copies when selftests/ goes into a kernel tree).
 */
#ifndef LTTNG_CALIBRATE_UTIL_H
#define LTTNG_CALIBRATE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "lc.h"

#define DIR		"/sys/kernel/debug/lttng_calibrate/"
#define PARAMS		"/sys/module/lttng_calibrate/parameters/"
#define LONG_RUN	"100000000"

/* util_files.c: the debugfs files and the module's parameters */

/* The module parameters a test may change, saved and restored as text. */
#define NR_PARAMS	4

struct saved_params {
	char value[NR_PARAMS][32];
};

extern const char *const param_names[NR_PARAMS];

bool file_exists(const char *path);
int write_str(const char *path, const char *text);
int param_read(const char *name);
int param_write(const char *name, const char *value);
int params_restore(const struct saved_params *saved);
bool fprobe_available(void);
char *counter_list(void);

/* util_run.c: runs, and the status file while they go */

int run(const char *count);
int run_traced(const char *target, const char *event, const char *count);
pid_t start_run(const char *count);
long long run_number(void);
int status_field(const char *field, long long *val);
bool status_running(void);
bool wait_running(long long done, int ms);
bool wait_idle(int ms);

/* util_text.c: the texts the files give */

extern const char *const rows[3];
extern const char *const units[2];

const char *text_value(const char *text, const char *label);
bool text_is(const char *text, const char *label, const char *want);
long long kv_stat(const char *text, const char *row, const char *unit,
		  const char *stat);
char *strip_comments(char *text);
int count_lines(const char *text);
int deltas_check(const char *text, char *why, size_t size);
const char *escape_bytes(const void *buf, size_t len, char *out,
			 size_t size);

/* util_module.c: loading the module, and its interface */

bool find_ko(const char *name, const char *env, char *path, size_t size);
void load_module(const char *name, const char *env, const char *params);
int ensure_module(void);
const char *abi_file_missing(void);

/* util_pmu.c: the test PMU and the machine's own */

/*
 * The test PMU, lttng_calibrate_test_pmu.ko (selftests/module/): a perf PMU
 * with known counts, where the machine has no PMU (QEMU TCG) or beside it.
 */
#define TEST_PMU		"lttng_calibrate_test"
#define TEST_PMU_MODULE		"lttng_calibrate_test_pmu"
#define TEST_PMU_DIR		"/sys/bus/event_source/devices/" TEST_PMU "/"
#define TEST_PMU_PARAMS		"/sys/module/" TEST_PMU_MODULE "/parameters/"

int test_pmu_type(void);
int test_pmu_load(const char *params);
int test_pmu_unload(void);
const char *test_pmu_event(char *buf, size_t size, int type,
			   const char *alias, int code, const char *more);
double tsc_per_cycle(const char *kv);
int perf_event_answer(__u32 type, __u64 config);
bool pmu_present(void);

/* util_cpu.c: CPU hot-plug and affinity */

int cpu_online_set(int cpu, int online);
int pin_cpu(int cpu);
void unpin(void);

/* util_proc.c: time, child processes and random numbers */

void sleep_ms(int ms);
long long now_ms(void);
bool reap_within(pid_t pid, long long ms, int *status);
unsigned long long rnd_next(unsigned long long *s);
unsigned int rnd_below(unsigned long long *s, unsigned int n);

/* util_kmsg.c: the kernel log */

bool kmsg_next(int fd, char *rec, size_t size);
int kmsg_has_errors(int fd);
void kmsg_write(const char *text);
void kmsg_unload_begins(void);
void kmsg_unload_ends(void);
int kmsg_count(int fd, const char *what);

#endif /* LTTNG_CALIBRATE_UTIL_H */
