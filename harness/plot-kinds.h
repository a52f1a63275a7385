/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by plot.c and the plot kinds (plot-NAME.c, one file per
 * kind, each registered by one row in plot.c).
 */
#ifndef LRUBENCH_PLOT_KINDS_H
#define LRUBENCH_PLOT_KINDS_H

#include "plot.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct plot_ctx {
	struct sqlite3 *db;
	const struct analysis *an;
	struct plot_set *set;
	const char *kind;
	bool gnuplot_missing;
};

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
/* Relative time of a run's samples: the first workload start, else the first sample (ns). */
int64_t plot_run_origin(struct plot_ctx *pc, int64_t run_id);
/* Vertical phase markers of a run (workload start and exit, agent phases, OOM kills) as
 * gnuplot arrows, named by labels when labels is set. */
void plot_phase_marks(struct plot_ctx *pc, FILE *body, int64_t run_id, int64_t origin,
		      const char *color, bool labels);

int plot_bars(struct plot_ctx *pc);
int plot_heatmap(struct plot_ctx *pc);
int plot_timeseries(struct plot_ctx *pc);
int plot_generations(struct plot_ctx *pc);
int plot_balance(struct plot_ctx *pc);
int plot_stall_cdf(struct plot_ctx *pc);
int plot_stall_heatmap(struct plot_ctx *pc);

#endif
