/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Datasets built in memory for the verdict tests (test-verdict-edge,
 * test-verdict-sim): two variants, "base" and "cand", both classic on one
 * kernel, each measured in blocks 0..n-1, and key rows of workload "w" whose
 * values the test writes (ds_fixture_vals). Freed by dataset__free().
 */
#ifndef LRUBENCH_TESTS_DATASET_FIXTURE_H
#define LRUBENCH_TESTS_DATASET_FIXTURE_H

#include "dataset.h"
#include "util.h"

#include <stdio.h>

/* name: the campaign and kernel ("sim" -> kernel release "6.1.0-sim"). */
static inline struct dataset *ds_fixture(const char *name, size_t n, size_t nrows)
{
	struct dataset *ds = xcalloc(1, sizeof(*ds));

	ds->campaign = xstrdup(name);
	ds->release = xasprintf("6.1.0-%s", name);
	ds->nv = 2;
	ds->maxruns = n;
	ds->min_reps = ds->max_reps = (int)n;
	ds->v = xcalloc(2, sizeof(*ds->v));
	for (size_t v = 0; v < 2; v++) {
		ds->v[v] = (struct ds_variant){
			.id = (int64_t)v + 1,
			.name = xstrdup(v ? "cand" : "base"),
			.lru = xstrdup("classic"),
			.kernel = xstrdup(name),
			.knobs = xstrdup(""),
			.release = xasprintf("6.1.0-%s", name),
			.measured = (int)n,
			.runs = xcalloc(n, sizeof(int64_t)),
			.reps = xcalloc(n, sizeof(int)),
		};
		for (size_t i = 0; i < n; i++)
			ds->v[v].reps[i] = (int)i;
	}
	ds->nrows = nrows;
	ds->rows = xcalloc(nrows, sizeof(*ds->rows));
	return ds;
}

/* Row r: the key result label ("w:k") of workload w, n values a side, all measured. */
static inline struct ds_row *ds_fixture_row(struct dataset *ds, size_t r, const char *label,
					    const char *unit, enum metric_better better, bool result)
{
	struct ds_row *row = &ds->rows[r];
	size_t n = ds->maxruns;

	*row = (struct ds_row){
		.label = xstrdup(label),
		.metric = xstrdup(label),
		.scope = xstrdup("w"),
		.group = xstrdup("w"),
		.family = xstrdup("w"),
		.unit = xstrdup(unit),
		.better = better,
		.result = result,
		.key = true,
		.vals = xcalloc(2 * n, sizeof(double)),
		.reps = xcalloc(2 * n, sizeof(int)),
		.n = xcalloc(2, sizeof(size_t)),
	};
	for (size_t v = 0; v < 2; v++) {
		row->n[v] = n;
		for (size_t i = 0; i < n; i++)
			row->reps[v * n + i] = (int)i;
	}
	return row;
}

#endif
