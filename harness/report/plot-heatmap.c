// SPDX-License-Identifier: GPL-2.0
/*
 * Heatmap: one row per metric with a better direction, one column per
 * candidate; the cell holds the relative change against the baseline and
 * its colour is the verdict (regression vermillion, improvement blue, no
 * significant change grey); cells without a verdict (not comparable, too
 * few runs) are hatched. The verdict is also written in the cell, for
 * readers and printers without colour.
 */
#include "compare.h"
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

static int render(struct plot_ctx *pc)
{
	const struct analysis *an = pc->an;
	const struct dataset *ds = an->ds;
	_cleanup_free_ size_t *rows = xcalloc(ds->nrows + 1, sizeof(size_t));
	_cleanup_free_ char *body = NULL, *title = NULL;
	size_t nrows = 0, ncand = ds->nv - 1, blen = 0;
	FILE *f, *b;

	if (ds->nv < 2)
		return 0;
	for (size_t i = 0; i < ds->nrows; i++)
		if (ds->rows[i].better != BETTER_NONE)
			rows[nrows++] = i;
	if (!nrows)
		return 0;
	f = plot_data(pc, "heatmap.dat");
	if (!f)
		return -errno;
	fprintf(f, "# x y fill-rgb text-rgb \"label\"; block 0 decided, block 1 not\n");
	for (int undecided = 0; undecided < 2; undecided++) {
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			size_t k, x = c->cand - (c->cand > ds->base);
			unsigned fill = 0xffffff, ink = 0x000000;
			char ch[16], label[48];

			if (verdict_decided(c->verdict) == undecided)
				continue;
			for (k = 0; k < nrows && rows[k] != c->row; k++)
				;
			if (k == nrows)
				continue;
			fmt_pct(ch, sizeof(ch), c->change);
			switch (c->verdict) {
			case VERDICT_REGRESSION:
				fill = 0xD55E00;
				ink = 0xffffff;
				snprintf(label, sizeof(label), "%s worse", ch);
				break;
			case VERDICT_IMPROVEMENT:
				fill = 0x0072B2;
				ink = 0xffffff;
				snprintf(label, sizeof(label), "%s better", ch);
				break;
			case VERDICT_NO_CHANGE:
				fill = 0xD9D9D9;
				snprintf(label, sizeof(label), "%s", ch);
				break;
			default:
				snprintf(label, sizeof(label), "%s", verdict_mark(c->verdict));
			}
			fprintf(f, "%zu %zu %u %u \"%s\"\n", x, nrows - 1 - k, fill, ink, label);
		}
		fprintf(f, "\n\n");
	}
	if (fclose(f) != 0)
		return -EIO;

	b = open_memstream(&body, &blen);
	title = xasprintf("Change against %s, coloured by verdict", ds->v[ds->base].name);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nunset grid\nset border 0\nset tics scale 0\n");
	fprintf(b, "set xrange [-0.5:%.1f]\nset yrange [-0.5:%.1f]\n", (double)ncand - 0.5,
		(double)nrows - 0.5);
	fprintf(b, "set x2tics (");
	for (size_t v = 0, x = 0; v < ds->nv; v++) {
		_cleanup_free_ char *t = NULL;

		if (v == ds->base)
			continue;
		t = xasprintf("%s vs %s", ds->v[v].name, ds->v[ds->base].name);
		escape_gnuplot(b, t);
		fprintf(b, " %zu%s", x, x + 1 < ncand ? ", " : ")\n");
		x++;
	}
	fprintf(b, "unset xtics\nset ytics (");
	for (size_t k = 0; k < nrows; k++) {
		const struct ds_row *r = &ds->rows[rows[k]];
		_cleanup_free_ char *t = xasprintf("%s (%s)", r->label,
						   r->better == BETTER_HIGHER ? "higher" : "lower");

		escape_gnuplot(b, t);
		fprintf(b, " %zu%s", nrows - 1 - k, k + 1 < nrows ? ", " : ")\n");
	}
	fprintf(b,
		"set key at screen 0.5, screen 0.02 center bottom horizontal samplen 1.5 "
		"maxrows 2\nset bmargin %d\nset lmargin at screen 0.5\n",
		ncand > 2 ? 6 : 7);
	fprintf(b,
		"plot \"heatmap.dat\" index 0 using 1:2:(0.49):(0.47):3 with boxxyerror "
		"fs solid 1.0 noborder fc rgb variable notitle, \\\n"
		"  \"heatmap.dat\" index 1 using 1:2:(0.49):(0.47) with boxxyerror "
		"fs pattern 4 border lc rgb '#bbbbbb' lc rgb '#bbbbbb' notitle, \\\n"
		"  \"heatmap.dat\" index 0 using 1:2:5:4 with labels tc rgb variable "
		"font ',14' notitle, \\\n"
		"  \"heatmap.dat\" index 1 using 1:2:5 with labels tc rgb '#555555' "
		"font ',14' notitle, \\\n"
		"  keyentry with boxes fs solid 1.0 fc rgb '%s' title 'regression', \\\n"
		"  keyentry with boxes fs solid 1.0 fc rgb '%s' title 'improvement', \\\n"
		"  keyentry with boxes fs solid 1.0 fc rgb '%s' title 'no significant change', "
		"\\\n"
		"  keyentry with boxes fs pattern 4 fc rgb '#bbbbbb' "
		"title 'no verdict (n/c: not comparable across LRUs; n<2)'\n",
		PLOT_REGRESSION, PLOT_IMPROVEMENT, PLOT_NO_CHANGE);
	fclose(b);
	return plot_render(pc, "heatmap", "", title, body, (int)(1000 + 280 * ncand),
			   (int)(260 + 34 * nrows));
}

PLOT_KIND(heatmap) = {
	.name = "heatmap",
	.what = "relative change per metric and candidate, coloured by verdict",
	.render = render,
};
