// SPDX-License-Identifier: GPL-2.0
/*
 * The deck (report-deck.h). Text pages are gnuplot labels on an empty
 * plot; claim pages draw what the claim rests on with the data the
 * report's plots read (plot-kinds.h): the signals' means per variant with
 * their intervals (the bars' numbers), the generation table of the memcg
 * that tests C1, the key verdicts for C7, the comparability marks for C8.
 * Each page is one pdfcairo PDF in DIR/deck/; pdfunite joins them.
 */
#include "report-deck.h"
#include "claims.h"
#include "compare.h"
#include "escape.h"
#include "plot-kinds.h"
#include "spawn.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DECK_MAX_VARIANTS 8 /* series on a page */
#define DECK_MAX_PANELS 3
#define DECK_MAX_ROWS 14 /* rows of the key verdicts page */
#define DECK_MAX_NC 8	 /* rows of the comparability page */
#define DECK_MAX_SOURCES 6 /* databases named on the provenance page */

#define INK "#000000"
#define INK_SOFT "#444444"
#define INK_FAINT "#777777"
#define RED "#D55E00"

struct deck {
	const struct deck_source *src;
	size_t nsrc;
	const struct claims_board *b;
	const struct claim *tab;
	struct plot_set set;
	struct plot_ctx pc;
	size_t page; /* pages drawn so far */
};

/* One page being written: its name (file names without extension) and gnuplot body. */
struct page {
	char *name;
	char *body;
	size_t len;
	FILE *b;
	int tag; /* the next label's tag: explicit, so that drawing code's own labels keep theirs */
};

size_t deck__pages(void)
{
	size_t n;

	claims__table(&n);
	return n + 3;
}

static const char *state_color(enum claim_state s)
{
	switch (s) {
	case CLAIM_SUPPORTED:
		return "#009E73";
	case CLAIM_CONTRADICTED:
		return RED;
	case CLAIM_INCONCLUSIVE:
		break;
	}
	return "#666666";
}

static char *upper(const char *s)
{
	char *u = xstrdup(s);

	for (char *p = u; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return u;
}

/* s folded at spaces into lines of at most width bytes, at most lines of them; "..." marks a cut. */
static char *wrap(const char *s, size_t width, size_t lines)
{
	_cleanup_free_ char *copy = xstrdup(s);
	char *out = NULL, *save = NULL;
	size_t len = 0, col = 0, line = 1;
	FILE *f = open_memstream(&out, &len);

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t wl = strlen(w);

		if (col && col + 1 + wl > width) {
			if (line == lines) {
				fputs(" ...", f);
				break;
			}
			fputc('\n', f);
			line++;
			col = 0;
		}
		if (wl > width) { /* a word longer than a line: cut it */
			fprintf(f, "%s%.*s...", col ? " " : "", (int)(width - 3), w);
			col = width;
			continue;
		}
		fprintf(f, "%s%s", col ? " " : "", w);
		col += (col ? 1 : 0) + wl;
	}
	fclose(f);
	return out;
}

/* About how many characters of sans at pt points fill frac of the page's width. */
static size_t fit(double frac, int pt)
{
	return (size_t)(frac * 2700 / pt);
}

static void page_begin(struct deck *d, struct page *pg, const char *what)
{
	*pg = (struct page){ .tag = 100 };
	pg->name = xasprintf("page-%02zu-%s", d->page + 1, what);
	pg->b = open_memstream(&pg->body, &pg->len);
}

static void page_drop(struct page *pg)
{
	if (pg->b)
		fclose(pg->b);
	free(pg->body);
	free(pg->name);
	*pg = (struct page){ 0 };
}

/* Render the page; a failure is counted in the plot set (and fails the deck). */
static int page_end(struct deck *d, struct page *pg, const char *title)
{
	int r;

	fclose(pg->b);
	pg->b = NULL;
	r = plot_render(&d->pc, pg->name, "", title, pg->body, 0, 0);
	d->page++;
	page_drop(pg);
	return r;
}

/* A label at screen x, y; just is left, center or right. */
static void text_at(struct page *pg, double x, double y, const char *just, int pt, bool bold,
		    const char *color, const char *text)
{
	fprintf(pg->b, "set label %d ", pg->tag++);
	escape_gnuplot(pg->b, text);
	fprintf(pg->b, " at screen %.4f, screen %.4f %s font '%s,%d' tc rgb '%s' front\n", x, y,
		just, bold ? "sans:Bold" : "sans", pt, color);
}

/* Nothing but the labels: an empty plot over the whole page. */
static void text_only(struct page *pg)
{
	fprintf(pg->b, "unset border\nunset tics\nunset key\nunset grid\n"
		       "set lmargin at screen 0\nset rmargin at screen 1\n"
		       "set tmargin at screen 1\nset bmargin at screen 0\n"
		       "set xrange [0:1]\nset yrange [0:1]\nplot -1 notitle\n");
}

/* A store's meta value, or def (malloc'd). */
static char *meta(struct store *st, const char *key, const char *def)
{
	char *v = NULL;

	if (store__meta_get(st, key, &v) < 0 || !v || !*v) {
		free(v);
		return xstrdup(def);
	}
	return v;
}

/* Distinct values joined by ", ": distinct_add() each, distinct_end() the text (malloc'd). */
struct distinct {
	char *out;
	size_t len, n;
	FILE *f;
};

static void distinct_add(struct distinct *d, const char *v)
{
	if (!d->f)
		d->f = open_memstream(&d->out, &d->len);
	fflush(d->f);
	if (!v || !*v || (d->out && strstr(d->out, v)))
		return;
	fprintf(d->f, "%s%s", d->n++ ? ", " : "", v);
}

static char *distinct_end(struct distinct *d)
{
	if (d->f)
		fclose(d->f);
	if (!d->n) {
		free(d->out);
		return xstrdup("unknown");
	}
	return d->out;
}

/* The distinct values of a run provenance key over the sources (malloc'd). */
static char *prov_values(const struct deck *d, const char *key)
{
	struct distinct all = { 0 };

	for (size_t s = 0; s < d->nsrc; s++) {
		sqlite3_stmt *q = NULL;

		if (sqlite3_prepare_v2(store__db(d->src[s].st),
				       "SELECT DISTINCT value FROM run_prov WHERE key = ? ORDER BY value",
				       -1, &q, NULL) != SQLITE_OK)
			continue;
		sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
		while (sqlite3_step(q) == SQLITE_ROW)
			distinct_add(&all, (const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
	}
	return distinct_end(&all);
}

/* The distinct values of a meta key over the sources (malloc'd). */
static char *meta_values(const struct deck *d, const char *key)
{
	struct distinct all = { 0 };

	for (size_t s = 0; s < d->nsrc; s++) {
		_cleanup_free_ char *v = meta(d->src[s].st, key, "");

		distinct_add(&all, v);
	}
	return distinct_end(&all);
}

/* "2026-12-05 16:06 UTC" of a meta created (seconds since the epoch). */
static void fmt_date(char *buf, size_t len, const char *epoch)
{
	time_t t = (time_t)strtoll(epoch, NULL, 10);
	struct tm tm;

	if (t <= 0 || !gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "unknown date");
}

/* "7.2.22" from "QEMU emulator version 7.2.22 (Debian ...)" (malloc'd). */
static char *qemu_short(const char *v)
{
	const char *p = strstr(v, "version ");

	if (!p)
		return xstrdup(v);
	p += strlen("version ");
	return xasprintf("%.*s", (int)strcspn(p, " "), p);
}

static void counts(const struct deck *d, size_t *sup, size_t *con, size_t *inc)
{
	*sup = *con = *inc = 0;
	for (size_t c = 0; c < d->b->n; c++) {
		enum claim_state s = d->b->merged[c].state;

		*sup += s == CLAIM_SUPPORTED;
		*con += s == CLAIM_CONTRADICTED;
		*inc += s == CLAIM_INCONCLUSIVE;
	}
}

static const char no_data[] = "NO CLAIM MEASURED: no classic/MGLRU comparison with 2 blocks";

static int page_title(struct deck *d)
{
	struct page pg;
	_cleanup_free_ char *hosts = NULL;
	char kernels[256] = "";
	_cleanup_free_ char *accel = prov_values(d, "accel");
	_cleanup_free_ char *qv = meta(d->src[0].st, "qemu.version", "unknown");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *l1 = NULL, *l2 = NULL, *l3 = NULL, *l4 = NULL, *foot = NULL;
	char first[40] = "", last[40] = "", now[40];
	size_t sup, con, inc, runs = 0;
	time_t t = time(NULL);
	struct tm tm;

	for (size_t s = 0; s < d->nsrc; s++) {
		_cleanup_free_ char *c = meta(d->src[s].st, "created", "0");
		char buf[40];

		fmt_date(buf, sizeof(buf), c);
		if (!*first || strcmp(buf, first) < 0)
			snprintf(first, sizeof(first), "%s", buf);
		if (strcmp(buf, last) > 0)
			snprintf(last, sizeof(last), "%s", buf);
		for (size_t v = 0; v < d->src[s].an->ds->nv; v++)
			runs += (size_t)d->src[s].an->ds->v[v].measured;
	}
	for (size_t s = 0; s < d->nsrc; s++) {
		char k[128];
		size_t l = strlen(kernels);

		ds_kernels(d->src[s].an->ds, k, sizeof(k));
		if (!strstr(kernels, k))
			snprintf(kernels + l, sizeof(kernels) - l, "%s%s", l ? ", " : "", k);
	}
	hosts = meta_values(d, "host");
	counts(d, &sup, &con, &inc);
	page_begin(d, &pg, "title");
	text_at(&pg, 0.5, 0.80, "center", 54, true, INK, "Classic LRU vs MGLRU");
	text_at(&pg, 0.5, 0.69, "center", 28, false, INK_SOFT,
		"What the data says about claims C1-C8 of the MGLRU debate");
	l1 = xasprintf("Kernel: %s", kernels);
	l2 = xasprintf("Host: %s   accelerator: %s   QEMU %s", hosts, accel, qs);
	if (d->nsrc == 1) {
		_cleanup_free_ char *camp = meta(d->src[0].st, "campaign", "campaign");

		l3 = xasprintf("Campaign %s, %s, %zu runs measured", camp, first, runs);
	} else {
		l3 = xasprintf("%zu campaigns, %s to %s, %zu runs measured", d->nsrc, first, last,
			       runs);
	}
	l4 = xasprintf("%zu supported, %zu contradicted, %zu inconclusive", sup, con, inc);
	text_at(&pg, 0.5, 0.56, "center", 24, false, INK, l1);
	text_at(&pg, 0.5, 0.485, "center", 24, false, INK, l2);
	text_at(&pg, 0.5, 0.41, "center", 24, false, INK, l3);
	text_at(&pg, 0.5, 0.31, "center", 30, true, INK, l4);
	if (!d->b->measured) {
		text_at(&pg, 0.5, 0.20, "center", 28, true, RED, no_data);
		text_at(&pg, 0.5, 0.135, "center", 22, false, RED,
			"This deck holds no evidence: run the claims plan (make claims)");
	}
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", &tm);
	foot = xasprintf("lrubench %s, deck of %s", LRUBENCH_VERSION, now);
	text_at(&pg, 0.5, 0.05, "center", 16, false, INK_FAINT, foot);
	text_only(&pg);
	return page_end(d, &pg, "title");
}

static int page_scoreboard(struct deck *d)
{
	struct page pg;

	page_begin(d, &pg, "scoreboard");
	text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Scoreboard: MGLRU against classic");
	for (size_t c = 0; c < d->b->n; c++) {
		const struct claim_result *r = &d->b->merged[c];
		double y = 0.82 - 0.097 * (double)c;
		_cleanup_free_ char *v = upper(claim_state_name(r->state));
		_cleanup_free_ char *why = wrap(r->why, fit(0.9, 18), 1);

		text_at(&pg, 0.03, y, "left", 25, true, INK, d->tab[c].id);
		text_at(&pg, 0.085, y, "left", 25, true, state_color(r->state), v);
		text_at(&pg, 0.33, y, "left", 25, false, INK, d->tab[c].title);
		text_at(&pg, 0.085, y - 0.043, "left", 18, false, INK_SOFT, why);
	}
	text_at(&pg, 0.03, 0.04, "left", 16, false, INK_FAINT,
		"supported / contradicted: a signal's interval lies wholly beyond the minimum "
		"effect the claimed way / the other way (or within it); inconclusive otherwise");
	if (!d->b->measured)
		text_at(&pg, 0.97, 0.925, "right", 24, true, RED, "NO CLAIM MEASURED");
	text_only(&pg);
	return page_end(d, &pg, "scoreboard");
}

/* What a source is, in lines of at most width characters: campaign, runs, machine. */
static void source_lines(const struct deck_source *src, char **ret_what, char **ret_runs,
			 char **ret_where)
{
	struct store *st = src->st;
	const struct dataset *ds = src->an->ds;
	_cleanup_free_ char *camp = meta(st, "campaign", "?");
	_cleanup_free_ char *plan = meta(st, "plan.path", "?");
	_cleanup_free_ char *created = meta(st, "created", "0");
	_cleanup_free_ char *wall = meta(st, "campaign.wall_ms", "");
	_cleanup_free_ char *ver = meta(st, "lrubench.version", "?");
	_cleanup_free_ char *qv = meta(st, "qemu.version", "?");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *host = meta(st, "host", "unknown");
	_cleanup_free_ char *runs = NULL, *accel = NULL;
	struct deck one = { .src = src, .nsrc = 1 };
	char date[40], dur[32] = "", kern[128];
	size_t rl = 0;
	FILE *f = open_memstream(&runs, &rl);

	accel = prov_values(&one, "accel");
	ds_kernels(ds, kern, sizeof(kern));
	for (size_t v = 0; v < ds->nv; v++)
		fprintf(f, "%s%s %d", v ? ", " : "", ds->v[v].name, ds->v[v].measured);
	fclose(f);
	fmt_date(date, sizeof(date), created);
	if (*wall)
		snprintf(dur, sizeof(dur), ", %.0f min", strtod(wall, NULL) / 60e3);
	*ret_what = xasprintf("campaign %s, plan %s, %s%s", camp, plan, date, dur);
	*ret_runs = xasprintf("runs measured: %s", runs);
	*ret_where = xasprintf("kernel %s; host %s; accelerator %s; QEMU %s; lrubench %s", kern,
			       host, accel, qs, ver);
}

static int page_provenance(struct deck *d)
{
	struct page pg;
	_cleanup_free_ char *foot = NULL, *fw = NULL;
	bool detailed = d->nsrc <= 2;
	double y = 0.80;

	page_begin(d, &pg, "provenance");
	text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Provenance");
	for (size_t s = 0; s < d->nsrc && s < DECK_MAX_SOURCES; s++) {
		_cleanup_free_ char *what = NULL, *runs = NULL, *where = NULL;

		source_lines(&d->src[s], &what, &runs, &where);
		if (detailed) {
			const char *lines[] = { what, runs, where };

			text_at(&pg, 0.03, y, "left", 22, true, INK, d->src[s].db_path);
			for (size_t l = 0; l < ARRAY_SIZE(lines); l++) {
				_cleanup_free_ char *w = wrap(lines[l], fit(0.92, 19), 1);

				text_at(&pg, 0.05, y - 0.06 * (double)(l + 1), "left", 19, false,
					INK_SOFT, w);
			}
			y -= 0.30;
		} else {
			_cleanup_free_ char *one = xasprintf("%s: %s; %s", d->src[s].db_path, what,
							     runs);
			_cleanup_free_ char *w = wrap(one, fit(0.94, 16), 2);

			text_at(&pg, 0.03, y, "left", 16, false, INK, w);
			y -= 0.09;
		}
	}
	if (d->nsrc > DECK_MAX_SOURCES) {
		_cleanup_free_ char *more =
			xasprintf("and %zu more databases", d->nsrc - DECK_MAX_SOURCES);

		text_at(&pg, 0.03, y, "left", 16, false, INK_SOFT, more);
	}
	if (!detailed) {
		_cleanup_free_ char *what = NULL, *runs = NULL, *where = NULL, *w = NULL;

		source_lines(&d->src[0], &what, &runs, &where);
		w = wrap(where, fit(0.94, 16), 1);
		text_at(&pg, 0.03, 0.2, "left", 16, false, INK_SOFT, w);
	}
	foot = xasprintf("Rules: harness/claims.c; statistics: harness/verdict.c (paired blocks, "
			 "Fieller intervals, minimum effect %.0f%%). Each page is a gnuplot script "
			 "in deck/ beside deck.pdf.",
			 100 * d->src[0].an->o.min_effect);
	fw = wrap(foot, fit(0.94, 16), 2);
	text_at(&pg, 0.03, 0.11, "left", 16, false, INK_FAINT, fw);
	text_only(&pg);
	return page_end(d, &pg, "provenance");
}

/* The header of a claim page: id, title, verdict, the claim; the deciding numbers at the foot. */
static void claim_header(struct deck *d, struct page *pg, size_t ci, size_t s)
{
	const struct claim *c = &d->tab[ci];
	const struct claim_result *r = &d->b->merged[ci];
	_cleanup_free_ char *id = xasprintf("%s  %s", c->id, c->title);
	_cleanup_free_ char *v = upper(claim_state_name(r->state));
	_cleanup_free_ char *sentence = wrap(c->sentence, fit(0.94, 24), 2);
	_cleanup_free_ char *dec = xasprintf("deciding: %s", r->why);
	_cleanup_free_ char *w = wrap(dec, fit(0.94, 19), 2);
	_cleanup_free_ char *camp = meta(d->src[s].st, "campaign", "?");
	_cleanup_free_ char *from = xasprintf("data: %s (campaign %s)", d->src[s].db_path, camp);

	text_at(pg, 0.03, 0.925, "left", 36, true, INK, id);
	text_at(pg, 0.97, 0.925, "right", 36, true, state_color(r->state), v);
	text_at(pg, 0.03, 0.845, "left", 24, false, INK_SOFT, sentence);
	text_at(pg, 0.03, strchr(w, '\n') ? 0.115 : 0.085, "left", 19, false, INK, w);
	text_at(pg, 0.03, 0.028, "left", 15, false, INK_FAINT, from);
}

/* The claim could not be drawn: say so where the plot would be. */
static void no_data_body(struct page *pg, const struct claim *c)
{
	_cleanup_free_ char *hint = xasprintf("measured by: %s", c->plans);

	text_at(pg, 0.5, 0.52, "center", 36, true, RED, "No measured data for this claim");
	text_at(pg, 0.5, 0.41, "center", 26, false, INK_SOFT, hint);
	text_only(pg);
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
	FILE *f;

	/* C2 without MGLRU at a raised swappiness: the signal alone would be C1's evidence */
	np = c->raised_swappiness && !r->has_cmp ? 0 : signal_rows(c, r, ds, maxp, rows);
	if (!np) {
		no_data_body(pg, c);
		return 0;
	}
	f = plot_data(&d->pc, dat);
	if (!f)
		return -errno;
	fprintf(f, "# per panel (index): x, mean, 95%% half-width (0: one value), rgb, \"mean\"\n");
	fprintf(pg->b,
		"set multiplot layout 1,%zu margins 0.09,0.97,0.25,0.64 spacing 0.09,0\n"
		"set style fill solid 0.9 noborder\nset boxwidth 0.7\nunset xtics\n"
		"set xrange [-0.6:%.1f]\nset ytics font ',22'\n",
		np, (double)nv - 0.4);
	for (size_t p = 0; p < np; p++) {
		const struct ds_row *row = &ds->rows[rows[p]];
		_cleanup_free_ char *title = NULL;
		double top = 0, bot = 0;

		for (size_t v = 0; v < nv; v++) {
			double m, h;
			char num[24];

			if (plot_variant_mean(ds, row, v, &m, &h) < 0)
				continue;
			if (isnan(h))
				h = 0;
			fmt_num(num, sizeof(num), m);
			fprintf(f, "%zu %.6g %.6g %u \"%s\"\n", v, m, h, rgb(plot_color(v)), num);
			top = fmax(top, m + h);
			bot = fmin(bot, m - h);
		}
		fprintf(f, "\n\n");
		title = xasprintf("%s%s\n%s, claim: MGLRU %s", row->label,
				  p == 0 && r->has_cmp ? " (deciding)" : "", row->unit,
				  c->direction < 0 ? "lower" : "higher");
		fprintf(pg->b, "set title ");
		escape_gnuplot(pg->b, title);
		fprintf(pg->b, " font ',22'\nset yrange [%.6g:%.6g]\nset format y \"%s\"\n",
			bot * 1.2, top > 0 ? top * 1.2 : 1,
			fmax(top, -bot) >= 1e4 ? "%.3s%c" : "%g");
		if (p == 0) {
			fprintf(pg->b, "set key at screen 0.5, screen 0.175 center center horizontal "
				       "samplen 1.2 font ',24'\n");
		} else {
			fprintf(pg->b, "unset key\nunset label\n");
		}
		fprintf(pg->b,
			"plot \"%s\" index %zu using 1:2:4 with boxes lc rgb variable notitle, "
			"\"%s\" index %zu using 1:($2-$3):(0):(2*$3) with vectors heads size screen "
			"0.008,90 lw 2.5 lc rgb '#000000' notitle, \"%s\" index %zu using 1:($2+$3):5 with labels offset 0,0.9 "
			"font ',22' notitle",
			dat, p, dat, p, dat, p);
		for (size_t v = 0; p == 0 && v < nv; v++) {
			fprintf(pg->b, ", keyentry with boxes fc rgb '%s' title ", plot_color(v));
			escape_gnuplot(pg->b, ds->v[v].name);
		}
		fprintf(pg->b, "\n");
	}
	fprintf(pg->b, "unset multiplot\n");
	if (ds->nv > nv)
		text_at(pg, 0.97, 0.15, "right", 14, false, INK_FAINT,
			"(more variants in report.md)");
	return fclose(f) ? -errno : 0;
}

/* The memcg path of lru_gen rows in run whose last component is name, or NULL (malloc'd). */
static char *gen_memcg(sqlite3 *db, int64_t run, const char *name)
{
	sqlite3_stmt *q = NULL;
	char *found = NULL;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT memcg_path FROM lru_gen WHERE run_id = ?", -1,
			       &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(q, 1, run);
	while (!found && sqlite3_step(q) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(q, 0);
		const char *base = p ? strrchr(p, '/') : NULL;

		if (p && !strcmp(base ? base + 1 : p, name))
			found = xstrdup(p);
	}
	sqlite3_finalize(q);
	return found;
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
	sqlite3 *db = store__db(d->src[s].st);
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
		order[no++] = claims__orientation(ds, r->cand) > 0 ? r->cand : ds->base;
	for (size_t i = 0; i < ds->nv && no < ARRAY_SIZE(order); i++)
		order[no++] = i;
	for (size_t k = 0; k < no && run < 0; k++) {
		v = order[k];
		for (int ri = 0; ri < ds->v[v].measured && run < 0; ri++) {
			memcg = gen_memcg(db, ds->v[v].runs[ri], wl);
			if (memcg)
				run = ds->v[v].runs[ri];
		}
	}
	if (run < 0)
		return -ENODATA;
	f = plot_data(&d->pc, dat);
	if (!f)
		return -errno;
	d->pc.db = db;
	fprintf(f, "# seconds, then MiB stacked by generation (youngest first): anon x4, file x4\n");
	ret = plot_generations_data(&d->pc, f, run, memcg, &pa, &pf);
	if (fclose(f) != 0 || ret < 0)
		return ret < 0 ? ret : -EIO;
	if (pa + pf < 1)
		return -ENODATA;
	sub = xasprintf("memcg %s under %s (run %lld): MiB per generation, youngest at the bottom, "
			"over the seconds since the first workload started",
			memcg, ds->v[v].name, (long long)run);
	{
		_cleanup_free_ char *w = wrap(sub, fit(0.94, 20), 1);

		text_at(pg, 0.03, 0.76, "left", 20, false, INK_SOFT, w);
	}
	fprintf(pg->b,
		"set multiplot layout 1,2 margins 0.09,0.97,0.2,0.6 spacing 0.09,0\n"
		"set autoscale xfix\nset ytics font ',22'\nset xtics font ',22'\n"
		"set key at screen 0.5, screen 0.695 center center horizontal maxrows 1 "
		"samplen 1.2 font ',22'\n");
	plot_generations_panel(pg->b, dat, "anon", 2, pa);
	fprintf(pg->b, "unset key\n");
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
			word = "changed", col = "#CC79A7";
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

		text_at(pg, 0.97, 0.15, "right", 14, false, INK_FAINT, more);
	}
	xl = xasprintf("change against %s (%%), interval at the key level; grey band: +-%.0f%%",
		       ds->v[ds->base].name, m);
	fprintf(pg->b,
		"set lmargin at screen 0.34\nset rmargin at screen 0.80\n"
		"set tmargin at screen 0.70\nset bmargin at screen 0.24\n"
		"set yrange [-0.7:%.1f]\nset xrange [-100:%.6g]\nset ytics scale 0 font ',%d' (%s)\n"
		"set xtics font ',22'\n"
		"set grid xtics noytics\nset xlabel ",
		(double)n - 0.3, xmax, n > 10 ? 17 : 19, tics);
	escape_gnuplot(pg->b, xl);
	fprintf(pg->b,
		" font ',19'\nset object 1 rect from %.6g, graph 0 to %.6g, graph 1 fc rgb '#e4e4e4' "
		"fs solid 1.0 noborder behind\n"
		"set arrow 1 from 0, graph 0 to 0, graph 1 nohead lw 1.5 lc rgb '#555555' back\n"
		"set key at screen 0.57, screen 0.755 center center horizontal samplen 0.5 "
		"font ',22'\n"
		"plot \"%s\" using 2:1:3:4:5 with xerrorbars pt 7 ps 2 lw 3 lc rgb variable "
		"notitle, keyentry with points pt 7 ps 2 lc rgb '%s' title 'worse', "
		"keyentry with points pt 7 ps 2 lc rgb '%s' title 'better', "
		"keyentry with points pt 7 ps 2 lc rgb '#888888' title 'same', "
		"keyentry with points pt 7 ps 2 lc rgb '%s' title 'open'\n",
		-m, m, dat, PLOT_REGRESSION, PLOT_IMPROVEMENT, INK);
	return 0;
}

/* The first clause of a reason ("MGLRU counts only the folios it isolates"), malloc'd. */
static char *clause(const char *reason)
{
	return xasprintf("%.*s", (int)strcspn(reason, ";:("), reason);
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
		_cleanup_free_ char *w = wrap(sub, fit(0.94, 20), 1);

		text_at(pg, 0.03, 0.76, "left", 20, false, INK_SOFT, w);
	}
	text_at(pg, 0.03, 0.685, "left", 20, true, INK, "metric");
	text_at(pg, 0.50, 0.685, "right", 20, true, INK, ds->v[ds->base].name);
	text_at(pg, 0.64, 0.685, "right", 20, true, INK, ds->v[cand].name);
	text_at(pg, 0.67, 0.685, "left", 20, true, INK, "why");
	for (size_t i = 0; i < an->nc && n < DECK_MAX_NC; i++) {
		const struct comparison *c = &an->c[i];
		double y = 0.625 - 0.053 * (double)n;
		char a[24], b[24];
		_cleanup_free_ char *why = NULL, *w = NULL;

		if (c->verdict != VERDICT_NOT_COMPARABLE || c->cand != cand)
			continue;
		fmt_num(a, sizeof(a), c->base.mean);
		fmt_num(b, sizeof(b), c->cur.mean);
		why = clause(c->reason ? c->reason : "");
		w = wrap(why, fit(0.31, 16), 1);
		text_at(pg, 0.03, y, "left", 20, false, INK, ds->rows[c->row].label);
		text_at(pg, 0.50, y, "right", 20, false, INK, a);
		text_at(pg, 0.64, y, "right", 20, false, INK, b);
		text_at(pg, 0.67, y, "left", 16, false, INK_SOFT, w);
		n++;
	}
	if (total > n) {
		_cleanup_free_ char *more =
			xasprintf("and %zu more (report.md gives each with its source)", total - n);

		text_at(pg, 0.03, 0.625 - 0.053 * (double)n, "left", 17, false, INK_FAINT, more);
	}
	text_only(pg);
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

static int page_claim(struct deck *d, size_t ci)
{
	const struct claim *c = &d->tab[ci];
	size_t s = d->b->from[ci];
	struct page pg = { 0 };
	_cleanup_free_ char *title = xasprintf("%s: %s", c->id, c->sentence);
	int r = -ENODATA;

	d->pc.db = store__db(d->src[s].st);
	d->pc.an = d->src[s].an;
	for (size_t k = 0; k < ARRAY_SIZE(claim_pages) && r == -ENODATA; k++) {
		if (strcmp(claim_pages[k].claim, c->id))
			continue;
		page_begin(d, &pg, c->id);
		claim_header(d, &pg, ci, s);
		r = claim_pages[k].draw(d, &pg, ci, s);
		if (r == -ENODATA)
			page_drop(&pg); /* nothing of its own to draw: the signals page instead */
	}
	if (r == -ENODATA) {
		page_begin(d, &pg, c->id);
		claim_header(d, &pg, ci, s);
		r = page_signals(d, &pg, ci, s);
	}
	if (r < 0) {
		log_err("deck: page %s: %s", c->id, strerror(-r));
		page_drop(&pg);
		d->page++;
		return r;
	}
	return page_end(d, &pg, title);
}

/* pdfunite the pages into out (through out.tmp, renamed when whole). */
static int assemble(struct deck *d, const char *out)
{
	_cleanup_free_ char *tmp = xasprintf("%s.tmp", out);
	_cleanup_free_ char *err = NULL;
	_cleanup_free_ const char **argv = xcalloc(d->set.n + 3, sizeof(char *));
	_cleanup_free_ char **paths = xcalloc(d->set.n + 1, sizeof(char *));
	struct spawn_opts so = { .ret_stderr = &err };
	size_t a = 0;
	int r;

	argv[a++] = "pdfunite";
	for (size_t i = 0; i < d->set.n; i++) {
		paths[i] = xasprintf("%s/%s.pdf", d->set.dir, d->set.img[i].name);
		argv[a++] = paths[i];
	}
	argv[a++] = tmp;
	r = spawn_run(argv, &so);
	for (size_t i = 0; i < d->set.n; i++)
		free(paths[i]);
	if (r == -ENOENT || (r == 127 && err && strstr(err, "exec pdfunite"))) {
		log_err("deck: pdfunite not found: install poppler-utils (make deps); %s not written",
			out);
		return -ENOENT;
	}
	if (r != 0) {
		log_err("deck: pdfunite exit %d: %s", r, err ? strstrip(err) : "");
		unlink(tmp);
		return -EIO;
	}
	if (rename(tmp, out) < 0) {
		r = -errno;
		log_err("deck: %s: %s", out, strerror(-r));
		unlink(tmp);
		return r;
	}
	return 0;
}

int deck__write(const struct deck_source *src, size_t nsrc, const struct claims_board *b,
		const char *dir)
{
	struct deck d = { .src = src, .nsrc = nsrc, .b = b };
	_cleanup_free_ char *pages = xasprintf("%s/deck", dir);
	_cleanup_free_ char *out = xasprintf("%s/deck.pdf", dir);
	size_t n;
	int r;

	if (!nsrc || b->nsrc != nsrc)
		return -EINVAL;
	d.tab = claims__table(&n);
	/* a deck that cannot be made anew must not leave an old one looking current */
	if (unlink(out) < 0 && errno != ENOENT) {
		r = -errno;
		log_err("deck: %s: %s", out, strerror(-r));
		return r;
	}
	r = plot_dir_prepare(pages);
	if (r < 0) {
		log_err("deck: %s: %s", pages, strerror(-r));
		return r;
	}
	d.set.dir = xstrdup(pages);
	d.pc = (struct plot_ctx){ .db = store__db(src[0].st), .an = src[0].an, .set = &d.set,
				  .kind = "deck", .slide = true };
	page_title(&d);
	page_scoreboard(&d);
	for (size_t c = 0; c < n && !d.pc.gnuplot_missing; c++)
		page_claim(&d, c);
	if (!d.pc.gnuplot_missing)
		page_provenance(&d);
	if (d.pc.gnuplot_missing) {
		log_err("deck: gnuplot not found: install gnuplot-nox (make deps); %s not written",
			out);
		r = -ENOENT;
	} else if (d.set.failed || d.set.n != deck__pages()) {
		log_err("deck: %zu of %zu pages failed, the first: %s; %s not written",
			deck__pages() - d.set.n, deck__pages(),
			d.set.first_error ? d.set.first_error : "?", out);
		r = -EIO;
	} else {
		r = assemble(&d, out);
	}
	plot_set__clear(&d.set);
	return r;
}
