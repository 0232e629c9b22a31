// SPDX-License-Identifier: GPL-2.0
/*
 * mutate FILE SEED: print FILE with a few reproducible random damages -
 * flipped, inserted (NUL, 0xff, braces, newlines) or deleted bytes,
 * digit runs replaced by huge numbers, lines cut short or doubled,
 * entry and exit swapped - for the fuzz test. Same FILE and SEED, same
 * output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/lc.h"

#define MAX_INPUT (1 << 20)

static unsigned long long state;

/* xorshift64*: the same numbers everywhere, unlike rand() */
static unsigned int rnd(unsigned int n)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (unsigned int)((state * 2685821657736338717ULL) >> 33) % n;
}

static char buf[4 * MAX_INPUT];
static size_t len;

static void insert(size_t at, const char *s, size_t n)
{
	if (len + n > sizeof(buf))
		return;
	memmove(buf + at + n, buf + at, len - at);
	memcpy(buf + at, s, n);
	len += n;
}

static void erase(size_t at, size_t n)
{
	if (at + n > len)
		n = len - at;
	memmove(buf + at, buf + at + n, len - at - n);
	len -= n;
}

static void huge_number(size_t at)
{
	static const char *const numbers[] = {
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999999999999", "-9223372036854775808",
		"-9223372036854775809", "0xFFFFFFFFFFFFFFFFF", "0b2", "08",
		"1e308", "-0",
	};
	const char *s = numbers[rnd(ARRAY_SIZE(numbers))];
	size_t end = at;

	while (at < len && (buf[at] < '0' || buf[at] > '9'))
		at++;
	end = at;
	while (end < len && buf[end] >= '0' && buf[end] <= '9')
		end++;
	erase(at, end - at);
	insert(at, s, strlen(s));
}

static void swap_name(size_t at)
{
	for (; at + 5 <= len; at++) {
		if (!memcmp(buf + at, "entry", 5)) {
			memcpy(buf + at, "exit_", 5);
			return;
		}
	}
}

static void mutate_once(void)
{
	static const char specials[] = { '\0', '\xff', '{', '}', '\n', '[',
					 ']', ',', '=', '"', ':', ' ' };
	size_t at = len ? rnd((unsigned int)len) : 0;
	char ch;

	switch (rnd(8)) {
	case 0:
		if (len)
			buf[at] ^= (char)(1 << rnd(8));
		break;
	case 1:
		ch = specials[rnd(sizeof(specials))];
		insert(at, &ch, 1);
		break;
	case 2:
		erase(at, 1 + rnd(40));
		break;
	case 3:
		huge_number(at);
		break;
	case 4:
		len = at;	/* truncated */
		break;
	case 5:
		insert(at, buf + at, len - at < 300 ? len - at : 300);
		break;
	case 6:
		swap_name(at);
		break;
	default:
		if (len)
			buf[at] = (char)rnd(256);
		break;
	}
}

int main(int argc, char **argv)
{
	FILE *f;

	if (argc != 3) {
		fputs("usage: mutate FILE SEED\n", stderr);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	len = fread(buf, 1, MAX_INPUT, f);
	fclose(f);
	state = strtoull(argv[2], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
	for (unsigned int i = 1 + rnd(6); i; i--)
		mutate_once();
	fwrite(buf, 1, len, stdout);
	return 0;
}
