// SPDX-License-Identifier: GPL-2.0
/*
 * Everything before a run: debugfs mounted, no lockdown, the module loaded,
 * and its settings (counters, probe, cpu) as the command line asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lttng-calibrate.h"
#include "pmu-event.h"

#define LC_SECURITYFS		"/sys/kernel/security"
#define LC_LOCKDOWN		LC_SECURITYFS "/lockdown"

/* Is a file system of this type mounted on dir? */
static int lc_is_mounted(const char *dir, const char *type)
{
	char *mounts = lc_read_file("/proc/self/mounts", NULL);
	char *line, *save = NULL;
	char pattern[256];
	int found = 0;

	if (!mounts)
		return 0;
	snprintf(pattern, sizeof(pattern), " %s %s ", dir, type);
	for (line = strtok_r(mounts, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		found = !!strstr(line, pattern);
	free(mounts);
	return found;
}

static int lc_mount(const char *dir, const char *type)
{
	if (lc_is_mounted(dir, type))
		return 0;
	return mount(type, dir, type, 0, NULL) ? errno : 0;
}

/* Lockdown refuses debugfs writes (and unsigned modules). */
static int lc_locked_down(void)
{
	char *mode;
	int locked;

	if (access(LC_LOCKDOWN, F_OK))
		lc_mount(LC_SECURITYFS, "securityfs");
	mode = lc_read_file(LC_LOCKDOWN, NULL);
	if (!mode)
		return 0;
	locked = strstr(mode, "[integrity]") || strstr(mode, "[confidentiality]");
	free(mode);
	return locked;
}

/* Run modprobe [-n] -q lttng_calibrate; return its exit status. */
static int lc_modprobe(int dry_run)
{
	char *const argv[] = { "modprobe", "-q", dry_run ? "-n" : "--",
			       "lttng_calibrate", NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);
		execv("/sbin/modprobe", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int lc_load_module(void)
{
	if (lc_modprobe(0)) {
		if (lc_modprobe(1))
			lc_err("module lttng_calibrate is not installed (make install, or insmod lttng_calibrate.ko)");
		else
			lc_err("modprobe lttng_calibrate failed: see the kernel log (dmesg)");
		return -1;
	}
	if (access(LC_DIR, F_OK)) {
		lc_err("lttng_calibrate is loaded but %s is missing", LC_DIR);
		return -1;
	}
	return 0;
}

/**
 * lc_setup() - make LC_DIR usable: debugfs mounted, module loaded
 *
 * Return: 0, or -1 after printing why not.
 */
int lc_setup(void)
{
	int err;

	if (lc_locked_down()) {
		lc_err("kernel lockdown forbids debugfs writes (%s)", LC_LOCKDOWN);
		return -1;
	}
	if (!access(LC_DIR, F_OK))
		return 0;
	err = lc_mount(LC_DEBUGFS, "debugfs");
	if (err) {
		lc_err("debugfs is not mounted on %s and mounting it failed: %s",
		       LC_DEBUGFS, strerror(err));
		return -1;
	}
	if (!access(LC_DIR, F_OK))
		return 0;
	return lc_load_module();
}

/* A message for a refused write that is the same for every file. */
static void lc_write_failed(const char *path, int err)
{
	if (err == EPERM)
		lc_err("kernel lockdown forbids debugfs writes (writing %s: %s)",
		       path, strerror(err));
	else if (err == EACCES)
		lc_err("%s: permission denied: run as root", path);
	else if (err == EBUSY)
		lc_err("another run is in progress");
	else
		lc_err("writing %s: %s", path, strerror(err));
}

/*
 * The "# last list refused: ..." line of the counters file, and the list
 * written when it is not the one given (PMU/TERMS/ words translated).
 */
static void lc_counters_refused(int err, const char *written)
{
	char *text = lc_read_file(LC_DIR "/counters", NULL);
	const char *tag = "# last list refused: ";
	char *why = text ? strstr(text, tag) : NULL;

	if (why) {
		why += strlen(tag);
		why[strcspn(why, "\n")] = '\0';
	}
	if (written)
		lc_err("counters refused (%s)%s%s (the list written: '%s')",
		       strerror(err), why ? ": " : "", why ? why : "",
		       written);
	else
		lc_err("counters refused (%s)%s%s", strerror(err),
		       why ? ": " : "", why ? why : "");
	free(text);
}

/*
 * The list, its PMU/TERMS/ words translated through sysfs, to the counters
 * file; a word that cannot be translated stops before the file is touched.
 */
static int lc_set_counters(const char *list)
{
	char why[LC_PMU_ERR_MAX];
	char *text = lc_pmu_translate_list(LC_PMU_SYSFS, list, why,
					   sizeof(why));
	const char *written;
	int err;

	if (!text) {
		lc_err("--counters %s", why);
		return -1;
	}
	written = *text ? text : "\n";
	err = lc_write_file(LC_DIR "/counters", written, strlen(written));
	if (err == EINVAL || err == E2BIG || err == ENOENT ||
	    err == EOPNOTSUPP)
		lc_counters_refused(err, strchr(list, '/') ? text : NULL);
	else if (err)
		lc_write_failed(LC_DIR "/counters", err);
	free(text);
	return err ? -1 : 0;
}

static int lc_set_probe(const char *mech)
{
	char *offered;
	int err;

	if (access(LC_DIR "/probe", F_OK)) {
		lc_err("this lttng_calibrate has no probe setting");
		return -1;
	}
	err = lc_write_file(LC_DIR "/probe", mech, strlen(mech));
	if (err != EINVAL) {
		if (err)
			lc_write_failed(LC_DIR "/probe", err);
		return err ? -1 : 0;
	}
	offered = lc_read_file(LC_DIR "/probe", NULL);
	if (offered)
		offered[strcspn(offered, "\n")] = '\0';
	lc_err("unknown probe mechanism '%s' (this module offers: %s)", mech,
	       offered ? offered : "?");
	free(offered);
	return -1;
}

/* The cpu parameter, when set, wins over the writer's CPU. */
static int lc_check_cpu(int cpu)
{
	char *param = lc_read_file(LC_PARAMS "/cpu", NULL);
	int pinned = param ? atoi(param) : -1;

	free(param);
	if (pinned < 0 || pinned == cpu)
		return 0;
	lc_err("the cpu parameter pins runs to CPU %d: write -1 to %s/cpu to choose with --cpu",
	       pinned, LC_PARAMS);
	return -1;
}

/**
 * lc_apply_settings() - write the module settings the options ask for
 * @opts: the options
 *
 * The counters and probe settings stay for later runs, as if written by
 * hand; the CPU is the writer's affinity, which leaves nothing behind.
 *
 * Return: 0, or -1 after printing why not.
 */
int lc_apply_settings(const struct lc_options *opts)
{
	if (opts->counters && lc_set_counters(opts->counters))
		return -1;
	if (opts->probe && lc_set_probe(opts->probe))
		return -1;
	if (opts->cpu >= 0 && lc_check_cpu(opts->cpu))
		return -1;
	return 0;
}
