// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict rule (verdict.h) and the summary (compare.c) at their edges,
 * on small two-variant datasets built here (no store): one key row per
 * dataset with the values each test needs.
 *
 *   - a row with a verdict whose ratio interval is unbounded is counted
 *     once in the summary, not as a verdict and as undecided too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "compare.h"
#include "util.h"
#include "verdict.h"

#define MAXN 8

/* A dataset of base and cand with one key row "w:k" (unit, better) of n blocks. */
static struct dataset *one_row(const double *a, const double *b, size_t n, const char *unit,
			       enum metric_better better, bool result)
{
	struct dataset *ds = xcalloc(1, sizeof(*ds));
	struct ds_row *row;

	ds->campaign = xstrdup("edge");
	ds->release = xstrdup("6.1.0-edge");
	ds->nv = 2;
	ds->maxruns = n;
	ds->min_reps = ds->max_reps = (int)n;
	ds->v = xcalloc(2, sizeof(*ds->v));
	for (size_t v = 0; v < 2; v++) {
		ds->v[v] = (struct ds_variant){
			.id = (int64_t)v + 1,
			.name = xstrdup(v ? "cand" : "base"),
			.lru = xstrdup("classic"),
			.kernel = xstrdup("edge"),
			.knobs = xstrdup(""),
			.release = xstrdup("6.1.0-edge"),
			.measured = (int)n,
			.runs = xcalloc(n, sizeof(int64_t)),
			.reps = xcalloc(n, sizeof(int)),
		};
		for (size_t i = 0; i < n; i++)
			ds->v[v].reps[i] = (int)i;
	}
	ds->nrows = 1;
	ds->rows = xcalloc(1, sizeof(*ds->rows));
	row = &ds->rows[0];
	*row = (struct ds_row){
		.label = xstrdup("w:k"),
		.metric = xstrdup("w:k"),
		.scope = xstrdup("w"),
		.group = xstrdup("w"),
		.family = xstrdup("w"),
		.unit = xstrdup(unit),
		.better = better,
		.result = result,
		.key = true,
		.vals = xcalloc(2 * n, sizeof(double)),
		.reps = xcalloc(2 * n, sizeof(int)),
		.n = xcalloc(2, sizeof(size_t)),
	};
	for (size_t v = 0; v < 2; v++) {
		row->n[v] = n;
		for (size_t i = 0; i < n; i++) {
			row->vals[v * n + i] = v ? b[i] : a[i];
			row->reps[v * n + i] = (int)i;
		}
	}
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_counts_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
