// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench-mech.c without the module or root: the scratch
 * directory (private: the traces in it hold the kernel's text addresses)
 * and the count of a command's output lines, which goes to no file.
 * "ok - ..." lines (tap.h); run-tests.sh numbers them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bench-mech.h"
#include "../../lib/tap.h"

static unsigned int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : (unsigned int)(st.st_mode & 07777);
}

static void test_scratch(struct lc_bench_ctx *ctx)
{
	unsigned int dir, writer;

	dir = mode_of(ctx->tmpdir);
	tap_check(dir == 0700, "scratch: the directory is 0700 (0%o)", dir);
	writer = mode_of(ctx->writer);
	tap_check(writer == 0700, "scratch: the writer is 0700 (0%o)",
		  writer);
}

/*
 * The command lists the scratch directory while it runs: the text it
 * prints is in no file there.  A command that fails leaves nothing.
 */
static void test_count_lines(struct lc_bench_ctx *ctx)
{
	char script[PATH_MAX + 64], err[PATH_MAX + 32], out[PATH_MAX + 32];
	char *argv[] = { "sh", "-c", script, NULL };
	long long n, files = -1;

	snprintf(script, sizeof(script),
		 "for f in '%s'/*.count; do [ ! -e \"$f\" ] || "
		 "echo \"file: $f\"; done; "
		 "echo ' ev: 1'; echo 'x ev: 2'; echo ' ev:'", ctx->tmpdir);
	n = lc_bench_count_lines(ctx, argv, "listing", " ev: ", "file: ",
				 &files, err, sizeof(err));
	tap_check(n == 2, "count: the lines with the needle (%lld)", n);
	tap_check(files == 0,
		  "count: no file of the output in the scratch directory while the command runs (%lld)",
		  files);
	snprintf(script, sizeof(script), "echo ' ev: 1'; exit 3");
	n = lc_bench_count_lines(ctx, argv, "failing", " ev: ", NULL, NULL,
				 err, sizeof(err));
	tap_check(n == -1, "count: a command that fails is -1 (%lld)", n);
	snprintf(out, sizeof(out), "%s/failing.count", ctx->tmpdir);
	tap_check(access(out, F_OK) && errno == ENOENT,
		  "count: a command that fails leaves no output file");
}

int main(void)
{
	struct lc_bench_ctx ctx = { .iterations = 5 };

	setenv("PATH", "/usr/bin:/bin", 1);
	if (lc_bench_scratch(&ctx)) {
		tap_bail_out("lc_bench_scratch");
		return 1;
	}
	test_scratch(&ctx);
	test_count_lines(&ctx);
	lc_bench_scratch_remove(&ctx);
	tap_check(!ctx.tmpdir[0], "scratch: removed");
	return tap_exit_status();
}
