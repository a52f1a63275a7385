// SPDX-License-Identifier: GPL-2.0
/*
 * Small-sample statistics on top of GSL (distributions, quantiles, the
 * random number generator). See stats.h for the conventions.
 */
#include "stats.h"
#include "util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

double stats__mean(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats__var(const double *x, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss / (double)(n - 1);
}

int stats__summary(const double *x, size_t n, struct stats_summary *ret)
{
	_cleanup_free_ double *s = NULL;
	struct stats_summary r = { .n = n, .sd = NAN, .cv = NAN };

	if (!n)
		return -EINVAL;
	s = xcalloc(n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	r.min = s[0];
	r.max = s[n - 1];
	r.median = gsl_stats_median_from_sorted_data(s, 1, n);
	r.mean = stats__mean(x, n);
	if (n > 1) {
		r.sd = sqrt(stats__var(x, n, r.mean));
		if (r.mean != 0)
			r.cv = r.sd / fabs(r.mean);
	}
	*ret = r;
	return 0;
}

/* The resolution of a and b together. */
static double resolution2(const double *a, size_t na, const double *b, size_t nb);

int stats__welch(const double *a, size_t na, const double *b, size_t nb, struct stats_test *ret)
{
	double ma, mb, va, vb, se2, t, df, p, floor_var;

	if (na < 2 || nb < 2)
		return -EINVAL;
	ma = stats__mean(a, na);
	mb = stats__mean(b, nb);
	/* a value's rounding error is uniform over its resolution step: variance res^2 / 12 */
	floor_var = STATS_RES_VAR(resolution2(a, na, b, nb)) / 2;
	va = fmax(stats__var(a, na, ma), floor_var) / (double)na;
	vb = fmax(stats__var(b, nb, mb), floor_var) / (double)nb;
	se2 = va + vb;
	t = (mb - ma) / sqrt(se2);
	df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	if (p > 1)
		p = 1;
	*ret = (struct stats_test){ .stat = t, .df = df, .p = p };
	return 0;
}

struct ranked {
	double v;
	int sample; /* 0 = a, 1 = b */
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *p = x, *q = y;

	return p->v < q->v ? -1 : p->v > q->v;
}

/*
 * Pool and rank: doubled midranks (integers: ranks i..j tied share i + j)
 * in ret_r2 in sorted order, the sorted pool in *ret_pool. Returns the tie
 * term sum(t^3 - t) over tie groups.
 */
static double pool_rank(const double *a, size_t na, const double *b, size_t nb,
			struct ranked **ret_pool, long **ret_r2)
{
	size_t n = na + nb;
	struct ranked *pool = xcalloc(n, sizeof(*pool));
	long *r2 = xcalloc(n, sizeof(*r2));
	double ties = 0;

	for (size_t i = 0; i < na; i++)
		pool[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		pool[na + i] = (struct ranked){ b[i], 1 };
	qsort(pool, n, sizeof(*pool), ranked_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && pool[j + 1].v == pool[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			r2[k] = (long)(i + 1 + j + 1);
		ties += pow((double)(j - i + 1), 3) - (double)(j - i + 1);
		i = j + 1;
	}
	*ret_pool = pool;
	*ret_r2 = r2;
	return ties;
}

/*
 * Counts of the doubled rank sum over all n1-subsets of the pooled ranks:
 * ret[s] = number of subsets whose doubled ranks sum to s, s <= n (n + 1).
 */
static double *rank_sum_counts(const long *r2, size_t n, size_t n1, size_t *ret_len)
{
	size_t len = n * (n + 1) + 1;
	double *dp = xcalloc((n1 + 1) * len, sizeof(*dp));
	size_t reach = 0; /* no subset of the ranks so far sums beyond it */
	double *out;

	dp[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t kmax = i + 1 < n1 ? i + 1 : n1;

		reach += (size_t)r2[i];
		if (reach >= len)
			reach = len - 1;
		for (size_t k = kmax; k >= 1; k--) {
			double *to = &dp[k * len], *from = &dp[(k - 1) * len];

			for (size_t s = reach; s >= (size_t)r2[i]; s--)
				to[s] += from[s - (size_t)r2[i]];
		}
	}
	out = xcalloc(len, sizeof(*out));
	memcpy(out, &dp[n1 * len], len * sizeof(*out));
	free(dp);
	*ret_len = len;
	return out;
}

int stats__u_cdf(const double *pooled, size_t n, size_t n1, double u, double *ret)
{
	_cleanup_free_ struct ranked *pool = NULL;
	_cleanup_free_ long *r2 = NULL;
	_cleanup_free_ double *cnt = NULL;
	double total = 0, below = 0, smax;
	size_t len;

	if (n1 == 0 || n1 >= n || n >= 2 * STATS_MW_EXACT_MAX)
		return -EINVAL;
	pool_rank(pooled, n, NULL, 0, &pool, &r2);
	cnt = rank_sum_counts(r2, n, n1, &len);
	/* 2 U1 = S2 - n1 (n1 + 1), S2 the doubled rank sum of sample 1. */
	smax = floor(2 * u + (double)(n1 * (n1 + 1)) + 1e-9);
	for (size_t s = 0; s < len; s++) {
		total += cnt[s];
		if ((double)s <= smax)
			below += cnt[s];
	}
	*ret = below / total;
	return 0;
}

/* U of a from the doubled ranks: (S2 of a) / 2 - na (na + 1) / 2. */
static double u_of_a(const struct ranked *pool, const long *r2, size_t n, size_t na, long *ret_s2)
{
	long s2 = 0;

	for (size_t i = 0; i < n; i++)
		if (pool[i].sample == 0)
			s2 += r2[i];
	*ret_s2 = s2;
	return (double)s2 / 2 - (double)(na * (na + 1)) / 2;
}

static int mw_normal(const struct ranked *pool, const long *r2, double ties, size_t na, size_t nb,
		     struct stats_test *ret)
{
	size_t n = na + nb;
	long s2;
	double u = u_of_a(pool, r2, n, na, &s2);
	double z = u - (double)(na * nb) / 2;
	double sigma = sqrt((double)(na * nb) / 12 *
			    ((double)(n + 1) - ties / ((double)n * (double)(n - 1))));
	double p;

	if (sigma == 0 || n < 2) {
		p = 1;
	} else {
		z = (z - copysign(0.5, z) * (z != 0)) / sigma;
		p = 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
		if (p > 1)
			p = 1;
	}
	*ret = (struct stats_test){ .stat = u, .df = NAN, .p = p, .exact = false };
	return 0;
}

int stats__mann_whitney_normal(const double *a, size_t na, const double *b, size_t nb,
			       struct stats_test *ret)
{
	_cleanup_free_ struct ranked *pool = NULL;
	_cleanup_free_ long *r2 = NULL;
	double ties;

	if (!na || !nb)
		return -EINVAL;
	ties = pool_rank(a, na, b, nb, &pool, &r2);
	return mw_normal(pool, r2, ties, na, nb, ret);
}

int stats__mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct stats_test *ret)
{
	_cleanup_free_ struct ranked *pool = NULL;
	_cleanup_free_ long *r2 = NULL;
	_cleanup_free_ double *cnt = NULL;
	double ties, total = 0, le = 0, ge = 0, u, p;
	size_t n = na + nb, len;
	long s2;

	if (!na || !nb)
		return -EINVAL;
	ties = pool_rank(a, na, b, nb, &pool, &r2);
	if (na >= STATS_MW_EXACT_MAX || nb >= STATS_MW_EXACT_MAX)
		return mw_normal(pool, r2, ties, na, nb, ret);
	u = u_of_a(pool, r2, n, na, &s2);
	cnt = rank_sum_counts(r2, n, na, &len);
	for (size_t s = 0; s < len; s++) {
		total += cnt[s];
		if ((long)s <= s2)
			le += cnt[s];
		if ((long)s >= s2)
			ge += cnt[s];
	}
	p = 2 * fmin(le, ge) / total;
	*ret = (struct stats_test){ .stat = u, .df = NAN, .p = p > 1 ? 1 : p, .exact = true };
	return 0;
}

static int dbl_cmp(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return p < q ? -1 : p > q;
}

int stats__bootstrap_rel_change(const double *a, size_t na, const double *b, size_t nb,
				uint64_t seed, unsigned resamples, double level, double *ret_lo,
				double *ret_hi)
{
	_cleanup_free_ double *rel = NULL;
	gsl_rng *rng;
	size_t kept = 0;

	if (!na || !nb || !resamples || !(level > 0 && level < 1))
		return -EINVAL;
	rel = xcalloc(resamples, sizeof(*rel));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return -ENOMEM;
	/* gsl_rng_set takes an unsigned long: fold the seed so all of it counts. */
	gsl_rng_set(rng, (unsigned long)(seed ^ (seed >> 32)));
	for (unsigned i = 0; i < resamples; i++) {
		double sa = 0, sb = 0;

		for (size_t j = 0; j < na; j++)
			sa += a[gsl_rng_uniform_int(rng, na)];
		for (size_t j = 0; j < nb; j++)
			sb += b[gsl_rng_uniform_int(rng, nb)];
		if (sa == 0)
			continue;
		rel[kept++] = (sb / (double)nb - sa / (double)na) / fabs(sa / (double)na);
	}
	gsl_rng_free(rng);
	if (!kept)
		return -EDOM;
	qsort(rel, kept, sizeof(*rel), dbl_cmp);
	*ret_lo = gsl_stats_quantile_from_sorted_data(rel, 1, kept, (1 - level) / 2);
	*ret_hi = gsl_stats_quantile_from_sorted_data(rel, 1, kept, 1 - (1 - level) / 2);
	return 0;
}

int stats__cliffs_delta(const double *a, size_t na, const double *b, size_t nb, double *ret)
{
	double more = 0, less = 0;

	if (!na || !nb)
		return -EINVAL;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < na; j++) {
			more += b[i] > a[j];
			less += b[i] < a[j];
		}
	*ret = (more - less) / ((double)na * (double)nb);
	return 0;
}

int stats__hedges_g(const double *a, size_t na, const double *b, size_t nb, double *ret)
{
	double ma, mb, sp, df, j;

	if (na < 2 || nb < 2)
		return -EINVAL;
	ma = stats__mean(a, na);
	mb = stats__mean(b, nb);
	df = (double)(na + nb - 2);
	sp = sqrt(((double)(na - 1) * stats__var(a, na, ma) + (double)(nb - 1) * stats__var(b, nb, mb)) /
		  df);
	if (sp == 0)
		return -EDOM;
	j = exp(gsl_sf_lngamma(df / 2) - gsl_sf_lngamma((df - 1) / 2)) / sqrt(df / 2);
	*ret = j * (mb - ma) / sp;
	return 0;
}

struct pidx {
	double p;
	size_t i;
};

static int pidx_cmp(const void *x, const void *y)
{
	const struct pidx *p = x, *q = y;

	if (p->p != q->p)
		return p->p < q->p ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

void stats__bh_adjust(const double *p, size_t n, double *ret_q)
{
	_cleanup_free_ struct pidx *s = xcalloc(n ? n : 1, sizeof(*s));
	size_t m = 0;
	double run = 1;

	for (size_t i = 0; i < n; i++) {
		ret_q[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct pidx){ p[i], i };
	}
	qsort(s, m, sizeof(*s), pidx_cmp);
	for (size_t k = m; k-- > 0;) {
		double q = s[k].p * (double)m / (double)(k + 1);

		if (q < run)
			run = q;
		ret_q[s[k].i] = run;
	}
}

double stats__mde(size_t n, double sd_rel, double alpha, double power)
{
	double df;

	if (n < 2)
		return NAN;
	df = (double)(2 * n - 2);
	return (gsl_cdf_tdist_Pinv(1 - alpha / 2, df) + gsl_cdf_tdist_Pinv(power, df)) *
	       sqrt(2.0 / (double)n) * sd_rel;
}

/* P(|Z + lambda| > c sqrt(V / df)) times the density of V ~ chi2(df). */
struct nct_args {
	double lambda, c, df;
};

static double nct_integrand(double v, void *p)
{
	const struct nct_args *a = p;
	double c = a->c * sqrt(v / a->df);

	return (gsl_cdf_ugaussian_P(-c - a->lambda) + gsl_cdf_ugaussian_Q(c - a->lambda)) *
	       gsl_ran_chisq_pdf(v, a->df);
}

double stats__paired_t_power(size_t n, double effect, double level)
{
	struct nct_args a;
	gsl_integration_workspace *w;
	gsl_function f = { .function = nct_integrand, .params = &a };
	gsl_error_handler_t *old;
	double result = NAN, err;

	if (n < 2)
		return NAN;
	a = (struct nct_args){ .lambda = fabs(effect) * sqrt((double)n),
			       .df = (double)(n - 1),
			       .c = stats__t_crit(level, (double)(n - 1)) };
	w = gsl_integration_workspace_alloc(1000);
	if (!w)
		return NAN;
	/* a tolerance not quite reached is no reason to abort: the result stands */
	old = gsl_set_error_handler_off();
	gsl_integration_qagiu(&f, 0, 1e-12, 1e-10, 1000, w, &result, &err);
	gsl_set_error_handler(old);
	gsl_integration_workspace_free(w);
	return result;
}

double stats__paired_mde(size_t n, double sd, double level, double power)
{
	double lo = 0, hi;

	if (n < 2 || isnan(sd))
		return NAN;
	/* the shortcut is below the answer: start there and double until it is passed */
	hi = (stats__t_crit(level, (double)(n - 1)) + gsl_cdf_tdist_Pinv(power, (double)(n - 1))) /
	     sqrt((double)n);
	while (stats__paired_t_power(n, hi, level) < power && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (stats__paired_t_power(n, mid, level) < power)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2 * sd;
}

double stats__mean_ci_half(size_t n, double sd, double level)
{
	if (n < 2 || isnan(sd))
		return NAN;
	return gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)(n - 1)) * sd / sqrt((double)n);
}

double stats__t_crit(double level, double df)
{
	return gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, df);
}

/* The mean of x, corrected by the mean of the residuals (accurate when x is nearly constant). */
static double mean_corrected(const double *x, size_t n)
{
	double m = stats__mean(x, n), r = 0;

	for (size_t i = 0; i < n; i++)
		r += x[i] - m;
	return m + r / (double)n;
}

double stats__resolution(const double *x, size_t n)
{
	double amax = 0, q = 1, floor_res;
	bool ints = true;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		amax = fmax(amax, fabs(x[i]));
		ints &= x[i] == floor(x[i]);
	}
	if (ints)
		return 1;
	floor_res = STATS_RES_REL * amax;
	for (int k = 1; k <= 9; k++) {
		bool all = true;

		q = pow(10, -k);
		if (q < floor_res)
			break;
		for (size_t i = 0; i < n && all; i++) {
			double y = x[i] / q;

			all = !isfinite(y) || fabs(y - nearbyint(y)) <= 1e-6;
		}
		if (all)
			return q;
	}
	return floor_res;
}

/* The resolution of a and b together. */
static double resolution2(const double *a, size_t na, const double *b, size_t nb)
{
	_cleanup_free_ double *x = xcalloc(na + nb + 1, sizeof(*x));

	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	return stats__resolution(x, na + nb);
}

/* The mean of the differences b - a, and their variance floored at the rounding variance. */
static void paired_diff_moments(const double *a, const double *b, size_t n, double res,
				double *ret_md, double *ret_var)
{
	double md = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		md += b[i] - a[i];
	md /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (b[i] - a[i] - md) * (b[i] - a[i] - md);
	*ret_md = md;
	*ret_var = fmax(ss / (double)(n - 1), STATS_RES_VAR(res));
}

int stats__paired_t_res(const double *a, const double *b, size_t n, double res,
			struct stats_test *ret)
{
	double md, var, t, p;

	if (n < 2)
		return -EINVAL;
	paired_diff_moments(a, b, n, res, &md, &var);
	if (var == 0) {
		/* no floor, and every block moved by the same amount */
		t = md == 0 ? 0 : copysign(INFINITY, md);
		p = md == 0 ? 1 : 0;
	} else {
		t = md / sqrt(var / (double)n);
		p = 2 * gsl_cdf_tdist_Q(fabs(t), (double)(n - 1));
		if (p > 1)
			p = 1;
	}
	*ret = (struct stats_test){ .stat = t, .df = (double)(n - 1), .p = p };
	return 0;
}

int stats__paired_t(const double *a, const double *b, size_t n, struct stats_test *ret)
{
	return stats__paired_t_res(a, b, n, resolution2(a, n, b, n), ret);
}

int stats__paired_diff(const double *a, const double *b, size_t n, double level, double res,
		       double *ret_md, double *ret_lo, double *ret_hi)
{
	double md, var, half;

	if (n < 2)
		return -EINVAL;
	paired_diff_moments(a, b, n, res, &md, &var);
	half = stats__t_crit(level, (double)(n - 1)) * sqrt(var / (double)n);
	*ret_md = md;
	*ret_lo = md - half;
	*ret_hi = md + half;
	return 0;
}

int stats__paired_log(const double *a, const double *b, size_t n, double level, double res,
		      struct stats_test *ret, double *ret_change, double *ret_lo, double *ret_hi)
{
	_cleanup_free_ double *l = NULL;
	double ml, ss = 0, fl = 0, var, se, t, p, half;

	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i])))
			return -EDOM;
	l = xcalloc(n, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		/* log(b / a) without the cancellation of log b - log a at tiny changes */
		l[i] = log1p((b[i] - a[i]) / a[i]);
		/* the rounding variance of log x is about (res / x)^2 / 12 */
		fl += (1 / (a[i] * a[i]) + 1 / (b[i] * b[i])) * res * res / 12;
	}
	ml = mean_corrected(l, n);
	for (size_t i = 0; i < n; i++)
		ss += (l[i] - ml) * (l[i] - ml);
	var = fmax(ss / (double)(n - 1), fl / (double)n);
	se = sqrt(var / (double)n);
	if (se == 0) {
		t = ml == 0 ? 0 : copysign(INFINITY, ml);
		p = ml == 0 ? 1 : 0;
	} else {
		t = ml / se;
		p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), (double)(n - 1)));
	}
	half = stats__t_crit(level, (double)(n - 1)) * se;
	*ret = (struct stats_test){ .stat = t, .df = (double)(n - 1), .p = p };
	*ret_change = expm1(ml);
	*ret_lo = expm1(ml - half);
	*ret_hi = expm1(ml + half);
	return 0;
}

int stats__sign_flip(const double *a, const double *b, size_t n, struct stats_test *ret)
{
	double d[STATS_SIGN_FLIP_MAX], obs = 0, tol = 0;
	unsigned long count = 0, total;

	if (n < 1 || n > STATS_SIGN_FLIP_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		d[i] = b[i] - a[i];
		obs += d[i];
		tol += fabs(d[i]);
	}
	/* sums equal up to rounding are ties: they count as extreme as the observed one */
	tol *= 1e-12;
	total = 1UL << n;
	for (unsigned long mask = 0; mask < total; mask++) {
		double s = 0;

		for (size_t i = 0; i < n; i++)
			s += mask & (1UL << i) ? -d[i] : d[i];
		count += fabs(s) >= fabs(obs) - tol;
	}
	*ret = (struct stats_test){ .stat = obs / (double)n,
				    .df = NAN,
				    .p = (double)count / (double)total,
				    .exact = true };
	return 0;
}

/* Means, and the (co)variances of the means, of paired samples. */
struct paired_moments {
	double mx, my, v11, v22, v12;
};

static struct paired_moments paired_moments(const double *a, const double *b, size_t n)
{
	struct paired_moments m = { stats__mean(a, n), stats__mean(b, n), 0, 0, 0 };
	double k = (double)(n - 1) * (double)n;

	for (size_t i = 0; i < n; i++) {
		m.v11 += (a[i] - m.mx) * (a[i] - m.mx);
		m.v22 += (b[i] - m.my) * (b[i] - m.my);
		m.v12 += (a[i] - m.mx) * (b[i] - m.my);
	}
	m.v11 /= k;
	m.v22 /= k;
	m.v12 /= k;
	return m;
}

/*
 * The interval {d : A d^2 + 2 B d - C <= 0}, A > 0 and C >= 0 (it holds 0),
 * each root from the form that does not cancel.
 */
static void quad_interval(double A, double B, double C, double *ret_lo, double *ret_hi)
{
	double s = sqrt(B * B + A * C);

	if (s == 0) {
		*ret_lo = *ret_hi = 0;
	} else if (B >= 0) {
		*ret_lo = -(B + s) / A;
		*ret_hi = C / (B + s);
	} else {
		*ret_lo = -C / (s - B);
		*ret_hi = (s - B) / A;
	}
}

/*
 * Fieller's set for rho = R - 1, R = mean(b) / mean(a): the rho for which
 * the paired t test of d - rho a (d = b - a) does not reject, that is
 * (md - rho mx)^2 <= t^2 S(rho), S the variance of the mean of d - rho a.
 * Centred on the estimate rho^ = md / mx (rho = rho^ + delta: the left side
 * is delta^2 mx^2) and with S from the centred deviations of a and of d,
 * nothing cancels however small the spread (CV 1e-12): the textbook form's
 * discriminant qb^2 - qa qc subtracts two numbers of size mx^4 that agree to
 * 2 log10(1/CV) digits. The floor: S is at least the rounding variance of
 * the mean of b - R a, res^2 (1 + R^2) / (12 n) (at R = 1 the paired t
 * test's res^2 / 6 / n), so the set is the union of two intervals around
 * rho^.
 */
int stats__fieller_paired_change(const double *a, const double *b, size_t n, double level,
				 double res, double *ret_lo, double *ret_hi)
{
	_cleanup_free_ double *al = NULL, *dl = NULL;
	double mx, md, rho, k, saa = 0, s0 = 0, cc = 0, t2, A, lo, hi;

	if (n < 2)
		return -EINVAL;
	al = xcalloc(n, sizeof(*al));
	dl = xcalloc(n, sizeof(*dl));
	for (size_t i = 0; i < n; i++)
		dl[i] = b[i] - a[i];
	mx = mean_corrected(a, n);
	md = mean_corrected(dl, n);
	if (mx == 0)
		return -EDOM;
	rho = md / mx;
	k = (double)n * (double)(n - 1);
	for (size_t i = 0; i < n; i++) {
		double e;

		al[i] = a[i] - mx;
		e = dl[i] - md - rho * al[i];
		saa += al[i] * al[i];
		s0 += e * e;
		cc += al[i] * e;
	}
	saa /= k;
	s0 /= k;
	cc /= k;
	t2 = stats__t_crit(level, (double)(n - 1));
	t2 *= t2;
	A = mx * mx - t2 * saa;
	if (!(A > 0))
		return -EDOM;
	quad_interval(A, t2 * cc, t2 * s0, &lo, &hi);
	if (res > 0) {
		double u = t2 * res * res / (12 * (double)n), r0 = 1 + rho, lo2, hi2;

		/* delta^2 mx^2 <= u (1 + (r0 + delta)^2) */
		A = mx * mx - u;
		if (!(A > 0))
			return -EDOM;
		quad_interval(A, -u * r0, u * (1 + r0 * r0), &lo2, &hi2);
		lo = fmin(lo, lo2);
		hi = fmax(hi, hi2);
	}
	*ret_lo = rho + lo;
	*ret_hi = rho + hi;
	return 0;
}

int stats__fieller_paired(const double *a, const double *b, size_t n, double level,
			  double *ret_lo, double *ret_hi)
{
	double lo, hi;
	int r;

	if (n < 2)
		return -EINVAL;
	r = stats__fieller_paired_change(a, b, n, level, resolution2(a, n, b, n), &lo, &hi);
	if (r < 0)
		return r;
	*ret_lo = 1 + lo;
	*ret_hi = 1 + hi;
	return 0;
}

double stats__paired_rel_half(const double *a, const double *b, size_t n, size_t n2, double level)
{
	struct paired_moments m;
	double r, var, t;

	if (n < 2 || n2 < 2)
		return NAN;
	m = paired_moments(a, b, n);
	if (m.mx == 0)
		return NAN;
	t = stats__t_crit(level, (double)(n2 - 1));
	/* Fieller's set stays unbounded while mean(a) is not known to be nonzero */
	if (t * t * m.v11 * (double)n / (double)n2 >= m.mx * m.mx)
		return INFINITY;
	r = m.my / m.mx;
	var = (m.v22 - 2 * r * m.v12 + r * r * m.v11) / (m.mx * m.mx);
	if (var < 0)
		var = 0;
	return t * sqrt(var * (double)n / (double)n2);
}
