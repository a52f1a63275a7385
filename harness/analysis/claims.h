/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Claims of the MGLRU debate (C1-C8 of DESIGN.md) and the rules that
 * decide, from a campaign's data, whether it supports or contradicts each,
 * cannot tell, or never engaged the mechanism the claim is about.
 *
 * Pairs. A claim is only ever judged between two variants that differ in
 * the LRU alone: a classic variant and an MGLRU variant on the same kernel
 * (the same kernel column: release and image) whose knobs are otherwise
 * identical (claims__pair_ok). mglru-swappiness0 against classic at 60,
 * or MGLRU on 6.12 against classic on 6.1, is no pair. Which LRU a variant
 * ran is ds_lru_mglru() (dataset.h), the one function for it. C1 and C3-C8
 * read the pair at the kernel's default vm.swappiness (60); C2 the pair at
 * the highest swappiness above it that both LRUs ran.
 *
 * Every test-decided claim (CLAIM_DIRECTION, CLAIM_ABSOLUTE) names, before
 * any data:
 *   its primary signal  signals[0], the only one that decides (the others
 *                       are drawn beside it and never decide);
 *   its precondition    pre: a row whose mean must reach pre_min on both
 *                       sides of the pair, or the scenario did not engage
 *                       the mechanism and the verdict is "not tested",
 *                       never "contradicted";
 *   its threshold       the minimum effect (min_effect of the analysis).
 * The primary signal's interval is computed here from the paired blocks at
 * level 1 - alpha / K, K the test-decided claims times the kernels on the
 * board (Bonferroni over every primary signal the board reads): relative
 * (Fieller, MGLRU over classic) where both paired means are clear of zero,
 * else the difference over the larger mean (either side near zero, the
 * same rule whichever side it is). For the claimed direction d and minimum
 * effect m:
 *   supported     the interval lies wholly beyond m in direction d;
 *   contradicted  it lies wholly short of m in direction d (the claimed
 *                 effect of at least m is excluded: a one-sided test at the
 *                 same level, the TOST half);
 *   inconclusive  otherwise, with the blocks that would likely decide it.
 * CLAIM_ABSOLUTE (C3, "more than asked") judges the MGLRU side alone
 * against target: its mean's t interval wholly above target x (1 + m) is
 * supported, wholly below it contradicted; classic's mean is shown beside.
 * A claim with a gate (C2 on C1) is "not tested" unless its gate is
 * supported on the same kernel in the same database.
 * C7 (mixed results) reads the key verdicts of real workloads only (the
 * catalogue's C7 workloads, not probes), over every classic/MGLRU pair on
 * the kernel: supported when one workload regresses under MGLRU and
 * another gains, contradicted when every real key metric is decided
 * (beyond or within +-min effect, the equivalence half included) and no
 * such pair exists, not tested without a real workload.
 * C8 (metrics differ) is supported when the comparability table marks a
 * measured metric not comparable on the kernel, contradicted when every
 * measured metric is comparable, not tested ("unknown") on a kernel the
 * table does not cover.
 *
 * The board is claim x kernel. One kernel's results from several databases
 * merge order-independently: supported and contradicted together are
 * inconclusive (the databases disagree). A claim's overall verdict over
 * kernels is kernel-dependent when one kernel supports it and another
 * contradicts it.
 */
#ifndef LRUBENCH_CLAIMS_H
#define LRUBENCH_CLAIMS_H

#include "verdict.h"

enum claim_rule {
	CLAIM_DIRECTION,     /* the primary signal moves the claimed way, MGLRU against classic */
	CLAIM_ABSOLUTE,	     /* C3: the MGLRU side against a target value */
	CLAIM_MIXED,	     /* C7: regressions for some workloads, gains for others */
	CLAIM_COMPARABILITY, /* C8: the comparability marks */
};

enum claim_state {
	CLAIM_INCONCLUSIVE,
	CLAIM_SUPPORTED,
	CLAIM_CONTRADICTED,
	CLAIM_NOT_TESTED,	/* the scenario did not engage the mechanism, or no pair measured it */
	CLAIM_KERNEL_DEPENDENT, /* over kernels: supported on one, contradicted on another */
};

/* Which pair of a kernel a claim reads. */
enum claim_knobs {
	CLAIM_AT_DEFAULT,     /* vm.swappiness at the kernel's default (60) */
	CLAIM_AT_RAISED,      /* the highest vm.swappiness above 60 both LRUs ran */
};

#define CLAIM_MAX_SIGNALS 4
/* The why of a board cell whose source has no pair on that kernel. */
#define CLAIM_NOT_RUN "not run on this kernel"
/* The kernel default of vm.swappiness, for variants that do not set it. */
#define CLAIM_DEFAULT_SWAPPINESS 60

struct claim {
	const char *id;	      /* "C1" */
	const char *title;    /* a few words, for a scoreboard line */
	const char *sentence; /* the claim in one sentence */
	const char *plans;    /* the plans that test it */
	/* signals[0] decides (the primary signal); the rest are drawn beside it; NULL-terminated */
	const char *signals[CLAIM_MAX_SIGNALS];
	int direction;	      /* -1 MGLRU lower, +1 higher (CLAIM_ABSOLUTE: than target) */
	enum claim_rule rule;
	double target;	      /* CLAIM_ABSOLUTE: the value the claim is judged against */
	const char *pre;      /* precondition row label, or NULL */
	double pre_min;	      /* its mean on both sides must be at least this */
	const char *pre_what; /* what the precondition shows, in words */
	const char *gate;     /* a claim that must be supported in the same data first, or NULL */
	enum claim_knobs at;
	const char *plot;     /* the key plot: the first of a report's plots whose name holds this */
	bool by_mechanism;    /* about MGLRU's cost or placement: shown per lru_gen/enabled mode */
};

struct claim_result {
	enum claim_state state;
	char why[320];	 /* the precondition evidence and the deciding numbers, or what would decide */
	double change, ci_lo, ci_hi; /* of the primary signal, MGLRU against classic; NAN none */
	bool has_cmp;	  /* the primary signal was tested on a pair: row, base and cand say which */
	size_t row;	  /* in the dataset */
	size_t base, cand; /* the pair: the classic and the MGLRU variant */
};

/* Claim c on one pair of its breakdown by mechanism. */
struct claim_part {
	unsigned enabled;     /* the MGLRU side's lru_gen/enabled (lru = 1, 3, 7, ...) */
	const char *knobs;    /* the pair's knobs beyond the LRU (in the dataset): "" none */
	struct claim_result r; /* base and cand: the pair */
};

#define CLAIM_CURVE_MAX 8
/* A CLAIM_AT_RAISED claim's primary signal over vm.swappiness, per LRU. */
struct claim_curve {
	const struct ds_row *row;	  /* the primary signal */
	size_t np;			  /* swappiness values with a pair, ascending */
	int swappiness[CLAIM_CURVE_MAX];
	size_t var[2][CLAIM_CURVE_MAX];	  /* [0] classic, [1] MGLRU: the variant at each point */
	double mean[2][CLAIM_CURVE_MAX];  /* its mean over the blocks of the slopes */
	/* least-squares slope per 100 of swappiness, per block, then its t interval at level;
	 * NAN with fewer than 2 blocks that ran every point */
	double slope[2], lo[2], hi[2];
	size_t blocks;			  /* the blocks that ran every point of both LRUs */
};

/*
 * The curve of claim c (CLAIM_AT_RAISED: C2) on kernel: for each vm.swappiness
 * at which a classic/MGLRU pair differing in the LRU alone ran (the first
 * pair in variant order, the full MGLRU mode), each LRU's mean and, over
 * the blocks that ran every point, each LRU's slope. Descriptive: the
 * claim is decided at its raised point (claims__decide). 0, or -ENOENT
 * when c has no curve there (another rule, fewer than 2 points, no signal).
 */
int claims__curve(const struct claim *c, const struct analysis *an, const char *kernel,
		  double level, struct claim_curve *ret);

/*
 * The claims over several campaigns, claim x kernel: each claim decided on
 * each kernel of each source, then merged over sources per kernel (cell ->
 * by_kernel), over kernels per source (per), and over both (merged). from[c]
 * is the source whose result stands for the merged one (its numbers, its
 * plot): the first whose verdict is the merged verdict and has numbers,
 * else the first with numbers, else the first. A result's row, base and
 * cand are in its source's dataset.
 */
struct claims_board {
	size_t n, nsrc, nk;
	char **kernel;		      /* [nk]: each kernel's release (or kernel text) */
	struct claim_result *cell;    /* [nsrc * nk * n]: source s, kernel k, claim c at (s*nk+k)*n+c */
	struct claim_result *by_kernel; /* [nk * n] */
	struct claim_result *per;     /* [nsrc * n] */
	struct claim_result *merged;  /* [n] */
	size_t *from;		      /* [n] */
	double level;		      /* of the primary signals' intervals */
	size_t tests;		      /* K: the primary signals level is spread over */
	bool measured; /* a claim's primary signal was tested on a classic/MGLRU pair */
};

/* The table, in order C1..C8. */
const struct claim *claims__table(size_t *ret_n);
const struct claim *claims__find(const char *id);
const char *claim_state_name(enum claim_state s);
/*
 * Decide claim c on analysis an, on the kernel whose kernel column is
 * kernel (NULL: the first kernel with a pair), its primary signal's
 * interval at level (0: 1 - alpha / the test-decided claims). Never fails:
 * no data is inconclusive or not tested.
 */
void claims__decide(const struct claim *c, const struct analysis *an, const char *kernel,
		    double level, struct claim_result *ret);
/*
 * Which mechanism carries claim c's effect on kernel, for the claims about
 * MGLRU's placement or cost (by_mechanism: C1, C4, C6). First each MGLRU
 * mode the campaign ran beside the classic side of c's pair (lru = 1 core,
 * 3 + page-table walk, 7 + non-leaf young), in ascending lru_gen/enabled
 * order, against that classic variant; then every other classic/MGLRU pair
 * at the claim's vm.swappiness that sets a knob beyond the LRU (e.g.
 * fault_around_bytes = 4096, no fault-around), in variant order. Each is
 * decided by the claim's own rule, precondition and level, into
 * ret[0..max). Descriptive: the claim's verdict stays its pair's
 * (claims__decide). Returns how many, 0 unless there are two or more.
 */
size_t claims__mechanisms(const struct claim *c, const struct analysis *an, const char *kernel,
			  double level, struct claim_part *ret, size_t max);
/* Whether variants a (classic) and b (MGLRU) differ in the LRU alone. */
bool claims__pair_ok(const struct dataset *ds, size_t a, size_t b);
/* +1 when variant cand is an MGLRU variant paired with a classic baseline, -1 the reverse, 0
 * when the two differ in more than the LRU (or not in it). */
int claims__orientation(const struct dataset *ds, size_t cand);
/* The results of one kernel from several databases, order-independent. */
void claims__merge_sources(const struct claim_result *r, size_t n, struct claim_result *ret);
/* One claim's results on several kernels: kernel-dependent where they disagree. */
void claims__merge_kernels(const struct claim_result *r, size_t n, struct claim_result *ret);
/* Decide every claim on each of an[0..nsrc-1], per kernel, and merge; cleared with
 * claims_board__clear(). */
void claims__board(const struct analysis *const *an, size_t nsrc, struct claims_board *ret);
void claims_board__clear(struct claims_board *b);

#endif
