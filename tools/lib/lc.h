/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace library of lttng-calibrate: what the tools (cli, compare,
 * trace) and the kselftests share.
 *
 * - errors: "PROG: message" on stderr; nothing here exits, every function
 *   returns its error and only main() decides the exit status;
 * - files: a whole file read, of any size, NUL-terminated; a value
 *   written to a sysfs or debugfs file in one write();
 * - key=value text (results_kv, status): a parsed set in file order, or
 *   one value looked up in the text, as a string, a long long or a double;
 * - options: a count;
 * - output: the --format option (table, csv, json), JSON strings and CSV
 *   fields.
 *
 * lc.c is plain C11 with POSIX: no state but the program name.
 */
#ifndef LTTNG_CALIBRATE_LIB_LC_H
#define LTTNG_CALIBRATE_LIB_LC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Errors */

void lc_set_prog(const char *name);
const char *lc_prog(void);
int lc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int lc_verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Files */

char *lc_read_fd(int fd, size_t *len);
char *lc_read_file(const char *path, size_t *len);
int lc_write_file(const char *path, const void *buf, size_t len);
int lc_write_file_flags(const char *path, const void *buf, size_t len,
			int flags);
int lc_rm_tree(const char *path);

/* key=value text */

/**
 * struct lc_kv_pair - one "key=value" line
 * @key: the text before the first '=', never empty
 * @value: the text after it, to the end of the line
 */
struct lc_kv_pair {
	char *key;
	char *value;
};

/**
 * struct lc_kv - the key=value lines of a text, in file order
 * @pairs: the lines; a key given twice keeps its first place, last value
 * @nr: how many
 * @alloc: room in @pairs
 */
struct lc_kv {
	struct lc_kv_pair *pairs;
	size_t nr;
	size_t alloc;
};

const char *lc_kv_split(const char *line, size_t len, size_t *key_len);
int lc_kv_parse(struct lc_kv *kv, const char *text);
void lc_kv_free(struct lc_kv *kv);
const char *lc_kv_get(const struct lc_kv *kv, const char *key);
const char *lc_kv_value(const char *text, const char *key, size_t *len);
int lc_kv_is(const char *text, const char *key, const char *want);
long long lc_kv_ll(const char *text, const char *key, long long fallback);
double lc_kv_double(const char *text, const char *key, double fallback);
const char *lc_field(const char *text, const char *prefix, size_t *len);
long long lc_field_ll(const char *text, const char *prefix, long long fallback);

/* Options */

int lc_parse_count(const char *s, unsigned long long max,
		   unsigned long long *n);

/* Output */

/* What --format chose. */
enum lc_format {
	LC_FORMAT_TABLE,
	LC_FORMAT_CSV,
	LC_FORMAT_JSON,
};

int lc_format_parse(const char *name, enum lc_format *format);
void lc_json_string(FILE *out, const char *s, size_t len);
void lc_json_number(FILE *out, const char *key, double value, const char *sep);
void lc_csv_field(FILE *out, const char *s, size_t len);
void lc_csv_quoted(FILE *out, const char *s, size_t len);

#endif /* LTTNG_CALIBRATE_LIB_LC_H */
