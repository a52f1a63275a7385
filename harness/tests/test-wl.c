// SPDX-License-Identifier: GPL-2.0
/* The workloads' shared pieces: histogram percentiles and the Zipf generator. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "wl.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles within the histogram's 1/32 resolution of the exact order statistic. */
static void test_hist_quantiles(void **state)
{
	enum { N = 100000 };
	uint64_t *v = xcalloc(N, sizeof(*v));
	struct wl_hist *h = xcalloc(1, sizeof(*h));
	struct wl_rng r;
	const double qs[] = { 0.5, 0.9, 0.99, 0.999 };

	(void)state;
	wl_rng_seed(&r, 42);
	wl_hist_init(h);
	for (int i = 0; i < N; i++) {
		/* log-uniform from 10 ns to 10 ms: like latencies with a swap tail */
		v[i] = (uint64_t)exp(log(10) + wl_rng_double(&r) * (log(1e7) - log(10)));
		wl_hist_add(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, N);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[N - 1]);
	for (size_t i = 0; i < ARRAY_SIZE(qs); i++) {
		uint64_t exact = v[(size_t)ceil(qs[i] * N) - 1];
		uint64_t got = wl_hist_quantile(h, qs[i]);

		assert_true(got >= exact);
		assert_true((double)got <= (double)exact * (1.0 + 1.0 / 32) + 1);
	}
	assert_int_equal(wl_hist_quantile(h, 1.0), v[N - 1]);
	free(v);
	free(h);
}

static void test_hist_small_values_exact(void **state)
{
	struct wl_hist *h = xcalloc(1, sizeof(*h));

	(void)state;
	wl_hist_init(h);
	for (uint64_t i = 1; i <= 20; i++)
		wl_hist_add(h, i);
	assert_int_equal(wl_hist_quantile(h, 0.5), 10);
	assert_int_equal(wl_hist_quantile(h, 0.95), 19);
	free(h);
}

/* Empirical frequencies of the top ranks against p(k) = k^-theta / zeta(n, theta). */
static void test_zipf_frequencies(void **state)
{
	enum { N = 1000, DRAWS = 2000000 };
	const double theta = 0.99;
	struct wl_zipf z;
	struct wl_rng r;
	uint64_t *count = xcalloc(N, sizeof(*count));
	double zeta = 0;

	(void)state;
	for (int k = 1; k <= N; k++)
		zeta += pow(k, -theta);
	assert_int_equal(wl_zipf_init(&z, N, theta), 0);
	wl_rng_seed(&r, 1);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t k = wl_zipf_next(&z, &r);

		assert_true(k < N);
		count[k]++;
	}
	for (int k = 0; k < 2; k++) {
		double want = pow(k + 1, -theta) / zeta;
		double got = (double)count[k] / DRAWS;

		assert_true(fabs(got - want) / want < 0.02);
	}
	/* the generator's approximation is coarser in the tail: check the top 10% mass */
	{
		double want = 0, got = 0;

		for (int k = 0; k < N / 10; k++) {
			want += pow(k + 1, -theta) / zeta;
			got += (double)count[k] / DRAWS;
		}
		assert_true(fabs(got - want) < 0.03);
	}
	assert_int_equal(wl_zipf_init(&z, 1, 0.5), -EINVAL);
	assert_int_equal(wl_zipf_init(&z, 10, 1.0), -EINVAL);
	free(count);
}

static void test_rng_reproducible(void **state)
{
	struct wl_rng a, b;

	(void)state;
	wl_rng_seed(&a, 7);
	wl_rng_seed(&b, 7);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(wl_rng_next(&a), wl_rng_next(&b));
	wl_rng_seed(&b, 8);
	assert_true(wl_rng_next(&a) != wl_rng_next(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_quantiles),
		cmocka_unit_test(test_hist_small_values_exact),
		cmocka_unit_test(test_zipf_frequencies),
		cmocka_unit_test(test_rng_reproducible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
