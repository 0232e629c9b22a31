/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integer-only running statistics for lttng-calibrate.
 *
 * This header and lttng-calibrate-stats.c build unchanged as kernel code
 * (part of the lttng_calibrate module) and as userspace C (unit tests in
 * tools/testing/stats-test/).  Everything that differs between the two is confined
 * to the compatibility block below.
 */
#ifndef _LTTNG_CALIBRATE_STATS_H
#define _LTTNG_CALIBRATE_STATS_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/kernel.h>
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

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
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

static inline u64 div_u64(u64 dividend, u32 divisor)
{
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
 * @seen: two recent sample values, not yet counted
 * @seen_nr: how many samples of each value are pending
 * @pos: histogram of samples x >= 0, indexed by magnitude (log-linear)
 * @neg: histogram of samples x < 0, indexed by magnitude -x (log-linear)
 *
 * Samples equal to one of the two values in @seen are only counted
 * there, and added to the other fields when that value is pushed out by a
 * third one, or at lttng_calibrate_stats_flush().  None of the statistics
 * depends on the order of the samples, so a metric that takes few values
 * (a counter that stays at 0, a time that alternates between two values)
 * costs two compares per sample.
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
	s64 seen[2];
	u64 seen_nr[2];
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

#define LTTNG_CALIBRATE_HIST_SUB_MASK \
	((1U << LTTNG_CALIBRATE_HIST_SUB_BITS) - 1)

/* Histogram bucket of a magnitude: exact below 2^SUB_BITS, log-linear above. */
static inline unsigned int lttng_calibrate_hist_index(u64 magnitude)
{
	unsigned int shift;

	if (magnitude <= LTTNG_CALIBRATE_HIST_SUB_MASK)
		return magnitude;
	/* keep the SUB_BITS bits below the leading one */
	shift = fls64(magnitude) - 1 - LTTNG_CALIBRATE_HIST_SUB_BITS;
	return ((shift + 1) << LTTNG_CALIBRATE_HIST_SUB_BITS) +
	       ((magnitude >> shift) & LTTNG_CALIBRATE_HIST_SUB_MASK);
}

void lttng_calibrate_stats_init(struct lttng_calibrate_stats *s);
void lttng_calibrate_stats_add_new(struct lttng_calibrate_stats *s, s64 x);
void lttng_calibrate_stats_flush(struct lttng_calibrate_stats *s);

/**
 * lttng_calibrate_stats_add() - add one sample
 * @s: statistics to update
 * @x: the sample
 *
 * Inline, because a run adds three samples per metric and iteration: a
 * value seen recently costs two compares and an increment; any other goes
 * through lttng_calibrate_stats_add_new().  Call
 * lttng_calibrate_stats_flush() before reading @s.
 *
 * Context: Any context; the caller serializes updates of @s.
 */
static inline void lttng_calibrate_stats_add(struct lttng_calibrate_stats *s,
					     s64 x)
{
	if (likely(x == s->seen[0])) {
		s->seen_nr[0]++;
		return;
	}
	if (likely(x == s->seen[1])) {
		s->seen_nr[1]++;
		return;
	}
	lttng_calibrate_stats_add_new(s, x);
}

s64 lttng_calibrate_stats_quantile(const struct lttng_calibrate_stats *s,
				   u32 permille);
void lttng_calibrate_stats_summarize(const struct lttng_calibrate_stats *s,
				     struct lttng_calibrate_summary *out);

/* Figures derived from summaries, in thousandths of their unit. */
s64 lttng_calibrate_milli(s64 v);
s64 lttng_calibrate_milli_to_ns(s64 cycles_milli, u32 khz);
u32 lttng_calibrate_t975_milli(u64 n);
s64 lttng_calibrate_ci95_milli(s64 stddev_milli, u64 n);
bool lttng_calibrate_percent_milli(s64 num_milli, s64 den_milli, s64 *out);

#endif /* _LTTNG_CALIBRATE_STATS_H */
