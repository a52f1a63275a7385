/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Group-sequential boundaries by alpha spending (Lan and DeMets 1983): how
 * much of a test's alpha an adaptive campaign may spend at each look, so
 * that the chance of a false rejection at whichever look it stops is at
 * most alpha, looks being correlated (each look's blocks hold the last's).
 *
 * Looks at first, first + 1, ..., last blocks; information fraction t =
 * blocks / last. The spending function is Lan-DeMets' O'Brien-Fleming-like
 *   alpha(t) = 2 - 2 Phi(z(1 - alpha / 2) / sqrt(t)),
 * so early looks spend little and the last most of alpha. By the look at k
 * blocks the test may have spent alpha(t_k) in all: its boundary is the
 * one that, under the null, the campaigns that no earlier look stopped
 * cross with probability alpha(t_k) - alpha(t_{k-1}).
 *
 * The verdicts use the paired t test, so the boundaries are those of the t
 * statistics over the looks, and each is given as its nominal two-sided p
 * level at that look's n - 1 degrees of freedom. The usual shortcut (the
 * boundaries of the z statistics of a Gaussian random walk, computed by
 * numerical integration, taken as nominal p levels for the t tests:
 * Jennison and Turnbull 2000, 3.8) is accurate with many degrees of
 * freedom, but not at 2 to 5: at 3..6 blocks and alpha 0.05 the t tests
 * at the z boundaries' levels reject falsely in 5.6% of null campaigns,
 * since t statistics of few blocks are less correlated across looks than
 * the z statistics. So the boundaries come from the t statistics
 * themselves: up to 400000 null campaigns of Gaussian block differences
 * are simulated (the t statistic is free of the differences' mean and
 * spread: one simulation serves every metric), and at each look the
 * boundary is set where the campaigns still running cross in the number
 * the spending function allows, the total spent shrunk by two of its Monte
 * Carlo standard errors so that the rate stays at most alpha. Seeded: the
 * same design gives the same levels on every machine. test-stats checks
 * the rate by an independent simulation; test-verdict-sim through the
 * verdicts.
 */
#ifndef LRUBENCH_SPENDING_H
#define LRUBENCH_SPENDING_H

#include <stddef.h>

/* At most this many looks (a plan's max_repetitions is at most 1000). */
#define SPENDING_MAX_LOOKS 1000

/* Lan-DeMets' O'Brien-Fleming-like spending function at information fraction t. */
double spending__obf(double alpha, double t);

/*
 * The nominal two-sided p levels of the looks at first..last blocks for a
 * paired t test of total (two-sided) level alpha, ret_p[k - first] for the
 * look at k blocks; first == last: ret_p[0] = alpha. About 0.1 s at 4
 * looks, memoised: the same arguments again return at once. -EINVAL unless
 * 2 <= first <= last, last - first < SPENDING_MAX_LOOKS and 0 < alpha < 1;
 * -ENOMEM.
 */
int spending__nominal(double alpha, int first, int last, double *ret_p);

/*
 * The nominal p level of the look at blocks (clamped to first..last, first
 * to 2 at least); NAN on bad arguments.
 */
double spending__nominal_at(double alpha, int first, int last, int blocks);

#endif
