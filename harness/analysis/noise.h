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
 * An A/A campaign stores its own; 'lrubench report DB --noise AA.db' copies
 * them into another campaign's database, whose reports then quote them.
 */
#ifndef LRUBENCH_NOISE_H
#define LRUBENCH_NOISE_H

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

struct noise_row {
	char *label;
	size_t n; /* measured runs per side */
	double cv; /* pooled coefficient of variation */
	double change; /* observed A/A change, NAN if none */
	double mde; /* minimum detectable effect at n, relative (Welch, unpaired) */
	size_t blocks; /* blocks with both sides */
	double pair_sd; /* sd of the block differences / |mean|, NAN if unknown */
	double mde_paired; /* the paired rule's, at blocks and NOISE_KEY_LEVEL */
};

struct noise {
	char *source; /* the A/A campaign */
	struct noise_row *rows;
	size_t nrows;
};

/*
 * Turn plan into its A/A form: only the named variant (NULL: the baseline),
 * twice, as NAME-a (the baseline) and NAME-b. -ENOENT with *ret_err if the
 * variant is not in the plan.
 */
int noise__plan(struct plan *p, const char *variant, char **ret_err);

/* The noise figures of an A/A analysis: the baseline against variant cand, its twin. */
int noise__compute(const struct analysis *an, size_t cand, struct noise **ret);
/* Replace the store's noise table with nz. */
int noise__store(struct store *st, const struct noise *nz);
/* -ENOENT if the store holds no noise figures. */
int noise__load(struct store *st, struct noise **ret);
/* If st is an A/A campaign (meta noise.variant), compute and store its figures. */
int noise__update(struct store *st, const struct analysis *an);
const struct noise_row *noise__find(const struct noise *nz, const char *label);
/* The minimum detectable effect of a row at n runs per side (rescaled from its cv). */
double noise__mde_at(const struct noise_row *r, size_t n);
/* What the paired rule detects over blocks at the given level (verdict.h): NAN if unknown. */
double noise__mde_paired_at(const struct noise_row *r, size_t blocks, double level);
void noise__free(struct noise *nz);
void noise__freep(struct noise **nz);

#endif
