/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by plot.c and the plot kinds (plot-NAME.c, one file per
 * kind, each registered by one row in plot.c).
 */
#ifndef LRUBENCH_PLOT_KINDS_H
#define LRUBENCH_PLOT_KINDS_H

#include "plot.h"
#include "dataset.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct plot_ctx {
	struct sqlite3 *db;
	struct store *st; /* for the stall readers (stall.h) */
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

/*
 * MGLRU generations (plot-generations.c), for other pages to draw: the data of memcg in run
 * (one line per sample: seconds, then MiB stacked youngest first, anon x4, file x4), with each
 * type's peak; and one panel's plot command (col0 2 anon, 6 file).
 */
#define PLOT_GENERATIONS 4 /* MAX_NR_GENS: the bands, youngest first */
extern const char *const plot_generation_color[PLOT_GENERATIONS];
extern const char *const plot_generation_name[PLOT_GENERATIONS];
int plot_generations_data(struct plot_ctx *pc, FILE *f, int64_t run, const char *memcg,
			  double *ret_anon, double *ret_file);
void plot_generations_panel(FILE *b, const char *dat, const char *what, int col0, double peak);

int plot_bars(struct plot_ctx *pc);
int plot_heatmap(struct plot_ctx *pc);
int plot_timeseries(struct plot_ctx *pc);
int plot_generations(struct plot_ctx *pc);
int plot_balance(struct plot_ctx *pc);
int plot_stall_cdf(struct plot_ctx *pc);
int plot_stall_heatmap(struct plot_ctx *pc);

#endif
