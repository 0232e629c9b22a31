// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup v2 of the tool's own, for the CPU time of a command and of
 * everything it starts (see cgroup.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "lc.h"
#include "proc.h"

/**
 * lc_cgroup_make() - cgroup2 mounted in a directory, and a cgroup in it
 * @cg: the cgroup, filled
 * @parent: a directory of the tool's own (its scratch directory): the
 *	mount point is @parent/cgroup
 * @name: the cgroup's name
 *
 * Its cpu.stat counts every process a child moved into it starts, whoever
 * reaps it (a server's children that nobody waits for too).  Without
 * cgroup2 (@cg->made false), @cg->why says why; lc_cgroup_remove() undoes
 * what was done either way.
 */
void lc_cgroup_make(struct lc_cgroup *cg, const char *parent,
		    const char *name)
{
	snprintf(cg->mnt, sizeof(cg->mnt), "%s/cgroup", parent);
	snprintf(cg->dir, sizeof(cg->dir), "%.300s/%.40s", cg->mnt, name);
	snprintf(cg->procs, sizeof(cg->procs), "%.340s/cgroup.procs",
		 cg->dir);
	if (mkdir(cg->mnt, 0700) ||
	    mount("cgroup2", cg->mnt, "cgroup2", MS_NOSUID | MS_NODEV |
		  MS_NOEXEC, NULL)) {
		snprintf(cg->why, sizeof(cg->why), "cgroup2: %s",
			 strerror(errno));
		return;
	}
	cg->mounted = true;
	if (mkdir(cg->dir, 0700)) {
		snprintf(cg->why, sizeof(cg->why), "cgroup2 mkdir: %s",
			 strerror(errno));
		return;
	}
	cg->made = true;
}

/**
 * lc_cgroup_cpu_ns() - the CPU time of the cgroup's processes so far
 * @cg: the cgroup
 *
 * Return: the usage_usec of its cpu.stat, in ns, or -1.
 */
double lc_cgroup_cpu_ns(const struct lc_cgroup *cg)
{
	char path[400], *text;
	long long usec;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg->dir);
	text = lc_read_file(path, NULL);
	usec = lc_field_ll(text, "usage_usec ", -1);
	free(text);
	return usec < 0 ? -1 : usec * 1e3;
}

/**
 * lc_cgroup_empty() - what is left in the cgroup killed, and waited for
 * @cg: the cgroup (nothing is done when it was not made)
 *
 * Return: 0, or -1 with errno set, as lc_cgroup_kill().
 */
int lc_cgroup_empty(const struct lc_cgroup *cg)
{
	return cg->made ? lc_cgroup_kill(cg->dir) : 0;
}

/**
 * lc_cgroup_remove() - the cgroup emptied and removed, cgroup2 unmounted
 * @cg: the cgroup
 *
 * Whatever lc_cgroup_make() did is undone; the mount point is removed
 * once unmounted (@cg->mounted then false: still true, it was not).
 */
void lc_cgroup_remove(struct lc_cgroup *cg)
{
	if (cg->made && !rmdir(cg->dir))
		cg->made = false;
	if (cg->mounted && !umount2(cg->mnt, MNT_DETACH))
		cg->mounted = false;
	if (cg->mnt[0])
		rmdir(cg->mnt);
}
