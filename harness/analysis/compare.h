/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison as fixed-width text, fit for a terminal, a mailing list or
 * a cover letter: first the summary (per candidate, the key metrics of each
 * workload with change, interval and verdict, and the undecided ones with
 * the blocks they would need), then, with --all, the table of every row with
 * a better direction (key and exploratory, with the minimum detectable
 * effect when noise figures are known) and the full table of means per
 * variant. Honest by construction: n is shown, nothing is decided with fewer
 * than 2 blocks, and a metric whose meaning differs between classic LRU and
 * MGLRU gets no cross-LRU change, only a mark and the reason.
 */
#ifndef LRUBENCH_COMPARE_H
#define LRUBENCH_COMPARE_H

#include "numfmt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct analysis;
struct comparison;
struct noise;
struct store;
struct verdict_opts;

/* The summary: an INCOMPLETE line when it is, then per candidate its key metrics. */
void compare__summary(const struct analysis *an, FILE *out);
/* The verdict table of every row with a direction (nz may be NULL). */
void compare__verdicts(const struct analysis *an, const struct noise *nz, FILE *out);
/* The table of every row: mean, spread and n per variant, change per candidate. */
void compare__table(const struct analysis *an, FILE *out);
/* The noise figures of an A/A campaign: cv, A/A change and MDE per metric. */
void compare__noise(const struct noise *nz, FILE *out);

/*
 * Analyse the campaign in st with the default options and print the summary
 * (all: every table); baseline NULL = the plan's. Returns the exit status
 * (EXIT_INCOMPLETE, EXIT_REGRESSION, EXIT_NO_REGRESSION of verdict.h), or
 * -errno. (compare-print.c)
 */
int compare_print(struct store *st, FILE *out, const char *baseline, bool all);

/*
 * The kernel x LRU grid of a campaign (compare-grid.c): nk kernels, each
 * under the classic LRU (cell[k][0]) and MGLRU (cell[k][1]), variant
 * indices of the dataset; kernel[k] its variant's kernel text.
 */
#define COMPARE_GRID_MAX 8
struct compare_grid {
	size_t nk;
	const char *kernel[COMPARE_GRID_MAX];
	size_t cell[COMPARE_GRID_MAX][2];
};
struct dataset;
/* -ENOENT unless the variants are 2 or more kernels x {classic, MGLRU}, knobs alike. */
int compare__grid_find(const struct dataset *ds, struct compare_grid *ret);
/*
 * The kernel x LRU table, when the campaign loaded in ds is such a grid;
 * nothing otherwise. Each cell is an analysis of ds against another of its
 * variants: nothing is read again. 0 or -errno.
 */
int compare__grid(const struct dataset *ds, const struct verdict_opts *o, FILE *out);

/* Number formats shared by the reports: fmt_num (numfmt.h), and: */
/* A relative change as "+11.8%", "-0.3%", "+250%", "+inf"; "-" for NAN. */
void fmt_pct(char *buf, size_t len, double x);
/* A confidence level: "95%", "99.2%", "99.97%", "99.998%"; never "100.00%" below 1. */
void fmt_level(char *buf, size_t len, double level);
/* An adjusted p-value: "0.031", "<0.001", "-". */
void fmt_p(char *buf, size_t len, double p);
/* A comparison's change: "+12.3%", on the absolute scale (verdict.h) "-1905 pages". */
void fmt_change(char *buf, size_t len, const struct comparison *c, const char *unit);
/* Its interval: "[-12.1%, +3.0%]", on the absolute scale "[-1942, -1868]", "unbounded", "-". */
void fmt_change_ci(char *buf, size_t len, const struct comparison *c);

#endif
