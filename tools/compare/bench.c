// SPDX-License-Identifier: GPL-2.0
/*
 * Bench mode: "lttng-calibrate bench --format json" outputs compared per
 * mechanism, the first input being the base.  The numbers of a row are
 * summary statistics of the per-call differences (mean, stddev, count),
 * which is all Welch's t-test needs: stats.c does the test.
 *
 * Nothing here exits: errors are printed as "PROG: FILE: reason"
 * (lc_err()) and returned.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/json-read.h"
#include "../lib/lc.h"
#include "bench.h"
#include "report.h"

#define BENCH_MAX_VALUE 1e150	/* as in compare mode: squares stay finite */
#define BENCH_MAX_COUNT 9007199254740992.0	/* 2^53 */

static const char *const status_names[] = {
	[BENCH_OK] = "ok",
	[BENCH_LOST] = "lost",
	[BENCH_UNAVAILABLE] = "unavailable",
	[BENCH_FAILED] = "failed",
};

/**
 * struct bench_ctx - where a value being checked comes from, for messages
 * @path: the file
 * @row:  index of the row, or -1 for the top-level object
 * @name: the row's mechanism once known, or NULL
 */
struct bench_ctx {
	const char *path;
	long row;
	const char *name;
};

__attribute__((format(printf, 2, 3))) static int
bench_error(const struct bench_ctx *ctx, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->row >= 0 && ctx->name)
		return lc_err("%s: rows[%ld] (%s): %s", ctx->path, ctx->row,
			      ctx->name, msg);
	if (ctx->row >= 0)
		return lc_err("%s: rows[%ld]: %s", ctx->path, ctx->row, msg);
	return lc_err("%s: %s", ctx->path, msg);
}

/**
 * bench_metric_parse() - the --metric of bench mode
 * @name:   "overhead_cycles" or "overhead_ns"
 * @metric: set on success
 *
 * Return: 0, or -1 for another name.
 */
int bench_metric_parse(const char *name, enum bench_metric *metric)
{
	if (!strcmp(name, "overhead_cycles"))
		*metric = BENCH_CYCLES;
	else if (!strcmp(name, "overhead_ns"))
		*metric = BENCH_NS;
	else
		return -1;
	return 0;
}

/**
 * bench_metric_name() - the member of the rows that a metric reads
 * @metric: the metric
 *
 * Return: "overhead_cycles" or "overhead_ns".
 */
const char *bench_metric_name(enum bench_metric metric)
{
	return metric == BENCH_NS ? "overhead_ns" : "overhead_cycles";
}

/**
 * bench_looks_like() - whether a file argument looks like bench JSON
 * @path: the file; "-" (standard input) and unreadable files do not
 *
 * The first byte that is not white space is '{', which no input of the
 * other modes can start with (it is not a number).
 *
 * Return: 1 or 0.
 */
int bench_looks_like(const char *path)
{
	FILE *f;
	int c;

	if (!strcmp(path, "-"))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 0;
	do
		c = getc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(f);
	return c == '{';
}

static int get_string(const struct bench_ctx *ctx, const struct json_value *obj,
		      const char *key, int nullable, char **out)
{
	const struct json_value *v = json_get(obj, key);
	const char *s;

	if (!v)
		return bench_error(ctx, "no \"%s\"", key);
	if (v->type == JSON_NULL && nullable) {
		s = "";
	} else if (v->type == JSON_STRING) {
		if (strlen(v->string) != v->len)
			return bench_error(ctx, "\"%s\": NUL in the string",
					   key);
		s = v->string;
	} else {
		return bench_error(ctx, "\"%s\": expected a string%s, "
					"found %s",
				   key, nullable ? " or null" : "",
				   json_type_name(v->type));
	}
	*out = strdup(s);
	if (!*out)
		return bench_error(ctx, "out of memory");
	return 0;
}

/* A number or null (NAN); a missing member is null when @optional. */
static int get_number(const struct bench_ctx *ctx, const struct json_value *obj,
		      const char *key, int optional, double *out)
{
	const struct json_value *v = json_get(obj, key);

	*out = NAN;
	if (!v && optional)
		return 0;
	if (!v)
		return bench_error(ctx, "no \"%s\"", key);
	if (v->type == JSON_NUMBER)
		*out = v->number;
	else if (v->type != JSON_NULL)
		return bench_error(ctx, "\"%s\": expected a number or null, "
					"found %s",
				   key, json_type_name(v->type));
	return 0;
}

static int need_number(const struct bench_ctx *ctx, const char *key,
		       double value)
{
	if (isnan(value))
		return bench_error(ctx, "\"%s\" is null in a row of status "
					"\"ok\"",
				   key);
	if (!(fabs(value) < BENCH_MAX_VALUE))
		return bench_error(ctx, "\"%s\": %g is too large for the "
					"statistics (limit 1e150)",
				   key, value);
	return 0;
}

static int parse_status(const struct bench_ctx *ctx, const char *text,
			enum bench_status *status)
{
	size_t i;

	for (i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (!strcmp(text, status_names[i])) {
			*status = (enum bench_status)i;
			return 0;
		}
	return bench_error(ctx, "\"status\": '%s' is not ok, lost, "
				"unavailable or failed",
			   text);
}

/*
 * The standard deviation in the metric's unit: stddev_ns when the file
 * has it, else stddev_cycles converted with clock_khz, else recovered
 * from ci95_ns (Student's t at 95 %, n - 1 degrees of freedom).
 */
static int stddev_ns(const struct bench_ctx *ctx, const struct json_value *row,
		     const struct bench_file *file, double n, double *out)
{
	double cycles, ci;

	if (get_number(ctx, row, "stddev_ns", 1, out))
		return -1;
	if (!isnan(*out))
		return 0;
	if (get_number(ctx, row, "stddev_cycles", 1, &cycles))
		return -1;
	if (!isnan(cycles) && file->clock_khz > 0) {
		*out = cycles * 1e6 / file->clock_khz;
		return 0;
	}
	if (get_number(ctx, row, "ci95_ns", 1, &ci))
		return -1;
	if (isnan(ci))
		return bench_error(ctx, "no \"stddev_ns\", and neither "
					"\"stddev_cycles\" with \"clock_khz\" "
					"nor \"ci95_ns\" to compute it");
	*out = ci * sqrt(n) / student_t_quantile(0.975, n - 1);
	return 0;
}

static int read_summary(const struct bench_ctx *ctx,
			const struct json_value *row,
			const struct bench_file *file, enum bench_metric metric,
			struct summary *sum)
{
	const char *key = bench_metric_name(metric);
	double n, mean, sd;

	if (get_number(ctx, row, key, 0, &mean) ||
	    get_number(ctx, row, "samples", 0, &n) ||
	    need_number(ctx, key, mean) || need_number(ctx, "samples", n))
		return -1;
	if (n != floor(n) || n < 2 || n > BENCH_MAX_COUNT)
		return bench_error(ctx, "\"samples\": %g is not a count of 2 "
					"or more",
				   n);
	if (metric == BENCH_CYCLES) {
		if (get_number(ctx, row, "stddev_cycles", 0, &sd))
			return -1;
	} else if (stddev_ns(ctx, row, file, n, &sd)) {
		return -1;
	}
	if (need_number(ctx, "stddev", sd))
		return -1;
	if (sd < 0)
		return bench_error(ctx, "negative standard deviation %g", sd);
	sum->n = (size_t)n;
	sum->mean = mean;
	sum->stddev = sd;
	sum->min = sum->max = sum->median = NAN;
	return 0;
}

static int read_row(struct bench_ctx *ctx, const struct json_value *v,
		    struct bench_file *file, enum bench_metric metric)
{
	struct bench_row *row = &file->rows[file->nrows];
	char *status = NULL;
	size_t i;
	int ret;

	if (v->type != JSON_OBJECT)
		return bench_error(ctx, "expected an object, found %s",
				   json_type_name(v->type));
	memset(row, 0, sizeof(*row));
	if (get_string(ctx, v, "mechanism", 0, &row->mechanism))
		return -1;
	file->nrows++;	/* from now on bench_file_free() releases it */
	ctx->name = row->mechanism;
	if (!*row->mechanism)
		return bench_error(ctx, "empty \"mechanism\"");
	for (i = 0; i + 1 < file->nrows; i++)
		if (!strcmp(file->rows[i].mechanism, row->mechanism))
			return bench_error(ctx, "mechanism given twice (also "
						"rows[%zu])",
					   i);
	if (get_string(ctx, v, "status", 0, &status))
		return -1;
	ret = parse_status(ctx, status, &row->status);
	free(status);
	if (ret)
		return -1;
	if (json_get(v, "reason")) {
		if (get_string(ctx, v, "reason", 1, &row->reason))
			return -1;
	} else {
		row->reason = strdup("");
		if (!row->reason)
			return bench_error(ctx, "out of memory");
	}
	if (row->status == BENCH_OK)
		return read_summary(ctx, v, file, metric, &row->sum);
	return 0;
}

static int read_header(const struct bench_ctx *ctx,
		       const struct json_value *doc, struct bench_file *file)
{
	const struct json_value *format;

	if (doc->type != JSON_OBJECT)
		return bench_error(ctx, "not bench JSON: %s, not an object",
				   json_type_name(doc->type));
	format = json_get(doc, "format");
	if (!format || format->type != JSON_STRING ||
	    strncmp(format->string, BENCH_FORMAT_PREFIX,
		    strlen(BENCH_FORMAT_PREFIX)))
		return bench_error(ctx, "not bench JSON: no \"format\": \"%s\" "
					"(lttng-calibrate bench --format json)",
				   BENCH_FORMAT);
	if (strcmp(format->string, BENCH_FORMAT))
		return bench_error(ctx, "format '%s' is not supported: this "
					"tool reads %s",
				   format->string, BENCH_FORMAT);
	if (get_string(ctx, doc, "kernel", 0, &file->kernel) ||
	    get_string(ctx, doc, "cpu_model", 1, &file->cpu_model) ||
	    get_string(ctx, doc, "clock", 1, &file->clock) ||
	    get_number(ctx, doc, "iterations", 1, &file->iterations) ||
	    get_number(ctx, doc, "clock_khz", 1, &file->clock_khz))
		return -1;
	return 0;
}

static int read_document(const char *path, const struct json_value *doc,
			 enum bench_metric metric, struct bench_file *file)
{
	struct bench_ctx ctx = { .path = path, .row = -1 };
	const struct json_value *rows;
	size_t i;

	if (read_header(&ctx, doc, file))
		return -1;
	rows = json_get(doc, "rows");
	if (!rows || rows->type != JSON_ARRAY)
		return bench_error(&ctx, "no \"rows\" array");
	if (!rows->n)
		return bench_error(&ctx, "\"rows\" is empty");
	file->rows = calloc(rows->n, sizeof(*file->rows));
	if (!file->rows)
		return bench_error(&ctx, "out of memory");
	for (i = 0; i < rows->n; i++) {
		ctx.row = (long)i;
		ctx.name = NULL;
		if (read_row(&ctx, &rows->items[i], file, metric))
			return -1;
	}
	return 0;
}

/**
 * bench_parse() - check one bench JSON document held in memory
 * @path:   the name of the file, for messages
 * @text:   the document; need not be NUL-terminated
 * @len:    its length in bytes
 * @metric: which numbers of the rows to keep
 * @file:   filled in; release it with bench_file_free(), also on error
 *
 * Return: 0, or -1 after printing why the document cannot be used.
 */
int bench_parse(const char *path, const char *text, size_t len,
		enum bench_metric metric, struct bench_file *file)
{
	struct bench_ctx ctx = { .path = path, .row = -1 };
	struct json_value *doc;
	struct json_error err;
	int ret;

	memset(file, 0, sizeof(*file));
	file->path = path;
	if (memchr(text, '\0', len))
		return bench_error(&ctx, "not bench JSON: binary data (NUL "
					 "byte)");
	doc = json_parse(text, len, &err);
	if (!doc)
		return lc_err("%s:%d:%d: not valid JSON: %s", path, err.line,
			      err.column, err.message);
	ret = read_document(path, doc, metric, file);
	json_free(doc);
	return ret;
}

/**
 * bench_read() - read and check one bench JSON file
 * @path:   the file, or "-" for standard input (named "<stdin>")
 * @metric: which numbers of the rows to keep
 * @file:   filled in; release it with bench_file_free(), also on error
 *
 * Return: 0, or -1 after printing why the file cannot be used.
 */
int bench_read(const char *path, enum bench_metric metric,
	       struct bench_file *file)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct bench_ctx ctx = { .path = name, .row = -1 };
	size_t len;
	char *text;
	int ret;

	memset(file, 0, sizeof(*file));
	file->path = name;
	text = strcmp(path, "-") ? lc_read_file(path, &len) :
				   lc_read_fd(STDIN_FILENO, &len);
	if (!text)
		return bench_error(&ctx, "%s", strerror(errno));
	ret = bench_parse(name, text, len, metric, file);
	free(text);
	return ret;
}

/**
 * bench_file_free() - release what bench_read() allocated
 * @file: the file; its fields are cleared
 */
void bench_file_free(struct bench_file *file)
{
	size_t i;

	for (i = 0; i < file->nrows; i++) {
		free(file->rows[i].mechanism);
		free(file->rows[i].reason);
	}
	free(file->rows);
	free(file->kernel);
	free(file->cpu_model);
	free(file->clock);
	memset(file, 0, sizeof(*file));
}

static const struct bench_row *find_row(const struct bench_file *file,
					const char *mechanism)
{
	size_t i;

	for (i = 0; i < file->nrows; i++)
		if (!strcmp(file->rows[i].mechanism, mechanism))
			return &file->rows[i];
	return NULL;
}

static int find_mech(const struct bench_comparison *cmp, const char *name)
{
	size_t i;

	for (i = 0; i < cmp->nmechs; i++)
		if (!strcmp(cmp->mechs[i].name, name))
			return 1;
	return 0;
}

static void fill_cell(const struct bench_comparison *cmp, size_t m, size_t i)
{
	struct bench_mechanism *mech = &cmp->mechs[m];
	struct bench_cell *cell = &mech->cells[i];
	const struct bench_row *base = mech->cells[0].row;
	const struct summary *s;

	cell->row = find_row(&cmp->files[i], mech->name);
	cell->halfwidth = NAN;
	if (!cell->row || cell->row->status != BENCH_OK)
		return;
	s = &cell->row->sum;
	cell->halfwidth = mean_halfwidth(s, cmp->confidence);
	if (i && mech->in_base && base && base->status == BENCH_OK) {
		welch_test(&base->sum, s, cmp->confidence, &cell->test);
		cell->tested = 1;
	}
}

/**
 * bench_compare() - test every mechanism of every input against the base
 * @files:      the inputs, read with bench_read(); the first is the base
 * @nfiles:     how many, at least 2
 * @metric:     the metric they were read with
 * @confidence: confidence level in percent
 * @cmp:        filled in; it points into @files; release it with
 *              bench_comparison_free()
 *
 * Return: 0, or -1 when out of memory (nothing is left to release).
 */
int bench_compare(const struct bench_file *files, size_t nfiles,
		  enum bench_metric metric, double confidence,
		  struct bench_comparison *cmp)
{
	size_t total = 0, i, r, m;

	memset(cmp, 0, sizeof(*cmp));
	cmp->files = files;
	cmp->nfiles = nfiles;
	cmp->metric = metric;
	cmp->confidence = confidence;
	for (i = 0; i < nfiles; i++) {
		total += files[i].nrows;
		if (strcmp(files[i].cpu_model, files[0].cpu_model))
			cmp->cpu_differs = 1;
		if (strcmp(files[i].clock, files[0].clock))
			cmp->clock_differs = 1;
	}
	cmp->mechs = calloc(total, sizeof(*cmp->mechs));
	if (!cmp->mechs)
		return -1;
	/* from here, nmechs counts the mechanisms to free on failure */
	for (i = 0; i < nfiles; i++)
		for (r = 0; r < files[i].nrows; r++) {
			if (find_mech(cmp, files[i].rows[r].mechanism))
				continue;
			m = cmp->nmechs++;
			cmp->mechs[m].name = files[i].rows[r].mechanism;
			cmp->mechs[m].in_base = !i;
			cmp->mechs[m].cells =
				calloc(nfiles, sizeof(*cmp->mechs[m].cells));
			if (!cmp->mechs[m].cells) {
				bench_comparison_free(cmp);
				return -1;
			}
		}
	for (m = 0; m < cmp->nmechs; m++)
		for (i = 0; i < nfiles; i++)
			fill_cell(cmp, m, i);
	return 0;
}

/**
 * bench_comparison_free() - release what bench_compare() allocated
 * @cmp: the comparison (not its files)
 */
void bench_comparison_free(struct bench_comparison *cmp)
{
	size_t m;

	for (m = 0; m < cmp->nmechs; m++)
		free(cmp->mechs[m].cells);
	free(cmp->mechs);
	memset(cmp, 0, sizeof(*cmp));
}

/* Output */

/* "ok", ..., or "absent" for a mechanism the input does not have */
static const char *cell_status(const struct bench_cell *cell)
{
	return cell->row ? status_names[cell->row->status] : "absent";
}

static const char *cell_verdict(const struct bench_mechanism *mech, size_t i)
{
	const struct bench_cell *cell = &mech->cells[i];

	if (cell->tested)
		return cell->test.significant ? "difference" : "no difference";
	if (!i && mech->in_base && cell->row->status == BENCH_OK)
		return "reference";
	return "none";
}

/*
 * "value ± ci" in 20 columns: the half width relative to the value, or
 * absolute (no '%') when the value is zero.
 */
static void text_value(FILE *out, const struct bench_cell *cell)
{
	const struct summary *s;
	char buf[32];
	double pct;

	if (!cell->row) {
		fprintf(out, "%20s", "-");
		return;
	}
	if (cell->row->status != BENCH_OK) {
		fprintf(out, "%20s", status_names[cell->row->status]);
		return;
	}
	s = &cell->row->sum;
	pct = percent_of(cell->halfwidth, s->mean);
	if (!s->mean)
		snprintf(buf, sizeof(buf), "%-6.3g", cell->halfwidth);
	else if (pct < 9.995)
		snprintf(buf, sizeof(buf), "%5.2f%%", pct);
	else if (pct < 99.95)
		snprintf(buf, sizeof(buf), "%5.1f%%", pct);
	else if (pct < 99999.5)
		snprintf(buf, sizeof(buf), "%5.0f%%", pct);
	else
		snprintf(buf, sizeof(buf), " >1e5%%");
	fprintf(out, "%11.2f \u00b1 %s", s->mean, buf);
}

static void text_change(FILE *out, const struct bench_cell *cell,
			const struct bench_cell *base)
{
	double pct;

	if (!cell->tested) {
		fprintf(out, "%11s", "");
		return;
	}
	pct = percent_of(cell->test.diff, base->row->sum.mean);
	if (isnan(pct))
		fprintf(out, "%+11.3g", cell->test.diff);
	else
		fprintf(out, "%+10.1f%%", pct);
}

static void text_header(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_file *f;
	size_t i;

	fprintf(out, "%s, %.1f%% confidence intervals (Student's t), Welch's "
		     "t-test against [1]\n",
		bench_metric_name(cmp->metric), cmp->confidence);
	for (i = 0; i < cmp->nfiles; i++) {
		f = &cmp->files[i];
		fprintf(out, "[%zu] %s: kernel %s, cpu %s, ", i + 1, f->path,
			f->kernel, *f->cpu_model ? f->cpu_model : "unknown");
		if (isnan(f->iterations))
			fputs("iterations unknown, ", out);
		else
			fprintf(out, "%.0f iterations, ", f->iterations);
		fprintf(out, "clock %s", *f->clock ? f->clock : "unknown");
		if (!isnan(f->clock_khz))
			fprintf(out, " (%.0f kHz)", f->clock_khz);
		fputs(i ? "\n" : " (base)\n", out);
	}
	if (cmp->cpu_differs || cmp->clock_differs)
		fprintf(out, "warning: the inputs differ in %s: they come from "
			     "different machines or clocks\n",
			cmp->cpu_differs && cmp->clock_differs ?
				"cpu_model and clock" :
			cmp->cpu_differs ? "cpu_model" : "clock");
	fputc('\n', out);
}

static void text_columns(FILE *out, const struct bench_comparison *cmp)
{
	char ci[16];
	size_t i;

	snprintf(ci, sizeof(ci), "%%ci%g", cmp->confidence);
	fprintf(out, "%20s", cmp->files[0].kernel);
	for (i = 1; i < cmp->nfiles; i++)
		fprintf(out, " %32s", cmp->files[i].kernel);
	fputs("\n--------------------", out);
	for (i = 1; i < cmp->nfiles; i++)
		fputs(" --------------------------------", out);
	fprintf(out, "\n%20s", ci);
	for (i = 1; i < cmp->nfiles; i++)
		fprintf(out, " %11s %20s", "%change", ci);
	fputc('\n', out);
}

static void text_table(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	size_t m, i;

	text_columns(out, cmp);
	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		text_value(out, &mech->cells[0]);
		for (i = 1; i < cmp->nfiles; i++) {
			fputc(' ', out);
			text_change(out, &mech->cells[i], &mech->cells[0]);
			fputc(' ', out);
			text_value(out, &mech->cells[i]);
		}
		fprintf(out, "  %s\n", mech->name);
	}
}

/* ministat's words: "Difference at 95.0% confidence: +d +/- e (+p% +/- q%)" */
static void text_test(FILE *out, double confidence, const struct welch *w,
		      double reference)
{
	if (!w->significant) {
		fprintf(out, "No difference proven at %.1f%% confidence\n",
			confidence);
	} else {
		fprintf(out, "Difference at %.1f%% confidence: ", confidence);
		print_difference(out, w, reference);
		fputc('\n', out);
	}
	fprintf(out, "\t\t(Welch's t = %.4g, df = %.4g, p ", w->t, w->df);
	if (w->p > 0 || w->diff == 0)
		fprintf(out, "= %.3g)\n", w->p);
	else
		fputs("< 1e-300)\n", out);
}

/* "absent", "unavailable (no CONFIG_FPROBE)", or "" for an ok row */
static void text_state(FILE *out, const struct bench_row *row)
{
	if (!row)
		fputs("absent", out);
	else if (row->status != BENCH_OK)
		fprintf(out, "%s%s%s%s", status_names[row->status],
			*row->reason ? " (" : "", row->reason,
			*row->reason ? ")" : "");
}

static void text_verdicts(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	const struct bench_cell *cell;
	size_t m, i;

	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		fprintf(out, "%s:\n", mech->name);
		cell = &mech->cells[0];
		if (!cell->row || cell->row->status != BENCH_OK) {
			fprintf(out, "\t[1] %s: ", cmp->files[0].kernel);
			text_state(out, cell->row);
			fputc('\n', out);
		}
		for (i = 1; i < cmp->nfiles; i++) {
			cell = &mech->cells[i];
			fprintf(out, "\t[%zu] %s: ", i + 1,
				cmp->files[i].kernel);
			if (cell->tested) {
				text_test(out, cmp->confidence, &cell->test,
					  mech->cells[0].row->sum.mean);
				continue;
			}
			text_state(out, cell->row);
			fprintf(out, "%sno verdict\n",
				cell->row && cell->row->status == BENCH_OK ?
					"" :
					", ");
		}
	}
}

static void bench_text(FILE *out, const struct bench_comparison *cmp)
{
	text_header(out, cmp);
	text_table(out, cmp);
	fputc('\n', out);
	text_verdicts(out, cmp);
}


static void csv_str(FILE *out, const char *text, const char *sep)
{
	lc_csv_quoted(out, text, strlen(text));
	fputs(sep, out);
}

static void csv_num(FILE *out, double value, const char *sep)
{
	if (isfinite(value))
		fprintf(out, "%.10g%s", value, sep);
	else
		fputs(sep, out);
}

static void csv_cell(FILE *out, const struct bench_comparison *cmp,
		     const struct bench_mechanism *mech, size_t i)
{
	const struct bench_cell *cell = &mech->cells[i];
	const struct welch *w = &cell->test;
	int ok = cell->row && cell->row->status == BENCH_OK;
	double ref = cell->tested ? mech->cells[0].row->sum.mean : NAN;

	csv_str(out, mech->name, ",");
	fprintf(out, "%zu,", i + 1);
	csv_str(out, cmp->files[i].kernel, ",");
	csv_str(out, cmp->files[i].path, ",");
	fprintf(out, "%s,", cell_status(cell));
	csv_str(out, cell->row ? cell->row->reason : "", ",");
	if (ok) {
		csv_num(out, cell->row->sum.mean, ",");
		csv_num(out, cell->row->sum.stddev, ",");
		fprintf(out, "%zu,", cell->row->sum.n);
		csv_num(out, cell->halfwidth, ",");
	} else {
		fputs(",,,,", out);
	}
	if (cell->tested) {
		csv_num(out, w->diff, ",");
		csv_num(out, w->halfwidth, ",");
		csv_num(out, percent_of(w->diff, ref), ",");
		csv_num(out, percent_of(w->halfwidth, ref), ",");
		csv_num(out, w->t, ",");
		csv_num(out, w->df, ",");
		csv_num(out, w->p, ",");
	} else {
		fputs(",,,,,,,", out);
	}
	fprintf(out, "%g,%s\n", cmp->confidence, cell_verdict(mech, i));
}

static void bench_csv(FILE *out, const struct bench_comparison *cmp)
{
	size_t m, i;

	fputs("mechanism,input,kernel,path,status,reason,mean,stddev,n,"
	      "mean_halfwidth,difference,halfwidth,percent,percent_halfwidth,"
	      "t,df,p,confidence,verdict\n",
	      out);
	for (m = 0; m < cmp->nmechs; m++)
		for (i = 0; i < cmp->nfiles; i++)
			csv_cell(out, cmp, &cmp->mechs[m], i);
}

static void json_inputs(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_file *f;
	size_t i;

	fputs("\"inputs\": [\n", out);
	for (i = 0; i < cmp->nfiles; i++) {
		f = &cmp->files[i];
		fprintf(out, "  {\"input\": %zu, \"path\": ", i + 1);
		json_string(out, f->path);
		fputs(", \"kernel\": ", out);
		json_string(out, f->kernel);
		fputs(", \"cpu_model\": ", out);
		json_string(out, f->cpu_model);
		fputs(", \"clock\": ", out);
		json_string(out, f->clock);
		fputs(", ", out);
		json_number(out, "iterations", f->iterations, ", ");
		json_number(out, "clock_khz", f->clock_khz, "}");
		fputs(i + 1 < cmp->nfiles ? ",\n" : "\n", out);
	}
	fputs("], ", out);
}

static void json_cell(FILE *out, const struct bench_mechanism *mech,
		      size_t i, const char *sep)
{
	const struct bench_cell *cell = &mech->cells[i];
	const struct welch *w = &cell->test;
	int ok = cell->row && cell->row->status == BENCH_OK;
	double ref = cell->tested ? mech->cells[0].row->sum.mean : NAN;

	fprintf(out, "    {\"input\": %zu, \"status\": \"%s\", \"reason\": ",
		i + 1, cell_status(cell));
	json_string(out, cell->row ? cell->row->reason : "");
	fputs(", ", out);
	json_number(out, "mean", ok ? cell->row->sum.mean : NAN, ", ");
	json_number(out, "stddev", ok ? cell->row->sum.stddev : NAN, ", ");
	json_number(out, "n", ok ? (double)cell->row->sum.n : NAN, ", ");
	json_number(out, "mean_halfwidth", cell->halfwidth, ", ");
	fputs("\"change\": ", out);
	if (cell->tested)
		json_welch(out, w, ref);
	else
		fputs("null", out);
	fprintf(out, ", \"verdict\": \"%s\"}%s\n", cell_verdict(mech, i), sep);
}

static void bench_json(FILE *out, const struct bench_comparison *cmp)
{
	const struct bench_mechanism *mech;
	size_t m, i;

	fprintf(out, "{\"mode\": \"bench\", \"metric\": \"%s\", "
		     "\"confidence\": %g, \"cpu_model_differs\": %s, "
		     "\"clock_differs\": %s, ",
		bench_metric_name(cmp->metric), cmp->confidence,
		cmp->cpu_differs ? "true" : "false",
		cmp->clock_differs ? "true" : "false");
	json_inputs(out, cmp);
	fputs("\"mechanisms\": [\n", out);
	for (m = 0; m < cmp->nmechs; m++) {
		mech = &cmp->mechs[m];
		fputs("  {\"mechanism\": ", out);
		json_string(out, mech->name);
		fprintf(out, ", \"in_base\": %s, \"results\": [\n",
			mech->in_base ? "true" : "false");
		for (i = 0; i < cmp->nfiles; i++)
			json_cell(out, mech, i, i + 1 < cmp->nfiles ? "," : "");
		fprintf(out, "  ]}%s\n", m + 1 < cmp->nmechs ? "," : "");
	}
	fputs("]}\n", out);
}

/**
 * bench_report() - print a comparison
 * @out:    where to print
 * @format: text (an LKP-like table, then ministat verdicts), CSV (one row
 *          per mechanism and input) or JSON
 * @cmp:    the outcome of bench_compare()
 */
void bench_report(FILE *out, enum lc_format format,
		  const struct bench_comparison *cmp)
{
	switch (format) {
	case LC_FORMAT_CSV:
		bench_csv(out, cmp);
		break;
	case LC_FORMAT_JSON:
		bench_json(out, cmp);
		break;
	default:
		bench_text(out, cmp);
	}
}
