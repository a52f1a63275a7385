// SPDX-License-Identifier: GPL-2.0
/* The noise table of a campaign store: see store-noise.h. */
#include "store-noise.h"
#include "store-priv.h"

#include <errno.h>
#include <stdint.h>

static const char noise_schema[] = "DROP TABLE IF EXISTS noise;\n"
				   "CREATE TABLE noise(\n"
				   "  label TEXT PRIMARY KEY NOT NULL,\n"
				   "  n INTEGER NOT NULL,\n"
				   "  cv REAL,\n"
				   "  change REAL,\n"
				   "  mde REAL,\n"
				   "  source TEXT NOT NULL,\n"
				   "  blocks INTEGER,\n"
				   "  pair_sd REAL,\n"
				   "  mde_paired REAL);";

static int noise_rows(struct store *st, const struct noise *nz)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r = store__prepare(st,
			       "INSERT INTO noise(label, n, cv, change, mde, source, blocks, "
			       "pair_sd, mde_paired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       &q);

	for (size_t i = 0; r == 0 && i < nz->nrows; i++) {
		const struct noise_row *n = &nz->rows[i];

		sql_bind_text(q, 1, n->label);
		sqlite3_bind_int64(q, 2, (int64_t)n->n);
		sql_bind_real(q, 3, n->cv);
		sql_bind_real(q, 4, n->change);
		sql_bind_real(q, 5, n->mde);
		sql_bind_text(q, 6, nz->source);
		sqlite3_bind_int64(q, 7, (int64_t)n->blocks);
		sql_bind_real(q, 8, n->pair_sd);
		sql_bind_real(q, 9, n->mde_paired);
		r = store__step_done(st, q, "noise row");
	}
	return r;
}

int noise__store(struct store *st, const struct noise *nz)
{
	sqlite3 *db = store__sqlite(st);
	int r = store__commit(st);

	if (r < 0)
		return r;
	/* the table whole or not at all, outside the store's batch */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_exec(db, noise_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    noise_rows(st, nz) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

int noise__load(struct store *st, struct noise **ret)
{
	_cleanup_(noise__freep) struct noise *nz = xcalloc(1, sizeof(*nz));
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	/* no table (or one of an older lrubench): no noise figures */
	if (sqlite3_prepare_v2(store__sqlite(st),
			       "SELECT label, n, cv, change, mde, source, blocks, pair_sd, mde_paired "
			       "FROM noise ORDER BY rowid",
			       -1, &q, NULL) != SQLITE_OK)
		return -ENOENT;
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct noise_row *r;

		nz->rows = xrealloc(nz->rows, nz->nrows + 1, sizeof(*nz->rows));
		r = &nz->rows[nz->nrows++];
		r->label = sql_col_dup(q, 0);
		r->n = (size_t)sqlite3_column_int64(q, 1);
		r->cv = sql_col_real(q, 2);
		r->change = sql_col_real(q, 3);
		r->mde = sql_col_real(q, 4);
		r->blocks = (size_t)sqlite3_column_int64(q, 6);
		r->pair_sd = sql_col_real(q, 7);
		r->mde_paired = sql_col_real(q, 8);
		if (!nz->source)
			nz->source = sql_col_dup(q, 5);
	}
	if (!nz->nrows)
		return -ENOENT;
	*ret = TAKE_PTR(nz);
	return 0;
}

void noise__free(struct noise *nz)
{
	if (!nz)
		return;
	for (size_t i = 0; i < nz->nrows; i++)
		free(nz->rows[i].label);
	free(nz->rows);
	free(nz->source);
	free(nz);
}

void noise__freep(struct noise **nz)
{
	noise__free(*nz);
}
