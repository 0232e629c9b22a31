/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TOOLS_TAP_H
#define LTTNG_CALIBRATE_TOOLS_TAP_H

/*
 * TAP for the C unit tests (one test program per source file: the state
 * below is static).
 *
 * Without a plan the results are "ok - DESC" / "not ok - DESC", for a
 * runner that numbers the lines of several programs (tap.sh:
 * tap_component, tap_finish).  After tap_plan(N) they are numbered, after
 * "TAP version 13" and "1..N".  $TAP_PREFIX, when set, starts every
 * description ("[asan] ").  Diagnostics are "# " lines.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/**
 * struct tap_state - the results so far
 * @planned: the plan, 0 for unnumbered results
 * @run: results printed
 * @failed: how many of them failed
 */
static struct tap_state {
	unsigned int planned;
	unsigned int run;
	unsigned int failed;
} tap_state;

/**
 * tap_plan() - "TAP version 13", "1..@n", and numbered results from now on
 * @n: how many results will follow
 */
static inline void tap_plan(unsigned int n)
{
	printf("TAP version 13\n1..%u\n", n);
	tap_state.planned = n;
}

/* One result line: "[not ]ok [N ]- [$TAP_PREFIX]DESC[ # DIRECTIVE]". */
static inline void tap_vresult(int ok, const char *directive,
			       const char *fmt, va_list ap)
{
	const char *prefix = getenv("TAP_PREFIX");

	tap_state.run++;
	if (!ok)
		tap_state.failed++;
	fputs(ok ? "ok" : "not ok", stdout);
	if (tap_state.planned)
		printf(" %u", tap_state.run);
	printf(" - %s", prefix ? prefix : "");
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	putchar('\n');
}

/**
 * tap_check() - one result
 * @ok: whether it passed
 * @fmt: printf format of its description
 *
 * Return: @ok, for the diagnostics a caller prints after a failure.
 */
__attribute__((format(printf, 2, 3))) static inline int
tap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(ok, NULL, fmt, ap);
	va_end(ap);
	return ok;
}

/**
 * tap_skip() - one result that could not be checked: "ok - DESC # SKIP"
 * @fmt: printf format of its description and why
 */
__attribute__((format(printf, 1, 2))) static inline void
tap_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(1, "SKIP", fmt, ap);
	va_end(ap);
}

/**
 * tap_diag() - a diagnostic line: "# TEXT"
 * @fmt: printf format of the text, without a newline
 */
__attribute__((format(printf, 1, 2))) static inline void
tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/**
 * tap_near() - one result: |@got - @want| <= @tolerance
 * @got: the value computed
 * @want: the value expected
 * @tolerance: how far they may be apart
 * @fmt: printf format of the description
 *
 * Both values are shown on failure.
 *
 * Return: whether it passed.
 */
__attribute__((format(printf, 4, 5))) static inline int
tap_near(double got, double want, double tolerance, const char *fmt, ...)
{
	int ok = fabs(got - want) <= tolerance;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(ok, NULL, fmt, ap);
	va_end(ap);
	if (!ok)
		tap_diag("got %.12g, want %.12g +/- %g", got, want, tolerance);
	return ok;
}

/**
 * tap_bail_out() - "Bail out! REASON": the tests cannot go on
 * @reason: why
 *
 * Return: 1, the exit status for main() to return.
 */
static inline int tap_bail_out(const char *reason)
{
	printf("Bail out! %s\n", reason);
	return 1;
}

/**
 * tap_exit_status() - the exit status of the test program, for main()
 *
 * Return: 0 when every result passed and, with a plan, as many ran as
 * planned (else a diagnostic says so); 1 otherwise.
 */
static inline int tap_exit_status(void)
{
	if (tap_state.planned && tap_state.run != tap_state.planned) {
		tap_diag("planned %u tests, ran %u", tap_state.planned,
			 tap_state.run);
		return 1;
	}
	return tap_state.failed ? 1 : 0;
}

#endif
