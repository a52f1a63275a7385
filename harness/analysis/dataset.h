/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign database read into the numbers the statistics work on: per
 * variant, one value per measured run for every workload result and key
 * reclaim counter (the counter's increase over the run).
 *
 * Read once through the store's typed queries (store-dataset.h).
 *
 * Measured runs are the completed ones that are not warm-up: the plan's
 * "[campaign] warmup = N" stores meta plan.warmup, and runs whose repetition
 * is below N are counted but not measured. Failed runs are counted, never
 * averaged. Every value keeps its repetition: repetition r of every variant
 * ran in one block of the interleaved order, so the statistics pair them.
 *
 * Rows are grouped in verdict families (verdict.h): a workload's results
 * and the counters of its memcg or its perf events belong to the workload,
 * the machine's counters to "system". A family's key rows are the
 * workload's key results (the catalogue's .decides, or the plan's
 * [workload] key =) and, for "system", the counters marked in dataset.c.
 */
#ifndef LRUBENCH_DATASET_H
#define LRUBENCH_DATASET_H

#include "metrics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plan;
struct store;

struct ds_variant {
	int64_t id;
	char *name, *lru, *kernel, *knobs;
	char *release; /* guest kernel release of its first measured run, "" if unknown */
	int measured, warmup, failed, other; /* runs: other = pending or running */
	/*
	 * Planned runs (repetitions) that ended failed-* after their retries:
	 * no completed run of that repetition and none still to come.
	 */
	int lost;
	int64_t *runs; /* the measured runs' ids, in campaign order */
	int *reps;     /* their repetitions */
};

/* A run that failed and was not made good by a retry (a lost repetition). */
struct ds_failure {
	int64_t run_id;
	size_t variant;
	int rep;
	char *status, *reason;
};

struct ds_row {
	char *label; /* "anon:throughput", "memory.stat:pgmajfault[wl]" */
	char *metric; /* the dictionary's name: "memory.stat:pgmajfault" */
	char *scope; /* "-" system-wide, a memcg, or a workload */
	char *group; /* the workload a row belongs to, "memcg NAME" or "system" */
	char *family; /* its verdict family: a workload, "memcg NAME" or "system" */
	char *unit;
	enum metric_better better;
	bool result; /* a workload's own result line */
	bool key;    /* one of its family's key metrics */
	double *vals; /* [variant][k], nv * maxruns, in campaign order */
	int *reps;    /* the repetition of each value, same layout */
	size_t *n; /* measured values per variant */
};

struct dataset {
	char *campaign;
	/* the plan the campaign ran (meta plan.text), parsed once; NULL when none parses */
	struct plan *plan;
	char *release; /* guest kernel release of the first measured run, "" if unknown */
	struct ds_variant *v;
	size_t nv;
	size_t base; /* index of the baseline variant */
	struct ds_row *rows;
	size_t nrows;
	size_t maxruns;
	int warmup; /* repetitions excluded as warm-up */
	/*
	 * The design: repetitions = auto adds blocks between min_reps and
	 * max_reps (each block after the first min_reps is one more look at the
	 * data); fixed designs have adaptive false.
	 */
	bool adaptive;
	int min_reps, max_reps;
	char *stop; /* why an adaptive campaign stopped adding blocks (meta adaptive.stop), or NULL */
	char *clock; /* the guests' clock (meta guest.clock, guest-clock.h); NULL: real (older) */
	struct ds_failure *failures;
	size_t nfailures;
};

/*
 * Load the campaign in st; baseline NULL means the plan's (meta
 * plan.baseline), else the first variant. -ENOENT if baseline names no
 * variant, -ENODATA if the campaign has no variant, -EIO on a query failure.
 */
int dataset__load(struct store *st, const char *baseline, struct dataset **ret);
void dataset__free(struct dataset *ds);
void dataset__freep(struct dataset **ds);

/*
 * The values of row r that variants a and b measured in the same
 * repetition, in a's campaign order, into pa[] and pb[] (room for
 * ds->maxruns each); returns how many pairs.
 */
size_t ds_pairs(const struct dataset *ds, const struct ds_row *r, size_t a, size_t b, double *pa,
		double *pb);

/* The measured values of row r for variant vi (row->n[vi] of them). */
static inline const double *ds_vals(const struct dataset *ds, const struct ds_row *r, size_t vi)
{
	return &r->vals[vi * ds->maxruns];
}

/*
 * A variant's /sys/kernel/mm/lru_gen/enabled: its knobs' lru_enabled=0x....,
 * the value the guest agent wrote and read back (agent-setup.c fails the run
 * when the kernel shows another), else its lru word (classic, mglru, a mask);
 * -EINVAL when neither says.
 */
int ds_lru_enabled(const struct ds_variant *v, unsigned *ret);
/*
 * Whether variant v ran MGLRU: bit 0 of ds_lru_enabled, the main switch
 * (0x0002 and 0x0004 alone are the classic LRU with MGLRU's walker bits
 * set, which nothing uses). The one place the harness decides it.
 */
bool ds_lru_mglru(const struct ds_variant *v);
/* v's knobs after the LRU's own ("vm/swappiness=200 thp=never"; "" for none): two variants
 * differ in the LRU alone when these match. */
const char *ds_knobs_but_lru(const struct ds_variant *v);
/* Whether variants a and b run different LRU implementations (classic vs any MGLRU mode). */
bool ds_cross_lru(const struct dataset *ds, size_t a, size_t b);
/* The kernels of the variants, space-separated, each once: the guest's release where known
 * ("6.1.0-57-cloud-amd64"), else the variant's kernel text; into buf. */
void ds_kernels(const struct dataset *ds, char *buf, size_t len);
/* The vm.swappiness a variant's knobs set ("... vm/swappiness=100 ..."), -1 if they do not. */
int ds_swappiness(const struct ds_variant *v);

#endif
