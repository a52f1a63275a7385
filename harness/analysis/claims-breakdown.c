// SPDX-License-Identifier: GPL-2.0
/*
 * The breakdowns printed beside a claim's verdict, which never change it
 * (claims.h): the claims about MGLRU's placement or cost per MGLRU mode and
 * per knob pair (claims__mechanisms), and C2's curve over vm.swappiness
 * (claims__curve). Each pair is decided by the claim's own rule through
 * claims-priv.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "claims-priv.h"
#include "stats.h"
#include "util.h"

int claims__curve(const struct claim *c, const struct analysis *an, const char *kernel,
		  double level, struct claim_curve *ret)
{
	const struct dataset *ds = an->ds;
	_cleanup_free_ double *sc = NULL, *sm = NULL; /* classic's and MGLRU's slopes */
	double *slopes[2];

	memset(ret, 0, sizeof(*ret));
	if (c->at != CLAIM_AT_RAISED || !claims_is_test_rule(c->rule))
		return -ENOENT;
	ret->row = claims_find_row(ds, c->signals[0]);
	if (!ret->row)
		return -ENOENT;
	level = claims_level(an, level);
	/* the points: the first pair (full MGLRU mode) at each swappiness, in ascending order */
	for (size_t a = 0; a < ds->nv; a++) {
		int sw = claims_swappiness(&ds->v[a]);
		size_t at = ret->np, best;

		if (!claims_on_kernel(&ds->v[a], kernel) || !claims_fullest_pair(ds, a, &best))
			continue;
		for (size_t i = 0; i < ret->np && at == ret->np; i++)
			if (ret->swappiness[i] >= sw)
				at = i;
		if ((at < ret->np && ret->swappiness[at] == sw) || ret->np == CLAIM_CURVE_MAX)
			continue;
		for (size_t i = ret->np; i > at; i--) {
			ret->swappiness[i] = ret->swappiness[i - 1];
			ret->var[0][i] = ret->var[0][i - 1];
			ret->var[1][i] = ret->var[1][i - 1];
		}
		ret->swappiness[at] = sw;
		ret->var[0][at] = a;
		ret->var[1][at] = best;
		ret->np++;
	}
	if (ret->np < 2)
		return -ENOENT;
	/* the blocks (repetitions) that ran every point of both LRUs: a slope each */
	slopes[0] = sc = xcalloc(ds->maxruns + 1, sizeof(double));
	slopes[1] = sm = xcalloc(ds->maxruns + 1, sizeof(double));
	for (size_t l = 0; l < 2; l++)
		for (size_t p = 0; p < ret->np; p++)
			ret->mean[l][p] = NAN;
	{
		double sum[2][CLAIM_CURVE_MAX] = { { 0 } }, xbar = 0, sxx = 0;

		for (size_t p = 0; p < ret->np; p++)
			xbar += ret->swappiness[p] / 100.0 / (double)ret->np;
		for (size_t p = 0; p < ret->np; p++)
			sxx += pow(ret->swappiness[p] / 100.0 - xbar, 2);
		for (int rep = 0; rep < (int)ds->maxruns; rep++) {
			double y[2][CLAIM_CURVE_MAX];
			bool all = true;

			for (size_t l = 0; l < 2 && all; l++)
				for (size_t p = 0; p < ret->np && all; p++) {
					size_t v = ret->var[l][p], k;
					const double *x = ds_vals(ds, ret->row, v);

					for (k = 0; k < ret->row->n[v]; k++)
						if (ret->row->reps[v * ds->maxruns + k] == rep)
							break;
					all = k < ret->row->n[v] && !isnan(x[k]);
					if (all)
						y[l][p] = x[k];
				}
			if (!all)
				continue;
			for (size_t l = 0; l < 2; l++) {
				double sxy = 0;

				for (size_t p = 0; p < ret->np; p++) {
					sxy += (ret->swappiness[p] / 100.0 - xbar) * y[l][p];
					sum[l][p] += y[l][p];
				}
				slopes[l][ret->blocks] = sxy / sxx;
			}
			ret->blocks++;
		}
		for (size_t l = 0; l < 2; l++)
			for (size_t p = 0; p < ret->np && ret->blocks; p++)
				ret->mean[l][p] = sum[l][p] / (double)ret->blocks;
	}
	for (size_t l = 0; l < 2; l++) {
		ret->slope[l] = ret->lo[l] = ret->hi[l] = NAN;
		if (ret->blocks >= VERDICT_MIN_BLOCKS) {
			double m = stats__mean(slopes[l], ret->blocks);
			double half = stats__mean_ci_half(
				ret->blocks, sqrt(stats__var(slopes[l], ret->blocks, m)), level);

			ret->slope[l] = m, ret->lo[l] = m - half, ret->hi[l] = m + half;
		} else if (ret->blocks) {
			ret->slope[l] = slopes[l][0];
		}
	}
	return 0;
}

static void part_decide(const struct claim *c, const struct analysis *an, size_t a, size_t b,
			double level, struct claim_part *p)
{
	memset(p, 0, sizeof(*p));
	ds_lru_enabled(&an->ds->v[b], &p->enabled);
	p->knobs = ds_knobs_but_lru(&an->ds->v[a]);
	p->r.change = p->r.ci_lo = p->r.ci_hi = NAN;
	claims_decide_pair(c, an, a, b, level, &p->r);
}

size_t claims__mechanisms(const struct claim *c, const struct analysis *an, const char *kernel,
			  double level, struct claim_part *ret, size_t max)
{
	const struct dataset *ds = an->ds;
	size_t a, b, n = 0;

	if (!c->by_mechanism || !claims_is_test_rule(c->rule) ||
	    !claims_find_pair(c, ds, kernel, &a, &b))
		return 0;
	level = claims_level(an, level);
	/* the lowest max modes against a, ascending; the first variant of a mode stands for it */
	for (size_t v = 0; v < ds->nv && max; v++) {
		unsigned e = 0;
		size_t at = n;

		if (!claims__pair_ok(ds, a, v))
			continue;
		ds_lru_enabled(&ds->v[v], &e);
		for (size_t i = 0; i < n && at == n; i++)
			if (ret[i].enabled >= e)
				at = i;
		if ((at < n && ret[at].enabled == e) || at == max)
			continue;
		if (n == max)
			n--; /* the highest drops out */
		memmove(&ret[at + 1], &ret[at], (n - at) * sizeof(*ret));
		part_decide(c, an, a, v, level, &ret[at]);
		n++;
	}
	/* the other classic variants at the claim's swappiness, each with its fullest mode */
	for (size_t a2 = 0; a2 < ds->nv && n < max; a2++) {
		size_t b2;

		if (a2 == a || ds->v[a2].kernel == NULL ||
		    strcmp(ds->v[a2].kernel, ds->v[a].kernel) ||
		    claims_swappiness(&ds->v[a2]) != claims_swappiness(&ds->v[a]) ||
		    !claims_fullest_pair(ds, a2, &b2))
			continue;
		part_decide(c, an, a2, b2, level, &ret[n++]);
	}
	return n >= 2 ? n : 0;
}
