/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integer-only running statistics for lttng-calibrate.
 *
 * This header and lttng-calibrate-stats.c build unchanged as kernel code
 * (part of the lttng_calibrate module) and as userspace C (unit tests in
 * tools/stats-test/).  Everything that differs between the two is confined
 * to the compatibility block below.
 */
#ifndef _LTTNG_CALIBRATE_STATS_H
#define _LTTNG_CALIBRATE_STATS_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>
#else /* !__KERNEL__ */
#include <stdbool.h>
#include <string.h>

#ifndef LTTNG_CALIBRATE_HAVE_KERNEL_TYPES
#define LTTNG_CALIBRATE_HAVE_KERNEL_TYPES
/* same base types as the kernel's int-ll64.h */
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;
#endif

#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))
#endif

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
#endif /* __KERNEL__ */

/* 32 sub-buckets per power of two: relative error <= 1/32 */
#define LTTNG_CALIBRATE_HIST_SUB_BITS	5
/*
 * Magnitudes below 2^SUB_BITS get one bucket each; every power of two
 * 2^e, SUB_BITS <= e <= 63, gets 2^SUB_BITS buckets.  That is
 * (64 - SUB_BITS + 1) groups of 2^SUB_BITS buckets, 1920 for SUB_BITS = 5.
 */
#define LTTNG_CALIBRATE_HIST_BUCKETS \
	((64 - LTTNG_CALIBRATE_HIST_SUB_BITS + 1) << LTTNG_CALIBRATE_HIST_SUB_BITS)

/**
 * struct lttng_calibrate_u128 - 128-bit integer as two 64-bit halves
 * @hi: most significant 64 bits
 * @lo: least significant 64 bits
 *
 * Used unsigned, or as two's complement where documented.  Kept as a plain
 * pair because the module cannot link the libgcc helpers that __int128
 * division needs.
 */
struct lttng_calibrate_u128 {
	u64 hi, lo;
};

/**
 * struct lttng_calibrate_stats - running statistics of one metric
 * @count: number of samples added
 * @min: smallest sample (S64_MAX while @count is 0)
 * @max: largest sample (S64_MIN while @count is 0)
 * @shift: first sample; @sum and @sumsq are of (x - @shift), which keeps
 *	them small when samples cluster and makes the variance well
 *	conditioned
 * @sum: sum of (x - @shift), signed 128-bit two's complement;
 *	|x - @shift| < 2^64, so it cannot wrap before 2^63 samples
 * @sumsq: sum of (x - @shift)^2, unsigned 128-bit, saturates at all-ones;
 *	exact while @count * max|x - @shift|^2 < 2^128, for instance 2^32
 *	samples spread over less than 2^48
 * @pos: histogram of samples x >= 0, indexed by magnitude (log-linear)
 * @neg: histogram of samples x < 0, indexed by magnitude -x (log-linear)
 *
 * About 15 KiB: allocate it (kvzalloc), never put it on the stack.  Bucket
 * counters saturate at U32_MAX.
 */
struct lttng_calibrate_stats {
	u64 count;
	s64 min, max;
	s64 shift;
	struct lttng_calibrate_u128 sum;
	struct lttng_calibrate_u128 sumsq;
	u32 pos[LTTNG_CALIBRATE_HIST_BUCKETS];
	u32 neg[LTTNG_CALIBRATE_HIST_BUCKETS];
};

/**
 * struct lttng_calibrate_summary - printable summary of one metric
 * @count: number of samples
 * @min: smallest sample
 * @max: largest sample
 * @mean_milli: mean * 1000, rounded to nearest (ties toward +infinity),
 *	saturated at S64_MIN/S64_MAX
 * @stddev_milli: sample (n - 1) standard deviation * 1000, rounded to
 *	nearest, saturated at U64_MAX; 0 when @count < 2
 * @median: 500 permille quantile from the histogram, clamped to [@min, @max]
 * @p99: 990 permille quantile from the histogram, clamped to [@min, @max]
 *
 * All fields are 0 when @count is 0.
 */
struct lttng_calibrate_summary {
	u64 count;
	s64 min, max;
	s64 mean_milli;
	u64 stddev_milli;
	s64 median, p99;
};

void lttng_calibrate_stats_init(struct lttng_calibrate_stats *s);
void lttng_calibrate_stats_add(struct lttng_calibrate_stats *s, s64 x);
s64 lttng_calibrate_stats_quantile(const struct lttng_calibrate_stats *s,
				   u32 permille);
void lttng_calibrate_stats_summarize(const struct lttng_calibrate_stats *s,
				     struct lttng_calibrate_summary *out);

#endif /* _LTTNG_CALIBRATE_STATS_H */
