// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-input SEED: print one reproducible, mostly broken input file.
 *
 * The kind of input depends on the seed: raw bytes, columns of numbers
 * with mutations (bad tokens, huge exponents, NaN, NUL bytes, missing
 * fields, truncation), labelled series, "key=value" results, or one
 * enormous line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../lib/lc.h"

static uint64_t state;

static uint32_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 16);
}

static const char *const tokens[] = {
	"nan",	 "-inf", "inf",	 "1e999", "-1e400", "1e-400",	"0x1p3",
	"1.5.5", "--1",	 "+",	 "",	  "1e",	    "12abc",	"\xff\xfe",
	"1,5",	 "0",	 "-0",	 "1e308", "9e307",  "4.9e-324", "label",
	"#",	 "=",	 "key=", "1e150", "-1e149",
};

static void random_bytes(int n)
{
	while (n--)
		putchar(next() & 0xff);
}

static void number(void)
{
	if (next() % 64)
		printf("%d.%03u", (int)(next() % 2000) - 200, next() % 1000);
	else
		fputs(tokens[next() % ARRAY_SIZE(tokens)], stdout);
}

static void mutate(void)
{
	switch (next() % 160) {
	case 0:
		putchar('\0');
		break;
	case 1:
		random_bytes(next() % 8);
		break;
	case 2:
		exit(0); /* truncated file, no final newline */
	case 3:
		putchar('\t');
		number();
		break;
	}
}

static void line(int kind)
{
	switch (kind) {
	case 1:
		number();
		break;
	case 2:
		printf("%s\tpatch-%u\t", next() % 2 ? "with" : "without",
		       next() % 12);
		number();
		break;
	case 3:
		if (next() % 3)
			fputs("target.cycles.mean=", stdout);
		else
			fputs("run.state=done  table  1 2 3", stdout);
		number();
		break;
	}
	mutate();
	putchar(next() % 20 ? '\n' : '\r');
}

int main(int argc, char **argv)
{
	int kind, lines, i;

	state = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
	kind = next() % 5;
	if (kind == 0) {
		random_bytes(next() % 4096);
		return 0;
	}
	if (kind == 4) {
		for (i = 0; i < 200000; i++)
			putchar('0' + next() % 10);
		putchar('\n');
		return 0;
	}
	lines = next() % 60;
	for (i = 0; i < lines; i++)
		line(kind);
	return 0;
}
