// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace library of lttng-calibrate: errors, whole files, key=value
 * text, the --format option, JSON strings and CSV fields.  See lc.h.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
/* nftw() */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc.h"

/* Errors */

static const char *lc_prog_name;

/**
 * lc_set_prog() - name the program in front of every error message
 * @name: "lttng-calibrate", "lttng-calibrate-compare", ...; NULL for none
 */
void lc_set_prog(const char *name)
{
	lc_prog_name = name;
}

/**
 * lc_prog() - the program name given to lc_set_prog()
 *
 * Return: the name, or "" when none was given.
 */
const char *lc_prog(void)
{
	return lc_prog_name ? lc_prog_name : "";
}

/**
 * lc_verr() - print "PROG: MESSAGE" and a newline on stderr
 * @fmt: printf format of the message, without the final newline
 * @ap: its arguments
 *
 * Standard output is flushed first, so that what the program printed
 * before the error comes before it.
 *
 * Return: -1, for "return lc_err(...);" in functions that fail with -1.
 */
int lc_verr(const char *fmt, va_list ap)
{
	fflush(stdout);
	if (lc_prog_name)
		fprintf(stderr, "%s: ", lc_prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return -1;
}

/**
 * lc_err() - print "PROG: MESSAGE" and a newline on stderr
 * @fmt: printf format of the message, without the final newline
 *
 * Return: -1, as lc_verr().
 */
int lc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lc_verr(fmt, ap);
	va_end(ap);
	return -1;
}

/* Files */

/**
 * lc_read_fd() - read what a file descriptor gives until its end
 * @fd: open for reading; left open
 * @len: where to store the length read, or NULL
 *
 * The text may hold NUL bytes: @len tells where it really ends.
 *
 * Return: the bytes read and a NUL, to free(); NULL with errno set on a
 * read error or when out of memory.
 */
char *lc_read_fd(int fd, size_t *len)
{
	size_t used = 0, size = 4096;
	char *buf = malloc(size), *bigger;
	ssize_t n;
	int err;

	if (!buf)
		return NULL;
	for (;;) {
		if (size - used < 2) {
			bigger = size < ((size_t)-1) / 2 ?
				 realloc(buf, 2 * size) : NULL;
			if (!bigger) {
				err = ENOMEM;
				goto out_fail;
			}
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			goto out_fail;
		}
		if (!n)
			break;
		used += n;
	}
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;

out_fail:
	free(buf);
	errno = err;
	return NULL;
}

/**
 * lc_read_file() - read a whole file: a regular, proc, sysfs or debugfs one
 * @path: the file
 * @len: where to store its length, or NULL
 *
 * Return: as lc_read_fd(); NULL with errno set when it cannot be opened.
 */
char *lc_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *text;
	int err;

	if (fd < 0)
		return NULL;
	text = lc_read_fd(fd, len);
	err = errno;
	close(fd);
	errno = err;
	return text;
}

/**
 * lc_write_file() - write bytes to a file in one write()
 * @path: the file (a debugfs or sysfs one takes a value in one write)
 * @buf: the bytes
 * @len: how many
 *
 * No retry: a write interrupted by a signal fails with EINTR, a short
 * one with EIO.
 *
 * Return: 0, or the errno of the open or of the write.
 */
int lc_write_file(const char *path, const void *buf, size_t len)
{
	return lc_write_file_flags(path, buf, len, 0);
}

/**
 * lc_write_file_flags() - lc_write_file(), opened with more flags
 * @path: the file
 * @buf: the bytes
 * @len: how many
 * @flags: added to O_WRONLY: O_APPEND (tracefs' kprobe_events adds an
 *	event), O_TRUNC (set_ftrace_filter is replaced; with @len 0, it is
 *	cleared), O_CREAT (mode 0600, and never through a symlink:
 *	O_NOFOLLOW), O_EXCL
 *
 * Return: 0, or the errno of the open or of the write (ELOOP: a symlink
 * where O_CREAT was asked).
 */
int lc_write_file_flags(const char *path, const void *buf, size_t len,
			int flags)
{
	int fd;

	if (flags & O_CREAT)
		flags |= O_NOFOLLOW;
	fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0600);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

/*
 * Removes @name in @dir and, for a directory, everything in it, but never
 * goes into a directory of another device than @dev: a mount.  The first
 * error is kept in *@err.
 */
static void lc_rm_at(int dir, const char *name, dev_t dev, int *err)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW)) {
		*err = *err ? *err : errno;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dir, name, 0) && !*err)
			*err = errno;
		return;
	}
	/* Only directories say where mounts are: on overlayfs a file's
	 * st_dev is that of the layer it lives on. */
	if (st.st_dev != dev) {
		*err = *err ? *err : EBUSY;
		return;
	}
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		*err = *err ? *err : errno;
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			lc_rm_at(fd, e->d_name, dev, err);
	closedir(d);
	if (unlinkat(dir, name, AT_REMOVEDIR) && !*err)
		*err = errno;
}

/**
 * lc_rm_tree() - remove a directory and everything in it
 * @path: the directory (a scratch directory of ours)
 *
 * Symlinks are removed, never followed, and the walk never goes into a
 * mount (a directory on another device than @path's): a file system
 * mounted inside the tree and left there (predict's cgroup2 mount, whose
 * every empty directory is a cgroup of the machine) is not touched, and
 * the directories above it stay.
 *
 * Return: 0, or -1 with errno set (the first removal that failed: EBUSY
 * for a mount, ENOTEMPTY above it).
 */
int lc_rm_tree(const char *path)
{
	struct stat st;
	int err = 0;

	if (lstat(path, &st))
		return -1;
	lc_rm_at(AT_FDCWD, path, st.st_dev, &err);
	errno = err;
	return err ? -1 : 0;
}

/* key=value text */

/**
 * lc_kv_split() - split one line as key=value
 * @line: the line, without its newline; need not be NUL-terminated
 * @len: its length
 * @key_len: where to store the length of the key
 *
 * The key is what comes before the first '=', the value what comes after
 * it, up to @line + @len.  Nothing is trimmed.
 *
 * Return: the value, inside @line; NULL when the line has no '=' or
 * nothing before it (not a key=value line).
 */
const char *lc_kv_split(const char *line, size_t len, size_t *key_len)
{
	const char *eq = memchr(line, '=', len);

	if (!eq || eq == line)
		return NULL;
	*key_len = eq - line;
	return eq + 1;
}

/*
 * The next line of @text from *@pos on: its start and length.  A NULL @text
 * (a file that could not be read) has no line.
 */
static bool lc_next_line(const char *text, size_t *pos, const char **line,
			 size_t *len)
{
	const char *start;

	if (!text)
		return false;
	start = text + *pos;
	if (!*start)
		return false;
	*line = start;
	*len = strcspn(start, "\n");
	*pos += *len + (start[*len] == '\n');
	return true;
}

static struct lc_kv_pair *lc_kv_find(const struct lc_kv *kv, const char *key,
				     size_t len)
{
	size_t i;

	for (i = 0; i < kv->nr; i++)
		if (!strncmp(kv->pairs[i].key, key, len) &&
		    kv->pairs[i].key[len] == '\0')
			return &kv->pairs[i];
	return NULL;
}

static int lc_kv_add(struct lc_kv *kv, const char *key, size_t key_len,
		     const char *value, size_t value_len)
{
	struct lc_kv_pair *pair;
	char *copy = strndup(value, value_len);

	if (!copy)
		return -1;
	pair = lc_kv_find(kv, key, key_len);
	if (pair) {
		free(pair->value);
		pair->value = copy;
		return 0;
	}
	if (kv->nr == kv->alloc) {
		size_t alloc = kv->alloc ? 2 * kv->alloc : 64;
		struct lc_kv_pair *pairs;

		pairs = realloc(kv->pairs, alloc * sizeof(*pairs));
		if (!pairs)
			goto out_free;
		kv->pairs = pairs;
		kv->alloc = alloc;
	}
	pair = &kv->pairs[kv->nr];
	pair->key = strndup(key, key_len);
	if (!pair->key)
		goto out_free;
	pair->value = copy;
	kv->nr++;
	return 0;

out_free:
	free(copy);
	return -1;
}

/**
 * lc_kv_parse() - parse key=value text
 * @kv: zero-initialised; free with lc_kv_free() even on failure
 * @text: the text, NUL-terminated
 *
 * Lines that are not key=value (see lc_kv_split()) are ignored.  A key
 * given twice keeps its first place and its last value.
 *
 * Return: 0, or -1 when out of memory.
 */
int lc_kv_parse(struct lc_kv *kv, const char *text)
{
	size_t pos = 0, len, key_len;
	const char *line, *value;

	while (lc_next_line(text, &pos, &line, &len)) {
		value = lc_kv_split(line, len, &key_len);
		if (value && lc_kv_add(kv, line, key_len, value,
				       len - (value - line)))
			return -1;
	}
	return 0;
}

/**
 * lc_kv_free() - free what lc_kv_parse() allocated
 * @kv: the parsed set; zero again afterwards
 */
void lc_kv_free(struct lc_kv *kv)
{
	size_t i;

	for (i = 0; i < kv->nr; i++) {
		free(kv->pairs[i].key);
		free(kv->pairs[i].value);
	}
	free(kv->pairs);
	memset(kv, 0, sizeof(*kv));
}

/**
 * lc_kv_get() - the value of a key of a parsed set
 * @kv: the parsed set
 * @key: the whole key
 *
 * Return: the value, or NULL when the key is absent.
 */
const char *lc_kv_get(const struct lc_kv *kv, const char *key)
{
	struct lc_kv_pair *pair = lc_kv_find(kv, key, strlen(key));

	return pair ? pair->value : NULL;
}

/**
 * lc_kv_value() - the value of a key, looked up in key=value text
 * @text: the text, NUL-terminated
 * @key: the whole key
 * @len: where to store the value's length (up to its newline), or NULL
 *
 * No copy, no allocation: the value stays in @text, followed by its
 * newline (or the end of @text).  A key given twice has its last value,
 * as in lc_kv_parse().
 *
 * Return: the value, inside @text, or NULL when the key is absent.
 */
const char *lc_kv_value(const char *text, const char *key, size_t *len)
{
	size_t pos = 0, line_len, key_len, klen = strlen(key);
	const char *line, *value, *found = NULL;
	size_t found_len = 0;

	while (lc_next_line(text, &pos, &line, &line_len)) {
		value = lc_kv_split(line, line_len, &key_len);
		if (value && key_len == klen && !memcmp(line, key, klen)) {
			found = value;
			found_len = line_len - (value - line);
		}
	}
	if (found && len)
		*len = found_len;
	return found;
}

/**
 * lc_kv_is() - whether a key of key=value text has a given value
 * @text: the text, NUL-terminated
 * @key: the whole key
 * @want: the whole value expected, without its newline
 *
 * Return: 1 when the key is there with exactly that value, else 0.
 */
int lc_kv_is(const char *text, const char *key, const char *want)
{
	size_t len;
	const char *value = lc_kv_value(text, key, &len);

	return value && len == strlen(want) && !memcmp(value, want, len);
}

/*
 * @value (@len bytes) as a number, for the typed getters: a whole value,
 * nothing before it (strto*() would skip blanks, newlines included) and
 * nothing after.
 */
static bool lc_kv_whole(const char *value, size_t len, const char *end)
{
	return len && (value[0] == '-' || value[0] == '+' || value[0] == '.' ||
		       (value[0] >= '0' && value[0] <= '9')) &&
	       end == value + len;
}

/**
 * lc_kv_ll() - the value of a key in key=value text, as a long long
 * @text: the text, NUL-terminated
 * @key: the whole key
 * @fallback: what to return when there is no such number
 *
 * Return: the value, a whole decimal integer in the range of long long;
 * @fallback when the key is absent or its value is not such a number.
 */
/* @value (@len bytes, or NULL) as a whole long long, else @fallback. */
static long long lc_whole_ll(const char *value, size_t len,
			     long long fallback)
{
	char *end;
	long long n;

	if (!value)
		return fallback;
	errno = 0;
	n = strtoll(value, &end, 10);
	if (errno || !lc_kv_whole(value, len, end))
		return fallback;
	return n;
}

long long lc_kv_ll(const char *text, const char *key, long long fallback)
{
	size_t len = 0;
	const char *value = lc_kv_value(text, key, &len);

	return lc_whole_ll(value, len, fallback);
}

/**
 * lc_kv_double() - the value of a key in key=value text, as a double
 * @text: the text, NUL-terminated
 * @key: the whole key
 * @fallback: what to return when there is no such number
 *
 * Return: the value, a whole decimal number ("-1.016", "1e5") that fits a
 * double; @fallback when the key is absent or its value is not one.
 */
double lc_kv_double(const char *text, const char *key, double fallback)
{
	size_t len;
	const char *value = lc_kv_value(text, key, &len);
	char *end;
	double x;

	if (!value)
		return fallback;
	errno = 0;
	x = strtod(value, &end);
	if (errno == ERANGE || !lc_kv_whole(value, len, end))
		return fallback;
	return x;
}

/* Output */

/**
 * lc_field() - the value after a prefix, on the first line with it
 * @text: the text, NUL-terminated
 * @prefix: what the line starts with, its separator included ("entries: ")
 * @len: where to store the value's length (up to its newline), or NULL
 *
 * For "name: value" text (tracefs' per_cpu/cpuN/stats, /proc/cpuinfo, a
 * map bpftrace prints: "@calls: 5"); key=value text has lc_kv_value().
 *
 * Return: the value, inside @text, or NULL when no line starts so.
 */
const char *lc_field(const char *text, const char *prefix, size_t *len)
{
	size_t pos = 0, line_len, plen = strlen(prefix);
	const char *line;

	while (lc_next_line(text, &pos, &line, &line_len)) {
		if (line_len >= plen && !memcmp(line, prefix, plen)) {
			if (len)
				*len = line_len - plen;
			return line + plen;
		}
	}
	return NULL;
}

/**
 * lc_field_ll() - the number after a prefix, on the first line with it
 * @text: the text, NUL-terminated
 * @prefix: what the line starts with, its separator included
 * @fallback: what to return when there is no such number
 *
 * Return: the whole decimal integer lc_field() finds; @fallback when no
 * line starts with @prefix or what follows is not such a number.
 */
long long lc_field_ll(const char *text, const char *prefix, long long fallback)
{
	size_t len = 0;
	const char *value = lc_field(text, prefix, &len);

	return lc_whole_ll(value, len, fallback);
}

/* Options */

/**
 * lc_parse_count() - a count given on the command line
 * @s: the text: decimal digits only (no sign, no blank, no base)
 * @max: the largest count accepted
 * @n: where to store it
 *
 * Nothing is printed: the message, naming the option and its range, is
 * the caller's.
 *
 * Return: 0, or -1 when @s is not such a count or is above @max.
 */
int lc_parse_count(const char *s, unsigned long long max,
		   unsigned long long *n)
{
	unsigned long long v = 0, digit;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > max / 10)
			return -1;
		digit = *s - '0';
		v *= 10;
		if (digit > max - v)
			return -1;
		v += digit;
	}
	*n = v;
	return 0;
}

/**
 * lc_format_parse() - the value of a --format option
 * @name: "table" (or "text", the same), "csv" or "json"
 * @format: where to store the format
 *
 * Return: 0, or -1 after the one message for every tool: "PROG: invalid
 * format 'NAME': table, csv or json".
 */
int lc_format_parse(const char *name, enum lc_format *format)
{
	static const struct {
		const char *name;
		enum lc_format format;
	} formats[] = {
		{ "table", LC_FORMAT_TABLE },
		{ "text", LC_FORMAT_TABLE },
		{ "csv", LC_FORMAT_CSV },
		{ "json", LC_FORMAT_JSON },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(name, formats[i].name)) {
			*format = formats[i].format;
			return 0;
		}
	}
	return lc_err("invalid format '%s': table, csv or json", name);
}

/*
 * Length of the well-formed UTF-8 sequence at @s (@len bytes left), or 0:
 * no overlong form, no surrogate, nothing above U+10FFFF.
 */
static size_t lc_utf8_len(const unsigned char *s, size_t len)
{
	unsigned int cp, min;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/**
 * lc_json_string() - print bytes as a JSON string, quotes included
 * @out: where to print
 * @s: the bytes; need not be NUL-terminated
 * @len: how many
 *
 * The output is valid JSON and valid UTF-8 whatever the bytes: '"' and
 * '\' are escaped with a backslash, control characters and DEL as \u00XX,
 * well-formed UTF-8 passes through, and every byte of anything else
 * becomes \ufffd (U+FFFD, the replacement character).
 */
void lc_json_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *b = (const unsigned char *)s;
	size_t i = 0, n;

	fputc('"', out);
	while (i < len) {
		n = lc_utf8_len(b + i, len - i);
		if (!n) {
			fputs("\\ufffd", out);
			n = 1;
		} else if (b[i] == '"' || b[i] == '\\') {
			fprintf(out, "\\%c", b[i]);
		} else if (b[i] < 0x20 || b[i] == 0x7f) {
			fprintf(out, "\\u%04x", b[i]);
		} else {
			fwrite(b + i, 1, n, out);
		}
		i += n;
	}
	fputc('"', out);
}

static void lc_csv_write(FILE *out, const char *s, size_t len, bool quote)
{
	size_t i;

	if (!quote) {
		fwrite(s, 1, len, out);
		return;
	}
	fputc('"', out);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

/**
 * lc_json_number() - print "KEY": VALUE and a separator, null when not finite
 * @out: where to print
 * @key: the key, printed as it is (a plain identifier)
 * @value: the number, to 10 significant digits
 * @sep: what follows (", ", "" ...)
 */
void lc_json_number(FILE *out, const char *key, double value, const char *sep)
{
	if (isfinite(value))
		fprintf(out, "\"%s\": %.10g%s", key, value, sep);
	else
		fprintf(out, "\"%s\": null%s", key, sep);
}

/**
 * lc_csv_field() - print bytes as one CSV field (RFC 4180)
 * @out: where to print
 * @s: the bytes; need not be NUL-terminated
 * @len: how many
 *
 * Quoted only when it must be: when it holds a comma, a quote, a CR or a
 * LF; a quote inside is doubled.
 */
void lc_csv_field(FILE *out, const char *s, size_t len)
{
	size_t i;
	bool quote = false;

	for (i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' ||
			s[i] == '\n';
	lc_csv_write(out, s, len, quote);
}

/**
 * lc_csv_quoted() - print bytes as one CSV field, always quoted
 * @out: where to print
 * @s: the bytes; need not be NUL-terminated
 * @len: how many
 *
 * For the columns of names that a reader must never take for numbers; a
 * quote inside is doubled.
 */
void lc_csv_quoted(FILE *out, const char *s, size_t len)
{
	lc_csv_write(out, s, len, true);
}
