// SPDX-License-Identifier: GPL-2.0
/*
 * The module's debugfs files and its parameters, read and written as text.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lttng_calibrate_util.h"

/**
 * write_str() - write a text to a file in one write()
 * @path: the file
 * @text: what to write, NUL-terminated (the NUL is not written)
 *
 * Return: 0, or the errno of lc_write_file().
 */
int write_str(const char *path, const char *text)
{
	return lc_write_file(path, text, strlen(text));
}

/**
 * file_exists() - whether a file is there
 * @path: the file
 *
 * Return: true when it is.
 */
bool file_exists(const char *path)
{
	return !access(path, F_OK);
}

/**
 * param_read() - the value of a module parameter
 * @name: the parameter, under PARAMS
 *
 * Return: its value as an int, or INT_MIN when it cannot be read.
 */
int param_read(const char *name)
{
	char path[128], *text;
	int v;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	text = lc_read_file(path, NULL);
	if (!text)
		return INT_MIN;
	v = atoi(text);
	free(text);
	return v;
}

/**
 * param_write() - set a module parameter
 * @name: the parameter, under PARAMS
 * @value: its new value, as text
 *
 * Return: 0, or the errno of the write.
 */
int param_write(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return write_str(path, value);
}

/* The module parameters a test may change, in struct saved_params order. */
const char *const param_names[NR_PARAMS] = {
	"cpu", "max_iterations", "chunk_iterations", "deltas_window",
};

/**
 * params_restore() - write saved parameters back
 * @saved: what params_save() read
 *
 * Return: how many writes failed.
 */
int params_restore(const struct saved_params *saved)
{
	int i, failed = 0;

	for (i = 0; i < NR_PARAMS; i++)
		failed += param_write(param_names[i], saved->value[i]) != 0;
	return failed;
}

/**
 * fprobe_available() - whether this kernel offers the fprobe mechanisms
 *
 * The probe file says "# fprobe: unavailable: " without CONFIG_FPROBE.
 *
 * Return: true when it offers them.
 */
bool fprobe_available(void)
{
	char *text = lc_read_file(DIR "probe", NULL);
	bool yes = text && !strstr(text, "\n# fprobe: unavailable: ");

	free(text);
	return yes;
}

/**
 * counter_list() - the counters selected
 *
 * Return: the counters file without its comment lines, to free(), or NULL
 * when it cannot be read.
 */
char *counter_list(void)
{
	char *text = lc_read_file(DIR "counters", NULL);

	return text ? strip_comments(text) : NULL;
}
