/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the deck: what report-deck.c (text pages, assembly) and
 * report-deck-claims.c (claim pages) draw with, from report-deck-page.c.
 */
#ifndef LRUBENCH_REPORT_DECK_PRIV_H
#define LRUBENCH_REPORT_DECK_PRIV_H

#include "claims.h"
#include "plot-kinds.h"
#include "report-data.h"
#include "report-deck.h"

#include <stdbool.h>
#include <stdio.h>

#define DECK_MAX_VARIANTS 8 /* series on a page */
#define DECK_MAX_PANELS 3
#define DECK_MAX_ROWS 14 /* rows of the key verdicts page */
#define DECK_MAX_NC 8	 /* rows of the comparability page */

#define INK "#000000"
#define INK_SOFT "#444444"
#define INK_FAINT "#777777"
#define RED "#D55E00"
#define CHANGED "#CC79A7" /* a key metric without a better direction moved */

struct deck {
	const struct deck_source *src;
	size_t nsrc;
	const struct report_data *const *data; /* per source, loaded */
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
	int obj; /* the next object's tag (legend swatches) */
};

const char *deck_state_color(enum claim_state s);
/* s in capitals (malloc'd). */
char *deck_upper(const char *s);
/* s folded at spaces into lines of at most width bytes, at most lines of them; "..." marks a
 * cut (malloc'd). */
char *deck_wrap(const char *s, size_t width, size_t lines);
/* About how many characters of sans at pt points fill frac of the page's width. */
size_t deck_fit(double frac, int pt);
/* A page named page-NN-WHAT; deck__page_end() renders it (a failure counts in the plot set),
 * deck_page_drop() forgets it. */
void deck__page_begin(struct deck *d, struct page *pg, const char *what);
void deck_page_drop(struct page *pg);
int deck__page_end(struct deck *d, struct page *pg, const char *title);
/* A label at screen x, y; just is left, center or right. */
void deck_text_at(struct page *pg, double x, double y, const char *just, int pt, bool bold,
		  const char *color, const char *text);
/* A legend centred on the page at height y: a colour swatch and a name per entry, one row. */
void deck_legend(struct page *pg, double y, const char *const *names, const char *const *colors,
		 size_t n);
/* Nothing but the labels: an empty plot over the whole page. */
void deck_text_only(struct page *pg);
/* A meta value of the loaded campaign, or def when it has none or an empty one (malloc'd). */
char *deck_meta(const struct report_data *d, const char *key, const char *def);

/* Claim ci's page (report-deck-claims.c): 0, or -errno logged. */
int deck__page_claim(struct deck *d, size_t ci);

#endif
