// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the module (and the test PMU's), and the files of its interface.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lttng_calibrate_util.h"

/**
 * find_ko() - where a module's .ko is
 * @name: the module
 * @env: the environment variable that names it
 * @path: the path found
 * @size: room in @path
 *
 * $@env, else beside the test program (a kselftest tarball) or in its
 * module/ (built by lib.mk's TEST_GEN_MODS_DIR).
 *
 * Return: true with its path in @path, else false.
 */
bool find_ko(const char *name, const char *env, char *path, size_t size)
{
	const char *ko = getenv(env);
	char *slash;
	ssize_t n;

	if (ko && *ko) {
		snprintf(path, size, "%s", ko);
		return true;
	}
	n = readlink("/proc/self/exe", path, size - 1);
	slash = n > 0 ? memrchr(path, '/', n) : NULL;
	if (!slash)
		return false;
	snprintf(slash + 1, size - (slash + 1 - path), "%s.ko", name);
	if (access(path, R_OK))
		snprintf(slash + 1, size - (slash + 1 - path), "module/%s.ko",
			 name);
	return !access(path, R_OK);
}

/**
 * load_module() - insmod a module from where find_ko() finds it
 * @name: the module
 * @env: the environment variable that names its .ko
 * @params: its parameters, "" for none
 *
 * Else modprobe.  The caller checks what it needs of the result.
 */
void load_module(const char *name, const char *env, const char *params)
{
	char cmd[PATH_MAX + 256], path[PATH_MAX];

	if (find_ko(name, env, path, sizeof(path)))
		snprintf(cmd, sizeof(cmd), "insmod '%s' %s 2>/dev/null", path,
			 params);
	else
		snprintf(cmd, sizeof(cmd), "modprobe -q %s %s", name, params);
	if (system(cmd)) {
		/* the caller checks what it needs */
	}
}

/**
 * ensure_module() - load lttng_calibrate unless it is loaded
 *
 * $LTTNG_CALIBRATE_KO, else the lttng_calibrate.ko beside the test
 * program or in its module/, else modprobe.
 *
 * Return: 0 when the debugfs files are there.
 */
int ensure_module(void)
{
	if (!access(DIR "run", F_OK))
		return 0;
	load_module("lttng_calibrate", "LTTNG_CALIBRATE_KO", "");
	return access(DIR "run", F_OK);
}

/*
 * The module's interface: every file its ABI documents
 * (Documentation/ABI/testing/, its "What:" lines; tools/testing/man-test checks that
 * this list is theirs).  A load that succeeds has all of them.
 */
static const char *const abi_files[] = {
	DIR "run", DIR "results", DIR "results_kv", DIR "status",
	DIR "counters", DIR "events", DIR "deltas", DIR "probe",
	DIR "target", DIR "work_cycles", DIR "irqs",
	PARAMS "cpu", PARAMS "max_iterations", PARAMS "chunk_iterations",
	PARAMS "deltas_window",
};

/**
 * abi_file_missing() - the first file of the module's interface missing
 *
 * Return: its path, or NULL when every one is there.
 */
const char *abi_file_missing(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(abi_files); i++)
		if (access(abi_files[i], F_OK))
			return abi_files[i];
	return NULL;
}
