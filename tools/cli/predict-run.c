// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate predict's runs of the workload: the command run N times,
 * each run in a cgroup of predict's own when there is cgroup2 (its CPU
 * time and that of every process it starts) or else timed by getrusage(),
 * the configuration traced started before it and stopped after it, and
 * what it left running killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../lib/cgroup.h"
#include "predict-run.h"

/**
 * lc_predict_cgroup_make() - the cgroup the command runs in
 * @pc: the configurations' context: its scratch directory; its cgroup
 *	is set
 * @cpu_time: where to say how CPU time is measured
 * @len: its size
 *
 * Without cgroup2, the CPU time is getrusage()'s, of the children the
 * command waits for; @cpu_time says so, and why.
 */
void lc_predict_cgroup_make(struct lc_predict_ctx *pc, char *cpu_time,
			    size_t len)
{
	lc_cgroup_make(&pc->cgroup, pc->tracer.tmpdir, "lc-predict");
	if (pc->cgroup.made)
		snprintf(cpu_time, len,
			 "cgroup (the command and every process it starts)");
	else
		snprintf(cpu_time, len,
			 "getrusage (the children the command waits for; no %s)",
			 pc->cgroup.why);
}

/* "Throughput N" in what the command printed, or NaN. */
static double lc_pr_throughput(const char *path)
{
	char *text = lc_read_file(path, NULL);
	const char *p = text ? strstr(text, "Throughput ") : NULL;
	double v = NAN;
	char *end;

	if (p) {
		v = strtod(p + 11, &end);
		if (end == p + 11)
			v = NAN;
	}
	free(text);
	return v;
}

/*
 * What the command left running in its cgroup killed, and waited for
 * (the cgroup empty), at most 5 s.
 */
static void lc_pr_cgroup_kill(const struct lc_cgroup *cg)
{
	if (lc_cgroup_empty(cg))
		lc_err("predict: killing what the command left in %s: %s",
		       cg->dir, errno == ENOSYS ?
		       "this kernel has neither cgroup.kill (Linux 5.14) nor pidfd_open() (Linux 5.3)" :
		       strerror(errno));
}

/*
 * One run of the command: the CPU time of its cgroup (or of the children
 * it waited for), in ns; what it printed goes to the scratch directory;
 * what it left running is killed.
 */
static int lc_pr_run_command(struct lc_predict_ctx *pc, char **argv,
			     double *cpu_ns, double *throughput)
{
	char out[PATH_MAX + 32], err[PATH_MAX + 32], last[160];
	struct rusage before, after;
	double cg_before, cg_after;
	struct lc_proc proc = {
		.argv = argv, .null_in = true, .group = true,
		.stop_on_signal = true, .kill_ms = LC_TRACER_KILL_MS,
	};
	int code;

	snprintf(out, sizeof(out), "%s/command.out", pc->tracer.tmpdir);
	snprintf(err, sizeof(err), "%s/command.err", pc->tracer.tmpdir);
	proc.out = out;
	proc.err = err;
	if (pc->cgroup.made)
		proc.cgroup_procs = pc->cgroup.procs;
	cg_before = lc_cgroup_cpu_ns(&pc->cgroup);
	getrusage(RUSAGE_CHILDREN, &before);
	code = lc_proc_run(&proc);
	getrusage(RUSAGE_CHILDREN, &after);
	lc_pr_cgroup_kill(&pc->cgroup);
	cg_after = lc_cgroup_cpu_ns(&pc->cgroup);
	if (lc_signal_caught())
		return -1;
	if (code) {
		lc_tracer_last_line(err, last, sizeof(last));
		if (code == -1)
			return lc_err("predict: %s: %s", argv[0],
				      strerror(errno));
		return lc_err("predict: %s exited with status %d%s%s", argv[0],
			      code, last[0] ? ": " : "", last);
	}
	if (pc->cgroup.made && cg_before >= 0 && cg_after >= cg_before)
		*cpu_ns = cg_after - cg_before;
	else
		*cpu_ns = ((after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
			   (after.ru_stime.tv_sec - before.ru_stime.tv_sec)) *
			  1e9 +
			  ((after.ru_utime.tv_usec - before.ru_utime.tv_usec) +
			   (after.ru_stime.tv_usec - before.ru_stime.tv_usec)) *
			  1e3;
	*throughput = lc_pr_throughput(out);
	return 0;
}

/**
 * lc_predict_runs() - N runs of the command, traced or not
 * @pc: the configurations' context: the scratch directory, the cgroup
 * @argv: the command
 * @runs: N
 * @t: the configuration that traces them, started before each run and
 *	stopped after it, or NULL for untraced runs
 * @r: where their CPU time, events and throughput go
 * @why: where to say why they stopped
 * @len: its size
 *
 * Return: 0; -1 when tracing failed or on Ctrl-C; -2 when the command
 * failed (said on stderr).
 */
int lc_predict_runs(struct lc_predict_ctx *pc, char **argv,
		    unsigned long long runs, const struct lc_predict_tracer *t,
		    struct lc_predict_runs *r, char *why, size_t len)
{
	long long events = 0, lost = 0;
	size_t i;

	for (i = 0; i < runs && !lc_signal_caught(); i++) {
		pc->tracer.run = (int)i;
		if (t && t->start(&pc->tracer, why, len))
			return -1;
		if (lc_pr_run_command(pc, argv, &r->cpu_ns[i],
				      &r->throughput[i])) {
			if (t) {
				long long e, l;
				char ignored[16];

				t->stop(&pc->tracer, &e, &l, ignored,
					sizeof(ignored));
			}
			snprintf(why, len, "the command failed");
			return -2;
		}
		if (t && t->stop(&pc->tracer, &events, &lost, why, len))
			return -1;
		r->events[i] = (double)events;
		r->lost[i] = (double)lost;
		r->nr = i + 1;
	}
	if (lc_signal_caught()) {
		snprintf(why, len, "interrupted");
		return -1;
	}
	return 0;
}

/**
 * lc_predict_cgroup_remove() - the cgroup emptied and removed
 * @pc: the configurations' context
 *
 * Return: 0, or -1 when its cgroup2 mount is still there (in the scratch
 * directory, which must then be left in place).
 */
int lc_predict_cgroup_remove(struct lc_predict_ctx *pc)
{
	lc_pr_cgroup_kill(&pc->cgroup);
	lc_cgroup_remove(&pc->cgroup);
	return pc->cgroup.mounted ? -1 : 0;
}
