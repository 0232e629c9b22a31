/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal, strict JSON reader (RFC 8259): objects, arrays, strings with
 * their escapes, numbers, null, true and false, read whole into a tree.
 *
 * Strict: no comments, no trailing commas, no NaN or Infinity, no
 * leading zeros, no control characters or NUL in strings, no duplicate
 * keys in an object, nothing but white space after the value, at most
 * JSON_MAX_DEPTH nested arrays and objects.  Strings are decoded to
 * UTF-8 (\uXXXX escapes, surrogate pairs included; a lone surrogate is an
 * error) and stay NUL-terminated; their bytes are otherwise passed
 * through.  Numbers are doubles; one that does not fit (1e999) is an
 * error.
 *
 * Self-contained (C11, libc only): nothing here prints or exits; errors
 * are returned with their line and column.
 */
#ifndef LTTNG_CALIBRATE_LIB_JSON_READ_H
#define LTTNG_CALIBRATE_LIB_JSON_READ_H

#include <stddef.h>

#define JSON_MAX_DEPTH 64

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/**
 * struct json_value - one JSON value
 * @type:   what it is
 * @number: JSON_NUMBER: its value, finite
 * @string: JSON_STRING: its bytes, decoded, NUL-terminated
 * @len:    JSON_STRING: number of bytes in @string (it may hold NULs
 *          only if the input had \u0000)
 * @items:  JSON_ARRAY: the elements; JSON_OBJECT: the member values
 * @keys:   JSON_OBJECT: the member names, NUL-terminated, in input order
 * @n:      JSON_ARRAY, JSON_OBJECT: number of @items (and @keys)
 */
struct json_value {
	enum json_type type;
	double number;
	char *string;
	size_t len;
	struct json_value *items;
	char **keys;
	size_t n;
};

/**
 * struct json_error - where and why json_parse() failed
 * @line:    1-based line of the offending character
 * @column:  1-based column (in bytes)
 * @message: what is wrong, e.g. "expected ',' or '}'"
 */
struct json_error {
	int line;
	int column;
	char message[96];
};

struct json_value *json_parse(const char *text, size_t len,
			      struct json_error *err);
void json_free(struct json_value *value);
const struct json_value *json_get(const struct json_value *object,
				  const char *key);
const char *json_type_name(enum json_type type);

#endif /* LTTNG_CALIBRATE_LIB_JSON_READ_H */
