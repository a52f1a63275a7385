/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the claims rules (claims.c) share with the breakdowns beside them
 * (claims-breakdown.c): which variants pair, how one pair is decided, at
 * which level. Not for other files.
 */
#ifndef LRUBENCH_CLAIMS_PRIV_H
#define LRUBENCH_CLAIMS_PRIV_H

#include "claims.h"

/* The rules a primary signal decides (CLAIM_DIRECTION, CLAIM_ABSOLUTE). */
bool claims_is_test_rule(enum claim_rule r);
/* A variant's vm.swappiness: its knob, else the kernel's default. */
int claims_swappiness(const struct ds_variant *v);
/* Whether v ran on kernel (its kernel column); NULL: any. */
bool claims_on_kernel(const struct ds_variant *v, const char *kernel);
/* The MGLRU variant paired with classic variant a in the fullest mode; false: none. */
bool claims_fullest_pair(const struct dataset *ds, size_t a, size_t *ret_b);
/* The pair claim c reads on kernel (see claims.c); false: none. */
bool claims_find_pair(const struct claim *c, const struct dataset *ds, const char *kernel,
		      size_t *ret_a, size_t *ret_b);
/* A row by label ("mix:anon_steal_pct") or dictionary name; NULL: none. */
const struct ds_row *claims_find_row(const struct dataset *ds, const char *label);
/* Claim c on pair (a classic, b MGLRU) at level: its precondition, then its primary signal. */
void claims_decide_pair(const struct claim *c, const struct analysis *an, size_t a, size_t b,
			double level, struct claim_result *r);
/* level, or 1 - alpha / the test-decided claims when it is not in (0, 1). */
double claims_level(const struct analysis *an, double level);

#endif
