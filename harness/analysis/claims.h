/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Claims of the MGLRU debate (C1-C8 of DESIGN.md) and the rules that
 * decide, from the verdict layer's analysis, whether a campaign supports
 * or contradicts each, or cannot tell.
 *
 * A directional claim names signals (metric names) and the direction the
 * claim predicts for MGLRU (candidate) against classic (baseline):
 *   supported     a signal's interval lies wholly beyond min effect in the
 *                 claimed direction (decision "beyond");
 *   contradicted  wholly beyond it the other way, or wholly within
 *                 +-min effect ("no effect");
 *   inconclusive  otherwise, with the blocks that would likely decide it,
 *                 or the plan that measures the signal when none did.
 * C2 reads only the MGLRU variants at the highest vm.swappiness measured,
 * above the classic side's (60, the kernel's default, when a variant does
 * not set it): "raising swappiness does not fix it".
 * C7 (mixed results) is supported when one workload's key metrics regress
 * and another's improve, contradicted when every key metric is decided
 * and all point one way, else inconclusive.
 * C8 (metrics differ) is supported when the comparability table marks a
 * measured metric not comparable across LRUs, contradicted when every
 * measured metric is comparable.
 */
#ifndef LRUBENCH_CLAIMS_H
#define LRUBENCH_CLAIMS_H

#include "verdict.h"

enum claim_rule {
	CLAIM_DIRECTION,     /* signals move the claimed way */
	CLAIM_MIXED,	     /* C7: regressions for some workloads, gains for others */
	CLAIM_COMPARABILITY, /* C8: the comparability marks */
};

enum claim_state {
	CLAIM_INCONCLUSIVE,
	CLAIM_SUPPORTED,
	CLAIM_CONTRADICTED,
};

#define CLAIM_MAX_SIGNALS 4

struct claim {
	const char *id;	      /* "C1" */
	const char *title;    /* a few words, for a scoreboard line */
	const char *sentence; /* the claim in one sentence */
	const char *plans;    /* the plans that test it */
	const char *signals[CLAIM_MAX_SIGNALS]; /* metric names, NULL-terminated */
	int direction;	      /* CLAIM_DIRECTION: -1 MGLRU lower, +1 higher */
	enum claim_rule rule;
	const char *plot;     /* the key plot: the first of a report's plots whose name holds this */
	bool raised_swappiness; /* only MGLRU at the highest vm.swappiness, above classic's */
};

struct claim_result {
	enum claim_state state;
	char why[256]; /* the deciding numbers, or what more data would decide it */
	double change, ci_lo, ci_hi; /* of the deciding comparison; NAN none */
	bool has_cmp;	  /* a comparison decided (or leans): its row and candidate */
	size_t row, cand; /* in the analysis's dataset */
};

/*
 * The claims over several campaigns: each decided on each analysis, then
 * merged (claims__merge), with for every claim the source whose result
 * stands for the merged one (its numbers, its plot): the first whose
 * verdict is the merged verdict and has numbers, else the first with
 * numbers, else the first. A merged result's row and cand are in its
 * source's dataset.
 */
struct claims_board {
	size_t n, nsrc;
	struct claim_result *merged; /* [n] */
	struct claim_result *per;    /* [nsrc * n]: source s, claim c at s * n + c */
	size_t *from;		     /* [n] */
	bool measured; /* a claim has numbers from a classic/MGLRU comparison */
};

/* The table, in order C1..C8. */
const struct claim *claims__table(size_t *ret_n);
const struct claim *claims__find(const char *id);
/* Decide claim c on analysis an; never fails (no data is inconclusive). */
void claims__decide(const struct claim *c, const struct analysis *an, struct claim_result *ret);
/* Merge b into a (several databases): supported and contradicted together is inconclusive. */
void claims__merge(struct claim_result *a, const struct claim_result *b);
const char *claim_state_name(enum claim_state s);
/* +1 when variant cand is MGLRU against a classic baseline, -1 the reverse, 0 the same LRU. */
int claims__orientation(const struct dataset *ds, size_t cand);
/* Whether row is one of c's signals: it names the row's metric ("kswapd:cpu_ns") or label
 * ("mix:anon_steal_pct"). */
bool claims__is_signal(const struct claim *c, const struct ds_row *row);
/* Decide every claim on each of an[0..nsrc-1] and merge; ret cleared with claims_board__clear(). */
void claims__board(const struct analysis *const *an, size_t nsrc, struct claims_board *ret);
void claims_board__clear(struct claims_board *b);

#endif
