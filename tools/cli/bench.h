/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate bench, the command (bench.c), as main.c calls it.  It
 * calls mechanisms.h, formats.h and bench-format.h; nothing calls it but
 * main.c.
 */
#ifndef LTTNG_CALIBRATE_CLI_BENCH_H
#define LTTNG_CALIBRATE_CLI_BENCH_H

int lc_bench_main(int argc, char **argv);

#endif /* LTTNG_CALIBRATE_CLI_BENCH_H */
