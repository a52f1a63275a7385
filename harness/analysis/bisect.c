// SPDX-License-Identifier: GPL-2.0
/* The rule that calls a bisection step good or bad: see bisect.h. */
#include "bisect.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

const char *bisect_call_name(enum bisect_call c)
{
	switch (c) {
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_UNDECIDED:
		break;
	}
	return "undecided";
}

/*
 * Welch's t of mean(y) - mean(x): the difference, its interval at level and
 * the two-sided p, each sample's variance floored at its values' rounding
 * variance fx, fy (as stats__welch: constant counts one apart are not a
 * certainty); no spread and no floor: the interval a point, p 0 or 1.
 */
static void welch_interval(const double *x, size_t nx, double fx, const double *y, size_t ny,
			   double fy, double level, double *ret_d, double *ret_lo, double *ret_hi,
			   double *ret_p)
{
	double mx = stats__mean(x, nx), my = stats__mean(y, ny);
	double vx = fmax(stats__var(x, nx, mx), fx) / (double)nx;
	double vy = fmax(stats__var(y, ny, my), fy) / (double)ny;
	double se2 = vx + vy, d = my - mx, df, half;

	*ret_d = d;
	if (!(se2 > 0)) {
		*ret_lo = *ret_hi = d;
		*ret_p = d == 0 ? 1 : 0;
		return;
	}
	df = se2 * se2 / (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1));
	half = stats__t_crit(level, df) * sqrt(se2);
	*ret_lo = d - half;
	*ret_hi = d + half;
	*ret_p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(d) / sqrt(se2), df));
}

int bisect_judge(const double *good, size_t ng, const double *x, size_t nx,
		 enum metric_better better, double threshold, const struct bisect_rule *rule,
		 struct bisect_judgement *ret)
{
	struct bisect_judgement j = { .n_good = ng, .n = nx };
	_cleanup_free_ double *lg = NULL, *lx = NULL, *all = NULL;
	bool positive = true;
	double d, lo, hi, res, fg = 0, fx = 0;

	if (ng < 2 || nx < 2 || better == BETTER_NONE)
		return -EINVAL;
	j.mean_good = stats__mean(good, ng);
	j.mean = stats__mean(x, nx);
	if (j.mean_good == 0)
		return -EDOM;
	for (size_t i = 0; i < ng; i++)
		positive &= good[i] > 0 && isfinite(good[i]);
	for (size_t i = 0; i < nx; i++)
		positive &= x[i] > 0 && isfinite(x[i]);
	all = xcalloc(ng + nx, sizeof(*all));
	memcpy(all, good, ng * sizeof(*all));
	memcpy(all + ng, x, nx * sizeof(*all));
	res = stats__resolution(all, ng + nx);
	if (positive) {
		/* the ratio of the geometric means, Welch's t interval of its log */
		lg = xcalloc(ng, sizeof(*lg));
		lx = xcalloc(nx, sizeof(*lx));
		for (size_t i = 0; i < ng; i++) {
			lg[i] = log(good[i]);
			/* the rounding variance of log v: (res / v)^2 / 12 */
			fg += res * res / (good[i] * good[i]) / 12 / (double)ng;
		}
		for (size_t i = 0; i < nx; i++) {
			lx[i] = log(x[i]);
			fx += res * res / (x[i] * x[i]) / 12 / (double)nx;
		}
		welch_interval(lg, ng, fg, lx, nx, fx, rule->level, &d, &lo, &hi, &j.p);
		j.worse = expm1(d);
		lo = expm1(lo);
		hi = expm1(hi);
	} else {
		/* a value at or below zero: the difference of the means over the good end's */
		welch_interval(good, ng, res * res / 12, x, nx, res * res / 12, rule->level, &d,
			       &lo, &hi, &j.p);
		j.worse = d / fabs(j.mean_good);
		lo /= fabs(j.mean_good);
		hi /= fabs(j.mean_good);
	}
	if (better == BETTER_HIGHER) {
		/* Lower is worse: negate the change and swap the interval's ends. */
		double t = lo;

		j.worse = -j.worse;
		lo = -hi;
		hi = -t;
	}
	j.lo = lo;
	j.hi = hi;
	if (j.lo > threshold && j.p < rule->alpha)
		j.call = BISECT_BAD;
	else if (j.lo > -fabs(threshold) && j.hi < fabs(threshold))
		j.call = BISECT_GOOD;
	else
		j.call = BISECT_UNDECIDED;
	*ret = j;
	return 0;
}

int bisect_threshold(const struct bisect_judgement *bad_end, const struct bisect_rule *rule,
		     double *ret_threshold, char **ret_why)
{
	if (!(bad_end->p < rule->alpha)) {
		*ret_why = xasprintf("the bad end is not worse beyond doubt: change %+.1f%%, "
				     "Welch's p = %.2g (needs < %g)",
				     100 * bad_end->worse, bad_end->p, rule->alpha);
		return -EDOM;
	}
	if (!(bad_end->lo > 0)) {
		*ret_why = xasprintf("the bad end is not reliably worse than the good end: change "
				     "%+.1f%%, %.0f%% interval [%+.1f%%, %+.1f%%] includes no change",
				     100 * bad_end->worse, 100 * rule->level, 100 * bad_end->lo,
				     100 * bad_end->hi);
		return -EDOM;
	}
	if (bad_end->worse < rule->min_effect) {
		*ret_why = xasprintf("the bad end is worse by %.1f%% only, below the minimum "
				     "effect of %.1f%%",
				     100 * bad_end->worse, 100 * rule->min_effect);
		return -EDOM;
	}
	*ret_threshold = bad_end->worse / 2;
	return 0;
}
