// SPDX-License-Identifier: GPL-2.0
/*
 * Runs of the module, and its status file while they go.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lttng_calibrate_util.h"

/**
 * run() - a run of the module, done by this process
 * @count: the iterations, as text
 *
 * Return: 0 once it completed, or the errno of the write to run.
 */
int run(const char *count)
{
	return write_str(DIR "run", count);
}

/**
 * run_traced() - a run with one of the module's tracepoints enabled
 * @target: what the run calls (the target file's word)
 * @event: the tracepoint, enabled through tracefs, disabled again after
 * @count: the iterations, as text
 *
 * Return: 0, or the errno of the first write that failed.
 */
int run_traced(const char *target, const char *event, const char *count)
{
	char enable[160];
	int err;

	snprintf(enable, sizeof(enable),
		 "/sys/kernel/tracing/events/lttng_calibrate/%s/enable", event);
	err = write_str(DIR "target", target);
	if (!err)
		err = write_str(enable, "1");
	if (err)
		return err;
	err = run(count);
	write_str(enable, "0");
	return err;
}

/**
 * start_run() - a run of the module in a child process
 * @count: the iterations, as text
 *
 * The child exits with the errno of its write (0 when the run completed).
 *
 * Return: its pid, or -1 when fork() failed.
 */
pid_t start_run(const char *count)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(run(count));
	return pid;
}

/**
 * run_number() - the number of the last run published
 *
 * Return: results_kv's run.number (0 before the first run), or -1 when it
 * cannot be read.
 */
long long run_number(void)
{
	char *text = lc_read_file(DIR "results_kv", NULL);
	long long n = text ? lc_kv_ll(text, "run.number", 0) : -1;

	free(text);
	return n;
}

/**
 * status_field() - a field of the status file
 * @field: its key
 * @val: its value, LLONG_MIN when absent
 *
 * Return: 0, or -1 when it is absent.
 */
int status_field(const char *field, long long *val)
{
	char *text = lc_read_file(DIR "status", NULL);

	*val = text ? lc_kv_ll(text, field, LLONG_MIN) : LLONG_MIN;
	free(text);
	return *val == LLONG_MIN ? -1 : 0;
}

/**
 * status_running() - whether the status file says a run is going on
 *
 * Return: true when it says "state=running".
 */
bool status_running(void)
{
	char *text = lc_read_file(DIR "status", NULL);
	bool running = text && strstr(text, "state=running");

	free(text);
	return running;
}

/**
 * wait_running() - wait for a run to be going
 * @done: the iterations it must have done
 * @ms: how long to wait at most
 *
 * Return: true once a run is going with at least @done iterations done.
 */
bool wait_running(long long done, int ms)
{
	long long d;

	for (; ms > 0; ms -= 10) {
		if (status_running() && !status_field("done", &d) && d >= done)
			return true;
		sleep_ms(10);
	}
	return false;
}

/**
 * wait_idle() - wait for no run to be going
 * @ms: how long to wait at most
 *
 * Return: true once the status file says no run is going on.
 */
bool wait_idle(int ms)
{
	for (; ms > 0; ms -= 10) {
		if (!status_running())
			return true;
		sleep_ms(10);
	}
	return !status_running();
}
