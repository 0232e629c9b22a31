// SPDX-License-Identifier: GPL-2.0
/*
 * Everything before a run: root, debugfs mounted, no lockdown, the module
 * loaded, and its settings (counters, probe, cpu) as the command line
 * asked.  What stops a first run says what to do about it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "../lib/options.h"
#include "../lib/proc.h"
#include "lttng-calibrate.h"
#include "pmu-event.h"

#define LC_SECURITYFS		"/sys/kernel/security"
#define LC_LOCKDOWN		LC_SECURITYFS "/lockdown"
/* Absent when the kernel is built without CONFIG_MODULES. */
#define LC_PROC_MODULES		"/proc/modules"
#define LC_MODULES_DISABLED	"/proc/sys/kernel/modules_disabled"
#define LC_TRY_VM		"try tools/lttng-calibrate-vm (a kernel of its own, under QEMU)"
#define LC_MODPROBE_TIMEOUT_MS	60000

/**
 * lc_parse_iterations() - the -n option of the command and of its bench
 * @s: its value
 * @n: where to store it
 *
 * Return: 0, or -1 after saying what is wrong.
 */
int lc_parse_iterations(const char *s, unsigned long long *n)
{
	if (!lc_parse_count(s, ULLONG_MAX, n) && *n)
		return 0;
	return lc_err("invalid iteration count '%s': a decimal number from 1",
		      s);
}

/**
 * lc_opt_iterations() - the callback of -n, the command's and its bench's
 * @opt: its entry, whose value is an unsigned long long
 * @arg: its value
 *
 * Return: 0, or -1 after saying what is wrong.
 */
int lc_opt_iterations(const struct lc_option *opt, const char *arg)
{
	return lc_parse_iterations(arg, opt->value);
}

/**
 * lc_need_root() - refuse to go on unless root
 *
 * Return: 0 when root, or -1 after saying so.
 */
int lc_need_root(void)
{
	if (!geteuid())
		return 0;
	return lc_err("must be run as root: try again with sudo");
}

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

/* Can this kernel load a module at all?  0, or -1 after saying why not. */
static int lc_can_load_modules(void)
{
	char *disabled;
	int off;

	if (access(LC_PROC_MODULES, F_OK))
		return lc_err("this kernel cannot load modules (no %s: built without CONFIG_MODULES); %s",
			      LC_PROC_MODULES, LC_TRY_VM);
	disabled = lc_read_file(LC_MODULES_DISABLED, NULL);
	off = disabled && atoi(disabled) == 1;
	free(disabled);
	if (off)
		return lc_err("module loading is disabled until the next boot (%s is 1); %s",
			      LC_MODULES_DISABLED, LC_TRY_VM);
	return 0;
}

/* Run modprobe [-n] -q lttng_calibrate; its exit code, or -1. */
static int lc_modprobe(int dry_run)
{
	char *const argv[] = { "modprobe", "-q", dry_run ? "-n" : "--",
			       "lttng_calibrate", NULL };
	struct lc_proc p = { .argv = argv, .timeout_ms = LC_MODPROBE_TIMEOUT_MS };

	return lc_proc_run(&p);
}

static int lc_load_module(void)
{
	int rc;

	if (lc_can_load_modules())
		return -1;
	rc = lc_modprobe(0);
	if (rc == -1)
		return lc_err("cannot run modprobe: %s (install kmod, or insmod lttng_calibrate.ko)",
			      strerror(errno));
	if (rc == LC_PROC_TIMED_OUT)
		return lc_err("modprobe lttng_calibrate did not finish in %d s: see the kernel log (dmesg)",
			      LC_MODPROBE_TIMEOUT_MS / 1000);
	if (rc) {
		if (lc_modprobe(1))
			lc_err("module lttng_calibrate is not installed: make install (then depmod -a), or insmod lttng_calibrate.ko");
		else
			lc_err("modprobe lttng_calibrate failed: see the kernel log (dmesg)");
		return -1;
	}
	if (access(LC_DIR, F_OK)) {
		lc_err("lttng_calibrate is loaded but %s is missing: is it another module of that name? (modinfo lttng_calibrate)",
		       LC_DIR);
		return -1;
	}
	return 0;
}

/*
 * Lockdown: nothing to do on this boot.  Where the kernel cannot load
 * modules either, a boot without lockdown would not be enough: say so.
 */
static void lc_locked_down_err(void)
{
	if (access(LC_DIR, F_OK) && access(LC_PROC_MODULES, F_OK)) {
		lc_err("kernel lockdown forbids debugfs writes (%s)", LC_LOCKDOWN);
		lc_can_load_modules();
		return;
	}
	lc_err("kernel lockdown forbids debugfs writes (%s): boot without it (lockdown=none, or with Secure Boot off), or %s",
	       LC_LOCKDOWN, LC_TRY_VM);
}

/* debugfs could not be mounted: what to do depends on why. */
static void lc_debugfs_err(int err)
{
	if (err == ENODEV)
		lc_err("this kernel has no debugfs (built without CONFIG_DEBUG_FS, or debugfs=off on its command line); %s",
		       LC_TRY_VM);
	else
		lc_err("debugfs is not mounted on %s and mounting it failed: %s (mount -t debugfs none %s)",
		       LC_DEBUGFS, strerror(err), LC_DEBUGFS);
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
		lc_locked_down_err();
		return -1;
	}
	if (!access(LC_DIR, F_OK))
		return 0;
	err = lc_mount(LC_DEBUGFS, "debugfs");
	if (err) {
		lc_debugfs_err(err);
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
		lc_err("%s: permission denied: run as root (sudo)", path);
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
