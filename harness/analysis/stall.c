// SPDX-License-Identifier: GPL-2.0
#include "stall.h"

#include "reclaim-paths.h"
#include "store-dataset.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define PREFIX "reclaim:"

static struct stall_hist *hist_get(struct stall_run *r, const char *scope, unsigned path)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->h[i].path == path && !strcmp(r->h[i].scope, scope))
			return &r->h[i];
	r->h = xrealloc(r->h, r->n + 1, sizeof(*r->h));
	memset(&r->h[r->n], 0, sizeof(r->h[r->n]));
	r->h[r->n].scope = xstrdup(scope);
	r->h[r->n].path = path;
	return &r->h[r->n++];
}

const struct loghist *stall_run__find(const struct stall_run *r, const char *scope, unsigned path)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->h[i].path == path && !strcmp(r->h[i].scope, scope))
			return &r->h[i].h;
	return NULL;
}

/* "memcg" or "memcg.65536" after a part's dot: the path, and the bucket if any. */
static int parse_key(const char *s, bool bucket, unsigned *ret_path, unsigned *ret_bucket)
{
	size_t len = bucket ? strcspn(s, ".") : strlen(s);
	const struct reclaim_path *p = reclaim_path_find(s, len);
	uint64_t lo;

	if (!p)
		return -EINVAL;
	*ret_path = (unsigned)(p - reclaim_paths);
	if (!bucket)
		return 0;
	if (s[len] != '.' || parse_u64(s + len + 1, &lo) < 0 || !loghist_is_lower(lo, ret_bucket))
		return -EINVAL;
	return 0;
}

bool stall_run__add(struct stall_run *r, const char *metric, const char *scope, int64_t increase)
{
	static const char *const parts[] = { "count.", "total_ns.", "hist." };
	const char *key;
	unsigned path, bucket = 0;
	struct stall_hist *h;
	size_t k;

	if (strncmp(metric, PREFIX, strlen(PREFIX)))
		return false;
	key = metric + strlen(PREFIX);
	for (k = 0; k < ARRAY_SIZE(parts); k++)
		if (!strncmp(key, parts[k], strlen(parts[k])))
			break;
	if (k == ARRAY_SIZE(parts))
		return false;
	if (parse_key(key + strlen(parts[k]), k == 2, &path, &bucket) < 0 || increase < 0) {
		r->bad++;
		return true;
	}
	h = hist_get(r, scope, path);
	if (k == 0)
		h->h.n = (uint64_t)increase;
	else if (k == 1)
		h->h.sum = (uint64_t)increase;
	else
		h->h.count[bucket] = (uint64_t)increase;
	return true;
}

/* The counters of pages reclaimed, and the path whose time they divide. */
static const struct {
	const char *metric, *path;
	bool memcg; /* counted in a memcg's scope, else system-wide */
} page_counters[] = {
	{ "memory.stat:pgsteal", "memcg", true },
	{ "vmstat:pgsteal_direct", "direct", false },
	{ "vmstat:pgsteal_kswapd", "kswapd", false },
};

bool stall_run__add_pages(struct stall_run *r, const char *metric, const char *scope,
			  int64_t increase)
{
	for (size_t i = 0; i < ARRAY_SIZE(page_counters); i++) {
		const struct reclaim_path *p;

		if (strcmp(metric, page_counters[i].metric) ||
		    page_counters[i].memcg == !strcmp(scope, "-") || increase < 0)
			continue;
		p = reclaim_path_find(page_counters[i].path, strlen(page_counters[i].path));
		r->pages = xrealloc(r->pages, r->npages + 1, sizeof(*r->pages));
		r->pages[r->npages++] = (struct stall_pages){ xstrdup(scope),
							      (unsigned)(p - reclaim_paths),
							      (uint64_t)increase };
		return true;
	}
	return false;
}

static uint64_t pages_of(const struct stall_run *r, const char *scope, unsigned path)
{
	for (size_t i = 0; i < r->npages; i++)
		if (r->pages[i].path == path && !strcmp(r->pages[i].scope, scope))
			return r->pages[i].pages;
	return 0;
}

int stall_run__span(struct store *st, int64_t run_id, double *ret_seconds)
{
	return store__run_span(st, run_id, ret_seconds);
}

int stall_run__load(struct store *st, int64_t run_id, struct stall_run *ret)
{
	struct store_increase *inc = NULL;
	struct stall_run r = { 0 };
	size_t n = 0;
	int e;

	e = store__run_increases(st, run_id, PREFIX "%", &inc, &n);
	for (size_t i = 0; e == 0 && i < n; i++)
		stall_run__add(&r, inc[i].metric, inc[i].scope, inc[i].increase);
	store_increases__free(inc, n);
	if (e == 0)
		e = store__run_span(st, run_id, &r.seconds);
	if (e < 0) {
		stall_run__clear(&r);
		return e;
	}
	*ret = r;
	return 0;
}

void stall_run__merge(struct stall_run *acc, const struct stall_run *b)
{
	for (size_t i = 0; i < b->n; i++)
		loghist__merge(&hist_get(acc, b->h[i].scope, b->h[i].path)->h, &b->h[i].h);
	acc->seconds += b->seconds;
	acc->bad += b->bad;
}

void stall_run__clear(struct stall_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->h[i].scope);
	free(r->h);
	for (size_t i = 0; i < r->npages; i++)
		free(r->pages[i].scope);
	free(r->pages);
	memset(r, 0, sizeof(*r));
}

void stall_run__reduce(const struct stall_run *r, stall_value_fn fn, void *arg)
{
	static const struct {
		const char *name;
		double q;
	} quantiles[] = { { "p50_ns", 0.5 }, { "p99_ns", 0.99 }, { "p999_ns", 0.999 } };

	for (size_t i = 0; i < r->n; i++) {
		const struct stall_hist *h = &r->h[i];
		const char *path = reclaim_paths[h->path].name;
		uint64_t pages;
		char metric[64];

		for (size_t k = 0; k < ARRAY_SIZE(quantiles); k++) {
			double v = loghist__quantile(&h->h, quantiles[k].q);

			if (isnan(v))
				continue;
			snprintf(metric, sizeof(metric), PREFIX "%s.%s", quantiles[k].name, path);
			fn(arg, metric, h->scope, v);
		}
		if (r->seconds > 0) {
			snprintf(metric, sizeof(metric), PREFIX "per_s.%s", path);
			fn(arg, metric, h->scope, (double)h->h.n / r->seconds);
		}
		snprintf(metric, sizeof(metric), PREFIX "total_ns.%s", path);
		fn(arg, metric, h->scope, (double)h->h.sum);
		pages = pages_of(r, h->scope, h->path);
		if (pages) {
			snprintf(metric, sizeof(metric), PREFIX "ns_per_page.%s", path);
			fn(arg, metric, h->scope, (double)h->h.sum / (double)pages);
		}
	}
}

int stall__series(struct store *st, int64_t run_id, const char *scope, stall_point_fn fn,
		  void *arg)
{
	struct store_sample_value *sv = NULL;
	const char *last = NULL;
	int64_t first_seq, prev = 0;
	bool have = false;
	size_t n = 0;
	int e;

	/* v_delta would drop a bucket's first count: it appears when it first fills */
	e = store__run_series(st, run_id, PREFIX "hist.%", scope, &sv, &n, &first_seq);
	if (e < 0)
		return e;
	for (size_t i = 0; i < n; i++) {
		const char *name = sv[i].metric;
		int64_t seq = sv[i].seq, t = sv[i].t_ns, v = sv[i].v;
		unsigned path, bucket;

		if (!last || strcmp(last, name)) {
			last = name;
			have = false;
		}
		if (parse_key(name + strlen(PREFIX "hist."), true, &path, &bucket) < 0 ||
		    !reclaim_paths[path].stall)
			continue;
		/* the first value counts from 0 unless it is the run's first sample */
		if (!have && seq == first_seq) {
			prev = v;
			have = true;
			continue;
		}
		if (v > (have ? prev : 0))
			fn(arg, t, bucket, v - (have ? prev : 0));
		prev = v;
		have = true;
	}
	store_sample_values__free(sv, n);
	return 0;
}
