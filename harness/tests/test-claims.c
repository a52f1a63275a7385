// SPDX-License-Identifier: GPL-2.0
/*
 * The claims rules on synthetic campaigns: datasets built in memory with
 * the variants, kernels and blocks a campaign has, analysed by the real
 * verdict layer, each planting a claim true, false, not engaged or short of
 * blocks; and one regression test per rule defect of issue 25 (one signal
 * tipping a claim, pairs that differ in more than the LRU, asymmetric zero
 * handling, order-dependent merges, the lru_gen/enabled bits, a relative
 * C3, a looked-up C8, probes counted by C7).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "claims.h"
#include "plan.h"
#include "util.h"

#define K61 "6.1.0-57-cloud-amd64 fe69a84e207e"
#define K612 "6.12.57+deb12-cloud-amd64 0123456789ab"
#define MAXROWS 16
#define MAXB 8

struct vspec {
	const char *name, *lru, *kernel, *knobs; /* knobs after lru_enabled=... */
};

static const struct vspec PAIR[] = { { "classic", "classic", K61, "" },
				     { "mglru", "mglru", K61, "" } };

/* A dataset of nv variants measured in n blocks, rows added by fx_row. */
static struct dataset *fx(const struct vspec *vs, size_t nv, size_t n)
{
	struct dataset *ds = xcalloc(1, sizeof(*ds));

	ds->campaign = xstrdup("claims-fx");
	ds->release = xstrdup("");
	ds->nv = nv;
	ds->maxruns = n;
	ds->min_reps = ds->max_reps = (int)n;
	ds->v = xcalloc(nv, sizeof(*ds->v));
	for (size_t v = 0; v < nv; v++) {
		unsigned e = 0;

		assert_int_equal(lru_mode_parse(vs[v].lru, &e), 0);
		ds->v[v] = (struct ds_variant){
			.id = (int64_t)v + 1,
			.name = xstrdup(vs[v].name),
			.lru = xstrdup(vs[v].lru),
			.kernel = xstrdup(vs[v].kernel),
			.knobs = *vs[v].knobs ? xasprintf("lru_enabled=0x%04x %s", e, vs[v].knobs) :
						xasprintf("lru_enabled=0x%04x", e),
			.release = xasprintf("%.*s", (int)strcspn(vs[v].kernel, " "), vs[v].kernel),
			.measured = (int)n,
			.runs = xcalloc(n, sizeof(int64_t)),
			.reps = xcalloc(n, sizeof(int)),
		};
		for (size_t i = 0; i < n; i++)
			ds->v[v].reps[i] = (int)i;
	}
	ds->rows = xcalloc(MAXROWS, sizeof(*ds->rows));
	return ds;
}

/*
 * A row: label "fam:key" (family fam; "vmstat:..." is the system's), values
 * vals[v * n + block] of each variant (NAN: not measured), key or not.
 */
static void fx_row(struct dataset *ds, const char *label, const char *unit, bool key,
		   const double *vals)
{
	struct ds_row *row = &ds->rows[ds->nrows++];
	size_t n = ds->maxruns, flen = strcspn(label, ":");
	bool sys = !strncmp(label, "vmstat:", 7) || !strncmp(label, "kswapd:", 7);

	assert_true(ds->nrows <= MAXROWS);
	*row = (struct ds_row){
		.label = xstrdup(label),
		.metric = xstrdup(label),
		.scope = sys ? xstrdup("-") : xasprintf("%.*s", (int)flen, label),
		.group = sys ? xstrdup("system") : xasprintf("%.*s", (int)flen, label),
		.family = sys ? xstrdup("system") : xasprintf("%.*s", (int)flen, label),
		.unit = xstrdup(unit),
		.better = BETTER_NONE,
		.result = !sys,
		.key = key,
		.vals = xcalloc(ds->nv * n, sizeof(double)),
		.reps = xcalloc(ds->nv * n, sizeof(int)),
		.n = xcalloc(ds->nv, sizeof(size_t)),
	};
	for (size_t v = 0; v < ds->nv; v++)
		for (size_t i = 0; i < n; i++) {
			if (isnan(vals[v * n + i]))
				continue;
			row->vals[v * n + row->n[v]] = vals[v * n + i];
			row->reps[v * n + row->n[v]] = (int)i;
			row->n[v]++;
		}
}

/* A row whose variants' blocks are mean[v] + wiggle[block] (small, block-shared noise). */
static void fx_level(struct dataset *ds, const char *label, const char *unit, bool key,
		     const double *mean)
{
	static const double wiggle[MAXB] = { 0.01, -0.012, 0.004, 0.008, -0.006, -0.004, 0.011, -0.009 };
	double vals[8 * MAXB];

	for (size_t v = 0; v < ds->nv; v++)
		for (size_t i = 0; i < ds->maxruns; i++)
			vals[v * ds->maxruns + i] = mean[v] * (1 + wiggle[i] * (1 + 0.3 * (double)v));
	fx_row(ds, label, unit, key, vals);
}

static struct analysis *analyse(struct dataset *ds)
{
	struct analysis *an = NULL;

	assert_int_equal(analysis__from(ds, NULL, &an), 0);
	return an;
}

static enum claim_state decide(const struct analysis *an, const char *id, struct claim_result *r)
{
	const struct claim *c = claims__find(id);

	assert_non_null(c);
	claims__decide(c, an, NULL, 0, r);
	return r->state;
}

/* C1 on the pair: mix's anon share classic / MGLRU, its own reclaim attributed as given. */
static struct analysis *c1(double cl, double mg, double attributed, size_t n)
{
	struct dataset *ds = fx(PAIR, 2, n);

	fx_level(ds, "mix:anon_steal_pct", "pct", true, (const double[]){ cl, mg });
	fx_level(ds, "mix:steal_attributed", "ratio", false,
		 (const double[]){ attributed, attributed });
	return analyse(ds);
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
		assert_true(strlen(t[i].title) <= 30); /* a scoreboard line */
		assert_non_null(t[i].plans);
		if (t[i].rule == CLAIM_DIRECTION || t[i].rule == CLAIM_ABSOLUTE) {
			/* a primary signal, a direction and a precondition, named in advance */
			assert_non_null(t[i].signals[0]);
			assert_true(t[i].direction);
			assert_non_null(t[i].pre);
			assert_non_null(t[i].pre_what);
		}
	}
	assert_null(claims__find("C9"));
	assert_string_equal(claim_state_name(CLAIM_NOT_TESTED), "not tested");
	assert_string_equal(claim_state_name(CLAIM_KERNEL_DEPENDENT), "kernel-dependent");
}

/* C1: planted true, false, not engaged, too few blocks, noisy. */
static void test_c1(void **state)
{
	struct analysis *an;
	struct claim_result r;
	(void)state;

	an = c1(30, 10, 0.97, 6); /* true: MGLRU reclaims a third of the anon share */
	assert_int_equal(decide(an, "C1", &r), CLAIM_SUPPORTED);
	assert_true(r.has_cmp);
	assert_in_range((long)(100 * r.change), -68, -65);
	/* the precondition's evidence, then the primary signal's numbers */
	assert_non_null(strstr(r.why, "mix:steal_attributed classic 0.97"));
	assert_non_null(strstr(r.why, "mix:anon_steal_pct: mglru vs classic -66."));
	analysis__free(an);

	an = c1(30, 31, 0.97, 6); /* false: the same share */
	assert_int_equal(decide(an, "C1", &r), CLAIM_CONTRADICTED);
	analysis__free(an);
	an = c1(30, 45, 0.97, 6); /* false: MGLRU reclaims more anon */
	assert_int_equal(decide(an, "C1", &r), CLAIM_CONTRADICTED);
	analysis__free(an);

	an = c1(30, 10, 0.12, 6); /* mix did a tenth of the guest's reclaim: not its split */
	assert_int_equal(decide(an, "C1", &r), CLAIM_NOT_TESTED);
	assert_false(r.has_cmp);
	assert_non_null(strstr(r.why, "mechanism not engaged"));
	analysis__free(an);

	an = c1(30, 10, 0.97, 1); /* one block */
	assert_int_equal(decide(an, "C1", &r), CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "2 needed"));
	analysis__free(an);

	{ /* noisy: 3 blocks that scatter */
		struct dataset *ds = fx(PAIR, 2, 3);

		fx_row(ds, "mix:anon_steal_pct", "pct", true,
		       (const double[]){ 30, 20, 40, 22, 30, 21 });
		fx_level(ds, "mix:steal_attributed", "ratio", false, (const double[]){ 1, 1 });
		an = analyse(ds);
		assert_int_equal(decide(an, "C1", &r), CLAIM_INCONCLUSIVE);
		assert_true(r.has_cmp);
		assert_non_null(strstr(r.why, "more blocks"));
		analysis__free(an);
	}
}

/*
 * Rule defect: one signal could tip a claim, any listed signal; "against"
 * beat "open" across signals. Only the primary signal decides: a global
 * vmstat:pgsteal_anon that collapses, or a secondary signal that goes the
 * other way, changes nothing.
 */
static void test_primary_only(void **state)
{
	struct dataset *ds = fx(PAIR, 2, 6);
	struct analysis *an;
	struct claim_result r;
	(void)state;

	fx_level(ds, "vmstat:pgsteal_anon", "pages", false, (const double[]){ 5000, 50 });
	fx_level(ds, "mix:majflt", "faults", true, (const double[]){ 100, 300 });
	fx_level(ds, "mix:steal_attributed", "ratio", false, (const double[]){ 0.95, 0.95 });
	an = analyse(ds);
	/* no primary signal: the global counter does not stand in for it */
	assert_int_equal(decide(an, "C1", &r), CLAIM_NOT_TESTED);
	assert_false(r.has_cmp);
	assert_non_null(strstr(r.why, "mix:anon_steal_pct not measured"));
	analysis__free(an);
}

/* Rule defect: pairs that differ in more than the LRU fed claims. */
static void test_pairs(void **state)
{
	static const struct vspec swap[] = { { "classic", "classic", K61, "" },
					     { "mglru-swappiness0", "mglru", K61,
					       "vm/swappiness=0" } };
	static const struct vspec kern[] = { { "classic-6.1", "classic", K61, "" },
					     { "mglru-6.12", "mglru", K612, "" } };
	const struct vspec *cases[] = { swap, kern };
	struct claim_result r;
	(void)state;

	for (size_t k = 0; k < 2; k++) {
		struct dataset *ds = fx(cases[k], 2, 6);
		struct analysis *an;

		fx_level(ds, "mix:anon_steal_pct", "pct", true, (const double[]){ 30, 10 });
		fx_level(ds, "mix:steal_attributed", "ratio", false, (const double[]){ 1, 1 });
		an = analyse(ds);
		assert_false(claims__pair_ok(an->ds, 0, 1));
		assert_int_equal(claims__orientation(an->ds, 1), 0);
		assert_int_equal(decide(an, "C1", &r), CLAIM_NOT_TESTED);
		assert_non_null(strstr(r.why, "differing in the LRU alone"));
		assert_int_equal(decide(an, "C8", &r), CLAIM_NOT_TESTED);
		analysis__free(an);
	}
}

/* Rule defect: lru=0x0002/0x0004/0x0006 were MGLRU in claims.c and classic in dataset.c. */
static void test_lru_bits(void **state)
{
	static const char *const modes[] = { "classic", "0", "0x0002", "0x0004", "0x0006",
					      "1",	 "0x0003", "0x0007", "mglru" };
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		const struct vspec vs[] = { { "a", "classic", K61, "" }, { "b", modes[i], K61, "" } };
		struct dataset *ds = fx(vs, 2, 2);
		bool mg = i >= 5;

		assert_int_equal(ds_lru_mglru(&ds->v[1]), mg);
		assert_int_equal(ds_cross_lru(ds, 0, 1), mg);
		assert_int_equal(claims__pair_ok(ds, 0, 1), mg);
		dataset__free(ds);
	}
	{ /* the knobs' value (what the guest read back) wins over the lru word */
		struct ds_variant v = { .lru = (char *)"mglru", .knobs = (char *)"lru_enabled=0x0002" };
		unsigned e;

		assert_int_equal(ds_lru_enabled(&v, &e), 0);
		assert_int_equal(e, 2);
		assert_false(ds_lru_mglru(&v));
		assert_string_equal(ds_knobs_but_lru(&v), "");
	}
}

/*
 * Rule defect: a zero classic mean gave an unbounded interval forever, a
 * zero MGLRU mean a bounded one. Near zero both are on the difference's
 * scale, and mirrored data give mirrored numbers.
 */
static void test_zero_symmetric(void **state)
{
	struct claim_result up, down;
	(void)state;

	for (int k = 0; k < 2; k++) {
		struct dataset *ds = fx(PAIR, 2, 4);
		const double z[] = { 0, 0, 0, 0 }, x[] = { 40, 44, 39, 41 };
		double vals[8];
		struct analysis *an;

		memcpy(vals, k ? x : z, sizeof(z));
		memcpy(vals + 4, k ? z : x, sizeof(z));
		fx_row(ds, "stride:majflt_warm", "faults", true, vals);
		fx_level(ds, "stride:passes_done", "passes", false, (const double[]){ 4, 4 });
		an = analyse(ds);
		decide(an, "C6", k ? &down : &up);
		analysis__free(an);
	}
	assert_true(up.has_cmp && down.has_cmp);
	assert_false(isnan(up.ci_lo) || isnan(up.ci_hi));
	assert_true(fabs(up.ci_lo + down.ci_hi) < 1e-9 && fabs(up.ci_hi + down.ci_lo) < 1e-9);
	assert_int_equal(up.state, CLAIM_SUPPORTED);	  /* MGLRU faults, classic none */
	assert_int_equal(down.state, CLAIM_CONTRADICTED); /* the reverse */
	assert_non_null(strstr(up.why, "difference over the larger mean"));
}

/* C2: the pair at a raised swappiness, gated on C1. */
static void test_c2(void **state)
{
	static const struct vspec vs[] = {
		{ "classic", "classic", K61, "" },
		{ "mglru", "mglru", K61, "" },
		{ "classic-swappiness200", "classic", K61, "vm/swappiness=200" },
		{ "mglru-swappiness200", "mglru", K61, "vm/swappiness=200" },
	};
	struct claim_result r;
	(void)state;

	for (int k = 0; k < 4; k++) {
		struct dataset *ds = fx(vs, 4, 6);
		struct analysis *an;
		/* k: 0 still imbalanced at 200, 1 fixed at 200, 2 no C1 imbalance, 3 no raised pair */
		double at200 = k == 1 ? 52 : 20;

		fx_level(ds, "mix:anon_steal_pct", "pct", true,
			 (const double[]){ 30, k == 2 ? 30 : 10, 50, at200 });
		fx_level(ds, "mix:steal_attributed", "ratio", false,
			 (const double[]){ 0.95, 0.95, 0.95, 0.95 });
		if (k == 3)
			ds->nv = 2; /* free() below still sees all four: restore first */
		an = analyse(ds);
		decide(an, "C2", &r);
		switch (k) {
		case 0:
			assert_int_equal(r.state, CLAIM_SUPPORTED);
			assert_int_equal(r.base, 2);
			assert_int_equal(r.cand, 3);
			break;
		case 1:
			assert_int_equal(r.state, CLAIM_CONTRADICTED);
			break;
		case 2:
			assert_int_equal(r.state, CLAIM_NOT_TESTED);
			assert_non_null(strstr(r.why, "moot: C1"));
			break;
		case 3:
			assert_int_equal(r.state, CLAIM_NOT_TESTED);
			assert_non_null(strstr(r.why, "raised vm.swappiness"));
			an->ds->nv = 4;
			break;
		}
		analysis__free(an);
	}
}

/* Rule defect: C3 was relative to classic; it is MGLRU against what was asked. */
static void test_c3_absolute(void **state)
{
	struct claim_result r;
	(void)state;

	for (int k = 0; k < 3; k++) {
		struct dataset *ds = fx(PAIR, 2, 5);
		struct analysis *an;
		const double mg[] = { 1.33, 1.01, 1.1 };
		double vals[10];

		for (size_t i = 0; i < 5; i++) {
			vals[i] = 1.42 + 0.002 * (double)i;
			vals[5 + i] = mg[k] + (k == 2 ? 0.2 : 0.002) * ((double)(i % 2) - 0.5);
		}
		fx_row(ds, "pr:lru_reclaim_ratio", "ratio", true, vals);
		fx_level(ds, "pr:lru_reclaimed_bytes", "bytes", false,
			 (const double[]){ 8 << 20, 8 << 20 });
		an = analyse(ds);
		decide(an, "C3", &r);
		/* 1.33 over-reclaims though classic's 1.42 is worse; 1.01 is what was asked */
		assert_int_equal(r.state, k == 0 ? CLAIM_SUPPORTED :
				 k == 1 ? CLAIM_CONTRADICTED : CLAIM_INCONCLUSIVE);
		assert_non_null(strstr(r.why, "against 1 asked"));
		assert_non_null(strstr(r.why, "classic 1.42"));
		analysis__free(an);
	}
}

/*
 * C4: cost per page. Not tested where the walk has nothing to do (the old
 * scenario: everything mlocked, which MGLRU's walker skips) or where nothing
 * was reclaimed (no cost per page, not a cost of 0).
 */
static void test_c4(void **state)
{
	struct claim_result r;
	(void)state;

	for (int k = 0; k < 4; k++) {
		struct dataset *ds = fx(PAIR, 2, 6);
		struct analysis *an;
		double hot = k == 2 ? 0 : 1e8;

		if (k != 3)
			fx_level(ds, "low:reclaim_ns_per_page", "ns", true,
				 (const double[]){ 2000, k == 1 ? 1500 : 3000 });
		fx_level(ds, "low:hot_anon_bytes", "bytes", false, (const double[]){ hot, hot });
		an = analyse(ds);
		decide(an, "C4", &r);
		assert_int_equal(r.state, k == 0 ? CLAIM_SUPPORTED :
				 k == 1 ? CLAIM_CONTRADICTED : CLAIM_NOT_TESTED);
		if (k == 2)
			assert_non_null(strstr(r.why, "mechanism not engaged"));
		if (k == 3)
			assert_non_null(strstr(r.why, "low:reclaim_ns_per_page not measured"));
		analysis__free(an);
	}
}

/* C7 reads real workloads' key verdicts: probes do not count; equivalence contradicts. */
static const char c7_plan[] =
	"[campaign]\nname = c7\nrepetitions = 6\nbaseline = classic\n"
	"[variant classic]\nlru = classic\n[variant mglru]\nlru = mglru\n"
	"[memcg m]\nmemory.max = 64M\n"
	"[workload kv]\ntype = sqlite-kv\nmemcg = m\nsize = 1x\n"
	"[workload files]\ntype = file-zipf\nmemcg = m\nsize = 1x\n"
	"[workload mix]\ntype = anon-file-mix\nmemcg = m\nanon-size = 0.5x\nfile-size = 0.5x\n"
	"accesses = 1000\n";

static struct analysis *c7(double kv, double files, double mix)
{
	struct dataset *ds = fx(PAIR, 2, 6);
	_cleanup_free_ char *err = NULL;

	assert_int_equal(plan__parse("c7.ini", c7_plan, &ds->plan, &err), 0);
	fx_level(ds, "kv:throughput", "ops/s", true, (const double[]){ 1000, kv });
	fx_level(ds, "files:throughput", "ops/s", true, (const double[]){ 1000, files });
	fx_level(ds, "mix:majflt", "faults", true, (const double[]){ 1000, mix });
	for (size_t i = 0; i < ds->nrows; i++)
		ds->rows[i].better = strstr(ds->rows[i].label, "throughput") ? BETTER_HIGHER :
									       BETTER_LOWER;
	return analyse(ds);
}

static void test_c7(void **state)
{
	struct analysis *an;
	struct claim_result r;
	(void)state;

	an = c7(600, 1500, 1000); /* kv worse, files better */
	assert_int_equal(decide(an, "C7", &r), CLAIM_SUPPORTED);
	assert_non_null(strstr(r.why, "e.g. kv"));
	assert_non_null(strstr(r.why, "e.g. files"));
	analysis__free(an);
	/* the probe's gain beside kv's regression is no second workload */
	an = c7(600, 1000, 400);
	assert_int_equal(decide(an, "C7", &r), CLAIM_CONTRADICTED);
	assert_non_null(strstr(r.why, "all 2 real-workload"));
	analysis__free(an);
	/* all equivalent within the minimum effect: contradicted, reachable */
	an = c7(1000, 1000, 1000);
	assert_int_equal(decide(an, "C7", &r), CLAIM_CONTRADICTED);
	assert_non_null(strstr(r.why, "2 equivalent"));
	analysis__free(an);
}

/* Rule defect: C8 was a lookup, "supported" even on kernels the table does not know. */
static void test_c8(void **state)
{
	static const struct vspec unknown[] = { { "classic", "classic", "5.15.0-99 abcdef", "" },
						{ "mglru", "mglru", "5.15.0-99 abcdef", "" } };
	struct claim_result r;
	(void)state;

	for (int k = 0; k < 3; k++) {
		struct dataset *ds = fx(k == 2 ? unknown : PAIR, 2, 4);
		struct analysis *an;

		fx_level(ds, k ? "vmstat:pgscan_kswapd" : "vmstat:pgsteal_kswapd", "pages", false,
			 (const double[]){ 100, 120 });
		an = analyse(ds);
		decide(an, "C8", &r);
		assert_int_equal(r.state, k == 0 ? CLAIM_CONTRADICTED :
				 k == 1 ? CLAIM_SUPPORTED : CLAIM_NOT_TESTED);
		if (k == 2)
			assert_non_null(strstr(r.why, "unknown: kernel 5.15.0-99"));
		analysis__free(an);
	}
}

/* Rule defect: merging was order-dependent ([S,C,C] contradicted, [C,S,S] supported). */
static void test_merge_order(void **state)
{
	struct claim_result s = { .state = CLAIM_SUPPORTED }, c = { .state = CLAIM_CONTRADICTED },
			    i = { .state = CLAIM_INCONCLUSIVE }, t = { .state = CLAIM_NOT_TESTED };
	struct claim_result scc[] = { s, c, c }, css[] = { c, s, s }, it[] = { t, i, s }, out;
	(void)state;

	claims__merge_sources(scc, 3, &out);
	assert_int_equal(out.state, CLAIM_INCONCLUSIVE);
	assert_non_null(strstr(out.why, "1 databases support it, 2 contradict it"));
	claims__merge_sources(css, 3, &out);
	assert_int_equal(out.state, CLAIM_INCONCLUSIVE);
	claims__merge_sources(it, 3, &out);
	assert_int_equal(out.state, CLAIM_SUPPORTED);
	claims__merge_kernels(scc, 3, &out);
	assert_int_equal(out.state, CLAIM_KERNEL_DEPENDENT);
	claims__merge_kernels(css, 2, &out);
	assert_int_equal(out.state, CLAIM_KERNEL_DEPENDENT);
	claims__merge_kernels(&t, 1, &out);
	assert_int_equal(out.state, CLAIM_NOT_TESTED);
}

/* The board: claim x kernel, Bonferroni over every primary signal, per-kernel verdicts. */
static void test_board(void **state)
{
	static const struct vspec grid[] = { { "classic-6.1", "classic", K61, "" },
					     { "mglru-6.1", "mglru", K61, "" },
					     { "classic-6.12", "classic", K612, "" },
					     { "mglru-6.12", "mglru", K612, "" } };
	struct dataset *ds = fx(grid, 4, 6);
	struct analysis *an, *a1;
	const struct analysis *src[2];
	struct claims_board b;
	(void)state;

	/* C1 true on 6.1, false on 6.12 */
	fx_level(ds, "mix:anon_steal_pct", "pct", true, (const double[]){ 30, 10, 30, 31 });
	fx_level(ds, "mix:steal_attributed", "ratio", false, (const double[]){ 1, 1, 1, 1 });
	an = analyse(ds);
	src[0] = an;
	claims__board(src, 1, &b);
	assert_int_equal(b.nk, 2);
	assert_int_equal(b.tests, 12);
	assert_true(fabs(b.level - (1 - 0.05 / 12)) < 1e-12);
	assert_int_equal(b.by_kernel[0 * b.n + 0].state, CLAIM_SUPPORTED);
	assert_int_equal(b.by_kernel[1 * b.n + 0].state, CLAIM_CONTRADICTED);
	assert_int_equal(b.by_kernel[1 * b.n + 0].base, 2); /* 6.12 against 6.12 */
	assert_int_equal(b.merged[0].state, CLAIM_KERNEL_DEPENDENT);
	assert_true(b.measured);
	claims_board__clear(&b);

	/* a second database on 6.1 alone that contradicts C1 there: 6.1 is inconclusive */
	{
		struct dataset *d1 = fx(PAIR, 2, 6);

		fx_level(d1, "mix:anon_steal_pct", "pct", true, (const double[]){ 30, 30.5 });
		fx_level(d1, "mix:steal_attributed", "ratio", false, (const double[]){ 1, 1 });
		a1 = analyse(d1);
	}
	for (int order = 0; order < 2; order++) {
		src[order] = an;
		src[!order] = a1;
		claims__board(src, 2, &b);
		assert_int_equal(b.nk, 2);
		assert_int_equal(b.by_kernel[0 * b.n + 0].state, CLAIM_INCONCLUSIVE);
		assert_int_equal(b.by_kernel[1 * b.n + 0].state, CLAIM_CONTRADICTED);
		assert_int_equal(b.merged[0].state, CLAIM_CONTRADICTED);
		claims_board__clear(&b);
	}
	analysis__free(a1);
	analysis__free(an);

	{ /* no pair at all: nothing measured */
		static const struct vspec same[] = { { "a", "mglru", K61, "" },
						     { "b", "mglru", K61, "vm/swappiness=0" } };
		struct dataset *d2 = fx(same, 2, 4);

		fx_level(d2, "mix:anon_steal_pct", "pct", true, (const double[]){ 30, 10 });
		an = analyse(d2);
		src[0] = an;
		claims__board(src, 1, &b);
		assert_int_equal(b.nk, 0);
		assert_false(b.measured);
		assert_int_equal(b.merged[0].state, CLAIM_NOT_TESTED);
		claims_board__clear(&b);
		analysis__free(an);
	}
}

/*
 * Every test-decided claim on one synthetic campaign shape (classic and
 * MGLRU at swappiness 60 and 200, 6 blocks), four ways: planted true,
 * planted false, the mechanism not engaged (the precondition below its
 * minimum on one side) and too few blocks (the claim's own pair measured in
 * one block). The first four values of each plant are the variants' means
 * in the order classic, mglru, classic-swappiness200, mglru-swappiness200.
 */
struct plant {
	const char *id, *primary, *unit, *pre;
	double pre_on, pre_off;
	double yes[4], no[4];
};

static const struct plant PLANTS[] = {
	/* C1: MGLRU's anon share of mix's reclaim a third of classic's, or the same */
	{ "C1", "mix:anon_steal_pct", "pct", "mix:steal_attributed", 0.97, 0.3,
	  { 30, 10, 50, 20 }, { 30, 31, 50, 51 } },
	/* C2: at 200 still a third (C1 holds in both plants), or caught up */
	{ "C2", "mix:anon_steal_pct", "pct", "mix:steal_attributed", 0.97, 0.3,
	  { 30, 10, 50, 20 }, { 30, 10, 50, 51 } },
	/* C3: MGLRU reclaims 1.33x what was asked, or 1.0x (classic 1.42x both times) */
	{ "C3", "pr:lru_reclaim_ratio", "ratio", "pr:lru_reclaimed_bytes", 8 << 20, 0,
	  { 1.42, 1.33, 1.42, 1.33 }, { 1.42, 1.0, 1.42, 1.0 } },
	/* C4: 1.5x the CPU per page, or three quarters of it */
	{ "C4", "low:reclaim_ns_per_page", "ns", "low:hot_anon_bytes", 1e8, 0,
	  { 2000, 3000, 2000, 3000 }, { 2000, 1500, 2000, 1500 } },
	/* C5: app switches 40% slower, or 20% faster */
	{ "C5", "apps:switch_p90", "ms", "apps:retouch_majflt", 300, 0,
	  { 50, 70, 50, 70 }, { 50, 40, 50, 40 } },
	/* C6: twice the hot set's warm faults, or the same */
	{ "C6", "stride:majflt_warm", "faults", "stride:passes_done", 4, 1,
	  { 400, 800, 400, 800 }, { 400, 402, 400, 402 } },
};

enum planting { PLANT_TRUE, PLANT_FALSE, PLANT_NOT_ENGAGED, PLANT_FEW_BLOCKS };

static enum claim_state plant(const struct plant *p, enum planting how, struct claim_result *r)
{
	static const struct vspec vs[] = {
		{ "classic", "classic", K61, "" },
		{ "mglru", "mglru", K61, "" },
		{ "classic-swappiness200", "classic", K61, "vm/swappiness=200" },
		{ "mglru-swappiness200", "mglru", K61, "vm/swappiness=200" },
	};
	static const double wiggle[6] = { 0.01, -0.012, 0.004, 0.008, -0.006, -0.004 };
	const size_t n = 6, raised = !strcmp(p->id, "C2") ? 2 : 0; /* the claim's pair */
	struct dataset *ds = fx(vs, 4, n);
	const double *mean = how == PLANT_FALSE ? p->no : p->yes;
	double vals[4 * 6], pre[4 * 6];
	struct analysis *an;
	enum claim_state st;

	for (size_t v = 0; v < 4; v++)
		for (size_t i = 0; i < n; i++) {
			bool few = how == PLANT_FEW_BLOCKS && i > 0 && (v == raised || v == raised + 1);

			vals[v * n + i] = few ? NAN : mean[v] * (1 + wiggle[i] * (1 + 0.3 * (double)v));
			pre[v * n + i] = how == PLANT_NOT_ENGAGED && v == raised + 1 ? p->pre_off :
										  p->pre_on;
		}
	fx_row(ds, p->primary, p->unit, true, vals);
	fx_row(ds, p->pre, "", false, pre);
	an = analyse(ds);
	st = decide(an, p->id, r);
	analysis__free(an);
	return st;
}

static void test_each_claim(void **state)
{
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(PLANTS); i++) {
		const struct plant *p = &PLANTS[i];
		struct claim_result r;

		print_message("%s\n", p->id);
		assert_int_equal(plant(p, PLANT_TRUE, &r), CLAIM_SUPPORTED);
		assert_true(r.has_cmp);
		assert_non_null(strstr(r.why, p->primary));
		assert_non_null(strstr(r.why, p->pre)); /* the evidence on the line */
		assert_int_equal(plant(p, PLANT_FALSE, &r), CLAIM_CONTRADICTED);
		assert_true(r.has_cmp);
		assert_int_equal(plant(p, PLANT_NOT_ENGAGED, &r), CLAIM_NOT_TESTED);
		assert_false(r.has_cmp);
		assert_non_null(strstr(r.why, "mechanism not engaged"));
		assert_int_equal(plant(p, PLANT_FEW_BLOCKS, &r), CLAIM_INCONCLUSIVE);
		assert_non_null(strstr(r.why, "needed"));
	}
}

/*
 * C1, C4 and C6 per MGLRU mechanism: lru = 1 (core), 3 (+ page-table
 * walk), 7 (+ non-leaf young), each against the one classic variant. A
 * planted cost that only the walk carries shows on 3 and 7, not on 1; the
 * claim's verdict is the full mode's; claims about neither get no lines.
 * Then a pair with a knob beyond the LRU (C6 without fault-around): listed
 * first in the plan, it still does not decide the claim.
 */
static void test_mechanisms(void **state)
{
	static const struct vspec vs[] = {
		{ "classic", "classic", K61, "" },
		{ "lru-0x0007", "0x0007", K61, "" },
		{ "lru-0x0001", "0x0001", K61, "" },
		{ "lru-0x0003", "0x0003", K61, "" },
	};
	struct dataset *ds = fx(vs, 4, 6);
	struct claim_part m[4];
	struct analysis *an;
	struct claim_result r;
	(void)state;

	fx_level(ds, "low:reclaim_ns_per_page", "ns", true, (const double[]){ 2000, 3000, 2010, 3000 });
	fx_level(ds, "low:hot_anon_bytes", "bytes", false, (const double[]){ 1e8, 1e8, 1e8, 1e8 });
	fx_level(ds, "pr:lru_reclaim_ratio", "ratio", true, (const double[]){ 1.4, 1.3, 1.3, 1.3 });
	fx_level(ds, "pr:lru_reclaimed_bytes", "bytes", false, (const double[]){ 1e7, 1e7, 1e7, 1e7 });
	an = analyse(ds);
	assert_int_equal(decide(an, "C4", &r), CLAIM_SUPPORTED);
	assert_int_equal(r.cand, 1); /* the full mode decides */
	assert_int_equal(claims__mechanisms(claims__find("C4"), an, NULL, 0, m, 4), 3);
	assert_int_equal(m[0].enabled, 1);
	assert_int_equal(m[0].r.state, CLAIM_CONTRADICTED);
	assert_int_equal(m[1].enabled, 3);
	assert_int_equal(m[1].r.state, CLAIM_SUPPORTED);
	assert_int_equal(m[1].r.cand, 3);
	assert_int_equal(m[2].enabled, 7);
	assert_int_equal(m[2].r.state, CLAIM_SUPPORTED);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(m[i].r.base, 0);
	assert_string_equal(lru_mode_mechanisms(m[0].enabled), "core");
	assert_string_equal(lru_mode_mechanisms(m[1].enabled), "core + page-table walk");
	assert_string_equal(lru_mode_mechanisms(0), "classic");
	/* room for two: the two lowest modes */
	assert_int_equal(claims__mechanisms(claims__find("C4"), an, NULL, 0, m, 2), 2);
	assert_int_equal(m[1].enabled, 3);
	/* C3 is about reclaim's amount, not a mechanism's cost or placement */
	assert_int_equal(claims__mechanisms(claims__find("C3"), an, NULL, 0, m, 4), 0);
	analysis__free(an);

	/* one MGLRU mode: nothing to break down */
	an = c1(30, 10, 0.97, 6);
	assert_int_equal(claims__mechanisms(claims__find("C1"), an, NULL, 0, m, 4), 0);
	analysis__free(an);

	{ /* C6: neighbours mapped young by fault-around carry it; at 4096 none are mapped */
		static const struct vspec fa[] = {
			{ "classic-fa4096", "classic", K61, "fault_around_bytes=4096" },
			{ "mglru-fa4096", "mglru", K61, "fault_around_bytes=4096" },
			{ "classic", "classic", K61, "" },
			{ "mglru", "mglru", K61, "" },
		};
		struct dataset *d6 = fx(fa, 4, 6);

		fx_level(d6, "stride:majflt_warm", "faults", true,
			 (const double[]){ 400, 401, 400, 800 });
		fx_level(d6, "stride:passes_done", "passes", false, (const double[]){ 4, 4, 4, 4 });
		an = analyse(d6);
		assert_int_equal(decide(an, "C6", &r), CLAIM_SUPPORTED);
		assert_int_equal(r.base, 2); /* the kernel's defaults decide */
		assert_int_equal(r.cand, 3);
		assert_int_equal(claims__mechanisms(claims__find("C6"), an, NULL, 0, m, 4), 2);
		assert_int_equal(m[0].r.state, CLAIM_SUPPORTED);
		assert_string_equal(m[0].knobs, "");
		assert_int_equal(m[1].r.state, CLAIM_CONTRADICTED);
		assert_string_equal(m[1].knobs, "fault_around_bytes=4096");
		assert_int_equal(m[1].r.base, 0);
		assert_int_equal(m[1].r.cand, 1);
		analysis__free(an);
	}
}

/* C2's curve: each LRU's anon share over swappiness 0-200, its slope per block. */
static void test_curve(void **state)
{
	static const struct vspec vs[] = {
		{ "classic-200", "classic", K61, "vm/swappiness=200" },
		{ "mglru-200", "mglru", K61, "vm/swappiness=200" },
		{ "classic-0", "classic", K61, "vm/swappiness=0" },
		{ "mglru-0", "mglru", K61, "vm/swappiness=0" },
		{ "classic", "classic", K61, "" },
		{ "mglru", "mglru", K61, "" },
		{ "classic-100", "classic", K61, "vm/swappiness=100" },
		{ "mglru-100", "mglru", K61, "vm/swappiness=100" },
	};
	static const int sw[8] = { 200, 200, 0, 0, 60, 60, 100, 100 };
	struct claim_curve cv;
	(void)state;

	for (int k = 0; k < 2; k++) {
		struct dataset *ds = fx(vs, 8, 6);
		struct analysis *an;
		double mean[8];

		/* classic 10 + 20 per 100 of swappiness, MGLRU 5 + 1 per 100 */
		for (size_t v = 0; v < 8; v++)
			mean[v] = v % 2 ? 5 + sw[v] / 100.0 : 10 + 20 * sw[v] / 100.0;
		fx_level(ds, "mix:anon_steal_pct", "pct", true, mean);
		if (k) /* block 3 of mglru-100 lost: 5 blocks run every point */
			ds->rows[0].vals[7 * 6 + 3] = NAN;
		an = analyse(ds);
		assert_int_equal(claims__curve(claims__find("C2"), an, NULL, 0, &cv), 0);
		assert_int_equal(cv.np, 4);
		assert_int_equal(cv.swappiness[0], 0);
		assert_int_equal(cv.swappiness[3], 200);
		assert_int_equal(cv.var[0][0], 2);
		assert_int_equal(cv.var[1][3], 1);
		assert_int_equal(cv.blocks, k ? 5 : 6);
		assert_true(fabs(cv.mean[0][1] - 22) < 0.5); /* classic at 60 */
		assert_true(cv.lo[0] > 19 && cv.hi[0] < 21);
		assert_true(cv.lo[1] > 0.8 && cv.hi[1] < 1.2);
		/* no curve for the other claims, with a signal or without (C7) */
		for (size_t c = 0; c < 8; c++)
			if (c != 1)
				assert_int_equal(claims__curve(&claims__table(&(size_t){ 0 })[c],
							       an, NULL, 0, &cv), -ENOENT);
		analysis__free(an);
	}
	{ /* one swappiness: no curve */
		struct analysis *an = c1(30, 10, 0.97, 6);

		assert_int_equal(claims__curve(claims__find("C2"), an, NULL, 0, &cv), -ENOENT);
		analysis__free(an);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	       cmocka_unit_test(test_c1),
		cmocka_unit_test(test_primary_only),   cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_lru_bits),       cmocka_unit_test(test_zero_symmetric),
		cmocka_unit_test(test_c2),	       cmocka_unit_test(test_c3_absolute),
		cmocka_unit_test(test_c4),	       cmocka_unit_test(test_c7),
		cmocka_unit_test(test_c8),	       cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_board),	       cmocka_unit_test(test_each_claim),
		cmocka_unit_test(test_mechanisms),	       cmocka_unit_test(test_curve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
