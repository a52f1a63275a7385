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
 *
 * A kind is one file, plot-KIND.c, that ends with its descriptor
 * (PLOT_KIND(NAME) = { ... }, plot-kinds.h), and one row in the table of
 * plot.c. Kinds draw from the loaded campaign (report-data.h) and its
 * analysis, never from the store.
 */
#ifndef LRUBENCH_PLOT_H
#define LRUBENCH_PLOT_H

#include <stddef.h>

struct analysis;
struct plot_ctx;
struct report_data;

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

/* A kind of plot: what it is called and shows, how it is drawn, what it draws from. */
struct plot_kind {
	const char *name;
	const char *what;
	/* Render every image of the kind (plot_render()); the return value is not used:
	 * failed images are counted in the plot set. */
	int (*render)(struct plot_ctx *pc);
	/* The metrics whose series over time it draws (NULL-terminated; NULL for none):
	 * loaded for every measured run before anything is drawn (report-data.h). */
	const char *const *series;
};

/* The table of kinds, in the order they are drawn, then any plot__register() added. */
const struct plot_kind *const *plot__kinds(size_t *ret_n);
/* Add a kind after the table's (a test's toy one). -ENOSPC past a few. */
int plot__register(const struct plot_kind *k);
/* Every metric the kinds draw series of, once each (NULL-terminated, static until the
 * next plot__register()). */
const char *const *plot__series(void);

/*
 * Render every kind into dir (created) from the loaded campaign and its
 * analysis. Returns 0, or -ENOENT if gnuplot cannot be run at all; images
 * that fail are counted in ret->failed with the first error kept. *ret is
 * filled in either case; clear it with plot_set__clear().
 */
int plot__all(const struct report_data *data, const struct analysis *an, const char *dir,
	      struct plot_set *ret);
void plot_set__clear(struct plot_set *s);
/* The name of the first image whose name holds part (a claim's key plot), or NULL. */
const char *plot_set__find(const struct plot_set *s, const char *part);

#endif
