// SPDX-License-Identifier: GPL-2.0
#include "noise.h"
#include "plan.h"
#include "spending.h"
#include "stats.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

int noise__plan(struct plan *p, const char *variant, char **ret_err)
{
	struct plan_variant *twins;
	_cleanup_free_ char *a = NULL, *b = NULL;
	size_t vi;

	if (!variant)
		variant = p->baseline;
	for (vi = 0; vi < p->nvariants; vi++)
		if (!strcmp(p->variants[vi].name, variant))
			break;
	if (vi == p->nvariants) {
		*ret_err = xasprintf("%s: no [variant %s]", p->path, variant);
		return -ENOENT;
	}
	a = xasprintf("%s-a", variant);
	b = xasprintf("%s-b", variant);
	twins = xcalloc(2, sizeof(*twins));
	twins[0] = plan_variant__copy(&p->variants[vi], a);
	twins[1] = plan_variant__copy(&p->variants[vi], b);
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant__clear(&p->variants[i]);
	free(p->variants);
	p->variants = twins;
	p->nvariants = 2;
	free(p->baseline);
	p->baseline = TAKE_PTR(a);
	{
		char *name = xasprintf("%s-noise", p->name);

		free(p->name);
		p->name = name;
	}
	return 0;
}

/*
 * The spread of the block differences relative to the baseline's mean: the
 * noise the paired rule sees (drift shared by a block cancels in it).
 */
static double pair_sd(const struct dataset *ds, const struct ds_row *row, size_t cand, double *pa,
		      double *pb, size_t *ret_n)
{
	size_t n = ds_pairs(ds, row, ds->base, cand, pa, pb);
	double ma = 0, md = 0, ss = 0;

	*ret_n = n;
	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		ma += pa[i] / (double)n;
		md += (pb[i] - pa[i]) / (double)n;
	}
	for (size_t i = 0; i < n; i++)
		ss += (pb[i] - pa[i] - md) * (pb[i] - pa[i] - md);
	return ma != 0 ? sqrt(ss / (double)(n - 1)) / fabs(ma) : NAN;
}

int noise__compute(const struct analysis *an, size_t cand, struct noise **ret)
{
	const struct dataset *ds = an->ds;
	struct noise *nz = xcalloc(1, sizeof(*nz));
	_cleanup_free_ double *pa = xcalloc(ds->maxruns + 1, sizeof(double));
	_cleanup_free_ double *pb = xcalloc(ds->maxruns + 1, sizeof(double));

	nz->source = xstrdup(ds->campaign);
	nz->rows = xcalloc(an->nc + 1, sizeof(*nz->rows));
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];
		struct noise_row *r;
		double mean;

		if (c->cand != cand || c->base.n < 2 || c->cur.n < 2)
			continue;
		r = &nz->rows[nz->nrows++];
		r->label = xstrdup(ds->rows[c->row].label);
		r->n = c->base.n < c->cur.n ? c->base.n : c->cur.n;
		mean = (c->base.mean + c->cur.mean) / 2;
		r->cv = mean != 0 ? sqrt((c->base.sd * c->base.sd + c->cur.sd * c->cur.sd) / 2) /
					    fabs(mean) :
				    NAN;
		r->change = c->change;
		r->mde = stats__mde(r->n, r->cv, NOISE_ALPHA, NOISE_POWER);
		r->pair_sd = pair_sd(ds, &ds->rows[c->row], cand, pa, pb, &r->blocks);
		r->mde_paired = noise__mde_paired_at(r, r->blocks, NOISE_KEY_LEVEL);
	}
	*ret = nz;
	return 0;
}

static void bind_real(sqlite3_stmt *q, int i, double x)
{
	if (isfinite(x))
		sqlite3_bind_double(q, i, x);
	else
		sqlite3_bind_null(q, i);
}

int noise__store(struct store *st, const struct noise *nz)
{
	sqlite3 *db = store__db(st);
	sqlite3_stmt *q = NULL;
	int r;

	r = store__commit(st);
	if (r < 0)
		return r;
	if (sqlite3_exec(db,
			 "BEGIN IMMEDIATE; DROP TABLE IF EXISTS noise;\n"
			 "CREATE TABLE noise(\n"
			 "  label TEXT PRIMARY KEY NOT NULL,\n"
			 "  n INTEGER NOT NULL,\n"
			 "  cv REAL,\n"
			 "  change REAL,\n"
			 "  mde REAL,\n"
			 "  source TEXT NOT NULL,\n"
			 "  blocks INTEGER,\n"
			 "  pair_sd REAL,\n"
			 "  mde_paired REAL);",
			 NULL, NULL, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO noise(label, n, cv, change, mde, source, blocks, pair_sd, "
			       "mde_paired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &q, NULL) != SQLITE_OK) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	for (size_t i = 0; i < nz->nrows; i++) {
		const struct noise_row *n = &nz->rows[i];

		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, n->label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 2, (int64_t)n->n);
		bind_real(q, 3, n->cv);
		bind_real(q, 4, n->change);
		bind_real(q, 5, n->mde);
		sqlite3_bind_text(q, 6, nz->source, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 7, (int64_t)n->blocks);
		bind_real(q, 8, n->pair_sd);
		bind_real(q, 9, n->mde_paired);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite3_finalize(q);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return -EIO;
		}
	}
	sqlite3_finalize(q);
	return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

static double col_real(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

int noise__load(struct store *st, struct noise **ret)
{
	_cleanup_(noise__freep) struct noise *nz = xcalloc(1, sizeof(*nz));
	sqlite3_stmt *q = NULL;

	if (sqlite3_prepare_v2(store__db(st),
			       "SELECT label, n, cv, change, mde, source, blocks, pair_sd, mde_paired "
			       "FROM noise ORDER BY rowid",
			       -1, &q, NULL) != SQLITE_OK)
		return -ENOENT; /* no table (or one of an older lrubench): no noise figures */
	while (sqlite3_step(q) == SQLITE_ROW) {
		struct noise_row *r;

		nz->rows = xrealloc(nz->rows, nz->nrows + 1, sizeof(*nz->rows));
		r = &nz->rows[nz->nrows++];
		r->label = xstrdup((const char *)sqlite3_column_text(q, 0));
		r->n = (size_t)sqlite3_column_int64(q, 1);
		r->cv = col_real(q, 2);
		r->change = col_real(q, 3);
		r->mde = col_real(q, 4);
		r->blocks = (size_t)sqlite3_column_int64(q, 6);
		r->pair_sd = col_real(q, 7);
		r->mde_paired = col_real(q, 8);
		if (!nz->source)
			nz->source = xstrdup((const char *)sqlite3_column_text(q, 5));
	}
	sqlite3_finalize(q);
	if (!nz->nrows)
		return -ENOENT;
	*ret = TAKE_PTR(nz);
	return 0;
}

int noise__update(struct store *st, const struct analysis *an)
{
	_cleanup_(noise__freep) struct noise *nz = NULL;
	_cleanup_free_ char *variant = NULL;
	int r;

	if (store__meta_get(st, "noise.variant", &variant) < 0 || an->ds->nv != 2)
		return 0;
	r = noise__compute(an, an->ds->base == 0 ? 1 : 0, &nz);
	if (r < 0)
		return r;
	return noise__store(st, nz);
}

const struct noise_row *noise__find(const struct noise *nz, const char *label)
{
	for (size_t i = 0; nz && i < nz->nrows; i++)
		if (!strcmp(nz->rows[i].label, label))
			return &nz->rows[i];
	return NULL;
}

double noise__mde_at(const struct noise_row *r, size_t n)
{
	return stats__mde(n, r->cv, NOISE_ALPHA, NOISE_POWER);
}

double noise__key_level(void)
{
	return 1 - spending__nominal_at(NOISE_ALPHA / 3, 3, 6, 6);
}

double noise__mde_paired_at(const struct noise_row *r, size_t blocks, double level)
{
	if (blocks < 2 || isnan(r->pair_sd))
		return NAN;
	/* the non-central t's answer: the shortcut with t quantiles is 14% short at 3 blocks */
	return stats__paired_mde(blocks, r->pair_sd, level, NOISE_POWER);
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
