// SPDX-License-Identifier: GPL-2.0
/*
 * Time, child processes with a deadline, and random numbers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/wait.h>
#include <time.h>

#include "lttng_calibrate_util.h"

/**
 * sleep_ms() - sleep
 * @ms: for how long, in ms
 */
void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/**
 * now_ms() - CLOCK_MONOTONIC
 *
 * Return: its time, in ms.
 */
long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/**
 * reap_within() - reap a child if it exits in time
 * @pid: the child
 * @ms: how long to wait at most
 * @status: its wait status, once reaped
 *
 * Return: true when it was reaped, else false.
 */
bool reap_within(pid_t pid, long long ms, int *status)
{
	long long end = now_ms() + ms;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return true;
		if ((r < 0 && errno != EINTR) || now_ms() >= end)
			return false;
		sleep_ms(1);
	}
}

/**
 * rnd_next() - the next number of a xorshift64* sequence
 * @s: its state, never 0
 *
 * Repeatable from a seed, which a test logs, unlike rand().
 *
 * Return: the number.
 */
unsigned long long rnd_next(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/**
 * rnd_below() - a number of the sequence below a bound
 * @s: its state
 * @n: the bound, not 0
 *
 * Return: a number in [0, @n).
 */
unsigned int rnd_below(unsigned long long *s, unsigned int n)
{
	return (rnd_next(s) >> 32) % n;
}
