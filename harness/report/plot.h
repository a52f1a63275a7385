/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plots through gnuplot: every kind in the table of plot.c renders its
 * images as PNG (screens, projectors), SVG (inlined by index.html) and PDF
 * (slides). Each image is a data file, a script (NAME.gp, kept beside the
 * images so it can be edited and re-run) and gnuplot run on it through
 * spawn.h with the script as its argument, never through a shell.
 *
 * Readable on a projector: 1280x720, 16 px text, thick lines, Okabe and
 * Ito's colour-blind-safe palette, verdicts in words as well as colours.
 * Text from the database reaches gnuplot only as escaped double-quoted
 * strings on noenhanced terminals (escape.h).
 */
#ifndef LRUBENCH_PLOT_H
#define LRUBENCH_PLOT_H

#include <stddef.h>

struct analysis;
struct sqlite3;
struct store;

struct plot_image {
	char *kind; /* the kind's name in the table: bars, heatmap, ... */
	char *group; /* the report section it belongs to: a workload, "memcg NAME",
		      * "system", or "" for the whole campaign */
	char *name; /* file name without extension, in the plots directory */
	char *title; /* what it shows */
};

struct plot_set {
	char *dir; /* the plots directory */
	struct plot_image *img;
	size_t n;
	size_t failed; /* images gnuplot did not produce */
	char *first_error;
};

struct plot_kind {
	const char *name;
	const char *what;
};
/* The table of kinds, for listings and documentation. */
const struct plot_kind *plot__kinds(size_t *ret_n);

/*
 * Render every kind into dir (created). Returns 0, or -ENOENT if gnuplot
 * cannot be run at all; images that fail are counted in ret->failed with
 * the first error kept. *ret is filled in either case; clear it with
 * plot_set__clear().
 */
int plot__all(struct store *st, const struct analysis *an, const char *dir, struct plot_set *ret);
void plot_set__clear(struct plot_set *s);

#endif
