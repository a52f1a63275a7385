// SPDX-License-Identifier: GPL-2.0
/* Group-sequential boundaries by alpha spending: see spending.h. */
#include "spending.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Simulated null campaigns: many for few looks, fewer for many (N x looks at most 4M). */
#define PATHS_MAX 400000
#define PATHS_MIN 20000
#define PATH_WORK 4000000

double spending__obf(double alpha, double t)
{
	if (!(t > 0))
		return 0;
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(alpha / 2) / sqrt(fmin(t, 1)));
}

static int dbl_desc(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return p > q ? -1 : p < q;
}

struct path {
	double s, ss; /* sum and sum of squares of the block differences so far */
	bool crossed;
};

/*
 * The boundaries of the t statistics, by simulation of n null campaigns of
 * Gaussian block differences (the t statistic is free of their mean and
 * spread, so one simulation serves every metric): at each look the
 * boundary is the one that the campaigns not stopped yet cross in the
 * number the spending function allows there, the whole spent shrunk by two
 * of its Monte Carlo standard errors (conservative, deterministic: seeded).
 */
static int compute(double alpha, int first, int last, double *ret_p)
{
	size_t looks = (size_t)(last - first + 1), crossed = 0, n;
	struct path *path;
	double *t, shrink;
	gsl_rng *rng;

	n = PATH_WORK / looks;
	n = n > PATHS_MAX ? PATHS_MAX : n < PATHS_MIN ? PATHS_MIN : n;
	shrink = fmax(0.5, 1 - 2 / sqrt(alpha * (double)n));
	path = calloc(n, sizeof(*path));
	t = calloc(n, sizeof(*t));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!path || !t || !rng) {
		free(path);
		free(t);
		if (rng)
			gsl_rng_free(rng);
		return -ENOMEM;
	}
	gsl_rng_set(rng, 1983); /* Lan and DeMets */
	for (int k = 1; k <= last; k++) {
		size_t alive = 0, allow;
		double c;

		for (size_t i = 0; i < n; i++) {
			double x = gsl_ran_gaussian_ziggurat(rng, 1);

			path[i].s += x;
			path[i].ss += x * x;
		}
		if (k < first)
			continue;
		allow = (size_t)floor(shrink * spending__obf(alpha, (double)k / last) * (double)n);
		for (size_t i = 0; i < n; i++) {
			double m = path[i].s / k, v = (path[i].ss - path[i].s * m) / (k - 1);

			if (!path[i].crossed)
				t[alive++] = v > 0 ? fabs(m) / sqrt(v / k) : INFINITY;
		}
		if (allow <= crossed || alive < 2) {
			/* nothing left to spend here */
			ret_p[k - first] = 0;
			continue;
		}
		qsort(t, alive, sizeof(*t), dbl_desc);
		allow -= crossed;
		if (allow >= alive)
			allow = alive - 1;
		c = (t[allow - 1] + t[allow]) / 2;
		for (size_t i = 0; i < n; i++) {
			double m = path[i].s / k, v = (path[i].ss - path[i].s * m) / (k - 1);

			if (!path[i].crossed && (v > 0 ? fabs(m) / sqrt(v / k) : INFINITY) > c) {
				path[i].crossed = true;
				crossed++;
			}
		}
		ret_p[k - first] = 2 * gsl_cdf_tdist_Q(c, k - 1);
	}
	gsl_rng_free(rng);
	free(path);
	free(t);
	return 0;
}

static struct {
	bool used;
	double alpha;
	int first, last;
	double p[SPENDING_MAX_LOOKS];
} memo[16];
static unsigned memo_next;

int spending__nominal(double alpha, int first, int last, double *ret_p)
{
	size_t looks;
	int r;

	if (first < 2 || last < first || last - first >= SPENDING_MAX_LOOKS ||
	    !(alpha > 0 && alpha < 1))
		return -EINVAL;
	looks = (size_t)(last - first + 1);
	if (looks == 1) {
		ret_p[0] = alpha;
		return 0;
	}
	for (size_t i = 0; i < sizeof(memo) / sizeof(memo[0]); i++)
		if (memo[i].used && memo[i].alpha == alpha && memo[i].first == first &&
		    memo[i].last == last) {
			memcpy(ret_p, memo[i].p, looks * sizeof(*ret_p));
			return 0;
		}
	r = compute(alpha, first, last, ret_p);
	if (r < 0)
		return r;
	{
		unsigned i = memo_next++ % (sizeof(memo) / sizeof(memo[0]));

		memo[i].used = true;
		memo[i].alpha = alpha;
		memo[i].first = first;
		memo[i].last = last;
		memcpy(memo[i].p, ret_p, looks * sizeof(*ret_p));
	}
	return 0;
}

double spending__nominal_at(double alpha, int first, int last, int blocks)
{
	double p[SPENDING_MAX_LOOKS];

	/* a look at 1 block has no t test: the first is at 2 at least */
	if (first < 2)
		first = 2;
	if (last < first)
		last = first;
	if (spending__nominal(alpha, first, last, p) < 0)
		return NAN;
	if (blocks < first)
		blocks = first;
	if (blocks > last)
		blocks = last;
	return p[blocks - first];
}
