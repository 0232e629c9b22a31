// SPDX-License-Identifier: GPL-2.0
/*
 * Stress tests of lttng_calibrate's input: every kind of malformed value
 * refused without a trace, and random writes to every setting.  The
 * storm is stress_test.c, the slowest runs stress_maxed_test.c.
 *
 * LTTNG_CALIBRATE_SEED=N repeats the random writes of a failed run (the
 * seed is in its log).  Every test ends by checking that the kernel log
 * gained no warning, bug, oops, lockdep report or stall.
 */
#define _GNU_SOURCE

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

/* Any errno at all (a hardware event under QEMU TCG). */
#define ANY_ERROR		(-1)

#define BAD_MAX			512
#define NR_RANDOM_WRITES	10000
#define WRITE_TIMEOUT_S		20

PARAMS_FIXTURE(stress);

/*
 * malformed_values: tables of values each file must refuse, with the
 * errno, and nothing may change: neither the file's value nor the results.
 */
struct bad {
	char *buf;
	size_t len;
	int err;
};

struct bad_list {
	struct bad v[BAD_MAX];
	int nr;
};

static void bad_add(struct bad_list *l, const void *buf, size_t len, int err)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (l->v[i].len == len && !memcmp(l->v[i].buf, buf, len))
			return;
	if (l->nr == BAD_MAX)
		return;
	l->v[l->nr].buf = malloc(len + 1);
	if (!l->v[l->nr].buf)
		return;
	memcpy(l->v[l->nr].buf, buf, len);
	l->v[l->nr].len = len;
	l->v[l->nr].err = err;
	l->nr++;
}

static void bad_str(struct bad_list *l, const char *s, int err)
{
	bad_add(l, s, strlen(s), err);
}

/* @tmpl with each '@' replaced by @v. */
static void bad_form(struct bad_list *l, const char *tmpl, const char *v,
		     int err)
{
	char buf[256];
	size_t len = 0;

	for (; *tmpl && len + strlen(v) + 2 < sizeof(buf); tmpl++) {
		if (*tmpl == '@')
			len += snprintf(buf + len, sizeof(buf) - len, "%s", v);
		else
			buf[len++] = *tmpl;
	}
	bad_add(l, buf, len, err);
}

/* @pre, then @n times @c, then @post. */
static void bad_repeat(struct bad_list *l, const char *pre, char c, size_t n,
		       const char *post, int err)
{
	size_t a = strlen(pre), b = strlen(post);
	char *buf = malloc(a + n + b);

	if (!buf)
		return;
	memcpy(buf, pre, a);
	memset(buf + a, c, n);
	memcpy(buf + a + n, post, b);
	bad_add(l, buf, a + n + b, err);
	free(buf);
}

/* @v, a NUL byte, @post. */
static void bad_nul(struct bad_list *l, const char *v, const char *post,
		    int err)
{
	char buf[128];
	size_t a = strlen(v), b = strlen(post);

	memcpy(buf, v, a);
	buf[a] = '\0';
	memcpy(buf + a + 1, post, b);
	bad_add(l, buf, a + 1 + b, err);
}

static void bad_free(struct bad_list *l)
{
	int i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i].buf);
	free(l);
}

/* Malformed forms of a well-formed decimal '@'. */
static const char *const number_forms[] = {
	" @", "@ ", "\t@", "@\t", "@\r", "@\r\n", "@\n\n", "\n@", "@\n ",
	" @\n", "@ \n", "\v@", "@\f", "@\n\n\n", "\r@",
	"+@", "++@", "--@", "+-@", "-+@", "- @", "+ @", "0x@", "0X@", "0b@",
	"0o@", "x@", "#@", "=@", "a@", "$@", "@e3", "@E3", "@.", "@.0",
	"@e0", ".@",
	"@abc", "@k", "@K", "@M", "@G", "@x", "@-", "@+", "@#", "@;", "@,",
	"@_0", "@'0", "@h", "@u", "@L", "@ULL",
	"@ @", "@,@", "@\t@", "@\n@", "@+@", "@-@",
};

/* Never a decimal count, whatever the file. */
static const char *const never_numbers[] = {
	"\n", " ", "\t\n", "\n\n", " \n", "abc", "one", "five", "true",
	"null", "nan", "inf", "-inf", "0x", "-", "+", "0x10", "1e3", "1.5",
	".5", "1,000", "1_000", "1 000", "\xd9\xa5", "\xef\xbc\x95",
	"\xc2\xb9", "\x01", "\x7f", "\xff", "\x80\x81", "\x1b[0m",
	"18446744073709551616", "18446744073709551617",
	"36893488147419103232", "99999999999999999999",
	"340282366920938463463374607431768211456", "-18446744073709551616",
};

/*
 * Malformed numbers around @v, EINVAL each.  @debugfs: the file is ours,
 * not sysfs, which passes the set operation a string (text after a NUL is
 * lost) and takes an empty write for nothing.  @sign: "-@" is not valid.
 */
static void bad_numbers(struct bad_list *l, const char *v, bool debugfs,
			bool sign)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(number_forms); i++)
		bad_form(l, number_forms[i], v, EINVAL);
	if (sign)
		bad_form(l, "-@", v, EINVAL);
	for (i = 0; i < ARRAY_SIZE(never_numbers); i++)
		bad_str(l, never_numbers[i], EINVAL);
	bad_nul(l, "", "", EINVAL);
	bad_nul(l, "", v, EINVAL);
	bad_nul(l, "", "\n", EINVAL);
	bad_repeat(l, "", '1', 64, "", EINVAL);
	bad_repeat(l, "", '9', 100, "", EINVAL);
	bad_repeat(l, "", '1', 600, "", EINVAL);
	bad_repeat(l, "", '9', 4095, "", EINVAL);
	bad_repeat(l, "", '1', 5000, "", EINVAL);
	bad_repeat(l, "", ' ', 100, v, EINVAL);
	bad_repeat(l, v, ' ', 100, "", EINVAL);
	if (!debugfs)
		return;
	bad_str(l, "", EINVAL);
	bad_nul(l, v, "", EINVAL);
	bad_nul(l, v, "\n", EINVAL);
	bad_nul(l, v, v, EINVAL);
	bad_nul(l, "\n", "", EINVAL);
	bad_repeat(l, "", '0', 63, v, EINVAL);
}

static void gen_run(struct bad_list *l)
{
	char above[32];

	bad_numbers(l, "5", true, true);
	bad_str(l, "0", EINVAL);
	bad_str(l, "00", EINVAL);
	bad_str(l, "0\n", EINVAL);
	bad_str(l, "-0", EINVAL);
	bad_str(l, "-1", EINVAL);
	snprintf(above, sizeof(above), "%d", param_read("max_iterations") + 1);
	bad_str(l, above, E2BIG);
	bad_str(l, "18446744073709551615", E2BIG);
	bad_str(l, "18446744073709551615\n", E2BIG);
}

static void gen_work_cycles(struct bad_list *l)
{
	bad_numbers(l, "5", true, true);
	bad_str(l, "-0", EINVAL);
	bad_str(l, "-1", EINVAL);
	bad_str(l, "1000001", E2BIG);
	bad_str(l, "1000001\n", E2BIG);
	bad_str(l, "4294967296", E2BIG);
	bad_str(l, "18446744073709551615", E2BIG);
}

static void gen_cpu(struct bad_list *l)
{
	bad_numbers(l, "0", false, false);
	bad_str(l, "-2", EINVAL);
	bad_str(l, "--1", EINVAL);
	bad_str(l, "8192", EINVAL);
	bad_str(l, "99999", EINVAL);
	bad_str(l, "2147483648", EINVAL);
	bad_str(l, "-2147483649", EINVAL);
	bad_str(l, "4294967295", EINVAL);
}

static void gen_max_iterations(struct bad_list *l)
{
	bad_numbers(l, "5", false, true);
	bad_str(l, "0", EINVAL);
	bad_str(l, "-0", EINVAL);
	bad_str(l, "1000000001", EINVAL);
	bad_str(l, "4294967296", EINVAL);
}

static void gen_chunk_iterations(struct bad_list *l)
{
	bad_numbers(l, "5", false, true);
	bad_str(l, "0", EINVAL);
	bad_str(l, "-0", EINVAL);
	bad_str(l, "10000001", EINVAL);
	bad_str(l, "4294967296", EINVAL);
}

static void gen_deltas_window(struct bad_list *l)
{
	bad_numbers(l, "5", false, true);
	bad_str(l, "65537", EINVAL);
	bad_str(l, "100000", EINVAL);
	bad_str(l, "4294967296", EINVAL);
}

/* Malformed forms of a valid word '@'. */
static const char *const word_forms[] = {
	" @", "@ ", "\t@", "@\t", "@\r\n", "@\r", "@\n\n", "\n@", " @\n",
	"@ \n", "[@]", "[@]\n", "@s", "@@", "@,@", "@ @", "@\n@", "+@", "-@",
	"@=1", "@1", "\"@\"", "'@'", "@;", "#@", "@#",
};

/* Never a word of a choice file. */
static const char *const never_words[] = {
	"", "\n", " ", "\t", "0", "1", "-1", "yes", "no", "on", "off", "true",
	"false", "default", "\x01", "\xff\xfe", "\x80", "\xc3\xa9", "\x1b[0m",
	"*", "?", ".*",
};

/* Case changes and truncations of @w. */
static void bad_spellings(struct bad_list *l, const char *w)
{
	char buf[64];
	size_t i, n = strlen(w);

	for (i = 0; i <= n; i++)
		buf[i] = w[i] >= 'a' && w[i] <= 'z' ? w[i] - 32 : w[i];
	bad_str(l, buf, EINVAL);
	snprintf(buf, sizeof(buf), "%s", w);
	buf[0] -= buf[0] >= 'a' && buf[0] <= 'z' ? 32 : 0;
	bad_str(l, buf, EINVAL);
	bad_add(l, w, n - 1, EINVAL);
	bad_str(l, w + 1, EINVAL);
	bad_nul(l, w, "", EINVAL);
	bad_nul(l, "", w, EINVAL);
	bad_nul(l, w, "\n", EINVAL);
	bad_repeat(l, w, ' ', 100, "", EINVAL);
	bad_repeat(l, "", ' ', 100, w, EINVAL);
}

/*
 * Malformed values of a file of @nr words: forms and spellings of each,
 * words of other files (@others), what the file reads as (@path), the
 * long and the binary.
 */
static void bad_words(struct bad_list *l, const char *path,
		      const char *const *words, int nr,
		      const char *const *others)
{
	char *shown = lc_read_file(path, NULL);
	size_t i;
	int w;

	for (w = 0; w < nr; w++) {
		for (i = 0; i < ARRAY_SIZE(word_forms); i++)
			bad_form(l, word_forms[i], words[w], EINVAL);
		bad_spellings(l, words[w]);
	}
	for (; *others; others++)
		bad_str(l, *others, EINVAL);
	for (i = 0; i < ARRAY_SIZE(never_words); i++)
		bad_str(l, never_words[i], EINVAL);
	if (shown) {
		bad_str(l, shown, EINVAL);
		shown[strcspn(shown, "\n")] = '\0';
		bad_str(l, shown, EINVAL);
	}
	free(shown);
	bad_repeat(l, "", 'a', 16, "", EINVAL);
	bad_repeat(l, "", 'a', 64, "", EINVAL);
	bad_repeat(l, "", 'a', 600, "", EINVAL);
	bad_repeat(l, "", 'a', 4096, "", EINVAL);
	bad_repeat(l, "", 'x', 5000, "\n", EINVAL);
}

static const char *const probe_words[] = {
	"none", "kprobe", "kretprobe", "fprobe", "fprobe-exit", "external",
};

static void gen_probe(struct bad_list *l)
{
	static const char *const others[] = {
		"function", "tracepoint", "disabled", "enabled", "uprobe",
		"ftrace", "kprobes", "kprobe_events", "none kprobe",
		"kprobe kretprobe", "kprobe,kretprobe", "none\tkprobe", NULL,
	};

	/* Without CONFIG_FPROBE (Debian's 6.1): well-formed, not supported. */
	if (!fprobe_available()) {
		bad_str(l, "fprobe", EOPNOTSUPP);
		bad_str(l, "fprobe\n", EOPNOTSUPP);
		bad_str(l, "fprobe-exit", EOPNOTSUPP);
	}
	bad_words(l, DIR "probe", probe_words, ARRAY_SIZE(probe_words),
		  others);
}

static void gen_target(struct bad_list *l)
{
	static const char *const words[] = {
		"function", "tracepoint", "payload",
	};
	static const char *const others[] = {
		"none", "kprobe", "kretprobe", "external", "disabled",
		"enabled", "syscall", "func", "tracepoints", "payloads",
		"lttng_calibrate_target", "function tracepoint", NULL,
	};

	bad_words(l, DIR "target", words, ARRAY_SIZE(words), others);
}

static void gen_irqs(struct bad_list *l)
{
	static const char *const words[] = { "disabled", "enabled" };
	static const char *const others[] = {
		"disable", "enable", "none", "kprobe", "function", "masked",
		"off\n", "on\n", "0\n", "1\n", "disabled enabled",
		"[enabled]", "[disabled] enabled\n", NULL,
	};

	bad_words(l, DIR "irqs", words, ARRAY_SIZE(words), others);
}

static const char *const bad_counter_lists[] = {
	/* unknown names */
	"bogus", "page-faults bogus", "bogus cpu-clock", "page-fault",
	"page-faultss", "page_faults", "pagefaults", "cpu-clock2",
	"-cpu-clock", "cpu-clock:u", "cpu-clock:k", "{cpu-clock}",
	"cpu-clock/", "cpu/cpu-clock/", "cpu-clock=1", "page-faults;cpu-clock",
	"page-faults|cpu-clock", "page-faults:cpu-clock",
	"page-faults.cpu-clock", "L1-dcache", "LLC-", "XLC-load-misses",
	"L1-dcache-loadz", "LLC-load-misses-", "none", "#", "# cpu-clock",
	/* names given twice, raw codes normalised first */
	"cpu-clock cpu-clock", "cpu-clock,page-faults,cpu-clock",
	"page-faults\tpage-faults\n", "rc0 rc0", "rc0 r00c0", "r1,r01",
	"r0 r0000000000000000", "r2a\tr002a\n",
	/* raw codes: 1 to 16 hexadecimal digits, nothing else */
	"r", "r+c0", "r0xc0", "rxyz", "r-1", "rg", "r12345678901234567",
	"r00000000000000001", "r1.0", "r1h", "rc0:u", "r\xff", "r_c0",
	"r c0", "rc0x",
	/* blanks are spaces, tabs, commas and newlines, nothing else */
	"cpu-clock\r\n", "cpu-clock\r", "cpu-clock;page-faults",
	"cpu-clock\vpage-faults",
	/* binary */
	"\x01", "\xff\xfe", "cpu-clock\x80",
	"cpu\xe2\x80\x90" "clock",	/* U+2010 HYPHEN: \x90c would be one escape */
	"\x1b[0m",
};

/* Each an event the PMU would count: refused without one. */
static const char *const hardware_lists[] = {
	"cycles", "instructions", "LLC-load-misses", "branch-misses",
	"r01c2", "rc0", "r0", "rffffffffffffffff", "cpu-clock cycles",
	"page-faults,L1-dcache-loads",
};

/* The nine software events: one more than a selection holds. */
static const char *const software_events[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults",
};

/* The first @n software events, @sep between them, then @last. */
static void bad_software(struct bad_list *l, size_t n, const char *sep,
			 const char *last)
{
	char buf[256];
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? sep : "", software_events[i]);
	snprintf(buf + len, sizeof(buf) - len, "%s", last);
	bad_str(l, buf, E2BIG);
}

static void gen_counters(struct bad_list *l)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_counter_lists); i++)
		bad_str(l, bad_counter_lists[i], EINVAL);
	bad_software(l, 9, " ", "");
	bad_software(l, 9, ",", "\n");
	bad_software(l, 8, "\t", "\tr1");
	bad_str(l, "r1 r2 r3 r4 r5 r6 r7 r8 r9", E2BIG);
	bad_str(l, "r1,r2,r3,r4,r5,r6,r7,r8,r9,ra,rb,rc\n", E2BIG);
	bad_repeat(l, "cpu-clock", ' ', 504, "", EINVAL);
	bad_repeat(l, "cpu-clock", ' ', 600, "\n", EINVAL);
	bad_repeat(l, "cpu-clock", ',', 4096, "", EINVAL);
	bad_repeat(l, "", '\t', 520, "page-faults", EINVAL);
	bad_nul(l, "cpu-clock", "", EINVAL);
	bad_nul(l, "", "", EINVAL);
	bad_nul(l, "", "cpu-clock", EINVAL);
	bad_nul(l, "cpu-clock", "page-faults", EINVAL);
	bad_nul(l, "page-faults", "\n", EINVAL);
	if (pmu_present())
		return;
	for (i = 0; i < ARRAY_SIZE(hardware_lists); i++)
		bad_str(l, hardware_lists[i], ANY_ERROR);
}

struct refusal {
	const char *path;	/* written to */
	bool shows;		/* reads back its value */
	const char *setup;	/* its value during the test */
	void (*gen)(struct bad_list *l);
};

static const struct refusal refusals[] = {
	{ DIR "run", false, NULL, gen_run },
	{ DIR "counters", true, "page-faults,cpu-clock\n", gen_counters },
	{ DIR "probe", true, "kretprobe", gen_probe },
	{ DIR "target", true, "tracepoint\n", gen_target },
	{ DIR "irqs", true, "enabled", gen_irqs },
	{ DIR "work_cycles", true, "3", gen_work_cycles },
	{ PARAMS "cpu", true, "0", gen_cpu },
	{ PARAMS "max_iterations", true, "100000000", gen_max_iterations },
	{ PARAMS "chunk_iterations", true, "1000", gen_chunk_iterations },
	{ PARAMS "deltas_window", true, "500", gen_deltas_window },
};

/* The last results, which no refused write may change. */
struct results {
	char *text, *kv;
};

static char *value_of(const char *path)
{
	char *text = lc_read_file(path, NULL);

	return text ? strip_comments(text) : NULL;
}

static void results_unchanged(struct __test_metadata *_metadata,
			      struct results *r, const char *path,
			      const char *value)
{
	char *text = lc_read_file(DIR "results", NULL);
	char *kvtext = lc_read_file(DIR "results_kv", NULL);

	EXPECT_TRUE(text && !strcmp(r->text, text)) {
		TH_LOG("%s <- \"%s\" changed results", path, value);
	}
	EXPECT_TRUE(kvtext && !strcmp(r->kv, kvtext)) {
		TH_LOG("%s <- \"%s\" changed results_kv", path, value);
	}
	if (text && kvtext && (strcmp(r->text, text) || strcmp(r->kv, kvtext))) {
		free(r->text);
		free(r->kv);
		r->text = text;
		r->kv = kvtext;
		return;
	}
	free(text);
	free(kvtext);
}

static void refuse_one(struct __test_metadata *_metadata,
		       const struct refusal *f, const struct bad *b,
		       const char *before, struct results *r)
{
	char value[160], was[160], is[160], *after;
	int err = lc_write_file(f->path, b->buf, b->len);

	escape_bytes(b->buf, b->len, value, sizeof(value));
	EXPECT_TRUE(b->err == ANY_ERROR ? err != 0 : err == b->err) {
		TH_LOG("%s <- \"%s\": %s, expected %s", f->path, value,
		       err ? strerror(err) : "accepted",
		       b->err == ANY_ERROR ? "an error" : strerror(b->err));
	}
	if (f->shows) {
		after = value_of(f->path);
		EXPECT_TRUE(after && !strcmp(before, after)) {
			TH_LOG("%s <- \"%s\" changed it from \"%s\" to \"%s\"",
			       f->path, value,
			       escape_bytes(before, strlen(before), was,
					    sizeof(was)),
			       after ? escape_bytes(after, strlen(after), is,
						    sizeof(is)) : "(unreadable)");
		}
		if (!after || strcmp(before, after))
			write_str(f->path, f->setup);
		free(after);
	}
	results_unchanged(_metadata, r, f->path, value);
}

static void refuse_all(struct __test_metadata *_metadata,
		       const struct refusal *f, struct results *r)
{
	struct bad_list *l = calloc(1, sizeof(*l));
	char *before = NULL;
	int i, err;

	ASSERT_NE(NULL, l);
	err = f->setup ? write_str(f->path, f->setup) : 0;
	EXPECT_EQ(0, err) {
		TH_LOG("%s: cannot write %s: %s", f->path, f->setup,
		       strerror(err));
	}
	if (!err) {
		f->gen(l);
		before = f->shows ? value_of(f->path) : NULL;
		EXPECT_TRUE(!f->shows || before);
	}
	EXPECT_LE(50, l->nr) {
		TH_LOG("%s: %d malformed values only", f->path, l->nr);
	}
	for (i = 0; i < l->nr && (before || !f->shows); i++)
		refuse_one(_metadata, f, &l->v[i], before, r);
	fprintf(stderr, "# %s: %d malformed values written\n", f->path, i);
	free(before);
	bad_free(l);
}

TEST_F_TIMEOUT(stress, malformed_values, 300)
{
	struct results r;
	size_t i;

	ASSERT_EQ(0, param_write("max_iterations", "100000000"));
	ASSERT_EQ(0, run("7"));
	r.text = lc_read_file(DIR "results", NULL);
	r.kv = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, r.text);
	ASSERT_NE(NULL, r.kv);
	for (i = 0; i < ARRAY_SIZE(refusals); i++)
		refuse_all(_metadata, &refusals[i], &r);
	free(r.text);
	free(r.kv);
}

/*
 * random_writes: random bytes and random mixes of tokens, valid or nearly,
 * to every writable file and parameter, with short runs in between.
 */
static const char *const run_tokens[] = {
	"3", "7", "10", "50", "0", "-1", "+5", "abc", "0x10", NULL,
};

static const char *const counter_tokens[] = {
	"page-faults", "context-switches", "cpu-migrations", "minor-faults",
	"major-faults", "alignment-faults", "emulation-faults", "cpu-clock",
	"task-clock", "cs", "faults", "migrations", "cycles", "instructions",
	"LLC-load-misses", "rc0", "r00c0", "r1", "r", "rxyz", "bogus", "#",
	NULL,
};

static const char *const probe_tokens[] = {
	"none", "kprobe", "kretprobe", "fprobe", "fprobe-exit", "external",
	"uprobe", NULL,
};

static const char *const target_tokens[] = {
	"function", "tracepoint", "syscall", NULL,
};

static const char *const irqs_tokens[] = {
	"disabled", "enabled", "on", NULL,
};

/* Small: the runs in between stay short. */
static const char *const work_tokens[] = {
	"0", "1", "10", "100", "1000", "1000001", "-0", "abc", NULL,
};

static const char *const cpu_tokens[] = {
	"-1", "0", "1", "-2", "99999", NULL,
};

static const char *const max_tokens[] = {
	"1", "3", "50", "100", "10000", "0", "-1", "+5", NULL,
};

static const char *const chunk_tokens[] = {
	"1", "100", "10000", "10000000", "0", "10000001", NULL,
};

/* At most 65536, the largest window. */
static const char *const window_tokens[] = {
	"0", "1", "10", "1000", "65536", "-1", "0x10", NULL,
};

static const struct {
	const char *path;
	const char *const *tokens;
} fuzzed[] = {
	{ DIR "run", run_tokens },
	{ DIR "counters", counter_tokens },
	{ DIR "probe", probe_tokens },
	{ DIR "target", target_tokens },
	{ DIR "irqs", irqs_tokens },
	{ DIR "work_cycles", work_tokens },
	{ PARAMS "cpu", cpu_tokens },
	{ PARAMS "max_iterations", max_tokens },
	{ PARAMS "chunk_iterations", chunk_tokens },
	{ PARAMS "deltas_window", window_tokens },
};

static size_t random_bytes(unsigned long long *s, char *buf)
{
	size_t len = rnd_below(s, 10) ? rnd_below(s, 64) : rnd_below(s, 700);
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = rnd_next(s) >> 40;
	return len;
}

/* A random value for the file of @tokens, in @buf (1024 bytes). */
static size_t random_value(unsigned long long *s, const char *const *tokens,
			   char *buf)
{
	static const char *const seps[] = { "", " ", ",", "\t", "\n", "  " };
	unsigned int nr, ntok, i;
	size_t len = 0;

	if (rnd_below(s, 10) < 3)
		return random_bytes(s, buf);
	for (nr = 0; tokens[nr]; nr++)
		;
	ntok = 1 + rnd_below(s, tokens == counter_tokens ? 10 : 3);
	for (i = 0; i < ntok; i++)
		len += snprintf(buf + len, 1024 - len, "%s%s",
				i ? seps[rnd_below(s, ARRAY_SIZE(seps))] : "",
				tokens[rnd_below(s, nr)]);
	if (rnd_below(s, 2))
		buf[len++] = '\n';
	if (len && !rnd_below(s, 10))
		buf[rnd_below(s, len)] = rnd_next(s) >> 40;
	return len;
}

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	alarmed = 1;
}

/* lc_write_file(), interrupted by SIGALRM after WRITE_TIMEOUT_S. */
static int timed_write(const char *path, const char *buf, size_t len)
{
	int err;

	alarm(WRITE_TIMEOUT_S);
	err = lc_write_file(path, buf, len);
	alarm(0);
	return err;
}

/* Whatever was written last, a run of at most 10000 short iterations. */
static void keep_runs_short(void)
{
	char *work = lc_read_file(DIR "work_cycles", NULL);

	if (param_read("max_iterations") > 10000)
		param_write("max_iterations", "10000");
	if (work && atoll(work) > 1000)
		write_str(DIR "work_cycles", "0");
	free(work);
}

/* How many of the fuzzed files are missing, each named in the log. */
static int missing_files(void)
{
	int missing = 0;
	size_t f;

	for (f = 0; f < ARRAY_SIZE(fuzzed); f++) {
		if (file_exists(fuzzed[f].path))
			continue;
		fprintf(stderr, "# %s is missing\n", fuzzed[f].path);
		missing++;
	}
	return missing;
}

static bool random_write_ok(int err)
{
	return !err || err == EINVAL || err == E2BIG || err == EBUSY ||
	       err == EOPNOTSUPP || err == ENOENT || err == ENODEV;
}

static void random_write(struct __test_metadata *_metadata,
			 unsigned long long *s, int *counts)
{
	unsigned int f = rnd_below(s, ARRAY_SIZE(fuzzed));
	char buf[1024], value[160];
	size_t len = random_value(s, fuzzed[f].tokens, buf);
	int err;

	if (f == 0)
		keep_runs_short();
	alarmed = 0;
	err = timed_write(fuzzed[f].path, buf, len);
	counts[err == 0 ? 0 : err == EINVAL ? 1 : err == E2BIG ? 2 : 3]++;
	EXPECT_TRUE(random_write_ok(err) && !alarmed) {
		TH_LOG("%s <- \"%s\": %s%s", fuzzed[f].path,
		       escape_bytes(buf, len, value, sizeof(value)),
		       strerror(err), alarmed ? " (took too long)" : "");
	}
}

static void short_run(struct __test_metadata *_metadata,
		      unsigned long long *s)
{
	char count[16];
	int err;

	keep_runs_short();
	snprintf(count, sizeof(count), "%u", 3 + rnd_below(s, 48));
	alarmed = 0;
	err = timed_write(DIR "run", count, strlen(count));
	EXPECT_TRUE((!err || err == E2BIG) && !alarmed) {
		TH_LOG("run <- %s: %s%s", count, strerror(err),
		       alarmed ? " (took too long)" : "");
	}
}

TEST_F_TIMEOUT(stress, random_writes, 300)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	const char *env = getenv("LTTNG_CALIBRATE_SEED");
	unsigned long long seed, s;
	int counts[4] = { 0 }, i;

	seed = env && *env ? strtoull(env, NULL, 0) :
	       (unsigned long long)time(NULL) ^ getpid();
	TH_LOG("seed %llu (LTTNG_CALIBRATE_SEED=%llu repeats it)", seed, seed);
	s = seed ^ 0x9e3779b97f4a7c15ULL;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));	/* no SA_RESTART */
	EXPECT_EQ(0, missing_files());
	ASSERT_EQ(0, param_write("max_iterations", "10000"));
	for (i = 0; i < NR_RANDOM_WRITES; i++) {
		random_write(_metadata, &s, counts);
		if (i % 100 == 99)
			short_run(_metadata, &s);
	}
	fprintf(stderr, "# %d writes: %d accepted, %d EINVAL, %d E2BIG, %d other\n",
		NR_RANDOM_WRITES, counts[0], counts[1], counts[2], counts[3]);
	restore_defaults(_metadata, &self->params);
	ASSERT_EQ(0, run("1000"));
	check_results(_metadata, 1000);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
