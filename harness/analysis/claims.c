// SPDX-License-Identifier: GPL-2.0
/* The claims table and the rules that decide each claim on a campaign (claims.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "claims-priv.h"
#include "metrics.h"
#include "plan.h"
#include "stats.h"
#include "util.h"

static const struct claim claims[] = {
	{ .id = "C1", .title = "anon/file imbalance",
	  .sentence = "MGLRU under-reclaims anon: anon stays in the youngest generations while "
		      "file is reclaimed",
	  .plans = "claims.ini, c1.ini",
	  .signals = { "mix:anon_steal_pct", "mix:majflt", "mix:file_read_bytes", NULL },
	  .direction = -1, .rule = CLAIM_DIRECTION,
	  .pre = "mix:steal_attributed", .pre_min = 0.9,
	  .pre_what = "mix's own reclaim is >= 90% of the guest's",
	  .at = CLAIM_AT_DEFAULT, .plot = "gen-mglru", .by_mechanism = true },
	{ .id = "C2", .title = "swappiness does not fix it",
	  .sentence = "swappiness does not fix the anon/file imbalance under MGLRU: at a raised "
		      "vm.swappiness MGLRU still reclaims less anon than classic does",
	  .plans = "claims.ini, c2.ini",
	  .signals = { "mix:anon_steal_pct", NULL },
	  .direction = -1, .rule = CLAIM_DIRECTION,
	  .pre = "mix:steal_attributed", .pre_min = 0.9,
	  .pre_what = "mix's own reclaim is >= 90% of the guest's",
	  .gate = "C1", .at = CLAIM_AT_RAISED, .plot = "balance" },
	{ .id = "C3", .title = "memcg over-reclaim",
	  .sentence = "MGLRU reclaims more than memory.reclaim asks of a memcg",
	  .plans = "claims.ini, c3.ini",
	  .signals = { "pr:lru_reclaim_ratio", "pr:reclaim_ratio", "pr:high_ratio", NULL },
	  .direction = +1, .rule = CLAIM_ABSOLUTE, .target = 1,
	  .pre = "pr:lru_reclaimed_bytes", .pre_min = 1,
	  .pre_what = "memory.reclaim took anon or file pages",
	  .at = CLAIM_AT_DEFAULT, .plot = "bars" },
	{ .id = "C4", .title = "costly on small devices",
	  .sentence = "MGLRU costs more CPU per page reclaimed on small devices with little "
		      "reclaimable memory",
	  .plans = "claims.ini, c4.ini",
	  .signals = { "low:reclaim_ns_per_page", "low:kswapd_ns_per_page", "kswapd:cpu_ns",
		       NULL },
	  .direction = +1, .rule = CLAIM_DIRECTION,
	  .pre = "low:hot_anon_bytes", .pre_min = 1,
	  .pre_what = "mapped anon, not mlocked, kept hot: the page-table walk has work",
	  .at = CLAIM_AT_DEFAULT, .plot = "bars", .by_mechanism = true },
	{ .id = "C5", .title = "no foreground notion",
	  .sentence = "MGLRU has no notion of foreground apps (nor has classic: tested as its "
		      "consequence, slower app switches under MGLRU)",
	  .plans = "claims.ini, c5.ini",
	  .signals = { "apps:switch_p90", "apps-low:switch_p90", "apps:fg_majflt", NULL },
	  .direction = +1, .rule = CLAIM_DIRECTION,
	  .pre = "apps:retouch_majflt", .pre_min = 1,
	  .pre_what = "apps brought back faulted: their pages had been reclaimed",
	  .at = CLAIM_AT_DEFAULT, .plot = "ts-majfault" },
	{ .id = "C6", .title = "readahead evicts the hot set",
	  .sentence = "readahead/fault-around pages in the youngest generation evict the hot set",
	  .plans = "claims.ini, c6.ini",
	  .signals = { "stride:majflt_warm", "stride:touched_resident_pct",
		       "stride:untouched_resident_pct", NULL },
	  .direction = +1, .rule = CLAIM_DIRECTION,
	  .pre = "stride:passes_done", .pre_min = 2,
	  .pre_what = "the mapped file was walked again after its first pass",
	  .at = CLAIM_AT_DEFAULT, .plot = "bars", .by_mechanism = true },
	{ .id = "C7", .title = "regressions and gains",
	  .sentence = "MGLRU regresses some workloads and improves others",
	  .plans = "claims.ini, full.ini (more workloads)", .signals = { NULL },
	  .rule = CLAIM_MIXED, .at = CLAIM_AT_DEFAULT, .plot = "heatmap" },
	{ .id = "C8", .title = "metrics differ",
	  .sentence = "metrics differ between the two LRUs (not comparable)", .plans = "any plan",
	  .signals = { NULL }, .rule = CLAIM_COMPARABILITY, .at = CLAIM_AT_DEFAULT,
	  .plot = "bars" },
};

#define NCLAIMS ARRAY_SIZE(claims)

const struct claim *claims__table(size_t *ret_n)
{
	*ret_n = NCLAIMS;
	return claims;
}

const struct claim *claims__find(const char *id)
{
	for (size_t i = 0; i < NCLAIMS; i++)
		if (!strcasecmp(claims[i].id, id))
			return &claims[i];
	return NULL;
}

const char *claim_state_name(enum claim_state s)
{
	switch (s) {
	case CLAIM_SUPPORTED:
		return "supported";
	case CLAIM_CONTRADICTED:
		return "contradicted";
	case CLAIM_NOT_TESTED:
		return "not tested";
	case CLAIM_KERNEL_DEPENDENT:
		return "kernel-dependent";
	case CLAIM_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

bool claims_is_test_rule(enum claim_rule r)
{
	return r == CLAIM_DIRECTION || r == CLAIM_ABSOLUTE;
}

/* The claims a primary signal decides: K of the Bonferroni level, per kernel. */
static size_t test_claims(void)
{
	size_t k = 0;

	for (size_t i = 0; i < NCLAIMS; i++)
		k += claims_is_test_rule(claims[i].rule);
	return k;
}

bool claims__pair_ok(const struct dataset *ds, size_t a, size_t b)
{
	const struct ds_variant *va = &ds->v[a], *vb = &ds->v[b];

	return !ds_lru_mglru(va) && ds_lru_mglru(vb) && va->kernel && vb->kernel &&
	       !strcmp(va->kernel, vb->kernel) &&
	       !strcmp(ds_knobs_but_lru(va), ds_knobs_but_lru(vb));
}

int claims__orientation(const struct dataset *ds, size_t cand)
{
	if (claims__pair_ok(ds, ds->base, cand))
		return +1;
	if (claims__pair_ok(ds, cand, ds->base))
		return -1;
	return 0;
}

/* A variant's vm.swappiness: its knob, else the kernel's default. */
int claims_swappiness(const struct ds_variant *v)
{
	int s = ds_swappiness(v);

	return s < 0 ? CLAIM_DEFAULT_SWAPPINESS : s;
}

bool claims_on_kernel(const struct ds_variant *v, const char *kernel)
{
	return !kernel || (v->kernel && !strcmp(v->kernel, kernel));
}

/* The MGLRU variant paired with classic variant a in the fullest mode; false: none. */
bool claims_fullest_pair(const struct dataset *ds, size_t a, size_t *ret_b)
{
	unsigned e, best = 0;
	bool found = false;

	for (size_t b = 0; b < ds->nv; b++)
		if (claims__pair_ok(ds, a, b) && ds_lru_enabled(&ds->v[b], &e) == 0 &&
		    (!found || e > best))
			*ret_b = b, best = e, found = true;
	return found;
}

/* How many knobs a variant sets beyond the LRU. */
static size_t knob_count(const struct ds_variant *v)
{
	const char *k = ds_knobs_but_lru(v);
	size_t n = 0;

	for (; *k; k += strspn(k, " "), n++)
		k += strcspn(k, " ");
	return n;
}

/*
 * The pair claim c reads on kernel: classic *ret_a and MGLRU *ret_b at the
 * claim's swappiness, the classic variant that sets the fewest knobs
 * beyond the LRU (the kernel's defaults; the first in variant order among
 * equals) and its fullest MGLRU mode. false: none.
 */
bool claims_find_pair(const struct claim *c, const struct dataset *ds, const char *kernel,
		      size_t *ret_a, size_t *ret_b)
{
	int want = CLAIM_DEFAULT_SWAPPINESS;
	bool found = false;
	size_t fewest = 0, b;

	if (c->at == CLAIM_AT_RAISED) {
		want = -1;
		for (size_t a = 0; a < ds->nv; a++)
			if (claims_on_kernel(&ds->v[a], kernel) && claims_fullest_pair(ds, a, &b) &&
			    claims_swappiness(&ds->v[a]) > CLAIM_DEFAULT_SWAPPINESS &&
			    claims_swappiness(&ds->v[a]) > want)
				want = claims_swappiness(&ds->v[a]);
		if (want < 0)
			return false;
	}
	for (size_t a = 0; a < ds->nv; a++) {
		if (!claims_on_kernel(&ds->v[a], kernel) || claims_swappiness(&ds->v[a]) != want ||
		    !claims_fullest_pair(ds, a, &b) || (found && knob_count(&ds->v[a]) >= fewest))
			continue;
		*ret_a = a, *ret_b = b, fewest = knob_count(&ds->v[a]);
		found = true;
	}
	return found;
}

const struct ds_row *claims_find_row(const struct dataset *ds, const char *label)
{
	for (size_t i = 0; i < ds->nrows; i++)
		if (!strcmp(ds->rows[i].label, label) || !strcmp(ds->rows[i].metric, label))
			return &ds->rows[i];
	return NULL;
}

static void appendf(struct claim_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void appendf(struct claim_result *r, const char *fmt, ...)
{
	size_t l = strlen(r->why);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why + l, sizeof(r->why) - l, fmt, ap);
	va_end(ap);
}

static void no_cmp(struct claim_result *r, enum claim_state s)
{
	r->state = s;
	r->has_cmp = false;
	r->change = r->ci_lo = r->ci_hi = NAN;
}

/*
 * The precondition on pair (a, b): both sides' means over the paired blocks
 * at least c->pre_min. The evidence into ev; false (r not tested, the
 * evidence its why) when it fails or was not measured.
 */
static bool precondition(const struct claim *c, const struct dataset *ds, size_t a, size_t b,
			 struct claim_result *r, char *ev, size_t evlen)
{
	const struct ds_row *row;
	_cleanup_free_ double *pa = NULL, *pb = NULL;
	double ma, mb;
	size_t n;

	ev[0] = '\0';
	if (!c->pre)
		return true;
	row = claims_find_row(ds, c->pre);
	pa = xcalloc(ds->maxruns ? ds->maxruns : 1, sizeof(double));
	pb = xcalloc(ds->maxruns ? ds->maxruns : 1, sizeof(double));
	n = row ? ds_pairs(ds, row, a, b, pa, pb) : 0;
	if (!n) {
		no_cmp(r, CLAIM_NOT_TESTED);
		appendf(r, "precondition %s not measured (%s): run %s", c->pre, c->pre_what,
			c->plans);
		return false;
	}
	ma = stats__mean(pa, n);
	mb = stats__mean(pb, n);
	snprintf(ev, evlen, "precondition %s %s %.3g, %s %.3g (needs >= %g: %s)", c->pre,
		 ds->v[a].name, ma, ds->v[b].name, mb, c->pre_min, c->pre_what);
	if (ma >= c->pre_min && mb >= c->pre_min)
		return true;
	no_cmp(r, CLAIM_NOT_TESTED);
	appendf(r, "%s: mechanism not engaged", ev);
	return false;
}

/* How many more blocks would likely decide an interval of half-width half at n blocks
 * whose decision needs it below need; 0: not within 60. */
static size_t more_blocks(double half, size_t n, double level, double need)
{
	double sd;

	if (n < 2 || !(half > 0) || !(need > 0))
		return 0;
	sd = half * sqrt((double)n) / stats__t_crit(level, (double)(n - 1));
	for (size_t n2 = n + 1; n2 <= n + 60; n2++)
		if (stats__t_crit(level, (double)(n2 - 1)) * sd / sqrt((double)n2) < need)
			return n2 - n;
	return 0;
}

/* Supported, contradicted or inconclusive for an interval [lo, hi] of an effect the claim
 * says is beyond m in direction d (d * effect > m). */
static enum claim_state judge(int d, double lo, double hi, double m)
{
	double l = d > 0 ? lo : -hi, h = d > 0 ? hi : -lo;

	if (l > m)
		return CLAIM_SUPPORTED;
	if (h < m)
		return CLAIM_CONTRADICTED;
	return CLAIM_INCONCLUSIVE;
}

/*
 * The primary signal, MGLRU (b) against classic (a) over the paired blocks,
 * at level: relative where both means are clear of zero (Fieller), else
 * the difference over the larger mean, whichever side is near zero.
 */
static void test_direction(const struct claim *c, const struct dataset *ds, size_t a, size_t b,
			   const struct ds_row *row, double m, double level,
			   struct claim_result *r)
{
	_cleanup_free_ double *pa = xcalloc(ds->maxruns ? ds->maxruns : 1, sizeof(double));
	_cleanup_free_ double *pb = xcalloc(ds->maxruns ? ds->maxruns : 1, sizeof(double));
	size_t n = ds_pairs(ds, row, a, b, pa, pb);
	double ma, mb, res, lo = NAN, hi = NAN, ch;
	bool relative = false;
	const char *scale = "relative";

	if (n < VERDICT_MIN_BLOCKS) {
		no_cmp(r, CLAIM_INCONCLUSIVE);
		appendf(r, "%s: %zu blocks with both %s and %s, %d needed: run %s", row->label, n,
			ds->v[a].name, ds->v[b].name, VERDICT_MIN_BLOCKS, c->plans);
		return;
	}
	ma = stats__mean(pa, n);
	mb = stats__mean(pb, n);
	if (ma == 0 && mb == 0) {
		bool all0 = true;

		for (size_t i = 0; i < n; i++)
			all0 &= pa[i] == 0 && pb[i] == 0;
		if (all0) {
			no_cmp(r, CLAIM_NOT_TESTED);
			appendf(r, "%s is 0 in every block on both sides: the mechanism never ran",
				row->label);
			return;
		}
	}
	{
		_cleanup_free_ double *both = xcalloc(2 * n, sizeof(double));

		memcpy(both, pa, n * sizeof(double));
		memcpy(both + n, pb, n * sizeof(double));
		res = stats__resolution(both, 2 * n);
	}
	if (fabs(ma) >= VERDICT_NEAR_ZERO * res && fabs(mb) >= VERDICT_NEAR_ZERO * res && ma > 0)
		relative = stats__fieller_paired_change(pa, pb, n, level, res, &lo, &hi) == 0;
	if (relative) {
		ch = mb / ma - 1;
	} else {
		double md, dlo, dhi, ref = fmax(fmax(fabs(ma), fabs(mb)), res);

		if (stats__paired_diff(pa, pb, n, level, res, &md, &dlo, &dhi) < 0) {
			no_cmp(r, CLAIM_INCONCLUSIVE);
			return;
		}
		ch = md / ref, lo = dlo / ref, hi = dhi / ref;
		scale = "difference over the larger mean";
	}
	r->state = judge(c->direction, lo, hi, m);
	r->has_cmp = true;
	r->row = (size_t)(row - ds->rows);
	r->base = a;
	r->cand = b;
	r->change = ch, r->ci_lo = lo, r->ci_hi = hi;
	appendf(r, "%s: %s vs %s %+.1f%% [%+.1f%%, %+.1f%%] (%s, %.4g%% interval), %zu blocks",
		row->label, ds->v[b].name, ds->v[a].name, 100 * ch, 100 * lo, 100 * hi, scale,
		100 * level, n);
	if (r->state == CLAIM_INCONCLUSIVE) {
		double need = fabs(c->direction * ch - m);
		size_t more = more_blocks((hi - lo) / 2, n, level, need);

		if (more)
			appendf(r, "; ~%zu more blocks would decide it", more);
		else
			appendf(r, "; more blocks needed");
	}
}

/* CLAIM_ABSOLUTE: the MGLRU side's mean against c->target, classic's beside it. */
static void test_absolute(const struct claim *c, const struct dataset *ds, size_t a, size_t b,
			  const struct ds_row *row, double m, double level, struct claim_result *r)
{
	const double *x = ds_vals(ds, row, b);
	size_t n = row->n[b];
	double mean, sd, half, res, lo, hi, t = c->target;

	if (n < VERDICT_MIN_BLOCKS) {
		no_cmp(r, CLAIM_INCONCLUSIVE);
		appendf(r, "%s: %zu runs of %s, %d needed: run %s", row->label, n, ds->v[b].name,
			VERDICT_MIN_BLOCKS, c->plans);
		return;
	}
	mean = stats__mean(x, n);
	res = stats__resolution(x, n);
	/* quantised values: never less than the rounding variance (stats.h) */
	sd = sqrt(fmax(stats__var(x, n, mean), res * res / 12));
	half = stats__mean_ci_half(n, sd, level);
	lo = (mean - half) / t - 1, hi = (mean + half) / t - 1;
	r->state = judge(c->direction, lo, hi, m);
	r->has_cmp = true;
	r->row = (size_t)(row - ds->rows);
	r->base = a;
	r->cand = b;
	r->change = mean / t - 1, r->ci_lo = lo, r->ci_hi = hi;
	appendf(r, "%s: %s %.3g [%.3g, %.3g] against %g asked (%.4g%% interval, %zu runs)",
		row->label, ds->v[b].name, mean, mean - half, mean + half, t, 100 * level, n);
	if (row->n[a])
		appendf(r, ", %s %.3g", ds->v[a].name, stats__mean(ds_vals(ds, row, a), row->n[a]));
	if (r->state == CLAIM_INCONCLUSIVE) {
		size_t more =
		    more_blocks(half / t, n, level, fabs(c->direction * (mean / t - 1) - m));

		appendf(r, more ? "; ~%zu more blocks would decide it" : "; more blocks needed",
			more);
	}
}

/* Claim c on pair (a classic, b MGLRU): its precondition, then its primary signal. */
void claims_decide_pair(const struct claim *c, const struct analysis *an, size_t a, size_t b,
			double level, struct claim_result *r)
{
	const struct dataset *ds = an->ds;
	const struct ds_row *row;
	char ev[192];

	if (!precondition(c, ds, a, b, r, ev, sizeof(ev)))
		return;
	row = claims_find_row(ds, c->signals[0]);
	if (!row) { /* e.g. no cost per page where nothing was reclaimed: not a test */
		no_cmp(r, CLAIM_NOT_TESTED);
		appendf(r, "%s not measured: run %s", c->signals[0], c->plans);
	} else if (c->rule == CLAIM_ABSOLUTE) {
		test_absolute(c, ds, a, b, row, an->o.min_effect, level, r);
	} else {
		test_direction(c, ds, a, b, row, an->o.min_effect, level, r);
	}
	/* the numbers first (a scoreboard line may show no more), then what engaged it */
	if (*ev)
		appendf(r, "; %s", ev);
}

static void decide_test(const struct claim *c, const struct analysis *an, const char *kernel,
			double level, struct claim_result *r)
{
	const struct dataset *ds = an->ds;
	size_t a, b;

	if (!claims_find_pair(c, ds, kernel, &a, &b)) {
		no_cmp(r, CLAIM_NOT_TESTED);
		snprintf(r->why, sizeof(r->why),
			 "no classic/MGLRU pair differing in the LRU alone at %s: run %s",
			 c->at == CLAIM_AT_RAISED ? "a raised vm.swappiness (both LRUs)" :
						    "vm.swappiness 60",
			 c->plans);
		return;
	}
	if (c->gate) {
		struct claim_result g;

		claims__decide(claims__find(c->gate), an, ds->v[a].kernel, level, &g);
		if (g.state != CLAIM_SUPPORTED) {
			no_cmp(r, CLAIM_NOT_TESTED);
			snprintf(r->why, sizeof(r->why),
				 "moot: %s (the imbalance it is about) is %s here", c->gate,
				 claim_state_name(g.state));
			return;
		}
	}
	claims_decide_pair(c, an, a, b, level, r);
}

double claims_level(const struct analysis *an, double level)
{
	return level > 0 && level < 1 ? level : 1 - an->o.alpha / (double)test_claims();
}

/*
 * Whether a verdict family is a real workload's (C7): a plan workload whose
 * catalogue entry names C7, not a probe built to show one mechanism; with
 * no plan to tell, every workload family.
 */
static bool real_workload(const struct dataset *ds, const char *family)
{
	if (!strcmp(family, "system") || !strncmp(family, "memcg ", 6))
		return false;
	if (!ds->plan)
		return true;
	for (size_t i = 0; i < ds->plan->nworkloads; i++) {
		const struct plan_workload *w = &ds->plan->workloads[i];

		if (!strcmp(w->name, family))
			return w->def && w->def->claims && strstr(w->def->claims, "C7");
	}
	return false;
}

/* +1: MGLRU did better than classic on this key comparison, -1: worse, 0: neither. */
static int mglru_effect(const struct analysis *an, const struct comparison *cmp)
{
	int o = claims__orientation(an->ds, cmp->cand);

	if (cmp->verdict == VERDICT_IMPROVEMENT)
		return o;
	if (cmp->verdict == VERDICT_REGRESSION)
		return -o;
	return 0;
}

/* Whether comparison i is a real workload's key metric across a pair on kernel. */
static bool c7_counts(const struct analysis *an, size_t i, const char *kernel)
{
	const struct comparison *cmp = &an->c[i];
	const struct dataset *ds = an->ds;

	return cmp->key && claims__orientation(ds, cmp->cand) &&
	       claims_on_kernel(&ds->v[cmp->cand], kernel) && cmp->verdict != VERDICT_NO_DATA &&
	       cmp->verdict != VERDICT_TOO_FEW && real_workload(ds, ds->rows[cmp->row].family);
}

static void decide_mixed(const struct claim *c, const struct analysis *an, const char *kernel,
			 struct claim_result *r)
{
	size_t worse = 0, better = 0, undecided = 0, keys = 0;
	const char *wl_worse = NULL, *wl_better = NULL;

	no_cmp(r, CLAIM_INCONCLUSIVE);
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *cmp = &an->c[i];
		const char *fam = an->ds->rows[cmp->row].family;
		int e;

		if (!c7_counts(an, i, kernel))
			continue;
		keys++;
		e = mglru_effect(an, cmp);
		if (e < 0) {
			worse++;
			if (!wl_worse || (wl_better && !strcmp(wl_better, wl_worse)))
				wl_worse = fam;
		} else if (e > 0) {
			better++;
			if (!wl_better || (wl_worse && !strcmp(wl_better, wl_worse)))
				wl_better = fam;
		} else if (cmp->decision != DECISION_WITHIN && cmp->decision != DECISION_BEYOND) {
			undecided++;
		}
	}
	if (!keys) {
		r->state = CLAIM_NOT_TESTED;
		snprintf(r->why, sizeof(r->why),
			 "no real workload's key metric on a classic/MGLRU pair (probes are no "
			 "workloads): run %s", c->plans);
	} else if (wl_worse && wl_better && strcmp(wl_worse, wl_better)) {
		r->state = CLAIM_SUPPORTED;
		snprintf(r->why, sizeof(r->why),
			 "%zu key regressions (e.g. %s), %zu gains (e.g. %s) of %zu real-workload "
			 "key metrics", worse, wl_worse, better, wl_better, keys);
	} else if (!undecided) {
		r->state = CLAIM_CONTRADICTED;
		snprintf(r->why, sizeof(r->why),
			 "all %zu real-workload key metrics decided: %zu regressions, %zu gains, "
			 "%zu equivalent within +-min effect; no workload regressed while another "
			 "gained", keys, worse, better, keys - worse - better);
	} else {
		snprintf(
		    r->why, sizeof(r->why),
		    "%zu regressions, %zu gains, %zu undecided of %zu real-workload key metrics: "
		    "run %s with more blocks",
		    worse, better, undecided, keys, c->plans);
	}
}

/* The release a kernel column's variants ran ("6.1.0-57-cloud-amd64"), or its text. */
static const char *kernel_release(const struct dataset *ds, const char *kernel)
{
	for (size_t v = 0; v < ds->nv; v++)
		if (claims_on_kernel(&ds->v[v], kernel) && ds->v[v].release && *ds->v[v].release)
			return ds->v[v].release;
	for (size_t v = 0; v < ds->nv; v++)
		if (claims_on_kernel(&ds->v[v], kernel))
			return ds->v[v].kernel;
	return NULL;
}

static void decide_comparability(const struct analysis *an, const char *kernel,
				 struct claim_result *r)
{
	const char *rel = kernel_release(an->ds, kernel);
	size_t nc = 0, measured = 0;
	const char *first = NULL;

	no_cmp(r, CLAIM_INCONCLUSIVE);
	if (!metric__comparability_known(rel)) {
		r->state = CLAIM_NOT_TESTED;
		snprintf(r->why, sizeof(r->why),
			 "unknown: kernel %s is not in the comparability table (metrics.c)",
			 rel ? rel : "?");
		return;
	}
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *cmp = &an->c[i];

		if (!claims__orientation(an->ds, cmp->cand) ||
		    !claims_on_kernel(&an->ds->v[cmp->cand], kernel) ||
		    cmp->verdict == VERDICT_NO_DATA)
			continue;
		measured++;
		if (cmp->verdict == VERDICT_NOT_COMPARABLE) {
			nc++;
			if (!first)
				first = an->ds->rows[cmp->row].label;
		}
	}
	if (nc) {
		r->state = CLAIM_SUPPORTED;
		snprintf(r->why, sizeof(r->why),
			 "%zu of %zu metrics not comparable across LRUs on %s (e.g. %s)", nc,
			 measured, rel, first);
	} else if (measured) {
		r->state = CLAIM_CONTRADICTED;
		snprintf(r->why, sizeof(r->why),
			 "all %zu measured metrics comparable across LRUs on %s", measured, rel);
	} else {
		r->state = CLAIM_NOT_TESTED;
		snprintf(r->why, sizeof(r->why),
			 "no classic/MGLRU pair: run any plan with both LRUs");
	}
}

void claims__decide(const struct claim *c, const struct analysis *an, const char *kernel,
		    double level, struct claim_result *r)
{
	memset(r, 0, sizeof(*r));
	r->change = r->ci_lo = r->ci_hi = NAN;
	level = claims_level(an, level);
	switch (c->rule) {
	case CLAIM_DIRECTION:
	case CLAIM_ABSOLUTE:
		decide_test(c, an, kernel, level, r);
		break;
	case CLAIM_MIXED:
		decide_mixed(c, an, kernel, r);
		break;
	case CLAIM_COMPARABILITY:
		decide_comparability(an, kernel, r);
		break;
	}
}

/* Counts of each state among r[0..n). */
static void tally(const struct claim_result *r, size_t n, size_t cnt[CLAIM_KERNEL_DEPENDENT + 1])
{
	memset(cnt, 0, sizeof(size_t) * (CLAIM_KERNEL_DEPENDENT + 1));
	for (size_t i = 0; i < n; i++)
		cnt[r[i].state]++;
}

/* The first of r[0..n) in state s with numbers, else the first in state s. */
static const struct claim_result *first_in(const struct claim_result *r, size_t n,
					   enum claim_state s)
{
	const struct claim_result *f = NULL;

	for (size_t i = 0; i < n; i++)
		if (r[i].state == s) {
			if (r[i].has_cmp)
				return &r[i];
			if (!f)
				f = &r[i];
		}
	return f;
}

/* The state of many results: precedence, once both sides are settled. */
static enum claim_state settle(const size_t *cnt, enum claim_state both)
{
	if (cnt[CLAIM_SUPPORTED] && cnt[CLAIM_CONTRADICTED])
		return both;
	if (cnt[CLAIM_KERNEL_DEPENDENT])
		return CLAIM_KERNEL_DEPENDENT;
	if (cnt[CLAIM_SUPPORTED])
		return CLAIM_SUPPORTED;
	if (cnt[CLAIM_CONTRADICTED])
		return CLAIM_CONTRADICTED;
	if (cnt[CLAIM_INCONCLUSIVE])
		return CLAIM_INCONCLUSIVE;
	return CLAIM_NOT_TESTED;
}

static void merge(const struct claim_result *r, size_t n, enum claim_state both,
		  const char *what, struct claim_result *ret)
{
	size_t cnt[CLAIM_KERNEL_DEPENDENT + 1];
	enum claim_state s;
	const struct claim_result *f;

	memset(ret, 0, sizeof(*ret));
	no_cmp(ret, CLAIM_NOT_TESTED);
	if (!n)
		return;
	tally(r, n, cnt);
	s = settle(cnt, both);
	if (s == both && cnt[CLAIM_SUPPORTED] && cnt[CLAIM_CONTRADICTED]) {
		const struct claim_result *sup = first_in(r, n, CLAIM_SUPPORTED);

		*ret = *sup;
		ret->state = s;
		snprintf(ret->why, sizeof(ret->why), "%zu %s support it, %zu contradict it: %.200s",
			 cnt[CLAIM_SUPPORTED], what, cnt[CLAIM_CONTRADICTED], sup->why);
		return;
	}
	f = first_in(r, n, s);
	*ret = *f;
}

void claims__merge_sources(const struct claim_result *r, size_t n, struct claim_result *ret)
{
	merge(r, n, CLAIM_INCONCLUSIVE, "databases", ret);
}

void claims__merge_kernels(const struct claim_result *r, size_t n, struct claim_result *ret)
{
	merge(r, n, CLAIM_KERNEL_DEPENDENT, "kernels", ret);
}

/* Whether source an has a classic/MGLRU pair on kernel. */
static bool kernel_paired(const struct dataset *ds, const char *kernel)
{
	for (size_t a = 0; a < ds->nv; a++)
		for (size_t b = 0; b < ds->nv; b++)
			if (claims_on_kernel(&ds->v[a], kernel) && claims__pair_ok(ds, a, b))
				return true;
	return false;
}

/* The kernels on the board: every kernel column with a pair, each once, in source order. */
static void board_kernels(const struct analysis *const *an, size_t nsrc, struct claims_board *b)
{
	size_t cap = 0;

	for (size_t s = 0; s < nsrc; s++)
		cap += an[s]->ds->nv;
	b->kernel = xcalloc(cap ? cap : 1, sizeof(char *));
	for (size_t s = 0; s < nsrc; s++) {
		const struct dataset *ds = an[s]->ds;

		for (size_t v = 0; v < ds->nv; v++) {
			bool seen = false;

			for (size_t k = 0; k < b->nk; k++)
				seen |= !strcmp(b->kernel[k], ds->v[v].kernel);
			if (!seen && kernel_paired(ds, ds->v[v].kernel))
				b->kernel[b->nk++] = xstrdup(ds->v[v].kernel);
		}
	}
}

/*
 * The analysis whose baseline is the classic side of kernel's pair (C7 and
 * C8 read key verdicts against it): an itself when its baseline is, else
 * one against that variant (*ret_own set, freed by the caller); NULL none.
 */
static const struct analysis *against_classic(const struct analysis *an, const char *kernel,
					      struct analysis **ret_own)
{
	const struct claim *c7 = claims__find("C7");
	size_t a, b;

	*ret_own = NULL;
	if (!claims_find_pair(c7, an->ds, kernel, &a, &b))
		return NULL;
	if (a == an->ds->base)
		return an;
	if (analysis__against(an->ds, a, &an->o, ret_own) < 0)
		return NULL;
	return *ret_own;
}

void claims__board(const struct analysis *const *an, size_t nsrc, struct claims_board *ret)
{
	const struct claim *tab = claims__table(&ret->n);
	size_t n = ret->n;

	ret->nsrc = nsrc;
	ret->nk = 0;
	board_kernels(an, nsrc, ret);
	ret->tests = test_claims() * (ret->nk ? ret->nk : 1);
	ret->level = 1 - (nsrc ? an[0]->o.alpha : 0.05) / (double)ret->tests;
	ret->cell = xcalloc(nsrc * (ret->nk ? ret->nk : 1) * n, sizeof(*ret->cell));
	ret->by_kernel = xcalloc((ret->nk ? ret->nk : 1) * n, sizeof(*ret->by_kernel));
	ret->per = xcalloc((nsrc ? nsrc : 1) * n, sizeof(*ret->per));
	ret->merged = xcalloc(n, sizeof(*ret->merged));
	ret->from = xcalloc(n, sizeof(*ret->from));
	ret->measured = false;
	for (size_t s = 0; s < nsrc; s++) {
		for (size_t k = 0; k < ret->nk; k++) {
			_cleanup_(analysis__freep) struct analysis *own = NULL;
			const struct analysis *ak = NULL;
			bool here = kernel_paired(an[s]->ds, ret->kernel[k]);

			for (size_t c = 0; c < n; c++) {
				struct claim_result *r = &ret->cell[(s * ret->nk + k) * n + c];

				if (!here) {
					no_cmp(r, CLAIM_NOT_TESTED);
					snprintf(r->why, sizeof(r->why), "%s", CLAIM_NOT_RUN);
					continue;
				}
				if (tab[c].rule == CLAIM_MIXED ||
				    tab[c].rule == CLAIM_COMPARABILITY) {
					if (!ak)
						ak = against_classic(an[s], ret->kernel[k], &own);
					claims__decide(&tab[c], ak ? ak : an[s], ret->kernel[k],
						       ret->level, r);
				} else {
					claims__decide(&tab[c], an[s], ret->kernel[k], ret->level,
						       r);
				}
				ret->measured |= r->has_cmp;
			}
		}
	}
	for (size_t c = 0; c < n; c++) {
		_cleanup_free_ struct claim_result *tmp =
			xcalloc((nsrc > ret->nk ? nsrc : ret->nk) + 1, sizeof(*tmp));
		int best = 3;

		for (size_t k = 0; k < ret->nk; k++) {
			for (size_t s = 0; s < nsrc; s++)
				tmp[s] = ret->cell[(s * ret->nk + k) * n + c];
			claims__merge_sources(tmp, nsrc, &ret->by_kernel[k * n + c]);
		}
		for (size_t s = 0; s < nsrc; s++) {
			for (size_t k = 0; k < ret->nk; k++)
				tmp[k] = ret->cell[(s * ret->nk + k) * n + c];
			claims__merge_kernels(tmp, ret->nk, &ret->per[s * n + c]);
			if (!ret->nk) {
				no_cmp(&ret->per[s * n + c], CLAIM_NOT_TESTED);
				snprintf(ret->per[s * n + c].why, sizeof(ret->per[s * n + c].why),
					 "no classic/MGLRU pair differing in the LRU alone: run %s",
					 tab[c].plans);
			}
		}
		for (size_t k = 0; k < ret->nk; k++)
			tmp[k] = ret->by_kernel[k * n + c];
		claims__merge_kernels(tmp, ret->nk, &ret->merged[c]);
		if (!ret->nk)
			ret->merged[c] = nsrc ? ret->per[c] : ret->merged[c];
		for (size_t s = 0; s < nsrc; s++) {
			const struct claim_result *r = &ret->per[s * n + c];
			int rank = r->state == ret->merged[c].state && r->has_cmp ? 0 :
				   r->has_cmp					 ? 1 :
										   2;

			if (rank < best)
				best = rank, ret->from[c] = s;
		}
		if (nsrc) { /* the merged result's comparison is its source's */
			const struct claim_result *f = &ret->per[ret->from[c] * n + c];

			ret->merged[c].has_cmp = f->has_cmp;
			ret->merged[c].row = f->row;
			ret->merged[c].base = f->base;
			ret->merged[c].cand = f->cand;
		}
	}
}

void claims_board__clear(struct claims_board *b)
{
	for (size_t k = 0; k < b->nk; k++)
		free(b->kernel[k]);
	free(b->kernel);
	free(b->cell);
	free(b->by_kernel);
	free(b->per);
	free(b->merged);
	free(b->from);
	memset(b, 0, sizeof(*b));
}
