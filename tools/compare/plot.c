// SPDX-License-Identifier: GPL-2.0
/*
 * ASCII plot of the samples in the manner of FreeBSD's ministat: one
 * symbol per value (x, +, % ...; '*' where samples overlap), stacked
 * when values fall in the same column, then one line per sample with
 * |___| spanning mean +/- one standard deviation, A at the mean and M at
 * the median.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char plot_symbols[MAX_SAMPLES] = {
	'x', '+', '%', '#', '@', 'O', '=', '~'
};

/**
 * struct plot - a grid of cells, one bit per sample in each cell
 * @cells:  @height rows of @width bit masks, row 0 at the bottom
 * @width:  columns inside the borders
 * @height: rows of points
 * @lo:     value at column 0
 * @scale:  columns per unit of value
 */
struct plot {
	unsigned int *cells;
	int width;
	int height;
	double lo;
	double scale;
};

static int plot_column(const struct plot *plot, double value)
{
	double column = round((value - plot->lo) * plot->scale);

	if (!(column > 0))
		return 0;
	if (column >= plot->width - 1)
		return plot->width - 1;
	return (int)column;
}

/* The range covers every value and every mean +/- stddev bar. */
static void plot_range(struct plot *plot, const struct summary *sums, size_t n)
{
	double lo = sums[0].min, hi = sums[0].max;
	size_t i;

	for (i = 0; i < n; i++) {
		lo = fmin(lo, fmin(sums[i].min, sums[i].mean - sums[i].stddev));
		hi = fmax(hi, fmax(sums[i].max, sums[i].mean + sums[i].stddev));
	}
	plot->lo = lo;
	plot->scale = hi > lo ? (plot->width - 1) / (hi - lo) : 0.0;
	if (!isfinite(plot->scale))
		plot->scale = 0.0;
}

/* Tallest stack of one sample's values in one column. */
static int plot_height(const struct plot *plot, const struct group *samples,
		       size_t n, int *count)
{
	int height = 1, column;
	size_t i, j;

	for (i = 0; i < n; i++) {
		memset(count, 0, plot->width * sizeof(*count));
		for (j = 0; j < samples[i].n; j++) {
			column = plot_column(plot, samples[i].values[j]);
			if (++count[column] > height)
				height = count[column];
		}
	}
	return height;
}

static void plot_fill(struct plot *plot, const struct group *samples, size_t n,
		      int *count)
{
	int column;
	size_t i, j;

	for (i = 0; i < n; i++) {
		memset(count, 0, plot->width * sizeof(*count));
		for (j = 0; j < samples[i].n; j++) {
			column = plot_column(plot, samples[i].values[j]);
			plot->cells[count[column]++ * plot->width + column] |=
				1u << i;
		}
	}
}

static char cell_symbol(unsigned int cell)
{
	int i;

	if (!cell)
		return ' ';
	if (cell & (cell - 1))
		return '*';
	for (i = 0; !(cell & (1u << i)); i++)
		;
	return plot_symbols[i];
}

static void plot_border(FILE *out, int width)
{
	fputc('+', out);
	while (width--)
		fputc('-', out);
	fputs("+\n", out);
}

static void plot_bar(FILE *out, const struct plot *plot,
		     const struct summary *sum, char *line)
{
	int a = plot_column(plot, sum->mean - sum->stddev);
	int b = plot_column(plot, sum->mean + sum->stddev);
	int i;

	memset(line, ' ', plot->width);
	for (i = a + 1; i < b; i++)
		line[i] = '_';
	line[a] = '|';
	line[b] = '|';
	line[plot_column(plot, sum->median)] = 'M';
	line[plot_column(plot, sum->mean)] = 'A';
	fprintf(out, "|%.*s|\n", plot->width, line);
}

static void plot_print(FILE *out, const struct plot *plot,
		       const struct summary *sums, size_t n, char *line)
{
	int row, column;
	size_t i;

	plot_border(out, plot->width);
	for (row = plot->height - 1; row >= 0; row--) {
		for (column = 0; column < plot->width; column++)
			line[column] = cell_symbol(
				plot->cells[row * plot->width + column]);
		fprintf(out, "|%.*s|\n", plot->width, line);
	}
	for (i = 0; i < n; i++)
		plot_bar(out, plot, &sums[i], line);
	plot_border(out, plot->width);
}

/**
 * plot_samples() - draw the distributions of up to MAX_SAMPLES samples
 * @out:     where to print
 * @samples: the samples
 * @sums:    their summaries
 * @n:       number of samples
 * @width:   width of the plot, borders included, at least 12
 *
 * Return: 0, or -1 when out of memory.
 */
int plot_samples(FILE *out, const struct group *samples,
		 const struct summary *sums, size_t n, int width)
{
	struct plot plot = { .width = width - 2 };
	int *count = malloc(plot.width * sizeof(*count));
	char *line = malloc(plot.width);
	int ret = -1;

	if (!count || !line)
		goto out_free;
	plot_range(&plot, sums, n);
	plot.height = plot_height(&plot, samples, n, count);
	plot.cells =
		calloc((size_t)plot.height * plot.width, sizeof(*plot.cells));
	if (!plot.cells)
		goto out_free;
	plot_fill(&plot, samples, n, count);
	plot_print(out, &plot, sums, n, line);
	ret = 0;
out_free:
	free(plot.cells);
	free(line);
	free(count);
	return ret;
}
