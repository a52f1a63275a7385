// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict rule (verdict.h) and the summary (compare.c) at their edges,
 * on small two-variant datasets built here (no store): one key row per
 * dataset with the values each test needs.
 *
 *   - a row with a verdict whose ratio interval is unbounded is counted
 *     once in the summary, not as a verdict and as undecided too;
 *   - constant but different counts are no certain difference (the
 *     resolution floor), identical ones p = 1;
 *   - an all-zero or near-zero side is compared on the absolute scale;
 *   - at CV 1e-12 the interval and the test still agree;
 *   - the sign-flip test is reported at small n, not beyond;
 *   - with --log-ratio, each row on its kind's declared scale.
 * Expected values: fixtures/stats/make-fixtures.py (SciPy), named below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "compare.h"
#include "dataset-fixture.h"
#include "util.h"
#include "verdict.h"

#define MAXN 8

/* A dataset of base and cand with one key row "w:k" (unit, better) of n blocks. */
static struct dataset *one_row(const double *a, const double *b, size_t n, const char *unit,
			       enum metric_better better, bool result)
{
	struct dataset *ds = ds_fixture("edge", n, 1);
	struct ds_row *row = ds_fixture_row(ds, 0, "w:k", unit, better, result);

	for (size_t v = 0; v < 2; v++)
		for (size_t i = 0; i < n; i++)
			row->vals[v * n + i] = v ? b[i] : a[i];
	return ds;
}

static struct analysis *analyse(const double *a, const double *b, size_t n, const char *unit,
				enum metric_better better)
{
	struct analysis *an = NULL;

	assert_int_equal(analysis__from(one_row(a, b, n, unit, better, true), NULL, &an), 0);
	assert_int_equal(an->nc, 1);
	return an;
}

/* The summary of an analysis, as text (malloc'd). */
static char *summary_text(const struct analysis *an)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	compare__summary(an, f);
	fclose(f);
	return text;
}

/*
 * A clear regression of a metric whose baseline mean is not known to be
 * nonzero: the paired test decides, Fieller's ratio set is unbounded. The
 * summary counted it worse and undecided (the README's 13 rows of 12).
 */
static void test_summary_counts_once(void **state)
{
	static const double a[] = { 100.5, -50.5, 250.5 };
	static const double b[] = { 1100.5, 960.5, 1240.5 };
	struct analysis *an = analyse(a, b, 3, "ns", BETTER_LOWER);
	_cleanup_free_ char *text = NULL;

	(void)state;
	assert_int_equal(an->c[0].verdict, VERDICT_REGRESSION);
	text = summary_text(an);
	assert_non_null(strstr(text, "1 worse, 0 better, 0 changed, 0 the same (within ±5%), "
				     "0 undecided, of 1 key metrics"));
	assert_null(strstr(text, "  undecided: w:k"));
	analysis__free(an);
}

/*
 * 20 20 20 against 21 21 21 pages: zero sample variance, but counts are
 * rounded: the floored paired t gives p = 0.0513 (make-fixtures.py,
 * fx_paired[0]), no verdict; it was p = 0 and a confident regression.
 * Identical runs: p = 1, no change, decided within.
 */
static void test_constant_counts(void **state)
{
	static const double a[] = { 20, 20, 20 }, b[] = { 21, 21, 21 };
	struct analysis *an = analyse(a, b, 3, "pages", BETTER_LOWER);
	const struct comparison *c = &an->c[0];

	(void)state;
	assert_true(fabs(c->res - 1) < 1e-15);
	assert_true(fabs(c->paired.p - 0.051316701949486204) < 1e-12);
	assert_int_equal(c->verdict, VERDICT_NO_CHANGE);
	assert_int_equal(c->decision, DECISION_OPEN);
	assert_int_equal(c->scale, CHANGE_RELATIVE);
	/* its interval contains no change, as the test says */
	assert_true(c->ci_lo <= 0 && 0 <= c->ci_hi);
	/* the sign-flip test beside it: 2 of 8 flips as extreme */
	assert_true(fabs(c->flip.p - 0.25) < 1e-15);
	analysis__free(an);

	an = analyse(a, a, 3, "pages", BETTER_LOWER);
	c = &an->c[0];
	assert_true(c->paired.p == 1);
	assert_true(c->flip.p == 1);
	assert_int_equal(c->verdict, VERDICT_NO_CHANGE);
	assert_int_equal(c->decision, DECISION_WITHIN);
	assert_true(c->ci_lo == 0 && c->ci_hi == 0);
	analysis__free(an);
}

/*
 * An all-zero candidate (pswpout 1905 -> 0) and a zero baseline (0 -> 1):
 * the absolute scale, the difference with its t interval (fx_paired[2],
 * fx_paired[1]), printed with the unit; no -100% [-100%, -100%], no +inf.
 */
static void test_zero_side(void **state)
{
	static const double a[] = { 1905, 1890, 1920 }, z[] = { 0, 0, 0 }, one[] = { 1, 1, 1 };
	struct analysis *an = analyse(a, z, 3, "pages", BETTER_LOWER);
	const struct comparison *c = &an->c[0];
	_cleanup_free_ char *text = NULL, *text2 = NULL;

	(void)state;
	assert_int_equal(c->scale, CHANGE_ABSOLUTE);
	assert_true(fabs(c->diff + 1905) < 1e-9 * 1905);
	/* relative 1e-9: GSL's t quantile and SciPy's agree to about 1e-12 */
	assert_true(fabs(c->diff_lo - -1942.2620656776562) < 1e-9 * 1942);
	assert_true(fabs(c->diff_hi - -1867.7379343223438) < 1e-9 * 1868);
	assert_true(isnan(c->ci_lo) && isnan(c->ci_hi));
	assert_int_equal(c->verdict, VERDICT_IMPROVEMENT);
	assert_int_equal(c->decision, DECISION_BEYOND);
	text = summary_text(an);
	assert_non_null(strstr(text, "-1905 pages  [-1942, -1868]"));
	assert_null(strstr(text, "-100%"));
	assert_non_null(strstr(text, "Near zero (a paired mean within 5 resolution steps"));
	analysis__free(an);

	an = analyse(z, one, 3, "events", BETTER_LOWER);
	c = &an->c[0];
	assert_int_equal(c->scale, CHANGE_ABSOLUTE);
	assert_true(fabs(c->diff_lo - -0.014144974137024313) < 1e-9 * 2);
	assert_true(fabs(c->diff_hi - 2.0141449741370243) < 1e-9 * 2);
	assert_int_equal(c->verdict, VERDICT_NO_CHANGE);
	text2 = summary_text(an);
	assert_non_null(strstr(text2, "+1 events  [-0.0141, +2.01]"));
	assert_null(strstr(text2, "inf"));
	analysis__free(an);
}

/*
 * Six blocks at CV 1e-12 (make-fixtures.py's tiny_cv, effect 0.3 and 5):
 * full-precision values, so the resolution is 1e-9 of the values and the
 * floor dominates such a spread; the interval holds 0 exactly when p > alpha.
 */
static void test_tiny_cv(void **state)
{
	static const double z[] = { 0.3, -1.1, 0.7, 1.9, -0.4, -1.2 };
	static const double w[] = { -0.8, 0.2, 1.4, 0.5, -1.6, 0.9 };
	static const double effects[] = { 0.3, 5, 3000, 1e5 };

	(void)state;
	for (size_t e = 0; e < ARRAY_SIZE(effects); e++) {
		double a[6], b[6];
		struct analysis *an;
		const struct comparison *c;

		for (size_t i = 0; i < 6; i++) {
			a[i] = 1000 * (1 + 1e-12 * z[i]);
			b[i] = 1000 * (1 + 1e-12 * (w[i] + effects[e]));
		}
		an = analyse(a, b, 6, "ns", BETTER_LOWER);
		c = &an->c[0];
		assert_int_equal(c->scale, CHANGE_RELATIVE);
		assert_false(isnan(c->ci_lo));
		assert_true((c->ci_lo <= 0 && 0 <= c->ci_hi) == (c->paired.p > 0.05));
		/* 6 blocks: the sign-flip test reported */
		assert_false(isnan(c->flip.p));
		analysis__free(an);
	}
}

/*
 * --log-ratio: throughput (ops/s) by the paired t on log ratios, the
 * geometric change and its interval (fx_log[1] of make-fixtures.py); a pct
 * row stays relative, a signed row is compared by difference; without the
 * option the arithmetic relative change as before.
 */
/* The level column: as many decimals as it takes not to read as certainty. */
static void test_level_format(void **state)
{
	static const struct {
		double level;
		const char *text;
	} cases[] = {
		{ 0.95, "95%" },	   { 0.992, "99.2%" },	   { 0.9997, "99.97%" },
		{ 0.997, "99.7%" },	   { 0.99998, "99.998%" }, { 0.9999999, "99.99999%" },
		{ 1.0, "100.00%" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		fmt_level(buf, sizeof(buf), cases[i].level);
		assert_string_equal(buf, cases[i].text);
	}
}

static void test_log_ratio(void **state)
{
	static const double a[] = { 6050, 5400, 7100, 6600 }, b[] = { 9652, 8800, 10400, 9100 };
	static const double sa[] = { -20.5, 30.5, 10.5, 40.5 }, sb[] = { 10.5, 60.5, 50.5, 70.5 };
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	struct analysis *an = NULL;
	const struct comparison *c;
	_cleanup_free_ char *text = NULL;

	(void)state;
	assert_int_equal(verdict__declared_scale("ops/s"), CHANGE_LOG);
	assert_int_equal(verdict__declared_scale("pages"), CHANGE_LOG);
	assert_int_equal(verdict__declared_scale("pct"), CHANGE_RELATIVE);
	o.log_ratio = true;
	assert_int_equal(analysis__from(one_row(a, b, 4, "ops/s", BETTER_HIGHER, true), &o, &an),
			 0);
	c = &an->c[0];
	assert_int_equal(c->scale, CHANGE_LOG);
	assert_string_equal(change_scale_name(c->scale), "log-ratio");
	assert_true(fabs(c->change - 0.51375581534056691) < 1e-9 * 0.514);
	assert_true(fabs(c->ci_lo - 0.33821349493496194) < 1e-9 * 0.712);
	assert_true(fabs(c->ci_hi - 0.71232518364997566) < 1e-9 * 0.712);
	assert_true(fabs(c->paired.p - 0.0017429671347150082) < 1e-9 * 0.0017);
	assert_int_equal(c->verdict, VERDICT_IMPROVEMENT);
	text = summary_text(an);
	assert_non_null(strstr(text, "+51.4%  [+33.8%, +71.2%]"));
	assert_non_null(strstr(text, "--log-ratio: rows in units of times, rates and counts"));
	analysis__free(an);

	assert_int_equal(analysis__from(one_row(a, b, 4, "pct", BETTER_HIGHER, true), &o, &an), 0);
	assert_int_equal(an->c[0].scale, CHANGE_RELATIVE);
	analysis__free(an);
	assert_int_equal(analysis__from(one_row(sa, sb, 4, "ns", BETTER_LOWER, true), &o, &an), 0);
	assert_int_equal(an->c[0].scale, CHANGE_ABSOLUTE);
	analysis__free(an);

	an = analyse(a, b, 4, "ops/s", BETTER_HIGHER);
	c = &an->c[0];
	assert_int_equal(c->scale, CHANGE_RELATIVE);
	assert_true(fabs(c->change - (37952.0 / 25150 - 1)) < 1e-12);
	analysis__free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_counts_once),
		cmocka_unit_test(test_constant_counts),
		cmocka_unit_test(test_zero_side),
		cmocka_unit_test(test_tiny_cv),
		cmocka_unit_test(test_log_ratio),
		cmocka_unit_test(test_level_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
