// SPDX-License-Identifier: GPL-2.0
/*
 * The lttng-calibrate(1) table - counter, average, standard deviation -
 * plus count, min and max, as text, CSV or JSON.
 */
#include <stdbool.h>
#include <string.h>

#include "report.h"

/**
 * struct row - one line of the table
 * @counter: the name in the trace (perf_cpu_LLC_load_misses, time_ns)
 * @context: the lttng add-context name (perf:cpu:LLC-load-misses)
 * @stats:   the statistics of its deltas
 */
struct row {
	const char *counter;
	char context[128];
	const struct trace_stats *stats;
};

static const struct {
	const char *field;
	const char *context;
} perf_prefixes[] = {
	{ "perf_cpu_", "perf:cpu:" },
	{ "perf_thread_", "perf:thread:" },
	{ "perf_", "perf:" },
};

/**
 * report_context_name() - the lttng add-context name of a field
 * @field: perf_cpu_LLC_load_misses
 * @buf:   receives perf:cpu:LLC-load-misses; other fields unchanged
 * @size:  size of @buf
 */
void report_context_name(const char *field, char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(perf_prefixes); i++) {
		size_t n = strlen(perf_prefixes[i].field);

		if (strncmp(field, perf_prefixes[i].field, n))
			continue;
		snprintf(buf, size, "%s%s", perf_prefixes[i].context,
			 field + n);
		for (char *p = buf + strlen(perf_prefixes[i].context); *p; p++)
			if (*p == '_')
				*p = '-';
		return;
	}
	snprintf(buf, size, "%s", field);
}

/* strings through the library: valid UTF-8 JSON, RFC 4180 CSV */
static void json_string(FILE *out, const char *s)
{
	lc_json_string(out, s, strlen(s));
}

static void csv_string(FILE *out, const char *s)
{
	lc_csv_field(out, s, strlen(s));
}

static const char *time_name(const struct trace_analysis *an)
{
	return an->clock == TRACE_CLOCK_CYCLES ? "time_cycles" : "time_ns";
}

/* row 0 is the time, row i + 1 context field i */
static void get_row(const struct trace_analysis *an,
		    const struct trace_function *f, unsigned int i,
		    struct row *r)
{
	if (!i) {
		r->counter = time_name(an);
		r->context[0] = '\0';
		r->stats = &f->time;
		return;
	}
	r->counter = f->field[i - 1];
	report_context_name(r->counter, r->context, sizeof(r->context));
	r->stats = &f->stats[i - 1];
}

/* "0-3,5", or "none" */
static void print_cpus(FILE *out, const struct trace_function *f)
{
	const char *sep = "";
	unsigned int cpu = 0, last;

	for (;;) {
		while (cpu < f->ncpus && !(f->paired[cpu / 8] & 1 << cpu % 8))
			cpu++;
		if (cpu >= f->ncpus)
			break;
		last = cpu;
		while (last + 1 < f->ncpus &&
		       f->paired[(last + 1) / 8] & 1 << (last + 1) % 8)
			last++;
		fprintf(out, last > cpu ? "%s%u-%u" : "%s%u", sep, cpu, last);
		sep = ",";
		cpu = last + 1;
	}
	if (!*sep)
		fputs("none", out);
}

static void table_summary(FILE *out, const struct trace_analysis *an,
			  const char *name, const struct trace_function *f)
{
	fprintf(out, "%s: pairs %llu on CPUs ", name,
		f ? (unsigned long long)f->pairs : 0ULL);
	if (f)
		print_cpus(out, f);
	else
		fputs("none", out);
	fprintf(out,
		"; unmatched: %llu entries, %llu exits; other events %llu; malformed lines %llu",
		f ? (unsigned long long)f->unmatched_entries : 0ULL,
		f ? (unsigned long long)f->unmatched_exits : 0ULL,
		(unsigned long long)an->other_events,
		(unsigned long long)an->malformed);
	if (an->warnings)
		fprintf(out, "; babeltrace warnings %llu",
			(unsigned long long)an->warnings);
	fputc('\n', out);
}

/* count, average, stddev, min, max; "-" where there is no value */
static void table_numbers(FILE *out, const struct trace_stats *s)
{
	long double sd = trace_stats_stddev(s);

	fprintf(out, " %10llu", (unsigned long long)s->n);
	if (!s->n) {
		fprintf(out, " %14s %14s %12s %12s", "-", "-", "-", "-");
		return;
	}
	fprintf(out, " %14.3Lf", s->mean);
	if (sd < 0)
		fprintf(out, " %14s", "-");
	else
		fprintf(out, " %14.3Lf", sd);
	fprintf(out, " %12.0Lf %12.0Lf", s->min, s->max);
}

static void table_function(FILE *out, const struct trace_analysis *an,
			   const struct trace_function *f)
{
	int width = 7;
	struct row r;

	table_summary(out, an, f->name, f);
	for (unsigned int i = 0; i <= f->nfields; i++) {
		get_row(an, f, i, &r);
		if ((int)strlen(r.counter) > width)
			width = (int)strlen(r.counter);
	}
	fprintf(out, "%-*s %10s %14s %14s %12s %12s  %s\n", width, "counter",
		"count", "average", "stddev", "min", "max", "context");
	for (unsigned int i = 0; i <= f->nfields; i++) {
		get_row(an, f, i, &r);
		fprintf(out, "%-*s", width, r.counter);
		table_numbers(out, r.stats);
		fprintf(out, "  %s\n", *r.context ? r.context : "-");
	}
}

static void print_table(FILE *out, const struct trace_analysis *an)
{
	if (!an->nfunctions)
		table_summary(out, an, an->prefix, NULL);
	for (unsigned int i = 0; i < an->nfunctions; i++) {
		if (i)
			fputc('\n', out);
		table_function(out, an, an->function[i]);
	}
}

static void csv_counts(FILE *out, const struct trace_analysis *an,
		       const struct trace_function *f)
{
	fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu\n",
		f ? (unsigned long long)f->pairs : 0ULL,
		f ? (unsigned long long)f->unmatched_entries : 0ULL,
		f ? (unsigned long long)f->unmatched_exits : 0ULL,
		(unsigned long long)an->other_events,
		(unsigned long long)an->malformed,
		(unsigned long long)an->warnings);
}

static void csv_numbers(FILE *out, const struct trace_stats *s)
{
	long double sd = trace_stats_stddev(s);

	fprintf(out, ",%llu", (unsigned long long)s->n);
	if (!s->n) {
		fputs(",,,,", out);
		return;
	}
	fprintf(out, ",%.6Lf,", s->mean);
	if (sd >= 0)
		fprintf(out, "%.6Lf", sd);
	fprintf(out, ",%.0Lf,%.0Lf", s->min, s->max);
}

static void print_csv(FILE *out, const struct trace_analysis *an)
{
	struct row r;

	fputs("event,counter,context,count,average,stddev,min,max,", out);
	fputs("pairs,unmatched_entries,unmatched_exits,other_events,", out);
	fputs("malformed_lines,warnings\n", out);
	if (!an->nfunctions) {
		csv_string(out, an->prefix);
		fputs(",,,0,,,,", out);
		csv_counts(out, an, NULL);
	}
	for (unsigned int i = 0; i < an->nfunctions; i++) {
		const struct trace_function *f = an->function[i];

		for (unsigned int k = 0; k <= f->nfields; k++) {
			get_row(an, f, k, &r);
			csv_string(out, f->name);
			fputc(',', out);
			csv_string(out, r.counter);
			fputc(',', out);
			csv_string(out, r.context);
			csv_numbers(out, r.stats);
			csv_counts(out, an, f);
		}
	}
}

static void json_row(FILE *out, const struct row *r, bool last)
{
	const struct trace_stats *s = r->stats;
	long double sd = trace_stats_stddev(s);

	fputs("        {\"counter\": ", out);
	json_string(out, r->counter);
	fputs(", \"context\": ", out);
	if (*r->context)
		json_string(out, r->context);
	else
		fputs("null", out);
	fprintf(out, ", \"count\": %llu", (unsigned long long)s->n);
	if (s->n)
		fprintf(out,
			", \"average\": %.6Lf, \"min\": %.0Lf, \"max\": %.0Lf",
			s->mean, s->min, s->max);
	else
		fputs(", \"average\": null, \"min\": null, \"max\": null", out);
	if (sd >= 0)
		fprintf(out, ", \"stddev\": %.6Lf}", sd);
	else
		fputs(", \"stddev\": null}", out);
	fputs(last ? "\n" : ",\n", out);
}

static void json_cpus(FILE *out, const struct trace_function *f)
{
	const char *sep = "";

	fputs("\"cpus\": [", out);
	for (unsigned int cpu = 0; cpu < f->ncpus; cpu++) {
		if (!(f->paired[cpu / 8] & 1 << cpu % 8))
			continue;
		fprintf(out, "%s%u", sep, cpu);
		sep = ", ";
	}
	fputs("]", out);
}

static void json_function(FILE *out, const struct trace_analysis *an,
			  const struct trace_function *f, bool last)
{
	struct row r;

	fputs("    {\"event\": ", out);
	json_string(out, f->name);
	fprintf(out, ", \"pairs\": %llu, ", (unsigned long long)f->pairs);
	json_cpus(out, f);
	fprintf(out,
		", \"unmatched_entries\": %llu, \"unmatched_exits\": %llu,\n",
		(unsigned long long)f->unmatched_entries,
		(unsigned long long)f->unmatched_exits);
	fputs("      \"counters\": [\n", out);
	for (unsigned int k = 0; k <= f->nfields; k++) {
		get_row(an, f, k, &r);
		json_row(out, &r, k == f->nfields);
	}
	fputs(last ? "      ]}\n" : "      ]},\n", out);
}

static void print_json(FILE *out, const struct trace_analysis *an)
{
	fputs("{\n  \"prefix\": ", out);
	json_string(out, an->prefix);
	fprintf(out, ",\n  \"events\": %llu,\n",
		(unsigned long long)an->events);
	fprintf(out, "  \"other_events\": %llu,\n",
		(unsigned long long)an->other_events);
	fprintf(out, "  \"malformed_lines\": %llu,\n",
		(unsigned long long)an->malformed);
	fprintf(out, "  \"warnings\": %llu,\n",
		(unsigned long long)an->warnings);
	fputs("  \"functions\": [\n", out);
	for (unsigned int i = 0; i < an->nfunctions; i++)
		json_function(out, an, an->function[i],
			      i + 1 == an->nfunctions);
	fputs("  ]\n}\n", out);
}

/**
 * report_print() - print the statistics of a finished pass
 * @out:    where
 * @an:     the pass, its pending entries already dropped
 * @format: table, CSV or JSON
 */
void report_print(FILE *out, const struct trace_analysis *an,
		  enum lc_format format)
{
	if (format == LC_FORMAT_CSV)
		print_csv(out, an);
	else if (format == LC_FORMAT_JSON)
		print_json(out, an);
	else
		print_table(out, an);
}
