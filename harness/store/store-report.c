// SPDX-License-Identifier: GPL-2.0
/* What reports read from a campaign store: see store-report.h. */
#include "store-report.h"
#include "store-priv.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* Grow *v (n elements of size) by one zeroed element; returns it. */
static void *grow(void *pv, size_t *n, size_t size)
{
	void **v = pv;
	char *e;

	*v = xrealloc(*v, *n + 1, size);
	e = (char *)*v + *n * size;
	memset(e, 0, size);
	(*n)++;
	return e;
}

int store__report_runs(struct store *st, struct store_run_row **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_run_row *rows = NULL;
	size_t n = 0;
	int r = store__prepare(
		st,
		"SELECT r.id, v.name, r.rep, r.status, COALESCE(r.reason, ''), "
		" (SELECT COUNT(*) FROM sample WHERE run_id = r.id), "
		" (SELECT value FROM run_prov WHERE run_id = r.id AND key = 'accel'), "
		" (r.ended_ns - r.started_ns) / 1e9, "
		" (SELECT COUNT(*) FROM event WHERE run_id = r.id AND kind = 'kernel'), "
		" (SELECT text FROM event WHERE run_id = r.id AND kind = 'kernel' ORDER BY id "
		"  LIMIT 1) "
		"FROM run r JOIN variant v ON v.id = r.variant_id ORDER BY r.ord",
		&q);

	if (r < 0)
		return r;
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_run_row *w = grow(&rows, &n, sizeof(*rows));

		*w = (struct store_run_row){
			.id = sqlite3_column_int64(q, 0),
			.variant = sql_col_dup(q, 1),
			.rep = sqlite3_column_int(q, 2),
			.status = sql_col_dup(q, 3),
			.reason = sql_col_dup(q, 4),
			.samples = sqlite3_column_int64(q, 5),
			.accel = sql_col_dup(q, 6),
			.wall_s = sql_col_real(q, 7),
			.kernel_warnings = sqlite3_column_int64(q, 8),
			.first_warning = sql_col_dup(q, 9),
		};
	}
	*ret = rows;
	*ret_n = n;
	return 0;
}

void store_run_rows__free(struct store_run_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].variant);
		free(rows[i].status);
		free(rows[i].reason);
		free(rows[i].accel);
		free(rows[i].first_warning);
	}
	free(rows);
}

/* Rows of up to three text columns. */
static int kvs(struct store *st, const char *sql, int ncol, struct store_kv **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_kv *kv = NULL;
	size_t n = 0;
	int r = store__prepare(st, sql, &q);

	if (r < 0)
		return r;
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_kv *e = grow(&kv, &n, sizeof(*kv));

		e->a = sql_col_dup(q, 0);
		e->b = sql_col_dup(q, 1);
		e->c = ncol > 2 ? sql_col_dup(q, 2) : NULL;
	}
	*ret = kv;
	*ret_n = n;
	return 0;
}

void store_kvs__free(struct store_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].a);
		free(kv[i].b);
		free(kv[i].c);
	}
	free(kv);
}

int store__report_prov(struct store *st, struct store_kv **ret, size_t *ret_n)
{
	return kvs(st,
		   "SELECT v.name, p.key, p.value FROM variant v JOIN run_prov p ON "
		   "p.run_id = (SELECT MIN(run_id) FROM run_prov WHERE run_id IN "
		   "(SELECT id FROM run WHERE variant_id = v.id)) ORDER BY v.id",
		   3, ret, ret_n);
}

int store__report_prov_values(struct store *st, struct store_kv **ret, size_t *ret_n)
{
	return kvs(st, "SELECT DISTINCT key, value FROM run_prov ORDER BY key, value", 2, ret,
		   ret_n);
}

int store__report_trace_skips(struct store *st, struct store_text_count **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_text_count *t = NULL;
	size_t n = 0;
	int r = store__prepare(st,
			       "SELECT text, COUNT(*) FROM event WHERE kind = 'skip' AND text LIKE "
			       "'trace reclaim%' GROUP BY text ORDER BY MIN(id)",
			       &q);

	if (r < 0)
		return r;
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_text_count *e = grow(&t, &n, sizeof(*t));

		e->text = sql_col_dup(q, 0);
		e->n = sqlite3_column_int64(q, 1);
	}
	*ret = t;
	*ret_n = n;
	return 0;
}

void store_text_counts__free(struct store_text_count *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].text);
	free(t);
}

int store__report_console(struct store *st, int64_t run_id, char **ret, size_t *ret_len)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st, "SELECT text FROM log WHERE run_id = ? AND name = 'console'",
			       &q);
	const char *text;
	size_t len;

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	if (sqlite3_step(q) != SQLITE_ROW)
		return -ENOENT;
	text = sqlite3_column_blob(q, 0);
	len = (size_t)sqlite3_column_bytes(q, 0);
	*ret = xcalloc(len + 1, 1);
	if (len)
		memcpy(*ret, text, len);
	*ret_len = len;
	return 0;
}

/* The first column of a one-row query on run_id as an integer, or def without a row (and, with
 * positive, when it is not above 0). */
static int run_int(struct store *st, const char *sql, int64_t run_id, int64_t def, bool positive,
		   int64_t *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st, sql, &q);

	*ret = def;
	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	if (sqlite3_step(q) == SQLITE_ROW && (!positive || sqlite3_column_int64(q, 0) > 0))
		*ret = sqlite3_column_int64(q, 0);
	return 0;
}

int store__report_run_origin(struct store *st, int64_t run_id, int64_t *ret)
{
	return run_int(st,
		       "SELECT COALESCE((SELECT MIN(t_ns) FROM event WHERE run_id = ?1 AND "
		       "kind = 'workload-start'), (SELECT MIN(t_ns) FROM sample WHERE "
		       "run_id = ?1), 0)",
		       run_id, 0, false, ret);
}

int store__report_run_page_size(struct store *st, int64_t run_id, int64_t *ret)
{
	return run_int(st,
		       "SELECT value FROM run_prov WHERE run_id = ? AND "
		       "key = 'guest.conf.page_size'",
		       run_id, 4096, true, ret);
}

/* The event rows of run_id that sql (binding it to ?1) selects. */
static int event_rows(struct store *st, const char *sql, int64_t run_id,
		      struct store_event_row **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_event_row *ev = NULL;
	size_t n = 0;
	int r = store__prepare(st, sql, &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_event_row *e = grow(&ev, &n, sizeof(*ev));

		e->t_ns = sqlite3_column_int64(q, 0);
		e->kind = sql_col_dup(q, 1);
		e->text = sql_col_dup(q, 2);
	}
	*ret = ev;
	*ret_n = n;
	return 0;
}

int store__report_phases(struct store *st, int64_t run_id, struct store_event_row **ret,
			 size_t *ret_n)
{
	return event_rows(st,
			  "SELECT t_ns, kind, text FROM event WHERE run_id = ? AND kind IN "
			  "('workload-start', 'workload-exit', 'phase', 'oom') AND t_ns > 0 "
			  "AND NOT (kind = 'phase' AND (text LIKE 'sampling%' OR text LIKE "
			  "'workloads%' OR text LIKE 'done%')) ORDER BY t_ns",
			  run_id, ret, ret_n);
}

int store__report_marks(struct store *st, int64_t run_id, struct store_event_row **ret,
			size_t *ret_n)
{
	return event_rows(st,
			  "SELECT t_ns, kind, text FROM event WHERE run_id = ? AND kind = 'mark' "
			  "ORDER BY t_ns, rowid",
			  run_id, ret, ret_n);
}

void store_event_rows__free(struct store_event_row *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ev[i].kind);
		free(ev[i].text);
	}
	free(ev);
}

/* The first column's texts, the text bound to ?1 and the integer to ?2 when given. */
static int strv(struct store *st, const char *sql, const char *text, int64_t id, char ***ret,
		size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	char **v = NULL;
	size_t n = 0;
	int r = store__prepare(st, sql, &q);

	if (r < 0)
		return r;
	if (text)
		sql_bind_text(q, 1, text);
	else
		sqlite3_bind_int64(q, 1, id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		char **e = grow(&v, &n, sizeof(*v));

		*e = sql_col_dup(q, 0);
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void store_strv__free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int store__report_gen_memcgs(struct store *st, int64_t run_id, char ***ret, size_t *ret_n)
{
	return strv(st, "SELECT DISTINCT memcg_path FROM lru_gen WHERE run_id = ?", NULL, run_id,
		    ret, ret_n);
}

int store__report_gens(struct store *st, int64_t run_id, const char *memcg,
		       struct store_gen_row **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_gen_row *g = NULL;
	size_t n = 0;
	int r = store__prepare(st,
			       "SELECT g.seq, s.t_ns, g.gen, SUM(g.anon), SUM(g.file) FROM lru_gen g "
			       "JOIN sample s USING(run_id, seq) WHERE g.run_id = ? AND "
			       "g.memcg_path = ? GROUP BY g.seq, g.gen ORDER BY g.seq, g.gen DESC",
			       &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	sql_bind_text(q, 2, memcg);
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_gen_row *e = grow(&g, &n, sizeof(*g));

		*e = (struct store_gen_row){
			.seq = sqlite3_column_int64(q, 0),
			.t_ns = sqlite3_column_int64(q, 1),
			.gen = sqlite3_column_int64(q, 2),
			.anon = sqlite3_column_int64(q, 3),
			.file = sqlite3_column_int64(q, 4),
		};
	}
	*ret = g;
	*ret_n = n;
	return 0;
}

int store__report_scopes(struct store *st, const char *metric, char ***ret, size_t *ret_n)
{
	return strv(st,
		    "SELECT name FROM scope WHERE id IN (SELECT DISTINCT scope_id FROM "
		    "value WHERE metric_id = (SELECT id FROM metric WHERE name = ?)) "
		    "ORDER BY name",
		    metric, 0, ret, ret_n);
}

int store__report_series(struct store *st, int64_t run_id, const char *metric, const char *scope,
			 struct store_point **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct store_point *p = NULL;
	size_t n = 0;
	int r = store__prepare(st,
			       "SELECT s.t_ns, v.v FROM value v JOIN sample s USING(run_id, seq) "
			       "WHERE v.run_id = ?1 AND v.metric_id = (SELECT id FROM metric WHERE "
			       "name = ?2) AND v.scope_id = (SELECT id FROM scope WHERE name = ?3) "
			       "ORDER BY v.seq",
			       &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	sql_bind_text(q, 2, metric);
	sql_bind_text(q, 3, scope);
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct store_point *e = grow(&p, &n, sizeof(*p));

		e->t_ns = sqlite3_column_int64(q, 0);
		e->v = sqlite3_column_int64(q, 1);
	}
	*ret = p;
	*ret_n = n;
	return 0;
}
