// SPDX-License-Identifier: GPL-2.0
/*
 * The output layer's charts (svg.h): a bar chart and a series plot, in
 * hand-written SVG 1.1 that any browser reads.  Nothing here knows what a
 * bar or a step stands for.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "lc.h"
#include "output.h"
#include "svg.h"

#define LC_SVG_PLOT		580	/* the bars, between the two columns */
#define LC_SVG_PAD		8	/* between a text and what it faces */
#define LC_SVG_MARGIN		10	/* around everything */
#define LC_SVG_FONT		12
#define LC_SVG_TITLE_FONT	15
#define LC_SVG_ROW		26
#define LC_SVG_TOP		70
#define LC_SVG_BAR		16

/* A round step for about @ticks ticks over @span: 1, 2 or 5 times 10^k. */
static double lc_svg_tick_step(double span, int ticks)
{
	double raw = span / ticks;
	double mag = pow(10, floor(log10(raw)));

	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	if (raw <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

/**
 * struct lc_svg_layout - a bar chart's layout
 * @label: width of the labels' column, left of the bars
 * @value: width of the figures' column, right of the bars
 * @width: width of the whole chart
 * @lo: the value at the bars' left end
 * @hi: the value at their right end
 */
struct lc_svg_layout {
	int label;
	int value;
	int width;
	double lo;
	double hi;
};

/*
 * Advance widths of DejaVu Sans, the widest usual sans-serif, in 1/1000
 * of the font size, for ' ' to '~'; cli/tests/bench-check.py holds the
 * same.
 */
static const unsigned short lc_svg_dejavu[] = {
	 318,  401,  460,  838,  636,  950,  780,  275,	/*  !"#$%&' */
	 390,  390,  500,  838,  318,  361,  318,  337,	/* ()*+,-./ */
	 636,  636,  636,  636,  636,  636,  636,  636,	/* 01234567 */
	 636,  636,  337,  337,  838,  838,  838,  531,	/* 89:;<=>? */
	1000,  684,  686,  698,  770,  632,  575,  775,	/* @ABCDEFG */
	 752,  295,  295,  656,  557,  863,  748,  787,	/* HIJKLMNO */
	 603,  787,  695,  635,  611,  732,  684,  989,	/* PQRSTUVW */
	 685,  611,  685,  390,  337,  390,  838,  500,	/* XYZ[\]^_ */
	 500,  613,  635,  550,  635,  615,  352,  635,	/* `abcdefg */
	 634,  278,  278,  579,  278,  974,  634,  612,	/* hijklmno */
	 635,  635,  411,  521,  392,  634,  592,  818,	/* pqrstuvw */
	 592,  592,  525,  636,  337,  636,  838,	/* xyz{|}~ */
};
static_assert(ARRAY_SIZE(lc_svg_dejavu) == '~' - ' ' + 1,
	      "a width for every printable ASCII character");

/*
 * How wide a text may be drawn, in pixels, at most: DejaVu Sans' widths
 * (any other character as wide as the font size), bold a tenth wider,
 * and all of it a fifth wider again.  A viewer draws the chart in a font
 * of its own choosing, whose letters may be wider than DejaVu's: the
 * columns and the chart are sized for that, and a reason is shortened to
 * what is left beside the bars.
 */
static int lc_svg_text_width(const char *s, int size, int bold)
{
	long units = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if ((c & 0xc0) == 0x80)
			continue;		/* inside a UTF-8 sequence */
		if (c >= ' ' && c <= '~')
			units += lc_svg_dejavu[c - ' '];
		else
			units += 1000;
	}
	if (bold)
		units = (units * 11 + 9) / 10;
	return (int)((units * size * 6 + 4999) / 5000);
}

/*
 * @text shortened, at a space, with " ..." after it, until it is no wider
 * than @avail pixels; @len is its buffer's size.
 */
static void lc_svg_fit(char *text, size_t len, int avail)
{
	size_t n = strlen(text);

	if (lc_svg_text_width(text, LC_SVG_FONT, 0) <= avail)
		return;
	while (n > 0) {
		while (n > 0 && text[n - 1] != ' ')
			n--;
		if (n == 0)
			break;
		n--;
		snprintf(text + n, len - n, " ...");
		if (lc_svg_text_width(text, LC_SVG_FONT, 0) <= avail)
			return;
	}
	snprintf(text, len, "...");
}

/* The plot's x coordinate of a value. */
static double lc_svg_x(const struct lc_svg_layout *l, double v)
{
	return l->label + (v - l->lo) / (l->hi - l->lo) * LC_SVG_PLOT;
}

/* The scale, from the bars' figures; 0 always on it. */
static void lc_svg_scale(const struct lc_svg_bars *c, struct lc_svg_layout *l)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		const struct lc_svg_bar *bar = &c->bars[i];

		if (!bar->drawn)
			continue;
		if (bar->value - bar->ci < l->lo)
			l->lo = bar->value - bar->ci;
		if (bar->value + bar->ci > l->hi)
			l->hi = bar->value + bar->ci;
	}
	if (l->hi - l->lo < 1)
		l->hi = l->lo + 1;
	l->hi += (l->hi - l->lo) * 0.02;
	if (l->lo < 0)
		l->lo -= (l->hi - l->lo) * 0.02;
}

/*
 * The scale; the columns, as wide as their longest text; the chart, as
 * wide as its columns and its widest line.
 */
static void lc_svg_layout(const struct lc_svg_bars *c, struct lc_svg_layout *l)
{
	int need, w;
	size_t i;

	memset(l, 0, sizeof(*l));
	lc_svg_scale(c, l);
	for (i = 0; i < c->nr; i++) {
		const struct lc_svg_bar *bar = &c->bars[i];

		w = lc_svg_text_width(bar->label, LC_SVG_FONT, 0);
		if (LC_SVG_MARGIN + w + LC_SVG_PAD > l->label)
			l->label = LC_SVG_MARGIN + w + LC_SVG_PAD;
		if (!bar->drawn)
			continue;
		w = lc_svg_text_width(bar->figures, LC_SVG_FONT, 0);
		if (LC_SVG_PAD + w + LC_SVG_MARGIN > l->value)
			l->value = LC_SVG_PAD + w + LC_SVG_MARGIN;
	}
	l->width = l->label + LC_SVG_PLOT + l->value;
	/* The lines that may be wider: the title and the subtitle. */
	need = LC_SVG_MARGIN + lc_svg_text_width(c->title, LC_SVG_TITLE_FONT, 1);
	w = LC_SVG_MARGIN + lc_svg_text_width(c->subtitle, LC_SVG_FONT, 0);
	need = w > need ? w : need;
	need += LC_SVG_MARGIN;
	if (need > l->width)
		l->width = need;
}

static const char *lc_svg_colour(enum lc_svg_colour colour)
{
	switch (colour) {
	case LC_SVG_BAR_OK:
		return "#4878a8";
	case LC_SVG_BAR_WARN:
		return "#d08030";
	default:
		return "#c04040";
	}
}

/* The grid, its round ticks and the scale's legend. */
static void lc_svg_axis(FILE *out, const struct lc_svg_bars *c,
			const struct lc_svg_layout *l, int height)
{
	double step = lc_svg_tick_step(l->hi - l->lo, 8), v;
	int bottom = height - 40;

	for (v = ceil(l->lo / step) * step; v <= l->hi + step / 1000;
	     v += step) {
		double x = lc_svg_x(l, v);

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n",
			x, LC_SVG_TOP - 6, x, bottom,
			fabs(v) < step / 1000 ? "#000" : "#ddd");
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
			x, bottom + 16, fabs(v) < step / 1000 ? 0 : v);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		l->label + LC_SVG_PLOT / 2, bottom + 34);
	lc_xml_string(out, c->axis);
	fputs("</text>\n", out);
}

static void lc_svg_bar(FILE *out, const struct lc_svg_bar *bar, int y,
		       const struct lc_svg_layout *l)
{
	double x0 = lc_svg_x(l, 0);
	double x = lc_svg_x(l, bar->value);
	double el = lc_svg_x(l, bar->value - bar->ci);
	double er = lc_svg_x(l, bar->value + bar->ci);
	int mid = y + LC_SVG_BAR / 2;
	char text[LC_SVG_TEXT_MAX];

	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
		l->label - LC_SVG_PAD, mid + 4);
	lc_xml_string(out, bar->label);
	fputs("</text>\n", out);
	if (!bar->drawn) {
		fprintf(out, "<text class=\"missing\" x=\"%.1f\" y=\"%d\" fill=\"#888\">",
			x0 + 4, mid + 4);
		snprintf(text, sizeof(text), "%s", bar->missing);
		lc_svg_fit(text, sizeof(text), l->width - LC_SVG_MARGIN -
			   (int)ceil(x0 + 4));
		lc_xml_string(out, text);
		fputs("</text>\n", out);
		return;
	}
	fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
		x < x0 ? x : x0, y, fabs(x - x0), LC_SVG_BAR,
		lc_svg_colour(bar->colour));
	lc_xml_string(out, bar->label);
	lc_xml_string(out, bar->tip);
	fputs("</title></rect>\n", out);
	fprintf(out, "<g class=\"errorbar\" stroke=\"#000\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/></g>\n",
		el, mid, er, mid, el, mid - 5, el, mid + 5, er, mid - 5, er,
		mid + 5);
	fprintf(out, "<text x=\"%d\" y=\"%d\">",
		l->label + LC_SVG_PLOT + LC_SVG_PAD, mid + 4);
	lc_xml_string(out, bar->figures);
	fputs("</text>\n", out);
}

/**
 * lc_svg_plot_bars() - a horizontal bar chart, in SVG
 * @out: where to print
 * @c: the chart
 *
 * One labelled bar per drawn row (its value, its interval as an error
 * bar, its figures at the right), the other rows' text where their bar
 * would be, a scale with round ticks through 0, a title and a subtitle.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_svg_plot_bars(FILE *out, const struct lc_svg_bars *c)
{
	int height = LC_SVG_TOP + (int)c->nr * LC_SVG_ROW + 50;
	struct lc_svg_layout l;
	size_t i;

	lc_svg_layout(c, &l);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%d\">\n",
		l.width, height, l.width, height, LC_SVG_FONT);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		l.width, height);
	fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"%d\" font-weight=\"bold\">",
		LC_SVG_MARGIN, LC_SVG_TITLE_FONT);
	lc_xml_string(out, c->title);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"42\">", LC_SVG_MARGIN);
	lc_xml_string(out, c->subtitle);
	fputs("</text>\n", out);
	lc_svg_axis(out, c, &l, height);
	for (i = 0; i < c->nr; i++)
		lc_svg_bar(out, &c->bars[i], LC_SVG_TOP + (int)i * LC_SVG_ROW,
			   &l);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

/* The series plot: 720 x 400, the plot from (60, 40) to (700, 340). */
#define LC_SVG_SERIES_LEFT	60
#define LC_SVG_SERIES_TOP	40
#define LC_SVG_SERIES_WIDTH	640
#define LC_SVG_SERIES_HEIGHT	300

/**
 * struct lc_svg_frame - a series plot's scale
 * @lo0: the lowest interval's end (or mean) of the steps measured
 * @hi0: the highest
 * @lo: the value at the bottom, a tenth of the span below @lo0
 * @hi: the value at the top, a tenth above @hi0
 * @nr: the steps, one column each
 */
struct lc_svg_frame {
	double lo0;
	double hi0;
	double lo;
	double hi;
	size_t nr;
};

/* A coordinate, to two decimals, as short as it reads. */
static void lc_svg_coord(char *buf, size_t len, double v)
{
	lc_fmt_shortest(buf, len, round(v * 100) / 100);
}

static void lc_svg_series_x(char *buf, size_t len,
			    const struct lc_svg_frame *f, double i)
{
	lc_svg_coord(buf, len, LC_SVG_SERIES_LEFT +
		     (i + 0.5) * ((double)LC_SVG_SERIES_WIDTH / (double)f->nr));
}

static void lc_svg_series_y(char *buf, size_t len,
			    const struct lc_svg_frame *f, double v)
{
	lc_svg_coord(buf, len, LC_SVG_SERIES_TOP + (f->hi - v) /
		     (f->hi - f->lo) * LC_SVG_SERIES_HEIGHT);
}

/* The scale: every step measured, its interval or its mean. */
static void lc_svg_series_frame(const struct lc_svg_series *s,
				struct lc_svg_frame *f)
{
	bool any = false;
	double span;
	size_t i;

	memset(f, 0, sizeof(*f));
	f->nr = s->nr;
	for (i = 0; i < s->nr; i++) {
		const struct lc_svg_point *p = &s->points[i];
		double lo = p->has_interval ? p->low : p->mean;
		double hi = p->has_interval ? p->high : p->mean;

		if (!p->has_mean)
			continue;
		f->lo0 = any && f->lo0 < lo ? f->lo0 : lo;
		f->hi0 = any && f->hi0 > hi ? f->hi0 : hi;
		any = true;
	}
	span = f->hi0 - f->lo0 ? f->hi0 - f->lo0 : 1;
	f->lo = f->lo0 - span * 0.1;
	f->hi = f->hi0 + span * 0.1;
}

/* A step: its number under the axis, its interval, its mean. */
static void lc_svg_series_point(FILE *out, const struct lc_svg_frame *f,
				const struct lc_svg_point *p, size_t i)
{
	char x[32], y1[32], y2[32], mean[40];

	lc_svg_series_x(x, sizeof(x), f, (double)i);
	fprintf(out, "<text x=\"%s\" y=\"355\" text-anchor=\"middle\">", x);
	lc_xml_string(out, p->label);
	fputs("</text>\n", out);
	if (!p->has_mean)
		return;
	if (p->has_interval) {
		lc_svg_series_y(y1, sizeof(y1), f, p->low);
		lc_svg_series_y(y2, sizeof(y2), f, p->high);
		fprintf(out, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"gray\"/>\n",
			x, y1, x, y2);
	}
	lc_svg_series_y(y1, sizeof(y1), f, p->mean);
	fprintf(out, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"><title>",
		x, y1, p->new_level ? "red" : "black");
	lc_xml_string(out, p->name);
	lc_fmt_d1(mean, sizeof(mean), p->mean);
	fprintf(out, ": %s</title></circle>\n", mean);
}

/**
 * lc_svg_plot_series() - the means of an ordered series, in SVG
 * @out: where to print
 * @s: the series
 *
 * One column per step: its number under the axis, its mean as a dot (red
 * where a new level starts), its interval as a grey line; a dashed red
 * line between the two steps of each change point, its tooltip the line
 * for a mail; the extreme values of the scale on the vertical axis, the
 * unit along it.
 *
 * Return: 0, or -1 on an output error.
 */
int lc_svg_plot_series(FILE *out, const struct lc_svg_series *s)
{
	char a[32], b[40];
	struct lc_svg_frame f;
	size_t i;

	lc_svg_series_frame(s, &f);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"400\" font-family=\"sans-serif\" font-size=\"11\">\n<title>",
	      out);
	lc_xml_string(out, s->title);
	fputs("</title>\n<rect width=\"720\" height=\"400\" fill=\"white\"/>\n<text x=\"360\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">",
	      out);
	lc_xml_string(out, s->title);
	fputs("</text>\n<line x1=\"60\" y1=\"340\" x2=\"700\" y2=\"340\" stroke=\"black\"/>\n<line x1=\"60\" y1=\"40\" x2=\"60\" y2=\"340\" stroke=\"black\"/>\n",
	      out);
	lc_svg_series_y(a, sizeof(a), &f, f.hi0);
	lc_fmt_d1(b, sizeof(b), f.hi0);
	fprintf(out, "<text x=\"55\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
		a, b);
	lc_svg_series_y(a, sizeof(a), &f, f.lo0);
	lc_fmt_d1(b, sizeof(b), f.lo0);
	fprintf(out, "<text x=\"55\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
		a, b);
	fputs("<text x=\"15\" y=\"190\" transform=\"rotate(-90 15 190)\" text-anchor=\"middle\">",
	      out);
	lc_xml_string(out, s->unit);
	fputs("</text>\n", out);
	for (i = 0; i < s->nr_changes; i++) {
		lc_svg_series_x(a, sizeof(a), &f,
				(double)s->changes[i].index - 0.5);
		fprintf(out, "<line x1=\"%s\" y1=\"40\" x2=\"%s\" y2=\"340\" stroke=\"red\" stroke-dasharray=\"4 3\"><title>",
			a, a);
		lc_xml_string(out, s->changes[i].tip);
		fputs("</title></line>\n", out);
	}
	for (i = 0; i < s->nr; i++)
		lc_svg_series_point(out, &f, &s->points[i], i);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
