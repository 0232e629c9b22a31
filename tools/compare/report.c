// SPDX-License-Identifier: GPL-2.0
/*
 * Printing results as text (ministat-like), CSV or JSON; strings are
 * escaped by the library (lc_json_string(), lc_csv_quoted()).
 */
#include <math.h>
#include <string.h>

#include "report.h"

/* names always quoted: a reader never takes one for a number */
static void csv_string(FILE *out, const char *text)
{
	lc_csv_quoted(out, text, strlen(text));
}

static void csv_number(FILE *out, double value, const char *sep)
{
	if (isfinite(value))
		fprintf(out, "%.10g%s", value, sep);
	else
		fprintf(out, "%s", sep);
}

/* "99.999974%": enough decimals to show how far from 100 % it is. */
static void print_confidence(FILE *out, double p)
{
	int decimals;

	if (p < 1e-9) {
		fputs(">99.9999999%", out);
		return;
	}
	decimals = (int)ceil(-log10(p)) - 1;
	if (decimals < 1)
		decimals = 1;
	fprintf(out, "%.*f%%", decimals, 100.0 * (1.0 - p));
}

static void text_verdict(FILE *out, double confidence, const struct welch *w,
			 double reference)
{
	if (w->significant) {
		fprintf(out, "Difference at %.1f%% confidence: ", confidence);
		print_difference(out, w, reference);
		fputc('\n', out);
	} else {
		fprintf(out, "No difference proven at %.1f%% confidence\n",
			confidence);
	}
	fprintf(out, "\t(Welch's t = %.4g, df = %.4g, p = %.3g)\n", w->t, w->df,
		w->p);
}

static void text_row(FILE *out, size_t i, const struct summary *s)
{
	fprintf(out, "%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
		plot_symbols[i], s->n, s->min, s->max, s->median, s->mean,
		s->stddev);
}

static int compare_text(FILE *out, const struct report *report,
			const struct group *samples, const struct summary *sums,
			const struct welch *tests, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%c %s\n", plot_symbols[i], samples[i].name);
	if (report->plot && plot_samples(out, samples, sums, n, report->width))
		return -1;
	fprintf(out, "    N           Min           Max        Median"
		     "           Avg        Stddev\n");
	for (i = 0; i < n; i++) {
		text_row(out, i, &sums[i]);
		if (i)
			text_verdict(out, report->confidence, &tests[i],
				     sums[0].mean);
	}
	return 0;
}

static void compare_csv(FILE *out, const struct report *report,
			const struct group *samples, const struct summary *sums,
			const struct welch *tests, size_t n)
{
	const struct welch *w;
	size_t i;

	fputs("sample,name,n,min,max,median,mean,stddev,difference,halfwidth,"
	      "percent,percent_halfwidth,t,df,p,confidence,verdict\n",
	      out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%zu,", i + 1);
		csv_string(out, samples[i].name);
		fprintf(out, ",%zu,", sums[i].n);
		csv_number(out, sums[i].min, ",");
		csv_number(out, sums[i].max, ",");
		csv_number(out, sums[i].median, ",");
		csv_number(out, sums[i].mean, ",");
		csv_number(out, sums[i].stddev, ",");
		if (!i) {
			fprintf(out, ",,,,,,,%g,reference\n",
				report->confidence);
			continue;
		}
		w = &tests[i];
		csv_number(out, w->diff, ",");
		csv_number(out, w->halfwidth, ",");
		csv_number(out, percent_of(w->diff, sums[0].mean), ",");
		csv_number(out, percent_of(w->halfwidth, sums[0].mean), ",");
		csv_number(out, w->t, ",");
		csv_number(out, w->df, ",");
		csv_number(out, w->p, ",");
		fprintf(out, "%g,%s\n", report->confidence,
			w->significant ? "difference" : "no difference");
	}
}

static void json_summary(FILE *out, const struct summary *s, const char *sep)
{
	fprintf(out, "\"n\": %zu, ", s->n);
	json_number(out, "min", s->min, ", ");
	json_number(out, "max", s->max, ", ");
	json_number(out, "median", s->median, ", ");
	json_number(out, "mean", s->mean, ", ");
	json_number(out, "stddev", s->stddev, sep);
}

static void compare_json(FILE *out, const struct report *report,
			 const struct group *samples,
			 const struct summary *sums, const struct welch *tests,
			 size_t n)
{
	size_t i;

	fprintf(out,
		"{\"mode\": \"compare\", \"confidence\": %g, "
		"\"samples\": [\n",
		report->confidence);
	for (i = 0; i < n; i++) {
		fputs("  {\"name\": ", out);
		json_string(out, samples[i].name);
		fputs(", ", out);
		json_summary(out, &sums[i], ", ");
		fputs("\"comparison\": ", out);
		if (i)
			json_welch(out, &tests[i], sums[0].mean);
		else
			fputs("null", out);
		fprintf(out, "}%s\n", i + 1 < n ? "," : "");
	}
	fputs("]}\n", out);
}

/**
 * report_compare() - print the samples and their tests against the first
 * @out:     where to print
 * @report:  format and options
 * @samples: the samples
 * @sums:    their summaries
 * @tests:   @tests[i] is sample i against sample 0; @tests[0] is unused
 * @n:       number of samples
 *
 * Return: 0, or -1 when out of memory.
 */
int report_compare(FILE *out, const struct report *report,
		   const struct group *samples, const struct summary *sums,
		   const struct welch *tests, size_t n)
{
	switch (report->format) {
	case LC_FORMAT_CSV:
		compare_csv(out, report, samples, sums, tests, n);
		return 0;
	case LC_FORMAT_JSON:
		compare_json(out, report, samples, sums, tests, n);
		return 0;
	default:
		return compare_text(out, report, samples, sums, tests, n);
	}
}

static void text_change_point(FILE *out, const struct report *report,
			      const struct group *labels, size_t nlabels,
			      const struct change_point *cp)
{
	fprintf(out, "change point at %s (label %zu of %zu): %g -> %g\n",
		labels[cp->label].name, cp->label + 1, nlabels, cp->before.mean,
		cp->after.mean);
	fprintf(out, "\tstep at %.1f%% confidence: ", report->confidence);
	print_difference(out, &cp->step, cp->before.mean);
	fputs("\n\tconfidence of the change: ", out);
	print_confidence(out, cp->p_corrected);
	fprintf(out,
		" (split test: pooled t = %.4g, df = %.4g, p = %.3g, x %zu splits"
		" = %.3g)\n",
		cp->detection.t, cp->detection.df, cp->detection.p,
		cp->candidates, cp->p_corrected);
}

static void text_segment(FILE *out, const struct group *labels, size_t lo,
			 size_t hi, const struct summary *s)
{
	fprintf(out, "\t%s .. %s: n = %zu, mean = %g, stddev = %g\n",
		labels[lo].name, labels[hi - 1].name, s->n, s->mean, s->stddev);
}

static void series_text(FILE *out, const struct report *report,
			const struct group *labels, size_t nlabels,
			const struct series_result *res)
{
	const struct change_point *best = &res->best;
	size_t i;

	fprintf(out, "series %s: %zu labels, %zu values, mean %g, stddev %g\n",
		report->source, nlabels, res->whole.n, res->whole.mean,
		res->whole.stddev);
	for (i = 0; i < res->n; i++)
		text_change_point(out, report, labels, nlabels,
				  &res->points[i]);
	if (res->n) {
		fputs("segments:\n", out);
		for (i = 0; i <= res->n; i++)
			text_segment(
				out, labels, i ? res->points[i - 1].label : 0,
				i < res->n ? res->points[i].label : nlabels,
				i < res->n ? &res->points[i].before :
					     &res->points[i - 1].after);
		return;
	}
	fprintf(out, "no change point at %.1f%% confidence", report->confidence);
	if (report->min_change > 0)
		fprintf(out, " of a change of %g%% or more", report->min_change);
	fputc('\n', out);
	if (res->has_best)
		fprintf(out,
			"\tbest split at %s: pooled t = %.4g, df = %.4g,"
			" p = %.3g, x %zu splits = %.3g\n",
			labels[best->label].name, best->detection.t,
			best->detection.df, best->detection.p, best->candidates,
			best->p_corrected);
}

static void series_csv(FILE *out, const struct group *labels,
		       const struct series_result *res)
{
	const struct change_point *cp;
	size_t i;

	fputs("label_index,label,before_mean,after_mean,step,halfwidth,"
	      "percent,percent_halfwidth,t,df,p,candidates,p_corrected\n",
	      out);
	for (i = 0; i < res->n; i++) {
		cp = &res->points[i];
		fprintf(out, "%zu,", cp->label + 1);
		csv_string(out, labels[cp->label].name);
		fputc(',', out);
		csv_number(out, cp->before.mean, ",");
		csv_number(out, cp->after.mean, ",");
		csv_number(out, cp->step.diff, ",");
		csv_number(out, cp->step.halfwidth, ",");
		csv_number(out, percent_of(cp->step.diff, cp->before.mean),
			   ",");
		csv_number(out, percent_of(cp->step.halfwidth, cp->before.mean),
			   ",");
		csv_number(out, cp->detection.t, ",");
		csv_number(out, cp->detection.df, ",");
		csv_number(out, cp->detection.p, ",");
		fprintf(out, "%zu,", cp->candidates);
		csv_number(out, cp->p_corrected, "\n");
	}
}

static void json_change_point(FILE *out, const struct group *labels,
			      const struct change_point *cp, const char *sep)
{
	fprintf(out, "  {\"label_index\": %zu, \"label\": ", cp->label + 1);
	json_string(out, labels[cp->label].name);
	fputs(", \"before\": {", out);
	json_summary(out, &cp->before, "}, \"after\": {");
	json_summary(out, &cp->after, "}, \"step\": ");
	json_welch(out, &cp->step, cp->before.mean);
	fputs(", ", out);
	json_number(out, "detection_t", cp->detection.t, ", ");
	json_number(out, "detection_df", cp->detection.df, ", ");
	json_number(out, "detection_p", cp->detection.p, ", ");
	fprintf(out, "\"candidates\": %zu, ", cp->candidates);
	json_number(out, "p_corrected", cp->p_corrected, "}");
	fprintf(out, "%s\n", sep);
}

/* One label of a series: its summary and the interval of its mean. */
static void json_label(FILE *out, const struct report *report,
		       const struct group *label, size_t i, const char *sep)
{
	struct summary s;

	fprintf(out, "  {\"label_index\": %zu, \"label\": ", i + 1);
	json_string(out, label->name);
	fputs(", ", out);
	if (summarize(label->values, label->n, &s)) {
		fprintf(out, "\"n\": %zu}%s\n", label->n, sep);
		return;
	}
	json_summary(out, &s, ", ");
	json_number(out, "halfwidth", mean_halfwidth(&s, report->confidence),
		    "}");
	fprintf(out, "%s\n", sep);
}

static void series_json(FILE *out, const struct report *report,
			const struct group *labels, size_t nlabels,
			const struct series_result *res)
{
	size_t i;

	fputs("{\"mode\": \"series\", \"source\": ", out);
	json_string(out, report->source);
	fprintf(out,
		", \"confidence\": %g, \"min_change_percent\": %g, "
		"\"labels\": %zu, \"values\": %zu, \"series\": [\n",
		report->confidence, report->min_change, nlabels, res->whole.n);
	for (i = 0; i < nlabels; i++)
		json_label(out, report, &labels[i], i,
			   i + 1 < nlabels ? "," : "");
	fputs("], \"change_points\": [\n", out);
	for (i = 0; i < res->n; i++)
		json_change_point(out, labels, &res->points[i],
				  i + 1 < res->n ? "," : "");
	fputs("]}\n", out);
}

/**
 * report_series() - print the change points of a series
 * @out:     where to print
 * @report:  format and options
 * @labels:  the labels of the series, in order
 * @nlabels: number of labels
 * @result:  the outcome of series_segment()
 */
void report_series(FILE *out, const struct report *report,
		   const struct group *labels, size_t nlabels,
		   const struct series_result *result)
{
	switch (report->format) {
	case LC_FORMAT_CSV:
		series_csv(out, labels, result);
		break;
	case LC_FORMAT_JSON:
		series_json(out, report, labels, nlabels, result);
		break;
	default:
		series_text(out, report, labels, nlabels, result);
	}
}
