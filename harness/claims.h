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
	const char *sentence; /* the claim in one sentence */
	const char *plans;    /* the plans that test it */
	const char *signals[CLAIM_MAX_SIGNALS]; /* metric names, NULL-terminated */
	int direction;	      /* CLAIM_DIRECTION: -1 MGLRU lower, +1 higher */
	enum claim_rule rule;
	const char *plot;     /* the key plot: the first of a report's plots whose name holds this */
};

struct claim_result {
	enum claim_state state;
	char why[256]; /* the deciding numbers, or what more data would decide it */
	double change, ci_lo, ci_hi; /* of the deciding comparison; NAN none */
};

/* The table, in order C1..C8. */
const struct claim *claims__table(size_t *ret_n);
const struct claim *claims__find(const char *id);
/* Decide claim c on analysis an; never fails (no data is inconclusive). */
void claims__decide(const struct claim *c, const struct analysis *an, struct claim_result *ret);
/* Merge b into a (several databases): supported and contradicted together is inconclusive. */
void claims__merge(struct claim_result *a, const struct claim_result *b);
const char *claim_state_name(enum claim_state s);

#endif
