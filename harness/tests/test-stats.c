// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics against values computed elsewhere: R's documented outputs,
 * published tables (Mann and Whitney 1947, Klotz 1966, Student t tables,
 * Cohen's power tables), the worked example of Benjamini and Hochberg (1995)
 * and arithmetic done by hand in the comments. None of the expected values
 * comes from this code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats.h"
#include "util.h"

#define near(got, want, tol)                                                            \
	do {                                                                            \
		double g_ = (got), w_ = (want);                                         \
		if (!(fabs(g_ - w_) <= (tol)))                                          \
			fail_msg("%s = %.10g, want %.10g (tolerance %g)", #got, g_, w_, \
				 (double)(tol));                                        \
	} while (0)

/* R's datasets::sleep, extra hours of sleep under drug 1 and drug 2. */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };

static void test_summary(void **state)
{
	/* by hand: 2 4 4 4 5 5 7 9: mean 5, sum of squares 32, sd sqrt(32/7) */
	const double x[] = { 4, 2, 5, 4, 9, 7, 4, 5 };
	struct stats_summary s;

	(void)state;
	assert_int_equal(stats__summary(x, 8, &s), 0);
	assert_int_equal(s.n, 8);
	near(s.mean, 5, 1e-12);
	near(s.median, 4.5, 1e-12);
	near(s.sd, sqrt(32.0 / 7), 1e-12);
	near(s.cv, sqrt(32.0 / 7) / 5, 1e-12);
	near(s.min, 2, 0);
	near(s.max, 9, 0);
	/* odd n: the middle value; n = 1: no spread */
	assert_int_equal(stats__summary(x, 3, &s), 0);
	near(s.median, 4, 0);
	assert_int_equal(stats__summary(x, 1, &s), 0);
	assert_true(isnan(s.sd) && isnan(s.cv));
	assert_int_equal(stats__summary(x, 0, &s), -EINVAL);
}

static void test_welch(void **state)
{
	struct stats_test t;

	(void)state;
	/*
	 * R: t.test(extra ~ group, data = sleep) prints
	 * t = -1.8608, df = 17.776, p-value = 0.07939 (group 1 minus group 2);
	 * here b minus a, so the sign flips.
	 */
	assert_int_equal(stats__welch(sleep1, 10, sleep2, 10, &t), 0);
	near(t.stat, 1.8608, 5e-5);
	near(t.df, 17.776, 5e-4);
	near(t.p, 0.07939, 5e-6);

	/*
	 * a = 1 2 3 4, b = 5 6 7 9. By hand: means 2.5 and 6.75, variances 5/3
	 * and 35/12, se^2 = 55/48, t = 4.25 / sqrt(55/48) = 3.9703446,
	 * df = (55/48)^2 / (((5/12)^2 + (35/48)^2) / 3) = 5.5846154; p from
	 * the Student t table lies between 0.005 (t = 4.03 at 5 df) and 0.01
	 * (3.71 at 6 df); Go's x/perf, an independent implementation, gives
	 * p = 0.0085128631313781695 for this pair.
	 */
	{
		const double a[] = { 2, 1, 3, 4 }, b[] = { 6, 5, 7, 9 };

		assert_int_equal(stats__welch(a, 4, b, 4, &t), 0);
		near(t.stat, 4.25 / sqrt(55.0 / 48), 1e-12);
		near(t.df, (55.0 / 48) * (55.0 / 48) / ((25.0 / 144 + 1225.0 / 2304) / 3), 1e-9);
		near(t.p, 0.0085128631313781695, 1e-9);
	}
	/* constant samples: certain difference, or none */
	{
		const double a[] = { 3, 3, 3 }, b[] = { 4, 4, 4 };

		assert_int_equal(stats__welch(a, 3, b, 3, &t), 0);
		near(t.p, 0, 0);
		assert_int_equal(stats__welch(a, 3, a, 3, &t), 0);
		near(t.p, 1, 0);
		assert_int_equal(stats__welch(a, 1, b, 3, &t), -EINVAL);
	}
}

/* The t distribution through GSL, against a printed Student t table. */
static void test_t_table(void **state)
{
	(void)state;
	/* two-sided 5% critical values: 12.706 (1 df), 2.776 (4), 2.228 (10), 2.086 (20) */
	near(stats__mean_ci_half(2, sqrt(2), 0.95), 12.706, 5e-4);
	near(stats__mean_ci_half(5, sqrt(5), 0.95), 2.776, 5e-4);
	near(stats__mean_ci_half(11, sqrt(11), 0.95), 2.228, 5e-4);
	near(stats__mean_ci_half(21, sqrt(21), 0.95), 2.086, 5e-4);
	assert_true(isnan(stats__mean_ci_half(1, 1, 0.95)));
}

/*
 * Mann and Whitney (1947), Table I: P(U <= u) for samples of m and n = 3
 * and n = 5 (as reprinted in the tests of Go's x/perf stats package).
 */
static void test_u_table(void **state)
{
	static const double n3[6][3] = {
		{ 0.250000, 0.100000, 0.050000 }, { 0.500000, 0.200000, 0.100000 },
		{ 0.750000, 0.400000, 0.200000 }, { 1.000000, 0.600000, 0.350000 },
		{ 1.000000, 0.800000, 0.500000 }, { 1.000000, 0.900000, 0.650000 },
	};
	static const double n5[6][5] = {
		{ 0.166667, 0.047619, 0.017857, 0.007937, 0.003968 },
		{ 0.333333, 0.095238, 0.035714, 0.015873, 0.007937 },
		{ 0.500000, 0.190476, 0.071429, 0.031746, 0.015873 },
		{ 0.666667, 0.285714, 0.125000, 0.055556, 0.027778 },
		{ 0.833333, 0.428571, 0.196429, 0.095238, 0.047619 },
		{ 1.000000, 0.571429, 0.285714, 0.142857, 0.075397 },
	};
	double pooled[10];

	(void)state;
	for (int i = 0; i < 10; i++)
		pooled[i] = i + 1;
	for (int u = 0; u < 6; u++) {
		for (int m = 1; m <= 3; m++) {
			double p;

			assert_int_equal(stats__u_cdf(pooled, (size_t)m + 3, (size_t)m, u, &p), 0);
			near(p, n3[u][m - 1], 1e-6);
		}
		for (int m = 1; m <= 5; m++) {
			double p;

			assert_int_equal(stats__u_cdf(pooled, (size_t)m + 5, (size_t)m, u, &p), 0);
			near(p, n5[u][m - 1], 1e-6);
		}
	}
}

/* Pooled values with tie groups of the given sizes, smallest first. */
static size_t tied(const int *t, size_t nt, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < nt; i++)
		for (int k = 0; k < t[i]; k++)
			out[n++] = (double)i;
	return n;
}

/*
 * Klotz (1966), Table 1: the exact null distribution of U with ties. The
 * table's statistic x is U + m^2 / 2 (as reprinted in Go's x/perf tests).
 */
static void test_u_ties_klotz(void **state)
{
	static const int t1[] = { 1, 1, 2, 1, 1, 2, 1, 1 };
	static const double w1[][2] = {
		{ 12.5, 0.003968 }, { 13.5, 0.007937 }, { 15.0, 0.023810 }, { 16.5, 0.047619 },
		{ 17.5, 0.071429 }, { 18.0, 0.087302 }, { 19.0, 0.134921 }, { 19.5, 0.138889 },
	};
	static const int t2[] = { 6, 5, 4, 3, 2, 1 };
	static const double w2[][2] = {
		{ 52.0, 0.000014 }, { 56.5, 0.000128 }, { 60.0, 0.000230 },
		{ 64.0, 0.000825 }, { 70.0, 0.005648 }, { 74.0, 0.011111 },
		{ 80.0, 0.038969 }, { 82.0, 0.049581 }, { 87.0, 0.101132 },
	};
	static const int t3[] = { 2, 2, 2, 2, 2, 2, 2, 2 };
	static const double w3[][2] = {
		{ 32.0, 0.000078 },
		{ 40.0, 0.005905 },
		{ 46.0, 0.035664 },
		{ 54.0, 0.175369 },
	};
	double pooled[32], p;
	size_t n;

	(void)state;
	n = tied(t1, ARRAY_SIZE(t1), pooled);
	for (size_t i = 0; i < ARRAY_SIZE(w1); i++) {
		assert_int_equal(stats__u_cdf(pooled, n, 5, w1[i][0] - 25.0 / 2, &p), 0);
		near(p, w1[i][1], 1e-6);
	}
	n = tied(t2, ARRAY_SIZE(t2), pooled);
	for (size_t i = 0; i < ARRAY_SIZE(w2); i++) {
		assert_int_equal(stats__u_cdf(pooled, n, 10, w2[i][0] - 100.0 / 2, &p), 0);
		near(p, w2[i][1], 1e-6);
	}
	n = tied(t3, ARRAY_SIZE(t3), pooled);
	for (size_t i = 0; i < ARRAY_SIZE(w3); i++) {
		assert_int_equal(stats__u_cdf(pooled, n, 8, w3[i][0] - 64.0 / 2, &p), 0);
		near(p, w3[i][1], 1e-6);
	}
}

static void test_mann_whitney(void **state)
{
	struct stats_test t;

	(void)state;
	/*
	 * R's ?wilcox.test example (Hollander and Wolfe 1973, p. 69):
	 * wilcox.test(x, y, alternative = "g") gives W = 35, p-value = 0.1272
	 * (exact, no ties); two-sided is twice that.
	 */
	{
		const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
		const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };

		assert_int_equal(stats__mann_whitney(x, 10, y, 5, &t), 0);
		assert_true(t.exact);
		near(t.stat, 35, 0);
		near(t.p, 2 * 0.1272, 1e-4);
	}
	/*
	 * Five against five, fully separated: only 1 of C(10,5) = 252
	 * arrangements is as extreme on each side, p = 2/252. The 5% critical
	 * value of U for 5 and 5 is 2 (printed tables): p(U = 2) <= 0.05 < p(U = 3).
	 */
	{
		const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
		const double a2[] = { 1, 2, 3, 4, 7 }, b2[] = { 5, 6, 8, 9, 10 };
		const double a3[] = { 1, 2, 3, 5, 7 }, b3[] = { 4, 6, 8, 9, 10 };

		assert_int_equal(stats__mann_whitney(a, 5, b, 5, &t), 0);
		near(t.stat, 0, 0);
		near(t.p, 2.0 / 252, 1e-12);
		assert_int_equal(stats__mann_whitney(b, 5, a, 5, &t), 0);
		near(t.stat, 25, 0);
		near(t.p, 2.0 / 252, 1e-12);
		assert_int_equal(stats__mann_whitney(a2, 5, b2, 5, &t), 0);
		near(t.stat, 2, 0);
		assert_true(t.p <= 0.05);
		assert_int_equal(stats__mann_whitney(a3, 5, b3, 5, &t), 0);
		near(t.stat, 3, 0);
		assert_true(t.p > 0.05);
	}
	/* three against three can never reach 5%: the smallest p is 2/20 */
	{
		const double a[] = { 1, 2, 3 }, b[] = { 7, 8, 9 };

		assert_int_equal(stats__mann_whitney(a, 3, b, 3, &t), 0);
		near(t.p, 0.1, 1e-12);
	}
	/*
	 * R: wilcox.test(extra ~ group, data = sleep) gives W = 25.5,
	 * p-value = 0.06933 with ties (normal approximation, continuity and
	 * tie corrections).
	 */
	assert_int_equal(stats__mann_whitney_normal(sleep1, 10, sleep2, 10, &t), 0);
	assert_false(t.exact);
	near(t.stat, 25.5, 0);
	near(t.p, 0.06933, 5e-6);
}

/*
 * Large samples take the normal approximation. R (commented in Go's x/perf
 * tests): l1 <- seq(0, 499)*2; l2 <- seq(0,599)*2-41;
 * l3 <- l2; for (i in 1:30) l3[i] = l1[i]; wilcox.test(l1, l2) gives
 * p = 0.0049335360814172224; wilcox.test(l1, l3) (ties) 0.0038703814239617884.
 * (R's W is U of the first sample: 135250 and 134845 there are the smaller U.)
 */
static void test_mann_whitney_large(void **state)
{
	_cleanup_free_ double *l1 = xcalloc(500, sizeof(double));
	_cleanup_free_ double *l2 = xcalloc(600, sizeof(double));
	_cleanup_free_ double *l3 = xcalloc(600, sizeof(double));
	struct stats_test t;

	(void)state;
	for (int i = 0; i < 500; i++)
		l1[i] = i * 2;
	for (int i = 0; i < 600; i++)
		l2[i] = l3[i] = i * 2 - 41;
	for (int i = 0; i < 30; i++)
		l3[i] = l1[i];
	assert_int_equal(stats__mann_whitney(l1, 500, l2, 600, &t), 0);
	assert_false(t.exact);
	near(fmin(t.stat, 500.0 * 600 - t.stat), 135250, 0);
	near(t.p, 0.0049335360814172224, 1e-10);
	assert_int_equal(stats__mann_whitney(l1, 500, l3, 600, &t), 0);
	near(fmin(t.stat, 500.0 * 600 - t.stat), 134845, 0);
	near(t.p, 0.0038703814239617884, 1e-10);
}

static void test_effect_sizes(void **state)
{
	const double a[] = { 2, 1, 3, 4 }, b[] = { 6, 5, 7, 9 };
	double d, g;

	(void)state;
	/* every b above every a */
	assert_int_equal(stats__cliffs_delta(a, 4, b, 4, &d), 0);
	near(d, 1, 0);
	assert_int_equal(stats__cliffs_delta(b, 4, a, 4, &d), 0);
	near(d, -1, 0);
	/* by hand: a = 1 2 3, b = 2 3 4: 6 pairs b > a, 1 pair b < a, 2 ties: 5/9 */
	{
		const double x[] = { 1, 2, 3 }, y[] = { 2, 3, 4 };

		assert_int_equal(stats__cliffs_delta(x, 3, y, 3, &d), 0);
		near(d, 5.0 / 9, 1e-12);
	}
	/*
	 * By hand: pooled variance (3 * 5/3 + 3 * 35/12) / 6 = 55/24,
	 * d = 4.25 / sqrt(55/24); df = 6, J = G(3) / (sqrt(3) G(5/2)) with
	 * G(3) = 2 and G(5/2) = 3 sqrt(pi) / 4, so J = 8 / (3 sqrt(3 pi)).
	 */
	assert_int_equal(stats__hedges_g(a, 4, b, 4, &g), 0);
	near(g, 8 / (3 * sqrt(3 * M_PI)) * 4.25 / sqrt(55.0 / 24), 1e-12);
	{
		const double c[] = { 3, 3 };

		assert_int_equal(stats__hedges_g(c, 2, c, 2, &g), -EDOM);
	}
}

/*
 * Benjamini and Hochberg (1995), section 4: fifteen p-values of a trial;
 * at q = 0.05 the procedure rejects the four smallest (Bonferroni: three).
 * Adjusted values by hand: q(j) = min over k >= j of p(k) 15 / k.
 */
static void test_bh(void **state)
{
	static const double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
				    0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000 };
	static const double want[] = { 0.0015,
				       0.003,
				       0.0095,
				       0.035625,
				       0.0603,
				       0.0298 * 15 / 7,
				       0.0298 * 15 / 7,
				       0.0645,
				       0.0765,
				       0.486,
				       0.4262 * 15 / 11,
				       0.5719 * 15 / 12,
				       0.6528 * 15 / 13,
				       0.7590 * 15 / 14,
				       1.0 };
	double q[15], shuffled[16], qs[16];
	int rejected = 0;

	(void)state;
	stats__bh_adjust(p, 15, q);
	for (int i = 0; i < 15; i++) {
		near(q[i], want[i], 1e-12);
		rejected += q[i] <= 0.05;
	}
	assert_int_equal(rejected, 4);
	/* order does not matter; NAN is not a test and does not count in m */
	for (int i = 0; i < 15; i++)
		shuffled[i] = p[(i * 7) % 15];
	shuffled[15] = NAN;
	stats__bh_adjust(shuffled, 16, qs);
	for (int i = 0; i < 15; i++)
		near(qs[i], want[(i * 7) % 15], 1e-12);
	assert_true(isnan(qs[15]));
	/* by hand, m = 3: 0.01 * 3 = 0.03, min(0.04 * 3/2, 0.03 * 3) = 0.06 */
	{
		const double p3[] = { 0.04, 0.01, 0.03 };
		double q3[3];

		stats__bh_adjust(p3, 3, q3);
		near(q3[1], 0.03, 1e-12);
		near(q3[0], 0.04, 1e-12);
		near(q3[2], 0.04, 1e-12);
	}
}

/*
 * Cohen (1992), "A power primer", Table 2: a two-sample t test at
 * alpha = 0.05 and power 0.80 needs 26, 64 and 393 per group for effects of
 * d = 0.8, 0.5 and 0.2 standard deviations.
 */
static void test_mde(void **state)
{
	(void)state;
	near(stats__mde(26, 1, 0.05, 0.8), 0.8, 0.01);
	near(stats__mde(64, 1, 0.05, 0.8), 0.5, 0.005);
	near(stats__mde(393, 1, 0.05, 0.8), 0.2, 0.002);
	/* linear in the coefficient of variation */
	near(stats__mde(64, 0.1, 0.05, 0.8), stats__mde(64, 1, 0.05, 0.8) / 10, 1e-12);
	assert_true(isnan(stats__mde(1, 1, 0.05, 0.8)));
}

static void test_bootstrap(void **state)
{
	const double a[] = { 100, 104, 98, 101, 97 }, b[] = { 110, 115, 108, 112, 109 };
	double lo, hi, lo2, hi2;

	(void)state;
	/* reproducible: same seed, same interval, bit for bit */
	assert_int_equal(stats__bootstrap_rel_change(a, 5, b, 5, 42, 10000, 0.95, &lo, &hi), 0);
	assert_int_equal(stats__bootstrap_rel_change(a, 5, b, 5, 42, 10000, 0.95, &lo2, &hi2), 0);
	assert_memory_equal(&lo, &lo2, sizeof(lo));
	assert_memory_equal(&hi, &hi2, sizeof(hi));
	/* the observed change (+10.4%) inside; every resample between the extremes */
	assert_true(lo < 0.104 && 0.104 < hi);
	assert_true(lo >= 108.0 / 104 - 1 && hi <= 115.0 / 97 - 1);
	/* constant samples: a point */
	{
		const double c[] = { 10, 10, 10 }, d[] = { 12, 12, 12 };

		assert_int_equal(stats__bootstrap_rel_change(c, 3, d, 3, 1, 1000, 0.95, &lo, &hi),
				 0);
		near(lo, 0.2, 1e-12);
		near(hi, 0.2, 1e-12);
	}
	/*
	 * By hand: a = 1 1 1, b = 0 0 3. A resample of b holds k threes,
	 * k ~ Binomial(3, 1/3), and the change is k - 1: -1 with probability
	 * 8/27, 2 with 1/27 = 3.7% (> 2.5%), so the interval is exactly [-1, 2].
	 */
	{
		const double c[] = { 1, 1, 1 }, d[] = { 0, 0, 3 };

		assert_int_equal(stats__bootstrap_rel_change(c, 3, d, 3, 5, 10000, 0.95, &lo, &hi),
				 0);
		near(lo, -1, 0);
		near(hi, 2, 0);
	}
	{
		const double z[] = { 0, 0 };

		assert_int_equal(stats__bootstrap_rel_change(z, 2, b, 5, 1, 100, 0.95, &lo, &hi),
				 -EDOM);
	}
}

/*
 * Coverage, a property any correct interval has: over many normal samples
 * of 20 with a true ratio of 1.1, the 95% interval holds 1.1 - 1 about 95%
 * of the time (percentile bootstrap undercovers slightly at this n).
 */
static void test_bootstrap_coverage(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int hits = 0, trials = 300;

	(void)state;
	gsl_rng_set(r, 7);
	for (int k = 0; k < trials; k++) {
		double a[20], b[20], lo, hi;

		for (int i = 0; i < 20; i++) {
			a[i] = 100 + gsl_ran_gaussian(r, 5);
			b[i] = 110 + gsl_ran_gaussian(r, 5);
		}
		assert_int_equal(stats__bootstrap_rel_change(a, 20, b, 20, (uint64_t)k, 2000, 0.95,
							     &lo, &hi),
				 0);
		hits += lo <= 0.1 && 0.1 <= hi;
	}
	gsl_rng_free(r);
	if (hits < trials * 88 / 100 || hits > trials * 99 / 100)
		fail_msg("coverage %d of %d", hits, trials);
}

/*
 * Paired t: R's t.test(c(2, 3, 5, 5), c(1, 2, 3, 4), paired = TRUE): t = 5,
 * df = 3, p-value = 0.01539 (differences 1 1 2 1: mean 1.25, sd 0.5).
 */
static void test_paired_t(void **state)
{
	static const double a[] = { 1, 2, 3, 4 }, b[] = { 2, 3, 5, 5 };
	static const double c[] = { 3, 4, 5 }, d[] = { 4, 5, 6 };
	struct stats_test t;

	(void)state;
	assert_int_equal(stats__paired_t(a, b, 4, &t), 0);
	near(t.stat, 5, 1e-12);
	near(t.df, 3, 0);
	near(t.p, 0.01539, 5e-6);
	/* every block moved by exactly 1: certainly a difference; by 0: none */
	assert_int_equal(stats__paired_t(c, d, 3, &t), 0);
	near(t.p, 0, 0);
	assert_int_equal(stats__paired_t(c, c, 3, &t), 0);
	near(t.p, 1, 0);
	assert_int_equal(stats__paired_t(a, b, 1, &t), -EINVAL);
}

/*
 * Fieller's interval for mean(b)/mean(a), paired: a = 10 12 11, b = 5 7 6
 * (mx 11, my 6, every (co)variance of the means 1/3, t(0.975, 2) =
 * 4.302653): qa = 121 - t^2/3, qb = 66 - t^2/3, qc = 36 - t^2/3 and the
 * roots (qb -+ sqrt(qb^2 - qa qc)) / qa = 0.412860, 0.629194 (by hand, in
 * double precision). Then the theorem's own promise, checked by
 * simulation with GSL's Gaussian generator: 95% intervals cover the true
 * ratio 95% of the time, and R = 1 lies outside exactly when the paired t
 * test rejects.
 */
static void test_fieller(void **state)
{
	static const double a[] = { 10, 12, 11 }, b[] = { 5, 7, 6 };
	static const double z[] = { 0.5, -0.5, 0.2 }, y[] = { 3, 4, 2 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double lo, hi, x[6], w[6];
	size_t covered = 0, agree = 0, trials = 4000;

	(void)state;
	assert_int_equal(stats__fieller_paired(a, b, 3, 0.95, &lo, &hi), 0);
	near(lo, 0.41286039736, 1e-9);
	near(hi, 0.62919393833, 1e-9);
	/* a mean not known to differ from 0: no interval */
	assert_int_equal(stats__fieller_paired(z, y, 3, 0.95, &lo, &hi), -EDOM);
	assert_int_equal(stats__fieller_paired(a, b, 1, 0.95, &lo, &hi), -EINVAL);
	gsl_rng_set(rng, 7);
	for (size_t k = 0; k < trials; k++) {
		struct stats_test t;
		int r;

		/* blocks share a drift of 10%; each side has 5% noise; true ratio 0.8 */
		for (int i = 0; i < 6; i++) {
			double drift = 1 + gsl_ran_gaussian(rng, 0.10);

			x[i] = 100 * drift * (1 + gsl_ran_gaussian(rng, 0.05));
			w[i] = 80 * drift * (1 + gsl_ran_gaussian(rng, 0.05));
		}
		r = stats__fieller_paired(x, w, 6, 0.95, &lo, &hi);
		assert_int_equal(r, 0);
		covered += lo <= 0.8 && 0.8 <= hi;
		/* a candidate near the baseline: the ratio 1 edge against the test */
		for (int i = 0; i < 6; i++)
			w[i] = x[i] * (1 + gsl_ran_gaussian(rng, 0.05)) + gsl_ran_gaussian(rng, 2);
		r = stats__fieller_paired(x, w, 6, 0.95, &lo, &hi);
		stats__paired_t(x, w, 6, &t);
		agree += r == 0 && ((lo <= 1 && 1 <= hi) == (t.p > 0.05));
	}
	/* binomial sd at 0.95 and 4000 trials: 0.0034 */
	near((double)covered / (double)trials, 0.95, 0.011);
	assert_int_equal(agree, trials);
	gsl_rng_free(rng);
}

/* Where the interval would be with more blocks: narrower, and unbounded while it still is. */
static void test_paired_rel_half(void **state)
{
	static const double a[] = { 100, 104, 98 }, b[] = { 90, 96, 91 };
	static const double z[] = { 1, -1, 0.5 };
	double h3 = stats__paired_rel_half(a, b, 3, 3, 0.95);
	double h12 = stats__paired_rel_half(a, b, 3, 12, 0.95);

	(void)state;
	assert_true(h3 > 0 && isfinite(h3));
	/* sqrt(3/12) of the width, and a smaller t: less than half */
	assert_true(h12 < h3 / 2);
	assert_true(isinf(stats__paired_rel_half(z, b, 3, 3, 0.95)));
	assert_true(isnan(stats__paired_rel_half(a, b, 1, 3, 0.95)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_u_table),
		cmocka_unit_test(test_u_ties_klotz),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_mann_whitney_large),
		cmocka_unit_test(test_effect_sizes),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_bootstrap_coverage),
		cmocka_unit_test(test_paired_t),
		cmocka_unit_test(test_fieller),
		cmocka_unit_test(test_paired_rel_half),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
