// SPDX-License-Identifier: GPL-2.0
/* The noise floor: computing an A/A campaign's figures (noise.h). */
#include "noise.h"
#include "plan.h"
#include "spending.h"
#include "stats.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
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

/* x as the store gives it back: NULL for a non-finite figure reads NAN, and a REAL that is
 * integral is kept as an integer (-0.0 comes back 0). */
static double as_stored(double x)
{
	return !isfinite(x) ? NAN : x == 0 ? 0 : x;
}

int noise__aa(const struct analysis *an, struct noise **ret)
{
	_cleanup_(noise__freep) struct noise *nz = NULL;
	int r;

	if (an->ds->nv != 2)
		return -ENOENT;
	r = noise__compute(an, an->ds->base == 0 ? 1 : 0, &nz);
	if (r < 0)
		return r;
	if (!nz->nrows)
		return -ENOENT;
	for (size_t i = 0; i < nz->nrows; i++) {
		struct noise_row *n = &nz->rows[i];

		n->cv = as_stored(n->cv);
		n->change = as_stored(n->change);
		n->mde = as_stored(n->mde);
		n->pair_sd = as_stored(n->pair_sd);
		n->mde_paired = as_stored(n->mde_paired);
	}
	*ret = TAKE_PTR(nz);
	return 0;
}

bool noise__is_aa(struct store *st)
{
	_cleanup_free_ char *variant = NULL;

	return store__meta_get(st, "noise.variant", &variant) == 0;
}

int noise__update(struct store *st)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	int r;

	if (!noise__is_aa(st))
		return 0;
	r = analysis__run(st, NULL, &VERDICT_OPTS_DEFAULT, &an);
	if (r < 0)
		return r;
	if (an->ds->nv != 2)
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
