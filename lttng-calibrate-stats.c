// SPDX-License-Identifier: GPL-2.0
/*
 * Integer-only running statistics for lttng-calibrate.
 *
 * Samples are accumulated as shifted sums (relative to the first sample) in
 * 128-bit integers, plus a log-linear histogram for quantiles.  Adding a
 * sample costs a few multiplications, no division.  All division, and the
 * square root, happen once at summary time with 128-bit helpers written
 * here: the module cannot link libgcc's __udivti3.
 *
 * The same file is compiled as userspace C by tools/testing/stats-test/.
 */

#include "lttng-calibrate-stats.h"

/*
 * Scale applied to the variance before the square root: 4 * 1000^2.  The
 * 1000^2 gives the standard deviation in thousandths, the 4 one more bit
 * so that it can be rounded to nearest: round(sqrt(v)) =
 * floor((floor(sqrt(floor(4 * v))) + 1) / 2).
 */
#define VAR_SCALE	4000000ULL

static inline struct lttng_calibrate_u128 u128_from(u64 hi, u64 lo)
{
	struct lttng_calibrate_u128 r = { .hi = hi, .lo = lo };

	return r;
}

static inline bool u128_is_neg(struct lttng_calibrate_u128 a)
{
	return a.hi >> 63;
}

static inline int u128_cmp(struct lttng_calibrate_u128 a,
			   struct lttng_calibrate_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/* Sets *overflow on carry out, never clears it. */
static inline struct lttng_calibrate_u128
u128_add(struct lttng_calibrate_u128 a,
	 struct lttng_calibrate_u128 b, bool *overflow)
{
	struct lttng_calibrate_u128 r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	if (u128_cmp(r, a) < 0)
		*overflow = true;
	return r;
}

/* Modulo 2^128, so it also adds to two's complement values. */
static inline struct lttng_calibrate_u128
u128_add_u64(struct lttng_calibrate_u128 a, u64 b)
{
	a.lo += b;
	a.hi += a.lo < b;
	return a;
}

static inline struct lttng_calibrate_u128
u128_sub(struct lttng_calibrate_u128 a, struct lttng_calibrate_u128 b)
{
	struct lttng_calibrate_u128 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static inline struct lttng_calibrate_u128
u128_sub_u64(struct lttng_calibrate_u128 a, u64 b)
{
	return u128_sub(a, u128_from(0, b));
}

static inline struct lttng_calibrate_u128
u128_neg(struct lttng_calibrate_u128 a)
{
	return u128_sub(u128_from(0, 0), a);
}

/* 64 x 64 -> 128 bit product from four 32 x 32 -> 64 bit products. */
static inline struct lttng_calibrate_u128 u128_mul64(u64 a, u64 b)
{
	u64 a_lo = (u32)a, a_hi = a >> 32;
	u64 b_lo = (u32)b, b_hi = b >> 32;
	u64 lo_lo = a_lo * b_lo, lo_hi = a_lo * b_hi;
	u64 hi_lo = a_hi * b_lo, hi_hi = a_hi * b_hi;
	u64 mid = (lo_lo >> 32) + (u32)lo_hi + (u32)hi_lo;
	struct lttng_calibrate_u128 r;

	r.lo = (mid << 32) | (u32)lo_lo;
	r.hi = hi_hi + (lo_hi >> 32) + (hi_lo >> 32) + (mid >> 32);
	return r;
}

/* 128 x 64 -> 128 bit product; sets *overflow if it does not fit. */
static struct lttng_calibrate_u128
u128_mul_u64(struct lttng_calibrate_u128 a, u64 b, bool *overflow)
{
	struct lttng_calibrate_u128 high = u128_mul64(a.hi, b);
	struct lttng_calibrate_u128 r = u128_mul64(a.lo, b);

	if (high.hi)
		*overflow = true;
	return u128_add(r, u128_from(high.lo, 0), overflow);
}

static inline void u128_set_bit(struct lttng_calibrate_u128 *a, int bit)
{
	if (bit >= 64)
		a->hi |= 1ULL << (bit - 64);
	else
		a->lo |= 1ULL << bit;
}

static inline u64 u128_bit(struct lttng_calibrate_u128 a, int bit)
{
	return bit >= 64 ? (a.hi >> (bit - 64)) & 1 : (a.lo >> bit) & 1;
}

/*
 * Binary long division; @den must not be 0.  Only used at summary time,
 * so up to 128 shift-and-subtract steps are fine.
 */
static struct lttng_calibrate_u128 u128_divmod(struct lttng_calibrate_u128 num,
					       struct lttng_calibrate_u128 den,
					       struct lttng_calibrate_u128 *rem)
{
	struct lttng_calibrate_u128 quot = { 0, 0 }, r = { 0, 0 };
	bool carry;
	int bit;

	if (!num.hi && !den.hi) {
		quot.lo = div64_u64_rem(num.lo, den.lo, &r.lo);
		goto out;
	}
	bit = num.hi ? 64 + fls64(num.hi) : fls64(num.lo);
	while (bit-- > 0) {
		/* r < den before the shift, so at most one bit spills out */
		carry = r.hi >> 63;
		r.hi = (r.hi << 1) | (r.lo >> 63);
		r.lo = (r.lo << 1) | u128_bit(num, bit);
		if (carry || u128_cmp(r, den) >= 0) {
			r = u128_sub(r, den);
			u128_set_bit(&quot, bit);
		}
	}
out:
	if (rem)
		*rem = r;
	return quot;
}

static struct lttng_calibrate_u128
u128_div_u64(struct lttng_calibrate_u128 num, u64 den, u64 *rem)
{
	struct lttng_calibrate_u128 quot, r;

	quot = u128_divmod(num, u128_from(0, den), &r);
	if (rem)
		*rem = r.lo;
	return quot;
}

/* floor(sqrt(a)), digit by digit; the root of a 128-bit value fits in 64. */
static u64 u128_sqrt(struct lttng_calibrate_u128 a)
{
	struct lttng_calibrate_u128 square;
	u64 root = 0, candidate;
	int bit;

	for (bit = 63; bit >= 0; bit--) {
		candidate = root | (1ULL << bit);
		square = u128_mul64(candidate, candidate);
		if (u128_cmp(square, a) <= 0)
			root = candidate;
	}
	return root;
}

/* Two's complement 128-bit value to s64, saturating. */
static s64 s128_to_s64(struct lttng_calibrate_u128 a)
{
	if (u128_is_neg(a)) {
		if (a.hi != U64_MAX || a.lo < (u64)S64_MAX + 1)
			return S64_MIN;
		a = u128_neg(a);
		return a.lo > (u64)S64_MAX ? S64_MIN : -(s64)a.lo;
	}
	if (a.hi || a.lo > (u64)S64_MAX)
		return S64_MAX;
	return (s64)a.lo;
}

/*
 * A bucket starting at 2^SUB_BITS * w is w wide; its midpoint, rounded
 * down, is within w / 2, that is 1 / 2^(SUB_BITS + 1) relative, of any
 * magnitude in it.
 */
static u64 hist_midpoint(unsigned int index)
{
	unsigned int shift;
	u64 low;

	if (index <= LTTNG_CALIBRATE_HIST_SUB_MASK)
		return index;
	shift = (index >> LTTNG_CALIBRATE_HIST_SUB_BITS) - 1;
	low = (u64)((1U << LTTNG_CALIBRATE_HIST_SUB_BITS) |
		    (index & LTTNG_CALIBRATE_HIST_SUB_MASK)) << shift;
	return low + (((1ULL << shift) - 1) >> 1);
}

/**
 * lttng_calibrate_stats_init() - reset statistics to zero samples
 * @s: statistics to reset
 *
 * Context: Any context.
 */
void lttng_calibrate_stats_init(struct lttng_calibrate_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = S64_MAX;
	s->max = S64_MIN;
}

/* Adds @k times the signed 128-bit value +/- @mag to @sum. */
static void sum_add(struct lttng_calibrate_u128 *sum, u64 mag,
		    bool negative, u64 k)
{
	struct lttng_calibrate_u128 t = u128_mul64(mag, k);
	bool wrapped = false;

	/* two's complement: both wrap modulo 2^128 */
	if (negative)
		*sum = u128_sub(*sum, t);
	else
		*sum = u128_add(*sum, t, &wrapped);
}

/*
 * Counts @k samples equal to @x.  One sample of a usual size (|x - shift|
 * < 2^32) costs a 64-bit multiplication; others take full 128-bit
 * products, and the sum of squares saturates at all-ones when it no longer
 * fits.
 */
static void stats_count(struct lttng_calibrate_stats *s, s64 x, u64 k)
{
	struct lttng_calibrate_u128 square;
	bool negative, overflow = false;
	u64 delta, total;
	u32 *bucket;

	if (!s->count)
		s->shift = x;
	s->count += k;
	if (x < s->min)
		s->min = x;
	if (x > s->max)
		s->max = x;
	if (x >= 0)
		bucket = &s->pos[lttng_calibrate_hist_index(x)];
	else
		bucket = &s->neg[lttng_calibrate_hist_index(0 - (u64)x)];
	total = *bucket + k;
	*bucket = total > U32_MAX || total < k ? U32_MAX : total;

	/* |x - shift| < 2^64 always fits as an unsigned magnitude */
	negative = x < s->shift;
	delta = negative ? (u64)s->shift - (u64)x : (u64)x - (u64)s->shift;
	if (likely(k == 1 && delta <= U32_MAX && s->sumsq.hi != U64_MAX)) {
		if (negative) {
			s->sum.hi -= s->sum.lo < delta;
			s->sum.lo -= delta;
		} else {
			s->sum.lo += delta;
			s->sum.hi += s->sum.lo < delta;
		}
		s->sumsq.lo += delta * delta;
		s->sumsq.hi += s->sumsq.lo < delta * delta;
		return;
	}
	sum_add(&s->sum, delta, negative, k);
	square = u128_mul64(delta, delta);
	square = u128_mul_u64(square, k, &overflow);
	s->sumsq = u128_add(s->sumsq, square, &overflow);
	if (overflow)
		s->sumsq = u128_from(U64_MAX, U64_MAX);
}

/* Counts the pending samples of value slot @i. */
static void stats_count_seen(struct lttng_calibrate_stats *s, int i)
{
	if (s->seen_nr[i])
		stats_count(s, s->seen[i], s->seen_nr[i]);
	s->seen_nr[i] = 0;
}

/**
 * lttng_calibrate_stats_add_new() - add a sample of a value not in @seen
 * @s: statistics to update
 * @x: the sample
 *
 * The older value of @seen is counted and makes room for @x.
 *
 * Context: Any context; the caller serializes updates of @s.
 */
void lttng_calibrate_stats_add_new(struct lttng_calibrate_stats *s, s64 x)
{
	stats_count_seen(s, 1);
	s->seen[1] = s->seen[0];
	s->seen_nr[1] = s->seen_nr[0];
	s->seen[0] = x;
	s->seen_nr[0] = 1;
}

/**
 * lttng_calibrate_stats_flush() - count the pending samples
 * @s: statistics to update
 *
 * Needed once after the last lttng_calibrate_stats_add() and before
 * lttng_calibrate_stats_summarize() or lttng_calibrate_stats_quantile();
 * harmless at any time.
 *
 * Context: Any context; the caller serializes updates of @s.
 */
void lttng_calibrate_stats_flush(struct lttng_calibrate_stats *s)
{
	stats_count_seen(s, 0);
	stats_count_seen(s, 1);
}

static s64 stats_clamp(const struct lttng_calibrate_stats *s,
		       u64 magnitude, bool negative)
{
	s64 v;

	if (negative)
		v = magnitude > (u64)S64_MAX ? S64_MIN : -(s64)magnitude;
	else
		v = magnitude > (u64)S64_MAX ? S64_MAX : (s64)magnitude;
	if (v < s->min)
		return s->min;
	if (v > s->max)
		return s->max;
	return v;
}

/**
 * lttng_calibrate_stats_quantile() - quantile from the histogram
 * @s: statistics to read
 * @permille: quantile in thousandths, 0 to 1000 (larger means 1000)
 *
 * Finds the bucket of the smallest value v such that at least
 * ceil(@permille * count / 1000) samples, and at least one, are <= v.
 *
 * Context: Any context.
 * Return: the midpoint of that bucket clamped to [min, max]: exact for
 * magnitudes below 64, otherwise within 1/64 of v.  0 when there are no
 * samples.
 */
s64 lttng_calibrate_stats_quantile(const struct lttng_calibrate_stats *s,
				   u32 permille)
{
	u64 rank, seen = 0, mid;
	u32 rem;
	int i;

	if (!s->count)
		return 0;
	if (permille > 1000)
		permille = 1000;
	/* ceil(permille * count / 1000) without overflowing 64 bits */
	rank = div_u64_rem(s->count, 1000, &rem) * permille +
	       (rem * permille + 999) / 1000;
	if (!rank)
		rank = 1;

	for (i = LTTNG_CALIBRATE_HIST_BUCKETS - 1; i >= 0; i--) {
		seen += s->neg[i];
		if (seen >= rank) {
			mid = hist_midpoint(i);
			return stats_clamp(s, mid, true);
		}
	}
	for (i = 0; i < LTTNG_CALIBRATE_HIST_BUCKETS; i++) {
		seen += s->pos[i];
		if (seen >= rank) {
			mid = hist_midpoint(i);
			return stats_clamp(s, mid, false);
		}
	}
	/* only reachable when buckets saturated */
	return s->max;
}

static s64 stats_mean_milli(const struct lttng_calibrate_stats *s)
{
	const u64 n = s->count;
	bool negative = u128_is_neg(s->sum);
	struct lttng_calibrate_u128 abs_sum, dev, mean;
	bool unused = false;
	u64 quot, rem, shift_abs;

	/* mean = shift + sum / n, with |sum| = quot * n + rem, quot < 2^64 */
	abs_sum = negative ? u128_neg(s->sum) : s->sum;
	quot = u128_div_u64(abs_sum, n, &rem).lo;
	/* dev = round(1000 * |sum| / n), ties toward +infinity */
	dev = u128_mul64(rem, 1000);
	dev = u128_add_u64(dev, negative ? (n - 1) / 2 : n / 2);
	dev = u128_div_u64(dev, n, NULL);
	dev = u128_add(u128_mul64(quot, 1000), dev, &unused);

	shift_abs = s->shift < 0 ? 0 - (u64)s->shift : (u64)s->shift;
	mean = u128_mul64(shift_abs, 1000);
	if (s->shift < 0)
		mean = u128_neg(mean);
	/* both terms are below 2^74 in magnitude: no wrap in 128 bits */
	if (negative)
		mean = u128_sub(mean, dev);
	else
		mean = u128_add(mean, dev, &unused);
	return s128_to_s64(mean);
}

/*
 * Standard deviation in thousandths from @scaled = floor(4 * 10^6 * var)
 * when @scaled_valid, else from @var = floor(var) (var >= 2^106 then, so
 * 1000 * sqrt(var) is within 1000 of exact, or saturates).
 */
static u64 stddev_round(struct lttng_calibrate_u128 scaled, bool scaled_valid,
			struct lttng_calibrate_u128 var)
{
	u64 root;

	if (!scaled_valid) {
		root = u128_sqrt(var);
		return root > U64_MAX / 1000 ? U64_MAX : root * 1000;
	}
	root = u128_sqrt(scaled);
	return (root >> 1) + (root & 1);
}

/*
 * Returns M2 = sum of (x - mean)^2 as @m2 + @frac / n, 0 <= @frac < n;
 * false if the accumulated sums are saturated.
 */
static bool stats_m2(const struct lttng_calibrate_stats *s,
		     struct lttng_calibrate_u128 *m2, u64 *frac)
{
	const u64 n = s->count;
	struct lttng_calibrate_u128 abs_sum, t;
	bool overflow = false;
	u64 quot, rem, frac_rem;

	if (s->sumsq.hi == U64_MAX && s->sumsq.lo == U64_MAX)
		return false;
	/*
	 * M2 = sumsq - sum^2 / n.  With |sum| = quot * n + rem:
	 * sum^2 / n = quot^2 * n + 2 * quot * rem + rem^2 / n, and every
	 * term is at most sum^2 / n <= sumsq, so none overflows.
	 */
	abs_sum = u128_is_neg(s->sum) ? u128_neg(s->sum) : s->sum;
	quot = u128_div_u64(abs_sum, n, &rem).lo;
	t = u128_mul64(quot, quot);
	t = u128_mul_u64(t, n, &overflow);
	if (overflow)
		return false;
	*m2 = u128_sub(s->sumsq, t);
	t = u128_mul64(quot, rem);
	*m2 = u128_sub(*m2, t);
	*m2 = u128_sub(*m2, t);
	t = u128_mul64(rem, rem);
	t = u128_div_u64(t, n, &frac_rem);
	*m2 = u128_sub(*m2, t);
	/* now M2 = m2 - frac_rem / n */
	*frac = 0;
	if (frac_rem) {
		*m2 = u128_sub_u64(*m2, 1);
		*frac = n - frac_rem;
	}
	return true;
}

static u64 stats_stddev_milli(const struct lttng_calibrate_stats *s)
{
	const u64 n = s->count;
	struct lttng_calibrate_u128 m2, t, scaled, var;
	bool overflow = false;
	u64 frac, var_rem;

	if (n < 2)
		return 0;
	if (!stats_m2(s, &m2, &frac))
		return U64_MAX;

	/* var = M2 / (n - 1) = (m2 * n + frac) / (n * (n - 1)) */
	var = u128_div_u64(m2, n - 1, &var_rem);
	scaled = u128_mul_u64(m2, n, &overflow);
	scaled = u128_add_u64(scaled, frac);
	overflow |= u128_cmp(scaled, u128_from(0, frac)) < 0;
	scaled = u128_mul_u64(scaled, VAR_SCALE, &overflow);
	if (!overflow) {
		t = u128_mul64(n, n - 1);
		scaled = u128_divmod(scaled, t, NULL);
		return stddev_round(scaled, true, var);
	}

	/*
	 * Large n or spread: drop frac / n.  That lowers the scaled variance
	 * by less than 4 * 10^6 / (n - 1); as 4 * 10^6 * M2 * n >= 2^128
	 * here, the thousandths of the deviation move by less than 10^-13.
	 */
	overflow = false;
	scaled = u128_mul_u64(var, VAR_SCALE, &overflow);
	t = u128_mul64(var_rem, VAR_SCALE);
	t = u128_div_u64(t, n - 1, NULL);
	scaled = u128_add(scaled, t, &overflow);
	return stddev_round(scaled, !overflow, var);
}

/**
 * lttng_calibrate_stats_summarize() - compute the printable summary
 * @s: statistics to read
 * @out: where to store the summary
 *
 * Does the 128-bit divisions and the square root, so it is much slower
 * than lttng_calibrate_stats_add(); meant to run once per result.
 *
 * Context: Any context.
 */
void lttng_calibrate_stats_summarize(const struct lttng_calibrate_stats *s,
				     struct lttng_calibrate_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->count)
		return;
	out->count = s->count;
	out->min = s->min;
	out->max = s->max;
	out->mean_milli = stats_mean_milli(s);
	out->stddev_milli = stats_stddev_milli(s);
	out->median = lttng_calibrate_stats_quantile(s, 500);
	out->p99 = lttng_calibrate_stats_quantile(s, 990);
}

/**
 * lttng_calibrate_milli() - a whole value in thousandths, saturating
 * @v: the value
 *
 * Return: @v * 1000, or S64_MIN/S64_MAX when that does not fit.
 */
s64 lttng_calibrate_milli(s64 v)
{
	if (v > S64_MAX / 1000)
		return S64_MAX;
	if (v < S64_MIN / 1000)
		return S64_MIN;
	return v * 1000;
}

/**
 * lttng_calibrate_milli_to_ns() - clock cycles to nanoseconds
 * @cycles_milli: thousandths of a cycle
 * @khz: the clock's frequency, not 0
 *
 * Truncates toward zero, so the conversion preserves order: what holds in
 * cycles (min <= median <= max) holds in nanoseconds too.
 *
 * Return: thousandths of a nanosecond, saturated at S64_MAX in magnitude.
 */
s64 lttng_calibrate_milli_to_ns(s64 cycles_milli, u32 khz)
{
	u64 mag = cycles_milli < 0 ? 0 - (u64)cycles_milli : (u64)cycles_milli;
	u64 whole, ns;
	u32 rem;

	whole = div_u64_rem(mag, khz, &rem);
	if (whole > (u64)S64_MAX / 1000000)
		ns = S64_MAX;
	else
		ns = whole * 1000000 + div_u64((u64)rem * 1000000, khz);
	if (ns > (u64)S64_MAX)
		ns = S64_MAX;
	return cycles_milli < 0 ? -(s64)ns : (s64)ns;
}

/**
 * lttng_calibrate_t975_milli() - Student's t, 97.5 % quantile
 * @n: number of samples, at least 2
 *
 * Rounded up to the thousandth for every number of degrees of freedom, so
 * that an interval is never too narrow: df up to t[i].last_df (and above
 * the entry before) has t[i].milli; above the last entry, 1960 (the limit,
 * 1.95996, rounded up).  The table was computed with mpmath's regularized
 * incomplete beta function at 40 digits; tools/testing/stats-test checks every df
 * up to 10^6 against a computation of its own.
 *
 * Return: ceil(1000 * t(0.975, @n - 1)).
 */
u32 lttng_calibrate_t975_milli(u64 n)
{
	static const struct {
		u32 last_df;
		u32 milli;
	} t[] = {
		{ 1, 12707 }, { 2, 4303 }, { 3, 3183 }, { 4, 2777 },
		{ 5, 2571 }, { 6, 2447 }, { 7, 2365 }, { 8, 2307 },
		{ 9, 2263 }, { 10, 2229 }, { 11, 2201 }, { 12, 2179 },
		{ 13, 2161 }, { 14, 2145 }, { 15, 2132 }, { 16, 2120 },
		{ 17, 2110 }, { 18, 2101 }, { 19, 2094 }, { 20, 2086 },
		{ 21, 2080 }, { 22, 2074 }, { 23, 2069 }, { 24, 2064 },
		{ 25, 2060 }, { 26, 2056 }, { 27, 2052 }, { 28, 2049 },
		{ 29, 2046 }, { 30, 2043 }, { 31, 2040 }, { 32, 2037 },
		{ 33, 2035 }, { 34, 2033 }, { 35, 2031 }, { 36, 2029 },
		{ 37, 2027 }, { 38, 2025 }, { 39, 2023 }, { 40, 2022 },
		{ 41, 2020 }, { 42, 2019 }, { 43, 2017 }, { 44, 2016 },
		{ 45, 2015 }, { 46, 2013 }, { 47, 2012 }, { 48, 2011 },
		{ 49, 2010 }, { 50, 2009 }, { 51, 2008 }, { 52, 2007 },
		{ 53, 2006 }, { 55, 2005 }, { 56, 2004 }, { 57, 2003 },
		{ 58, 2002 }, { 60, 2001 }, { 61, 2000 }, { 63, 1999 },
		{ 65, 1998 }, { 67, 1997 }, { 68, 1996 }, { 70, 1995 },
		{ 72, 1994 }, { 75, 1993 }, { 77, 1992 }, { 80, 1991 },
		{ 82, 1990 }, { 85, 1989 }, { 88, 1988 }, { 92, 1987 },
		{ 95, 1986 }, { 99, 1985 }, { 104, 1984 }, { 108, 1983 },
		{ 113, 1982 }, { 119, 1981 }, { 125, 1980 }, { 132, 1979 },
		{ 140, 1978 }, { 149, 1977 }, { 158, 1976 }, { 170, 1975 },
		{ 183, 1974 }, { 198, 1973 }, { 216, 1972 }, { 237, 1971 },
		{ 263, 1970 }, { 296, 1969 }, { 338, 1968 }, { 394, 1967 },
		{ 472, 1966 }, { 588, 1965 }, { 782, 1964 }, { 1166, 1963 },
		{ 2290, 1962 }, { 65869, 1961 },
	};
	u64 df = n - 1;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (df <= t[i].last_df)
			return t[i].milli;
	return 1960;
}

/**
 * lttng_calibrate_ci95_milli() - half-width of a mean's 95 % interval
 * @stddev_milli: sample standard deviation, in thousandths, >= 0
 * @n: number of samples, at most 10^12
 *
 * Return: t(0.975, n - 1) * stddev / sqrt(n), in thousandths; 0 when
 * @n < 2.
 */
s64 lttng_calibrate_ci95_milli(s64 stddev_milli, u64 n)
{
	struct lttng_calibrate_u128 scaled;
	u64 sqrt_n_milli, t, q, r;

	if (n < 2 || stddev_milli <= 0)
		return 0;
	t = lttng_calibrate_t975_milli(n);
	/* n * 10^6 fits in 64 bits, and its square root is sqrt(n) * 1000 */
	scaled = u128_from(0, n * 1000000);
	sqrt_n_milli = u128_sqrt(scaled);
	scaled = u128_mul64((u64)stddev_milli, t);
	q = u128_div_u64(scaled, sqrt_n_milli, &r).lo;
	return q > (u64)S64_MAX ? S64_MAX : (s64)q;
}

/**
 * lttng_calibrate_percent_milli() - a ratio in percent
 * @num_milli: numerator, in thousandths
 * @den_milli: denominator, in thousandths
 * @out: @num_milli / @den_milli * 100, in thousandths of a percent
 *
 * Return: false, leaving @out alone, when @den_milli <= 0 or the ratio
 * does not fit.
 */
bool lttng_calibrate_percent_milli(s64 num_milli, s64 den_milli, s64 *out)
{
	u64 mag, q, r;

	if (den_milli <= 0)
		return false;
	mag = num_milli < 0 ? 0 - (u64)num_milli : (u64)num_milli;
	if (mag > U64_MAX / 100000)
		return false;
	q = div64_u64_rem(mag * 100000, (u64)den_milli, &r);
	if (q > (u64)S64_MAX)
		return false;
	*out = num_milli < 0 ? -(s64)q : (s64)q;
	return true;
}
