// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the parser and of the pairing: crafted lines and event
 * sequences, one edge case each. Prints "ok - ..." lines.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "parse.h"
#include "../../lib/tap.h"

#define ENTRY(ts, cpu, clock) \
	"[" ts "] (+0.000001000) (none) calibrate_entry: { cpu_id = " cpu \
	" }, { perf_cpu_cpu_clock = " clock " }, { ip = 0x0 }"
#define EXIT(ts, cpu, clock) \
	"[" ts "] (+0.000001000) (none) calibrate_exit: { cpu_id = " cpu \
	" }, { perf_cpu_cpu_clock = " clock " }, { ip = 0x0 }"

static int integer(const char *s, long double *v)
{
	return trace_parse_integer(s, strlen(s), v);
}

static void test_integers(void)
{
	long double v = 0;

	tap_check(!integer("18446744073709551615", &v) &&
			  v == 18446744073709551615.0L,
		  "2^64 - 1 parses exactly");
	tap_check(integer("18446744073709551616", &v) < 0,
		  "2^64 is out of range, not wrapped");
	tap_check(integer("99999999999999999999999999", &v) < 0,
		  "a 26-digit number is out of range");
	tap_check(!integer("-9223372036854775808", &v) &&
			  v == -9223372036854775808.0L,
		  "-2^63 parses");
	tap_check(integer("-9223372036854775809", &v) < 0,
		  "below -2^63 is out of range");
	tap_check(!integer("0xFFFFFFFFC02F8000", &v) &&
			  v == 18446744072638922752.0L,
		  "hexadecimal");
	tap_check(integer("0x10000000000000000", &v) < 0,
		  "17 hex digits are out of range");
	tap_check(!integer("0b101", &v) && v == 5, "binary");
	tap_check(!integer("017", &v) && v == 15, "octal");
	tap_check(integer("1.5", &v) > 0 && integer("\"x\"", &v) > 0 &&
			  integer("-", &v) > 0 && integer("", &v) > 0 &&
			  integer("0x", &v) > 0,
		  "floats, strings, lone signs are not integers");
}

static const char *header(const char *line, struct trace_event *ev)
{
	return trace_parse_header(line, strlen(line), ev);
}

static void test_timestamps(void)
{
	struct trace_event ev;

	tap_check(!header(ENTRY("19:09:02.836493395", "1", "5"), &ev) &&
			  ev.clock == TRACE_CLOCK_DAY &&
			  ev.clock_value == 68942836493395ULL,
		  "time of day to ns since midnight");
	tap_check(!header("[1700000000.123456789] h calibrate_entry: { cpu_id = 0 }",
			  &ev) &&
			  ev.clock == TRACE_CLOCK_SECONDS &&
			  ev.clock_value == 1700000000123456789ULL,
		  "seconds since the epoch (--clock-seconds)");
	tap_check(!header("[2023-11-14 22:13:20.5] (+?.????????\?) x: { }", &ev) &&
			  ev.clock == TRACE_CLOCK_DATE &&
			  ev.clock_value == 1700000000500000000ULL,
		  "date and time (--clock-date), short fraction");
	tap_check(!header("[00000000000000001000] (+???????????\?) h e: { }",
			  &ev) &&
			  ev.clock == TRACE_CLOCK_CYCLES && ev.clock_value == 1000,
		  "clock cycles (--clock-cycles)");
	tap_check(header("[99999999999999999999] h e: { }", &ev) != NULL,
		  "cycles above 2^64 - 1 rejected");
	tap_check(header("[18446744074.000000000] h e: { }", &ev) != NULL,
		  "seconds whose ns overflow rejected");
	tap_check(header("[24:00:00.000000000] h e: { }", &ev) != NULL &&
			  header("[12:00:00.0000000001] h e: { }", &ev) != NULL &&
			  header("[12:00:00.] h e: { }", &ev) != NULL &&
			  header("[12:00:00.000000000 h e: { }", &ev) != NULL,
		  "hour 24, 10 fraction digits, no digits, no ']' rejected");
	tap_check(!header("[12:00:00.000000000] (+?.????????\?) (none) sched_switch: { cpu_id = 0 }",
			  &ev) &&
			  ev.name.len == 12 && !memcmp(ev.name.s, "sched_switch", 12),
		  "event name after a (none) hostname");
	tap_check(!header("[12:00:00.000000000] calibrate_exit:", &ev) &&
			  ev.name.len == 14,
		  "no host, no delta, no fields");
	tap_check(header("[12:00:00.000000000] (+0.1 h e: { }", &ev) != NULL &&
			  header("[12:00:00.000000000] h e { x: 1 }", &ev) != NULL &&
			  header("[12:00:00.000000000] h :", &ev) != NULL,
		  "unterminated delta, no name, empty name rejected");
}

static const char *fields(const char *line, struct trace_event *ev)
{
	const char *err = header(line, ev);

	return err ? err : trace_parse_fields(ev);
}

static void test_fields(void)
{
	struct trace_event ev;

	tap_check(!fields(ENTRY("1:2:3.4", "7", "42"), &ev) && ev.has_cpu &&
			  ev.cpu_id == 7 && ev.nfields == 1 &&
			  ev.fields[0].value == 42 &&
			  ev.fields[0].name.len == 18,
		  "cpu_id from the packet context, perf field from the context");
	tap_check(!fields("[1:2:3.4] h calibrate_entry: stream.packet.context = { cpu_id = 2 }, "
			  "stream.event.context = { perf_a = 1, procname = \"a, }b\", "
			  "e = ( \"X\" : container = 3 ), vtid = 0x10 }, "
			  "event.fields = { s = { a = [ [0] = 1 ] }, t = \"}\" }",
			  &ev) &&
			  ev.cpu_id == 2 && ev.nfields == 2 &&
			  ev.fields[1].value == 16,
		  "babeltrace 1 scope names; strings, enums, nesting skipped");
	tap_check(!fields("[1:2:3.4] h e: { cpu_id = 0 }, { ip = 5 }", &ev) &&
			  ev.nfields == 0,
		  "a lone group without perf_ fields is the payload");
	tap_check(!fields("[1:2:3.4] h e: { cpu_id = 0 }, { perf_x = 5 }", &ev) &&
			  ev.nfields == 1,
		  "a lone group with perf_ fields is the context");
	tap_check(fields("[1:2:3.4] h e: { cpu_id = 0 }, { perf_x = 5 ", &ev) &&
			  fields("[1:2:3.4] h e: { cpu_id = 0 } { perf_x = 5 }", &ev) &&
			  fields("[1:2:3.4] h e: cpu_id = 0", &ev) &&
			  fields("[1:2:3.4] h e: { cpu_id = 0 }, { a = \"x }", &ev) &&
			  fields("[1:2:3.4] h e: { cpu_id = 0 }, { a = ) }", &ev),
		  "missing braces, commas, quotes rejected");
	tap_check(fields("[1:2:3.4] h e: { 0 }, { 1, 2 }, { 3 }", &ev) != NULL,
		  "no field names (--names=none) rejected");
	tap_check(fields("[1:2:3.4] h e: { cpu_id = 0 }, { perf_x = 18446744073709551616 }, { }",
			  &ev) != NULL,
		  "context value above 2^64 - 1 rejected");
	tap_check(fields("[1:2:3.4] h e: { cpu_id = 8192 }", &ev) != NULL &&
			  fields("[1:2:3.4] h e: { cpu_id = -1 }", &ev) != NULL &&
			  fields("[1:2:3.4] h e: { x = 1 }, { perf_a = 1 }", &ev) != NULL,
		  "cpu_id out of range or missing rejected");
	tap_check(fields("[1:2:3.4] h e: { cpu_id = 0 }, { perf_a = 1, perf_a = 2 }, { }",
			  &ev) != NULL,
		  "a context field twice rejected");
	tap_check(trace_parse_header("[1:2:3.4] h\0e: { }", 18, &ev) != NULL,
		  "NUL byte inside the line rejected");
}

/* feed lines; returns the first error */
static const char *feed(struct trace_analysis *an, const char *const *lines,
			size_t n)
{
	const char *err = NULL;

	trace_analysis_init(an, "calibrate");
	for (size_t i = 0; i < n && !err; i++)
		err = trace_analysis_line(an, lines[i], strlen(lines[i]));
	trace_analysis_drop_pending(an);
	return err;
}

static void test_pairing(void)
{
	static const char *const migrate[] = {
		ENTRY("10:00:00.000000000", "0", "100"),
		EXIT("10:00:00.000001000", "1", "150"),
		ENTRY("10:00:00.000002000", "1", "200"),
		EXIT("10:00:00.000003000", "1", "230"),
	};
	static const char *const lost[] = {
		ENTRY("10:00:00.000000000", "0", "100"),
		ENTRY("10:00:00.000001000", "0", "150"),
		EXIT("10:00:00.000001500", "0", "170"),
		EXIT("10:00:00.000002000", "0", "180"),
		"",
		"[10:00:00.000003000] (none) sched_switch: { cpu_id = 0 }",
	};
	static const char *const wrap[] = {
		ENTRY("23:59:59.999999900", "3", "0"),
		EXIT("00:00:00.000000100", "3", "18446744073709551615"),
		ENTRY("00:00:00.000000200", "3", "18446744073709551615"),
		EXIT("00:00:00.000000300", "3", "5"),
	};
	static const char *const old[] = {
		"[1700000000.000000000] h calibrate_entry: { cpu_id = 0 }, { perf_LLC_load_misses = 3 }, { }",
		"[1700000000.000000010] h calibrate_return: { cpu_id = 0 }, { perf_LLC_load_misses = 8 }, { }",
		"[1700000000.000000020] h calibrate2_entry: { cpu_id = 0 }, { perf_x = 1 }, { }",
		"[1700000000.000000030] h calibrate2_exit: { cpu_id = 0 }, { perf_x = 2 }, { }",
		"[1700000000.000000040] h calib_kprobe: { cpu_id = 0 }, { }",
	};
	struct trace_analysis an;
	struct trace_function *f;

	tap_check(!feed(&an, migrate, 4) && an.function[0]->pairs == 1 &&
			  an.function[0]->unmatched_entries == 1 &&
			  an.function[0]->unmatched_exits == 1 &&
			  an.function[0]->stats[0].mean == 30,
		  "migrated pair: unmatched on both CPUs, never paired");
	trace_analysis_free(&an);
	tap_check(!feed(&an, lost, 6) && an.function[0]->pairs == 1 &&
			  an.function[0]->unmatched_entries == 1 &&
			  an.function[0]->unmatched_exits == 1 &&
			  an.function[0]->time.mean == 500 &&
			  an.other_events == 1 && an.events == 5,
		  "lost return, return without entry, blank line, other event");
	trace_analysis_free(&an);
	f = NULL;
	if (!feed(&an, wrap, 4))
		f = an.function[0];
	tap_check(f && f->pairs == 2 && f->time.mean == 150 &&
			  f->stats[0].max == 18446744073709551615.0L &&
			  f->stats[0].min == -18446744073709551610.0L,
		  "midnight wrap; u64 extremes and negative deltas exact");
	trace_analysis_free(&an);
	tap_check(!feed(&an, old, 5) && an.nfunctions == 2 &&
			  an.function[0]->pairs == 1 &&
			  an.function[0]->stats[0].mean == 5 &&
			  !strcmp(an.function[1]->name, "calibrate2") &&
			  an.other_events == 1,
		  "_return naming; each NAME paired apart; others counted");
	trace_analysis_free(&an);
}

static void test_stats(void)
{
	struct trace_stats s = { 0 };
	long double sum = 0, sq = 0, mean;
	unsigned int seed = 1;

	trace_stats_add(&s, 7);
	tap_check(trace_stats_stddev(&s) < 0, "no stddev from one value");
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 1000; i++) {
		long double x = 1e12 + (long double)(rand_r(&seed) % 1000);

		trace_stats_add(&s, x);
		sum += x;
	}
	mean = sum / 1000;
	seed = 1;
	for (int i = 0; i < 1000; i++) {
		long double x = 1e12 + (long double)(rand_r(&seed) % 1000);

		sq += (x - mean) * (x - mean);
	}
	tap_near((double)s.mean, (double)mean, 1e-6, "Welford mean = two-pass mean");
	tap_near((double)trace_stats_stddev(&s), (double)sqrtl(sq / 999), 1e-6,
		 "Welford stddev = two-pass stddev, large offset");
}

int main(void)
{
	test_integers();
	test_timestamps();
	test_fields();
	test_pairing();
	test_stats();
	return tap_exit_status();
}
