/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TOOLS_TAP_H
#define LTTNG_CALIBRATE_TOOLS_TAP_H

/*
 * A tiny TAP producer: "ok - description" or "not ok - description".
 * run-tests.sh numbers the lines of every test program and prints the
 * plan.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int tap_failures;

static void tap_vcheck(int ok, const char *fmt, va_list ap)
{
	printf("%s - ", ok ? "ok" : "not ok");
	vprintf(fmt, ap);
	putchar('\n');
	if (!ok)
		tap_failures++;
}

__attribute__((format(printf, 2, 3))) static void
tap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vcheck(ok, fmt, ap);
	va_end(ap);
}

/* |got - want| <= tolerance, with both values shown on failure */
__attribute__((format(printf, 4, 5))) static void
tap_near(double got, double want, double tolerance, const char *fmt, ...)
{
	int ok = fabs(got - want) <= tolerance;
	va_list ap;

	va_start(ap, fmt);
	tap_vcheck(ok, fmt, ap);
	va_end(ap);
	if (!ok)
		printf("# got %.12g, want %.12g +/- %g\n", got, want,
		       tolerance);
}

static int tap_exit_status(void)
{
	return tap_failures ? 1 : 0;
}

#endif
