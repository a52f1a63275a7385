// SPDX-License-Identifier: GPL-2.0
/* The queries behind store-wss.h: the wss table, the probe's values, events, results. */
#include "store-wss.h"
#include "store-priv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IN 8 /* names in one "IN (?, ...)" list */

/* A query's failure: recorded in the store's message; -EIO. */
static int failed(struct store *st, const char *what)
{
	store__fail(st, sqlite3_extended_errcode(store__sqlite(st)), what);
	return -EIO;
}

/* "?2, ?3, ..." for n names bound from parameter first on; n is at most MAX_IN. */
static void in_list(char *buf, size_t len, size_t n, int first)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s?%d", i ? ", " : "", first + (int)i);
}

/* ---- the wss table ------------------------------------------------------- */

void wss_rows__free(struct wss_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free(rows[i].memcg);
		free(rows[i].quantity);
		free(rows[i].method);
		free(rows[i].model);
		free(rows[i].source);
	}
	free(rows);
}

int store__wss_write(struct store *st, const struct wss_row *rows, size_t n)
{
	sqlite3 *db = store__sqlite(st);
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__commit(st);

	if (r < 0)
		return r;
	if (sql_exec(db,
		     "BEGIN IMMEDIATE; DROP TABLE IF EXISTS wss;\n"
		     "CREATE TABLE wss(\n"
		     "  memcg TEXT NOT NULL,\n"
		     "  quantity TEXT NOT NULL,\n"
		     "  method TEXT NOT NULL,\n"
		     "  pages REAL NOT NULL,\n"
		     "  sd REAL,\n"
		     "  windows INTEGER NOT NULL,\n"
		     "  window_s REAL NOT NULL,\n"
		     "  known REAL,\n"
		     "  model TEXT NOT NULL,\n"
		     "  source TEXT NOT NULL,\n"
		     "  PRIMARY KEY(memcg, quantity, method));",
		     NULL, 0) < 0)
		return failed(st, "wss");
	if (sql_prepare(db,
			"INSERT INTO wss(memcg, quantity, method, pages, sd, windows, window_s, "
			"known, model, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			&q, NULL, 0) < 0) {
		r = failed(st, "wss");
		sql_exec(db, "ROLLBACK", NULL, 0);
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		const struct wss_row *row = &rows[i];

		sql_bind_text(q, 1, row->memcg);
		sql_bind_text(q, 2, row->quantity);
		sql_bind_text(q, 3, row->method);
		sqlite3_bind_double(q, 4, row->pages);
		sql_bind_real(q, 5, row->sd);
		sqlite3_bind_int64(q, 6, (int64_t)row->windows);
		sqlite3_bind_double(q, 7, row->window_s);
		sql_bind_real(q, 8, row->known);
		sql_bind_text(q, 9, row->model);
		sql_bind_text(q, 10, row->source);
		if (sql_step_done(db, q, NULL, 0) < 0) {
			r = failed(st, "wss");
			sql_exec(db, "ROLLBACK", NULL, 0);
			return r;
		}
	}
	return sql_exec(db, "COMMIT", NULL, 0) == 0 ? 0 : failed(st, "wss");
}

int store__wss_read(struct store *st, struct wss_row **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct wss_row *rows = NULL;
	size_t n = 0;

	/* no table is no estimate: not recorded as a failure */
	if (sql_prepare(store__sqlite(st),
			"SELECT memcg, quantity, method, pages, sd, windows, window_s, known, "
			"model, source FROM wss ORDER BY rowid",
			&q, NULL, 0) < 0)
		return -ENOENT;
	while (sqlite3_step(q) == SQLITE_ROW) {
		rows = xrealloc(rows, n + 1, sizeof(*rows));
		rows[n++] = (struct wss_row){
			.memcg = sql_col_dup(q, 0),
			.quantity = sql_col_dup(q, 1),
			.method = sql_col_dup(q, 2),
			.pages = sqlite3_column_double(q, 3),
			.sd = sql_col_real(q, 4),
			.windows = (size_t)sqlite3_column_int64(q, 5),
			.window_s = sqlite3_column_double(q, 6),
			.known = sql_col_real(q, 7),
			.model = sql_col_dup(q, 8),
			.source = sql_col_dup(q, 9),
		};
	}
	if (!n)
		return -ENOENT;
	*ret = rows;
	*ret_n = n;
	return 0;
}

/* ---- the probe's values ---------------------------------------------------- */

void store_values__free(struct store_value *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].scope);
		free(v[i].metric);
	}
	free(v);
}

int store__completed_values(struct store *st, const char *metric_like, struct store_value **ret,
			    size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_value *v = NULL;
	size_t n = 0;

	if (store__prepare(st,
			   "SELECT v.run_id, v.seq, s.name, m.name, v.v, t.t_ns FROM value v "
			   "JOIN metric m ON m.id = v.metric_id JOIN scope s ON s.id = v.scope_id "
			   "JOIN run r ON r.id = v.run_id "
			   "JOIN sample t ON t.run_id = v.run_id AND t.seq = v.seq "
			   "WHERE m.name LIKE ? AND r.status = 'completed' "
			   "ORDER BY v.run_id, s.name, v.seq",
			   &q) < 0)
		return -EIO;
	sql_bind_text(q, 1, metric_like);
	while (sqlite3_step(q) == SQLITE_ROW) {
		v = xrealloc(v, n + 1, sizeof(*v));
		v[n++] = (struct store_value){
			.run_id = sqlite3_column_int64(q, 0),
			.seq = sqlite3_column_int64(q, 1),
			.scope = sql_col_dup(q, 2),
			.metric = sql_col_dup(q, 3),
			.v = sqlite3_column_int64(q, 4),
			.t_ns = sqlite3_column_int64(q, 5),
		};
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* ---- events and results -------------------------------------------------- */

void store_events__free(struct store_event *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		free(e[i].kind);
		free(e[i].text);
	}
	free(e);
}

int store__run_events(struct store *st, int64_t run_id, const char *const *kinds, size_t nkinds,
		      struct store_event **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *sql = NULL;
	struct store_event *e = NULL;
	char in[8 * MAX_IN];
	size_t n = 0;

	if (!nkinds || nkinds > MAX_IN)
		return -EINVAL;
	in_list(in, sizeof(in), nkinds, 2);
	sql = xasprintf("SELECT t_ns, kind, text FROM event WHERE run_id = ?1 AND kind IN (%s)",
			in);
	if (store__prepare(st, sql, &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	for (size_t i = 0; i < nkinds; i++)
		sql_bind_text(q, 2 + (int)i, kinds[i]);
	while (sqlite3_step(q) == SQLITE_ROW) {
		e = xrealloc(e, n + 1, sizeof(*e));
		e[n++] = (struct store_event){
			.t_ns = sqlite3_column_int64(q, 0),
			.kind = sql_col_dup(q, 1),
			.text = sql_col_dup(q, 2),
		};
	}
	*ret = e;
	*ret_n = n;
	return 0;
}

int store__result_get(struct store *st, int64_t run_id, const char *workload, const char *key,
		      double *ret_value)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (store__prepare(st,
			   "SELECT value FROM result WHERE run_id = ? AND workload = ? AND key = ?",
			   &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	sql_bind_text(q, 2, workload);
	sql_bind_text(q, 3, key);
	if (sqlite3_step(q) != SQLITE_ROW)
		return -ENOENT;
	*ret_value = sqlite3_column_double(q, 0);
	return 0;
}

int store__completed_span_sum(struct store *st, const char *const *metrics, size_t n,
			      uint64_t *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *sql = NULL;
	char in[8 * MAX_IN];

	if (!n || n > MAX_IN)
		return -EINVAL;
	in_list(in, sizeof(in), n, 1);
	sql = xasprintf("SELECT SUM(d) FROM (SELECT MAX(v.v) - MIN(v.v) AS d FROM v_value v "
			"JOIN run r ON r.id = v.run_id WHERE r.status = 'completed' AND "
			"v.metric IN (%s) GROUP BY v.run_id, v.metric)",
			in);
	if (store__prepare(st, sql, &q) < 0)
		return -EIO;
	for (size_t i = 0; i < n; i++)
		sql_bind_text(q, 1 + (int)i, metrics[i]);
	if (sqlite3_step(q) != SQLITE_ROW)
		return failed(st, "value");
	*ret = sqlite3_column_type(q, 0) == SQLITE_NULL ? 0 : (uint64_t)sqlite3_column_int64(q, 0);
	return 0;
}
