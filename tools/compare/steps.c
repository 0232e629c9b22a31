// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a patch series (steps.h): the steps and change points of
 * a series, numbered as the values file says, printed as a table, CSV or
 * JSON, and plotted.  Its numbers are those that a JSON reader of
 * --series --format json would see (ten significant digits), printed as
 * such a reader prints them (lc_fmt_shortest()), so that the report reads
 * the same whether made here or from that JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lc.h"
#include "../lib/output.h"
#include "../lib/svg.h"
#include "steps.h"

#define STEPS_FORMAT "lttng-calibrate-series/1"
#define STEPS_PATCH_WIDTH 44

/**
 * struct step - a label of the series, as a step of the patch series
 * @number: its step (0 for the base, the tree without the series)
 * @label: @number as text
 * @runs: its values
 * @point: as plotted: @label, its patch (the series' label), its mean
 *	and the interval of the mean when set, whether a change point
 *	starts here
 * @change: that change point, or NULL
 */
struct step {
	long number;
	char label[24];
	size_t runs;
	struct lc_svg_point point;
	const struct step_change *change;
};

/**
 * struct step_change - a change point, as a patch that changed the level
 * @step: the step where the new level starts
 * @index: its label, from 0
 * @patch: its patch
 * @before: the mean of the level before
 * @after: the mean of the new level
 * @percent: the change, in percent of @before
 * @percent_halfwidth: the half-width of its interval, the same way
 * @p: the p-value, corrected for the splits tried
 * @confidence: (1 - @p) in percent, to 11 characters
 * @by_threshold: the runs agree so closely (the interval of the change
 *	under a tenth of --min-change) that @p only says how alike the runs
 *	of one boot are: the change is decided by --min-change, not by @p
 * @mail: "patch N of M, PATCH: BEFORE -> AFTER UNIT (+P %, p < X)"; "patch
 *	F..N of M (F to N-1 not measured), PATCH: ..." when the steps before
 *	@step were not measured; "(from 0, p < X)" from a level of 0
 */
struct step_change {
	long step;
	size_t index;
	const char *patch;
	double before;
	double after;
	double percent;
	double percent_halfwidth;
	double p;
	char confidence[12];
	bool by_threshold;
	char *mail;
};

/**
 * struct steps - the whole report
 * @report: the options (source, confidence, minimum change)
 * @header: what the values file says
 * @unit: the unit, "" for none
 * @steps: one per label
 * @n: how many
 * @changes: the change points
 * @nchanges: how many
 * @resolvable: with boots' means, the change between two steps that the
 *	series resolves (80 % power, at the report's confidence corrected
 *	for the splits tried), in percent of the mean; NAN when unknown
 * @boots_needed: the boots a step that would resolve --min-change, or 0
 */
struct steps {
	const struct report *report;
	const struct steps_header *header;
	const char *unit;
	struct step *steps;
	size_t n;
	struct step_change *changes;
	size_t nchanges;
	double resolvable;
	long boots_needed;
};

/* A number as --series --format json gives it: ten significant digits. */
static double json10(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.10g", v);
	return strtod(buf, NULL);
}

/* The same of a "%g" (the confidence, the minimum change). */
static double json6(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%g", v);
	return strtod(buf, NULL);
}

/* Comments of the values file */

static int steps_numbers(struct steps_header *h, const char *text)
{
	char *end;
	long v;

	while (*text) {
		long *n = realloc(h->numbers,
				  (h->nnumbers + 1) * sizeof(*h->numbers));

		if (!n)
			return -1;
		h->numbers = n;
		v = strtol(text, &end, 10);
		if (end == text)
			break;
		h->numbers[h->nnumbers++] = v;
		text = end + strspn(end, " ");
	}
	return 0;
}

/* "step N, PATCH: STATUS": PATCH up to the last ": ". */
static int steps_missing(struct steps_header *h, const char *text)
{
	const char *name, *colon = NULL, *s;
	struct steps_missing *m;
	char *end;
	long step;

	step = strtol(text, &end, 10);
	if (end == text || *text < '0' || *text > '9' ||
	    strncmp(end, ", ", 2))
		return 0;
	name = end + 2;
	for (s = name; (s = strstr(s, ": ")); s++)
		colon = s;
	if (!colon)
		return 0;
	m = realloc(h->missing, (h->nmissing + 1) * sizeof(*h->missing));
	if (!m)
		return -1;
	h->missing = m;
	m = &h->missing[h->nmissing];
	/* PATCH and STATUS in one buffer, freed as m->patch */
	m->patch = strdup(name);
	if (!m->patch)
		return -1;
	m->step = step;
	m->patch[colon - name] = '\0';
	m->status = m->patch + (colon - name) + 2;
	h->nmissing++;
	return 0;
}

/* "#", blanks, "unit:", blanks: the rest of the line, or NULL. */
static const char *steps_unit(const char *line)
{
	line += strspn(line + 1, " \t\f\v\r") + 1;
	if (strncmp(line, "unit:", 5))
		return NULL;
	return line + 5 + strspn(line + 5, " \t\f\v\r");
}

/**
 * steps_comment() - a comment of the values file, read for the report
 * @ctx: the struct steps_header being filled
 * @line: the line, from its '#' to its end, without the newline
 *
 * The first "# unit:", "# steps:", "# patches:" and "# boots:" line
 * count; every "# missing:" line does.
 *
 * Return: 0, or -1 when out of memory.
 */
int steps_comment(void *ctx, const char *line)
{
	struct steps_header *h = ctx;
	const char *unit = steps_unit(line);

	if (unit && !h->unit) {
		h->unit = strdup(unit);
		return h->unit ? 0 : -1;
	}
	if (!strncmp(line, "# steps: ", 9) && !h->numbers)
		return steps_numbers(h, line + 9);
	if (!strncmp(line, "# patches: ", 11) && h->total < 0)
		h->total = strtol(line + 11, NULL, 10);
	if (!strncmp(line, "# boots: ", 9) && h->boot_runs < 0)
		h->boot_runs = strtol(line + 9, NULL, 10);
	if (!strncmp(line, "# missing: step ", 16))
		return steps_missing(h, line + 16);
	return 0;
}

/**
 * steps_header_free() - release what steps_comment() read
 * @h: the header
 */
void steps_header_free(struct steps_header *h)
{
	size_t i;

	for (i = 0; i < h->nmissing; i++)
		free(h->missing[i].patch);	/* and its status */
	free(h->missing);
	free(h->numbers);
	free(h->unit);
}

/* The report's figures */

/* "p < 0.01", "p < 1e-7": the power of ten just above the p-value. */
static void steps_p_below(char *buf, size_t len, double p)
{
	double e;

	if (p <= 0) {
		snprintf(buf, len, "p < 1e-300");
		return;
	}
	e = ceil(log10(p));
	if (e >= -3)
		lc_fmt_shortest(buf + snprintf(buf, len, "p < "), len - 4,
				pow(10, e));
	else
		snprintf(buf, len, "p < 1e%.0f", e);
}

static int steps_mail(struct steps *s, struct step_change *c, long patches)
{
	char before[40], after[40], num[40], percent[48], p[64], which[128];
	long prev = c->index ? s->steps[c->index - 1].number : c->step - 1;
	int len;

	lc_fmt_d1(before, sizeof(before), c->before);
	lc_fmt_d1(after, sizeof(after), c->after);
	/* From a level of 0, a change has no relative size. */
	if (isfinite(c->percent)) {
		lc_fmt_d1(num, sizeof(num), c->percent);
		snprintf(percent, sizeof(percent), "%s%s %%, ",
			 c->percent > 0 ? "+" : "", num);
	} else {
		snprintf(percent, sizeof(percent), "from 0, ");
	}
	steps_p_below(p, sizeof(p), c->p);
	if (c->by_threshold) {
		lc_fmt_shortest(num, sizeof(num), json6(s->report->min_change));
		snprintf(p, sizeof(p), "over the %s %% threshold", num);
	}
	/*
	 * The steps between the level's last measured one and this one were
	 * not measured: the change is in one of them, or in this one.
	 */
	if (prev < c->step - 1 && prev + 1 == c->step - 1)
		snprintf(which, sizeof(which), "patch %ld..%ld of %ld (%ld not measured)",
			 prev + 1, c->step, patches, prev + 1);
	else if (prev < c->step - 1)
		snprintf(which, sizeof(which), "patch %ld..%ld of %ld (%ld to %ld not measured)",
			 prev + 1, c->step, patches, prev + 1, c->step - 1);
	else
		snprintf(which, sizeof(which), "patch %ld of %ld", c->step,
			 patches);
#define STEPS_MAIL "%s, %s: %s -> %s%s%s (%s%s)", which, c->patch, before, \
	after, *s->unit ? " " : "", s->unit, percent, p
	len = snprintf(NULL, 0, STEPS_MAIL);
	c->mail = malloc(len + 1);
	if (!c->mail)
		return -1;
	snprintf(c->mail, len + 1, STEPS_MAIL);
#undef STEPS_MAIL
	return 0;
}

/* The step of label @i (from 0): as numbered in the file, or its place. */
static long steps_number(const struct steps *s, size_t i, long base)
{
	const struct steps_header *h = s->header;

	if (h->nnumbers)
		return i < h->nnumbers ? h->numbers[i] : (long)i + 1 - base;
	return (long)i + 1 - base;
}

static void steps_label(const struct steps *s, const struct group *label,
			size_t i, long base, struct step *st)
{
	struct summary sum;
	double halfwidth;

	st->number = steps_number(s, i, base);
	snprintf(st->label, sizeof(st->label), "%ld", st->number);
	st->point.label = st->label;
	st->point.name = label->name;
	st->runs = label->n;
	if (summarize(label->values, label->n, &sum))
		return;
	st->point.has_mean = isfinite(sum.mean);
	st->point.mean = json10(sum.mean);
	halfwidth = mean_halfwidth(&sum, s->report->confidence);
	st->point.has_interval = st->point.has_mean && isfinite(halfwidth);
	st->point.low = st->point.mean - json10(halfwidth);
	st->point.high = st->point.mean + json10(halfwidth);
}

static int steps_change(struct steps *s, const struct group *labels,
			const struct change_point *cp, long patches,
			struct step_change *c)
{
	char text[40];

	c->index = cp->label;
	c->step = s->steps[cp->label].number;
	c->patch = labels[cp->label].name;
	c->before = json10(cp->before.mean);
	c->after = json10(cp->after.mean);
	c->percent = json10(percent_of(cp->step.diff, cp->before.mean));
	c->percent_halfwidth = json10(percent_of(cp->step.halfwidth,
						 cp->before.mean));
	c->p = json10(cp->p_corrected);
	lc_fmt_shortest(text, sizeof(text), (1 - c->p) * 100);
	snprintf(c->confidence, sizeof(c->confidence), "%.11s", text);
	c->by_threshold = s->report->min_change > 0 &&
			  isfinite(c->percent_halfwidth) &&
			  fabs(c->percent_halfwidth) * 10 < s->report->min_change;
	s->steps[cp->label].point.new_level = true;
	return steps_mail(s, c, patches);
}

/*
 * What these boots can resolve: the spread of a step's boots pooled over
 * the steps, and the smallest change between two steps of as many boots
 * that the test finds 80 % of the time at the report's confidence, the
 * Bonferroni correction for the splits included.  A figure for a series
 * without a change point: a change under it may have gone unseen.
 */
static void steps_resolvable(struct steps *s, const struct group *labels,
			     size_t nlabels)
{
	double ss = 0, sum = 0, df = 0, sd, alpha, q, mean, need;
	size_t i, j, n = 0, fewest = SIZE_MAX;

	s->resolvable = NAN;
	s->boots_needed = 0;
	if (s->header->boot_runs < 0 || nlabels < 2)
		return;
	for (i = 0; i < nlabels; i++) {
		double m = 0;

		for (j = 0; j < labels[i].n; j++)
			m += labels[i].values[j];
		m /= labels[i].n;
		for (j = 0; j < labels[i].n; j++)
			ss += (labels[i].values[j] - m) *
			      (labels[i].values[j] - m);
		sum += m * labels[i].n;
		n += labels[i].n;
		df += labels[i].n - 1.0;
		if (labels[i].n < fewest)
			fewest = labels[i].n;
	}
	mean = sum / n;
	if (df < 1 || !(ss > 0) || mean == 0)
		return;
	sd = sqrt(ss / df);
	alpha = 1 - s->report->confidence / 100;
	q = student_t_quantile(1 - alpha / (2.0 * (nlabels - 1)), df) +
	    student_t_quantile(0.8, df);
	s->resolvable = fabs(100 * q * sd * sqrt(2.0 / fewest) / mean);
	if (s->report->min_change > 0 && s->resolvable > s->report->min_change) {
		need = 2 * pow(q * sd * 100 / (mean * s->report->min_change), 2);
		s->boots_needed = need < 1e6 ? (long)ceil(need) : 1000000;
	}
}

static int steps_build(struct steps *s, const struct group *labels,
		       size_t nlabels, const struct series_result *res)
{
	long base = nlabels && !strcmp(labels[0].name, "base");
	long patches = s->header->total >= 0 ? s->header->total :
			(long)nlabels - base;
	size_t i, j;

	s->unit = s->header->unit ? s->header->unit : "";
	s->steps = calloc(nlabels, sizeof(*s->steps));
	s->changes = calloc(res->n + 1, sizeof(*s->changes));
	if (!s->steps || !s->changes)
		return -1;
	s->n = nlabels;
	for (i = 0; i < nlabels; i++)
		steps_label(s, &labels[i], i, base, &s->steps[i]);
	steps_resolvable(s, labels, nlabels);
	for (i = 0; i < res->n; i++, s->nchanges++)
		if (steps_change(s, labels, &res->points[i], patches,
				 &s->changes[i]))
			return -1;
	/* A step shows the first change point of its number. */
	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->nchanges && !s->steps[i].change; j++)
			if (s->changes[j].step == s->steps[i].number)
				s->steps[i].change = &s->changes[j];
	return 0;
}

static void steps_free(struct steps *s)
{
	size_t i;

	for (i = 0; i < s->nchanges; i++)
		free(s->changes[i].mail);
	free(s->changes);
	free(s->steps);
}

/* The report, printed */

/* @text in @width columns (characters, not bytes), left or right. */
static void steps_pad(FILE *out, const char *text, int width, bool right)
{
	int n = 0;
	const char *c;

	for (c = text; *c; c++)
		n += (*c & 0xc0) != 0x80;
	if (!right)
		fputs(text, out);
	for (; n < width; n++)
		fputc(' ', out);
	if (right)
		fputs(text, out);
}

static void steps_number_text(char *buf, size_t len, bool has, double v)
{
	if (has)
		lc_fmt_d1(buf, len, v);
	else
		snprintf(buf, len, "-");
}

static void steps_table_step(FILE *out, const struct step *st)
{
	const struct lc_svg_point *p = &st->point;
	char mean[40], low[40], high[40], interval[96];

	steps_pad(out, st->label, 4, true);
	fputs("  ", out);
	steps_pad(out, p->name, STEPS_PATCH_WIDTH, false);
	fputs("  ", out);
	steps_number_text(mean, sizeof(mean), p->has_mean, p->mean);
	steps_pad(out, mean, 9, true);
	fputs("  ", out);
	lc_fmt_d1(low, sizeof(low), p->low);
	lc_fmt_d1(high, sizeof(high), p->high);
	snprintf(interval, sizeof(interval), "%s .. %s", low, high);
	steps_pad(out, p->has_interval ? interval : "-", 20, false);
	fprintf(out, "  %zu%s\n", st->runs,
		p->new_level ? "  <- new level" : "");
}

static void steps_table_missing(FILE *out, const struct steps_missing *m)
{
	char step[24];

	snprintf(step, sizeof(step), "%ld", m->step);
	steps_pad(out, step, 4, true);
	fputs("  ", out);
	steps_pad(out, m->patch, STEPS_PATCH_WIDTH, false);
	fputs("  ", out);
	steps_pad(out, "-", 9, true);
	fprintf(out, "  %s\n", m->status);
}

/*
 * The steps and the steps left out, in step order: a stable sort of the
 * steps followed by the steps left out, as both were given.
 */
static int steps_table_rows(FILE *out, const struct steps *s)
{
	const struct steps_header *h = s->header;
	size_t i, j, n = s->n + h->nmissing;
	size_t *order = malloc((n + 1) * sizeof(*order));

	if (!order)
		return lc_err("out of memory");
	for (i = 0; i < n; i++) {
		size_t k = i;
		long step = i < s->n ? s->steps[i].number :
				       h->missing[i - s->n].step;

		for (j = i; j > 0; j--) {
			size_t o = order[j - 1];
			long before = o < s->n ? s->steps[o].number :
						 h->missing[o - s->n].step;

			if (before <= step)
				break;
			order[j] = o;
		}
		order[j] = k;
	}
	for (i = 0; i < n; i++) {
		if (order[i] < s->n)
			steps_table_step(out, &s->steps[order[i]]);
		else
			steps_table_missing(out, &h->missing[order[i] - s->n]);
	}
	free(order);
	return 0;
}

/* After "no change point": what a change may have gone unseen. */
static void steps_table_resolvable(FILE *out, const struct steps *s)
{
	char pct[40], change[40];

	if (!isfinite(s->resolvable))
		return;
	lc_fmt_d1(pct, sizeof(pct), json10(s->resolvable));
	fprintf(out, "these boots resolve a change of about %s %% between two steps (80 %% of the time)",
		pct);
	if (s->boots_needed) {
		lc_fmt_shortest(change, sizeof(change),
				json6(s->report->min_change));
		fprintf(out, "; %ld boots a step would resolve %s %%",
			s->boots_needed, change);
	}
	fputc('\n', out);
}

static int steps_table(FILE *out, const struct steps *s)
{
	const struct steps_header *h = s->header;
	const struct step_change *c;
	char conf[32], change[32], interval[48];
	size_t i;

	lc_fmt_shortest(conf, sizeof(conf), json6(s->report->confidence));
	fprintf(out, "%s: %zu steps, %s %% confidence\n", s->report->source,
		s->n, conf);
	if (h->boot_runs >= 0)
		fprintf(out, "each value the mean of one boot's %ld runs; the test on the boots' means\n",
			h->boot_runs);
	fputs("\nstep  ", out);
	steps_pad(out, "patch", STEPS_PATCH_WIDTH, false);
	fputs("  ", out);
	steps_pad(out, "mean", 9, true);
	fputs("  ", out);
	snprintf(interval, sizeof(interval), "%s %% interval", conf);
	steps_pad(out, interval, 20, false);
	fputs(h->boot_runs < 0 ? "  runs\n" : "  boots\n", out);
	if (steps_table_rows(out, s))
		return -1;
	fputc('\n', out);
	for (i = 0; i < h->nmissing; i++)
		fprintf(out, "%sstep %ld%s", i ? ", " :
			"left out of the analysis: ", h->missing[i].step,
			i + 1 < h->nmissing ? "" : "\n\n");
	if (!s->nchanges) {
		fprintf(out, "no change point at %s %% confidence", conf);
		lc_fmt_shortest(change, sizeof(change),
				json6(s->report->min_change));
		if (json6(s->report->min_change) > 0)
			fprintf(out, " of a change of %s %% or more", change);
		fputc('\n', out);
		steps_table_resolvable(out, s);
	}
	for (i = 0; i < s->nchanges; i++) {
		c = &s->changes[i];
		if (!c->by_threshold) {
			fprintf(out, "change point: %s (step %ld), confidence of the change %s %%\n%s\n",
				c->patch, c->step, c->confidence, c->mail);
			continue;
		}
		lc_fmt_shortest(change, sizeof(change),
				json6(s->report->min_change));
		lc_fmt_shortest(interval, sizeof(interval),
				json6(fabs(c->percent_halfwidth)));
		if (h->boot_runs >= 0)
			fprintf(out, "change point: %s (step %ld), decided by the %s %% threshold: the boots agree within %s %% (under -icount a boot repeats the one before), so a p-value would say nothing of the change\n%s\n",
				c->patch, c->step, change, interval, c->mail);
		else
			fprintf(out, "change point: %s (step %ld), decided by the %s %% threshold: the runs agree within %s %%, so a p-value would only say how alike the runs of a boot are\n%s\n",
				c->patch, c->step, change, interval, c->mail);
	}
	return 0;
}

/* A number of CSV or JSON: as JSON tools print it, or @none. */
static void steps_number_out(FILE *out, bool has, double v, const char *none)
{
	char buf[40];

	if (!has || !isfinite(v)) {
		fputs(none, out);
		return;
	}
	lc_fmt_shortest(buf, sizeof(buf), v);
	fputs(buf, out);
}

/* The CSV's fields, every name quoted as jq's @csv quoted them. */
enum steps_field {
	STEPS_F_STEP, STEPS_F_PATCH, STEPS_F_RUNS, STEPS_F_MEAN, STEPS_F_LOW,
	STEPS_F_HIGH, STEPS_F_NEW_LEVEL, STEPS_F_PERCENT, STEPS_F_P,
	STEPS_NR_FIELDS,
};

static const char *const steps_csv_fields[STEPS_NR_FIELDS] = {
	"step", "patch", "runs", "mean", "low", "high", "new_level",
	"percent", "p",
};

/* A number of the CSV, as JSON tools print it, or null. */
static void steps_cell(struct lc_cell *cell, bool has, double v)
{
	char buf[40];

	lc_fmt_shortest(buf, sizeof(buf), v);
	if (has && isfinite(v))
		lc_cell_set(cell, LC_CELL_RAW, "%s", buf);
	else
		lc_cell_set(cell, LC_CELL_NULL, "%s", "");
}

static void steps_csv(FILE *out, const struct steps *s)
{
	struct lc_cell cells[STEPS_NR_FIELDS];
	size_t i;

	for (i = 0; i < STEPS_NR_FIELDS; i++)
		lc_cell_ref(&cells[i], LC_CELL_QUOTED, steps_csv_fields[i]);
	lc_fmt_csv_row(out, cells, STEPS_NR_FIELDS);
	for (i = 0; i < s->n; i++) {
		const struct step *st = &s->steps[i];
		const struct step_change *c = st->change;
		const struct lc_svg_point *p = &st->point;

		lc_cell_set(&cells[STEPS_F_STEP], LC_CELL_RAW, "%ld",
			    st->number);
		lc_cell_ref(&cells[STEPS_F_PATCH], LC_CELL_QUOTED, p->name);
		/* Every run, whether a value is a run or a boot's mean. */
		lc_cell_set(&cells[STEPS_F_RUNS], LC_CELL_RAW, "%zu",
			    s->header->boot_runs < 0 ? st->runs :
			    st->runs * (size_t)s->header->boot_runs);
		steps_cell(&cells[STEPS_F_MEAN], p->has_mean, p->mean);
		steps_cell(&cells[STEPS_F_LOW], p->has_interval, p->low);
		steps_cell(&cells[STEPS_F_HIGH], p->has_interval, p->high);
		lc_cell_set(&cells[STEPS_F_NEW_LEVEL], LC_CELL_RAW, "%s",
			    p->new_level ? "true" : "false");
		steps_cell(&cells[STEPS_F_PERCENT], c, c ? c->percent : 0);
		steps_cell(&cells[STEPS_F_P], c, c ? c->p : 0);
		lc_fmt_csv_row(out, cells, STEPS_NR_FIELDS);
	}
}

/* "KEY": VALUE, indented, and a comma unless it is the last. */
static void steps_json_key(FILE *out, int indent, const char *key)
{
	fprintf(out, "%*s\"%s\": ", indent, "", key);
}

static void steps_json_string(FILE *out, int indent, const char *key,
			      const char *value, bool last)
{
	steps_json_key(out, indent, key);
	lc_json_string(out, value, strlen(value));
	fputs(last ? "\n" : ",\n", out);
}

static void steps_json_number(FILE *out, int indent, const char *key,
			      bool has, double value, bool last)
{
	steps_json_key(out, indent, key);
	steps_number_out(out, has, value, "null");
	fputs(last ? "\n" : ",\n", out);
}

static void steps_json_step(FILE *out, const struct steps *s,
			    const struct step *st, bool last)
{
	const struct lc_svg_point *p = &st->point;
	const struct step_change *c = st->change;
	long boot_runs = s->header->boot_runs;

	fputs("    {\n", out);
	steps_json_number(out, 6, "step", true, (double)st->number, false);
	steps_json_string(out, 6, "patch", p->name, false);
	if (boot_runs >= 0) {
		steps_json_number(out, 6, "boots", true, (double)st->runs,
				  false);
		steps_json_number(out, 6, "runs", true,
				  (double)st->runs * boot_runs, false);
	} else {
		steps_json_number(out, 6, "runs", true, (double)st->runs,
				  false);
	}
	steps_json_number(out, 6, "mean", p->has_mean, p->mean, false);
	steps_json_number(out, 6, "low", p->has_interval, p->low, false);
	steps_json_number(out, 6, "high", p->has_interval, p->high, false);
	steps_json_key(out, 6, "new_level");
	fprintf(out, "%s,\n", p->new_level ? "true" : "false");
	steps_json_number(out, 6, "percent", c, c ? c->percent : 0, false);
	steps_json_number(out, 6, "p", c, c ? c->p : 0, true);
	fputs(last ? "    }\n" : "    },\n", out);
}

static void steps_json_change(FILE *out, const struct step_change *c,
			      bool last)
{
	fputs("    {\n", out);
	steps_json_number(out, 6, "step", true, (double)c->step, false);
	steps_json_number(out, 6, "index", true, (double)c->index, false);
	steps_json_string(out, 6, "patch", c->patch, false);
	steps_json_number(out, 6, "before", true, c->before, false);
	steps_json_number(out, 6, "after", true, c->after, false);
	steps_json_number(out, 6, "percent", true, c->percent, false);
	steps_json_number(out, 6, "percent_halfwidth", true,
			  c->percent_halfwidth, false);
	steps_json_number(out, 6, "p", true, c->p, false);
	steps_json_string(out, 6, "confidence_of_change", c->confidence,
			  false);
	steps_json_string(out, 6, "decided_by",
			  c->by_threshold ? "threshold" : "test", false);
	steps_json_string(out, 6, "mail", c->mail, true);
	fputs(last ? "    }\n" : "    },\n", out);
}

static void steps_json_missing(FILE *out, const struct steps_missing *m,
			       bool last)
{
	fputs("    {\n", out);
	steps_json_number(out, 6, "step", true, (double)m->step, false);
	steps_json_string(out, 6, "patch", m->patch, false);
	steps_json_string(out, 6, "status", m->status, true);
	fputs(last ? "    }\n" : "    },\n", out);
}

/* "KEY": [ or "KEY": [] for none. */
static bool steps_json_array(FILE *out, const char *key, size_t n)
{
	steps_json_key(out, 2, key);
	fputs(n ? "[\n" : "[],\n", out);
	return n;
}

static void steps_json(FILE *out, const struct steps *s)
{
	const struct steps_header *h = s->header;
	size_t i;

	fputs("{\n", out);
	steps_json_string(out, 2, "format", STEPS_FORMAT, false);
	steps_json_string(out, 2, "source", s->report->source, false);
	steps_json_number(out, 2, "confidence", true,
			  json6(s->report->confidence), false);
	steps_json_number(out, 2, "min_change_percent", true,
			  json6(s->report->min_change), false);
	if (h->boot_runs >= 0) {
		steps_json_number(out, 2, "runs_per_boot", true,
				  (double)h->boot_runs, false);
		steps_json_number(out, 2, "resolvable_percent",
				  isfinite(s->resolvable),
				  json10(s->resolvable), false);
		steps_json_number(out, 2, "boots_needed",
				  s->boots_needed > 0,
				  (double)s->boots_needed, false);
	}
	if (*s->unit)
		steps_json_string(out, 2, "unit", s->unit, false);
	else
		steps_json_number(out, 2, "unit", false, 0, false);
	if (steps_json_array(out, "steps", s->n)) {
		for (i = 0; i < s->n; i++)
			steps_json_step(out, s, &s->steps[i], i + 1 == s->n);
		fputs("  ],\n", out);
	}
	if (steps_json_array(out, "change_points", s->nchanges)) {
		for (i = 0; i < s->nchanges; i++)
			steps_json_change(out, &s->changes[i],
					  i + 1 == s->nchanges);
		fputs("  ],\n", out);
	}
	steps_json_key(out, 2, "missing");
	if (!h->nmissing) {
		fputs("[]\n}\n", out);
		return;
	}
	fputs("[\n", out);
	for (i = 0; i < h->nmissing; i++)
		steps_json_missing(out, &h->missing[i], i + 1 == h->nmissing);
	fputs("  ]\n}\n", out);
}

/* The steps' means and intervals, and the change points, in SVG. */
static int steps_plot(const struct steps *s, const char *path)
{
	struct lc_svg_series plot = {
		.title = s->report->source,
		.unit = s->unit,
		.nr = s->n,
		.nr_changes = s->nchanges,
	};
	struct lc_svg_point *points = calloc(s->n, sizeof(*points));
	struct lc_svg_change *changes = calloc(s->nchanges + 1,
					       sizeof(*changes));
	FILE *out = NULL;
	size_t i;
	int err = -1;

	if (!points || !changes) {
		lc_err("out of memory");
		goto out_free;
	}
	for (i = 0; i < s->n; i++)
		points[i] = s->steps[i].point;
	for (i = 0; i < s->nchanges; i++)
		changes[i] = (struct lc_svg_change) {
			.index = s->changes[i].index, .tip = s->changes[i].mail,
		};
	plot.points = points;
	plot.changes = changes;
	out = fopen(path, "w");
	if (!out || lc_svg_plot_series(out, &plot) | fclose(out))
		lc_err("--plot %s: %s", path, strerror(errno));
	else
		err = 0;
out_free:
	free(changes);
	free(points);
	return err;
}

/**
 * steps_report() - the report of a patch series, and its plot
 * @out: where to print the report
 * @report: the options: format, source, confidence, minimum change
 * @header: what the values file says of the steps
 * @labels: the labels of the series, in order
 * @nlabels: how many
 * @result: its change points (series_segment())
 * @steps: print the report (--steps); otherwise the caller printed its own
 * @plot: the SVG file to draw the plot into, or NULL
 *
 * Return: 0, or -1 after a message (out of memory, the plot not written).
 */
int steps_report(FILE *out, const struct report *report,
		 const struct steps_header *header, const struct group *labels,
		 size_t nlabels, const struct series_result *result,
		 bool steps, const char *plot)
{
	struct steps s = { .report = report, .header = header };
	int err = 0;

	if (steps_build(&s, labels, nlabels, result)) {
		steps_free(&s);
		return lc_err("out of memory");
	}
	if (steps && report->format == LC_FORMAT_CSV)
		steps_csv(out, &s);
	else if (steps && report->format == LC_FORMAT_JSON)
		steps_json(out, &s);
	else if (steps)
		err = steps_table(out, &s);
	if (plot && !err)
		err = steps_plot(&s, plot);
	steps_free(&s);
	return err;
}
