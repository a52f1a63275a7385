/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise floor: an A/A campaign ('lrubench noise PLAN') runs one variant
 * of a plan against itself, interleaved, at the plan's repetitions. Per
 * metric it measures the run-to-run coefficient of variation (the noise
 * floor) and the minimum detectable effect: the smallest true change a
 * two-sided test at alpha 0.05 finds with power 0.8 at that many runs.
 *
 * The figures live in the campaign database, in a table its writer creates:
 *   noise(label PK, n, cv, change, mde, source, blocks, pair_sd, mde_paired)
 * label is the metric row ("anon:throughput", "memory.stat:pgscan[wl]"),
 * change the A/A relative change observed, source the A/A campaign's name;
 * mde is the unpaired (Welch) figure at n runs a side, alpha 0.05; pair_sd
 * the spread of the block differences relative to the mean, and mde_paired
 * what the verdicts' paired rule detects over those blocks at the level of
 * a key metric among 3 key tests at its last look (NOISE_KEY_LEVEL), solved on
 * the non-central t (stats__paired_mde).
 * An A/A campaign stores its own when it ends (noise__update); 'lrubench
 * report DB --noise AA.db' copies them into another campaign's database,
 * whose reports then quote them. The table and its reading and writing are
 * the store's (store-noise.h); a report never writes it.
 */
#ifndef LRUBENCH_NOISE_H
#define LRUBENCH_NOISE_H

#include "store-noise.h"

#include <stdbool.h>
#include <stddef.h>

struct analysis;
struct plan;
struct store;

#define NOISE_ALPHA 0.05
#define NOISE_POWER 0.8
/*
 * The level of a key test at the last look of the quick plan's design (3 to
 * 6 blocks) in a campaign of 3 key tests: 1 - the nominal level of the look
 * at 6 blocks for alpha 0.05 / 3 spent over the looks (verdict.h).
 */
double noise__key_level(void);
#define NOISE_KEY_LEVEL (noise__key_level())

/*
 * Turn plan into its A/A form: only the named variant (NULL: the baseline),
 * twice, as NAME-a (the baseline) and NAME-b. -ENOENT with *ret_err if the
 * variant is not in the plan.
 */
int noise__plan(struct plan *p, const char *variant, char **ret_err);

/* The noise figures of an A/A analysis: the baseline against variant cand, its twin. */
int noise__compute(const struct analysis *an, size_t cand, struct noise **ret);
/*
 * The figures of an A/A campaign's analysis an (two variants, the twins) as
 * the store keeps them (noise__store, then noise__load: no rows is -ENOENT,
 * a non-finite figure NAN); what its report quotes, computed in memory.
 * -ENOENT when an is not of two variants.
 */
int noise__aa(const struct analysis *an, struct noise **ret);
/* Whether st is an A/A campaign ('lrubench noise': meta noise.variant). */
bool noise__is_aa(struct store *st);
/*
 * When an A/A campaign ends: if st is one, analyse it with the default
 * options and store its figures (replacing any). 0 when st is not one.
 */
int noise__update(struct store *st);
const struct noise_row *noise__find(const struct noise *nz, const char *label);
/* The minimum detectable effect of a row at n runs per side (rescaled from its cv). */
double noise__mde_at(const struct noise_row *r, size_t n);
/* What the paired rule detects over blocks at the given level (verdict.h): NAN if unknown. */
double noise__mde_paired_at(const struct noise_row *r, size_t blocks, double level);

#endif
