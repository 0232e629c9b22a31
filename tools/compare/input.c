// SPDX-License-Identifier: GPL-2.0
/*
 * Reading samples: columns of numbers, labelled series, or "key=value"
 * results. Every rejected line is reported with its file and line number;
 * nothing is guessed.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/lc.h"
#include "input.h"

/**
 * struct input_file - state of the file being read
 * @path:     name used in messages
 * @label:    label given to values in --metric mode
 * @line:     current line number
 * @fields:   fields of the current line, pointing into the line buffer
 * @nfields:  number of @fields
 * @cap:      allocated size of @fields
 * @matches:  number of values found in this file
 */
struct input_file {
	const char *path;
	const char *label;
	size_t line;
	char **fields;
	size_t nfields;
	size_t cap;
	size_t matches;
};

/* "PROG: FILE:LINE: message" */
__attribute__((format(printf, 2, 3)))
static void input_error(const struct input_file *file, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lc_err("%s:%zu: %s", file->path, file->line, msg);
}

/**
 * parse_number() - strictly parse one finite decimal number
 * @text:  the whole text; trailing characters are an error
 * @value: the number
 * @why:   set to the reason when the text is rejected
 *
 * Return: 0, or -1 when @text is not a finite number.
 */
int parse_number(const char *text, double *value, const char **why)
{
	char *end;

	errno = 0;
	*value = strtod(text, &end);
	if (end == text || *end) {
		*why = "not a number";
		return -1;
	}
	if (isnan(*value)) {
		*why = "NaN is not a measurement";
		return -1;
	}
	if (isinf(*value)) {
		*why = errno == ERANGE ? "number out of range" :
					 "infinity is not a measurement";
		return -1;
	}
	return 0;
}

static int split_fields(struct input_file *file, char *line,
			const char *delimiters)
{
	char **fields;

	file->nfields = 0;
	for (;;) {
		line += strspn(line, delimiters);
		if (!*line)
			return 0;
		if (file->nfields == file->cap) {
			file->cap = file->cap ? file->cap * 2 : 8;
			fields = realloc(file->fields,
					 file->cap * sizeof(*fields));
			if (!fields)
				return -1;
			file->fields = fields;
		}
		file->fields[file->nfields++] = line;
		line += strcspn(line, delimiters);
		if (*line)
			*line++ = '\0';
	}
}

static int emit_value(struct input_file *file, const char *text,
		      const char *label, input_value_fn fn, void *ctx)
{
	const char *why;
	double value;

	if (parse_number(text, &value, &why)) {
		input_error(file, "%s: '%.40s'", why, text);
		return -1;
	}
	file->matches++;
	return fn(ctx, label, value);
}

static int need_column(struct input_file *file, int column, const char *what)
{
	char text[64];

	if (file->nfields >= (size_t)column)
		return 0;
	snprintf(text, sizeof(text), "%s column %d (line has %zu field%s)",
		 what, column, file->nfields, file->nfields == 1 ? "" : "s");
	input_error(file, "no %s", text);
	return -1;
}

static int read_fields(struct input_file *file,
		       const struct input_config *config, input_value_fn fn,
		       void *ctx)
{
	const char *label = NULL;
	size_t i;

	if (config->select) {
		if (need_column(file, config->select_column, "select"))
			return -1;
		if (strcmp(file->fields[config->select_column - 1],
			   config->select))
			return 0;
	}
	if (config->label_column) {
		if (need_column(file, config->label_column, "label"))
			return -1;
		label = file->fields[config->label_column - 1];
	}
	if (config->value_column) {
		if (need_column(file, config->value_column, "value"))
			return -1;
		return emit_value(file, file->fields[config->value_column - 1],
				  label, fn, ctx);
	}
	if (!label) {
		if (file->nfields == 1)
			return emit_value(file, file->fields[0], NULL, fn, ctx);
		input_error(file, "%s",
			    "expected one value per line, found "
			    "several fields (choose one with -C)");
		return -1;
	}
	if (file->nfields <= (size_t)config->label_column) {
		input_error(file, "no value after label '%.40s'", label);
		return -1;
	}
	for (i = config->label_column; i < file->nfields; i++)
		if (emit_value(file, file->fields[i], label, fn, ctx))
			return -1;
	return 0;
}

static char *trim(char *text)
{
	char *end;

	text += strspn(text, " \t");
	end = text + strlen(text);
	while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return text;
}

/*
 * "KEY=value" (lc_kv_split()), blanks around KEY and value ignored: other
 * lines, including human-readable tables, are skipped
 */
static int read_metric(struct input_file *file, char *line,
		       const struct input_config *config, input_value_fn fn,
		       void *ctx)
{
	size_t key_len;
	const char *value = lc_kv_split(line, strlen(line), &key_len);

	if (!value)
		return 0;
	line[key_len] = '\0';
	if (strcmp(trim(line), config->metric))
		return 0;
	return emit_value(file, trim(line + key_len + 1), file->label, fn, ctx);
}

static int read_line(struct input_file *file, char *line, size_t length,
		     const struct input_config *config, input_value_fn fn,
		     void *ctx)
{
	if (strlen(line) != length) {
		input_error(file, "%s", "binary data (NUL byte)");
		return -1;
	}
	if (config->comment && line[0] == '#') {
		line[strcspn(line, "\n")] = '\0';
		if (config->comment(config->comment_ctx, line)) {
			lc_err("out of memory");
			return -1;
		}
	}
	line[strcspn(line, "#\r\n")] = '\0';
	if (config->metric)
		return read_metric(file, line, config, fn, ctx);
	if (split_fields(file, line, config->delimiters)) {
		lc_err("out of memory");
		return -1;
	}
	if (!file->nfields)
		return 0;
	return read_fields(file, config, fn, ctx);
}

static int read_stream(FILE *stream, struct input_file *file,
		       const struct input_config *config, input_value_fn fn,
		       void *ctx)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t length;
	int ret = 0;

	while (!ret && (length = getline(&line, &size, stream)) >= 0) {
		file->line++;
		ret = read_line(file, line, length, config, fn, ctx);
	}
	if (!ret && ferror(stream)) {
		lc_err("%s: read error: %s", file->path, strerror(errno));
		ret = -1;
	}
	free(line);
	free(file->fields);
	return ret;
}

static int read_file(const char *path, const char *label,
		     const struct input_config *config, input_value_fn fn,
		     void *ctx)
{
	struct input_file file = { .path = path, .label = label };
	FILE *stream = stdin;
	int ret;

	if (strcmp(path, "-")) {
		stream = fopen(path, "r");
		if (!stream) {
			lc_err("%s: %s", path, strerror(errno));
			return -1;
		}
	} else {
		file.path = "<stdin>";
	}
	ret = read_stream(stream, &file, config, fn, ctx);
	if (stream != stdin)
		fclose(stream);
	if (!ret && config->metric && !file.matches) {
		lc_err("%s: no line '%s=VALUE'", file.path, config->metric);
		ret = -1;
	}
	return ret;
}

static int skip_entry(const struct dirent *entry)
{
	return entry->d_name[0] != '.';
}

/* Every regular file of the directory, in name order, is part of it. */
static int read_directory(const char *path, const struct input_config *config,
			  input_value_fn fn, void *ctx)
{
	struct dirent **entries;
	struct stat st;
	char *name;
	int count, i, ret = 0, files = 0;

	count = scandir(path, &entries, skip_entry, alphasort);
	if (count < 0) {
		lc_err("%s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < count; i++) {
		name = malloc(strlen(path) + strlen(entries[i]->d_name) + 2);
		if (!ret && name) {
			sprintf(name, "%s/%s", path, entries[i]->d_name);
			if (!stat(name, &st) && S_ISREG(st.st_mode)) {
				files++;
				ret = read_file(name, path, config, fn, ctx);
			}
		} else if (!name) {
			ret = -1;
		}
		free(name);
		free(entries[i]);
	}
	free(entries);
	if (!ret && !files) {
		lc_err("%s: no files in directory", path);
		ret = -1;
	}
	return ret;
}

/**
 * input_read() - read the values of one command-line argument
 * @path:   a file, "-" for standard input, or a directory whose regular
 *          files (in name order) are read as one
 * @config: where the values are
 * @fn:     called for each value
 * @ctx:    passed to @fn
 *
 * Comments (from '#' to the end of the line) and blank lines are
 * skipped. In --metric mode, each line "KEY=value" whose key matches is
 * one value and every file must have at least one.
 *
 * Return: 0, or -1 after a message on standard error.
 */
int input_read(const char *path, const struct input_config *config,
	       input_value_fn fn, void *ctx)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return read_directory(path, config, fn, ctx);
	return read_file(path, path, config, fn, ctx);
}
