/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the analysis reads of a campaign store, as C structs (store-dataset.c
 * holds the queries): the variants, the runs in campaign order with each
 * measured run's results and counter increases, the lost repetitions, and
 * per run the values over time. A dataset (dataset.h) is built from one read.
 *
 * Functions return 0 or -EIO (SQLite's message in store__errmsg()); what
 * they return is malloc'd and freed by the matching __free/__clear, which
 * accept NULL and empty.
 */
#ifndef LRUBENCH_STORE_DATASET_H
#define LRUBENCH_STORE_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* A variant, with how many runs it has (any status). */
struct store_variant {
	int64_t id;
	char *name, *lru_mode, *kernel, *knobs;
	size_t runs;
};
/* Every variant, by id. */
int store__variants(struct store *st, struct store_variant **ret, size_t *ret_n);
void store_variants__free(struct store_variant *v, size_t n);

/* A workload's result line of a run. */
struct store_result {
	char *workload, *key, *unit, *better; /* better: "higher", "lower" or "none" */
	double value;
};

/* A counter's increase over a run (scope "-" system-wide). */
struct store_increase {
	char *metric, *scope;
	int64_t increase;
};

/* What one run measured. */
struct store_run_data {
	struct store_result *results; /* by workload, then in the order stored */
	size_t nresults;
	struct store_increase *increases; /* by metric, then scope */
	size_t nincreases;
	double seconds; /* the run's first to last sample (0 with fewer than 2) */
};
void store_run_data__clear(struct store_run_data *d);

/*
 * Every counter of run_id whose name is LIKE metric_like, as its increase
 * over the run: last sample minus first, from zero for a counter that first
 * appears after the run's first sample (a workload's perf counters).
 */
int store__run_increases(struct store *st, int64_t run_id, const char *metric_like,
			 struct store_increase **ret, size_t *ret_n);
void store_increases__free(struct store_increase *inc, size_t n);
/* The run's sampled time span in seconds (0 with fewer than 2 samples). */
int store__run_span(struct store *st, int64_t run_id, double *ret_seconds);

/* A run, with the guest's kernel release it reported ("" if none). */
struct store_run {
	int64_t id, variant_id;
	int rep;
	char *status, *release;
	bool has_data;		    /* data was read (store__runs: measured) */
	struct store_run_data data; /* every result and every counter's increase */
};
/*
 * Every run in campaign order; the completed ones whose repetition is at
 * least data_from_rep (not warm-up) with their data.
 */
int store__runs(struct store *st, int data_from_rep, struct store_run **ret, size_t *ret_n);
void store_runs__free(struct store_run *r, size_t n);

/*
 * The runs whose repetition was lost: failed, with no completed run of the
 * same variant and repetition and none pending or running; one per lost
 * repetition (its last attempt), in campaign order. reason "" if none.
 */
struct store_lost_run {
	int64_t run_id, variant_id;
	int rep;
	char *status, *reason;
};
int store__lost_runs(struct store *st, struct store_lost_run **ret, size_t *ret_n);
void store_lost_runs__free(struct store_lost_run *l, size_t n);

/*
 * The values of run_id in scope whose metric is LIKE metric_like, by metric
 * then sample, with the sample's guest time; *ret_first_seq is the run's
 * first sample (-1 if none).
 */
struct store_sample_value {
	char *metric;
	int64_t seq, t_ns, v;
};
int store__run_series(struct store *st, int64_t run_id, const char *metric_like,
		      const char *scope, struct store_sample_value **ret, size_t *ret_n,
		      int64_t *ret_first_seq);
void store_sample_values__free(struct store_sample_value *v, size_t n);

#endif
