// SPDX-License-Identifier: GPL-2.0
/* The SQLite helpers of harness/store/: see sql.h. */
#include "sql.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

void sql_finalizep(sqlite3_stmt **s)
{
	sqlite3_finalize(*s);
}

int sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_TOOBIG:
	case SQLITE_RANGE:
		return -EINVAL;
	case SQLITE_NOMEM:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

int sql_fail(sqlite3 *db, int rc, const char *what, char *err, size_t len)
{
	if (err && len)
		snprintf(err, len, "%.200s: %.300s", what, sqlite3_errmsg(db));
	return rc == SQLITE_OK ? -EIO : sql_errno(rc);
}

int sql_exec(sqlite3 *db, const char *sql, char *err, size_t len)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sql_fail(db, rc, sql, err, len);
}

int sql_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **ret, char *err, size_t len)
{
	int rc = sqlite3_prepare_v2(db, sql, -1, ret, NULL);

	return rc == SQLITE_OK ? 0 : sql_fail(db, rc, sql, err, len);
}

int sql_step_done(sqlite3 *db, sqlite3_stmt *s, char *err, size_t len)
{
	int rc = sqlite3_step(s);
	int r = 0;

	if (rc != SQLITE_DONE)
		r = sql_fail(db, sqlite3_extended_errcode(db), sqlite3_sql(s), err, len);
	sqlite3_reset(s);
	return r;
}

int sql_bind_text(sqlite3_stmt *s, int i, const char *t)
{
	return t ? sqlite3_bind_text(s, i, t, -1, SQLITE_STATIC) : sqlite3_bind_null(s, i);
}

int sql_bind_real(sqlite3_stmt *s, int i, double x)
{
	return isfinite(x) ? sqlite3_bind_double(s, i, x) : sqlite3_bind_null(s, i);
}

const char *sql_col_text(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);

	return s ? s : "";
}

char *sql_col_dup(sqlite3_stmt *q, int i)
{
	return xstrdup(sql_col_text(q, i));
}

double sql_col_real(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}
