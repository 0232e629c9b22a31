// SPDX-License-Identifier: GPL-2.0
/*
 * The mechanisms of lttng-calibrate bench, in the order of its rows: how to
 * tell whether this machine offers each one, attach it to the module's
 * target, count what it recorded, and detach it.  lc_bench_teardown()
 * undoes everything any of them may have done, from the LC_T_* bits of the
 * context and the names used here, so it is safe to run after any row, after
 * an error, and once more at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench-run.h"
#include "lttng-calibrate.h"

/* Our event names: nobody else's are ever removed. */
#define LC_EV_KPROBE		"lc_bench_p"
#define LC_EV_KRETPROBE		"lc_bench_r"
#define LC_EV_FPROBE		"lc_bench_f"
#define LC_EV_PERF		"lc_bench_perf"
#define LC_EV_LTTNG		"lc_bench"
#define LC_EV_LTTNG_KPROBE	"lc_bench_kp"
#define LC_LTTNG_CHANNEL	"lcbench"
#define LC_TP_DIR		"events/lttng_calibrate/lttng_calibrate_event"
#define LC_CMD_TIMEOUT		120

static void lc_path(char *buf, size_t len, const struct lc_bench_ctx *ctx,
		    const char *file)
{
	snprintf(buf, len, "%s/%s", ctx->tracefs, file);
}

/* Write to a tracefs file; 0 or errno. */
static int lc_tfs_write(const struct lc_bench_ctx *ctx, const char *file,
			const char *text, int flags)
{
	char path[PATH_MAX + 64];

	lc_path(path, sizeof(path), ctx, file);
	return lc_bench_write(path, text, flags);
}

static char *lc_tfs_read(const struct lc_bench_ctx *ctx, const char *file)
{
	char path[PATH_MAX + 64];

	lc_path(path, sizeof(path), ctx, file);
	return lc_read_file(path, NULL);
}

static int lc_tfs_exists(const struct lc_bench_ctx *ctx, const char *file)
{
	char path[PATH_MAX + 64];

	if (!ctx->tracefs[0])
		return 0;
	lc_path(path, sizeof(path), ctx, file);
	return !access(path, F_OK);
}

/* Does a tracefs file hold a word (available_tracers, README)? */
static int lc_tfs_has(const struct lc_bench_ctx *ctx, const char *file,
		      const char *word)
{
	char *text = lc_tfs_read(ctx, file);
	int found = text && strstr(text, word);

	free(text);
	return found;
}

/* The first line of a tracefs file, without its newline. */
static void lc_tfs_line(const struct lc_bench_ctx *ctx, const char *file,
			char *buf, size_t len)
{
	char *text = lc_tfs_read(ctx, file);

	snprintf(buf, len, "%s", text ? text : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
}

/* Module mechanisms: offered by the probe file? */
static enum lc_bench_prep lc_module_prepare(struct lc_bench_ctx *ctx,
					    const struct lc_bench_mech *m,
					    char *why, size_t len)
{
	char *text = lc_read_file(LC_DIR "/probe", NULL);
	char tag[64], *line;
	enum lc_bench_prep rc = LC_PREP_OK;

	(void)ctx;
	if (!text) {
		snprintf(why, len, "%s/probe: %s", LC_DIR, strerror(errno));
		return LC_PREP_FAILED;
	}
	snprintf(tag, sizeof(tag), " %s ", m->probe);
	text[strcspn(text, "\n")] = ' ';
	if (!strstr(text, tag) && !strstr(text, tag + 1)) {
		snprintf(tag, sizeof(tag), "[%s]", m->probe);
		if (!strstr(text, tag)) {
			snprintf(why, len, "this lttng_calibrate has no %s probe",
				 m->probe);
			rc = LC_PREP_UNAVAILABLE;
		}
	}
	snprintf(tag, sizeof(tag), "# %s: unavailable: ", m->probe);
	line = strstr(text, tag);
	if (line) {
		line += strlen(tag);
		line[strcspn(line, "\n")] = '\0';
		snprintf(why, len, "the module says: %s", line);
		rc = LC_PREP_UNAVAILABLE;
	}
	free(text);
	return rc;
}

/* Module mechanisms: every call hit, but those the probe missed. */
static int lc_module_count(struct lc_bench_ctx *ctx,
			   const struct lc_bench_mech *m,
			   struct lc_bench_row *row)
{
	(void)m;
	row->events_recorded = row->events_expected -
		(ctx->results ? lc_kv_ll(ctx->results, "probe.nmissed", 0) : 0);
	return 0;
}

static enum lc_bench_prep lc_need_tracefs(struct lc_bench_ctx *ctx,
					  const char *file, char *why,
					  size_t len)
{
	if (!ctx->tracefs[0]) {
		snprintf(why, len, "no tracefs (mount -t tracefs nodev %s)",
			 LC_BENCH_TRACEFS);
		return LC_PREP_UNAVAILABLE;
	}
	if (file && !lc_tfs_exists(ctx, file)) {
		snprintf(why, len, "this kernel has no %s/%s", ctx->tracefs,
			 file);
		return LC_PREP_UNAVAILABLE;
	}
	return LC_PREP_OK;
}

/*
 * The ring buffer, for an ftrace row: emptied, big enough for every call
 * of the run (per CPU: the run's CPU gets them all), tracing on.
 */
static enum lc_bench_prep lc_ftrace_buffer(struct lc_bench_ctx *ctx,
					   int per_call, char *why,
					   size_t len)
{
	unsigned long long need = (ctx->iterations + 1) * per_call * 64 /
				  1024 + 2048;
	char line[64];
	int e;

	/* 64 MB per CPU at most: a longer run may then lose events. */
	if (need > 65536)
		need = 65536;
	if (!(ctx->touched & LC_T_BUFFER_SIZE)) {
		char *exp;

		lc_tfs_line(ctx, "buffer_size_kb", line, sizeof(line));
		/* "7 (expanded: 1408)" before the buffer is first used */
		exp = strstr(line, "expanded: ");
		snprintf(ctx->saved_buffer_kb, sizeof(ctx->saved_buffer_kb),
			 "%llu", strtoull(exp ? exp + 10 : line, NULL, 10));
	}
	if (!(ctx->touched & LC_T_TRACING_ON))
		lc_tfs_line(ctx, "tracing_on", ctx->saved_tracing_on,
			    sizeof(ctx->saved_tracing_on));
	ctx->touched |= LC_T_TRACE_BUFFER;
	lc_tfs_write(ctx, "trace", "", O_TRUNC);
	if (strtoull(ctx->saved_buffer_kb, NULL, 10) < need) {
		snprintf(line, sizeof(line), "%llu", need);
		ctx->touched |= LC_T_BUFFER_SIZE;
		e = lc_tfs_write(ctx, "buffer_size_kb", line, 0);
		if (e) {
			snprintf(why, len, "buffer_size_kb %s: %s", line,
				 strerror(e));
			return LC_PREP_FAILED;
		}
	}
	ctx->touched |= LC_T_TRACING_ON;
	e = lc_tfs_write(ctx, "tracing_on", "1", 0);
	if (e) {
		snprintf(why, len, "tracing_on: %s", strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/* A kprobe_events or dynamic_events definition, then its enable file. */
static enum lc_bench_prep lc_dyn_event(struct lc_bench_ctx *ctx,
				       const char *file, const char *def,
				       const char *enable, char *why,
				       size_t len)
{
	int e;

	ctx->touched |= LC_T_DYN_EVENTS;
	e = lc_tfs_write(ctx, file, def, O_APPEND);
	if (e) {
		snprintf(why, len, "'%s' >> %s: %s", def, file, strerror(e));
		return LC_PREP_FAILED;
	}
	e = lc_tfs_write(ctx, enable, "1", 0);
	if (e) {
		snprintf(why, len, "%s: %s", enable, strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

static enum lc_bench_prep lc_kprobe_event_prepare(struct lc_bench_ctx *ctx,
						  const struct lc_bench_mech *m,
						  char *why, size_t len)
{
	const char *name = m->arg[0] == 'p' ? LC_EV_KPROBE : LC_EV_KRETPROBE;
	char def[128], enable[128];
	enum lc_bench_prep rc = lc_need_tracefs(ctx, "kprobe_events", why,
						 len);

	if (rc == LC_PREP_OK)
		rc = lc_ftrace_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(def, sizeof(def), "%s", m->arg);
	snprintf(enable, sizeof(enable), "events/kprobes/%s/enable", name);
	return lc_dyn_event(ctx, "kprobe_events", def, enable, why, len);
}

static enum lc_bench_prep lc_fprobe_event_prepare(struct lc_bench_ctx *ctx,
						  const struct lc_bench_mech *m,
						  char *why, size_t len)
{
	enum lc_bench_prep rc = lc_need_tracefs(ctx, "dynamic_events", why,
						 len);

	if (rc != LC_PREP_OK)
		return rc;
	if (!lc_tfs_has(ctx, "README", "f[:[<group>/][<event>]]")) {
		snprintf(why, len,
			 "this kernel has no fprobe events (CONFIG_FPROBE_EVENTS)");
		return LC_PREP_UNAVAILABLE;
	}
	rc = lc_ftrace_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	return lc_dyn_event(ctx, "dynamic_events", m->arg,
			    "events/fprobes/" LC_EV_FPROBE "/enable", why, len);
}

/*
 * The function and function_graph tracers, on the target alone: the
 * filter keeps every other function (the baseline twin first) untouched.
 */
static enum lc_bench_prep lc_tracer_prepare(struct lc_bench_ctx *ctx,
					    const struct lc_bench_mech *m,
					    char *why, size_t len)
{
	int graph = !strcmp(m->arg, "function_graph");
	char cur[64], *filter;
	enum lc_bench_prep rc = lc_need_tracefs(ctx, "current_tracer", why,
						 len);
	int e;

	if (rc != LC_PREP_OK)
		return rc;
	if (!lc_tfs_has(ctx, "available_tracers", m->arg)) {
		snprintf(why, len, "no %s tracer in this kernel (available_tracers)",
			 m->arg);
		return LC_PREP_UNAVAILABLE;
	}
	lc_tfs_line(ctx, "current_tracer", cur, sizeof(cur));
	if (strcmp(cur, "nop")) {
		snprintf(why, len, "ftrace is in use: current_tracer is %s",
			 cur);
		return LC_PREP_UNAVAILABLE;
	}
	filter = lc_tfs_read(ctx, "set_ftrace_filter");
	if (filter && filter[0] && !strstr(filter, "all functions enabled")) {
		free(filter);
		snprintf(why, len, "ftrace is in use: set_ftrace_filter is set");
		return LC_PREP_UNAVAILABLE;
	}
	free(filter);
	rc = lc_ftrace_buffer(ctx, graph ? 2 : 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	snprintf(ctx->saved_tracer, sizeof(ctx->saved_tracer), "%s", cur);
	ctx->touched |= LC_T_FTRACE_FILTER;
	e = lc_tfs_write(ctx, "set_ftrace_filter", LC_BENCH_TARGET, O_TRUNC);
	if (!e && graph) {
		ctx->touched |= LC_T_GRAPH_FILTER;
		e = lc_tfs_write(ctx, "set_graph_function", LC_BENCH_TARGET,
				 O_TRUNC);
	}
	if (!e) {
		ctx->touched |= LC_T_TRACER;
		e = lc_tfs_write(ctx, "current_tracer", m->arg, 0);
	}
	if (e) {
		snprintf(why, len, "setting up the %s tracer: %s", m->arg,
			 strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

static enum lc_bench_prep lc_tp_ftrace_prepare(struct lc_bench_ctx *ctx,
					       const struct lc_bench_mech *m,
					       char *why, size_t len)
{
	enum lc_bench_prep rc = lc_need_tracefs(ctx, LC_TP_DIR "/enable", why,
						 len);
	int e;

	(void)m;
	if (rc == LC_PREP_OK)
		rc = lc_ftrace_buffer(ctx, 1, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	ctx->touched |= LC_T_TP_ENABLED;
	e = lc_tfs_write(ctx, LC_TP_DIR "/enable", "1", 0);
	if (e) {
		snprintf(why, len, "%s/enable: %s", LC_TP_DIR, strerror(e));
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/* ftrace rows: the ring buffer's per-CPU stats, and nothing overwritten. */
static int lc_ftrace_count(struct lc_bench_ctx *ctx,
			   const struct lc_bench_mech *m,
			   struct lc_bench_row *row)
{
	int per_call = m->arg && !strcmp(m->arg, "function_graph") ? 2 : 1;
	long long entries = 0, lost = 0;
	char pattern[PATH_MAX + 32];
	glob_t g;
	size_t i;

	/* Nothing more may come in while we read. */
	lc_tfs_write(ctx, "tracing_on", "0", 0);
	snprintf(pattern, sizeof(pattern), "%s/per_cpu/cpu*/stats",
		 ctx->tracefs);
	if (glob(pattern, 0, NULL, &g)) {
		snprintf(row->reason, sizeof(row->reason),
			 "no per_cpu/cpu*/stats in tracefs");
		row->status = LC_BENCH_FAILED;
		return -1;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		char *text = lc_read_file(g.gl_pathv[i], NULL);

		if (!text)
			continue;
		entries += lc_field_ll(text, "entries: ", 0);
		lost += lc_field_ll(text, "overrun: ", 0);
		lost += lc_field_ll(text, "dropped events: ", 0);
		free(text);
	}
	globfree(&g);
	row->events_recorded = entries / per_call;
	if (lost) {
		snprintf(row->reason, sizeof(row->reason),
			 "the ring buffer lost %lld events (overrun, dropped)",
			 lost);
		row->status = LC_BENCH_LOST;
		return -1;
	}
	return 0;
}

static enum lc_bench_prep lc_need(const char *cmd, const char *package,
				  char *why, size_t len)
{
	if (lc_bench_have(cmd))
		return LC_PREP_OK;
	snprintf(why, len, "%s is not installed (apt-get install %s)", cmd,
		 package);
	return LC_PREP_UNAVAILABLE;
}

/* perf record: the event's samples of the whole machine during the run. */
static enum lc_bench_prep lc_perf_tp_prepare(struct lc_bench_ctx *ctx,
					     const struct lc_bench_mech *m,
					     char *why, size_t len)
{
	(void)m;
	if (!ctx->tracefs[0] || !lc_tfs_exists(ctx, LC_TP_DIR)) {
		snprintf(why, len, "no tracefs, or no %s in it", LC_TP_DIR);
		return LC_PREP_UNAVAILABLE;
	}
	return lc_need("perf", "linux-perf", why, len);
}

/* The first line a command prints, "" when it fails. */
static void lc_output_line(struct lc_bench_ctx *ctx, char *const argv[],
			   char *buf, size_t len)
{
	char out[PATH_MAX + 32];
	char *text;

	buf[0] = '\0';
	snprintf(out, sizeof(out), "%s/line.out", ctx->tmpdir);
	if (!lc_bench_exec(ctx, argv, out, NULL, 30, 0)) {
		text = lc_read_file(out, NULL);
		snprintf(buf, len, "%s", text ? text : "");
		buf[strcspn(buf, "\n")] = '\0';
		free(text);
	}
	unlink(out);
}

/* A whole binary file; its length in *len. */
static char *lc_read_bin(const char *path, size_t *len)
{
	size_t size = 0, alloc = 1 << 16;
	char *buf = malloc(alloc), *bigger;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	while ((n = read(fd, buf + size, alloc - size)) > 0) {
		size += n;
		if (size == alloc && alloc < (64 << 20)) {
			bigger = realloc(buf, alloc * 2);
			if (!bigger)
				break;
			buf = bigger;
			alloc *= 2;
		}
		if (size == alloc)
			break;
	}
	close(fd);
	*len = size;
	return buf;
}

/* Is @file the loaded module's .ko?  Its GNU build ID note is in it. */
static int lc_is_loaded_module(const char *file)
{
	size_t nlen = 0, flen = 0;
	char *note = lc_read_bin("/sys/module/lttng_calibrate/notes/.note.gnu.build-id",
				 &nlen);
	char *ko;
	int same;

	if (!note || nlen < 16) {
		free(note);
		return 1;	/* no build ID to compare: trust the file */
	}
	ko = lc_read_bin(file, &flen);
	same = ko && memmem(ko, flen, note, nlen);
	free(ko);
	free(note);
	return same;
}

/*
 * The .ko file of the loaded module, for perf probe -m: perf resolves a
 * module's function from its ELF symbols only, not from kallsyms.  The
 * installed one (modinfo -n), else $LTTNG_CALIBRATE_KO, if it has the
 * loaded module's build ID.
 */
static int lc_module_file(struct lc_bench_ctx *ctx, char *file, size_t len)
{
	char *where[] = { "modinfo", "-n", "lttng_calibrate", NULL };
	const char *env = getenv("LTTNG_CALIBRATE_KO");
	int i;

	for (i = 0; i < 2; i++) {
		if (i == 0)
			lc_output_line(ctx, where, file, len);
		else
			snprintf(file, len, "%s", env ? env : "");
		if (file[0] && !access(file, R_OK) && lc_is_loaded_module(file))
			return 0;
	}
	return -1;
}

/* perf probe --add, as perf users do; perf record on the probe event. */
static enum lc_bench_prep lc_perf_probe_prepare(struct lc_bench_ctx *ctx,
						const struct lc_bench_mech *m,
						char *why, size_t len)
{
	char ko[PATH_MAX];
	char *argv[] = { "perf", "probe", "-q", "-m", ko, "--add",
			 LC_EV_PERF "=" LC_BENCH_TARGET, NULL };
	char err[PATH_MAX + 32], last[160];
	enum lc_bench_prep rc = lc_need("perf", "linux-perf", why, len);
	int status;

	(void)m;
	if (rc == LC_PREP_OK)
		rc = lc_need_tracefs(ctx, "kprobe_events", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	if (lc_module_file(ctx, ko, sizeof(ko))) {
		snprintf(why, len,
			 "perf probe needs the loaded module's .ko (install it, or set LTTNG_CALIBRATE_KO=PATH)");
		return LC_PREP_UNAVAILABLE;
	}
	snprintf(err, sizeof(err), "%s/perf-probe.err", ctx->tmpdir);
	ctx->touched |= LC_T_PERF_PROBE;
	status = lc_bench_exec(ctx, argv, NULL, err, LC_CMD_TIMEOUT, 1);
	if (status == LC_BENCH_TIMED_OUT) {
		snprintf(why, len, "perf probe -m %s --add did not finish in %d s",
			 ko, LC_CMD_TIMEOUT);
		return LC_PREP_FAILED;
	}
	if (status) {
		lc_bench_last_line(err, last, sizeof(last));
		snprintf(why, len, "perf probe -m %s --add failed (%d): %s",
			 ko, status, last);
		return LC_PREP_FAILED;
	}
	return LC_PREP_OK;
}

/* perf record's buffer: every sample of the run fits, 128 bytes each. */
static int lc_perf_command(struct lc_bench_ctx *ctx,
			   const struct lc_bench_mech *m, char **argv,
			   char *buf, size_t len)
{
	unsigned long long need = (ctx->iterations + 1) * 128 / 4096, pages;
	int n;

	for (pages = 256; pages < need && pages < 16384; pages *= 2)
		;
	n = snprintf(buf, len, "%llu%c%s/perf.data", pages, '\0',
		     ctx->tmpdir);
	if (n < 0 || (size_t)n >= len)
		return -1;
	argv[0] = "perf";
	argv[1] = "record";
	argv[2] = "-q";
	argv[3] = "-e";
	argv[4] = (char *)m->arg;
	argv[5] = "-a";
	argv[6] = "-m";
	argv[7] = buf;
	argv[8] = "-o";
	argv[9] = buf + strlen(buf) + 1;
	argv[10] = "--";
	argv[11] = ctx->writer;
	argv[12] = NULL;
	return 0;
}

/* Lines of a command's stdout holding @needle; -1 if it failed. */
static long long lc_count_lines(struct lc_bench_ctx *ctx, char *const argv[],
				const char *name, const char *needle,
				const char *needle2, long long *count2,
				char *errpath, size_t errlen)
{
	char out[PATH_MAX + 32], line[4096];
	long long n = 0;
	FILE *f;
	int status;

	snprintf(out, sizeof(out), "%s/%s.count", ctx->tmpdir, name);
	snprintf(errpath, errlen, "%s/%s.count.err", ctx->tmpdir, name);
	status = lc_bench_exec(ctx, argv, out, errpath, 1800, 1);
	if (status)
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	if (count2)
		*count2 = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, needle))
			n++;
		else if (needle2 && strstr(line, needle2))
			(*count2)++;
	}
	fclose(f);
	unlink(out);
	return n;
}

static int lc_file_has(const char *path, const char *word)
{
	char *text = lc_read_file(path, NULL);
	int found = text && strcasestr(text, word);

	free(text);
	return found;
}

static int lc_perf_count(struct lc_bench_ctx *ctx,
			 const struct lc_bench_mech *m,
			 struct lc_bench_row *row)
{
	char data[PATH_MAX + 32], err[PATH_MAX + 32], rec_err[PATH_MAX + 32];
	char *argv[] = { "perf", "script", "-i", data, "-F", "event", NULL };
	const char *ev = strchr(m->arg, ':') + 1;
	long long n;

	snprintf(data, sizeof(data), "%s/perf.data", ctx->tmpdir);
	snprintf(rec_err, sizeof(rec_err), "%s/%s.err", ctx->tmpdir, m->name);
	n = lc_count_lines(ctx, argv, m->name, ev, NULL, NULL, err,
			   sizeof(err));
	unlink(data);
	if (n < 0) {
		lc_bench_last_line(err, row->reason, sizeof(row->reason));
		row->status = LC_BENCH_FAILED;
		return -1;
	}
	row->events_recorded = n;
	if (lc_file_has(err, "lost") || lc_file_has(rec_err, "lost")) {
		snprintf(row->reason, sizeof(row->reason),
			 "perf lost samples: %s", "see perf script's warning");
		row->status = LC_BENCH_LOST;
		return -1;
	}
	return 0;
}

static void lc_perf_probe_teardown(struct lc_bench_ctx *ctx,
				   const struct lc_bench_mech *m)
{
	char *argv[] = { "perf", "probe", "--del", "probe:" LC_EV_PERF, NULL };

	(void)m;
	if (!(ctx->touched & LC_T_PERF_PROBE))
		return;
	if (lc_tfs_exists(ctx, "events/probe/" LC_EV_PERF))
		lc_bench_exec(ctx, argv, NULL, NULL, LC_CMD_TIMEOUT, 0);
}

/* bpftrace: a count map, printed when the writer it runs ends. */
static enum lc_bench_prep lc_bpftrace_prepare(struct lc_bench_ctx *ctx,
					      const struct lc_bench_mech *m,
					      char *why, size_t len)
{
	enum lc_bench_prep rc = lc_need("bpftrace", "bpftrace", why, len);

	(void)ctx;
	if (rc != LC_PREP_OK || strncmp(m->arg, "kfunc:", 6))
		return rc;
	if (access("/sys/kernel/btf/vmlinux", F_OK)) {
		snprintf(why, len,
			 "no /sys/kernel/btf/vmlinux: the kernel has no BTF (CONFIG_DEBUG_INFO_BTF)");
		return LC_PREP_UNAVAILABLE;
	}
	if (access("/sys/kernel/btf/lttng_calibrate", F_OK)) {
		snprintf(why, len,
			 "lttng_calibrate has no BTF (built without vmlinux: add it with 'pahole -J --btf_base /sys/kernel/btf/vmlinux' on a copy of the .ko, and load that)");
		return LC_PREP_UNAVAILABLE;
	}
	return LC_PREP_OK;
}

static int lc_bpftrace_command(struct lc_bench_ctx *ctx,
			       const struct lc_bench_mech *m, char **argv,
			       char *buf, size_t len)
{
	/* bpftrace 0.17 runs only an ELF binary: the shell, then the script */
	int n = snprintf(buf, len, "%s { @calls = count(); }%c/bin/sh %s",
			 m->arg, '\0', ctx->writer);

	if (n < 0 || (size_t)n >= len)
		return -1;
	argv[0] = "bpftrace";
	argv[1] = "-e";
	argv[2] = buf;
	argv[3] = "-c";
	argv[4] = buf + strlen(buf) + 1;
	argv[5] = NULL;
	return 0;
}

static int lc_bpftrace_count(struct lc_bench_ctx *ctx,
			     const struct lc_bench_mech *m,
			     struct lc_bench_row *row)
{
	char out[PATH_MAX + 32];
	char *text;

	snprintf(out, sizeof(out), "%s/%s.out", ctx->tmpdir, m->name);
	text = lc_read_file(out, NULL);
	row->events_recorded = 0;
	if (text)
		row->events_recorded = lc_field_ll(text, "@calls: ", 0);
	if (text && strstr(text, "Lost ")) {
		snprintf(row->reason, sizeof(row->reason), "bpftrace lost events");
		row->status = LC_BENCH_LOST;
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* LTTng: lttng-tools, babeltrace2 and lttng-modules for this kernel. */
static int lc_lttng(struct lc_bench_ctx *ctx, const char *err, ...)
{
	char *argv[LC_BENCH_ARGV_MAX];
	va_list ap;
	int n = 0;

	argv[n++] = "lttng";
	va_start(ap, err);
	while (n < LC_BENCH_ARGV_MAX - 1) {
		argv[n] = va_arg(ap, char *);
		if (!argv[n])
			break;
		n++;
	}
	va_end(ap);
	argv[n] = NULL;
	return lc_bench_exec(ctx, argv, NULL, err, LC_CMD_TIMEOUT, 0);
}

static int lc_lttng_modules_loaded(void)
{
	char *mods = lc_read_file("/proc/modules", NULL);
	char *p = mods;
	int found = 0;

	while (p && *p && !found) {
		found = !strncmp(p, "lttng_", 6) &&
			strncmp(p, "lttng_calibrate ", 16) &&
			strncmp(p, "lttng_calibrate_test_pmu ", 25);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(mods);
	return found;
}

/* lttng-sessiond: the one running, or one started for the bench. */
static enum lc_bench_prep lc_sessiond(struct lc_bench_ctx *ctx, char *why,
				      size_t len)
{
	char *start[] = { "lttng-sessiond", "--daemonize", NULL };
	char err[PATH_MAX + 32], *pid;
	int i, status;

	snprintf(err, sizeof(err), "%s/lttng-list.err", ctx->tmpdir);
	if (!lc_lttng(ctx, err, "list", "--kernel", NULL))
		return LC_PREP_OK;
	if (ctx->sessiond) {
		snprintf(why, len, "lttng-sessiond no longer answers");
		return LC_PREP_FAILED;
	}
	ctx->lttng_modules_before = lc_lttng_modules_loaded();
	ctx->touched |= LC_T_SESSIOND;
	status = lc_bench_exec(ctx, start, NULL, NULL, LC_CMD_TIMEOUT, 0);
	if (status == LC_BENCH_TIMED_OUT) {
		snprintf(why, len, "lttng-sessiond --daemonize did not finish in %d s",
			 LC_CMD_TIMEOUT);
		return LC_PREP_FAILED;
	}
	if (status) {
		snprintf(why, len, "lttng-sessiond --daemonize failed");
		return LC_PREP_FAILED;
	}
	pid = lc_read_file("/var/run/lttng/lttng-sessiond.pid", NULL);
	ctx->sessiond = pid ? atoi(pid) : 0;
	free(pid);
	for (i = 0; i < 60 && !lc_bench_signal; i++) {
		if (!lc_lttng(ctx, err, "list", "--kernel", NULL))
			return LC_PREP_OK;
		sleep(1);
	}
	lc_bench_last_line(err, why, len);
	return LC_PREP_FAILED;
}

/**
 * lc_bench_stop_sessiond() - stop the lttng-sessiond the bench started
 * @ctx: the bench
 *
 * It unloads LTTng's modules on its way out; those left are removed when
 * none were loaded before the bench.
 */
void lc_bench_stop_sessiond(struct lc_bench_ctx *ctx)
{
	char path[64], *mods, *p;
	int i, pass;

	if (!(ctx->touched & LC_T_SESSIOND))
		return;
	if (ctx->sessiond > 0) {
		kill(ctx->sessiond, SIGTERM);
		snprintf(path, sizeof(path), "/proc/%d", (int)ctx->sessiond);
		for (i = 0; i < 600 && !access(path, F_OK); i++)
			usleep(100000);
		if (!access(path, F_OK))
			kill(ctx->sessiond, SIGKILL);
	}
	ctx->sessiond = 0;
	ctx->touched &= ~LC_T_SESSIOND;
	for (pass = 0; pass < 3 && !ctx->lttng_modules_before; pass++) {
		mods = lc_read_file("/proc/modules", NULL);
		for (p = mods; p && *p;) {
			size_t n = strcspn(p, " ");
			char name[64];
			char *argv[] = { "modprobe", "-r", name, NULL };

			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			if (!strncmp(name, "lttng_", 6) &&
			    strcmp(name, "lttng_calibrate") &&
			    strcmp(name, "lttng_calibrate_test_pmu"))
				lc_bench_exec(ctx, argv, NULL, NULL, 30, 0);
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		free(mods);
	}
}

static enum lc_bench_prep lc_lttng_prepare(struct lc_bench_ctx *ctx,
					   const struct lc_bench_mech *m,
					   char *why, size_t len)
{
	char *modinfo[] = { "modinfo", "lttng-tracer", NULL };
	char err[PATH_MAX + 32], out[PATH_MAX + 32], last[160];
	char subbuf[32], event[64];
	unsigned long long need = (ctx->iterations + 1) * 2 * 64, nsub;
	int kprobe = !strcmp(m->arg, "kprobe");
	enum lc_bench_prep rc;

	if (!lc_bench_have("lttng") || !lc_bench_have("lttng-sessiond")) {
		snprintf(why, len,
			 "lttng-tools is not installed (apt-get install lttng-tools)");
		return LC_PREP_UNAVAILABLE;
	}
	rc = lc_need("babeltrace2", "babeltrace2", why, len);
	if (rc != LC_PREP_OK)
		return rc;
	if (lc_bench_exec(ctx, modinfo, NULL, NULL, 30, 0)) {
		snprintf(why, len,
			 "lttng-modules are not installed for this kernel (tools/lttng/build-lttng-modules)");
		return LC_PREP_UNAVAILABLE;
	}
	rc = lc_sessiond(ctx, why, len);
	if (rc != LC_PREP_OK)
		return rc;
	for (nsub = 2; nsub * (4 << 20) < need && nsub < 16; nsub *= 2)
		;
	snprintf(subbuf, sizeof(subbuf), "%llu", nsub);
	snprintf(out, sizeof(out), "--output=%s/trace-%s", ctx->tmpdir,
		 m->name);
	snprintf(err, sizeof(err), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	ctx->touched |= LC_T_LTTNG_SESSION;
	if (lc_lttng(ctx, err, "create", ctx->session, out, NULL) ||
	    lc_lttng(ctx, err, "enable-channel", "--kernel", "-s",
		     ctx->session, "--subbuf-size=4M", "--num-subbuf", subbuf,
		     LC_LTTNG_CHANNEL, NULL))
		goto fail;
	if (kprobe) {
		if (lc_lttng(ctx, err, "enable-event", "--kernel", "-s",
			     ctx->session, "-c", LC_LTTNG_CHANNEL,
			     "--probe=" LC_BENCH_TARGET, LC_EV_LTTNG_KPROBE,
			     NULL))
			goto fail;
	} else {
		snprintf(event, sizeof(event), "%s", LC_EV_LTTNG);
		if (lc_lttng(ctx, err, "enable-event", "--kernel", "-s",
			     ctx->session, "-c", LC_LTTNG_CHANNEL,
			     "--function=" LC_BENCH_TARGET, event, NULL))
			goto fail;
	}
	/* Software contexts only: a hardware one oopses lttng-modules
	 * 2.13 where there is no PMU (QEMU TCG).
	 */
	if (!strcmp(m->arg, "contexts") &&
	    lc_lttng(ctx, err, "add-context", "--kernel", "-s", ctx->session,
		     "-c", LC_LTTNG_CHANNEL, "-t", "perf:cpu:cpu-clock", "-t",
		     "perf:cpu:page-fault", NULL))
		goto fail;
	if (lc_lttng(ctx, err, "start", ctx->session, NULL))
		goto fail;
	return LC_PREP_OK;
fail:
	lc_bench_last_line(err, last, sizeof(last));
	snprintf(why, len, "lttng: %s", last);
	return LC_PREP_FAILED;
}

/* LTTng rows: babeltrace2 of the session's trace, its events counted. */
static int lc_lttng_count(struct lc_bench_ctx *ctx,
			  const struct lc_bench_mech *m,
			  struct lc_bench_row *row)
{
	char trace[PATH_MAX + 32], err[PATH_MAX + 32], lerr[PATH_MAX + 32];
	char *argv[] = { "babeltrace2", trace, NULL };
	int kprobe = !strcmp(m->arg, "kprobe");
	long long entries, exits = 0;

	snprintf(lerr, sizeof(lerr), "%s/lttng-%s.err", ctx->tmpdir, m->name);
	if (lc_lttng(ctx, lerr, "stop", ctx->session, NULL)) {
		lc_bench_last_line(lerr, row->reason, sizeof(row->reason));
		row->status = LC_BENCH_FAILED;
		return -1;
	}
	snprintf(trace, sizeof(trace), "%s/trace-%s", ctx->tmpdir, m->name);
	if (kprobe)
		entries = lc_count_lines(ctx, argv, m->name,
					 " " LC_EV_LTTNG_KPROBE ": ", NULL,
					 NULL, err, sizeof(err));
	else
		entries = lc_count_lines(ctx, argv, m->name,
					 " " LC_EV_LTTNG "_entry: ",
					 " " LC_EV_LTTNG "_exit: ", &exits,
					 err, sizeof(err));
	if (entries < 0) {
		lc_bench_last_line(err, row->reason, sizeof(row->reason));
		row->status = LC_BENCH_FAILED;
		return -1;
	}
	row->events_recorded = kprobe || exits > entries ? entries : exits;
	if (lc_file_has(err, "discarded")) {
		snprintf(row->reason, sizeof(row->reason),
			 "LTTng discarded events (%lld entries, %lld exits)",
			 entries, exits);
		row->status = LC_BENCH_LOST;
		return -1;
	}
	if (!kprobe && entries != exits) {
		snprintf(row->reason, sizeof(row->reason),
			 "%lld entry events but %lld exit events", entries,
			 exits);
		row->status = LC_BENCH_LOST;
		return -1;
	}
	return 0;
}

const struct lc_bench_mech lc_bench_mechs[] = {
	{ "none", "none", "function", 0, NULL, NULL, NULL, NULL, NULL },
	{ "kprobe", "kprobe", "function", 0, NULL, lc_module_prepare, NULL,
	  lc_module_count, NULL },
	{ "kretprobe", "kretprobe", "function", 0, NULL, lc_module_prepare,
	  NULL, lc_module_count, NULL },
	{ "fprobe", "fprobe", "function", 0, NULL, lc_module_prepare, NULL,
	  lc_module_count, NULL },
	{ "fprobe-exit", "fprobe-exit", "function", 0, NULL,
	  lc_module_prepare, NULL, lc_module_count, NULL },
	{ "ftrace-kprobe", "external", "function", 0,
	  "p:kprobes/" LC_EV_KPROBE " " LC_BENCH_TARGET,
	  lc_kprobe_event_prepare, NULL, lc_ftrace_count, NULL },
	{ "ftrace-kretprobe", "external", "function", 0,
	  "r:kprobes/" LC_EV_KRETPROBE " " LC_BENCH_TARGET,
	  lc_kprobe_event_prepare, NULL, lc_ftrace_count, NULL },
	{ "ftrace-fprobe", "external", "function", 0,
	  "f:fprobes/" LC_EV_FPROBE " " LC_BENCH_TARGET,
	  lc_fprobe_event_prepare, NULL, lc_ftrace_count, NULL },
	{ "ftrace-function", "external", "function", 0, "function",
	  lc_tracer_prepare, NULL, lc_ftrace_count, NULL },
	{ "ftrace-graph", "external", "function", 0, "function_graph",
	  lc_tracer_prepare, NULL, lc_ftrace_count, NULL },
	{ "tracepoint-off", "none", "tracepoint", 0, NULL, NULL, NULL, NULL,
	  NULL },
	{ "tracepoint-ftrace", "external", "tracepoint", 0, NULL,
	  lc_tp_ftrace_prepare, NULL, lc_ftrace_count, NULL },
	{ "tracepoint-perf", "external", "tracepoint", 0, LC_BENCH_TP,
	  lc_perf_tp_prepare, lc_perf_command, lc_perf_count, NULL },
	{ "tracepoint-bpf", "external", "tracepoint", 0,
	  "tracepoint:" LC_BENCH_TP, lc_bpftrace_prepare, lc_bpftrace_command,
	  lc_bpftrace_count, NULL },
	{ "lttng-function", "external", "function", 1, "function",
	  lc_lttng_prepare, NULL, lc_lttng_count, NULL },
	{ "lttng-function-contexts", "external", "function", 1, "contexts",
	  lc_lttng_prepare, NULL, lc_lttng_count, NULL },
	{ "lttng-kprobe", "external", "function", 1, "kprobe",
	  lc_lttng_prepare, NULL, lc_lttng_count, NULL },
	{ "perf-probe", "external", "function", 0, "probe:" LC_EV_PERF,
	  lc_perf_probe_prepare, lc_perf_command, lc_perf_count,
	  lc_perf_probe_teardown },
	{ "bpftrace-kprobe", "external", "function", 0,
	  "kprobe:" LC_BENCH_TARGET, lc_bpftrace_prepare, lc_bpftrace_command,
	  lc_bpftrace_count, NULL },
	{ "bpftrace-kretprobe", "external", "function", 0,
	  "kretprobe:" LC_BENCH_TARGET, lc_bpftrace_prepare,
	  lc_bpftrace_command, lc_bpftrace_count, NULL },
	{ "bpftrace-fentry", "external", "function", 0,
	  "kfunc:lttng_calibrate:" LC_BENCH_TARGET, lc_bpftrace_prepare,
	  lc_bpftrace_command, lc_bpftrace_count, NULL },
};

const size_t lc_bench_nr_mechs = sizeof(lc_bench_mechs) /
				 sizeof(lc_bench_mechs[0]);

/* Disable and remove one of our dynamic events, if it is there. */
static void lc_remove_event(struct lc_bench_ctx *ctx, const char *file,
			    const char *group, const char *name)
{
	char dir[128], def[160];

	snprintf(dir, sizeof(dir), "events/%s/%s", group, name);
	if (!lc_tfs_exists(ctx, dir))
		return;
	snprintf(def, sizeof(def), "%s/enable", dir);
	lc_tfs_write(ctx, def, "0", 0);
	snprintf(def, sizeof(def), "-:%s/%s", group, name);
	lc_tfs_write(ctx, file, def, O_APPEND);
}

static void lc_teardown_tracefs(struct lc_bench_ctx *ctx)
{
	if (!ctx->tracefs[0])
		return;
	if (ctx->touched & LC_T_TP_ENABLED)
		lc_tfs_write(ctx, LC_TP_DIR "/enable", "0", 0);
	if (ctx->touched & LC_T_TRACER)
		lc_tfs_write(ctx, "current_tracer",
			     ctx->saved_tracer[0] ? ctx->saved_tracer : "nop",
			     0);
	if (ctx->touched & LC_T_FTRACE_FILTER)
		lc_tfs_write(ctx, "set_ftrace_filter", "", O_TRUNC);
	if (ctx->touched & LC_T_GRAPH_FILTER)
		lc_tfs_write(ctx, "set_graph_function", "", O_TRUNC);
	lc_remove_event(ctx, "kprobe_events", "kprobes", LC_EV_KPROBE);
	lc_remove_event(ctx, "kprobe_events", "kprobes", LC_EV_KRETPROBE);
	lc_remove_event(ctx, "kprobe_events", "probe", LC_EV_PERF);
	lc_remove_event(ctx, "dynamic_events", "fprobes", LC_EV_FPROBE);
	if (ctx->touched & LC_T_TRACING_ON)
		lc_tfs_write(ctx, "tracing_on",
			     ctx->saved_tracing_on[0] ?
			     ctx->saved_tracing_on : "1", 0);
	if (ctx->touched & LC_T_TRACE_BUFFER)
		lc_tfs_write(ctx, "trace", "", O_TRUNC);
	if (ctx->touched & LC_T_BUFFER_SIZE)
		lc_tfs_write(ctx, "buffer_size_kb", ctx->saved_buffer_kb, 0);
	ctx->touched &= ~(LC_T_TP_ENABLED | LC_T_TRACER | LC_T_FTRACE_FILTER |
			  LC_T_GRAPH_FILTER | LC_T_TRACING_ON |
			  LC_T_TRACE_BUFFER | LC_T_BUFFER_SIZE |
			  LC_T_DYN_EVENTS | LC_T_PERF_PROBE);
}

/**
 * lc_bench_teardown() - undo whatever a row did
 * @ctx: the bench
 * @final: also stop the lttng-sessiond the bench started, and unmount the
 *	tracefs it mounted: the bench is over
 *
 * The tracer process of the run is stopped and waited for, the LTTng
 * session destroyed, our ftrace events and perf probe removed, the tracer,
 * its filters, tracing_on and the buffer size restored, and the module's
 * probe, target and work_cycles put back as they were found.  Idempotent.
 */
void lc_bench_teardown(struct lc_bench_ctx *ctx, int final)
{
	lc_bench_reap(ctx);
	if (ctx->touched & LC_T_LTTNG_SESSION) {
		lc_lttng(ctx, NULL, "destroy", ctx->session, NULL);
		ctx->touched &= ~LC_T_LTTNG_SESSION;
	}
	if (ctx->touched & LC_T_PERF_PROBE)
		lc_perf_probe_teardown(ctx, NULL);
	lc_teardown_tracefs(ctx);
	if (ctx->saved_probe[0])
		lc_bench_write(LC_DIR "/probe", ctx->saved_probe, 0);
	if (ctx->saved_target[0])
		lc_bench_write(LC_DIR "/target", ctx->saved_target, 0);
	if (ctx->saved_work[0] && strcmp(ctx->saved_work, "0"))
		lc_bench_write(LC_DIR "/work_cycles", ctx->saved_work, 0);
	if (!final)
		return;
	lc_bench_stop_sessiond(ctx);
	if (ctx->touched & LC_T_TRACEFS_MOUNTED) {
		char *argv[] = { "umount", ctx->tracefs, NULL };

		lc_bench_exec(ctx, argv, NULL, NULL, 30, 0);
		ctx->touched &= ~LC_T_TRACEFS_MOUNTED;
	}
}
