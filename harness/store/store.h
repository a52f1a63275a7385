/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The campaign store: one SQLite file per campaign (WAL, prepared statements,
 * batched transactions). Schema in store.c; every table is documented there.
 *
 * Functions return 0 or -errno (-EIO for an SQLite failure, whose message is
 * available from store__errmsg()). The store never prints.
 */
#ifndef LRUBENCH_STORE_H
#define LRUBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* Run status, stored as text. */
#define RUN_PENDING "pending"
#define RUN_RUNNING "running"
#define RUN_COMPLETED "completed"
#define RUN_FAILED_WORKLOAD "failed-workload"
#define RUN_FAILED_KERNEL "failed-kernel"
#define RUN_FAILED_INFRA "failed-infra"

/* Open (creating the schema if new) the store at path. */
int store__open(const char *path, struct store **ret);
/*
 * Whether path is a campaign database, checked read-only before a reader
 * opens it (store__open would add the schema to any SQLite file, and create
 * a missing one): 0; -ENOENT and others from stat; -EINVAL not a regular
 * file or no campaign, with *ret_err naming the file and SQLite's own message.
 */
int store__check_campaign(const char *path, char **ret_err);
/*
 * Open a campaign to read it (compare, report): SQLite's read-only mode, the
 * file's journal mode as it is, no schema made, nothing optimised at close;
 * every write fails with -EROFS ("a write to a campaign opened to be read").
 * Check it is a campaign first (store__check_campaign).
 */
int store__open_readonly(const char *path, struct store **ret);
/* Close; accepts NULL. Commits an open batch first. */
void store__close(struct store *st);
void store__closep(struct store **st);
const char *store__errmsg(struct store *st);

/* Campaign metadata: name, plan text, tool version, host, creation time. */
int store__meta_set(struct store *st, const char *key, const char *value);
/* ret_value is malloc'd; -ENOENT if absent. */
int store__meta_get(struct store *st, const char *key, char **ret_value);

/* A variant is (kernel, LRU mode, knobs); name is unique in the campaign. */
int store__variant_add(struct store *st, const char *name, const char *kernel,
		       const char *lru_mode, const char *knobs, int64_t *ret_id);

/* A run of a variant; order is its place in the campaign's interleaved order. */
int store__run_add(struct store *st, int64_t variant_id, int rep, int order, uint64_t seed,
		   int64_t *ret_run_id);
/* Provenance of a run as key/value pairs (kernel.sha256, accel, qemu.argv, ...). */
int store__run_prov(struct store *st, int64_t run_id, const char *key, const char *value);
int store__run_start(struct store *st, int64_t run_id, int64_t wall_ns);
int store__run_finish(struct store *st, int64_t run_id, const char *status, const char *reason,
		      int64_t wall_ns);
int store__event(struct store *st, int64_t run_id, int64_t t_ns, const char *kind,
		 const char *text);
/* A named log of a run (the console log), stored whole. */
int store__log(struct store *st, int64_t run_id, const char *name, const char *text, size_t len);

/*
 * Samples. Values are added inside a batch (one transaction); the batch is
 * committed by store__commit() or when it grows past a few thousand rows, so
 * a crash loses at most the current uncommitted batch and never corrupts.
 */
int store__sample_begin(struct store *st, int64_t run_id, int64_t seq, int64_t t_ns);
int store__sample_end(struct store *st, int64_t run_id, int64_t seq, bool complete);
/* metric is "SOURCE:KEY" (see metrics.h); scope "-" is system-wide. */
int store__value(struct store *st, int64_t run_id, int64_t seq, const char *metric,
		 const char *scope, int64_t value);
int store__lru_gen(struct store *st, int64_t run_id, int64_t seq, int64_t memcg_id,
		   const char *memcg_path, int64_t node, int64_t gen, int64_t age_ms, int64_t anon,
		   int64_t file);
int store__result(struct store *st, int64_t run_id, const char *workload, const char *key,
		  double value, const char *unit, const char *better);
int store__commit(struct store *st);

/*
 * Additions beyond the interface above. (Errors: besides -EIO, a row that
 * breaks a constraint, such as a run of no variant or an unknown status, is
 * -EINVAL, and updating a run or sample that does not exist is -ENOENT.)
 */
/* What the store did; duplicates are rows ignored because their key was
 * already there (a duplicated stream record). */
struct store_stats {
	uint64_t values, dup_values;
	uint64_t gens, dup_gens;
	uint64_t samples, dup_samples;
	uint64_t results, dup_results;
	uint64_t events;
	uint64_t commits;
	uint64_t batches_lost; /* batches SQLite rolled back after an error */
};
const struct store_stats *store__stats(const struct store *st);
/* The metric table's id for a "SOURCE:KEY" name, adding its row (from
 * metrics.h) the first time. store__value() returns -ENOSPC once a store has
 * seen 65536 distinct metric or scope names (the guest is untrusted). */
int store__metric_id(struct store *st, const char *metric, int64_t *ret_id);

#endif
