// SPDX-License-Identifier: GPL-2.0
/*
 * tap-example [N]: a few results through tap.h, for tap-test.sh to compare
 * with what they must look like: unnumbered, or with a plan of N.
 */
#include <stdlib.h>

#include "../tap.h"

int main(int argc, char **argv)
{
	if (argc > 1)
		tap_plan(atoi(argv[1]));
	tap_check(1, "one %d", 1);
	if (!tap_check(0, "two"))
		tap_diag("two: %s", "why");
	tap_near(1.0, 1.5, 0.1, "near");
	tap_near(2.0, 2.05, 0.1, "near enough");
	tap_skip("five: %s", "not here");
	return tap_exit_status();
}
