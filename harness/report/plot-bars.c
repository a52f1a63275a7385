// SPDX-License-Identifier: GPL-2.0
/*
 * Bars: per group (a workload, a memcg, the system), every metric with a
 * better direction, one horizontal bar per variant: its mean as a
 * percentage of the baseline's, with the 95% t interval of that mean. The
 * metric's label carries the baseline's absolute mean and unit; a
 * candidate's verdict is written beside its bar. Metrics not comparable across the LRUs of the
 * campaign are left out (the tables show them with the reason).
 */
#include "compare.h"
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

static const struct comparison *cmp_of(const struct analysis *an, size_t row, size_t cand)
{
	for (size_t i = 0; i < an->nc; i++)
		if (an->c[i].row == row && an->c[i].cand == cand)
			return &an->c[i];
	return NULL;
}

/* Whether row belongs in the bars: a direction, a baseline to divide by, comparable. */
static bool row_plotted(const struct analysis *an, size_t ri)
{
	const struct dataset *ds = an->ds;
	const struct ds_row *r = &ds->rows[ri];
	struct stats_summary s;

	if (r->better == BETTER_NONE || !r->n[ds->base])
		return false;
	stats__summary(ds_vals(ds, r, ds->base), r->n[ds->base], &s);
	if (s.mean == 0)
		return false;
	for (size_t v = 0; v < ds->nv; v++) {
		const struct comparison *c = v == ds->base ? NULL : cmp_of(an, ri, v);

		if (c && c->verdict == VERDICT_NOT_COMPARABLE)
			return false;
	}
	return true;
}

static int bars_group(struct plot_ctx *pc, size_t gi, const char *group)
{
	const struct analysis *an = pc->an;
	const struct dataset *ds = an->ds;
	_cleanup_free_ size_t *rows = xcalloc(ds->nrows + 1, sizeof(size_t));
	_cleanup_free_ char *gname = escape_filename(group);
	_cleanup_free_ char *name = xasprintf("bars-%zu-%s", gi, gname);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *title = NULL;
	size_t nrows = 0, blen = 0;
	double top = 0, ymax = 0, cap, bw;
	FILE *f, *b;

	for (size_t i = 0; i < ds->nrows; i++)
		if (!strcmp(ds->rows[i].group, group) && row_plotted(an, i))
			rows[nrows++] = i;
	if (!nrows)
		return 0;
	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	b = open_memstream(&body, &blen);
	bw = 0.8 / (double)ds->nv;
	fprintf(f,
		"# %s: y, mean as %% of the baseline, 95%% CI half-width; one block per "
		"variant\n",
		group);
	/* horizontal bars: metric k from the top, the baseline's bar first */
	for (size_t v = 0; v < ds->nv; v++) {
		double off = 0.4 - bw * ((double)v + 0.5);

		fprintf(f, "# variant %zu\n", v);
		for (size_t k = 0; k < nrows; k++) {
			const struct ds_row *row = &ds->rows[rows[k]];
			const struct comparison *c = v == ds->base ? NULL : cmp_of(an, rows[k], v);
			double y0 = (double)(nrows - 1 - k) + off;
			double x = NAN, e = NAN, mb, hb, mv, hv;

			plot_variant_mean(ds, row, ds->base, &mb, &hb);
			if (plot_variant_mean(ds, row, v, &mv, &hv) == 0) {
				x = 100 * mv / fabs(mb);
				e = 100 * hv / fabs(mb);
			}
			fprintf(f, "%.3f %.6g %.6g\n", y0, x, e);
			if (isfinite(x) && x > ymax)
				ymax = x;
			if (isfinite(x) && (isfinite(e) ? x + e : x) > top)
				top = isfinite(e) ? x + e : x;
			if (c && (c->verdict == VERDICT_REGRESSION ||
				  c->verdict == VERDICT_IMPROVEMENT)) {
				bool reg = c->verdict == VERDICT_REGRESSION;

				fprintf(b,
					"set label \"%s\" at %.6g, %.3f left offset 1,0 "
					"font ',14' tc rgb '%s' front\n",
					reg ? "worse" : "better", isfinite(e) ? x + e : x, y0,
					reg ? PLOT_REGRESSION : PLOT_IMPROVEMENT);
			}
		}
		fprintf(f, "\n\n");
	}
	if (fclose(f) != 0) {
		fclose(b);
		return -EIO;
	}
	/* wide intervals (n = 2 has t = 12.7) may run off the right edge */
	cap = fmin(top, 3 * ymax) * 1.15;
	if (cap < 120)
		cap = 120;
	title = xasprintf("%s: mean as %% of %s, with 95%% intervals",
			  group, ds->v[ds->base].name);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel ");
	{
		_cleanup_free_ char *xl = xasprintf("%% of %s", ds->v[ds->base].name);

		escape_gnuplot(b, xl);
	}
	fprintf(b, "\nset yrange [-0.6:%.1f]\nset xrange [0:%.6g]\n", (double)nrows - 0.4, cap);
	fprintf(b, "set grid xtics noytics\nset key outside top center horizontal\n"
		   "set ytics scale 0 (");
	for (size_t k = 0; k < nrows; k++) {
		const struct ds_row *row = &ds->rows[rows[k]];
		const char *key = strchr(row->label, ':');
		struct stats_summary sb;
		char num[24];
		_cleanup_free_ char *tic = NULL;

		stats__summary(ds_vals(ds, row, ds->base), row->n[ds->base], &sb);
		fmt_num(num, sizeof(num), sb.mean);
		/* "throughput (higher)\n31927 ops/s" */
		tic = xasprintf("%s (%s)\n%s %s", row->result && key ? key + 1 : row->label,
				row->better == BETTER_HIGHER ? "higher" : "lower", num, row->unit);
		escape_gnuplot(b, tic);
		fprintf(b, " %zu%s", nrows - 1 - k, k + 1 < nrows ? ", " : ")\n");
	}
	fprintf(b, "set arrow from first 100, graph 0 to first 100, graph 1 nohead lw 2 dt 2 "
		   "lc rgb '#555555' front\n");
	fprintf(b, "plot ");
	for (size_t v = 0; v < ds->nv; v++) {
		_cleanup_free_ char *t = xasprintf("%s%s", ds->v[v].name, v == ds->base ? "*" : "");

		fprintf(b,
			"%s\"%s\" index %zu using (0):1:(0):2:($1-%.4f):($1+%.4f) "
			"with boxxyerror lc rgb '%s' title ",
			v ? ", " : "", dat, v, bw * 0.45, bw * 0.45, plot_color(v));
		escape_gnuplot(b, t);
		fprintf(b,
			", \"%s\" index %zu using ($2-$3):1:(2*$3):(0) with vectors heads "
			"size screen 0.006,90 lw 2 lc rgb '#000000' notitle",
			dat, v);
	}
	fprintf(b, "\n");
	fclose(b);
	return plot_render(pc, name, group, title, body, 1280,
			   (int)(170 + nrows * (28 * ds->nv + 34)));
}

static int render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ const char **seen = xcalloc(ds->nrows + 1, sizeof(char *));
	size_t nseen = 0;

	if (ds->nv < 1)
		return 0;
	/* groups in the order the dataset meets them: workloads first */
	for (size_t i = 0; i < ds->nrows; i++) {
		bool dup = false;

		for (size_t j = 0; j < nseen; j++)
			dup |= !strcmp(seen[j], ds->rows[i].group);
		if (dup)
			continue;
		seen[nseen] = ds->rows[i].group;
		bars_group(pc, nseen++, ds->rows[i].group);
	}
	return 0;
}

PLOT_KIND(bars) = {
	.name = "bars",
	.what = "per workload (and memcg, system): each metric's mean per variant "
		"relative to the baseline, with 95% intervals",
	.render = render,
};
