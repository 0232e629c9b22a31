/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cgroup v2 of the tool's own, to count the CPU time of a command and of
 * every process it starts, whoever reaps them: cgroup2 mounted in a
 * directory of the tool's, one cgroup made in it, its cpu.stat read, what
 * is left in it killed, all of it removed.  Calls proc.c (lc_cgroup_kill())
 * and lc.c, nothing else.
 */
#ifndef LTTNG_CALIBRATE_LIB_CGROUP_H
#define LTTNG_CALIBRATE_LIB_CGROUP_H

#include <stdbool.h>

/**
 * struct lc_cgroup - a cgroup of the tool's own
 * @mnt: a cgroup2 mount of our own
 * @dir: our cgroup in it
 * @procs: its cgroup.procs, which a child writes itself to
 *	(struct lc_proc's cgroup_procs)
 * @mounted: @mnt is mounted
 * @made: @dir exists
 * @why: why there is none, when there is none
 */
struct lc_cgroup {
	char mnt[320];
	char dir[352];
	char procs[384];
	bool mounted;
	bool made;
	char why[96];
};

void lc_cgroup_make(struct lc_cgroup *cg, const char *parent,
		    const char *name);
double lc_cgroup_cpu_ns(const struct lc_cgroup *cg);
int lc_cgroup_empty(const struct lc_cgroup *cg);
void lc_cgroup_remove(struct lc_cgroup *cg);

#endif /* LTTNG_CALIBRATE_LIB_CGROUP_H */
