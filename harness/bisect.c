// SPDX-License-Identifier: GPL-2.0
/* The rule that calls a bisection step good or bad: see bisect.h. */
#include "bisect.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>

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

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

int bisect_judge(const double *good, size_t ng, const double *x, size_t nx,
		 enum metric_better better, double threshold, const struct bisect_rule *rule,
		 struct bisect_judgement *ret)
{
	struct bisect_judgement j = { .n_good = ng, .n = nx };
	double lo, hi;
	int r;

	if (ng < 2 || nx < 2 || better == BETTER_NONE)
		return -EINVAL;
	j.mean_good = mean_of(good, ng);
	j.mean = mean_of(x, nx);
	if (j.mean_good == 0)
		return -EDOM;
	r = stats__bootstrap_rel_change(good, ng, x, nx, rule->seed, rule->resamples, rule->level,
					&lo, &hi);
	if (r < 0)
		return r;
	j.worse = (j.mean - j.mean_good) / fabs(j.mean_good);
	if (better == BETTER_HIGHER) {
		/* Lower is worse: negate the change and swap the interval's ends. */
		double t = lo;

		j.worse = -j.worse;
		lo = -hi;
		hi = -t;
	}
	j.lo = lo;
	j.hi = hi;
	{
		struct stats_test t;

		j.p = stats__welch(good, ng, x, nx, &t) == 0 ? t.p : NAN;
	}
	if (j.lo > threshold && j.p < rule->alpha)
		j.call = BISECT_BAD;
	else if (j.hi < threshold)
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
