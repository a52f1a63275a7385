/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign database read into the numbers the statistics work on: per
 * variant, one value per measured run for every workload result and key
 * reclaim counter (the counter's increase over the run).
 *
 * Measured runs are the completed ones that are not warm-up: the plan's
 * "[campaign] warmup = N" stores meta plan.warmup, and runs whose repetition
 * is below N are counted but not measured. Failed runs are counted, never
 * averaged.
 */
#ifndef LRUBENCH_DATASET_H
#define LRUBENCH_DATASET_H

#include "metrics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

struct ds_variant {
	int64_t id;
	char *name, *lru, *kernel, *knobs;
	int measured, warmup, failed, other; /* runs: other = pending or running */
	int64_t *runs; /* the measured runs' ids, in campaign order */
};

struct ds_row {
	char *label; /* "anon:throughput", "memory.stat:pgmajfault[wl]" */
	char *metric; /* the dictionary's name: "memory.stat:pgmajfault" */
	char *scope; /* "-" system-wide, a memcg, or a workload */
	char *group; /* the workload a row belongs to, "memcg NAME" or "system" */
	char *unit;
	enum metric_better better;
	bool result; /* a workload's own result line */
	double *vals; /* [variant][run], nv * maxruns */
	size_t *n; /* measured values per variant */
};

struct dataset {
	char *campaign;
	char *release; /* guest kernel release of the first measured run, "" if unknown */
	struct ds_variant *v;
	size_t nv;
	size_t base; /* index of the baseline variant */
	struct ds_row *rows;
	size_t nrows;
	size_t maxruns;
	int warmup; /* repetitions excluded as warm-up */
};

/*
 * Load the campaign in st; baseline NULL means the plan's (meta
 * plan.baseline), else the first variant. -ENOENT if baseline names no
 * variant, -ENODATA if the campaign has no variant, -EIO on a query failure.
 */
int dataset__load(struct store *st, const char *baseline, struct dataset **ret);
void dataset__free(struct dataset *ds);
void dataset__freep(struct dataset **ds);

/* The measured values of row r for variant vi (row->n[vi] of them). */
static inline const double *ds_vals(const struct dataset *ds, const struct ds_row *r, size_t vi)
{
	return &r->vals[vi * ds->maxruns];
}

/* Whether variants a and b run different LRU implementations (classic vs any MGLRU mode). */
bool ds_cross_lru(const struct dataset *ds, size_t a, size_t b);

#endif
