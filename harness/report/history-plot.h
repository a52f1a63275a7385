/* SPDX-License-Identifier: GPL-2.0 */
/* Trend plots of the nightly history (store/history.h), drawn by gnuplot. */
#ifndef LRUBENCH_HISTORY_PLOT_H
#define LRUBENCH_HISTORY_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "history.h"

/*
 * Trend plots of a plan's key metrics across its nights: for each,
 * dir/SLUG.png and dir/SLUG.svg (gnuplot, run without a shell; every name
 * reaches it as an argument or a data column, never as script text), one
 * line per variant and host class (the class in the legend when there are
 * several; nights of two classes never on one line), the mean with a bar of
 * one standard deviation, the pinned night of each class marked. md, if not NULL, gets a markdown image line per plot.
 * *ret_plots is how many were written. A gnuplot failure is -EIO with its
 * stderr in *ret_err; gnuplot missing is -ENOENT.
 */
int history__plot(struct history *h, const char *plan, const char *dir, FILE *md,
		  size_t *ret_plots, char **ret_err);

#endif
