// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim balance: of the pages reclaimed in a run (vmstat pgsteal_anon and
 * pgsteal_file, global and memcg reclaim), the share that was anon. One
 * stacked bar per variant (the mean of its runs' shares, with the absolute
 * counts written in), and when the variants differ in vm.swappiness, a
 * second image of the anon share against swappiness, one line per LRU mode,
 * with the 95% interval of each variant's mean share.
 */
#include "compare.h"
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct share {
	struct stats_summary s; /* of the per-run anon share, in % */
	double anon, file; /* mean pages */
	bool ok;
};

static const struct ds_row *row_named(const struct dataset *ds, const char *label)
{
	for (size_t i = 0; i < ds->nrows; i++)
		if (!strcmp(ds->rows[i].label, label))
			return &ds->rows[i];
	return NULL;
}

static struct share share_of(const struct dataset *ds, size_t v)
{
	const struct ds_row *a = row_named(ds, "vmstat:pgsteal_anon");
	const struct ds_row *f = row_named(ds, "vmstat:pgsteal_file");
	struct share sh = { .ok = false };
	double pct[64];
	size_t n = 0;

	if (!a || !f || a->n[v] != f->n[v])
		return sh;
	for (size_t i = 0; i < a->n[v] && n < ARRAY_SIZE(pct); i++) {
		double x = ds_vals(ds, a, v)[i], y = ds_vals(ds, f, v)[i];

		sh.anon += x / (double)a->n[v];
		sh.file += y / (double)a->n[v];
		if (x + y > 0)
			pct[n++] = 100 * x / (x + y);
	}
	if (n && stats__summary(pct, n, &sh.s) == 0)
		sh.ok = true;
	return sh;
}

static int balance_bars(struct plot_ctx *pc, const struct share *sh)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *body = NULL;
	const char *title = "Reclaim balance: share of reclaimed pages that were anon or file";
	size_t blen = 0, drawn = 0;
	FILE *f, *b;

	f = plot_data(pc, "balance.dat");
	if (!f)
		return -errno;
	fprintf(f, "# x, anon %%, file %%, mean anon pages, mean file pages\n");
	for (size_t v = 0; v < ds->nv; v++) {
		if (!sh[v].ok)
			continue;
		fprintf(f, "%zu %.4g %.4g %.0f %.0f\n", v, sh[v].s.mean, 100 - sh[v].s.mean,
			sh[v].anon, sh[v].file);
		drawn++;
	}
	if (fclose(f) != 0)
		return -EIO;
	if (!drawn)
		return 0;
	b = open_memstream(&body, &blen);
	fprintf(b, "set title \"%s\"\nset ylabel \"%% of pages reclaimed (pgsteal)\"\n", title);
	fprintf(b,
		"set yrange [0:112]\nset ytics 0, 20, 100\nset xrange [-0.6:%.1f]\n"
		"set boxwidth 0.6\n",
		(double)ds->nv - 0.4);
	fprintf(b, "set key outside right top\nset xtics scale 0 (");
	for (size_t v = 0; v < ds->nv; v++) {
		_cleanup_free_ char *t = xasprintf("%s%s", ds->v[v].name, v == ds->base ? "*" : "");

		escape_gnuplot(b, t);
		fprintf(b, " %zu%s", v, v + 1 < ds->nv ? ", " : ")\n");
	}
	for (size_t v = 0; v < ds->nv; v++) {
		double anon = sh[v].s.mean, file = 100 - anon;
		char a[24], fl[24];

		if (!sh[v].ok)
			continue;
		fmt_num(a, sizeof(a), sh[v].anon);
		fmt_num(fl, sizeof(fl), sh[v].file);
		/* a thin band gets its label beside it, in the dark */
		fprintf(b,
			"set label \"anon %.0f%%\\n%s pages\" at %zu, %.4g center front "
			"tc rgb '%s' font ',14'\n",
			anon, a, v, anon < 12 ? anon + 5 : anon / 2,
			anon < 12 ? "#000000" : "#ffffff");
		fprintf(b,
			"set label \"file %.0f%%\\n%s pages\" at %zu, %.4g center front "
			"tc rgb '#000000' font ',14'\n",
			file, fl, v, file < 12 ? 106.0 : anon + file / 2);
	}
	fprintf(b, "plot \"balance.dat\" using 1:($2+$3) with boxes lc rgb '#E69F00' "
		   "title \"file\", \"balance.dat\" using 1:2 with boxes lc rgb '#0072B2' "
		   "title \"anon\"\n");
	fclose(b);
	return plot_render(pc, "balance", "", title, body, 1280, 720);
}

static int balance_swappiness(struct plot_ctx *pc, const struct share *sh)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *body = NULL;
	_cleanup_free_ const char **lrus = xcalloc(ds->nv + 1, sizeof(char *));
	const char *title = "Anon share of reclaim against vm.swappiness, per LRU mode";
	size_t blen = 0, nlru = 0, nswp = 0;
	int first = -2;
	FILE *f, *b;

	for (size_t v = 0; v < ds->nv; v++) {
		int s = ds_swappiness(&ds->v[v]);

		if (s < 0 || !sh[v].ok)
			continue;
		if (first == -2)
			first = s;
		nswp += s != first;
	}
	if (!nswp) /* not a sweep */
		return 0;
	f = plot_data(pc, "balance-swappiness.dat");
	if (!f)
		return -errno;
	b = open_memstream(&body, &blen);
	fprintf(f, "# swappiness, anon %% mean, 95%% half-width; one block per LRU mode\n");
	for (size_t v = 0; v < ds->nv; v++) {
		bool seen = false;

		for (size_t i = 0; i < nlru; i++)
			seen |= !strcmp(lrus[i], ds->v[v].lru);
		if (!seen)
			lrus[nlru++] = ds->v[v].lru;
	}
	fprintf(b,
		"set title \"%s\"\nset xlabel \"vm.swappiness\"\nset ylabel \"anon %% of "
		"pages reclaimed\"\nset yrange [0:100]\nset key outside right top\nplot ",
		title);
	for (size_t l = 0; l < nlru; l++) {
		/* points of this mode in swappiness order */
		for (int s = 0; s <= 200; s++)
			for (size_t v = 0; v < ds->nv; v++)
				if (!strcmp(ds->v[v].lru, lrus[l]) && sh[v].ok &&
				    ds_swappiness(&ds->v[v]) == s)
					fprintf(f, "%d %.4g %.4g\n", s, sh[v].s.mean,
						stats__mean_ci_half(sh[v].s.n, sh[v].s.sd, 0.95));
		fprintf(f, "\n\n");
		fprintf(b,
			"%s\"balance-swappiness.dat\" index %zu using 1:2:3 with yerrorlines "
			"lw 2.5 pt 7 ps 1.5 lc rgb '%s' title ",
			l ? ", " : "", l, plot_color(l));
		escape_gnuplot(b, lrus[l]);
	}
	fprintf(b, "\n");
	fclose(b);
	if (fclose(f) != 0)
		return -EIO;
	return plot_render(pc, "balance-swappiness", "", title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ struct share *sh = xcalloc(ds->nv + 1, sizeof(*sh));

	for (size_t v = 0; v < ds->nv; v++)
		sh[v] = share_of(ds, v);
	balance_bars(pc, sh);
	balance_swappiness(pc, sh);
	return 0;
}

PLOT_KIND(balance) = {
	.name = "balance",
	.what = "anon/file share of reclaim per variant, and against swappiness when "
		"the variants sweep it",
	.render = render,
};
