// SPDX-License-Identifier: GPL-2.0
/*
 * Working-set models (wss-model.h): Gray's Zipf generator rank by rank, the
 * workloads' rank-to-page maps, Denning's expectation, and one row per
 * workload type.
 */
#include "wss-model.h"
#include "catalogue.h"
#include "lib/wl.h"
#include "plan.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define WSS_PAGE 4096 /* the guests are x86-64 */

/*
 * Gray's generator draws u uniform in [0, 1): rank 0 if u zeta_n < 1, rank 1
 * if u zeta_n < 1 + 0.5^theta, else floor(n (eta u - eta + 1)^(1/(1-theta))),
 * at most n - 1. That last expression is increasing in u (also for theta > 1,
 * where 1/(1-theta) and eta are both negative) and reaches x at
 * u = g(x) = 1 + ((x/n)^(1-theta) - 1) / eta, so a rank r of that branch has
 * the probability of u in [g(r), g(r+1)) above the two exact ranks' share.
 */
int wss_zipf_rank_probs(uint64_t n, double theta, double *p)
{
	double zetan = 0, zeta2, eta, u2, prev;

	if (n < 2 || !(theta >= 0) || fabs(theta - 1.0) < 1e-9 || !isfinite(theta))
		return -EINVAL;
	for (uint64_t i = 1; i <= n; i++)
		zetan += 1.0 / pow((double)i, theta);
	zeta2 = 1.0 + pow(0.5, theta);
	eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - zeta2 / zetan);
	u2 = zeta2 / zetan;
	memset(p, 0, n * sizeof(*p));
	p[0] = 1.0 / zetan;
	p[1] = u2 - p[0];
	prev = u2;
	for (uint64_t r = 0; r < n; r++) {
		double g = r + 1 == n ? 1.0 :
					1.0 + (pow((double)(r + 1) / (double)n, 1.0 - theta) - 1.0) / eta;

		g = fmin(fmax(g, u2), 1.0);
		if (g > prev) {
			p[r] += g - prev;
			prev = g;
		}
	}
	return 0;
}

uint64_t wss_map_anon_zipf(uint64_t rank, uint64_t n)
{
	return wl_scatter(rank, n);
}

/* fio: (__hash_u64(rank) + rand_off) % nranges, __hash_u64 = rank * GR_PRIME_64. rand_off
 * (below 2^32) shifts every block alike and so leaves the distinct count as it is. */
uint64_t wss_map_fio(uint64_t rank, uint64_t n)
{
	return rank * 0x9e37fffffffc0001ULL % n;
}

double wss_expected_distinct(const double *p, size_t n, double w)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i] > 0)
			sum += p[i] >= 1 ? 1 : -expm1(w * log1p(-p[i]));
	return sum;
}

int wss_zipf_expected(uint64_t n, double theta, wss_map_fn map, double w, double *ret,
		      uint64_t *ret_reach)
{
	_cleanup_free_ double *rank = NULL, *page = NULL;
	uint64_t reach = 0;
	int r;

	if (n < 2 || n > (1ULL << 28) || !(w >= 0))
		return -EINVAL;
	rank = xcalloc(n, sizeof(*rank));
	page = xcalloc(n, sizeof(*page));
	r = wss_zipf_rank_probs(n, theta, rank);
	if (r < 0)
		return r;
	for (uint64_t i = 0; i < n; i++)
		page[map(i, n)] += rank[i];
	for (uint64_t i = 0; i < n; i++)
		reach += page[i] > 0;
	*ret = wss_expected_distinct(page, n, w);
	if (ret_reach)
		*ret_reach = reach;
	return 0;
}

/* A parameter as the plan resolved it, else the catalogue's default; NULL if neither. */
static const char *param(const struct plan_workload *w, const char *name)
{
	const struct wl_param *p = workload_param(w->def, name);

	for (size_t i = 0; i < w->nparams; i++)
		if (!strcmp(w->params[i].key, name))
			return w->params[i].value;
	return p ? p->def : NULL;
}

static int param_size(const struct plan_workload *w, const char *name, uint64_t *ret)
{
	const char *v = param(w, name);

	return v ? parse_size(v, ret) : -ENOENT;
}

static int param_u64(const struct plan_workload *w, const char *name, uint64_t *ret)
{
	const char *v = param(w, name);

	return v ? parse_u64(v, ret) : -ENOENT;
}

static int param_double(const struct plan_workload *w, const char *name, double *ret)
{
	const char *v = param(w, name);
	char *end;

	if (!v)
		return -ENOENT;
	*ret = strtod(v, &end);
	return *end || end == v ? -EINVAL : 0;
}

/* Accesses per second: counted read() calls, the paced rate, else the throughput. */
static int accesses(const struct wss_model_in *in, bool reads_count, double *ret_rate,
		    const char **ret_from)
{
	uint64_t rate = 0;

	if (reads_count && isfinite(in->reads) && in->reads_window_s > 0) {
		*ret_rate = in->reads / in->reads_window_s;
		*ret_from = "its read() calls";
		return 0;
	}
	if (param_u64(in->w, "rate", &rate) == 0 && rate) {
		*ret_rate = (double)rate;
		*ret_from = "paced";
		return 0;
	}
	if (isfinite(in->throughput) && in->throughput > 0) {
		*ret_rate = in->throughput;
		*ret_from = "its mean throughput";
		return 0;
	}
	return -ENODATA;
}

static int known_anon_zipf(const struct wss_model_in *in, double *ret_pages, char **ret_how)
{
	uint64_t size = 0, n, reach;
	double theta, rate, w, e;
	const char *from;
	int r;

	if (param_size(in->w, "size", &size) < 0 || param_double(in->w, "theta", &theta) < 0) {
		*ret_how = xstrdup("anon-zipf: no size or theta");
		return -ENODATA;
	}
	if (accesses(in, false, &rate, &from) < 0) {
		*ret_how = xstrdup("anon-zipf: no rate and no throughput reported");
		return -ENODATA;
	}
	n = size / WSS_PAGE;
	w = rate * in->window_s;
	r = wss_zipf_expected(n, theta, wss_map_anon_zipf, w, &e, &reach);
	if (r < 0) {
		*ret_how = xasprintf("anon-zipf: %llu pages, theta %g: no model",
				     (unsigned long long)n, theta);
		return -ENODATA;
	}
	*ret_pages = e;
	*ret_how = xasprintf("Zipf(%g) over %llu pages (%llu reachable), %.0f accesses/s (%s) x "
			     "%.2f s = %.0f",
			     theta, (unsigned long long)n, (unsigned long long)reach, rate, from,
			     in->window_s, w);
	return 0;
}

/*
 * fio: the set is nrfiles files of size / files / bs blocks each (wl-file-zipf),
 * each with its own Zipf state, visited round robin one read at a time.
 */
static int known_file_zipf(const struct wss_model_in *in, double *ret_pages, char **ret_how)
{
	uint64_t size = 0, files = 0, bs = 0, n, reach;
	double theta, rate, w, e;
	const char *from;
	int r;

	if (param_size(in->w, "size", &size) < 0 || param_u64(in->w, "files", &files) < 0 ||
	    param_size(in->w, "bs", &bs) < 0 || param_double(in->w, "theta", &theta) < 0 ||
	    !files || !bs) {
		*ret_how = xstrdup("file-zipf: no size, files, bs or theta");
		return -ENODATA;
	}
	if (bs % WSS_PAGE) {
		*ret_how = xasprintf("file-zipf: bs %llu is not whole pages: no model",
				     (unsigned long long)bs);
		return -ENODATA;
	}
	if (accesses(in, true, &rate, &from) < 0) {
		*ret_how = xstrdup("file-zipf: no read() count, no rate and no throughput reported");
		return -ENODATA;
	}
	n = size / files / bs;
	w = rate * in->window_s;
	r = wss_zipf_expected(n, theta, wss_map_fio, w / (double)files, &e, &reach);
	if (r < 0) {
		*ret_how = xasprintf("file-zipf: %llu blocks per file, theta %g: no model",
				     (unsigned long long)n, theta);
		return -ENODATA;
	}
	*ret_pages = e * (double)files * (double)(bs / WSS_PAGE);
	*ret_how = xasprintf("%llu files x Zipf(%g) over %llu blocks of %llu (%llu reachable), "
			     "%.0f reads/s (%s) x %.2f s = %.0f reads",
			     (unsigned long long)files, theta, (unsigned long long)n,
			     (unsigned long long)bs, (unsigned long long)reach, rate, from,
			     in->window_s, w);
	return 0;
}

static const struct wss_model models[] = {
	{ "anon-zipf", "anon", false, known_anon_zipf },
	{ "file-zipf", "file", true, known_file_zipf },
};

const struct wss_model *wss_model_find(const char *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (!strcmp(models[i].workload, type))
			return &models[i];
	return NULL;
}
