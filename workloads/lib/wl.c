// SPDX-License-Identifier: GPL-2.0
#include "wl.h"

#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double wl_rng_double(struct wl_rng *r)
{
	return (double)(wl_rng_next(r) >> 11) * 0x1.0p-53;
}

static double zeta(uint64_t n, double theta)
{
	double sum = 0;

	for (uint64_t i = 1; i <= n; i++)
		sum += 1.0 / pow((double)i, theta);
	return sum;
}

int wl_zipf_init(struct wl_zipf *z, uint64_t n, double theta)
{
	double zeta2;

	if (n < 2 || !(theta >= 0.0 && theta < 1.0))
		return -EINVAL;
	memset(z, 0, sizeof(*z));
	z->n = n;
	z->theta = theta;
	if (theta == 0.0)
		return 0;
	zeta2 = zeta(2, theta);
	z->zetan = zeta(n, theta);
	z->alpha = 1.0 / (1.0 - theta);
	z->eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - zeta2 / z->zetan);
	z->half_pow_theta = 1.0 + pow(0.5, theta);
	return 0;
}

uint64_t wl_zipf_next(const struct wl_zipf *z, struct wl_rng *r)
{
	double u = wl_rng_double(r), uz;
	uint64_t v;

	if (z->theta == 0.0)
		return (uint64_t)(u * (double)z->n);
	uz = u * z->zetan;
	if (uz < 1.0)
		return 0;
	if (uz < z->half_pow_theta)
		return 1;
	v = (uint64_t)((double)z->n * pow(z->eta * u - z->eta + 1.0, z->alpha));
	return v < z->n ? v : z->n - 1;
}

void wl_hist_init(struct wl_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* Values below WL_HIST_SUB get exact buckets; above, bucket = (msb, next 5 bits). */
static unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < WL_HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - 5; /* log2(WL_HIST_SUB) */
	return (shift + 1) * WL_HIST_SUB + (unsigned)((v >> shift) & (WL_HIST_SUB - 1));
}

static uint64_t hist_upper(unsigned idx)
{
	unsigned range = idx / WL_HIST_SUB, sub = idx % WL_HIST_SUB, shift;

	if (range == 0)
		return sub;
	shift = range - 1;
	return (((uint64_t)(WL_HIST_SUB + sub) + 1) << shift) - 1;
}

void wl_hist_add(struct wl_hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void wl_hist_add_n(struct wl_hist *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	h->bucket[hist_index(v)] += n;
	h->count += n;
	h->sum += (long double)v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < 64 * WL_HIST_SUB; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t wl_hist_quantile(const struct wl_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < 64 * WL_HIST_SUB; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t u = hist_upper(i);

			return u > h->max ? h->max : (u < h->min ? h->min : u);
		}
	}
	return h->max;
}

uint64_t wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const struct workload_def *wl_self;

void wl_result_def(const struct workload_def *w)
{
	wl_self = w;
}

void wl_result(const char *key, double value)
{
	const struct wl_metric *m = wl_self ? workload_metric(wl_self, key) : NULL;

	if (!m) {
		fprintf(stderr, "%s: result '%s' is not in its definition\n",
			wl_self ? wl_self->binary : "wl", key);
		abort();
	}
	printf("result %s %.17g %s %s\n", key, value, m->unit, m->better);
	fflush(stdout);
}

void wl_mark(const char *name, double value, const char *unit)
{
	printf("mark %s %.17g %s\n", name, value, unit);
	fflush(stdout);
}

void wl_result_common(uint64_t ops, uint64_t elapsed_ns, const struct wl_hist *lat)
{
	double secs = (double)elapsed_ns / 1e9;

	wl_result("ops", (double)ops);
	wl_result("throughput", secs > 0 ? (double)ops / secs : 0);
	wl_result("lat_p50", (double)wl_hist_quantile(lat, 0.50));
	wl_result("lat_p90", (double)wl_hist_quantile(lat, 0.90));
	wl_result("lat_p99", (double)wl_hist_quantile(lat, 0.99));
	wl_result("lat_p999", (double)wl_hist_quantile(lat, 0.999));
	wl_result("duration", secs);
}
