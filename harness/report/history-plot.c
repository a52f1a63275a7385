// SPDX-License-Identifier: GPL-2.0
/* Trend plots of the history's key metrics across nights, drawn by gnuplot. */
#include "history-plot.h"
#include "history.h"
#include "spawn.h"
#include "util.h"

#include <math.h>
#include <string.h>

/*
 * The script is fixed text: the data file, outputs, title and labels come in
 * as gnuplot's ARG1..ARG7 (strings it never parses as commands), the variant
 * names as column headers of the data blocks, and text is noenhanced so '_'
 * stays '_'.
 *   ARG1 data  ARG2 png  ARG3 svg  ARG4 blocks  ARG5 title  ARG6 y label
 *   ARG7 the x of each pinned night (one per host class) apart by ' ', or ""
 *   ARG8 "below" puts the legend under the plot (its titles carry host classes)
 */
static const char trend_gp[] =
	"# lrubench history trend plot:\n"
	"# gnuplot -c trend.gp DATA PNG SVG BLOCKS TITLE YLABEL PINS KEY\n"
	"nb = int(ARG4)\n"
	"set title ARG5 noenhanced\n"
	"set ylabel ARG6 noenhanced\n"
	"set xlabel 'night (UTC start)' noenhanced\n"
	"if (ARG8 eq 'below') { set key outside below noenhanced } "
	"else { set key outside right noenhanced }\n"
	"set xtics rotate by -30 noenhanced\n"
	"set offsets 0.3, 0.3, 0, 0\n"
	"set grid ytics\n"
	"do for [i=1:words(ARG7)] {\n"
	"  px = real(word(ARG7, i))\n"
	"  set arrow i from px, graph 0 to px, graph 1 nohead dashtype 2\n"
	"  set label i 'pinned' at px, graph 1 offset 0.5, -1 noenhanced\n"
	"}\n"
	"set terminal pngcairo size 960, 540 noenhanced\n"
	"set output ARG2\n"
	"plot for [i=0:nb-1] ARG1 index i using 1:2:($3 == $3 ? $3 : 0):xtic(4) "
	"with yerrorlines title columnheader(1)\n"
	"set terminal svg size 960, 540 noenhanced\n"
	"set output ARG3\n"
	"replot\n"
	"unset output\n";

/* A file name from a metric: anything but [A-Za-z0-9._-] becomes '_'. */
static char *slug(const char *metric)
{
	char *s = xstrdup(metric);

	for (char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '_';
	return s;
}

/* A name as a double-quoted gnuplot data column: no quotes or control characters inside. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' || (unsigned char)*s < 0x20 ? '_' : *s, f);
	fputc('"', f);
}

/*
 * Write the data of one metric: a block per variant and host class (header
 * "variant", or "variant @ class" when the nights ran on several classes;
 * then x, mean, sd or NaN, "night label"), blocks apart by two blank lines,
 * so nights of two classes are never joined by one line. *ret_blocks counts
 * them, *ret_classes says whether there were several classes.
 */
static int data_write(struct history *h, const char *plan, const char *metric, const char *path,
		      int *ret_blocks, bool *ret_classes)
{
	struct history_point *p = NULL;
	const char *last = NULL, *last_class = NULL;
	bool classes = false;
	size_t n = 0;
	int blocks = 0, r;
	FILE *f;

	r = history__trend(h, plan, metric, &p, &n);
	if (r < 0)
		return r;
	f = fopen(path, "we");
	if (!f) {
		r = -errno;
		history_points__free(p, n);
		return r;
	}
	for (size_t i = 1; i < n; i++)
		classes |= strcmp(p[i].host_class, p[0].host_class) != 0;
	for (size_t i = 0; i < n; i++) {
		if (!last || strcmp(last, p[i].variant) || strcmp(last_class, p[i].host_class)) {
			_cleanup_free_ char *title = classes ? xasprintf("%s @ %s", p[i].variant,
									  p[i].host_class)
							     : xstrdup(p[i].variant);

			fprintf(f, "%s", blocks ? "\n\n" : "");
			put_quoted(f, title);
			fputc('\n', f);
			last = p[i].variant;
			last_class = p[i].host_class;
			blocks++;
		}
		fprintf(f, "%d %.17g ", p[i].x, p[i].mean);
		if (isnan(p[i].sd))
			fprintf(f, "NaN ");
		else
			fprintf(f, "%.17g ", p[i].sd);
		put_quoted(f, p[i].label);
		fputc('\n', f);
	}
	history_points__free(p, n);
	if (fclose(f) != 0)
		r = -errno;
	if (r == 0) {
		*ret_blocks = blocks;
		*ret_classes = classes;
	}
	return r;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int r = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

/* One metric's data and plot; *plots counts the plots written. 0 or -errno. */
static int metric_plot(struct history *h, const char *plan, const struct history_metric *m,
		       const char *dir, const char *gp, const char *pin, FILE *md, size_t *plots,
		       char **ret_err)
{
	_cleanup_free_ char *base = slug(m->metric);
	_cleanup_free_ char *dat = xasprintf("%s/%s.dat", dir, base);
	_cleanup_free_ char *png = xasprintf("%s/%s.png", dir, base);
	_cleanup_free_ char *svg = xasprintf("%s/%s.svg", dir, base);
	_cleanup_free_ char *title = xasprintf("%s: %s (%s is better), mean ± sd per night", plan,
					       m->metric, m->better);
	_cleanup_free_ char *err = NULL;
	char nb[16];
	bool classes = false;
	int blocks = 0, r;

	r = data_write(h, plan, m->metric, dat, &blocks, &classes);
	if (r < 0)
		return r;
	if (!blocks)
		return 0;
	snprintf(nb, sizeof(nb), "%d", blocks);
	{
		const char *argv[] = { "gnuplot", "-c", gp,	  dat, png, svg, nb, title, m->unit,
				       pin,	  classes ? "below" : "right", NULL };
		struct spawn_opts so = { .ret_stderr = &err };

		r = spawn_run(argv, &so);
	}
	if (r == 127 && err && strstr(err, "exec gnuplot"))
		return -ENOENT;
	if (r != 0) {
		if (ret_err)
			*ret_err = xasprintf("gnuplot on %s exited %d: %s", dat, r,
					     err ? strstrip(err) : "");
		return r < 0 ? r : -EIO;
	}
	if (md)
		fprintf(md, "![%s](%s.svg)\n\n", m->metric, base);
	(*plots)++;
	return 0;
}

int history__plot(struct history *h, const char *plan, const char *dir, FILE *md,
		  size_t *ret_plots, char **ret_err)
{
	_cleanup_free_ char *gp = xasprintf("%s/trend.gp", dir), *pin = NULL;
	struct history_metric *metrics = NULL;
	size_t plots = 0, nmetrics = 0;
	int r;

	r = mkdir_p(dir);
	if (r < 0)
		return r;
	r = write_text(gp, trend_gp);
	if (r < 0)
		return r;
	r = history__pinned_x(h, plan, &pin);
	if (r == -ENOENT)
		pin = xstrdup("");
	else if (r < 0)
		return r;
	r = history__key_metrics(h, plan, &metrics, &nmetrics);
	if (r < 0)
		return r;
	for (size_t i = 0; i < nmetrics && r == 0; i++)
		r = metric_plot(h, plan, &metrics[i], dir, gp, pin, md, &plots, ret_err);
	history_metrics__free(metrics, nmetrics);
	if (r < 0)
		return r;
	*ret_plots = plots;
	return 0;
}
