/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison table: per workload result and key reclaim counter (deltas
 * over each run), the mean per variant with n and spread, and the relative
 * change against the baseline variant. Honest by construction: n is shown,
 * no change is computed where a side has n < 2, and a metric whose meaning
 * differs between classic LRU and MGLRU gets no cross-LRU change, only a mark
 * and the reason.
 */
#ifndef LRUBENCH_COMPARE_H
#define LRUBENCH_COMPARE_H

#include <stdio.h>

struct store;

/* Print the table for the campaign in st; baseline NULL = the plan's. */
int compare_print(struct store *st, FILE *out, const char *baseline);

#endif
