// SPDX-License-Identifier: GPL-2.0
/*
 * The deck (report-deck.h): its text pages (title, scoreboard, provenance)
 * as gnuplot labels on an empty plot, the page helpers the claim pages
 * (report-deck-claims.c) use, and the assembly: each page one pdfcairo PDF
 * in DIR/deck/, pdfunite joins them.
 */
#include "report-deck-priv.h"
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

#define DECK_MAX_SOURCES 6 /* databases named on the provenance page */

size_t deck__pages(void)
{
	size_t n;

	claims__table(&n);
	return n + 3;
}

const char *deck_state_color(enum claim_state s)
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

char *deck_upper(const char *s)
{
	char *u = xstrdup(s);

	for (char *p = u; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return u;
}

char *deck_wrap(const char *s, size_t width, size_t lines)
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

size_t deck_fit(double frac, int pt)
{
	return (size_t)(frac * 2700 / pt);
}

void deck_page_begin(struct deck *d, struct page *pg, const char *what)
{
	*pg = (struct page){ .tag = 100, .obj = 200 };
	pg->name = xasprintf("page-%02zu-%s", d->page + 1, what);
	pg->b = open_memstream(&pg->body, &pg->len);
}

void deck_page_drop(struct page *pg)
{
	if (pg->b)
		fclose(pg->b);
	free(pg->body);
	free(pg->name);
	*pg = (struct page){ 0 };
}

/* Render the page; a failure is counted in the plot set (and fails the deck). */
int deck_page_end(struct deck *d, struct page *pg, const char *title)
{
	int r;

	fclose(pg->b);
	pg->b = NULL;
	r = plot_render(&d->pc, pg->name, "", title, pg->body, 0, 0);
	d->page++;
	deck_page_drop(pg);
	return r;
}

/* A label at screen x, y; just is left, center or right. */
void deck_text_at(struct page *pg, double x, double y, const char *just, int pt, bool bold,
		    const char *color, const char *text)
{
	fprintf(pg->b, "set label %d ", pg->tag++);
	escape_gnuplot(pg->b, text);
	fprintf(pg->b, " at screen %.4f, screen %.4f %s font '%s,%d' tc rgb '%s' front\n", x, y,
		just, bold ? "sans:Bold" : "sans", pt, color);
}

/* Nothing but the labels: an empty plot over the whole page. */
void deck_legend(struct page *pg, double y, const char *const *names, const char *const *colors,
		 size_t n)
{
	const double sw = 0.02, gap = 0.008, sep = 0.035;
	int pt = 24;
	double total, x;

	for (;; pt -= 2) { /* one row: smaller text when the names are long */
		total = 0;
		for (size_t i = 0; i < n; i++)
			total += sw + gap + (double)strlen(names[i]) * pt / 2700 + (i ? sep : 0);
		if (total <= 0.94 || pt <= 16)
			break;
	}
	x = 0.5 - total / 2;
	for (size_t i = 0; i < n; i++) {
		fprintf(pg->b,
			"set object %d rect from screen %.4f, screen %.4f to screen %.4f, "
			"screen %.4f fc rgb '%s' fillstyle solid 1.0 noborder front\n",
			pg->obj++, x, y - 0.014, x + sw, y + 0.014, colors[i]);
		x += sw + gap;
		deck_text_at(pg, x, y, "left", pt, false, INK, names[i]);
		x += (double)strlen(names[i]) * pt / 2700 + sep;
	}
}

void deck_text_only(struct page *pg)
{
	fprintf(pg->b, "unset border\nunset tics\nunset key\nunset grid\n"
		       "set lmargin at screen 0\nset rmargin at screen 1\n"
		       "set tmargin at screen 1\nset bmargin at screen 0\n"
		       "set xrange [0:1]\nset yrange [0:1]\nplot -1 notitle\n");
}

/* A store's meta value, or def (malloc'd). */
char *deck_meta(struct store *st, const char *key, const char *def)
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
				       "SELECT DISTINCT value FROM run_prov WHERE key = ? "
				       "ORDER BY value",
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
		_cleanup_free_ char *v = deck_meta(d->src[s].st, key, "");

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
	_cleanup_free_ char *qv = deck_meta(d->src[0].st, "qemu.version", "unknown");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *l1 = NULL, *l2 = NULL, *l3 = NULL, *l4 = NULL, *foot = NULL;
	char first[40] = "", last[40] = "", now[40];
	size_t sup, con, inc, runs = 0;
	time_t t = time(NULL);
	struct tm tm;

	for (size_t s = 0; s < d->nsrc; s++) {
		_cleanup_free_ char *c = deck_meta(d->src[s].st, "created", "0");
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
	deck_page_begin(d, &pg, "title");
	deck_text_at(&pg, 0.5, 0.80, "center", 54, true, INK, "Classic LRU vs MGLRU");
	deck_text_at(&pg, 0.5, 0.69, "center", 28, false, INK_SOFT,
		"What the data says about claims C1-C8 of the MGLRU debate");
	l1 = xasprintf("Kernel: %s", kernels);
	l2 = xasprintf("Host: %s   accelerator: %s   QEMU %s", hosts, accel, qs);
	if (d->nsrc == 1) {
		_cleanup_free_ char *camp = deck_meta(d->src[0].st, "campaign", "campaign");

		l3 = xasprintf("Campaign %s, %s, %zu runs measured", camp, first, runs);
	} else {
		l3 = xasprintf("%zu campaigns, %s to %s, %zu runs measured", d->nsrc, first, last,
			       runs);
	}
	l4 = xasprintf("%zu supported, %zu contradicted, %zu inconclusive", sup, con, inc);
	deck_text_at(&pg, 0.5, 0.56, "center", 24, false, INK, l1);
	deck_text_at(&pg, 0.5, 0.485, "center", 24, false, INK, l2);
	deck_text_at(&pg, 0.5, 0.41, "center", 24, false, INK, l3);
	deck_text_at(&pg, 0.5, 0.31, "center", 30, true, INK, l4);
	if (!d->b->measured) {
		deck_text_at(&pg, 0.5, 0.20, "center", 28, true, RED, no_data);
		deck_text_at(&pg, 0.5, 0.135, "center", 22, false, RED,
			"This deck holds no evidence: run the claims plan (make claims)");
	}
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", &tm);
	foot = xasprintf("lrubench %s, deck of %s", LRUBENCH_VERSION, now);
	deck_text_at(&pg, 0.5, 0.05, "center", 16, false, INK_FAINT, foot);
	deck_text_only(&pg);
	return deck_page_end(d, &pg, "title");
}

static int page_scoreboard(struct deck *d)
{
	struct page pg;

	deck_page_begin(d, &pg, "scoreboard");
	deck_text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Scoreboard: MGLRU against classic");
	for (size_t c = 0; c < d->b->n; c++) {
		const struct claim_result *r = &d->b->merged[c];
		double y = 0.82 - 0.097 * (double)c;
		_cleanup_free_ char *v = deck_upper(claim_state_name(r->state));
		_cleanup_free_ char *why = deck_wrap(r->why, deck_fit(0.9, 18), 1);

		deck_text_at(&pg, 0.03, y, "left", 25, true, INK, d->tab[c].id);
		deck_text_at(&pg, 0.085, y, "left", 25, true, deck_state_color(r->state), v);
		deck_text_at(&pg, 0.33, y, "left", 25, false, INK, d->tab[c].title);
		deck_text_at(&pg, 0.085, y - 0.043, "left", 18, false, INK_SOFT, why);
	}
	deck_text_at(&pg, 0.03, 0.04, "left", 16, false, INK_FAINT,
		"supported / contradicted: a signal's interval lies wholly beyond the minimum "
		"effect the claimed way / the other way (or within it); inconclusive otherwise");
	if (!d->b->measured)
		deck_text_at(&pg, 0.97, 0.925, "right", 24, true, RED, "NO CLAIM MEASURED");
	deck_text_only(&pg);
	return deck_page_end(d, &pg, "scoreboard");
}

/* What a source is, in lines of at most width characters: campaign, runs, machine. */
static void source_lines(const struct deck_source *src, char **ret_what, char **ret_runs,
			 char **ret_where)
{
	struct store *st = src->st;
	const struct dataset *ds = src->an->ds;
	_cleanup_free_ char *camp = deck_meta(st, "campaign", "?");
	_cleanup_free_ char *plan = deck_meta(st, "plan.path", "?");
	_cleanup_free_ char *created = deck_meta(st, "created", "0");
	_cleanup_free_ char *wall = deck_meta(st, "campaign.wall_ms", "");
	_cleanup_free_ char *ver = deck_meta(st, "lrubench.version", "?");
	_cleanup_free_ char *qv = deck_meta(st, "qemu.version", "?");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *host = deck_meta(st, "host", "unknown");
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

	deck_page_begin(d, &pg, "provenance");
	deck_text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Provenance");
	for (size_t s = 0; s < d->nsrc && s < DECK_MAX_SOURCES; s++) {
		_cleanup_free_ char *what = NULL, *runs = NULL, *where = NULL;

		source_lines(&d->src[s], &what, &runs, &where);
		if (detailed) {
			const char *lines[] = { what, runs, where };

			deck_text_at(&pg, 0.03, y, "left", 22, true, INK, d->src[s].db_path);
			for (size_t l = 0; l < ARRAY_SIZE(lines); l++) {
				_cleanup_free_ char *w = deck_wrap(lines[l], deck_fit(0.92, 19), 1);

				double ly = y - 0.06 * (double)(l + 1);

				deck_text_at(&pg, 0.05, ly, "left", 19, false, INK_SOFT, w);
			}
			y -= 0.30;
		} else {
			_cleanup_free_ char *one = xasprintf("%s: %s; %s", d->src[s].db_path, what,
							     runs);
			_cleanup_free_ char *w = deck_wrap(one, deck_fit(0.94, 16), 2);

			deck_text_at(&pg, 0.03, y, "left", 16, false, INK, w);
			y -= 0.09;
		}
	}
	if (d->nsrc > DECK_MAX_SOURCES) {
		_cleanup_free_ char *more =
			xasprintf("and %zu more databases", d->nsrc - DECK_MAX_SOURCES);

		deck_text_at(&pg, 0.03, y, "left", 16, false, INK_SOFT, more);
	}
	if (!detailed) {
		_cleanup_free_ char *what = NULL, *runs = NULL, *where = NULL, *w = NULL;

		source_lines(&d->src[0], &what, &runs, &where);
		w = deck_wrap(where, deck_fit(0.94, 16), 1);
		deck_text_at(&pg, 0.03, 0.2, "left", 16, false, INK_SOFT, w);
	}
	foot = xasprintf("Rules: harness/analysis/claims.c; statistics: harness/analysis/verdict.c (paired blocks, "
			 "Fieller intervals, minimum effect %.0f%%). Each page is a gnuplot script "
			 "in deck/ beside deck.pdf.",
			 100 * d->src[0].an->o.min_effect);
	fw = deck_wrap(foot, deck_fit(0.94, 16), 2);
	deck_text_at(&pg, 0.03, 0.11, "left", 16, false, INK_FAINT, fw);
	deck_text_only(&pg);
	return deck_page_end(d, &pg, "provenance");
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
		log_err("deck: pdfunite not found: install poppler-utils (make deps); "
			"%s not written",
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
		deck_page_claim(&d, c);
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
