/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU generations (plot-generations.c), for other pages to draw (the
 * deck): the data of memcg in run (one line per sample: seconds, then MiB
 * stacked youngest first, anon x4, file x4), with each type's peak; and one
 * panel's plot command (col0 2 anon, 6 file).
 */
#ifndef LRUBENCH_PLOT_GENERATIONS_H
#define LRUBENCH_PLOT_GENERATIONS_H

#include "plot-kinds.h"

#define PLOT_GENERATIONS 4 /* MAX_NR_GENS: the bands, youngest first */
extern const char *const plot_generation_color[PLOT_GENERATIONS];
extern const char *const plot_generation_name[PLOT_GENERATIONS];
int plot_generations_data(struct plot_ctx *pc, FILE *f, int64_t run, const char *memcg,
			  double *ret_anon, double *ret_file);
void plot_generations_panel(FILE *b, const char *dat, const char *what, int col0, double peak);

#endif
