// SPDX-License-Identifier: GPL-2.0
/*
 * The run: a child process writes the iteration count to "run" and blocks
 * there until the run ends, while the parent shows progress from "status"
 * and forwards Ctrl-C to it.  A fatal signal in the writer is what makes the
 * module stop early and keep the iterations done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/proc.h"
#include "kv.h"
#include "lttng-calibrate.h"

#define LC_POLL_MS		200
/* Exit status of a writer that could not move to the asked CPU. */
#define LC_WRITER_NO_CPU	254

/**
 * struct lc_writer - what the writer child needs, and the progress shown
 * @opts: the options (iterations, CPU)
 * @fd: the run file, open for writing
 * @width: the width of the progress line shown, to erase it
 */
struct lc_writer {
	const struct lc_options *opts;
	int fd;
	int width;
};

/* In the child: pin, write, and exit with the write's errno (0: done). */
static int lc_writer(void *data)
{
	const struct lc_writer *w = data;
	char count[32];
	int len;

	if (w->opts->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->opts->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return LC_WRITER_NO_CPU;
	}
	len = snprintf(count, sizeof(count), "%llu\n", w->opts->iterations);
	if (write(w->fd, count, len) == len)
		return 0;
	return errno;
}

/* Read a key of a key=value file as a number; -1 when absent. */
static long long lc_read_number(const char *path, const char *key)
{
	char *text = lc_read_file(path, NULL);
	long long n = text ? lc_kv_ll(text, key, -1) : -1;

	free(text);
	return n;
}

/* "\r  done/asked iterations on CPU n" while running; returns its width. */
static int lc_show_progress(void)
{
	char *text = lc_read_file(LC_DIR "/status", NULL);
	struct lc_kv kv = { 0 };
	const char *state, *done, *asked, *cpu;
	int width = 0;

	if (text && !lc_kv_parse(&kv, text)) {
		state = lc_kv_get(&kv, "state");
		done = lc_kv_get(&kv, "done");
		asked = lc_kv_get(&kv, "asked");
		cpu = lc_kv_get(&kv, "cpu");
		if (state && !strcmp(state, "running") && done && asked && cpu)
			width = fprintf(stderr, "\r  %s/%s iterations on CPU %s",
					done, asked, cpu) - 1;
	}
	lc_kv_free(&kv);
	free(text);
	return width;
}

/* While the writer runs: progress, on a terminal. */
static void lc_progress(void *data)
{
	struct lc_writer *w = data;
	int width = lc_show_progress();

	w->width = width > w->width ? width : w->width;
}

/* Print the results of the last run in the chosen format. */
static int lc_print_results(enum lc_format format)
{
	struct lc_kv kv = { 0 };
	char *text;
	int err = -1;

	if (format == LC_FORMAT_TABLE) {
		text = lc_read_file(LC_DIR "/results", NULL);
		if (text) {
			fputs(text, stdout);
			free(text);
			return 0;
		}
	}
	text = lc_read_file(LC_DIR "/results_kv", NULL);
	if (!text) {
		lc_err("reading %s/results_kv: %s", LC_DIR, strerror(errno));
		return -1;
	}
	if (!lc_kv_parse(&kv, text)) {
		if (format == LC_FORMAT_CSV)
			err = lc_kv_print_csv(&kv, stdout);
		else if (format == LC_FORMAT_JSON)
			err = lc_kv_print_json(&kv, stdout);
		else
			err = lc_kv_print_table(&kv, stdout);
	}
	if (err)
		lc_err("printing the results failed");
	lc_kv_free(&kv);
	free(text);
	return err;
}

/*
 * After a run: each counter that did not open on the run's CPU (a PMU of
 * some CPUs only, on a CPU that came online after the list was checked),
 * from the result's own counter.NAME.refused, on stderr.  The run measured
 * without it; its figures are withheld.
 */
static void lc_warn_refused(void)
{
	char *text = lc_read_file(LC_DIR "/results_kv", NULL);
	const char *list, *name;
	char key[160], *names, *save = NULL;
	long long cpu, err;
	size_t len;

	list = text ? lc_kv_value(text, "counters", &len) : NULL;
	names = list ? strndup(list, len) : NULL;
	cpu = text ? lc_kv_ll(text, "run.cpu", -1) : -1;
	for (name = names ? strtok_r(names, ",", &save) : NULL; name;
	     name = strtok_r(NULL, ",", &save)) {
		snprintf(key, sizeof(key), "counter.%s.refused", name);
		err = lc_kv_ll(text, key, 0);
		if (err > 0)
			lc_err("counter %s does not open on CPU %lld (%s): the run measured without it, its figures are withheld; set cpu to a CPU of its PMU",
			       name, cpu, strerror(err));
	}
	free(names);
	free(text);
}

/* Why a write of the iteration count was refused; nothing was run. */
static void lc_explain_refusal(const struct lc_options *opts, int err)
{
	char *max, *cpu;

	switch (err) {
	case EBUSY:
		lc_err("another run is in progress");
		break;
	case EINVAL:
		lc_err("invalid iteration count %llu", opts->iterations);
		break;
	case E2BIG:
		max = lc_read_file(LC_PARAMS "/max_iterations", NULL);
		if (max)
			max[strcspn(max, "\n")] = '\0';
		lc_err("%llu is above max_iterations (%s): raise %s/max_iterations",
		       opts->iterations, max ? max : "?", LC_PARAMS);
		free(max);
		break;
	case ENODEV:
		cpu = lc_read_file(LC_PARAMS "/cpu", NULL);
		if (cpu)
			cpu[strcspn(cpu, "\n")] = '\0';
		lc_err("CPU %s is offline", cpu ? cpu : "?");
		free(cpu);
		break;
	case ENOMEM:
		lc_err("not enough kernel memory for the run's statistics");
		break;
	case ERANGE:
		lc_err("work_cycles lasts more than 2 ms of the run's clock: lower %s/work_cycles (the kernel log says the largest accepted)",
		       LC_DIR);
		break;
	case EPERM:
		lc_err("kernel lockdown forbids debugfs writes");
		break;
	default:
		lc_err("writing %s/run: %s", LC_DIR, strerror(err));
	}
}

/* A run that ended early: its partial results, and the exit status. */
static int lc_partial(const struct lc_options *opts, long long before,
		      const char *why)
{
	long long after = lc_read_number(LC_DIR "/results_kv", "run.number");
	int rc = lc_signal_caught() ? 128 + lc_signal_caught() : 1;

	if (after <= before) {
		lc_err("%s before the run started: no results", why);
		return rc;
	}
	lc_err("%s: partial results kept", why);
	lc_warn_refused();
	if (lc_print_results(opts->format))
		return 1;
	return rc;
}

static int lc_open_run(void)
{
	int fd = open(LC_DIR "/run", O_WRONLY | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == EPERM)
		lc_err("kernel lockdown forbids debugfs writes (opening %s/run)",
		       LC_DIR);
	else if (errno == EACCES)
		lc_err("%s/run: permission denied: run as root", LC_DIR);
	else
		lc_err("opening %s/run: %s", LC_DIR, strerror(errno));
	return -1;
}

/**
 * lc_run() - run, show progress, print the results
 * @opts: the options
 *
 * Return: the exit status of the command: 0, 1 on an error, 128 + the
 * signal number when interrupted (130 for Ctrl-C).
 */
int lc_run(const struct lc_options *opts)
{
	long long before = lc_read_number(LC_DIR "/results_kv", "run.number");
	struct lc_writer w = { .opts = opts, .fd = lc_open_run() };
	/* A caught signal reaches the writer as SIGINT: the run stops. */
	struct lc_proc p = { .fn = lc_writer, .data = &w,
			     .stop_on_signal = true, .poll_ms = LC_POLL_MS };
	int code, err;

	if (w.fd < 0)
		return 1;
	if (isatty(STDERR_FILENO))
		p.poll = lc_progress;
	lc_signal_catch();
	err = lc_proc_start(&p) || lc_proc_wait(&p) ? errno : 0;
	close(w.fd);
	if (w.width)
		fprintf(stderr, "\r%*s\r", w.width, "");
	if (err) {
		lc_err("the writer process: %s", strerror(err));
		lc_proc_reap(&p);
		return 1;
	}
	if (WIFSIGNALED(p.status))
		return lc_partial(opts, before, "interrupted");
	code = WEXITSTATUS(p.status);
	if (!code) {
		lc_warn_refused();
		return lc_print_results(opts->format) ? 1 : 0;
	}
	if (code == EINTR)
		return lc_partial(opts, before, "interrupted");
	/* ENODEV: the CPU was offline, or went during the run. */
	if (code == ENODEV &&
	    lc_read_number(LC_DIR "/results_kv", "run.number") > before)
		return lc_partial(opts, before,
				  "the run lost its CPU (CPU hot-unplug)");
	if (code == LC_WRITER_NO_CPU)
		lc_err("cannot run on CPU %d: offline, absent or not allowed",
		       opts->cpu);
	else
		lc_explain_refusal(opts, code);
	return 1;
}
