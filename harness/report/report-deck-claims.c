// SPDX-License-Identifier: GPL-2.0
/*
 * The deck's claim pages: a header (the claim, its verdict, the numbers that
 * decided it) over what the claim rests on, drawn with the data the
 * report's plots read (plot-kinds.h): the signals' means per variant with
 * their intervals (the bars' numbers), the generation table of the memcg
 * that tests C1, the key verdicts for C7, the comparability marks for C8.
 * Which page a claim gets is the table at the end.
 */
#include "report-deck-priv.h"
#include "compare.h"
#include "escape.h"
#include "plot-generations.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The header of a claim page: id, title, verdict, the claim; the deciding numbers at the foot. */
static void claim_header(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct claim *c = &d->tab[ci];
	const struct claim_result *r = &d->b->merged[ci];
	_cleanup_free_ char *id = xasprintf("%s  %s", c->id, c->title);
	_cleanup_free_ char *v = deck_upper(claim_state_name(r->state));
	_cleanup_free_ char *sentence = deck_wrap(c->sentence, deck_fit(0.94, 24), 2);
	_cleanup_free_ char *dec = xasprintf("%s: %s", r->has_cmp ? "deciding" : "why", r->why);
	_cleanup_free_ char *w = deck_wrap(dec, deck_fit(0.94, 19), 2);
	_cleanup_free_ char *camp = deck_meta(d->data[s], "campaign", "?");
	_cleanup_free_ char *from = xasprintf("data: %s (campaign %s)", d->src[s].db_path, camp);

	deck_text_at(pg, 0.03, 0.925, "left", 36, true, INK, id);
	deck_text_at(pg, 0.97, 0.925, "right", 36, true, deck_state_color(r->state), v);
	deck_text_at(pg, 0.03, 0.845, "left", 24, false, INK_SOFT, sentence);
	deck_text_at(pg, 0.03, strchr(w, '\n') ? 0.115 : 0.085, "left", 19, false, INK, w);
	deck_text_at(pg, 0.03, 0.028, "left", 15, false, INK_FAINT, from);
}

/* The claim could not be drawn: say so where the plot would be. */
static void no_data_body(struct page *pg, const struct claim *c)
{
	_cleanup_free_ char *hint = xasprintf("measured by: %s", c->plans);

	deck_text_at(pg, 0.5, 0.52, "center", 36, true, RED, "No measured data for this claim");
	deck_text_at(pg, 0.5, 0.41, "center", 26, false, INK_SOFT, hint);
	deck_text_only(pg);
}

static unsigned rgb(const char *hex)
{
	return (unsigned)strtoul(hex + 1, NULL, 16);
}

/*
 * Whether row has a value for the baseline and for a variant of the other
 * LRU, not all zero (kswapd that never woke is not evidence: claims.c).
 */
static bool row_measured(const struct dataset *ds, const struct ds_row *row)
{
	bool cross = false, nonzero = false;

	if (!row->n[ds->base])
		return false;
	for (size_t v = 0; v < ds->nv; v++) {
		cross |= row->n[v] && ds_cross_lru(ds, ds->base, v);
		for (size_t k = 0; k < row->n[v]; k++)
			nonzero |= ds_vals(ds, row, v)[k] != 0;
	}
	return cross && nonzero;
}

/* The rows a signals page draws, the deciding one first; returns how many. */
static size_t signal_rows(const struct claim *c, const struct claim_result *r,
			  const struct dataset *ds, size_t max, size_t *rows)
{
	size_t n = 0;

	if (r->has_cmp && row_measured(ds, &ds->rows[r->row]))
		rows[n++] = r->row;
	for (size_t k = 0; k < CLAIM_MAX_SIGNALS && c->signals[k] && n < max; k++) {
		for (size_t i = 0; i < ds->nrows && n < max; i++) {
			const struct ds_row *row = &ds->rows[i];
			bool dup = false;

			if (strcmp(c->signals[k], row->metric) && strcmp(c->signals[k], row->label))
				continue;
			for (size_t j = 0; j < n; j++)
				dup |= rows[j] == i;
			if (!dup && row_measured(ds, row))
				rows[n++] = i;
		}
	}
	return n;
}

/* A unit for numbers up to top: ns as ms or s, bytes as KiB, MiB or GiB; *ret_div the divisor. */
static const char *slide_unit(const char *unit, double top, double *ret_div)
{
	static const struct {
		const char *unit, *shown;
		double div;
	} scales[] = {
		{ "ns", "s", 1e9 },	     { "ns", "ms", 1e6 },
		{ "ns", "us", 1e3 },	     { "bytes", "GiB", 1 << 30 },
		{ "bytes", "MiB", 1 << 20 }, { "bytes", "KiB", 1 << 10 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(scales); i++)
		if (!strcmp(unit, scales[i].unit) && top >= scales[i].div) {
			*ret_div = scales[i].div;
			return scales[i].shown;
		}
	*ret_div = 1;
	return unit;
}

/* x written for a panel whose values reach top: as many decimals as the scale needs, no more. */
static void slide_num(char *buf, size_t len, double x, double top)
{
	if (top >= 1e7)
		fmt_num(buf, len, x);
	else
		snprintf(buf, len, "%.*f", top >= 100 ? 0 : top >= 10 ? 1 : 2, x);
}

/*
 * The claim's signals, one panel each (at most 3): each variant's mean with
 * its 95% interval, the value written above it; variants in the legend.
 */
static int page_signals(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct claim *c = &d->tab[ci];
	const struct claim_result *r = &d->b->per[s * d->b->n + ci];
	const struct dataset *ds = d->src[s].an->ds;
	size_t nv = ds->nv < DECK_MAX_VARIANTS ? ds->nv : DECK_MAX_VARIANTS;
	size_t maxp = nv <= 3 ? 3 : nv <= 5 ? 2 : 1, rows[DECK_MAX_PANELS], np;
	_cleanup_free_ char *dat = xasprintf("%s.dat", pg->name);
	const char *names[DECK_MAX_VARIANTS], *colors[DECK_MAX_VARIANTS];
	FILE *f;

	/* C2 without MGLRU at a raised swappiness: the signal alone would be C1's evidence */
	np = c->at == CLAIM_AT_RAISED && !r->has_cmp ? 0 : signal_rows(c, r, ds, maxp, rows);
	if (!np) {
		no_data_body(pg, c);
		return 0;
	}
	f = plot_data(&d->pc, dat);
	if (!f)
		return -errno;
	for (size_t v = 0; v < nv; v++) {
		names[v] = ds->v[v].name;
		colors[v] = plot_color(v);
	}
	deck_legend(pg, 0.17, names, colors, nv);
	fprintf(f, "# per panel (index): x, mean, 95%% half-width (0: one value), rgb, \"mean\"; "
		   "in the unit of the panel's title\n");
	fprintf(pg->b,
		"set multiplot layout 1,%zu margins 0.09,0.97,0.25,0.64 spacing 0.09,0\n"
		"set style fill solid 0.9 noborder\nset boxwidth 0.7\nunset xtics\nunset key\n"
		"set xrange [-0.6:%.1f]\nset ytics font ',22'\n",
		np, (double)nv - 0.4);
	for (size_t p = 0; p < np; p++) {
		const struct ds_row *row = &ds->rows[rows[p]];
		_cleanup_free_ char *title = NULL;
		double mean[DECK_MAX_VARIANTS], half[DECK_MAX_VARIANTS], top = 0, bot = 0, div;
		bool have[DECK_MAX_VARIANTS];
		const char *unit;

		for (size_t v = 0; v < nv; v++) {
			have[v] = plot_variant_mean(ds, row, v, &mean[v], &half[v]) == 0;
			if (!have[v])
				continue;
			if (isnan(half[v]))
				half[v] = 0;
			top = fmax(top, mean[v] + half[v]);
			bot = fmin(bot, mean[v]); /* an interval below zero is cut at the axis */
		}
		unit = slide_unit(row->unit, fmax(top, -bot), &div);
		for (size_t v = 0; v < nv; v++) {
			char num[24];

			if (!have[v])
				continue;
			slide_num(num, sizeof(num), mean[v] / div, fmax(top, -bot) / div);
			fprintf(f, "%zu %.6g %.6g %u \"%s\"\n", v, mean[v] / div, half[v] / div,
				rgb(colors[v]), num);
		}
		fprintf(f, "\n\n");
		top /= div;
		bot /= div;
		title = xasprintf("%s%s\n%s, claim: MGLRU %s", row->label,
				  p == 0 && r->has_cmp ? " (deciding)" : "", unit,
				  c->direction < 0 ? "lower" : "higher");
		if (p > 0)
			fprintf(pg->b, "unset label\nunset object\n");
		fprintf(pg->b, "set title ");
		escape_gnuplot(pg->b, title);
		fprintf(pg->b, " font ',22'\nset yrange [%.6g:%.6g]\nset format y \"%s\"\n",
			bot * 1.2, top > 0 ? top * 1.2 : 1,
			fmax(top, -bot) >= 1e4 ? "%.1s%c" : "%g");
		fprintf(pg->b,
			"plot \"%s\" index %zu using 1:2:4 with boxes lc rgb variable notitle, "
			"\"%s\" index %zu using 1:($2-$3):(0):(2*$3) with vectors heads size "
			"screen 0.008,90 lw 2.5 lc rgb '#000000' notitle, \"%s\" index %zu using "
			"1:($2+$3):5 with labels offset 0,0.9 font ',22' notitle\n",
			dat, p, dat, p, dat, p);
	}
	fprintf(pg->b, "unset multiplot\n");
	if (ds->nv > nv)
		deck_text_at(pg, 0.97, 0.028, "right", 15, false, INK_FAINT,
			     "(more variants in report.md)");
	return fclose(f) ? -errno : 0;
}

/* The memcg path of lru_gen rows in run whose last component is name, or NULL (malloc'd). */
static char *gen_memcg(const struct report_data *data, int64_t run, const char *name)
{
	const struct report_run_data *r = report_data__run(data, run);

	for (size_t i = 0; r && i < r->ngens; i++) {
		const char *p = r->gens[i].memcg;
		const char *base = strrchr(p, '/');

		if (!strcmp(base ? base + 1 : p, name))
			return xstrdup(p);
	}
	return NULL;
}

/*
 * C1: the generations of the memcg whose workload decided it, under the
 * MGLRU variant of the deciding comparison (else the first variant that
 * sampled lru_gen): anon and file side by side, youngest at the bottom.
 */
static int page_generations(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct claim *c = &d->tab[ci];
	const struct claim_result *r = &d->b->per[s * d->b->n + ci];
	const struct dataset *ds = d->src[s].an->ds;
	const struct report_data *data = d->data[s];
	_cleanup_free_ char *wl = NULL, *memcg = NULL, *dat = xasprintf("%s.dat", pg->name);
	_cleanup_free_ char *sub = NULL;
	size_t order[DECK_MAX_VARIANTS + 1], no = 0, v = 0;
	int64_t run = -1;
	double pa = 0, pf = 0;
	FILE *f;
	int ret;

	/* the workload: the deciding row's, else the first signal's ("mix:anon_steal_pct") */
	if (r->has_cmp && ds->rows[r->row].result)
		wl = xstrdup(ds->rows[r->row].scope);
	else
		wl = xasprintf("%.*s", (int)strcspn(c->signals[0], ":"), c->signals[0]);
	if (r->has_cmp)
		order[no++] = r->cand; /* the deciding pair's MGLRU variant */
	for (size_t i = 0; i < ds->nv && no < ARRAY_SIZE(order); i++)
		order[no++] = i;
	for (size_t k = 0; k < no && run < 0; k++) {
		v = order[k];
		for (int ri = 0; ri < ds->v[v].measured && run < 0; ri++) {
			memcg = gen_memcg(data, ds->v[v].runs[ri], wl);
			if (memcg)
				run = ds->v[v].runs[ri];
		}
	}
	if (run < 0)
		return -ENODATA;
	f = plot_data(&d->pc, dat);
	if (!f)
		return -errno;
	d->pc.data = data;
	fprintf(f, "# seconds, then MiB stacked by generation (youngest first): "
		   "anon x4, file x4\n");
	ret = plot_generations_data(&d->pc, f, run, memcg, &pa, &pf);
	if (fclose(f) != 0 || ret < 0)
		return ret < 0 ? ret : -EIO;
	if (pa + pf < 1)
		return -ENODATA;
	sub = xasprintf("memcg %s under %s (run %lld): MiB per generation, youngest at the bottom, "
			"over the seconds since the first workload started",
			memcg, ds->v[v].name, (long long)run);
	{
		_cleanup_free_ char *w = deck_wrap(sub, deck_fit(0.94, 20), 1);

		deck_text_at(pg, 0.03, 0.76, "left", 20, false, INK_SOFT, w);
	}
	deck_legend(pg, 0.705, plot_generation_name, plot_generation_color, PLOT_GENERATIONS);
	fprintf(pg->b,
		"set multiplot layout 1,2 margins 0.09,0.97,0.2,0.58 spacing 0.09,0\n"
		"set autoscale xfix\nset ytics font ',22'\nset xtics font ',22'\nunset key\n");
	plot_generations_panel(pg->b, dat, "anon", 2, pa);
	fprintf(pg->b, "unset object\n");
	for (int t = 100; t < pg->tag; t++)
		fprintf(pg->b, "unset label %d\n", t);
	plot_generations_panel(pg->b, dat, "file", 6, pf);
	fprintf(pg->b, "unset multiplot\n");
	return 0;
}

/* Where a key comparison goes on the C7 page: 0 worse, 1 better, 2 changed, 3 same, 4 open. */
static int key_rank(const struct comparison *c)
{
	switch (c->verdict) {
	case VERDICT_REGRESSION:
		return 0;
	case VERDICT_IMPROVEMENT:
		return 1;
	case VERDICT_CHANGED:
		return 2;
	case VERDICT_NO_CHANGE:
		return c->decision == DECISION_WITHIN ? 3 : 4;
	default:
		return 4;
	}
}

/* C7: every key comparison across the LRUs: its change with its interval, coloured by verdict. */
static int page_keys(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct analysis *an = d->src[s].an;
	const struct dataset *ds = an->ds;
	_cleanup_free_ char *dat = xasprintf("%s.dat", pg->name);
	_cleanup_free_ char *xl = NULL;
	_cleanup_free_ char *tics = NULL;
	size_t idx[DECK_MAX_ROWS], n = 0, total = 0, ncand = 0, tlen = 0;
	double xmax = 50, m = 100 * an->o.min_effect;
	FILE *f, *t;

	(void)ci;
	for (size_t v = 0; v < ds->nv; v++)
		ncand += v != ds->base && claims__orientation(ds, v) != 0;
	/* the decided first (worse, better, changed, same), then the open ones */
	for (int rank = 0; rank < 5; rank++) {
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];

			if (!c->key || !claims__orientation(ds, c->cand) ||
			    c->verdict == VERDICT_NO_DATA || c->verdict == VERDICT_TOO_FEW ||
			    key_rank(c) != rank)
				continue;
			total++;
			if (n < DECK_MAX_ROWS)
				idx[n++] = i;
		}
	}
	if (!n)
		return -ENODATA;
	for (size_t k = 0; k < n; k++) {
		const struct comparison *c = &an->c[idx[k]];

		if (isfinite(c->change) && 100 * c->change > xmax)
			xmax = 100 * c->change;
		if (isfinite(c->ci_hi) && 100 * c->ci_hi > xmax)
			xmax = 100 * c->ci_hi;
	}
	xmax = fmin(300, xmax * 1.1);
	f = plot_data(&d->pc, dat);
	if (!f)
		return -errno;
	fprintf(f, "# y, change %%, interval low, high (clipped to the axis), rgb\n");
	t = open_memstream(&tics, &tlen);
	for (size_t k = 0; k < n; k++) {
		const struct comparison *c = &an->c[idx[k]];
		const struct ds_row *row = &ds->rows[c->row];
		double y = (double)(n - 1 - k), x = 100 * c->change, lo = 100 * c->ci_lo,
		       hi = 100 * c->ci_hi;
		const char *word = "open", *col = INK;
		char pct[24];
		_cleanup_free_ char *tic = NULL, *lab = NULL;

		switch (c->verdict) {
		case VERDICT_REGRESSION:
			word = "worse", col = PLOT_REGRESSION;
			break;
		case VERDICT_IMPROVEMENT:
			word = "better", col = PLOT_IMPROVEMENT;
			break;
		case VERDICT_CHANGED:
			word = "changed", col = CHANGED;
			break;
		case VERDICT_NO_CHANGE:
			if (c->decision == DECISION_WITHIN)
				word = "same", col = "#888888";
			break;
		default:
			break;
		}
		/* an unbounded interval spans the axis; a change from zero sits at its end */
		if (!isfinite(lo))
			lo = -100;
		if (!isfinite(hi))
			hi = xmax;
		x = isnan(x) ? NAN : fmax(-100, fmin(xmax, x));
		fprintf(f, "%.1f %.6g %.6g %.6g %u\n", y, x, fmax(-100, lo), fmin(xmax, hi),
			rgb(col));
		tic = ncand > 1 ? xasprintf("%s %s", row->label, ds->v[c->cand].name) :
				  xstrdup(row->label);
		escape_gnuplot(t, tic);
		fprintf(t, " %.1f%s", y, k + 1 < n ? ", " : "");
		fmt_pct(pct, sizeof(pct), c->change);
		lab = xasprintf("%s %s", word, pct);
		fprintf(pg->b, "set label %d ", pg->tag++);
		escape_gnuplot(pg->b, lab);
		fprintf(pg->b, " at graph 1.02, first %.1f left font ',%d' tc rgb '%s' front\n", y,
			n > 10 ? 17 : 19, col);
	}
	fclose(t);
	if (fclose(f) != 0)
		return -errno;
	if (total > n) {
		_cleanup_free_ char *more =
			xasprintf("and %zu more key comparisons (report.md)", total - n);

		deck_text_at(pg, 0.97, 0.028, "right", 15, false, INK_FAINT, more);
	}
	{
		static const char *const names[] = { "worse", "better", "changed", "same", "open" };
		static const char *const colors[] = { PLOT_REGRESSION, PLOT_IMPROVEMENT, CHANGED,
						      "#888888", INK };

		deck_legend(pg, 0.755, names, colors, ARRAY_SIZE(names));
	}
	xl = xasprintf("change against %s (%%), interval at the key level; grey band: +-%.0f%%",
		       ds->v[ds->base].name, m);
	fprintf(pg->b,
		"set lmargin at screen 0.34\nset rmargin at screen 0.80\n"
		"set tmargin at screen 0.70\nset bmargin at screen 0.24\n"
		"set yrange [-0.7:%.1f]\nset xrange [-100:%.6g]\n"
		"set ytics scale 0 font ',%d' (%s)\nset xtics font ',22'\n"
		"set grid xtics noytics\nset xlabel ",
		(double)n - 0.3, xmax, n > 10 ? 17 : 19, tics);
	escape_gnuplot(pg->b, xl);
	fprintf(pg->b,
		" font ',19'\nset object 1 rect from %.6g, graph 0 to %.6g, graph 1 "
		"fc rgb '#e4e4e4' fs solid 1.0 noborder behind\n"
		"set arrow 1 from 0, graph 0 to 0, graph 1 nohead lw 1.5 lc rgb '#555555' back\n"
		"unset key\nplot \"%s\" using 2:1:3:4:5 with xerrorbars pt 7 ps 2 lw 3 "
		"lc rgb variable notitle\n",
		-m, m, dat);
	return 0;
}

/* The first clause of a reason ("MGLRU counts only the folios it isolates"), malloc'd. */
static char *clause(const char *reason)
{
	return xasprintf("%.*s", (int)strcspn(reason, ";:("), reason);
}

/* Whether c is the first not-comparable comparison of its candidate with its row's metric. */
static bool metric_first(const struct analysis *an, const struct comparison *c)
{
	for (const struct comparison *o = an->c; o < c; o++)
		if (o->verdict == VERDICT_NOT_COMPARABLE && o->cand == c->cand &&
		    !strcmp(an->ds->rows[o->row].metric, an->ds->rows[c->row].metric))
			return false;
	return true;
}

/* C8: the measured metrics not comparable across the LRUs: each side's mean, and why. */
static int page_comparability(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct analysis *an = d->src[s].an;
	const struct dataset *ds = an->ds;
	size_t n = 0, total = 0, cand = SIZE_MAX;
	_cleanup_free_ char *sub = NULL;

	(void)ci;
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];

		if (c->verdict != VERDICT_NOT_COMPARABLE || !claims__orientation(ds, c->cand))
			continue;
		if (cand == SIZE_MAX)
			cand = c->cand;
		total += c->cand == cand;
	}
	if (!total)
		return -ENODATA;
	sub = xasprintf("Same counter names, different meanings on %s: the mean per run under each",
			*ds->release ? ds->release : "this kernel");
	{
		_cleanup_free_ char *w = deck_wrap(sub, deck_fit(0.94, 20), 1);

		deck_text_at(pg, 0.03, 0.76, "left", 20, false, INK_SOFT, w);
	}
	deck_text_at(pg, 0.03, 0.685, "left", 20, true, INK, "metric");
	deck_text_at(pg, 0.50, 0.685, "right", 20, true, INK, ds->v[ds->base].name);
	deck_text_at(pg, 0.64, 0.685, "right", 20, true, INK, ds->v[cand].name);
	deck_text_at(pg, 0.67, 0.685, "left", 20, true, INK, "why");
	/* one row per metric first (pgscan of every memcg says one thing), then the rest */
	for (size_t i = 0; i < 2 * an->nc && n < DECK_MAX_NC; i++) {
		const struct comparison *c = &an->c[i % an->nc];
		double y = 0.625 - 0.053 * (double)n;
		char a[24], b[24];
		_cleanup_free_ char *why = NULL, *w = NULL;

		if (c->verdict != VERDICT_NOT_COMPARABLE || c->cand != cand ||
		    (i < an->nc) != metric_first(an, c))
			continue;
		fmt_num(a, sizeof(a), c->base.mean);
		fmt_num(b, sizeof(b), c->cur.mean);
		why = clause(c->reason ? c->reason : "");
		w = deck_wrap(why, deck_fit(0.31, 16), 1);
		deck_text_at(pg, 0.03, y, "left", 20, false, INK, ds->rows[c->row].label);
		deck_text_at(pg, 0.50, y, "right", 20, false, INK, a);
		deck_text_at(pg, 0.64, y, "right", 20, false, INK, b);
		deck_text_at(pg, 0.67, y, "left", 16, false, INK_SOFT, w);
		n++;
	}
	if (total > n) {
		_cleanup_free_ char *more =
			xasprintf("and %zu more (report.md gives each with its source)", total - n);

		deck_text_at(pg, 0.03, 0.625 - 0.053 * (double)n, "left", 17, false, INK_FAINT,
			     more);
	}
	deck_text_only(pg);
	return 0;
}

/* What each claim's page draws; a claim not listed gets its signals' means per variant. */
static const struct {
	const char *claim;
	int (*draw)(struct deck *d, struct page *pg, size_t ci, size_t s);
} claim_pages[] = {
	{ "C1", page_generations },
	{ "C7", page_keys },
	{ "C8", page_comparability },
};

int deck__page_claim(struct deck *d, size_t ci)
{
	const struct claim *c = &d->tab[ci];
	size_t s = d->b->from[ci];
	struct page pg = { 0 };
	_cleanup_free_ char *title = xasprintf("%s: %s", c->id, c->sentence);
	int r = -ENODATA;

	d->pc.data = d->data[s];
	d->pc.an = d->src[s].an;
	for (size_t k = 0; k < ARRAY_SIZE(claim_pages) && r == -ENODATA; k++) {
		if (strcmp(claim_pages[k].claim, c->id))
			continue;
		deck__page_begin(d, &pg, c->id);
		claim_header(d, &pg, ci, s);
		r = claim_pages[k].draw(d, &pg, ci, s);
		if (r == -ENODATA) /* nothing of its own to draw: the signals page instead */
			deck_page_drop(&pg);
	}
	if (r == -ENODATA) {
		deck__page_begin(d, &pg, c->id);
		claim_header(d, &pg, ci, s);
		r = page_signals(d, &pg, ci, s);
	}
	if (r < 0) {
		log_err("deck: page %s: %s", c->id, strerror(-r));
		deck_page_drop(&pg);
		d->page++;
		return r;
	}
	return deck__page_end(d, &pg, title);
}

