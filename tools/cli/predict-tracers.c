// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing configurations of lttng-calibrate predict.  Each is set up
 * once, started before each traced run of the command and stopped after
 * it, and counts what its tracer recorded and lost, from the tracer's own
 * counters:
 *
 *   ftrace-SET     the set's tracefs events (the ring buffer's per-CPU
 *                  stats: entries, overrun, dropped)
 *   perf-SET       perf record -a of the same tracepoints, started
 *                  disabled and enabled through its control pipe (perf
 *                  report --stats counts the samples and the lost ones)
 *   bpftrace-SET   bpftrace counting them in a map
 *   ftrace-kprobe-FUNCTION, ftrace-kretprobe-FUNCTION
 *                  a kprobe (kretprobe) event on --function
 *   lttng-loaded   LTTng's modules loaded by lttng-sessiond, no session:
 *                  the tracer and the probes of the set's events, which
 *                  lttng-SET records
 *   lttng-SET      an LTTng kernel session of the set's events (babeltrace2
 *                  counts them, and the events it says were discarded)
 *
 * None of them traces while the command is not running, and each one's
 * teardown undoes what it did, whatever happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "predict.h"

/* Our names: nobody else's events or sessions are touched. */
#define LC_PR_GROUP		"lc_predict"
#define LC_PR_KPROBE		"lc_predict_p"
#define LC_PR_KRETPROBE		"lc_predict_r"
#define LC_PR_CHANNEL		"lcpredict"
/* How long a tracer started in the background may take to be ready. */
#define LC_PR_READY_MS		120000
/*
 * How long a tracer asked to stop (SIGINT) may take to print what it
 * counted and detach before it is killed: bpftrace detaching every system
 * call's tracepoints took more than 5 s in an arm64 guest under TCG on a
 * busy host, and its count died with it.
 */
#define LC_PR_STOP_MS		60000

const struct lc_predict_set lc_predict_sets[] = {
	{ "syscalls-sched", true, true, true, "sched,irq" },
	{ "sched", true, true, false, "sched,irq" },
	{ "syscalls", false, false, true, NULL },
};
const size_t lc_predict_nr_sets = ARRAY_SIZE(lc_predict_sets);

/* The tracepoints of a set, as "group:event", NULL-terminated. */
static int lc_pr_events(const struct lc_predict_set *set, const char **ev)
{
	int n = 0;

	if (set->sched) {
		ev[n++] = "sched:sched_switch";
		ev[n++] = "sched:sched_wakeup";
	}
	if (set->irq) {
		ev[n++] = "irq:irq_handler_entry";
		ev[n++] = "irq:irq_handler_exit";
	}
	if (set->syscalls) {
		ev[n++] = "raw_syscalls:sys_enter";
		ev[n++] = "raw_syscalls:sys_exit";
	}
	ev[n] = NULL;
	return n;
}

static long long lc_pr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Has the background tracer exited (it is not reaped)? */
static bool lc_pr_tracer_gone(struct lc_predict_ctx *pc)
{
	siginfo_t info = { 0 };

	if (pc->tracer.pid <= 0)
		return true;
	if (waitid(P_PID, pc->tracer.pid, &info,
		   WEXITED | WNOHANG | WNOWAIT))
		return true;
	return info.si_pid != 0;
}

/*
 * The background tracer: stopped with SIGINT, waited for, its status: 0
 * also when it ended by that SIGINT (perf record raises it again once its
 * data is written).
 */
static int lc_pr_tracer_stop(struct lc_predict_ctx *pc)
{
	int code;

	if (pc->tracer.pid <= 0)
		return -1;
	lc_proc_stop(&pc->tracer);
	if (lc_proc_wait(&pc->tracer))
		return -1;
	lc_proc_reap(&pc->tracer);
	code = lc_proc_exit_code(pc->tracer.status);
	return code == 128 + SIGINT ? 0 : code;
}

/*
 * Why the background tracer @name failed to stop, @code as
 * lc_pr_tracer_stop() gave it: killed once its grace ran out, or its own
 * status and the last line of its standard error @err.
 */
static void lc_pr_tracer_failed(struct lc_predict_ctx *pc, const char *name,
				int code, const char *err, char *why,
				size_t len)
{
	char last[160];

	if (pc->tracer.killed) {
		snprintf(why, len,
			 "%s was still there %d s after its SIGINT and was killed",
			 name, LC_PR_STOP_MS / 1000);
		return;
	}
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "%s exited with status %d%s%s", name, code,
		 last[0] ? ": " : "", last);
}

static int lc_pr_tracer_start(struct lc_predict_ctx *pc, char **argv,
			      const char *out, const char *err)
{
	pc->tracer = (struct lc_proc){
		.argv = argv, .out = out, .err = err, .null_in = true,
		.group = true, .kill_ms = LC_PR_STOP_MS,
	};
	return lc_proc_start(&pc->tracer);
}

/* ftrace: the set's events, or our kprobe event, enabled during a run. */

static void lc_pr_disable(struct lc_predict_ctx *pc)
{
	char file[128];
	int i;

	for (i = 0; i < pc->nr_enabled; i++) {
		snprintf(file, sizeof(file), "%s/enable", pc->enabled[i]);
		lc_tfs_write(&pc->bench, file, "0", 0);
	}
}

static int lc_pr_add_event(struct lc_predict_ctx *pc, const char *dir,
			   char *why, size_t len)
{
	char file[128], *state;

	if ((size_t)pc->nr_enabled >= ARRAY_SIZE(pc->enabled))
		return -1;
	if (!lc_tfs_exists(&pc->bench, dir)) {
		snprintf(why, len, "this kernel has no %s/%s",
			 pc->bench.tracefs, dir);
		return -1;
	}
	snprintf(file, sizeof(file), "%s/enable", dir);
	state = lc_tfs_read(&pc->bench, file);
	if (state && state[0] != '0') {
		snprintf(why, len,
			 "%s is already enabled by someone else: disable it first",
			 dir);
		free(state);
		return -1;
	}
	free(state);
	snprintf(pc->enabled[pc->nr_enabled++], sizeof(pc->enabled[0]), "%s",
		 dir);
	return 0;
}

/*
 * The ring buffer ftrace's configurations record into, in kB per CPU.  A
 * workload's events are not known before it runs, and a buffer that
 * overwrites costs more per event than the calibrated one, which never
 * does: an eighth of the memory available, shared by the online CPUs, at
 * most 1 GB each, at least 64 MB (tbench makes 1.6 million events in 5 s,
 * 64 MB's worth).  Events lost even so are counted and said.
 */
static unsigned long long lc_pr_ftrace_buffer_kb(void)
{
	char *text = lc_read_file("/proc/meminfo", NULL);
	/* "MemAvailable:    812345 kB" */
	const char *field = text ? lc_field(text, "MemAvailable:", NULL) : NULL;
	unsigned long long avail = field ? strtoull(field, NULL, 10) : 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long kb;

	free(text);
	kb = cpus > 0 ? avail / 8 / cpus : 0;
	if (kb > 1024 * 1024)
		kb = 1024 * 1024;
	return kb < 65536 ? 65536 : kb;
}

static enum lc_tracer_prep lc_pr_ftrace_prepare(struct lc_predict_ctx *pc,
						char *why, size_t len)
{
	const char *ev[8];
	char dir[96];
	int i, n = lc_pr_events(pc->set, ev);
	enum lc_tracer_prep rc = lc_tracefs_need(&pc->bench, NULL, why,
						 len);

	if (rc != LC_PREP_OK)
		return rc;
	pc->nr_enabled = 0;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "events/%s", ev[i]);
		*strchr(dir, ':') = '/';
		if (lc_pr_add_event(pc, dir, why, len))
			return LC_PREP_UNAVAILABLE;
	}
	return lc_tracefs_buffer_kb(&pc->bench, lc_pr_ftrace_buffer_kb(), why,
				    len);
}

/* A kprobe or kretprobe event on the function, defined but not enabled. */
static enum lc_tracer_prep lc_pr_kprobe_prepare(struct lc_predict_ctx *pc,
						bool ret, char *why,
						size_t len)
{
	const char *name = ret ? LC_PR_KRETPROBE : LC_PR_KPROBE;
	char def[192], enable[128];
	enum lc_tracer_prep rc;

	rc = lc_tracefs_need(&pc->bench, "kprobe_events", why, len);
	if (rc == LC_PREP_OK)
		rc = lc_tracefs_buffer(&pc->bench, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(def, sizeof(def), "%c:%s/%s %s", ret ? 'r' : 'p',
		 LC_PR_GROUP, name, pc->function);
	snprintf(enable, sizeof(enable), "events/%s/%s/enable", LC_PR_GROUP,
		 name);
	rc = lc_tracefs_dyn_event(&pc->bench, "kprobe_events", def, enable, why,
				  len);
	lc_tfs_write(&pc->bench, enable, "0", 0);
	if (rc != LC_PREP_OK)
		return rc;
	pc->nr_enabled = 0;
	snprintf(pc->enabled[pc->nr_enabled++], sizeof(pc->enabled[0]),
		 "events/%s/%s", LC_PR_GROUP, name);
	return LC_PREP_OK;
}

static enum lc_tracer_prep lc_pr_fkprobe_prepare(struct lc_predict_ctx *pc,
						 char *why, size_t len)
{
	return lc_pr_kprobe_prepare(pc, false, why, len);
}

static enum lc_tracer_prep lc_pr_fkretprobe_prepare(struct lc_predict_ctx *pc,
						    char *why, size_t len)
{
	return lc_pr_kprobe_prepare(pc, true, why, len);
}

static int lc_pr_ftrace_start(struct lc_predict_ctx *pc, char *why,
			      size_t len)
{
	char file[128];
	int i, e;

	lc_tfs_write(&pc->bench, "trace", "", O_TRUNC);
	e = lc_tfs_write(&pc->bench, "tracing_on", "1", 0);
	for (i = 0; !e && i < pc->nr_enabled; i++) {
		snprintf(file, sizeof(file), "%s/enable", pc->enabled[i]);
		e = lc_tfs_write(&pc->bench, file, "1", 0);
	}
	if (e) {
		lc_pr_disable(pc);
		snprintf(why, len, "enabling %s: %s",
			 i ? pc->enabled[i - 1] : "tracing_on", strerror(e));
		return -1;
	}
	return 0;
}

static int lc_pr_ftrace_stop(struct lc_predict_ctx *pc, long long *events,
			     long long *lost, char *why, size_t len)
{
	long long entries;

	lc_pr_disable(pc);
	if (lc_tracefs_buffer_stats(&pc->bench, &entries, lost)) {
		snprintf(why, len, "no per_cpu/cpu*/stats in tracefs");
		return -1;
	}
	/* Overwritten events were recorded first. */
	*events = entries + *lost;
	return 0;
}

static void lc_pr_ftrace_teardown(struct lc_predict_ctx *pc)
{
	if (!pc->bench.tracefs[0])
		return;
	lc_pr_disable(pc);
	pc->nr_enabled = 0;
	lc_tracefs_remove_event(&pc->bench, "kprobe_events", LC_PR_GROUP,
				LC_PR_KPROBE);
	lc_tracefs_remove_event(&pc->bench, "kprobe_events", LC_PR_GROUP,
				LC_PR_KRETPROBE);
	lc_tracefs_buffer_release(&pc->bench);
	pc->bench.touched &= ~LC_T_DYN_EVENTS;
}

/* perf, bpftrace: stopped if still there; perf's control pipe closed. */
static void lc_pr_tracer_teardown(struct lc_predict_ctx *pc)
{
	lc_proc_reap(&pc->tracer);
	if (pc->perf_ctl_open)
		close(pc->perf_ctl);
	pc->perf_ctl_open = false;
}

/* perf record -a, started disabled, enabled through its control pipe. */

static enum lc_tracer_prep lc_pr_perf_prepare(struct lc_predict_ctx *pc,
					      char *why, size_t len)
{
	enum lc_tracer_prep rc = lc_tracer_need("perf", "linux-perf", why, len);
	const char *ev[8];
	char dir[96];
	int i, n = lc_pr_events(pc->set, ev);

	if (rc == LC_PREP_OK)
		rc = lc_tracefs_need(&pc->bench, NULL, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "events/%s", ev[i]);
		*strchr(dir, ':') = '/';
		if (!lc_tfs_exists(&pc->bench, dir)) {
			snprintf(why, len, "this kernel has no %s/%s",
				 pc->bench.tracefs, dir);
			return LC_PREP_UNAVAILABLE;
		}
	}
	return LC_PREP_OK;
}

/*
 * perf record -a, its events disabled (-D -1) until its control pipe
 * says "enable" and it answers "ack" on the other: then it records.  The
 * pipes are perf's file descriptors (--control fd:CTL,ACK); our ends are
 * closed on exec, perf's closed here once it has them, and our end of the
 * control pipe only after perf stopped.
 */
static int lc_pr_perf_start(struct lc_predict_ctx *pc, char *why,
			    size_t len)
{
	char data[PATH_MAX + 32], out[PATH_MAX + 32], err[PATH_MAX + 32];
	/* 11 words, then 3 per event */
	char *argv[11 + 3 * 8 + 1], reply[16] = "", last[160], step[128];
	char control[64];
	int ctl[2], ack[2], i, n, a = 0, pr = 0, code;
	const char *ev[8];
	struct pollfd pfd;
	ssize_t w = -1;

	n = lc_pr_events(pc->set, ev);
	if (pipe(ctl))
		goto fail_pipe;
	if (pipe(ack)) {
		close(ctl[0]);
		close(ctl[1]);
		goto fail_pipe;
	}
	fcntl(ctl[1], F_SETFD, FD_CLOEXEC);
	fcntl(ack[0], F_SETFD, FD_CLOEXEC);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
	snprintf(data, sizeof(data), "%s/perf-%d.data", pc->bench.tmpdir,
		 pc->run);
	snprintf(out, sizeof(out), "%s/perf-%d.out", pc->bench.tmpdir, pc->run);
	snprintf(err, sizeof(err), "%s/perf-%d.err", pc->bench.tmpdir, pc->run);
	argv[a++] = "perf";
	argv[a++] = "record";
	argv[a++] = "-a";
	argv[a++] = "-m";
	argv[a++] = "1024";
	argv[a++] = "-D";
	argv[a++] = "-1";
	argv[a++] = "--control";
	argv[a++] = control;
	argv[a++] = "-o";
	argv[a++] = data;
	/* Not what perf's own reading and writing hits. */
	for (i = 0; i < n; i++) {
		argv[a++] = "-e";
		argv[a++] = (char *)ev[i];
		argv[a++] = "--exclude-perf";
	}
	argv[a] = NULL;
	code = lc_pr_tracer_start(pc, argv, out, err);
	close(ctl[0]);
	close(ack[1]);
	if (code) {
		snprintf(why, len, "perf: %s", strerror(errno));
		close(ctl[1]);
		close(ack[0]);
		return -1;
	}
	w = write(ctl[1], "enable\n", 7);
	pfd = (struct pollfd){ .fd = ack[0], .events = POLLIN };
	if (w == 7)
		pr = poll(&pfd, 1, LC_PR_READY_MS);
	if (pr == 1 && read(ack[0], reply, sizeof(reply) - 1) > 0 &&
	    !strncmp(reply, "ack", 3)) {
		pc->perf_ctl = ctl[1];
		pc->perf_ctl_open = true;
		close(ack[0]);
		return 0;
	}
	close(ctl[1]);
	close(ack[0]);
	snprintf(step, sizeof(step),
		 "no ack after enable (write %zd, poll %d, events %#x)", w, pr,
		 pfd.revents);
	code = lc_pr_tracer_stop(pc);
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "perf record did not start: %s; perf %s %d%s%s",
		 step, code < 0 ? "not waited for" : "exit status", code,
		 last[0] ? ": " : "", last);
	return -1;
fail_pipe:
	snprintf(why, len, "pipe: %s", strerror(errno));
	return -1;
}

/*
 * "  NAME events:  N" of perf report --stats: its first line, that of the
 * aggregated stats (each event's own stats follow).
 */
static long long lc_pr_perf_stat(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; (p = strstr(p, name)); p += n)
		if (p == text || p[-1] == ' ' || p[-1] == '\n')
			return strtoll(p + n, NULL, 10);
	return 0;
}

static int lc_pr_perf_stop(struct lc_predict_ctx *pc, long long *events,
			   long long *lost, char *why, size_t len)
{
	char data[PATH_MAX + 32], out[PATH_MAX + 32], err[PATH_MAX + 32];
	char *argv[] = { "perf", "report", "--stats", "-i", data, NULL };
	char last[160];
	char *text;
	int code = lc_pr_tracer_stop(pc);

	lc_pr_tracer_teardown(pc);
	snprintf(data, sizeof(data), "%s/perf-%d.data", pc->bench.tmpdir,
		 pc->run);
	snprintf(err, sizeof(err), "%s/perf-%d.err", pc->bench.tmpdir, pc->run);
	if (code) {
		lc_pr_tracer_failed(pc, "perf record", code, err, why, len);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/perf-%d.stats", pc->bench.tmpdir,
		 pc->run);
	snprintf(err, sizeof(err), "%s/perf-%d.stats.err", pc->bench.tmpdir,
		 pc->run);
	if (lc_tracer_exec(argv, out, err, 1800, true)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "perf report --stats: %s", last);
		return -1;
	}
	text = lc_read_file(out, NULL);
	if (!text || !strstr(text, "SAMPLE events:")) {
		snprintf(why, len, "perf report --stats: no SAMPLE events line");
		free(text);
		return -1;
	}
	*events = lc_pr_perf_stat(text, "SAMPLE events:");
	*lost = lc_pr_perf_stat(text, "LOST_SAMPLES events:") +
		lc_pr_perf_stat(text, "LOST events:");
	free(text);
	unlink(data);
	return 0;
}


/* bpftrace: a count map of the set's tracepoints. */

static enum lc_tracer_prep lc_pr_bpftrace_prepare(struct lc_predict_ctx *pc,
						  char *why, size_t len)
{
	(void)pc;
	return lc_tracer_need("bpftrace", "bpftrace", why, len);
}

static int lc_pr_bpftrace_start(struct lc_predict_ctx *pc, char *why,
				size_t len)
{
	char prog[1024], out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char *argv[] = { "bpftrace", "-B", "line", "-e", prog, NULL };
	long long end = lc_pr_now_ms() + LC_PR_READY_MS;
	const char *ev[8];
	int i, n = lc_pr_events(pc->set, ev);
	size_t p;

	p = (size_t)snprintf(prog, sizeof(prog),
			     "BEGIN { printf(\"lc-predict-ready\\n\"); } ");
	for (i = 0; i < n && p < sizeof(prog); i++)
		p += (size_t)snprintf(prog + p, sizeof(prog) - p,
				      "%stracepoint:%s", i ? "," : "", ev[i]);
	if (p < sizeof(prog))
		snprintf(prog + p, sizeof(prog) - p,
			 " { @events = count(); }");
	snprintf(out, sizeof(out), "%s/bpftrace-%d.out", pc->bench.tmpdir,
		 pc->run);
	snprintf(err, sizeof(err), "%s/bpftrace-%d.err", pc->bench.tmpdir,
		 pc->run);
	if (lc_pr_tracer_start(pc, argv, out, err)) {
		snprintf(why, len, "bpftrace: %s", strerror(errno));
		return -1;
	}
	/* BEGIN runs once every probe is attached. */
	while (!lc_pr_tracer_gone(pc) && !lc_signal_caught() &&
	       lc_pr_now_ms() < end) {
		if (lc_tracer_file_has(out, "lc-predict-ready"))
			return 0;
		usleep(20000);
	}
	lc_pr_tracer_stop(pc);
	lc_tracer_last_line(err, last, sizeof(last));
	snprintf(why, len, "bpftrace did not attach: %s",
		 last[0] ? last : "it never ran BEGIN");
	return -1;
}

static int lc_pr_bpftrace_stop(struct lc_predict_ctx *pc, long long *events,
			       long long *lost, char *why, size_t len)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32];
	int code = lc_pr_tracer_stop(pc);
	const char *p;
	char *text;

	snprintf(out, sizeof(out), "%s/bpftrace-%d.out", pc->bench.tmpdir,
		 pc->run);
	snprintf(err, sizeof(err), "%s/bpftrace-%d.err", pc->bench.tmpdir,
		 pc->run);
	if (code) {
		lc_pr_tracer_failed(pc, "bpftrace", code, err, why, len);
		return -1;
	}
	text = lc_read_file(out, NULL);
	*events = text ? lc_field_ll(text, "@events: ", 0) : 0;
	*lost = 0;
	/* "Lost N events" when its perf buffer overflowed */
	for (p = text; p && (p = strstr(p, "Lost ")); p += 5)
		*lost += strtoll(p + 5, NULL, 10);
	free(text);
	return 0;
}

/* LTTng: a kernel session of the set's events, one per run. */

/*
 * Is @event (a tracepoint, "sched_switch") among the kernel events that
 * @list (what "lttng list --kernel" printed) names?  Each is a line of its
 * own: "      sched_switch (loglevel: ...) (type: tracepoint)".
 */
static bool lc_pr_lttng_knows(const char *list, const char *event)
{
	size_t n = strlen(event);
	const char *p;

	for (p = list; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		p += strspn(p, " \t");
		if (!strncmp(p, event, n) && !strncmp(p + n, " (", 2))
			return true;
	}
	return false;
}

/*
 * lttng-sessiond, started with the probes of the set's events, and LTTng
 * knows each of them: LTTng enables an event it does not know without a
 * word, and records nothing of it.
 */
static enum lc_tracer_prep lc_pr_lttng_prepare(struct lc_predict_ctx *pc,
					       char *why, size_t len)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char *argv[] = { "lttng", "list", "--kernel", NULL };
	struct lc_tracer_ctx *ctx = &pc->bench;
	enum lc_tracer_prep rc;
	const char *ev[8];
	int i, n = lc_pr_events(pc->set, ev);
	char *list;

	ctx->lttng_probes = pc->set->lttng_probes;
	rc = lc_session_available(ctx, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(out, sizeof(out), "%s/lttng-list.out", ctx->tmpdir);
	snprintf(err, sizeof(err), "%s/lttng-list.err", ctx->tmpdir);
	if (lc_tracer_exec(argv, out, err, LC_TRACER_CMD_TIMEOUT, false)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng list --kernel: %s", last);
		return LC_PREP_FAILED;
	}
	list = lc_read_file(out, NULL);
	for (i = 0; i < n; i++) {
		const char *name = strchr(ev[i], ':') + 1;

		if (!strncmp(ev[i], "raw_syscalls:", 13) ||
		    lc_pr_lttng_knows(list, name))
			continue;
		snprintf(why, len,
			 "LTTng has no kernel event %s (lttng list --kernel): the lttng-sessiond running did not load its probe; stop it, or start it with --kmod-probes=%s",
			 name, pc->set->lttng_probes);
		free(list);
		return LC_PREP_FAILED;
	}
	free(list);
	return LC_PREP_OK;
}

static int lc_pr_lttng_start(struct lc_predict_ctx *pc, char *why,
			     size_t len)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	char list[256] = "";
	const char *ev[8];
	int i, n = lc_pr_events(pc->set, ev);
	struct lc_tracer_ctx *ctx = &pc->bench;

	for (i = 0; i < n; i++)
		if (strncmp(ev[i], "raw_syscalls:", 13))
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%s",
				 list[0] ? "," : "", strchr(ev[i], ':') + 1);
	snprintf(out, sizeof(out), "--output=%s/lttng-%d", ctx->tmpdir,
		 pc->run);
	snprintf(err, sizeof(err), "%s/lttng-%d.err", ctx->tmpdir, pc->run);
	ctx->touched |= LC_T_LTTNG_SESSION;
	if (lc_session_lttng(err, "create", ctx->session, out, NULL) ||
	    lc_session_lttng(err, "enable-channel", "--kernel", "-s",
			     ctx->session, "--subbuf-size=1M", "--num-subbuf=8",
			   LC_PR_CHANNEL, NULL) ||
	    (list[0] &&
	     lc_session_lttng(err, "enable-event", "--kernel", "-s",
			      ctx->session, "-c", LC_PR_CHANNEL, list, NULL)) ||
	    (pc->set->syscalls &&
	     lc_session_lttng(err, "enable-event", "--kernel", "-s",
			      ctx->session, "-c", LC_PR_CHANNEL, "--syscall",
			      "-a", NULL)) ||
	    lc_session_lttng(err, "start", ctx->session, NULL)) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng: %s", last);
		return -1;
	}
	return 0;
}

static void lc_pr_lttng_teardown(struct lc_predict_ctx *pc)
{
	if (!(pc->bench.touched & LC_T_LTTNG_SESSION))
		return;
	lc_session_lttng(NULL, "destroy", pc->bench.session, NULL);
	pc->bench.touched &= ~LC_T_LTTNG_SESSION;
}

/* "discarded N events" in babeltrace2's warnings, summed. */
static long long lc_pr_discarded(const char *path)
{
	char *text = lc_read_file(path, NULL);
	long long sum = 0;
	const char *p;

	for (p = text; p && (p = strstr(p, "discarded ")); p += 10)
		sum += strtoll(p + 10, NULL, 10);
	free(text);
	return sum;
}

static int lc_pr_lttng_stop(struct lc_predict_ctx *pc, long long *events,
			    long long *lost, char *why, size_t len)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], name[32];
	char *argv[] = { "babeltrace2", trace, NULL };
	char last[160];
	int e;

	snprintf(err, sizeof(err), "%s/lttng-%d.err", pc->bench.tmpdir,
		 pc->run);
	e = lc_session_lttng(err, "stop", pc->bench.session, NULL);
	lc_pr_lttng_teardown(pc);
	if (e) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "lttng stop: %s", last);
		return -1;
	}
	snprintf(trace, sizeof(trace), "%s/lttng-%d", pc->bench.tmpdir,
		 pc->run);
	snprintf(name, sizeof(name), "lttng-%d", pc->run);
	/* Every event is one line: "[time] (+delta) host name: ..." */
	*events = lc_tracer_count_lines(&pc->bench, argv, name, "] (+", NULL,
					NULL, err, sizeof(err));
	if (*events < 0) {
		lc_tracer_last_line(err, last, sizeof(last));
		snprintf(why, len, "babeltrace2: %s", last);
		return -1;
	}
	*lost = lc_pr_discarded(err);
	return 0;
}

/* LTTng's modules loaded, no session: nothing recorded, nothing lost. */
static int lc_pr_none_start(struct lc_predict_ctx *pc, char *why, size_t len)
{
	(void)pc;
	(void)why;
	(void)len;
	return 0;
}

static int lc_pr_none_stop(struct lc_predict_ctx *pc, long long *events,
			   long long *lost, char *why, size_t len)
{
	(void)pc;
	(void)why;
	(void)len;
	*events = 0;
	*lost = 0;
	return 0;
}

static void lc_pr_none_teardown(struct lc_predict_ctx *pc)
{
	(void)pc;
}

static const struct lc_predict_tracer lc_pr_lttng_loaded = {
	.name = "lttng-loaded",
	.prepare = lc_pr_lttng_prepare, .start = lc_pr_none_start,
	.stop = lc_pr_none_stop, .teardown = lc_pr_none_teardown,
};

static const struct lc_predict_tracer lc_pr_lttng = {
	.name = "lttng", .cost = "payload-lttng",
	.prepare = lc_pr_lttng_prepare, .start = lc_pr_lttng_start,
	.stop = lc_pr_lttng_stop, .teardown = lc_pr_lttng_teardown,
};

static const struct lc_predict_tracer lc_pr_ftrace = {
	.name = "ftrace", .cost = "payload-ftrace",
	.prepare = lc_pr_ftrace_prepare, .start = lc_pr_ftrace_start,
	.stop = lc_pr_ftrace_stop, .teardown = lc_pr_ftrace_teardown,
};

static const struct lc_predict_tracer lc_pr_perf = {
	.name = "perf", .cost = "payload-perf",
	.prepare = lc_pr_perf_prepare, .start = lc_pr_perf_start,
	.stop = lc_pr_perf_stop, .teardown = lc_pr_tracer_teardown,
};

static const struct lc_predict_tracer lc_pr_bpftrace = {
	.name = "bpftrace", .cost = "payload-bpf",
	.prepare = lc_pr_bpftrace_prepare, .start = lc_pr_bpftrace_start,
	.stop = lc_pr_bpftrace_stop, .teardown = lc_pr_tracer_teardown,
};

static const struct lc_predict_tracer lc_pr_fkprobe = {
	.name = "kprobe", .function = true, .cost = "ftrace-kprobe",
	.prepare = lc_pr_fkprobe_prepare, .start = lc_pr_ftrace_start,
	.stop = lc_pr_ftrace_stop, .teardown = lc_pr_ftrace_teardown,
};

static const struct lc_predict_tracer lc_pr_fkretprobe = {
	.name = "kretprobe", .function = true, .cost = "ftrace-kretprobe",
	.prepare = lc_pr_fkretprobe_prepare, .start = lc_pr_ftrace_start,
	.stop = lc_pr_ftrace_stop, .teardown = lc_pr_ftrace_teardown,
};

/*
 * In this order: LTTng last, so that no configuration before it runs with
 * lttng-sessiond and LTTng's modules there (lc_predict_finish() stops
 * them after the last).
 */
const struct lc_predict_tracer *const lc_predict_tracers[] = {
	&lc_pr_ftrace,
	&lc_pr_perf,
	&lc_pr_bpftrace,
	&lc_pr_fkprobe,
	&lc_pr_fkretprobe,
	&lc_pr_lttng_loaded,
	&lc_pr_lttng,
};
const size_t lc_predict_nr_tracers = ARRAY_SIZE(lc_predict_tracers);

/**
 * lc_predict_finish() - after the last configuration, or an interruption:
 * the lttng-sessiond started stopped, tracefs unmounted if it was mounted
 * @pc: the context
 */
void lc_predict_finish(struct lc_predict_ctx *pc)
{
	lc_session_finish(&pc->bench);
	lc_tracefs_release(&pc->bench);
}
