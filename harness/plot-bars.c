// SPDX-License-Identifier: GPL-2.0
/*
 * Bars: per group (a workload, a memcg, the system), every metric with a
 * better direction, one bar per variant: its mean as a percentage of the
 * baseline's, with the 95% t interval of that mean. The tick label carries
 * the baseline's absolute mean and unit; a candidate's verdict is written
 * above its bar. Metrics not comparable across the LRUs of the campaign are
 * left out (the tables show them with the reason).
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
	int r;

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
	fprintf(f, "# %s: x, mean as %% of the baseline, 95%% CI half-width; one block per "
		   "variant\n",
		group);
	for (size_t v = 0; v < ds->nv; v++) {
		double off = -0.4 + bw * ((double)v + 0.5);

		fprintf(f, "# variant %zu\n", v);
		for (size_t k = 0; k < nrows; k++) {
			const struct ds_row *row = &ds->rows[rows[k]];
			const struct comparison *c = v == ds->base ? NULL : cmp_of(an, rows[k], v);
			struct stats_summary sb, sv = { 0 };
			double y = NAN, e = NAN;

			stats__summary(ds_vals(ds, row, ds->base), row->n[ds->base], &sb);
			if (row->n[v]) {
				stats__summary(ds_vals(ds, row, v), row->n[v], &sv);
				y = 100 * sv.mean / fabs(sb.mean);
				e = 100 * stats__mean_ci_half(sv.n, sv.sd, 0.95) / fabs(sb.mean);
			}
			fprintf(f, "%.3f %.6g %.6g\n", (double)k + off, y, e);
			if (isfinite(y) && y > ymax)
				ymax = y;
			if (isfinite(y) && (isfinite(e) ? y + e : y) > top)
				top = isfinite(e) ? y + e : y;
			if (c && (c->verdict == VERDICT_REGRESSION ||
				  c->verdict == VERDICT_IMPROVEMENT)) {
				bool reg = c->verdict == VERDICT_REGRESSION;

				fprintf(b, "set label \"%s\" at %.3f, %.6g center offset 0,0.8 "
					   "font ',13' tc rgb '%s' front\n",
					reg ? "worse" : "better", (double)k + off,
					isfinite(e) ? y + e : y,
					reg ? PLOT_REGRESSION : PLOT_IMPROVEMENT);
			}
		}
		fprintf(f, "\n\n");
	}
	if (fclose(f) != 0) {
		fclose(b);
		return -EIO;
	}
	cap = fmin(top, 3 * ymax) * 1.12;
	if (cap < 115)
		cap = 115;
	title = xasprintf("%s: mean per variant as %% of %s (95%% interval of the mean)", group,
			  ds->v[ds->base].name);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset ylabel ");
	{
		_cleanup_free_ char *yl = xasprintf("%% of %s", ds->v[ds->base].name);

		escape_gnuplot(b, yl);
	}
	fprintf(b, "\nset xrange [-0.6:%.1f]\nset yrange [0:%.6g]\n", (double)nrows - 0.4, cap);
	fprintf(b, "set boxwidth %.4f absolute\n", bw * 0.92);
	fprintf(b, "set key top right box opaque\nset xtics scale 0%s (",
		nrows > 6 ? " rotate by -25" : "");
	for (size_t k = 0; k < nrows; k++) {
		const struct ds_row *row = &ds->rows[rows[k]];
		const char *key = strchr(row->label, ':');
		struct stats_summary sb;
		char num[24];
		_cleanup_free_ char *tic = NULL;

		stats__summary(ds_vals(ds, row, ds->base), row->n[ds->base], &sb);
		fmt_num(num, sizeof(num), sb.mean);
		/* "throughput (higher)\n57396 ops/s" */
		tic = xasprintf("%s (%s)\n%s %s", row->result && key ? key + 1 : row->label,
				row->better == BETTER_HIGHER ? "higher" : "lower", num, row->unit);
		escape_gnuplot(b, tic);
		fprintf(b, " %zu%s", k, k + 1 < nrows ? ", " : ")\n");
	}
	fprintf(b, "set arrow from graph 0, first 100 to graph 1, first 100 nohead lw 2 dt 2 "
		   "lc rgb '#555555' back\n");
	fprintf(b, "plot ");
	for (size_t v = 0; v < ds->nv; v++) {
		_cleanup_free_ char *t = xasprintf("%s%s", ds->v[v].name, v == ds->base ? "*" : "");

		fprintf(b, "%s\"%s\" index %zu using 1:2 with boxes lc rgb '%s' title ", v ? ", " : "",
			dat, v, plot_color(v));
		escape_gnuplot(b, t);
		fprintf(b, ", \"%s\" index %zu using 1:2:3 with yerrorbars lc rgb '#000000' lw 2 "
			   "ps 0 notitle",
			dat, v);
	}
	fprintf(b, "\n");
	fclose(b);
	r = plot_render(pc, name, group, title, body, nrows > 8 ? (int)(140 * nrows + 160) : 1280,
			720);
	return r;
}

int plot_bars(struct plot_ctx *pc)
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
