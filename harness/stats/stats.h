/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for small samples of runs: summaries, Welch's t, Mann-Whitney U,
 * a seeded bootstrap interval of the relative change, effect sizes,
 * Benjamini-Hochberg and the minimum detectable effect. Pure functions on
 * arrays of doubles; distributions come from GSL. Nothing here prints.
 *
 * Conventions: "a" is the baseline sample, "b" the candidate; statistics are
 * oriented b against a (a positive t or Cliff's delta means b is larger).
 * Functions return 0 or -EINVAL when a sample is too small for the statistic
 * (n < 2 where a variance is needed), and write ret_ only on success.
 */
#ifndef LRUBENCH_STATS_H
#define LRUBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double mean, median, sd, cv; /* sd: sample (n - 1); NAN when n < 2; cv = sd / |mean| */
	double min, max;
};

/* -EINVAL if n == 0. */
int stats__summary(const double *x, size_t n, struct stats_summary *ret);

struct stats_test {
	double stat; /* t, or U of a (pairs a > b, ties one half: R's W) */
	double df; /* Welch-Satterthwaite degrees of freedom; NAN for U */
	double p; /* two-sided */
	bool exact; /* U: the exact permutation distribution, not the normal one */
};

/*
 * Welch's unequal-variance t test of mean(b) - mean(a). Each sample's
 * variance is floored at the rounding variance of its values, res^2 / 12
 * (res: stats__resolution of a and b together), so two constant samples
 * that differ by one count give p = 0.013 at 3 values each, not 0; equal
 * ones t = 0, p = 1.
 */
int stats__welch(const double *a, size_t na, const double *b, size_t nb, struct stats_test *ret);

/*
 * Mann-Whitney U (Wilcoxon rank-sum). Exact when both samples have fewer than
 * STATS_MW_EXACT_MAX values: the permutation distribution of the midrank sum,
 * which stays exact with ties (Klotz 1966). Beyond, the normal approximation
 * with tie and continuity correction (as R's wilcox.test). n >= 1 each.
 */
#define STATS_MW_EXACT_MAX 50
int stats__mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct stats_test *ret);
/* The normal approximation alone, whatever the sizes. */
int stats__mann_whitney_normal(const double *a, size_t na, const double *b, size_t nb,
			       struct stats_test *ret);
/*
 * The exact null distribution: P(U1 <= u) when n1 of the pooled values are
 * drawn at random as sample 1 and U1 counts its pairs above sample 2 (ties
 * one half). Ties in pooled are honoured. -EINVAL unless 0 < n1 < n and
 * n < 2 * STATS_MW_EXACT_MAX.
 */
int stats__u_cdf(const double *pooled, size_t n, size_t n1, double u, double *ret);

/*
 * Percentile bootstrap interval of (mean(b) - mean(a)) / |mean(a)| at the given level
 * (0.95): resamples drawn with GSL's MT19937 from seed, so the same inputs
 * and seed give the same interval on every machine. Resamples whose baseline
 * mean is 0 are dropped; -EDOM if all are.
 */
int stats__bootstrap_rel_change(const double *a, size_t na, const double *b, size_t nb,
				uint64_t seed, unsigned resamples, double level, double *ret_lo,
				double *ret_hi);

/* Cliff's delta of b over a: (#(b > a) - #(b < a)) / (na nb), in [-1, 1]. */
int stats__cliffs_delta(const double *a, size_t na, const double *b, size_t nb, double *ret);
/*
 * Hedges' g of b over a: Cohen's d on the pooled standard deviation times
 * the exact small-sample correction J = G(df/2) / (sqrt(df/2) G((df-1)/2)).
 * -EDOM when the pooled deviation is zero.
 */
int stats__hedges_g(const double *a, size_t na, const double *b, size_t nb, double *ret);

/*
 * Benjamini-Hochberg adjusted p-values (R's p.adjust "BH") of the n values in
 * p; NAN entries are not tests: they stay NAN and do not count in m.
 */
void stats__bh_adjust(const double *p, size_t n, double *ret_q);

/*
 * The smallest true difference, in units of the standard deviation (or of
 * the mean when sd_rel is a coefficient of variation), that a two-sided
 * Welch/Student test at level alpha detects with the given power with n runs
 * per side: (t(1 - alpha/2, 2n-2) + t(power, 2n-2)) sqrt(2/n) sd_rel.
 * NAN when n < 2.
 */
double stats__mde(size_t n, double sd_rel, double alpha, double power);

/*
 * The power of the two-sided paired t test at the given level over n pairs
 * against a true mean difference of effect standard deviations of a
 * difference: P(|T'| > t(1 - (1 - level) / 2, n - 1)), T' non-central t
 * with n - 1 df and non-centrality effect sqrt(n), by numerical integration
 * over the chi-square of the variance estimate. NAN when n < 2.
 */
double stats__paired_t_power(size_t n, double effect, double level);
/*
 * The paired minimum detectable effect: the true mean difference, in units
 * of sd (the spread of a difference, relative or absolute), that the paired
 * t test at the given level detects with the given power over n pairs,
 * solved on the non-central t power above. The usual shortcut (t(1 - a/2,
 * n - 1) + t(power, n - 1)) sd / sqrt(n) treats the non-central t as a
 * shifted central one, and at n = 3 says a change 14% smaller than the one
 * the test really detects with power 0.8. NAN when n < 2.
 */
double stats__paired_mde(size_t n, double sd, double level, double power);

/*
 * Resolution: the smallest step a row's values move by. Counters and other
 * integer-valued rows move by 1; other values by the decimal step they were
 * stored with (0.879: 0.001), the largest 10^-k (k = 1..9) every value is a
 * multiple of; failing that (full-precision times and rates) by
 * STATS_RES_REL of the largest |value|, nine significant digits, beyond
 * what any measurement here carries. Zero sample variance of quantised
 * values is not zero noise: each value may be off by up to half a step, so
 * a paired difference has at least the variance of the difference of two
 * uniform rounding errors, STATS_RES_VAR(res) = res^2 / 6, and the paired
 * tests and intervals below never see less.
 */
#define STATS_RES_REL 1e-9
#define STATS_RES_VAR(res) ((res) * (res) / 6)
double stats__resolution(const double *x, size_t n);

/*
 * Paired analysis over blocks: a[i] and b[i] were measured in the same
 * block (repetition i of an interleaved campaign, so they share its drift).
 *
 * stats__paired_t_res: the paired t test of mean(b - a) = 0, df n - 1, on
 * the variance of the differences floored at STATS_RES_VAR(res): constant
 * but different values (20 20 20 against 21 21 21) give p = 0.051, not 0;
 * identical ones t = 0, p = 1. res = 0: no floor (then all differences
 * equal give p = 1 if they are 0, else 0). -EINVAL if n < 2.
 * stats__paired_t: the same at the resolution of a and b together.
 */
int stats__paired_t_res(const double *a, const double *b, size_t n, double res,
			struct stats_test *ret);
int stats__paired_t(const double *a, const double *b, size_t n, struct stats_test *ret);

/*
 * The mean paired difference mean(b - a) and its t interval at the given
 * level, on the floored variance of stats__paired_t_res: the scale for
 * rows at or near zero, where a ratio means nothing. -EINVAL if n < 2.
 */
int stats__paired_diff(const double *a, const double *b, size_t n, double level, double res,
		       double *ret_md, double *ret_lo, double *ret_hi);

/*
 * The paired analysis on the log scale, for strictly positive
 * multiplicative quantities (times, rates, counts): the t test of
 * mean(log(b / a)) = 0, df n - 1, and the change as the ratio of the
 * geometric means minus 1 with its t interval, expm1(mean +- t se). The
 * variance of a log ratio is floored at the mean over the pairs of the
 * rounding variance (res^2 / 12) (1 / a^2 + 1 / b^2). -EDOM if a value is
 * not positive, -EINVAL if n < 2.
 */
int stats__paired_log(const double *a, const double *b, size_t n, double level, double res,
		      struct stats_test *ret, double *ret_change, double *ret_lo, double *ret_hi);

/*
 * The exact paired sign-flip (permutation) test of mean(b - a) = 0: the
 * share of the 2^n sign assignments of the differences whose sum is at
 * least as far from 0 as the observed one (two-sided; stat: the mean
 * difference, df NAN, exact). Distribution-free, but its smallest p is
 * 2 / 2^n: 0.5 at n = 2, 0.25 at 3, 0.0625 at 5, 0.031 at 6, so below 6
 * blocks it can never reject at 0.05. -EINVAL unless 1 <= n <=
 * STATS_SIGN_FLIP_MAX.
 */
#define STATS_SIGN_FLIP_MAX 20
int stats__sign_flip(const double *a, const double *b, size_t n, struct stats_test *ret);

/*
 * Fieller's interval for the ratio of paired means R = mean(b) / mean(a) at
 * the given level (Fieller 1954, with the paired covariance; Motulsky's
 * "Fieller's theorem" for paired data): the set of R for which the paired t
 * test of b - R a does not reject. Its R = 1 edge is therefore exactly the
 * paired t test of b - a. Returns 0 with [lo, hi] when the set is an
 * interval; -EDOM when mean(a) is not significantly different from 0 at that
 * level (the set is unbounded: no ratio can be given); -EINVAL if n < 2.
 *
 * stats__fieller_paired_change: the interval of R - 1 (the relative change
 * for a positive mean(a)), with the variance floor of resolution res (0:
 * none), so that its R = 1 edge is exactly stats__paired_t_res's test;
 * computed in a form that does not cancel, exact to rounding at any CV
 * (1e-12 included). stats__fieller_paired: R itself, at the resolution of a
 * and b together (the edge of stats__paired_t).
 */
int stats__fieller_paired_change(const double *a, const double *b, size_t n, double level,
				 double res, double *ret_lo, double *ret_hi);
int stats__fieller_paired(const double *a, const double *b, size_t n, double level,
			  double *ret_lo, double *ret_hi);

/*
 * The half-width, relative to |mean(a)|, that Fieller's interval would have
 * at the given level with n2 pairs if the means and (co)variances stayed as
 * they are with n pairs (the delta-method width, for "how many more blocks
 * would decide it"); INFINITY while the interval would still be unbounded.
 * NAN when it cannot be said (n or n2 below 2, mean(a) zero).
 */
double stats__paired_rel_half(const double *a, const double *b, size_t n, size_t n2, double level);

/* The two-sided Student t quantile t(1 - (1 - level) / 2, df). */
double stats__t_crit(double level, double df);

/* The two-sided t interval half-width of a mean: t(1 - (1-level)/2, n-1) sd / sqrt(n). */
double stats__mean_ci_half(size_t n, double sd, double level);

/* The mean of x[0..n) (n > 0), and its sample variance (n - 1, n > 1) about
 * mean, two-pass for accuracy. */
double stats__mean(const double *x, size_t n);
double stats__var(const double *x, size_t n, double mean);

#endif
