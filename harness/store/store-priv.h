/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the files of harness/store/ that offer typed queries on a campaign
 * store beside store.c's (one file per area: what a report reads, what a
 * dataset reads, ...): the handle and the store's own error path. No file
 * outside harness/store/ includes this (scripts/layers.sh).
 */
#ifndef LRUBENCH_STORE_PRIV_H
#define LRUBENCH_STORE_PRIV_H

#include <sqlite3.h>

#include "sql.h"
#include "store.h"

sqlite3 *store__sqlite(struct store *st);
/* Record SQLite's failure rc under what in the store's message (store__errmsg);
 * a batch SQLite rolled back is counted lost. Returns the -errno (sql_errno). */
int store__fail(struct store *st, int rc, const char *what);
/* A one-off statement; a failure is recorded as store__fail does. */
int store__prepare(struct store *st, const char *sql, sqlite3_stmt **ret);
/* Step a statement that returns no row, then reset it. */
int store__step_done(struct store *st, sqlite3_stmt *s, const char *what);
/* Writes: in the store's open batch (begun if none), committed by store__commit. */
int store__tx_begin(struct store *st);

#endif
