/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output layer's charts, in plain SVG 1.1: a horizontal bar chart
 * (the bench's rows, predict's configurations) and a series plot (the
 * steps of a patch series, lttng-calibrate-compare --series --plot).  A
 * command fills the chart's description; the layout, the scale and the
 * text widths are here.  Calls output.c only.
 */
#ifndef LTTNG_CALIBRATE_LIB_SVG_H
#define LTTNG_CALIBRATE_LIB_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LC_SVG_MAX_BARS		32
#define LC_SVG_LABEL_MAX	64
/* The longest line: a subtitle (kernel, CPU, clock) or a reason. */
#define LC_SVG_TEXT_MAX		864

/**
 * enum lc_svg_colour - the colour of a bar, by how its row ended
 * @LC_SVG_BAR_OK: as expected (blue)
 * @LC_SVG_BAR_WARN: measured, with a caveat, events lost (orange)
 * @LC_SVG_BAR_BAD: failed (red)
 */
enum lc_svg_colour {
	LC_SVG_BAR_OK,
	LC_SVG_BAR_WARN,
	LC_SVG_BAR_BAD,
};

/**
 * struct lc_svg_bar - one row of a bar chart
 * @label: its name, left of the bar
 * @drawn: it has a bar (@value, @ci, @figures, @tip); otherwise
 *	@missing stands where the bar would be
 * @colour: the bar's colour
 * @value: the bar's length, from 0
 * @ci: the half-width of its error bar
 * @figures: the text right of the bars
 * @tip: the bar's tooltip, after "LABEL"
 * @missing: what stands instead of the bar, shortened to fit
 */
struct lc_svg_bar {
	char label[LC_SVG_LABEL_MAX];
	bool drawn;
	enum lc_svg_colour colour;
	double value;
	double ci;
	char figures[LC_SVG_TEXT_MAX];
	char tip[LC_SVG_TEXT_MAX];
	char missing[LC_SVG_TEXT_MAX];
};

/**
 * struct lc_svg_bars - a horizontal bar chart
 * @title: its title, in bold
 * @subtitle: the line under it (where the figures come from)
 * @axis: the scale's legend
 * @bars: the rows, top down
 * @nr: how many
 */
struct lc_svg_bars {
	const char *title;
	char subtitle[LC_SVG_TEXT_MAX];
	const char *axis;
	struct lc_svg_bar bars[LC_SVG_MAX_BARS];
	size_t nr;
};

/**
 * struct lc_svg_point - one step of a series plot
 * @label: its number, under the axis
 * @name: its name (a patch), in its tooltip
 * @has_mean: it was measured: @mean is set
 * @mean: the mean of its values
 * @has_interval: @low and @high are set
 * @low: the low end of the mean's interval
 * @high: its high end
 * @new_level: a change point starts here (a red dot)
 */
struct lc_svg_point {
	const char *label;
	const char *name;
	bool has_mean;
	double mean;
	bool has_interval;
	double low;
	double high;
	bool new_level;
};

/**
 * struct lc_svg_change - a change point of a series plot
 * @index: where the new level starts, as an index into the points
 * @tip: its tooltip (the line for a mail)
 */
struct lc_svg_change {
	size_t index;
	const char *tip;
};

/**
 * struct lc_svg_series - a plot of an ordered series' means
 * @title: its title (the series' source)
 * @unit: the values' unit, along the vertical axis ("" for none)
 * @points: the steps, in order
 * @nr: how many
 * @changes: the change points, dashed red lines between two steps
 * @nr_changes: how many
 */
struct lc_svg_series {
	const char *title;
	const char *unit;
	const struct lc_svg_point *points;
	size_t nr;
	const struct lc_svg_change *changes;
	size_t nr_changes;
};

int lc_svg_plot_bars(FILE *out, const struct lc_svg_bars *chart);
int lc_svg_plot_series(FILE *out, const struct lc_svg_series *plot);

#endif /* LTTNG_CALIBRATE_LIB_SVG_H */
