/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The talk-ready deck: one PDF of 16:9 pages for a projector, each page a
 * gnuplot script rendered by pdfcairo (plot.h, slide mode: 13.333 x 7.5
 * inches, 20 pt text), assembled by pdfunite (poppler-utils). No LaTeX.
 *   1       title: the campaigns' kernels, host, accelerator and dates;
 *   2       the scoreboard: one line per claim, its verdict and the numbers
 *           that decided it;
 *   3..10   one page per claim C1-C8, drawn from the source that decided it
 *           (the table of page kinds is in report-deck.c);
 *   11      provenance: databases, plans, runs, versions.
 * A deck without measured claim data says so in red on its title page and
 * on every claim page; it is still written, so that the reader sees why.
 */
#ifndef LRUBENCH_REPORT_DECK_H
#define LRUBENCH_REPORT_DECK_H

#include <stddef.h>

struct analysis;
struct claims_board;
struct report_data;
struct store;

struct deck_source {
	const char *db_path; /* as the deck names it */
	struct store *st; /* read once, when data is NULL */
	const struct analysis *an;
	const struct report_data *data; /* the campaign loaded for its report, or NULL */
};

/* Pages of a deck: title, scoreboard, one per claim, provenance. */
size_t deck__pages(void);

/*
 * Write dir/deck.pdf from the sources and their claims board (claims.h,
 * decided on src[i].an in the same order), the pages' scripts, data and
 * PDFs in dir/deck/ (kept, to edit and re-run). Returns 0; -ENOENT when
 * gnuplot or pdfunite cannot be run; -EIO when a page or the assembly
 * failed; each logged here with what to do about it.
 */
int deck__write(const struct deck_source *src, size_t nsrc, const struct claims_board *b,
		const char *dir);

#endif
