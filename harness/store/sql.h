/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SQLite helpers, once, for the files of harness/store/ (the only layer
 * that speaks SQL; scripts/layers.sh fails on SQLite anywhere else).
 *
 * Errors are -errno values (sql_errno: a constraint or mismatch is -EINVAL,
 * out of memory -ENOMEM, the rest -EIO); the ones that fail also write
 * "WHAT: SQLite's message" into err (len bytes), for the owner of the
 * database handle to report.
 */
#ifndef LRUBENCH_SQL_H
#define LRUBENCH_SQL_H

#include <sqlite3.h>
#include <stddef.h>

#include "util.h"

void sql_finalizep(sqlite3_stmt **s);
#define _cleanup_stmt_ _cleanup_(sql_finalizep)

int sql_errno(int rc);
/* Record db's last error under what; returns sql_errno(rc). */
int sql_fail(sqlite3 *db, int rc, const char *what, char *err, size_t len);
int sql_exec(sqlite3 *db, const char *sql, char *err, size_t len);
int sql_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **ret, char *err, size_t len);
/* Step a statement that returns no row, then reset it (also on failure). */
int sql_step_done(sqlite3 *db, sqlite3_stmt *s, char *err, size_t len);

/* Binding: a NULL string and a non-finite number bind SQL NULL. The text is
 * not copied: it must live until the statement is stepped. */
int sql_bind_text(sqlite3_stmt *s, int i, const char *t);
int sql_bind_real(sqlite3_stmt *s, int i, double x);

/* Columns: SQL NULL reads as "" (text), a copy of "" (dup) and NaN (real). */
const char *sql_col_text(sqlite3_stmt *q, int i);
char *sql_col_dup(sqlite3_stmt *q, int i);
double sql_col_real(sqlite3_stmt *q, int i);

#endif
