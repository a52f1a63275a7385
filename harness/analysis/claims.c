// SPDX-License-Identifier: GPL-2.0
/* The claims table and the rules that decide each claim on an analysis. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "metrics.h"
#include "util.h"

static const struct claim claims[] = {
	{ "C1", "anon/file imbalance",
	  "MGLRU under-reclaims anon: anon stays in the youngest generations while file is "
	  "reclaimed",
	  "claims.ini, c1.ini, quick.ini (mix)",
	  { "mix:anon_steal_pct", "memory.stat:pgsteal_anon", "vmstat:pgsteal_anon", NULL }, -1,
	  CLAIM_DIRECTION, "gen-mglru", false },
	{ "C2", "swappiness does not fix it",
	  "swappiness does not fix the anon/file imbalance under MGLRU", "claims.ini, c2.ini",
	  { "mix:anon_steal_pct", NULL }, -1, CLAIM_DIRECTION, "balance", true },
	{ "C3", "memcg over-reclaim",
	  "MGLRU over-reclaims from a memcg (memory.reclaim, memory.high steps)",
	  "claims.ini, c3.ini",
	  { "pr:over_reclaim_pct", "pr:reclaim_ratio", "pr:high_ratio", NULL }, +1,
	  CLAIM_DIRECTION, "bars", false },
	{ "C4", "costly on small devices",
	  "MGLRU costs more CPU on small devices with little reclaimable memory",
	  "claims.ini, c4.ini",
	  { "low:kswapd_ns_per_page", "low:reclaim_ns_per_page", "kswapd:cpu_ns", NULL }, +1,
	  CLAIM_DIRECTION, "bars", false },
	{ "C5", "no foreground notion",
	  "MGLRU has no notion of foreground apps: foreground major faults grow",
	  "claims.ini, c5.ini",
	  { "apps:switch_p90", "apps:fg_majflt", "apps:retouch_majflt", NULL }, +1,
	  CLAIM_DIRECTION, "ts-majfault", false },
	{ "C6", "readahead evicts the hot set",
	  "readahead/fault-around pages in the youngest generation evict the hot set",
	  "claims.ini, c6.ini", { "scan:hot_majflt", "stride:majflt_warm", NULL }, +1,
	  CLAIM_DIRECTION, "bars", false },
	{ "C7", "regressions and gains", "MGLRU regresses some workloads and improves others",
	  "claims.ini, full.ini (more workloads)", { NULL }, 0, CLAIM_MIXED, "heatmap", false },
	{ "C8", "metrics differ", "metrics differ between the two LRUs (not comparable)",
	  "any plan", { NULL }, 0, CLAIM_COMPARABILITY, "bars", false },
};

const struct claim *claims__table(size_t *ret_n)
{
	*ret_n = sizeof(claims) / sizeof(claims[0]);
	return claims;
}

const struct claim *claims__find(const char *id)
{
	for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
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
	case CLAIM_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

static bool is_classic(const char *lru)
{
	return !strcmp(lru, "classic") || !strcmp(lru, "0") || !strcmp(lru, "0x0000");
}

int claims__orientation(const struct dataset *ds, size_t cand)
{
	bool b = is_classic(ds->v[ds->base].lru), c = is_classic(ds->v[cand].lru);
	return b == c ? 0 : b ? +1 : -1;
}

bool claims__is_signal(const struct claim *c, const struct ds_row *row)
{
	for (size_t i = 0; i < CLAIM_MAX_SIGNALS && c->signals[i]; i++)
		if (!strcmp(c->signals[i], row->metric) || !strcmp(c->signals[i], row->label))
			return true;
	return false;
}

static void set(struct claim_result *r, enum claim_state s, const struct dataset *ds,
		const struct comparison *cmp, int o, const char *label)
{
	const char *mg = NULL, *cl = NULL;
	double ch, lo, hi;

	r->state = s;
	r->has_cmp = cmp != NULL;
	if (!cmp) {
		r->change = r->ci_lo = r->ci_hi = NAN;
		return;
	}
	r->row = cmp->row;
	r->cand = cmp->cand;
	/* the variants by name: with several MGLRU variants, which one decided */
	mg = ds->v[o > 0 ? cmp->cand : ds->base].name;
	cl = ds->v[o > 0 ? ds->base : cmp->cand].name;
	/* report the change as MGLRU against classic */
	r->change = o * cmp->change;
	/* the interval in the minimum effect's units: near zero, the difference's (verdict.h) */
	comparison__effect(cmp, &ch, &lo, &hi);
	r->ci_lo = o > 0 ? lo : -hi;
	r->ci_hi = o > 0 ? hi : -lo;
	if (isnan(r->ci_lo) || isnan(r->ci_hi))
		snprintf(r->why, sizeof(r->why),
			 "%s: %s vs %s %+.1f%%, interval unbounded, %zu blocks", label, mg, cl,
			 100 * r->change, cmp->pairs);
	else
		snprintf(r->why, sizeof(r->why),
			 "%s: %s vs %s %+.1f%% [%+.1f%%, %+.1f%%], %zu blocks", label, mg, cl,
			 100 * r->change, 100 * r->ci_lo, 100 * r->ci_hi, cmp->pairs);
}

/* A variant's vm.swappiness: its knob, else the kernel's default. */
static int swappiness(const struct ds_variant *v)
{
	int s = ds_swappiness(v);

	return s < 0 ? 60 : s;
}

/* The MGLRU side's swappiness of comparison cmp (o its orientation), -1 unless above classic's. */
static int raised(const struct dataset *ds, const struct comparison *cmp, int o)
{
	int mg = swappiness(&ds->v[o > 0 ? cmp->cand : ds->base]);
	int cl = swappiness(&ds->v[o > 0 ? ds->base : cmp->cand]);

	return mg > cl ? mg : -1;
}

static void decide_direction(const struct claim *c, const struct analysis *an,
			     struct claim_result *r)
{
	const struct dataset *ds = an->ds;
	const struct comparison *open = NULL, *against = NULL;
	int open_o = 0, against_o = 0, top = -1;
	double m = an->o.min_effect;

	/* C2: the highest swappiness any MGLRU variant ran at, above the classic side's */
	for (size_t i = 0; c->raised_swappiness && i < an->nc; i++) {
		int o = claims__orientation(ds, an->c[i].cand);
		int s = o ? raised(ds, &an->c[i], o) : -1;

		if (claims__is_signal(c, &ds->rows[an->c[i].row]) && s > top)
			top = s;
	}
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *cmp = &an->c[i];
		const struct ds_row *row = &ds->rows[cmp->row];
		int o = claims__orientation(ds, cmp->cand);
		double ch, elo, ehi;

		if (!o || !claims__is_signal(c, row) || cmp->pairs < VERDICT_MIN_BLOCKS ||
		    isnan(cmp->change))
			continue;
		if (c->raised_swappiness && (top < 0 || raised(ds, cmp, o) != top))
			continue;
		/* zero on both sides (kswapd never ran): the signal was not exercised */
		if (cmp->base.max == 0 && cmp->cur.max == 0 && cmp->base.min == 0 && cmp->cur.min == 0)
			continue;
		/* measured, but the baseline's mean not yet known to be nonzero: open */
		if (!comparison__effect(cmp, &ch, &elo, &ehi)) {
			if (!open)
				open = cmp, open_o = o;
			continue;
		}
		double lo = o > 0 ? elo : -ehi, hi = o > 0 ? ehi : -elo;
		if ((c->direction < 0 && hi < -m) || (c->direction > 0 && lo > m)) {
			set(r, CLAIM_SUPPORTED, ds, cmp, o, row->label);
			return;
		}
		if ((c->direction < 0 && lo > m) || (c->direction > 0 && hi < -m) ||
		    (lo > -m && hi < m)) {
			if (!against)
				against = cmp, against_o = o;
		} else if (!open) {
			open = cmp, open_o = o;
		}
	}
	if (against) {
		set(r, CLAIM_CONTRADICTED, ds, against, against_o, ds->rows[against->row].label);
		return;
	}
	if (open) {
		set(r, CLAIM_INCONCLUSIVE, ds, open, open_o, ds->rows[open->row].label);
		size_t l = strlen(r->why);
		if (open->more_blocks)
			snprintf(r->why + l, sizeof(r->why) - l, "; ~%zu more blocks would decide it",
				 open->more_blocks);
		else
			snprintf(r->why + l, sizeof(r->why) - l, "; more blocks needed");
		return;
	}
	set(r, CLAIM_INCONCLUSIVE, ds, NULL, 0, NULL);
	snprintf(r->why, sizeof(r->why),
		 "no classic/MGLRU pair measured %s with >= %d blocks%s: run %s", c->signals[0],
		 VERDICT_MIN_BLOCKS,
		 c->raised_swappiness ? " and MGLRU at a higher vm.swappiness" : "", c->plans);
}

/* +1: MGLRU did better than classic on this key comparison, -1: worse, 0: neither or
 * not a classic/MGLRU pair (a regression of classic against MGLRU is MGLRU's gain). */
static int mglru_effect(const struct analysis *an, const struct comparison *cmp)
{
	int o = claims__orientation(an->ds, cmp->cand);

	if (!cmp->key || !o)
		return 0;
	if (cmp->verdict == VERDICT_IMPROVEMENT)
		return o;
	if (cmp->verdict == VERDICT_REGRESSION)
		return -o;
	return 0;
}

/* A workload MGLRU made worse and another it made better (not the "system" family:
 * the claim is about workloads), the first such pair of key comparisons. */
static bool mixed_pair(const struct analysis *an, const char **ret_worse, const char **ret_better)
{
	for (size_t i = 0; i < an->nc; i++) {
		const char *fw = an->ds->rows[an->c[i].row].family;

		if (mglru_effect(an, &an->c[i]) >= 0 || !strcmp(fw, "system"))
			continue;
		for (size_t j = 0; j < an->nc; j++) {
			const char *fb = an->ds->rows[an->c[j].row].family;

			if (mglru_effect(an, &an->c[j]) > 0 && strcmp(fb, "system") &&
			    strcmp(fb, fw)) {
				*ret_worse = fw;
				*ret_better = fb;
				return true;
			}
		}
	}
	return false;
}

static void decide_mixed(const struct claim *c, const struct analysis *an, struct claim_result *r)
{
	size_t worse = 0, better = 0, undecided = 0, keys = 0;
	const char *wl_worse = NULL, *wl_better = NULL;

	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *cmp = &an->c[i];
		int e = mglru_effect(an, cmp);

		if (!cmp->key || !claims__orientation(an->ds, cmp->cand))
			continue;
		keys++;
		if (e < 0)
			worse++;
		else if (e > 0)
			better++;
		else if (cmp->decision != DECISION_WITHIN && cmp->decision != DECISION_BEYOND)
			undecided++;
	}
	set(r, CLAIM_INCONCLUSIVE, an->ds, NULL, 0, NULL);
	if (mixed_pair(an, &wl_worse, &wl_better)) {
		r->state = CLAIM_SUPPORTED;
		snprintf(r->why, sizeof(r->why), "%zu key regressions (e.g. %s), %zu gains (e.g. %s)",
			 worse, wl_worse, better, wl_better);
	} else if (keys && !undecided) {
		r->state = CLAIM_CONTRADICTED;
		snprintf(r->why, sizeof(r->why),
			 "all %zu key metrics decided: %zu regressions, %zu gains, no workload "
			 "regressed while another gained", keys, worse, better);
	} else {
		snprintf(r->why, sizeof(r->why),
			 "%zu regressions, %zu gains, %zu undecided of %zu key metrics: run %s with more blocks",
			 worse, better, undecided, keys, c->plans);
	}
}

static void decide_comparability(const struct analysis *an, struct claim_result *r)
{
	size_t nc = 0, measured = 0;
	const char *first = NULL;

	set(r, CLAIM_INCONCLUSIVE, an->ds, NULL, 0, NULL);
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *cmp = &an->c[i];
		if (!claims__orientation(an->ds, cmp->cand))
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
		snprintf(r->why, sizeof(r->why), "%zu of %zu metrics not comparable across LRUs (e.g. %s)",
			 nc, measured, first);
	} else if (measured) {
		r->state = CLAIM_CONTRADICTED;
		snprintf(r->why, sizeof(r->why), "all %zu measured metrics comparable across LRUs",
			 measured);
	} else {
		snprintf(r->why, sizeof(r->why), "no classic/MGLRU pair: run any plan with both LRUs");
	}
}

void claims__decide(const struct claim *c, const struct analysis *an, struct claim_result *r)
{
	memset(r, 0, sizeof(*r));
	switch (c->rule) {
	case CLAIM_DIRECTION:
		decide_direction(c, an, r);
		break;
	case CLAIM_MIXED:
		decide_mixed(c, an, r);
		break;
	case CLAIM_COMPARABILITY:
		decide_comparability(an, r);
		break;
	}
}

void claims__merge(struct claim_result *a, const struct claim_result *b)
{
	if (b->state == CLAIM_INCONCLUSIVE || a->state == b->state)
		return;
	if (a->state == CLAIM_INCONCLUSIVE) {
		*a = *b;
		return;
	}
	a->state = CLAIM_INCONCLUSIVE;
	size_t l = strlen(a->why);
	snprintf(a->why + l, sizeof(a->why) - l, "; but another database: %s", b->why);
}

/* Whether source s's result for claim c may stand for the merged one: rank 0 best. */
static int stand_rank(const struct claim_result *merged, const struct claim_result *r)
{
	if (r->state == merged->state && r->has_cmp)
		return 0;
	return r->has_cmp ? 1 : 2;
}

void claims__board(const struct analysis *const *an, size_t nsrc, struct claims_board *ret)
{
	const struct claim *tab = claims__table(&ret->n);

	ret->nsrc = nsrc;
	ret->merged = xcalloc(ret->n, sizeof(*ret->merged));
	ret->per = xcalloc(ret->n * (nsrc ? nsrc : 1), sizeof(*ret->per));
	ret->from = xcalloc(ret->n, sizeof(*ret->from));
	ret->measured = false;
	for (size_t c = 0; c < ret->n; c++) {
		int best = 3;

		for (size_t s = 0; s < nsrc; s++) {
			struct claim_result *r = &ret->per[s * ret->n + c];

			claims__decide(&tab[c], an[s], r);
			if (!s)
				ret->merged[c] = *r;
			else
				claims__merge(&ret->merged[c], r);
			ret->measured |= r->has_cmp;
		}
		for (size_t s = 0; s < nsrc; s++) {
			int k = stand_rank(&ret->merged[c], &ret->per[s * ret->n + c]);

			if (k < best)
				best = k, ret->from[c] = s;
		}
		if (nsrc) { /* the merged result's comparison is its source's */
			const struct claim_result *f = &ret->per[ret->from[c] * ret->n + c];

			ret->merged[c].has_cmp = f->has_cmp;
			ret->merged[c].row = f->row;
			ret->merged[c].cand = f->cand;
		}
	}
}

void claims_board__clear(struct claims_board *b)
{
	free(b->merged);
	free(b->per);
	free(b->from);
	memset(b, 0, sizeof(*b));
}
