// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"
#include "util.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *name, *mark;
} verdicts[] = {
	[VERDICT_REGRESSION] = { "regression", "REGRESSION" },
	[VERDICT_IMPROVEMENT] = { "improvement", "improved" },
	[VERDICT_NO_CHANGE] = { "no significant change", "~" },
	[VERDICT_NO_DIRECTION] = { "no better direction", "" },
	[VERDICT_NOT_COMPARABLE] = { "not comparable across LRUs", "n/c" },
	[VERDICT_TOO_FEW] = { "too few runs (n < 2)", "n<2" },
	[VERDICT_NO_DATA] = { "no data", "-" },
};

const char *verdict_name(enum verdict v)
{
	return verdicts[v].name;
}

const char *verdict_mark(enum verdict v)
{
	return verdicts[v].mark;
}

bool verdict_decided(enum verdict v)
{
	return v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT || v == VERDICT_NO_CHANGE;
}

/* FNV-1a: the bootstrap seed of a comparison depends on what is compared, not on its order. */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void compare_one(const struct analysis *an, struct comparison *c)
{
	const struct dataset *ds = an->ds;
	const struct ds_row *r = &ds->rows[c->row];
	const double *a = ds_vals(ds, r, ds->base), *b = ds_vals(ds, r, c->cand);
	size_t na = r->n[ds->base], nb = r->n[c->cand];
	const char *reason = NULL;

	c->change = c->ci_lo = c->ci_hi = c->q = c->cliff = c->hedges = NAN;
	c->welch.p = c->mw.p = NAN;
	if (na)
		stats__summary(a, na, &c->base);
	if (nb)
		stats__summary(b, nb, &c->cur);
	if (!na || !nb) {
		c->verdict = VERDICT_NO_DATA;
		return;
	}
	if (ds_cross_lru(ds, ds->base, c->cand) &&
	    !metric__comparable(r->metric, ds->release, &reason)) {
		c->verdict = VERDICT_NOT_COMPARABLE;
		c->reason = reason;
		return;
	}
	if (na < 2 || nb < 2) {
		c->verdict = VERDICT_TOO_FEW;
		return;
	}
	if (c->base.mean != 0)
		c->change = (c->cur.mean - c->base.mean) / fabs(c->base.mean);
	else if (c->cur.mean != 0)
		c->change = copysign(INFINITY, c->cur.mean);
	else
		c->change = 0;
	stats__bootstrap_rel_change(a, na, b, nb,
				    fnv(fnv(0xcbf29ce484222325ULL ^ an->o.seed, r->label),
					ds->v[c->cand].name),
				    an->o.resamples, an->o.level, &c->ci_lo, &c->ci_hi);
	stats__welch(a, na, b, nb, &c->welch);
	stats__mann_whitney(a, na, b, nb, &c->mw);
	stats__cliffs_delta(a, na, b, nb, &c->cliff);
	stats__hedges_g(a, na, b, nb, &c->hedges);
	c->verdict = r->better == BETTER_NONE ? VERDICT_NO_DIRECTION : VERDICT_NO_CHANGE;
}

static void decide(struct analysis *an)
{
	_cleanup_free_ double *p = xcalloc(an->nc + 1, sizeof(double));
	_cleanup_free_ double *q = xcalloc(an->nc + 1, sizeof(double));

	for (size_t i = 0; i < an->nc; i++) {
		p[i] = an->c[i].verdict == VERDICT_NO_CHANGE ? an->c[i].welch.p : NAN;
		an->tests += !isnan(p[i]);
	}
	stats__bh_adjust(p, an->nc, q);
	for (size_t i = 0; i < an->nc; i++) {
		struct comparison *c = &an->c[i];
		enum metric_better better = an->ds->rows[c->row].better;
		bool worse;

		if (isnan(q[i]))
			continue;
		c->q = q[i];
		if (!(c->q <= an->o.alpha) || !(fabs(c->change) >= an->o.min_effect))
			continue;
		worse = better == BETTER_HIGHER ? c->change < 0 : c->change > 0;
		c->verdict = worse ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
		an->regressions += worse;
		an->improvements += !worse;
	}
}

int analysis__from(struct dataset *ds, const struct verdict_opts *o, struct analysis **ret)
{
	struct analysis *an = xcalloc(1, sizeof(*an));

	an->ds = ds;
	an->o = o ? *o : VERDICT_OPTS_DEFAULT;
	an->c = xcalloc(ds->nv * ds->nrows + 1, sizeof(*an->c));
	for (size_t v = 0; v < ds->nv; v++) {
		if (v == ds->base)
			continue;
		for (size_t r = 0; r < ds->nrows; r++) {
			struct comparison *c = &an->c[an->nc++];

			c->row = r;
			c->cand = v;
			compare_one(an, c);
		}
	}
	decide(an);
	*ret = an;
	return 0;
}

int analysis__run(struct store *st, const char *baseline, const struct verdict_opts *o,
		  struct analysis **ret)
{
	struct dataset *ds = NULL;
	int r = dataset__load(st, baseline, &ds);

	if (r < 0)
		return r;
	return analysis__from(ds, o, ret);
}

void analysis__free(struct analysis *a)
{
	if (!a)
		return;
	dataset__free(a->ds);
	free(a->c);
	free(a);
}

void analysis__freep(struct analysis **a)
{
	analysis__free(*a);
}
