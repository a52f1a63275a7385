/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdicts: every candidate variant against the baseline, per metric.
 *
 * The design is blocked: repetition r of every variant ran in one block of
 * the interleaved order (A B A B ...), so the analysis pairs the baseline's
 * and the candidate's values of each block and drift between blocks cancels.
 * For each row with at least 2 blocks measured on both sides:
 *   change    ratio of the paired means minus 1 (the relative change of
 *             the mean), with Fieller's interval for that ratio;
 *   test      the paired t test of candidate - baseline over the blocks
 *             (it is exactly the interval's question "is the ratio 1?").
 *
 * Families (multiple comparisons). A workload's key results (and the
 * machine's key counters, family "system") form one family per candidate:
 * its tests are at alpha x s / m, m its size (Bonferroni) and s the share
 * of alpha the look may spend: 1 for a fixed number of repetitions; for
 * repetitions = auto, 1/2 at the last look (max blocks) and 1/(2(L - 1))
 * at each of the L - 1 looks before (L = max - min + 1), so that the chance
 * of any false verdict in a family stays below alpha however the adaptive
 * campaign stops (a union bound over looks). Key intervals are at that
 * level. A key metric is then
 *   regression / improvement / changed (no better direction)
 *                 p <= alpha x s / m and |change| >= min effect;
 *   no significant change otherwise.
 * Its decision, for adaptive campaigns: "beyond" when the interval lies
 * wholly beyond +-min effect, "within" when wholly inside it, else "open"
 * (with an estimate of the blocks that would close it).
 * Every other row is exploratory: a 95% interval, Benjamini-Hochberg q over
 * the candidate's exploratory tests, a mark, and no part in the verdict or
 * the exit status.
 * No verdict where fewer than 2 blocks have both sides, and none across LRU
 * implementations for metrics the comparability table (metrics.c) marks.
 */
#ifndef LRUBENCH_VERDICT_H
#define LRUBENCH_VERDICT_H

#include "dataset.h"
#include "stats.h"

enum verdict {
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
	VERDICT_CHANGED,	/* no better direction, but moved beyond the minimum effect */
	VERDICT_NO_CHANGE,
	VERDICT_NO_DIRECTION,	/* exploratory, better = none: numbers only */
	VERDICT_NOT_COMPARABLE, /* across LRUs: numbers and reason only */
	VERDICT_TOO_FEW,	/* fewer than 2 blocks with both sides */
	VERDICT_NO_DATA,	/* a side has no value */
};

/* Where a key metric stands for the stopping rule of an adaptive campaign. */
enum decision {
	DECISION_NONE,	 /* exploratory, or no verdict is possible (n/c, no data) */
	DECISION_BEYOND, /* interval wholly beyond +-min effect */
	DECISION_WITHIN, /* interval wholly within +-min effect */
	DECISION_OPEN,	 /* neither: more blocks needed */
};

/* Exit statuses of run, compare and report (and the README's table). */
#define EXIT_NO_REGRESSION 0
#define EXIT_REGRESSION 1
#define EXIT_ERROR 2
#define EXIT_INCOMPLETE 3 /* failed runs, a variant short of blocks, nothing measured */

/* Blocks with both sides that a verdict needs. */
#define VERDICT_MIN_BLOCKS 2

struct verdict_opts {
	double min_effect; /* relative, 0.05 */
	double alpha;	   /* per family, 0.05 */
	double level;	   /* exploratory intervals, 0.95 */
};
#define VERDICT_OPTS_DEFAULT ((struct verdict_opts){ .min_effect = 0.05, .alpha = 0.05, .level = 0.95 })

struct comparison {
	size_t row, cand; /* dataset row and candidate variant */
	struct stats_summary base, cur; /* every measured run of each side; n = 0: no value */
	size_t pairs;			/* blocks where both sides measured the row */
	double change; /* (mean(cur) - mean(base)) / |mean(base)| over the pairs; +-INFINITY
			  from a zero base; NAN none */
	double ci_lo, ci_hi; /* Fieller interval of change at level; NAN unbounded or none */
	double level;	     /* of the interval: 1 - alpha / (m x looks) for a key metric */
	struct stats_test paired;    /* p NAN when not computed */
	struct stats_test welch, mw; /* unpaired, shown beside it in JSON */
	double q; /* key: p x m x looks (capped at 1); exploratory: Benjamini-Hochberg; NAN none */
	double cliff, hedges; /* NAN when undefined */
	bool key;
	size_t family_size; /* key: m */
	enum verdict verdict;
	enum decision decision;
	size_t more_blocks; /* DECISION_OPEN: blocks more that would likely decide it, 0 unknown */
	const char *reason; /* NOT_COMPARABLE: why (static text) */
};

struct analysis {
	struct dataset *ds;
	struct verdict_opts o;
	struct comparison *c; /* candidate-major: for each candidate, every row */
	size_t nc;
	size_t looks;	  /* looks at the data the design allows */
	size_t tests;	  /* exploratory tests (the Benjamini-Hochberg family) */
	size_t key_tests; /* key metrics tested, over every candidate */
	/* key metrics only: what decides the exit status */
	size_t regressions, improvements, changed, open;
	/* exploratory rows beyond the minimum effect at q <= alpha */
	size_t x_worse, x_better;
};

int analysis__run(struct store *st, const char *baseline, const struct verdict_opts *o,
		  struct analysis **ret);
/* The same on a dataset already loaded (taken over: freed with the analysis). */
int analysis__from(struct dataset *ds, const struct verdict_opts *o, struct analysis **ret);
void analysis__free(struct analysis *a);
void analysis__freep(struct analysis **a);

/*
 * A key test's alpha in words, m the family's size: "0.05/m", or for an
 * adaptive design "0.05/(2m) at the last look (6 blocks), 0.05/(6m) at each
 * of the 3 before" (malloc'd).
 */
char *analysis__key_level_text(const struct analysis *an);
/* Blocks in which both the baseline and candidate cand have a measured run. */
size_t analysis__blocks(const struct analysis *an, size_t cand);
/*
 * Why the campaign cannot be called complete, or NULL: runs lost to
 * failures, a variant with fewer than VERDICT_MIN_BLOCKS blocks, nothing
 * measured (static or malloc'd into *buf, which the caller frees).
 */
const char *analysis__incomplete(const struct analysis *an, char **buf);
/* EXIT_INCOMPLETE, EXIT_REGRESSION or EXIT_NO_REGRESSION. */
int analysis__exit_status(const struct analysis *an);

/* "regression", "improvement", "no significant change", ... */
const char *verdict_name(enum verdict v);
/* A short mark for fixed-width tables: "REGRESSION", "better", "~", "n/c", "n<2", ... */
const char *verdict_mark(enum verdict v);
/* The mark of an exploratory row: "worse?", "better?", "moved?" for what would be a verdict. */
const char *verdict_mark_of(const struct comparison *c);
/* Whether the verdict is one of those a tested metric gets. */
bool verdict_decided(enum verdict v);
/* "beyond", "within", "open", "" */
const char *decision_name(enum decision d);

#endif
