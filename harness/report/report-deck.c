// SPDX-License-Identifier: GPL-2.0
/*
 * The deck (report-deck.h): its text pages (title, scoreboard, provenance)
 * as gnuplot labels on an empty plot (drawn with report-deck-page.c), the
 * claim pages in order (report-deck-claims.c), and the assembly: each page
 * one pdfcairo PDF in DIR/deck/, pdfunite joins them.
 */
#include "report-deck-priv.h"
#include "claims.h"
#include "compare.h"
#include "escape.h"
#include "guest-clock.h"
#include "spawn.h"
#include "util.h"
#include "verdict.h"

#include <ctype.h>
#include <math.h>
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
		const struct report_data *data = d->data[s];

		for (size_t i = 0; i < data->nprov_values; i++)
			if (!strcmp(data->prov_values[i].a, key))
				distinct_add(&all, data->prov_values[i].b);
	}
	return distinct_end(&all);
}

/* The distinct values of a meta key over the sources (malloc'd). */
static char *meta_values(const struct deck *d, const char *key)
{
	struct distinct all = { 0 };

	for (size_t s = 0; s < d->nsrc; s++) {
		_cleanup_free_ char *v = deck_meta(d->data[s], key, "");

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

/* "2 supported, 1 contradicted, 1 kernel-dependent, 1 inconclusive, 3 not tested": the
 * states present, in that order (malloc'd). */
static char *counts_text(const struct deck *d)
{
	static const enum claim_state order[] = { CLAIM_SUPPORTED, CLAIM_CONTRADICTED,
						  CLAIM_KERNEL_DEPENDENT, CLAIM_INCONCLUSIVE,
						  CLAIM_NOT_TESTED };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	if (!f)
		return xstrdup("");
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		size_t k = 0;

		for (size_t c = 0; c < d->b->n; c++)
			k += d->b->merged[c].state == order[i];
		if (k || order[i] == CLAIM_SUPPORTED || order[i] == CLAIM_CONTRADICTED) {
			fprintf(f, "%s%zu %s", first ? "" : ", ", k, claim_state_name(order[i]));
			first = false;
		}
	}
	fclose(f);
	return buf;
}

static const char no_data[] = "NO CLAIM MEASURED: no classic/MGLRU pair tested one";

/* After the accelerator: "" on the real clock, ", instruction clock (8 ns each)" else. */
static char *deck_clock(const struct report_data *data)
{
	_cleanup_free_ char *clock = deck_meta(data, "guest.clock", "real");
	struct guest_clock gc;

	if (guest_clock__parse(&gc, clock) < 0 || !gc.instructions)
		return xstrdup(!strcmp(clock, "real") ? "" : ", clock ?");
	return xasprintf(", instruction clock (%d ns each)", 1 << gc.icount.shift);
}

static int page_title(struct deck *d)
{
	struct page pg;
	_cleanup_free_ char *hosts = NULL;
	char kernels[256] = "";
	_cleanup_free_ char *accel = prov_values(d, "accel");
	_cleanup_free_ char *qv = deck_meta(d->data[0], "qemu.version", "unknown");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *clk = deck_clock(d->data[0]);
	_cleanup_free_ char *l1 = NULL, *l2 = NULL, *l3 = NULL, *l4 = NULL, *foot = NULL;
	char first[40] = "", last[40] = "", now[40];
	size_t runs = 0;
	time_t t = time(NULL);
	struct tm tm;

	for (size_t s = 0; s < d->nsrc; s++) {
		_cleanup_free_ char *c = deck_meta(d->data[s], "created", "0");
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
	deck__page_begin(d, &pg, "title");
	deck_text_at(&pg, 0.5, 0.80, "center", 54, true, INK, "Classic LRU vs MGLRU");
	deck_text_at(&pg, 0.5, 0.69, "center", 28, false, INK_SOFT,
		"What the data says about claims C1-C8 of the MGLRU debate");
	l1 = xasprintf("Kernel: %s", kernels);
	l2 = xasprintf("Host: %s   accelerator: %s%s   QEMU %s", hosts, accel, clk, qs);
	if (d->nsrc == 1) {
		_cleanup_free_ char *camp = deck_meta(d->data[0], "campaign", "campaign");

		l3 = xasprintf("Campaign %s, %s, %zu runs measured", camp, first, runs);
	} else {
		l3 = xasprintf("%zu campaigns, %s to %s, %zu runs measured", d->nsrc, first, last,
			       runs);
	}
	l4 = counts_text(d);
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
	return deck__page_end(d, &pg, "title");
}

/* The scoreboard's kernel columns: at most this many, right of the titles. */
#define SCOREBOARD_KERNELS 3

static int page_scoreboard(struct deck *d)
{
	struct page pg;
	/* claim x kernel where there are several: a column per kernel, the merged verdict first */
	size_t nk = d->b->nk > 1 ? d->b->nk : 0;

	if (nk > SCOREBOARD_KERNELS)
		nk = SCOREBOARD_KERNELS;
	deck__page_begin(d, &pg, "scoreboard");
	deck_text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Scoreboard: MGLRU against classic");
	for (size_t k = 0; k < nk; k++) {
		const char *rel = d->b->kernel[k];
		_cleanup_free_ char *head = xasprintf("on %.*s", (int)strcspn(rel, " -+"), rel);

		deck_text_at(&pg, 0.64 + 0.115 * (double)k, 0.86, "left", 16, true, INK_SOFT, head);
	}
	for (size_t c = 0; c < d->b->n; c++) {
		const struct claim_result *r = &d->b->merged[c];
		double y = 0.82 - 0.097 * (double)c;
		_cleanup_free_ char *v = deck_upper(claim_state_name(r->state));
		_cleanup_free_ char *why = deck_wrap(r->why, deck_fit(0.9, 18), 1);

		deck_text_at(&pg, 0.03, y, "left", 25, true, INK, d->tab[c].id);
		deck_text_at(&pg, 0.085, y, "left", 25, true, deck_state_color(r->state), v);
		deck_text_at(&pg, 0.33, y, "left", nk ? 20 : 25, false, INK, d->tab[c].title);
		for (size_t k = 0; k < nk; k++) {
			const struct claim_result *rk = &d->b->by_kernel[k * d->b->n + c];

			deck_text_at(&pg, 0.64 + 0.115 * (double)k, y, "left", 16, true,
				     deck_state_color(rk->state), claim_state_name(rk->state));
		}
		deck_text_at(&pg, 0.085, y - 0.043, "left", 18, false, INK_SOFT, why);
	}
	deck_text_at(&pg, 0.03, 0.04, "left", 16, false, INK_FAINT,
		"supported / contradicted: the primary signal's interval lies wholly beyond / "
		"short of the minimum effect the claimed way; not tested: the mechanism was not engaged");
	if (!d->b->measured)
		deck_text_at(&pg, 0.97, 0.925, "right", 24, true, RED, "NO CLAIM MEASURED");
	deck_text_only(&pg);
	return deck__page_end(d, &pg, "scoreboard");
}

/* What a source is, in lines of at most width characters: campaign, runs, machine. */
static void source_lines(const struct deck_source *src, const struct report_data *data,
			 char **ret_what, char **ret_runs, char **ret_where)
{
	const struct dataset *ds = src->an->ds;
	_cleanup_free_ char *camp = deck_meta(data, "campaign", "?");
	_cleanup_free_ char *plan = deck_meta(data, "plan.path", "?");
	_cleanup_free_ char *created = deck_meta(data, "created", "0");
	_cleanup_free_ char *wall = deck_meta(data, "campaign.wall_ms", "");
	_cleanup_free_ char *ver = deck_meta(data, "lrubench.version", "?");
	_cleanup_free_ char *qv = deck_meta(data, "qemu.version", "?");
	_cleanup_free_ char *qs = qemu_short(qv);
	_cleanup_free_ char *host = deck_meta(data, "host", "unknown");
	_cleanup_free_ char *runs = NULL, *accel = NULL, *clk = deck_clock(data);
	struct deck one = { .src = src, .nsrc = 1, .data = &data };
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
	*ret_where = xasprintf("kernel %s; host %s; accelerator %s%s; QEMU %s; lrubench %s", kern,
			       host, accel, clk, qs, ver);
}

static int page_provenance(struct deck *d)
{
	struct page pg;
	_cleanup_free_ char *foot = NULL, *fw = NULL;
	bool detailed = d->nsrc <= 2;
	double y = 0.80;

	deck__page_begin(d, &pg, "provenance");
	deck_text_at(&pg, 0.03, 0.925, "left", 34, true, INK, "Provenance");
	for (size_t s = 0; s < d->nsrc && s < DECK_MAX_SOURCES; s++) {
		_cleanup_free_ char *what = NULL, *runs = NULL, *where = NULL;

		source_lines(&d->src[s], d->data[s], &what, &runs, &where);
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

		source_lines(&d->src[0], d->data[0], &what, &runs, &where);
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
	return deck__page_end(d, &pg, "provenance");
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
	_cleanup_free_ struct report_data **loaded = NULL;
	_cleanup_free_ const struct report_data **data = NULL;
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
	/* each source as loaded for its report, else loaded here, once */
	loaded = xcalloc(nsrc, sizeof(*loaded));
	data = xcalloc(nsrc, sizeof(*data));
	for (size_t i = 0; i < nsrc; i++) {
		if (!src[i].data) {
			r = report_data__load(src[i].st, src[i].an, NULL, &loaded[i]);
			if (r < 0) {
				log_err("deck: %s: cannot be read: %s", src[i].db_path,
					strerror(-r));
				goto out;
			}
		}
		data[i] = src[i].data ? src[i].data : loaded[i];
	}
	d.data = data;
	d.set.dir = xstrdup(pages);
	d.pc = (struct plot_ctx){ .data = data[0], .an = src[0].an, .set = &d.set,
				  .kind = "deck", .slide = true };
	page_title(&d);
	page_scoreboard(&d);
	for (size_t c = 0; c < n && !d.pc.gnuplot_missing; c++)
		deck__page_claim(&d, c);
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
out:
	plot_set__clear(&d.set);
	for (size_t i = 0; loaded && i < nsrc; i++)
		report_data__free(loaded[i]);
	return r;
}
