// SPDX-License-Identifier: GPL-2.0
/*
 * Coverage of every interval a verdict table prints, by simulation: paired
 * blocks drawn with GSL's generator, each interval computed by the
 * functions the verdicts call, and the share of intervals that hold the
 * true value must be at least 94% at a nominal 95%, for 2 to 6 blocks and a
 * run-to-run CV of 1 to 30%.
 *
 *   relative (Fieller's interval of the ratio of the paired means, minus 1):
 *     a = mu (1 + drift) (1 + CV z), b = mu R (1 + drift) (1 + CV z'), the
 *     drift (sd 5%) shared by a block; the truth R - 1 = E b / E a - 1. An
 *     unbounded set (mean(a) not known to be nonzero, printed "unbounded")
 *     holds every value: counted as covering, and its share printed;
 *   absolute (the paired difference's t interval): the same draws, the
 *     truth E b - E a = mu (R - 1);
 *   log-ratio (--log-ratio: the ratio of the geometric means): a = mu
 *     exp(drift + CV z), b = mu R exp(drift + CV z'), the truth R - 1.
 * R alternates between 1 and 1.2. Seeded; LRUBENCH_SIM_SCALE (> 1)
 * multiplies the trials.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats.h"
#include "util.h"

#define MAX_N 6
#define DRIFT 0.05
#define LEVEL 0.95

enum interval { RELATIVE, ABSOLUTE, LOG_RATIO };
static const char *const names[] = { "relative (Fieller)", "absolute difference", "log ratio" };

static size_t trials(void)
{
	const char *s = getenv("LRUBENCH_SIM_SCALE");
	double k = s ? atof(s) : 1;

	return (size_t)(10000 * (k > 1 ? k : 1));
}

/* Whether the interval of one simulated campaign holds the truth; *unbounded when none. */
static bool covers(gsl_rng *rng, enum interval kind, size_t n, double cv, double ratio,
		   bool *unbounded)
{
	double a[MAX_N], b[MAX_N], res, lo, hi, md;
	const double mu = 1000;

	for (size_t i = 0; i < n; i++) {
		double d = gsl_ran_gaussian(rng, DRIFT);

		if (kind == LOG_RATIO) {
			a[i] = mu * exp(d + gsl_ran_gaussian(rng, cv));
			b[i] = mu * ratio * exp(d + gsl_ran_gaussian(rng, cv));
		} else {
			a[i] = mu * (1 + d) * (1 + gsl_ran_gaussian(rng, cv));
			b[i] = mu * ratio * (1 + d) * (1 + gsl_ran_gaussian(rng, cv));
		}
	}
	{
		double all[2 * MAX_N];

		for (size_t i = 0; i < n; i++) {
			all[i] = a[i];
			all[n + i] = b[i];
		}
		res = stats__resolution(all, 2 * n);
	}
	*unbounded = false;
	switch (kind) {
	case RELATIVE:
		if (stats__fieller_paired_change(a, b, n, LEVEL, res, &lo, &hi) == -EDOM) {
			*unbounded = true;
			return true;
		}
		return lo <= ratio - 1 && ratio - 1 <= hi;
	case ABSOLUTE:
		assert_int_equal(stats__paired_diff(a, b, n, LEVEL, res, &md, &lo, &hi), 0);
		return lo <= mu * (ratio - 1) && mu * (ratio - 1) <= hi;
	case LOG_RATIO: {
		struct stats_test t;
		double ch;

		assert_int_equal(stats__paired_log(a, b, n, LEVEL, res, &t, &ch, &lo, &hi), 0);
		return lo <= ratio - 1 && ratio - 1 <= hi;
	}
	}
	return false;
}

static void test_coverage(void **state)
{
	static const double cvs[] = { 0.01, 0.05, 0.15, 0.30 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const size_t nt = trials();

	(void)state;
	gsl_rng_set(rng, 31);
	for (int kind = RELATIVE; kind <= LOG_RATIO; kind++)
		for (size_t n = 2; n <= MAX_N; n++)
			for (size_t k = 0; k < ARRAY_SIZE(cvs); k++) {
				size_t hold = 0, unb = 0;
				double cov;

				for (size_t t = 0; t < nt; t++) {
					bool u;

					hold += covers(rng, (enum interval)kind, n, cvs[k],
						       t % 2 ? 1.2 : 1.0, &u);
					unb += u;
				}
				cov = (double)hold / (double)nt;
				print_message("%-20s n=%zu cv %2.0f%%: coverage %.4f (nominal %.2f), "
					      "unbounded %.3f\n",
					      names[kind], n, 100 * cvs[k], cov, LEVEL,
					      (double)unb / (double)nt);
				if (cov < 0.94)
					fail_msg("%s n=%zu cv %g: coverage %.4f", names[kind], n,
						 cvs[k], cov);
			}
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coverage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
