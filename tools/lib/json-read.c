// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal, strict JSON reader: a recursive descent parser building a
 * tree of struct json_value.  See json-read.h for what is accepted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"

/**
 * struct json_parser - the state of one json_parse()
 * @text:  the input
 * @len:   its length in bytes
 * @pos:   the next byte to read
 * @depth: arrays and objects open around @pos
 * @err:   filled in on the first error
 */
struct json_parser {
	const char *text;
	size_t len;
	size_t pos;
	int depth;
	struct json_error *err;
};

__attribute__((format(printf, 2, 3))) static int
json_fail(struct json_parser *p, const char *fmt, ...)
{
	size_t i;
	va_list ap;

	p->err->line = 1;
	p->err->column = 1;
	for (i = 0; i < p->pos && i < p->len; i++) {
		if (p->text[i] == '\n') {
			p->err->line++;
			p->err->column = 1;
		} else {
			p->err->column++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
	va_end(ap);
	return -1;
}

static int json_oom(struct json_parser *p)
{
	return json_fail(p, "out of memory");
}

/* The next byte, or -1 at the end of the input. */
static int json_peek(const struct json_parser *p)
{
	return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static void json_skip_space(struct json_parser *p)
{
	int c;

	while ((c = json_peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		p->pos++;
}

/* What is at @p->pos, for error messages. */
static const char *json_what(const struct json_parser *p, char *buf,
			     size_t size)
{
	int c = json_peek(p);

	if (c < 0)
		return "end of input";
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", (unsigned int)c);
	return buf;
}

static int json_expected(struct json_parser *p, const char *what)
{
	char buf[16];

	return json_fail(p, "expected %s, found %s", what,
			 json_what(p, buf, sizeof(buf)));
}

static int json_parse_value(struct json_parser *p, struct json_value *v);

static int json_literal(struct json_parser *p, const char *word,
			enum json_type type, struct json_value *v)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n))
		return json_expected(p, "a value");
	p->pos += n;
	v->type = type;
	return 0;
}

static size_t json_digits(struct json_parser *p)
{
	size_t start = p->pos;
	int c;

	while ((c = json_peek(p)) >= '0' && c <= '9')
		p->pos++;
	return p->pos - start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_parse_number(struct json_parser *p, struct json_value *v)
{
	size_t start = p->pos;
	char buf[64], *end;

	if (json_peek(p) == '-')
		p->pos++;
	if (json_peek(p) == '0') {
		p->pos++;
		if (json_digits(p)) {
			p->pos = start + (p->text[start] == '-') + 1;
			return json_fail(p, "leading zero in a number");
		}
	} else if (!json_digits(p)) {
		return json_expected(p, "a digit");
	}
	if (json_peek(p) == '.') {
		p->pos++;
		if (!json_digits(p))
			return json_expected(p, "a digit after '.'");
	}
	if (json_peek(p) == 'e' || json_peek(p) == 'E') {
		p->pos++;
		if (json_peek(p) == '+' || json_peek(p) == '-')
			p->pos++;
		if (!json_digits(p))
			return json_expected(p, "a digit in the exponent");
	}
	if (p->pos - start >= sizeof(buf)) {
		p->pos = start;
		return json_fail(p, "number too long");
	}
	memcpy(buf, p->text + start, p->pos - start);
	buf[p->pos - start] = '\0';
	errno = 0;
	v->number = strtod(buf, &end);
	if (errno == ERANGE && (v->number > 1 || v->number < -1)) {
		p->pos = start;
		return json_fail(p, "number out of range: %s", buf);
	}
	v->type = JSON_NUMBER;
	return 0;
}

static int json_hex4(struct json_parser *p, unsigned int *out)
{
	unsigned int value = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = json_peek(p);
		if (c >= '0' && c <= '9')
			value = value * 16 + (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			value = value * 16 + (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			value = value * 16 + (unsigned int)(c - 'A' + 10);
		else
			return json_expected(p, "4 hex digits after \\u");
		p->pos++;
	}
	*out = value;
	return 0;
}

/* \uXXXX, or a surrogate pair \uD8XX\uDCXX, as one code point */
static int json_unicode_escape(struct json_parser *p, unsigned int *cp)
{
	unsigned int low;

	if (json_hex4(p, cp))
		return -1;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return json_fail(p, "lone low surrogate in \\u escape");
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (p->len - p->pos < 2 || p->text[p->pos] != '\\' ||
	    p->text[p->pos + 1] != 'u')
		return json_fail(p, "high surrogate without its low half");
	p->pos += 2;
	if (json_hex4(p, &low))
		return -1;
	if (low < 0xdc00 || low > 0xdfff)
		return json_fail(p, "high surrogate without its low half");
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 0;
}

static size_t json_utf8(unsigned int cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int json_escape(struct json_parser *p, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned int cp;
	int c = json_peek(p);

	if (c == 'u') {
		p->pos++;
		if (json_unicode_escape(p, &cp))
			return -1;
		*n += json_utf8(cp, out + *n);
		return 0;
	}
	e = c > 0 ? strchr(from, c) : NULL;
	if (!e)
		return json_expected(p, "an escape (\\\" \\\\ \\/ \\b \\f \\n "
					"\\r \\t \\u)");
	out[(*n)++] = to[e - from];
	p->pos++;
	return 0;
}

/*
 * Decoded, a string is never longer than its source: \uXXXX (6 bytes)
 * gives at most 3, a surrogate pair (12) gives 4.
 */
static int json_parse_string(struct json_parser *p, char **out, size_t *len)
{
	size_t start = ++p->pos, n = 0;
	char *s;
	int c;

	while ((c = json_peek(p)) != '"') {
		if (c < 0) {
			p->pos = start - 1;
			return json_fail(p, "unterminated string");
		}
		p->pos++;
		if (c == '\\')
			p->pos++;
	}
	s = malloc(p->pos - start + 1);
	if (!s)
		return json_oom(p);
	p->pos = start;
	while ((c = json_peek(p)) != '"') {
		if (c < 0x20) {
			free(s);
			return json_fail(p, "control character 0x%02x in a "
					    "string (escape it)",
					 (unsigned int)c);
		}
		p->pos++;
		if (c != '\\') {
			s[n++] = (char)c;
		} else if (json_escape(p, s, &n)) {
			free(s);
			return -1;
		}
	}
	p->pos++;
	s[n] = '\0';
	*out = s;
	*len = n;
	return 0;
}

static int json_grow(struct json_value *v, size_t *alloc, int keys)
{
	size_t n = *alloc ? *alloc * 2 : 8;
	struct json_value *items;
	char **names;

	items = realloc(v->items, n * sizeof(*items));
	if (!items)
		return -1;
	v->items = items;
	if (keys) {
		names = realloc(v->keys, n * sizeof(*names));
		if (!names)
			return -1;
		v->keys = names;
	}
	*alloc = n;
	return 0;
}

/* The members or elements of @v after its '{' or '[' */
static int json_parse_container(struct json_parser *p, struct json_value *v)
{
	int object = v->type == JSON_OBJECT;
	int close = object ? '}' : ']';
	size_t alloc = 0, i, len;
	char *key = NULL;

	if (++p->depth > JSON_MAX_DEPTH)
		return json_fail(p, "nested deeper than %d", JSON_MAX_DEPTH);
	p->pos++;
	json_skip_space(p);
	if (json_peek(p) == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		json_skip_space(p);
		if (object) {
			if (json_peek(p) != '"')
				return json_expected(p, "a member name");
			if (json_parse_string(p, &key, &len))
				return -1;
			for (i = 0; i < v->n; i++)
				if (!strcmp(v->keys[i], key)) {
					free(key);
					return json_fail(p, "duplicate member "
							    "'%s'",
							 v->keys[i]);
				}
			json_skip_space(p);
			if (json_peek(p) != ':') {
				free(key);
				return json_expected(p, "':'");
			}
			p->pos++;
		}
		if (v->n == alloc && json_grow(v, &alloc, object)) {
			free(key);
			return json_oom(p);
		}
		memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
		if (object)
			v->keys[v->n] = key;
		key = NULL;
		v->n++;
		if (json_parse_value(p, &v->items[v->n - 1]))
			return -1;
		json_skip_space(p);
		if (json_peek(p) == close)
			break;
		if (json_peek(p) != ',')
			return json_expected(p, object ? "',' or '}'" :
							 "',' or ']'");
		p->pos++;
	}
	p->pos++;
	p->depth--;
	return 0;
}

static int json_parse_value(struct json_parser *p, struct json_value *v)
{
	int c;

	json_skip_space(p);
	c = json_peek(p);
	switch (c) {
	case '{':
		v->type = JSON_OBJECT;
		return json_parse_container(p, v);
	case '[':
		v->type = JSON_ARRAY;
		return json_parse_container(p, v);
	case '"':
		if (json_parse_string(p, &v->string, &v->len))
			return -1;
		v->type = JSON_STRING;
		return 0;
	case 't':
		return json_literal(p, "true", JSON_TRUE, v);
	case 'f':
		return json_literal(p, "false", JSON_FALSE, v);
	case 'n':
		return json_literal(p, "null", JSON_NULL, v);
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return json_parse_number(p, v);
		return json_expected(p, "a value");
	}
}

static void json_free_members(struct json_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		json_free_members(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
}

/**
 * json_parse() - read a whole JSON text
 * @text: the input; need not be NUL-terminated
 * @len:  its length in bytes
 * @err:  filled in when the text is not valid JSON (or memory runs out)
 *
 * Return: the value, to be released with json_free(), or NULL on error.
 */
struct json_value *json_parse(const char *text, size_t len,
			      struct json_error *err)
{
	struct json_parser p = { .text = text, .len = len, .err = err };
	struct json_value *v = calloc(1, sizeof(*v));

	if (!v) {
		json_oom(&p);
		return NULL;
	}
	if (json_parse_value(&p, v))
		goto fail;
	json_skip_space(&p);
	if (p.pos < len) {
		json_fail(&p, "unexpected data after the JSON value");
		goto fail;
	}
	return v;
fail:
	json_free(v);
	return NULL;
}

/**
 * json_free() - release a value returned by json_parse()
 * @value: the value, or NULL
 */
void json_free(struct json_value *value)
{
	if (!value)
		return;
	json_free_members(value);
	free(value);
}

/**
 * json_get() - a member of an object
 * @object: the object (any other type has no members)
 * @key:    the member name
 *
 * Return: the member's value, or NULL when there is none.
 */
const struct json_value *json_get(const struct json_value *object,
				  const char *key)
{
	size_t i;

	if (!object || object->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < object->n; i++)
		if (!strcmp(object->keys[i], key))
			return &object->items[i];
	return NULL;
}

/**
 * json_type_name() - "null", "a number", "an object"... for messages
 * @type: the type
 *
 * Return: a static string.
 */
const char *json_type_name(enum json_type type)
{
	switch (type) {
	case JSON_NULL:
		return "null";
	case JSON_FALSE:
	case JSON_TRUE:
		return "a boolean";
	case JSON_NUMBER:
		return "a number";
	case JSON_STRING:
		return "a string";
	case JSON_ARRAY:
		return "an array";
	default:
		return "an object";
	}
}
