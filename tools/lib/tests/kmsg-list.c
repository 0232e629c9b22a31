// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-list: the kernel-log patterns as C sees them, one a line, for
 * tap-test.sh to compare with what kmsg.sh reads from the same header.
 */
#include <stdio.h>

#include "../kmsg_patterns.h"
#include "../lc.h"

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lc_kmsg_patterns); i++)
		puts(lc_kmsg_patterns[i]);
	return 0;
}
