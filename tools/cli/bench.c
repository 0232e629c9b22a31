// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate bench: measure every instrumentation mechanism this
 * kernel offers, one run each, against the module's never-instrumented
 * twin, and print one row per mechanism.  Each mechanism is attached before
 * its run and detached after it, whatever happened; Ctrl-C stops the run
 * within one chunk and the bench then undoes everything it did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-run.h"
#include "lttng-calibrate.h"

#define LC_BENCH_DEFAULT_N	200000ULL
#define LC_BENCH_POLL_NS	50000000L

volatile sig_atomic_t lc_bench_signal;

static const char lc_bench_usage[] =
"Usage: lttng-calibrate bench [OPTION]...\n"
"\n"
"Measure, one run each on the running kernel, what every instrumentation\n"
"mechanism costs per call of lttng_calibrate_target(), against its\n"
"never-instrumented twin: nothing, the module's own kprobe, kretprobe,\n"
"fprobe and fprobe-exit, ftrace (kprobe, kretprobe and fprobe events, the\n"
"function and function_graph tracers), the module's tracepoint (off, and\n"
"on through ftrace, perf and bpftrace), LTTng (function event, with perf\n"
"contexts, kprobe event), perf probe and bpftrace (kprobe, kretprobe,\n"
"fentry).  Each is set up before its run and torn down after it, also on\n"
"an error or Ctrl-C.  One row per mechanism: overhead per call in cycles\n"
"and ns with its 95% interval, median, ratio to the kprobe, and the calls\n"
"the tracer recorded against those the run made.  What this machine cannot\n"
"offer is a row marked unavailable, with the reason.  Must be run as root.\n"
"\n"
"  -n, --iterations N    iterations of each run (default 200000)\n"
"      --format FORMAT   table (default), csv or json\n"
"      --plot FILE.svg   also draw the rows as an SVG bar chart\n"
"      --only LIST       only these mechanisms, comma separated\n"
"      --list            the mechanisms, in order, and exit\n"
"      --from-kv FILE    print rows recorded as key=value (see\n"
"                        lttng-calibrate(1)) instead of measuring\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 done (rows may be unavailable), 1 error or a failed row,\n"
"130 interrupted by Ctrl-C (the rows measured so far are printed).\n";

enum {
	LC_BENCH_OPT_FORMAT = 256,
	LC_BENCH_OPT_PLOT,
	LC_BENCH_OPT_ONLY,
	LC_BENCH_OPT_LIST,
	LC_BENCH_OPT_FROM_KV,
};

static const struct option lc_bench_options[] = {
	{ "iterations", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, LC_BENCH_OPT_FORMAT },
	{ "plot", required_argument, NULL, LC_BENCH_OPT_PLOT },
	{ "only", required_argument, NULL, LC_BENCH_OPT_ONLY },
	{ "list", no_argument, NULL, LC_BENCH_OPT_LIST },
	{ "from-kv", required_argument, NULL, LC_BENCH_OPT_FROM_KV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * struct lc_bench_opts - the bench's command line
 * @iterations: N
 * @format: how to print the rows
 * @plot: the SVG file, or NULL
 * @only: the comma-separated mechanisms, or NULL for all
 * @from_kv: the recorded rows to print, or NULL to measure
 */
struct lc_bench_opts {
	unsigned long long iterations;
	enum lc_format format;
	const char *plot;
	const char *only;
	const char *from_kv;
};

/**
 * lc_bench_last_line() - the last non-empty line of a file
 * @path: the file
 * @buf: where to copy it ("" when there is none)
 * @len: its size
 */
void lc_bench_last_line(const char *path, char *buf, size_t len)
{
	char *text = lc_read_file(path, NULL);
	char *end, *start;

	buf[0] = '\0';
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(text, '\n');
	snprintf(buf, len, "%s", start ? start + 1 : text);
	free(text);
}

/**
 * lc_bench_have() - is a command on PATH?
 * @cmd: its name
 *
 * Return: 1 if an executable of that name is on PATH (or /usr/sbin,
 * /sbin), else 0.
 */
int lc_bench_have(const char *cmd)
{
	const char *path = getenv("PATH");
	char dirs[4096], file[PATH_MAX];
	char *dir, *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/sbin:/usr/bin:/bin",
		 path ? path : "");
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", dir, cmd);
		if (!access(file, X_OK))
			return 1;
	}
	return 0;
}

/* In a child: its own process group, default signals, redirections. */
static void lc_bench_child(char *const argv[], const char *out,
			   const char *err)
{
	int fd;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	fd = open(out ? out : "/dev/null",
		  O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	fd = open(err ? err : "/dev/null",
		  O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static pid_t lc_bench_spawn(char *const argv[], const char *out,
			    const char *err)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid)
		lc_bench_child(argv, out, err);
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/*
 * Wait for a process, @timeout_s seconds at most (0: no limit); on a caught
 * signal, when @killable, or on the timeout, its process group gets SIGINT,
 * then SIGKILL 5 s later.  Return: its wait status, or -1; *@timed_out
 * (when not NULL) says whether the timeout stopped it.
 */
static int lc_bench_wait(pid_t pid, int timeout_s, int killable,
			 int *timed_out)
{
	const struct timespec poll = { 0, LC_BENCH_POLL_NS };
	long ticks = 0, per_s = 1000000000L / LC_BENCH_POLL_NS;
	long killed_at = -1;
	int status;

	for (;; ticks++) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid)
			return status;
		if (done < 0 && errno != EINTR)
			return -1;
		if (killed_at < 0 &&
		    ((killable && lc_bench_signal) ||
		     (timeout_s && ticks >= timeout_s * per_s))) {
			if (timed_out)
				*timed_out = !(killable && lc_bench_signal);
			kill(-pid, SIGINT);
			killed_at = ticks;
		}
		if (killed_at >= 0 && ticks - killed_at == 5 * per_s)
			kill(-pid, SIGKILL);
		nanosleep(&poll, NULL);
	}
}

/**
 * lc_bench_exec() - run a command to its end
 * @ctx: the bench (unused for now: the command is not the run's tracer)
 * @argv: the command
 * @out: file for its stdout, or NULL for /dev/null
 * @err: file for its stderr, or NULL for /dev/null
 * @timeout_s: kill it after that many seconds (0: never)
 * @killable: kill it too when the bench is interrupted
 *
 * The command runs in its own process group, so that a Ctrl-C at the
 * terminal reaches the bench only.
 *
 * Return: its exit status, 128 + a signal that killed it, -1 when it
 * could not be started, or LC_BENCH_TIMED_OUT when it was stopped after
 * @timeout_s seconds.
 */
int lc_bench_exec(struct lc_bench_ctx *ctx, char *const argv[],
		  const char *out, const char *err, int timeout_s,
		  int killable)
{
	pid_t pid = lc_bench_spawn(argv, out, err);
	int status, timed_out = 0;

	(void)ctx;
	if (pid < 0)
		return -1;
	status = lc_bench_wait(pid, timeout_s, killable, &timed_out);
	if (status < 0)
		return -1;
	if (timed_out)
		return LC_BENCH_TIMED_OUT;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/**
 * lc_bench_reap() - stop the tracer of the run, if one is left
 * @ctx: the bench
 *
 * SIGINT to its process group (perf and bpftrace finish their output on
 * it), SIGKILL 5 s later, then waited for: no process is left behind.
 */
void lc_bench_reap(struct lc_bench_ctx *ctx)
{
	if (ctx->child <= 0)
		return;
	kill(-ctx->child, SIGINT);
	lc_bench_wait(ctx->child, 1, 0, NULL);
	kill(-ctx->child, SIGKILL);
	ctx->child = 0;
}

static void lc_bench_on_signal(int sig)
{
	lc_bench_signal = sig;
}

/* No SA_RESTART: the blocking write to run returns, and the run stops. */
static void lc_bench_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lc_bench_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
}

/* The word in brackets of a choice file ("none [kprobe] ..."). */
static void lc_bench_choice(const char *path, char *buf, size_t len)
{
	char *text = lc_read_file(path, NULL);
	char *open = text ? strchr(text, '[') : NULL;
	char *close = open ? strchr(open, ']') : NULL;

	buf[0] = '\0';
	if (close) {
		*close = '\0';
		snprintf(buf, len, "%s", open + 1);
	}
	free(text);
}

static int lc_bench_tmpdir(struct lc_bench_ctx *ctx)
{
	char script[128];
	int err;

	snprintf(ctx->tmpdir, sizeof(ctx->tmpdir),
		 "/tmp/lttng-calibrate-bench.XXXXXX");
	if (!mkdtemp(ctx->tmpdir)) {
		lc_err("mkdtemp %s: %s", ctx->tmpdir, strerror(errno));
		ctx->tmpdir[0] = '\0';
		return -1;
	}
	chmod(ctx->tmpdir, 0755);
	snprintf(ctx->writer, sizeof(ctx->writer), "%s/run", ctx->tmpdir);
	snprintf(script, sizeof(script), "#!/bin/sh\necho %llu > %s/run\n",
		 ctx->iterations, LC_DIR);
	err = lc_bench_write(ctx->writer, script, O_CREAT | O_TRUNC);
	chmod(ctx->writer, 0755);
	if (err) {
		lc_err("writing %s: %s", ctx->writer, strerror(err));
		return -1;
	}
	return 0;
}

static int lc_bench_rm(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

static void lc_bench_rm_tmpdir(struct lc_bench_ctx *ctx)
{
	if (ctx->tmpdir[0])
		nftw(ctx->tmpdir, lc_bench_rm, 16, FTW_DEPTH | FTW_PHYS);
	ctx->tmpdir[0] = '\0';
}

/* Where tracefs is, mounting it on /sys/kernel/tracing when it is not. */
static void lc_bench_find_tracefs(struct lc_bench_ctx *ctx)
{
	char *const mount_argv[] = { "mount", "-t", "tracefs", "nodev",
				     LC_BENCH_TRACEFS, NULL };

	ctx->tracefs[0] = '\0';
	if (!access(LC_BENCH_TRACEFS "/trace", F_OK)) {
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_BENCH_TRACEFS);
		return;
	}
	if (!access(LC_BENCH_TRACEFS, F_OK) &&
	    !lc_bench_exec(ctx, mount_argv, NULL, NULL, 30, 0) &&
	    !access(LC_BENCH_TRACEFS "/trace", F_OK)) {
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_BENCH_TRACEFS);
		ctx->touched |= LC_T_TRACEFS_MOUNTED;
		return;
	}
	if (!access(LC_DEBUGFS "/tracing/trace", F_OK))
		snprintf(ctx->tracefs, sizeof(ctx->tracefs), LC_DEBUGFS "/tracing");
}

static void lc_bench_save_module(struct lc_bench_ctx *ctx)
{
	char *work = lc_read_file(LC_DIR "/work_cycles", NULL);

	lc_bench_choice(LC_DIR "/probe", ctx->saved_probe,
			sizeof(ctx->saved_probe));
	lc_bench_choice(LC_DIR "/target", ctx->saved_target,
			sizeof(ctx->saved_target));
	snprintf(ctx->saved_work, sizeof(ctx->saved_work), "%s",
		 work ? work : "");
	ctx->saved_work[strcspn(ctx->saved_work, "\n")] = '\0';
	free(work);
}

/* The row's numbers from the results_kv of its run. */
static void lc_bench_fill(struct lc_bench_row *row, const char *kv)
{
	row->measured = 1;
	row->overhead_cycles = lc_kv_double(kv, "overhead.cycles.mean", 0);
	row->ci95_cycles = lc_kv_double(kv, "overhead.cycles.ci95", 0);
	row->overhead_ns = lc_kv_double(kv, "overhead.ns.mean", 0);
	row->ci95_ns = lc_kv_double(kv, "overhead.ns.ci95", 0);
	row->stddev_cycles = lc_kv_double(kv,
						"difference.cycles.stddev", 0);
	row->median_cycles = lc_kv_ll(kv, "difference.cycles.median", 0);
	row->samples = lc_kv_ll(kv, "run.iterations.done", 0);
}

static void lc_bench_set(struct lc_bench_row *row, enum lc_bench_status st,
			 const char *why)
{
	row->status = st;
	snprintf(row->reason, sizeof(row->reason), "%s", why);
}

/* The run itself: the bench writes N, or the tracer runs the writer. */
static int lc_bench_do_run(struct lc_bench_ctx *ctx,
			   const struct lc_bench_mech *m, char *why,
			   size_t len)
{
	char *argv[LC_BENCH_ARGV_MAX], buf[4096], count[32];
	char out[PATH_MAX + 16], err[PATH_MAX + 16], last[160];
	int status, e;

	if (!m->command) {
		snprintf(count, sizeof(count), "%llu\n", ctx->iterations);
		e = lc_bench_write(LC_DIR "/run", count, 0);
		if (e && e != EINTR)
			snprintf(why, len, "writing %s/run: %s", LC_DIR,
				 strerror(e));
		return e ? -1 : 0;
	}
	if (m->command(ctx, m, argv, buf, sizeof(buf))) {
		snprintf(why, len, "no command line for %s", m->name);
		return -1;
	}
	snprintf(out, sizeof(out), "%s/%s.out", ctx->tmpdir, m->name);
	snprintf(err, sizeof(err), "%s/%s.err", ctx->tmpdir, m->name);
	ctx->child = lc_bench_spawn(argv, out, err);
	if (ctx->child < 0) {
		ctx->child = 0;
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	/* ctx->child stays set: teardown kills what is left of its group. */
	status = lc_bench_wait(ctx->child, 0, 1, NULL);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		lc_bench_last_line(err, last, sizeof(last));
		if (lc_bench_signal)
			snprintf(why, len, "interrupted");
		else
			snprintf(why, len, "%s exited with status %d: %s",
				 argv[0], status < 0 ? -1 :
				 WIFEXITED(status) ? WEXITSTATUS(status) :
				 128 + WTERMSIG(status), last);
		return -1;
	}
	return 0;
}

/* One row: prepare, run, read the results, count, tear down. */
static void lc_bench_row(struct lc_bench_ctx *ctx, struct lc_bench *b,
			 const struct lc_bench_mech *m)
{
	struct lc_bench_row *row = lc_bench_add_row(b, m->name);
	char why[LC_BENCH_REASON_MAX] = "", state[32] = "";
	long long before, after;
	const char *value;
	size_t len;
	int e, ran;

	if (!row)
		return;
	switch (m->prepare ? m->prepare(ctx, m, why, sizeof(why)) :
		LC_PREP_OK) {
	case LC_PREP_OK:
		break;
	case LC_PREP_UNAVAILABLE:
		lc_bench_set(row, LC_BENCH_UNAVAILABLE, why);
		goto out;
	default:
		lc_bench_set(row, LC_BENCH_FAILED, why);
		goto out;
	}
	e = lc_bench_write(LC_DIR "/probe", m->probe, 0);
	if (!e)
		e = lc_bench_write(LC_DIR "/target", m->target, 0);
	if (!e && ctx->saved_work[0] && strcmp(ctx->saved_work, "0"))
		e = lc_bench_write(LC_DIR "/work_cycles", "0", 0);
	if (e) {
		snprintf(why, sizeof(why), "module settings (probe %s, target %s): %s",
			 m->probe, m->target, strerror(e));
		lc_bench_set(row, LC_BENCH_FAILED, why);
		goto out;
	}
	if (lc_bench_signal) {
		lc_bench_set(row, LC_BENCH_FAILED, "interrupted");
		goto out;
	}
	free(ctx->results);
	ctx->results = lc_read_file(LC_DIR "/results_kv", NULL);
	before = lc_kv_ll(ctx->results, "run.number", 0);
	ran = !lc_bench_do_run(ctx, m, why, sizeof(why));
	free(ctx->results);
	ctx->results = lc_read_file(LC_DIR "/results_kv", NULL);
	after = lc_kv_ll(ctx->results, "run.number", 0);
	value = lc_kv_value(ctx->results, "run.state", &len);
	if (value)
		snprintf(state, sizeof(state), "%.*s", (int)len, value);
	if (after <= before) {
		lc_bench_set(row, LC_BENCH_FAILED,
			     why[0] ? why : "the run did not take place");
		goto out;
	}
	lc_bench_fill(row, ctx->results);
	if (strcmp(state, "complete")) {
		snprintf(why, sizeof(why), "run %s (%lld of %llu iterations)",
			 lc_bench_signal ? "interrupted" : state, row->samples,
			 ctx->iterations);
		lc_bench_set(row, LC_BENCH_FAILED, why);
		goto out;
	}
	if (!ran) {
		lc_bench_set(row, LC_BENCH_FAILED, why);
		goto out;
	}
	if (!m->count)
		goto out;
	/* Every run calls the target once more, for its cold sample. */
	row->events_expected = row->samples + 1;
	if (m->count(ctx, m, row))
		goto out;
	if (row->events_recorded < row->events_expected) {
		snprintf(why, sizeof(why), "lost %lld of %lld calls",
			 row->events_expected - row->events_recorded,
			 row->events_expected);
		lc_bench_set(row, LC_BENCH_LOST, why);
	} else if (row->events_recorded > row->events_expected) {
		snprintf(why, sizeof(why),
			 "recorded %lld calls, more than the run made (another tracer on the target?)",
			 row->events_recorded);
		lc_bench_set(row, LC_BENCH_FAILED, why);
	}
out:
	if (m->teardown)
		m->teardown(ctx, m);
	lc_bench_teardown(ctx, 0);
}

/* Is NAME in the comma-separated LIST? */
static int lc_bench_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Every word of --only names a mechanism. */
static int lc_bench_check_only(const char *list)
{
	const char *p = list;
	char word[64];
	size_t i;

	while (*p) {
		size_t len = strcspn(p, ",");
		int found = 0;

		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		for (i = 0; i < lc_bench_nr_mechs; i++)
			found |= !strcmp(word, lc_bench_mechs[i].name);
		if (!found) {
			char names[1024] = "";

			for (i = 0; i < lc_bench_nr_mechs; i++)
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), "%s%s",
					 i ? ", " : "", lc_bench_mechs[i].name);
			lc_err("--only: unknown mechanism '%s' (mechanisms: %s)",
			       word, names);
			return -1;
		}
		p += len + (p[len] == ',');
	}
	if (!*list) {
		lc_err("--only: an empty list");
		return -1;
	}
	return 0;
}

static void lc_bench_header(struct lc_bench *b, unsigned long long n)
{
	struct utsname u;
	char *cpuinfo = lc_read_file("/proc/cpuinfo", NULL);
	char model[LC_BENCH_TEXT_MAX] = "unknown";
	const char *value;
	size_t len;

	if (!uname(&u))
		snprintf(b->kernel, sizeof(b->kernel), "%s", u.release);
	value = lc_field(cpuinfo, "model name\t: ", &len);
	if (value) {
		while (len && value[len - 1] == ' ')
			len--;
		snprintf(model, sizeof(model), "%.*s", (int)len, value);
	}
	snprintf(b->cpu_model, sizeof(b->cpu_model), "%s", model);
	free(cpuinfo);
	b->iterations = n;
	snprintf(b->clock, sizeof(b->clock), "tsc");
	b->clock_khz = -1;
}

static void lc_bench_clock(struct lc_bench *b)
{
	char *kv = lc_read_file(LC_DIR "/results_kv", NULL);
	const char *value;
	size_t len;

	value = lc_kv_value(kv, "clock.name", &len);
	if (value)
		snprintf(b->clock, sizeof(b->clock), "%.*s", (int)len, value);
	b->clock_khz = lc_kv_ll(kv, "clock.khz", -1);
	free(kv);
}

static int lc_bench_output(const struct lc_bench *b,
			   const struct lc_bench_opts *o, FILE *plot)
{
	int err;

	if (o->format == LC_FORMAT_JSON)
		err = lc_bench_print_json(b, stdout);
	else if (o->format == LC_FORMAT_CSV)
		err = lc_bench_print_csv(b, stdout);
	else
		err = lc_bench_print_table(b, stdout);
	if (fflush(stdout) || err) {
		lc_err("writing the rows: %s", strerror(errno));
		err = -1;
	}
	if (plot) {
		if (lc_bench_plot_svg(b, plot) | fclose(plot)) {
			lc_err("writing %s: %s", o->plot, strerror(errno));
			err = -1;
		}
	}
	return err;
}

static int lc_bench_from_kv(const struct lc_bench_opts *o, FILE *plot)
{
	static struct lc_bench b;
	char why[256];
	char *text = lc_read_file(o->from_kv, NULL);

	if (!text) {
		lc_err("--from-kv %s: %s", o->from_kv, strerror(errno));
		if (plot)
			fclose(plot);
		return 1;
	}
	if (lc_bench_load_kv(&b, text, why, sizeof(why))) {
		lc_err("--from-kv %s: %s", o->from_kv, why);
		free(text);
		if (plot)
			fclose(plot);
		return 1;
	}
	free(text);
	return lc_bench_output(&b, o, plot) ? 1 : 0;
}

/* Measure every row asked for; the exit status. */
static int lc_bench_measure(const struct lc_bench_opts *o, FILE *plot)
{
	static struct lc_bench b;
	struct lc_bench_ctx ctx;
	int failed = 0, rc;
	size_t i, j;

	memset(&ctx, 0, sizeof(ctx));
	ctx.iterations = o->iterations;
	lc_bench_header(&b, o->iterations);
	lc_bench_catch_signals();
	if (lc_setup() || lc_bench_tmpdir(&ctx)) {
		lc_bench_rm_tmpdir(&ctx);
		if (plot)
			fclose(plot);
		return 1;
	}
	lc_bench_save_module(&ctx);
	lc_bench_find_tracefs(&ctx);
	snprintf(ctx.session, sizeof(ctx.session), "lttng-calibrate-bench-%d",
		 (int)getpid());
	/* LTTng's client writes its .lttngrc there, not in $HOME. */
	setenv("LTTNG_HOME", ctx.tmpdir, 1);

	for (i = 0; i < lc_bench_nr_mechs && !lc_bench_signal; i++) {
		const struct lc_bench_mech *m = &lc_bench_mechs[i];

		if (o->only && !lc_bench_listed(o->only, m->name))
			continue;
		lc_bench_row(&ctx, &b, m);
		if (!m->lttng)
			continue;
		for (j = i + 1; j < lc_bench_nr_mechs; j++)
			if (lc_bench_mechs[j].lttng &&
			    (!o->only ||
			     lc_bench_listed(o->only, lc_bench_mechs[j].name)))
				break;
		if (j == lc_bench_nr_mechs)
			lc_bench_stop_sessiond(&ctx);
	}
	lc_bench_teardown(&ctx, 1);
	lc_bench_rm_tmpdir(&ctx);
	free(ctx.results);
	lc_bench_clock(&b);
	lc_bench_set_ratios(&b);
	for (i = 0; i < b.nr; i++)
		failed |= b.rows[i].status == LC_BENCH_FAILED;
	rc = lc_bench_output(&b, o, plot) ? 1 : 0;
	if (lc_bench_signal) {
		lc_err("interrupted: every mechanism detached; %zu rows printed",
		       b.nr);
		return 128 + lc_bench_signal;
	}
	return rc || failed;
}

static int lc_bench_parse(int argc, char **argv, struct lc_bench_opts *o)
{
	unsigned long long v;
	size_t i;
	char *end;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "n:h", lc_bench_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'n':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (!*optarg || *end || errno || !v ||
			    strspn(optarg, "0123456789") != strlen(optarg)) {
				lc_err("invalid iteration count '%s': a decimal number from 1",
				       optarg);
				return 1;
			}
			o->iterations = v;
			break;
		case LC_BENCH_OPT_FORMAT:
			if (!strcmp(optarg, "table")) {
				o->format = LC_FORMAT_TABLE;
			} else if (!strcmp(optarg, "csv")) {
				o->format = LC_FORMAT_CSV;
			} else if (!strcmp(optarg, "json")) {
				o->format = LC_FORMAT_JSON;
			} else {
				lc_err("invalid format '%s': table, csv or json",
				       optarg);
				return 1;
			}
			break;
		case LC_BENCH_OPT_PLOT:
			o->plot = optarg;
			break;
		case LC_BENCH_OPT_ONLY:
			if (lc_bench_check_only(optarg))
				return 1;
			o->only = optarg;
			break;
		case LC_BENCH_OPT_LIST:
			for (i = 0; i < lc_bench_nr_mechs; i++)
				puts(lc_bench_mechs[i].name);
			return -1;
		case LC_BENCH_OPT_FROM_KV:
			o->from_kv = optarg;
			break;
		case 'h':
			fputs(lc_bench_usage, stdout);
			return -1;
		default:
			lc_err("bench: unknown option '%s' (see lttng-calibrate bench --help)",
			       argv[optind - 1]);
			return 1;
		}
	}
	if (optind < argc) {
		lc_err("bench: unexpected argument '%s'", argv[optind]);
		return 1;
	}
	return 0;
}

/**
 * lc_bench_main() - the bench subcommand
 * @argc: its arguments' count, "bench" included
 * @argv: its arguments, argv[0] being "bench"
 *
 * Return: the exit status: 0, 1 on an error or a failed row, 128 + the
 * signal when interrupted.
 */
int lc_bench_main(int argc, char **argv)
{
	struct lc_bench_opts o = {
		.iterations = LC_BENCH_DEFAULT_N,
		.format = LC_FORMAT_TABLE,
	};
	int rc = lc_bench_parse(argc, argv, &o);
	FILE *plot = NULL;

	if (rc)
		return rc < 0 ? 0 : rc;
	if (!o.from_kv && lc_need_root())
		return 1;
	if (o.plot) {
		plot = fopen(o.plot, "w");
		if (!plot) {
			lc_err("--plot %s: %s", o.plot, strerror(errno));
			return 1;
		}
	}
	if (o.from_kv)
		return lc_bench_from_kv(&o, plot);
	return lc_bench_measure(&o, plot);
}
