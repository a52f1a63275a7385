// SPDX-License-Identifier: GPL-2.0
/* The queries behind store-dataset.h: what the analysis reads of a campaign store. */
#include "store-dataset.h"
#include "store-priv.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A query's failure: recorded in the store's message, -EIO as the readers document. */
static int failed(struct store *st, const char *what)
{
	store__fail(st, sqlite3_extended_errcode(store__sqlite(st)), what);
	return -EIO;
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **ret)
{
	return store__prepare(st, sql, ret) < 0 ? -EIO : 0;
}

/* ---- variants ------------------------------------------------------------ */

void store_variants__free(struct store_variant *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].lru_mode);
		free(v[i].kernel);
		free(v[i].knobs);
	}
	free(v);
}

int store__variants(struct store *st, struct store_variant **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_variant *v = NULL;
	size_t n = 0;
	int rc;

	if (prepare(st,
		    "SELECT v.id, v.name, v.lru_mode, v.kernel, v.knobs, "
		    " (SELECT COUNT(*) FROM run WHERE variant_id = v.id) "
		    "FROM variant v ORDER BY v.id",
		    &q) < 0)
		return -EIO;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		v = xrealloc(v, n + 1, sizeof(*v));
		v[n++] = (struct store_variant){
			.id = sqlite3_column_int64(q, 0),
			.name = sql_col_dup(q, 1),
			.lru_mode = sql_col_dup(q, 2),
			.kernel = sql_col_dup(q, 3),
			.knobs = sql_col_dup(q, 4),
			.runs = (size_t)sqlite3_column_int64(q, 5),
		};
	}
	if (rc != SQLITE_DONE) {
		store_variants__free(v, n);
		return failed(st, "variant");
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* ---- one run's data ------------------------------------------------------ */

void store_increases__free(struct store_increase *inc, size_t n)
{
	for (size_t i = 0; inc && i < n; i++) {
		free(inc[i].metric);
		free(inc[i].scope);
	}
	free(inc);
}

void store_run_data__clear(struct store_run_data *d)
{
	for (size_t i = 0; i < d->nresults; i++) {
		free(d->results[i].workload);
		free(d->results[i].key);
		free(d->results[i].unit);
		free(d->results[i].better);
	}
	free(d->results);
	store_increases__free(d->increases, d->nincreases);
	memset(d, 0, sizeof(*d));
}

static int run_results(struct store *st, int64_t run_id, struct store_run_data *d)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int rc;

	if (prepare(st,
		    "SELECT workload, key, value, unit, better FROM result "
		    "WHERE run_id = ? ORDER BY workload, rowid",
		    &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		d->results = xrealloc(d->results, d->nresults + 1, sizeof(*d->results));
		d->results[d->nresults++] = (struct store_result){
			.workload = sql_col_dup(q, 0),
			.key = sql_col_dup(q, 1),
			.value = sqlite3_column_double(q, 2),
			.unit = sql_col_dup(q, 3),
			.better = sql_col_dup(q, 4),
		};
	}
	return rc == SQLITE_DONE ? 0 : failed(st, "result");
}

int store__run_increases(struct store *st, int64_t run_id, const char *metric_like,
			 struct store_increase **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_increase *inc = NULL;
	size_t n = 0;
	int rc;

	/*
	 * Last sample minus first, per scope. A counter that first appears
	 * after the run's first sample (a workload's perf counters, which start
	 * at zero when it starts) counts from zero.
	 */
	if (prepare(st,
		    "WITH b AS (SELECT metric_id, scope_id, MIN(seq) AS s0, MAX(seq) AS s1 "
		    "           FROM value WHERE run_id = ?1 AND metric_id IN "
		    "             (SELECT id FROM metric WHERE name LIKE ?2) "
		    "           GROUP BY metric_id, scope_id) "
		    "SELECT m.name, sc.name, "
		    "  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s1 "
		    "     AND metric_id = b.metric_id AND scope_id = b.scope_id) - "
		    "  CASE WHEN b.s0 > (SELECT MIN(seq) FROM sample WHERE run_id = ?1) THEN 0 ELSE "
		    "  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s0 "
		    "     AND metric_id = b.metric_id AND scope_id = b.scope_id) END "
		    "FROM b JOIN metric m ON m.id = b.metric_id JOIN scope sc ON sc.id = b.scope_id "
		    "ORDER BY m.name, sc.name",
		    &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	sql_bind_text(q, 2, metric_like);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		inc = xrealloc(inc, n + 1, sizeof(*inc));
		inc[n++] = (struct store_increase){
			.metric = sql_col_dup(q, 0),
			.scope = sql_col_dup(q, 1),
			.increase = sqlite3_column_int64(q, 2),
		};
	}
	if (rc != SQLITE_DONE) {
		store_increases__free(inc, n);
		return failed(st, "value");
	}
	*ret = inc;
	*ret_n = n;
	return 0;
}

int store__run_span(struct store *st, int64_t run_id, double *ret_seconds)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (prepare(st, "SELECT MAX(t_ns) - MIN(t_ns) FROM sample WHERE run_id = ?", &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	if (sqlite3_step(q) != SQLITE_ROW)
		return failed(st, "sample");
	*ret_seconds = (double)sqlite3_column_int64(q, 0) / 1e9;
	return 0;
}

/* Every result, every counter's increase and the span of a run. */
static int run_data(struct store *st, int64_t run_id, struct store_run_data *ret)
{
	struct store_run_data d = { 0 };
	int r;

	r = run_results(st, run_id, &d);
	if (r == 0)
		r = store__run_increases(st, run_id, "%", &d.increases, &d.nincreases);
	if (r == 0)
		r = store__run_span(st, run_id, &d.seconds);
	if (r < 0) {
		store_run_data__clear(&d);
		return r;
	}
	*ret = d;
	return 0;
}

/* ---- runs ---------------------------------------------------------------- */

void store_runs__free(struct store_run *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++) {
		free(r[i].status);
		free(r[i].release);
		store_run_data__clear(&r[i].data);
	}
	free(r);
}

int store__runs(struct store *st, int data_from_rep, struct store_run **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_run *runs = NULL;
	size_t n = 0;
	int rc, r = 0;

	if (prepare(st,
		    "SELECT r.id, r.variant_id, r.rep, r.status, "
		    " (SELECT value FROM run_prov WHERE run_id = r.id AND "
		    "  key = 'guest.kernel_release') "
		    "FROM run r ORDER BY r.ord",
		    &q) < 0)
		return -EIO;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_run *run;

		runs = xrealloc(runs, n + 1, sizeof(*runs));
		run = &runs[n++];
		*run = (struct store_run){
			.id = sqlite3_column_int64(q, 0),
			.variant_id = sqlite3_column_int64(q, 1),
			.rep = sqlite3_column_int(q, 2),
			.status = sql_col_dup(q, 3),
			.release = sql_col_dup(q, 4),
		};
	}
	if (rc != SQLITE_DONE)
		r = failed(st, "run");
	/* the data once the run list is read (one statement open at a time) */
	for (size_t i = 0; i < n && r == 0; i++) {
		if (strcmp(runs[i].status, RUN_COMPLETED) || runs[i].rep < data_from_rep)
			continue;
		r = run_data(st, runs[i].id, &runs[i].data);
		runs[i].has_data = r == 0;
	}
	if (r < 0) {
		store_runs__free(runs, n);
		return r;
	}
	*ret = runs;
	*ret_n = n;
	return 0;
}

/* ---- lost repetitions ---------------------------------------------------- */

void store_lost_runs__free(struct store_lost_run *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		free(l[i].status);
		free(l[i].reason);
	}
	free(l);
}

int store__lost_runs(struct store *st, struct store_lost_run **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_lost_run *l = NULL;
	size_t n = 0;
	int rc;

	if (prepare(st,
		    "SELECT r.id, r.variant_id, r.rep, r.status, COALESCE(r.reason, '') FROM run r "
		    "WHERE r.status LIKE 'failed%' AND r.ord = (SELECT MAX(o.ord) FROM run o "
		    "  WHERE o.variant_id = r.variant_id AND o.rep = r.rep "
		    "  AND o.status LIKE 'failed%') "
		    "AND NOT EXISTS (SELECT 1 FROM run o WHERE o.variant_id = r.variant_id "
		    "  AND o.rep = r.rep AND o.status IN ('completed', 'pending', 'running')) "
		    "ORDER BY r.ord",
		    &q) < 0)
		return -EIO;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		l = xrealloc(l, n + 1, sizeof(*l));
		l[n++] = (struct store_lost_run){
			.run_id = sqlite3_column_int64(q, 0),
			.variant_id = sqlite3_column_int64(q, 1),
			.rep = sqlite3_column_int(q, 2),
			.status = sql_col_dup(q, 3),
			.reason = sql_col_dup(q, 4),
		};
	}
	if (rc != SQLITE_DONE) {
		store_lost_runs__free(l, n);
		return failed(st, "run");
	}
	*ret = l;
	*ret_n = n;
	return 0;
}

/* ---- values over time ---------------------------------------------------- */

void store_sample_values__free(struct store_sample_value *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].metric);
	free(v);
}

int store__run_series(struct store *st, int64_t run_id, const char *metric_like,
		      const char *scope, struct store_sample_value **ret, size_t *ret_n,
		      int64_t *ret_first_seq)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_sample_value *v = NULL;
	int64_t first_seq = -1;
	size_t n = 0;
	int rc;

	if (prepare(st,
		    "SELECT m.name, v.seq, s.t_ns, v.v, "
		    " (SELECT MIN(seq) FROM sample WHERE run_id = ?1) "
		    "FROM value v JOIN sample s USING(run_id, seq) "
		    "JOIN metric m ON m.id = v.metric_id "
		    "WHERE v.run_id = ?1 AND m.name LIKE ?3 "
		    "AND v.scope_id = (SELECT id FROM scope WHERE name = ?2) "
		    "ORDER BY m.name, v.seq",
		    &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	sql_bind_text(q, 2, scope);
	sql_bind_text(q, 3, metric_like);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		v = xrealloc(v, n + 1, sizeof(*v));
		v[n++] = (struct store_sample_value){
			.metric = sql_col_dup(q, 0),
			.seq = sqlite3_column_int64(q, 1),
			.t_ns = sqlite3_column_int64(q, 2),
			.v = sqlite3_column_int64(q, 3),
		};
		first_seq = sqlite3_column_int64(q, 4);
	}
	if (rc != SQLITE_DONE) {
		store_sample_values__free(v, n);
		return failed(st, "value");
	}
	*ret = v;
	*ret_n = n;
	*ret_first_seq = first_seq;
	return 0;
}
