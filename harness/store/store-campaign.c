// SPDX-License-Identifier: GPL-2.0
/* What running a campaign reads from its store: see store-campaign.h. */
#include "store-campaign.h"
#include "store-priv.h"

#include <errno.h>
#include <string.h>

static void run_row(sqlite3_stmt *q, struct store_run *ret)
{
	*ret = (struct store_run){
		.id = sqlite3_column_int64(q, 0),
		.variant_id = sqlite3_column_int64(q, 1),
		.rep = sqlite3_column_int(q, 2),
		.seed = (uint64_t)sqlite3_column_int64(q, 3),
		.ord = sqlite3_column_int(q, 4),
	};
}

/* Step q for at most one row: 1 a row, 0 none, -errno. */
static int step_row(struct store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store__fail(st, rc, what);
}

int store__run_next_pending(struct store *st, struct store_run *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st,
			       "SELECT id, variant_id, rep, seed, ord FROM run WHERE status = 'pending' "
			       "ORDER BY ord LIMIT 1",
			       &q);

	if (r < 0)
		return r;
	r = step_row(st, q, "next pending run");
	if (r > 0)
		run_row(q, ret);
	return r;
}

int store__run_get(struct store *st, int64_t id, struct store_run *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st, "SELECT id, variant_id, rep, seed, ord FROM run WHERE id = ?", &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, id);
	r = step_row(st, q, "run");
	if (r > 0)
		run_row(q, ret);
	return r;
}

int store__run_status(struct store *st, int64_t id, char **ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st, "SELECT status FROM run WHERE id = ?", &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, id);
	r = step_row(st, q, "run status");
	if (r > 0)
		*ret = sql_col_dup(q, 0);
	return r;
}

int store__runs_running(struct store *st, struct store_run **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ struct store_run *runs = NULL;
	size_t n = 0;
	int r = store__prepare(st,
			       "SELECT id, variant_id, rep, seed, ord FROM run WHERE status = 'running'",
			       &q);

	if (r < 0)
		return r;
	while ((r = step_row(st, q, "running runs")) > 0) {
		runs = xrealloc(runs, n + 1, sizeof(*runs));
		run_row(q, &runs[n++]);
	}
	if (r < 0)
		return r;
	*ret = TAKE_PTR(runs);
	*ret_n = n;
	return 0;
}

/* One integer from sql with a and b bound to ?1 and ?2; -1 when SQLite fails. */
static int64_t query_int(struct store *st, const char *sql, int64_t a, int64_t b)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (store__prepare(st, sql, &q) < 0)
		return -1;
	sqlite3_bind_int64(q, 1, a);
	sqlite3_bind_int64(q, 2, b);
	if (sqlite3_step(q) != SQLITE_ROW)
		return -1;
	return sqlite3_column_int64(q, 0);
}

int64_t store__runs_total(struct store *st)
{
	return query_int(st, "SELECT COUNT(*) FROM run WHERE ?1 = ?2", 0, 0);
}

int64_t store__runs_done(struct store *st)
{
	return query_int(st, "SELECT COUNT(*) FROM run WHERE status NOT IN ('pending', 'running') "
			     "AND ?1 = ?2", 0, 0);
}

int64_t store__runs_pending(struct store *st)
{
	return query_int(st, "SELECT COUNT(*) FROM run WHERE status = 'pending' AND ?1 = ?2", 0, 0);
}

int64_t store__runs_failed_infra(struct store *st, int64_t variant_id, int rep)
{
	return query_int(st,
			 "SELECT COUNT(*) FROM run WHERE variant_id = ?1 AND rep = ?2 "
			 "AND status = 'failed-infra'",
			 variant_id, rep);
}

int64_t store__run_last_ord(struct store *st)
{
	return query_int(st, "SELECT MAX(ord) FROM run WHERE ?1 = ?2", 0, 0);
}

int64_t store__run_next_ord(struct store *st)
{
	return query_int(st, "SELECT COALESCE(MAX(ord), -1) + 1 FROM run WHERE ?1 = ?2", 0, 0);
}

int64_t store__run_blocks(struct store *st)
{
	return query_int(st, "SELECT COALESCE(MAX(rep), -1) + 1 FROM run WHERE ?1 = ?2", 0, 0);
}

int store__variant_id(struct store *st, const char *name, int64_t *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st, "SELECT id FROM variant WHERE name = ?", &q);

	if (r < 0)
		return r;
	if (sql_bind_text(q, 1, name))
		return store__fail(st, sqlite3_errcode(store__sqlite(st)), "variant");
	r = step_row(st, q, "variant");
	if (r > 0)
		*ret = sqlite3_column_int64(q, 0);
	return r;
}

int store__meta_set_int(struct store *st, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return store__meta_set(st, key, buf);
}

int store__run_workload_events(struct store *st, int64_t run_id,
			       void (*fn)(void *ctx, const char *kind, const char *text),
			       void *ctx)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st,
			       "SELECT kind, text FROM event WHERE run_id = ? AND "
			       "kind IN ('workload-exit', 'oom') ORDER BY id",
			       &q);

	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, run_id);
	while ((r = step_row(st, q, "workload events")) > 0)
		fn(ctx, sql_col_text(q, 0), sql_col_text(q, 1));
	return r;
}
