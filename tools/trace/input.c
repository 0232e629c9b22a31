// SPDX-License-Identifier: GPL-2.0
/*
 * Line reading for traces of any size: one block buffer and one line
 * buffer of at most INPUT_MAX_LINE bytes, whatever the input holds.
 */
#include <stdlib.h>
#include <string.h>

#include "input.h"

/**
 * input_init() - prepare to read lines from a stream
 * @in:   the reader
 * @file: the stream
 */
void input_init(struct input *in, FILE *file)
{
	memset(in, 0, sizeof(*in));
	in->file = file;
}

static bool refill(struct input *in)
{
	in->pos = 0;
	in->len = fread(in->block, 1, sizeof(in->block), in->file);
	if (!in->len && ferror(in->file))
		in->error = true;
	return in->len > 0;
}

/* append what fits of @n bytes to the line */
static int append(struct input *in, const char *s, size_t n)
{
	if (in->line_len + n > INPUT_MAX_LINE) {
		in->too_long = true;
		n = INPUT_MAX_LINE - in->line_len;
	}
	if (!in->line) {
		in->line = malloc(INPUT_MAX_LINE + 1);
		if (!in->line)
			return -1;
	}
	memcpy(in->line + in->line_len, s, n);
	in->line_len += n;
	return 0;
}

/**
 * input_read_line() - read the next line
 * @in: the reader
 *
 * Return: 1 with a line in @in->line (terminated by a NUL after
 * @in->line_len bytes, which may contain NULs too), 0 at the end of the
 * input, -1 on a read error or when out of memory.
 */
int input_read_line(struct input *in)
{
	bool any = false;

	in->line_len = 0;
	in->too_long = false;
	for (;;) {
		const char *start, *nl;

		if (in->pos == in->len && !refill(in))
			break;
		any = true;
		start = in->block + in->pos;
		nl = memchr(start, '\n', in->len - in->pos);
		if (append(in, start,
			   nl ? (size_t)(nl - start) : in->len - in->pos))
			return -1;
		in->pos = nl ? (size_t)(nl - in->block) + 1 : in->len;
		if (nl)
			break;
	}
	if (in->error)
		return -1;
	if (!any)
		return 0;
	if (in->line_len && in->line[in->line_len - 1] == '\r' && !in->too_long)
		in->line_len--;
	in->line[in->line_len] = '\0';
	return 1;
}

/**
 * input_free() - release the line buffer
 * @in: the reader
 */
void input_free(struct input *in)
{
	free(in->line);
	in->line = NULL;
}
