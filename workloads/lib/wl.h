/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the guest workloads: a seeded PRNG, a Zipf generator, a
 * latency histogram with percentiles, and the result lines every workload
 * prints on stdout for the agent to forward (PROTOCOL.md, `result`):
 *
 *   result KEY VALUE UNIT BETTER
 *
 * Every workload reports the same shape: ops, throughput, lat_p50, lat_p90,
 * lat_p99, lat_p999 (ns, from the histogram), duration; then its own keys.
 */
#ifndef LRUBENCH_WL_H
#define LRUBENCH_WL_H

#include <stdint.h>

/* xoshiro256** seeded through splitmix64: fast, reproducible across builds. */
struct wl_rng {
	uint64_t s[4];
};
void wl_rng_seed(struct wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(struct wl_rng *r);
/* Uniform double in [0, 1). */
double wl_rng_double(struct wl_rng *r);

/*
 * Zipf over ranks [0, n) with skew theta in [0, 1) (0 = uniform), after Gray
 * et al., "Quickly generating billion-record synthetic databases" (SIGMOD '94),
 * the generator YCSB uses. Setup is O(n); each draw is O(1).
 */
struct wl_zipf {
	uint64_t n;
	double theta, alpha, zetan, eta, half_pow_theta;
};
int wl_zipf_init(struct wl_zipf *z, uint64_t n, double theta);
uint64_t wl_zipf_next(const struct wl_zipf *z, struct wl_rng *r);

/*
 * anon-zipf's map from a Zipf rank to a page of [0, n), scattering hot ranks
 * over the set. Not a permutation: the 64-bit product wraps before the
 * modulo, so it is one only when n is a power of two; otherwise several ranks
 * share a page and some pages are never drawn (n = 12800: 30% of the pages
 * are reachable). The working-set model (harness/analysis/wss-model.c) maps ranks
 * through this same function, so what it expects is what the workload does.
 */
static inline uint64_t wl_scatter(uint64_t rank, uint64_t n)
{
	return (rank * 0x9e3779b97f4a7c15ULL % n + n / 3) % n;
}

/*
 * Log-linear latency histogram: 64 power-of-two ranges of 32 linear buckets
 * each, so any value is recorded within 1/32 (3%) of its true value.
 */
#define WL_HIST_SUB 32
struct wl_hist {
	uint64_t count;
	uint64_t min, max;
	long double sum;
	uint64_t bucket[64 * WL_HIST_SUB];
};
void wl_hist_init(struct wl_hist *h);
void wl_hist_add(struct wl_hist *h, uint64_t v);
/* n values v at once (a histogram read from a tool's output). */
void wl_hist_add_n(struct wl_hist *h, uint64_t v, uint64_t n);
/* Add every value of src to dst. */
void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src);
/* The value at quantile q in [0, 1] (upper bound of its bucket, clamped to max). */
uint64_t wl_hist_quantile(const struct wl_hist *h, double q);

/* Monotonic time in ns (vDSO clock_gettime). */
uint64_t wl_now_ns(void);

struct workload_def;
/* The workload whose results wl_result() prints (wl_opts_parse() sets it). */
void wl_result_def(const struct workload_def *w);
/*
 * Print one result line, with the unit and better direction of key in the
 * workload's definition; a key that is not among its results is a bug: abort.
 */
void wl_result(const char *key, double value);
/*
 * Print a mark: a moment of the run (a launch, a kill) with a value, which
 * the agent stores as an event at the time it reads the line, so reports
 * can draw marks over time and the distribution of their values. name and
 * unit are protocol names ([A-Za-z0-9._:/+-]); at most 100000 per run.
 */
void wl_mark(const char *name, double value, const char *unit);
/* Print the common shape: ops, throughput, latency percentiles, duration. */
void wl_result_common(uint64_t ops, uint64_t elapsed_ns, const struct wl_hist *lat);

#endif
