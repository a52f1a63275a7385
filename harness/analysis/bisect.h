/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metric bisection: which commit between a good and a bad kernel made a
 * metric worse. `lrubench bisect` (cmd-bisect.c) measures both ends, then
 * drives `git bisect run`; this file is the rule that calls one commit good
 * or bad; the database where every step lands is the store's (bisect-db.h).
 *
 * The good end runs beside every commit measured, interleaved (good, X,
 * good, X, ...), so a host that drifts between steps (load, thermals)
 * cannot pass for a change.
 *
 * The rule. Changes are relative to the good end and oriented so that
 * positive is worse (the metric's better direction decides): for positive
 * values (times, rates, counts) the ratio of the geometric means minus 1,
 *   worse = exp(mean(log x) - mean(log good)) - 1, negated when higher is
 *   better; [lo, hi] Welch's t interval of that log ratio at level, mapped
 *   back (its coverage is the t interval's at 2 to 5 runs a side, where a
 *   percentile bootstrap's was 67% at 2 and 81% at 3 for a nominal 95%:
 *   test-bisect simulates it); p Welch's test of the same difference.
 * With a value at or below zero, the difference of the means over
 * |mean(good)| and its Welch interval instead.
 * The ends must bracket a regression beyond doubt: p < alpha, the bad end's
 * interval lies wholly above zero and its change is at least the minimum
 * effect; otherwise there is nothing to bisect. The threshold is half the
 * bad end's change (the midpoint between the ends). A commit is
 *   bad        when its interval lies wholly above the threshold and
 *              p < alpha against the good end,
 *   good       when its interval lies wholly within +-threshold (an
 *              equivalence margin: shown to be nearer the good end than
 *              the bad, never merely "no significant change"),
 *   undecided  otherwise, a commit much better than the good end included:
 *              the caller measures more repetitions, up to its limit, and
 *              then tells git to skip the commit.
 */
#ifndef LRUBENCH_BISECT_H
#define LRUBENCH_BISECT_H

#include "bisect-db.h"
#include "metrics.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Judge the values x of one commit against the good end's. better must be
 * BETTER_HIGHER or BETTER_LOWER. -EINVAL when a side has fewer than 2
 * values or better has no direction, -EDOM when the good end's mean is 0
 * (no relative change exists).
 */
int bisect_judge(const double *good, size_t ng, const double *x, size_t nx,
		 enum metric_better better, double threshold, const struct bisect_rule *rule,
		 struct bisect_judgement *ret);

/*
 * Whether the bad end's judgement (threshold ignored) brackets a regression.
 * Returns 0 and the threshold for the steps (half its change), or -EDOM
 * with *ret_why saying why not (malloc'd).
 */
int bisect_threshold(const struct bisect_judgement *bad_end, const struct bisect_rule *rule,
		     double *ret_threshold, char **ret_why);

const char *bisect_call_name(enum bisect_call c);

#endif
