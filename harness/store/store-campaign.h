/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What running a campaign reads from its store (harness/run/): the queue of
 * runs (the next pending one, the ones a stopped scheduler left running),
 * counts for progress, retries and adaptive blocks, a run's place and
 * status, a variant's id, and a run's workload events.
 *
 * Functions return 0 or -errno (SQLite's message in store__errmsg()), unless
 * said otherwise.
 */
#ifndef LRUBENCH_STORE_CAMPAIGN_H
#define LRUBENCH_STORE_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* A run's place in the campaign: its variant, repetition, seed and order. */
struct store_run {
	int64_t id, variant_id;
	int rep;
	uint64_t seed;
	int ord;
};

/* The first pending run in campaign order: 1 found, 0 none left, -errno. */
int store__run_next_pending(struct store *st, struct store_run *ret);
/* Run id's place: 1 found, 0 no such run, -errno. */
int store__run_get(struct store *st, int64_t id, struct store_run *ret);
/* Run id's status (RUN_*), malloc'd: 1 found, 0 no such run, -errno. */
int store__run_status(struct store *st, int64_t id, char **ret);
/* The runs left 'running' (a scheduler stopped during them), malloc'd array. */
int store__runs_running(struct store *st, struct store_run **ret, size_t *ret_n);

/*
 * Counts over the runs; each returns -1 when SQLite fails.
 *   runs_total: every run; runs_done: neither pending nor running;
 *   runs_pending: pending; runs_failed_infra: failed-infra ones of (variant, rep);
 *   run_last_ord: the highest order (0 without runs); run_next_ord: one past
 *   it (0 without runs); run_blocks: one past the highest repetition (0 without runs).
 */
int64_t store__runs_total(struct store *st);
int64_t store__runs_done(struct store *st);
int64_t store__runs_pending(struct store *st);
int64_t store__runs_failed_infra(struct store *st, int64_t variant_id, int rep);
int64_t store__run_last_ord(struct store *st);
int64_t store__run_next_ord(struct store *st);
int64_t store__run_blocks(struct store *st);

/* The id of the variant named name: 1 found, 0 none, -errno. */
int store__variant_id(struct store *st, const char *name, int64_t *ret);

/* A meta value that is an integer, written as decimal text. */
int store__meta_set_int(struct store *st, const char *key, int64_t v);

/*
 * Run run_id's workload events (kinds 'workload-exit' and 'oom'), in order,
 * each passed to fn (a NULL text reads as "").
 */
int store__run_workload_events(struct store *st, int64_t run_id,
			       void (*fn)(void *ctx, const char *kind, const char *text),
			       void *ctx);

#endif
