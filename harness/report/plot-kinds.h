/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a plot kind (plot-KIND.c) and the deck draw with: the context of a
 * rendering and the drawing helpers of plot-render.c. A kind's file ends
 * with its descriptor,
 *   PLOT_KIND(NAME) = { .name = "NAME", .what = "...", .render = fn };
 * and plot.c's table lists NAME once; nothing else names it.
 */
#ifndef LRUBENCH_PLOT_KINDS_H
#define LRUBENCH_PLOT_KINDS_H

#include "plot.h"
#include "dataset.h"
#include "report-data.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Define the descriptor of kind NAME (declared here too: no header lists it). */
#define PLOT_KIND(NAME)                                      \
	extern const struct plot_kind plot_kind_##NAME; \
	const struct plot_kind plot_kind_##NAME

struct plot_ctx {
	const struct report_data *data; /* the campaign, loaded */
	const struct analysis *an;
	struct plot_set *set;
	const char *kind;
	bool gnuplot_missing;
	bool slide; /* render one 16:9 PDF page with projector-sized text, not PNG, SVG and PDF */
};

/* A slide's page: 960 x 540 pt (16:9; pdfcairo rounds 13.333 in down to 959), text 26 pt;
 * what plot_render() draws with slide. */
#define PLOT_SLIDE_W_IN 13.3334
#define PLOT_SLIDE_H_IN 7.5
#define PLOT_SLIDE_FONT 26

/* Okabe and Ito's palette, for variants in order (the baseline first). */
const char *plot_color(size_t i);
#define PLOT_REGRESSION "#D55E00" /* vermillion */
#define PLOT_IMPROVEMENT "#0072B2" /* blue */
#define PLOT_NO_CHANGE "#D9D9D9"
#define PLOT_NOT_DECIDED "#FFFFFF"

/* Open NAME in the plots directory for writing (a data file). NULL with errno set. */
FILE *plot_data(struct plot_ctx *pc, const char *name);
/*
 * Write NAME.gp (body once per terminal, after "reset" and the house style)
 * and run gnuplot on it; register the image under group and title when all
 * three files are there and non-empty. width, height in pixels.
 */
int plot_render(struct plot_ctx *pc, const char *name, const char *group, const char *title,
		const char *body, int width, int height);
/* Create dir and remove what an earlier rendering left there (images, data, scripts). */
int plot_dir_prepare(const char *dir);
/* Mean of row r for variant v over its measured runs, and the half-width of its 95% t interval
 * (NAN with one value); -ENODATA when v measured none. What the bars show, and the deck. */
int plot_variant_mean(const struct dataset *ds, const struct ds_row *r, size_t v, double *ret_mean,
		      double *ret_half);
/* Relative time of a run's samples: the first workload start, else the first sample (ns). */
int64_t plot_run_origin(struct plot_ctx *pc, int64_t run_id);
/* Vertical phase markers of a run (workload start and exit, agent phases, OOM kills) as
 * gnuplot arrows, named by labels when labels is set. */
void plot_phase_marks(struct plot_ctx *pc, FILE *body, int64_t run_id, int64_t origin,
		      const char *color, bool labels);

#endif
