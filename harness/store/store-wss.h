/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the working-set analysis (analysis/wss.h) reads of a campaign store
 * and its wss table, as C structs; the queries are store-wss.c's.
 *
 * Functions return 0 or -errno (-EIO for SQLite, its message in
 * store__errmsg()); arrays returned are malloc'd, freed by the matching
 * __free (which accepts NULL).
 */
#ifndef LRUBENCH_STORE_WSS_H
#define LRUBENCH_STORE_WSS_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* A row of the wss table (its columns are described in wss.h). */
struct wss_row {
	char *memcg, *quantity, *method;
	double pages, sd;
	size_t windows;
	double window_s;
	double known;	/* NAN: no model */
	char *model;	/* how known was found, or why there is none */
	char *source;
};
void wss_rows__free(struct wss_row *rows, size_t n);

/* Replace the store's wss table with rows (committing any open batch first). -EIO. */
int store__wss_write(struct store *st, const struct wss_row *rows, size_t n);
/* The table in the order written; -ENOENT without one (or an empty one). */
int store__wss_read(struct store *st, struct wss_row **ret, size_t *ret_n);

/* A value of a completed run, with its sample's guest time and its scope. */
struct store_value {
	int64_t run_id, seq, t_ns;
	char *scope, *metric;
	int64_t v;
};
/* Every value of the completed runs whose metric is LIKE metric_like, by run, scope, sample. */
int store__completed_values(struct store *st, const char *metric_like, struct store_value **ret,
			    size_t *ret_n);
void store_values__free(struct store_value *v, size_t n);

/* An event of a run (text "" if none). */
struct store_event {
	int64_t t_ns;
	char *kind, *text;
};
/* The events of run_id whose kind is one of kinds[0..nkinds) (at most 8), as stored. */
int store__run_events(struct store *st, int64_t run_id, const char *const *kinds, size_t nkinds,
		      struct store_event **ret, size_t *ret_n);
void store_events__free(struct store_event *e, size_t n);

/* A workload's result key in a run; -ENOENT if it reported none. */
int store__result_get(struct store *st, int64_t run_id, const char *workload, const char *key,
		      double *ret_value);

/*
 * Over the completed runs, the sum of each counter's largest minus smallest
 * value in a run, for the counters metrics[0..n) (at most 8; any scope).
 */
int store__completed_span_sum(struct store *st, const char *const *metrics, size_t n,
			      uint64_t *ret);

#endif
