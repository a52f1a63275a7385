// SPDX-License-Identifier: GPL-2.0
/*
 * The claims rules on synthetic campaigns: an analysis whose comparisons
 * plant a claim true, false or noisy, under both orientations of the
 * baseline (classic against MGLRU and the reverse).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "claims.h"

#define NROWS 3

struct fx {
	struct ds_variant v[2];
	struct ds_row rows[NROWS];
	struct dataset ds;
	struct comparison c[NROWS];
	struct analysis an;
};

/* Variants base and candidate: lru of each; one comparison per row, all candidate 1. */
static void fx_init(struct fx *f, const char *base_lru, const char *cand_lru)
{
	static const char *const metrics[NROWS] = { "memory.stat:pgsteal_anon", "kswapd:cpu_ns",
						     "anon:throughput" };
	static const char *const fams[NROWS] = { "mix", "system", "anon" };

	memset(f, 0, sizeof(*f));
	f->v[0].lru = (char *)base_lru;
	f->v[1].lru = (char *)cand_lru;
	f->v[0].kernel = f->v[1].kernel = (char *)"6.1.0";
	for (size_t i = 0; i < NROWS; i++) {
		f->rows[i].label = f->rows[i].metric = (char *)metrics[i];
		f->rows[i].family = (char *)fams[i];
		f->c[i] = (struct comparison){ .row = i, .cand = 1, .pairs = 4, .change = NAN,
					       .base = { .n = 4, .mean = 10, .min = 9, .max = 11 },
					       .cur = { .n = 4, .mean = 10, .min = 9, .max = 11 },
					       .ci_lo = NAN, .ci_hi = NAN,
					       .verdict = VERDICT_NO_DATA };
	}
	f->ds = (struct dataset){ .v = f->v, .nv = 2, .base = 0, .rows = f->rows, .nrows = NROWS };
	f->an = (struct analysis){ .ds = &f->ds, .o = VERDICT_OPTS_DEFAULT, .c = f->c, .nc = NROWS };
}

static void plant(struct fx *f, size_t row, double lo, double hi)
{
	f->c[row].ci_lo = lo;
	f->c[row].ci_hi = hi;
	f->c[row].change = (lo + hi) / 2;
}

static enum claim_state decide(const struct fx *f, const char *id, struct claim_result *r)
{
	const struct claim *c = claims__find(id);
	assert_non_null(c);
	claims__decide(c, &f->an, r);
	return r->state;
}

static void test_table(void **state)
{
	size_t n;
	const struct claim *t = claims__table(&n);
	(void)state;
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++) {
		char id[24];
		snprintf(id, sizeof(id), "C%zu", i + 1);
		assert_string_equal(t[i].id, id);
		assert_non_null(t[i].sentence);
		assert_non_null(t[i].title);
		assert_true(strlen(t[i].title) <= 30); /* a scoreboard line */
		assert_non_null(t[i].plans);
		assert_true(t[i].rule != CLAIM_DIRECTION || (t[i].signals[0] && t[i].direction));
	}
	assert_null(claims__find("C9"));
}

/* C1: MGLRU reclaims less anon. */
static void test_c1_planted(void **state)
{
	struct fx f;
	struct claim_result r;
	(void)state;

	fx_init(&f, "classic", "mglru");
	plant(&f, 0, -0.9, -0.6); /* true */
	assert_int_equal(decide(&f, "C1", &r), CLAIM_SUPPORTED);
	assert_in_range((long)(100 * r.change), -80, -70);
	assert_non_null(strstr(r.why, "pgsteal_anon"));

	plant(&f, 0, 0.3, 0.6); /* false: MGLRU reclaims more anon */
	assert_int_equal(decide(&f, "C1", &r), CLAIM_CONTRADICTED);

	plant(&f, 0, -0.02, 0.03); /* no effect: within min effect */
	assert_int_equal(decide(&f, "C1", &r), CLAIM_CONTRADICTED);

	plant(&f, 0, -0.8, 0.5); /* noisy */
	f.c[0].more_blocks = 6;
	assert_int_equal(decide(&f, "C1", &r), CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "6 more blocks"));

	f.c[0].pairs = 1; /* too few blocks: what to run */
	assert_int_equal(decide(&f, "C1", &r), CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "c1.ini"));
}

/* The baseline is MGLRU: the change is turned around to MGLRU vs classic. */
static void test_reversed(void **state)
{
	struct fx f;
	struct claim_result r;
	(void)state;

	fx_init(&f, "mglru", "classic");
	plant(&f, 0, 0.6, 0.9); /* classic reclaims more anon than MGLRU: C1 true */
	assert_int_equal(decide(&f, "C1", &r), CLAIM_SUPPORTED);
	assert_true(r.ci_hi < 0);

	fx_init(&f, "mglru", "mglru"); /* same LRU: says nothing */
	plant(&f, 0, 0.6, 0.9);
	assert_int_equal(decide(&f, "C1", &r), CLAIM_INCONCLUSIVE);
}

/* C4: kswapd CPU higher under MGLRU. */
static void test_c4(void **state)
{
	struct fx f;
	struct claim_result r;
	(void)state;

	fx_init(&f, "classic", "mglru");
	plant(&f, 1, 0.2, 0.4);
	assert_int_equal(decide(&f, "C4", &r), CLAIM_SUPPORTED);
	plant(&f, 1, -0.4, -0.2);
	assert_int_equal(decide(&f, "C4", &r), CLAIM_CONTRADICTED);
	plant(&f, 1, -0.4, 0.4);
	assert_int_equal(decide(&f, "C4", &r), CLAIM_INCONCLUSIVE);
	/* kswapd never ran on either side: not evidence of "no effect" */
	plant(&f, 1, 0, 0);
	f.c[1].base = f.c[1].cur = (struct stats_summary){ .n = 4 };
	assert_int_equal(decide(&f, "C4", &r), CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "c4.ini"));
}

/* C7 from per-workload key verdicts; C8 from the comparability marks. */
static void test_c7_c8(void **state)
{
	struct fx f;
	struct claim_result r;
	(void)state;

	fx_init(&f, "classic", "mglru");
	for (size_t i = 0; i < NROWS; i++)
		f.c[i].key = true;
	f.c[0].verdict = VERDICT_REGRESSION, f.c[0].decision = DECISION_BEYOND;
	f.c[2].verdict = VERDICT_IMPROVEMENT, f.c[2].decision = DECISION_BEYOND;
	f.c[1].verdict = VERDICT_NO_CHANGE, f.c[1].decision = DECISION_WITHIN;
	assert_int_equal(decide(&f, "C7", &r), CLAIM_SUPPORTED);
	f.c[2].verdict = VERDICT_REGRESSION;
	assert_int_equal(decide(&f, "C7", &r), CLAIM_CONTRADICTED);
	f.c[1].decision = DECISION_OPEN;
	assert_int_equal(decide(&f, "C7", &r), CLAIM_INCONCLUSIVE);
	/* a system-wide gain beside one workload's regression is no second workload */
	f.c[1].verdict = VERDICT_IMPROVEMENT, f.c[1].decision = DECISION_BEYOND;
	f.c[2].verdict = VERDICT_NO_CHANGE, f.c[2].decision = DECISION_WITHIN;
	assert_int_equal(decide(&f, "C7", &r), CLAIM_CONTRADICTED);
	f.c[2].verdict = VERDICT_IMPROVEMENT, f.c[2].decision = DECISION_BEYOND;
	assert_int_equal(decide(&f, "C7", &r), CLAIM_SUPPORTED);
	assert_non_null(strstr(r.why, "e.g. mix"));
	assert_non_null(strstr(r.why, "e.g. anon"));
	f.c[1].verdict = VERDICT_NO_CHANGE, f.c[1].decision = DECISION_WITHIN;

	/* MGLRU the baseline: classic's regression in mix is MGLRU's gain there */
	{
		struct fx g;

		fx_init(&g, "mglru", "classic");
		for (size_t i = 0; i < NROWS; i++)
			g.c[i].key = true, g.c[i].decision = DECISION_BEYOND;
		g.c[0].verdict = VERDICT_REGRESSION;
		g.c[1].verdict = VERDICT_NO_CHANGE, g.c[1].decision = DECISION_WITHIN;
		g.c[2].verdict = VERDICT_IMPROVEMENT;
		assert_int_equal(decide(&g, "C7", &r), CLAIM_SUPPORTED);
		assert_non_null(strstr(r.why, "regressions (e.g. anon)"));
		assert_non_null(strstr(r.why, "gains (e.g. mix)"));
	}

	assert_int_equal(decide(&f, "C8", &r), CLAIM_CONTRADICTED);
	f.c[1].verdict = VERDICT_NOT_COMPARABLE;
	assert_int_equal(decide(&f, "C8", &r), CLAIM_SUPPORTED);
	assert_non_null(strstr(r.why, "kswapd:cpu_ns"));
}

/* C2 reads MGLRU at the highest swappiness above classic's, not MGLRU at the default. */
static void test_c2_swappiness(void **state)
{
	struct ds_variant v[3] = { { .lru = (char *)"classic", .knobs = (char *)"" },
				   { .lru = (char *)"mglru", .knobs = (char *)"lru_enabled=0x0007" },
				   { .lru = (char *)"mglru",
				     .knobs = (char *)"lru_enabled=0x0007 vm/swappiness=200" } };
	struct ds_row row = { .label = (char *)"mix:anon_steal_pct", .metric = (char *)"mix:anon_steal_pct",
			      .family = (char *)"mix", .result = true, .scope = (char *)"mix" };
	struct comparison c[2];
	struct dataset ds = { .v = v, .nv = 3, .base = 0, .rows = &row, .nrows = 1 };
	struct analysis an = { .ds = &ds, .o = VERDICT_OPTS_DEFAULT, .c = c, .nc = 2 };
	struct claim_result r;
	const struct claim *c2 = claims__find("C2");
	(void)state;

	for (size_t i = 0; i < 2; i++)
		c[i] = (struct comparison){ .row = 0, .cand = i + 1, .pairs = 5,
					    .base = { .n = 5, .mean = 2, .min = 1, .max = 3 },
					    .cur = { .n = 5, .mean = 0, .min = 0, .max = 1 } };
	/* MGLRU at 60 reclaims no anon (C1), MGLRU at 200 as much as classic: fixed */
	c[0].change = -1, c[0].ci_lo = -1, c[0].ci_hi = -0.9;
	c[1].change = 0.01, c[1].ci_lo = -0.03, c[1].ci_hi = 0.04;
	claims__decide(c2, &an, &r);
	assert_int_equal(r.state, CLAIM_CONTRADICTED);
	assert_true(r.has_cmp);
	assert_int_equal(r.cand, 2);
	/* still none at 200: not fixed */
	c[1].change = -0.8, c[1].ci_lo = -0.95, c[1].ci_hi = -0.6;
	claims__decide(c2, &an, &r);
	assert_int_equal(r.state, CLAIM_SUPPORTED);
	assert_int_equal(r.cand, 2);
	/* no raised swappiness measured: says what would decide it */
	an.nc = 1;
	ds.nv = 2;
	claims__decide(c2, &an, &r);
	assert_int_equal(r.state, CLAIM_INCONCLUSIVE);
	assert_false(r.has_cmp);
	assert_non_null(strstr(r.why, "higher vm.swappiness"));
}

/* An interval still unbounded (baseline mean not known nonzero) is open, with its numbers. */
static void test_unbounded(void **state)
{
	struct fx f;
	struct claim_result r;
	(void)state;

	fx_init(&f, "classic", "mglru");
	f.c[0].change = -1;
	assert_int_equal(decide(&f, "C1", &r), CLAIM_INCONCLUSIVE);
	assert_true(r.has_cmp);
	assert_non_null(strstr(r.why, "interval unbounded, 4 blocks"));
}

/* Several databases: the merged verdict and the source it stands on. */
static void test_board(void **state)
{
	struct fx a, b;
	const struct analysis *an[2];
	struct claims_board board;
	(void)state;

	fx_init(&a, "classic", "mglru");
	fx_init(&b, "classic", "mglru");
	plant(&b, 0, -0.9, -0.6); /* b supports C1, a has nothing to say */
	an[0] = &a.an;
	an[1] = &b.an;
	claims__board(an, 2, &board);
	assert_int_equal(board.n, 8);
	assert_int_equal(board.merged[0].state, CLAIM_SUPPORTED);
	assert_int_equal(board.from[0], 1);
	assert_true(board.merged[0].has_cmp);
	assert_int_equal(board.per[0 * board.n + 0].state, CLAIM_INCONCLUSIVE);
	assert_true(board.measured);
	claims_board__clear(&board);

	claims__board(an, 1, &board); /* a alone measured no claim */
	assert_false(board.measured);
	assert_int_equal(board.merged[0].state, CLAIM_INCONCLUSIVE);
	claims_board__clear(&board);
}

static void test_merge(void **state)
{
	struct claim_result a = { .state = CLAIM_INCONCLUSIVE }, s = { .state = CLAIM_SUPPORTED },
			    x = { .state = CLAIM_CONTRADICTED };
	(void)state;
	claims__merge(&a, &s);
	assert_int_equal(a.state, CLAIM_SUPPORTED);
	claims__merge(&a, &s);
	assert_int_equal(a.state, CLAIM_SUPPORTED);
	claims__merge(&a, &x);
	assert_int_equal(a.state, CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(a.why, "another database"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	   cmocka_unit_test(test_c1_planted),
		cmocka_unit_test(test_reversed),   cmocka_unit_test(test_c4),
		cmocka_unit_test(test_c7_c8),	   cmocka_unit_test(test_merge),
		cmocka_unit_test(test_c2_swappiness), cmocka_unit_test(test_unbounded),
		cmocka_unit_test(test_board),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
