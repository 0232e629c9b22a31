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

/* A field's name in a bench row (lib/bench-schema.h) */
#define FIELD(f) lc_bench_field_names[LC_BENCH_F_##f]
#define BENCH_MAX_VALUE 1e150	/* as in compare mode: squares stay finite */
#define BENCH_MAX_COUNT 9007199254740992.0	/* 2^53 */

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
	return metric == BENCH_NS ? FIELD(OVERHEAD_NS) : FIELD(OVERHEAD_CYCLES);
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
			enum lc_bench_status *status)
{
	if (!lc_bench_status_parse(text, status))
		return 0;
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
	if (get_number(ctx, row, FIELD(STDDEV_CYCLES), 1, &cycles))
		return -1;
	if (!isnan(cycles) && file->clock_khz > 0) {
		*out = cycles * 1e6 / file->clock_khz;
		return 0;
	}
	if (get_number(ctx, row, FIELD(CI95_NS), 1, &ci))
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
	const char *samples = FIELD(SAMPLES);
	const char *key = bench_metric_name(metric);
	double n, mean, sd;

	if (get_number(ctx, row, key, 0, &mean) ||
	    get_number(ctx, row, samples, 0, &n) ||
	    need_number(ctx, key, mean) || need_number(ctx, samples, n))
		return -1;
	if (n != floor(n) || n < 2 || n > BENCH_MAX_COUNT)
		return bench_error(ctx, "\"samples\": %g is not a count of 2 "
					"or more",
				   n);
	if (metric == BENCH_CYCLES) {
		if (get_number(ctx, row, FIELD(STDDEV_CYCLES), 0, &sd))
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
	if (get_string(ctx, v, FIELD(MECHANISM), 0, &row->mechanism))
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
	if (get_string(ctx, v, FIELD(STATUS), 0, &status))
		return -1;
	ret = parse_status(ctx, status, &row->status);
	free(status);
	if (ret)
		return -1;
	if (json_get(v, FIELD(REASON))) {
		if (get_string(ctx, v, FIELD(REASON), 1, &row->reason))
			return -1;
	} else {
		row->reason = strdup("");
		if (!row->reason)
			return bench_error(ctx, "out of memory");
	}
	if (row->status == LC_BENCH_OK)
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
	    strncmp(format->string, LC_BENCH_FORMAT_PREFIX,
		    strlen(LC_BENCH_FORMAT_PREFIX)))
		return bench_error(ctx, "not bench JSON: no \"format\": \"%s\" "
					"(lttng-calibrate bench --format json)",
				   LC_BENCH_FORMAT);
	if (strcmp(format->string, LC_BENCH_FORMAT))
		return bench_error(ctx, "format '%s' is not supported: this "
					"tool reads %s",
				   format->string, LC_BENCH_FORMAT);
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
	if (!cell->row || cell->row->status != LC_BENCH_OK)
		return;
	s = &cell->row->sum;
	cell->halfwidth = mean_halfwidth(s, cmp->confidence);
	if (i && mech->in_base && base && base->status == LC_BENCH_OK) {
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
