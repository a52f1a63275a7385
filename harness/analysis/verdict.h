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
 * Resolution. Values are quantised (counters by 1, a ratio stored with 3
 * decimals by 0.001: stats__resolution), so zero sample variance is not
 * zero noise: the test and both intervals floor the variance of a paired
 * difference at res^2 / 6 (two uniform rounding errors). Constant but
 * different counts (20 20 20 against 21 21 21) give p = 0.051, not 0;
 * identical values p = 1 and an interval of exactly 0.
 *
 * Scale. Near zero a ratio is the wrong scale (an all-zero side gave the
 * degenerate -100% [-100%, -100%], a zero baseline +inf): where either
 * side's paired mean is within VERDICT_NEAR_ZERO resolution steps of 0, or
 * a side is all zero, the row is on the absolute scale (CHANGE_ABSOLUTE):
 * the difference of the paired means with its t interval, in the row's
 * unit, and no ratio interval (ci NAN). Its verdict uses the same test,
 * and the minimum effect relative to the larger of the two means
 * (comparison__effect).
 *
 * Declared scale (--log-ratio, opts.log_ratio). Each metric kind declares
 * its natural scale by its unit (verdict__declared_scale): strictly
 * positive multiplicative quantities (times, rates, counts: ns, ops/s,
 * pages, events, bytes, ...) the log ratio, where the paired t test on
 * log(candidate / baseline) is the natural test and the change is the
 * ratio of the geometric means minus 1 (CHANGE_LOG, stats__paired_log);
 * others (pct, ratio, x) the relative change above. With the option, rows
 * of a log-ratio kind whose values are all positive use it, rows with a
 * negative value (signed) and rows near zero the absolute difference. The
 * default stays the relative change of the arithmetic means, the rule the
 * simulations (test-verdict-sim) and the README's power table describe.
 *
 * Small n. At n <= VERDICT_FLIP_MAX blocks the exact paired sign-flip test
 * (stats__sign_flip) is computed and reported beside the t test; it does
 * not replace it. It is valid without normality, but its smallest p is
 * 2 / 2^n (0.5 at 2 blocks, 0.25 at 3, 0.031 at 6), so at the sizes a
 * campaign has it could never reject at a key metric's level: a rule on it
 * would be "no change" by construction, not by evidence. The verdict rests
 * on the floored t test, which is valid at any n >= 2 for normal block
 * differences; the sign-flip p shows how far a verdict leans on that
 * assumption.
 *
 * Families and the campaign (multiple comparisons). A workload's key
 * results (and the machine's key counters, family "system") form one family
 * per candidate (family_size m, shown), but the exit status answers one
 * question for the whole campaign, "did anything regress?", so its
 * false-alarm rate (opts.far, --far; alpha unless set: 0.05) is held over every key test of every
 * candidate: each is tested at far / K, K the campaign's key tests
 * (Bonferroni; a campaign of 4 workloads' families of 3 and 2 candidates
 * has K = 24). For a fixed number of repetitions that is the nominal level.
 * For repetitions = auto the campaign looks at the data after each block
 * from min to max blocks, and far / K is spent over those looks by Lan and
 * DeMets' O'Brien-Fleming-like function (spending.h): the look at k blocks
 * rejects at the nominal level of a group-sequential boundary computed for
 * the correlated looks, tiny at the first looks and nearly far / K at the
 * last, so that the chance of any false verdict in the campaign stays at
 * most far however the adaptive campaign stops. Key intervals are at that
 * level (c->level), and q = p x far / nominal. A key metric is then
 *   regression / improvement / changed (no better direction)
 *                 q <= far and |change| >= min effect;
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
	double alpha;	   /* exploratory q threshold, and far unless set: 0.05 */
	double far;	   /* the campaign's false-alarm rate over its key tests; 0: alpha */
	double level;	   /* exploratory intervals, 0.95 */
	bool log_ratio;	   /* each row on its kind's declared scale (CHANGE_LOG where declared) */
};
#define VERDICT_OPTS_DEFAULT ((struct verdict_opts){ .min_effect = 0.05, .alpha = 0.05, .level = 0.95 })

/* Blocks up to which the exact sign-flip test is computed beside the t test. */
#define VERDICT_FLIP_MAX 6
/* A paired mean below this many resolution steps is near zero: absolute scale. */
#define VERDICT_NEAR_ZERO 5

enum change_scale {
	CHANGE_RELATIVE, /* change and Fieller's interval of the ratio */
	CHANGE_ABSOLUTE, /* near zero (or signed, with log_ratio): diff and its t interval */
	CHANGE_LOG,	 /* log_ratio: geometric change, paired t on log ratios */
};

struct comparison {
	size_t row, cand; /* dataset row and candidate variant */
	struct stats_summary base, cur; /* every measured run of each side; n = 0: no value */
	size_t pairs;			/* blocks where both sides measured the row */
	double change; /* (mean(cur) - mean(base)) / |mean(base)| over the pairs; +-INFINITY
			  from a zero base; NAN none */
	double ci_lo, ci_hi; /* Fieller interval of change at level; NAN unbounded or none */
	double level;	     /* of the interval: 1 - the nominal level for a key metric */
	struct stats_test paired;    /* p NAN when not computed */
	struct stats_test welch, mw; /* unpaired, shown beside it in JSON */
	struct stats_test flip; /* exact sign-flip test, pairs <= VERDICT_FLIP_MAX; else p NAN */
	double res; /* the row's resolution (stats__resolution of both sides' values) */
	enum change_scale scale;
	double diff, diff_lo, diff_hi; /* mean(cur - base) over the pairs, t interval at level */
	double ref; /* CHANGE_ABSOLUTE: max(|paired means|, res), what min_effect is relative to */
	double q; /* key: p x far / nominal (capped at 1); exploratory: Benjamini-Hochberg; NAN none */
	double cliff, hedges; /* NAN when undefined */
	bool key;
	size_t family_size; /* key: m */
	enum verdict verdict;
	enum decision decision;
	size_t more_blocks; /* DECISION_OPEN: blocks more that would likely decide it, 0 unknown */
	const char *reason; /* NOT_COMPARABLE: why (static text) */
};

struct analysis {
	struct dataset *ds; /* its own, or &view (analysis__against) */
	struct dataset view; /* analysis__against: the borrowed dataset, another baseline */
	bool borrowed;
	struct verdict_opts o;
	struct comparison *c; /* candidate-major: for each candidate, every row */
	size_t nc;
	size_t looks;	  /* looks at the data the design allows */
	size_t tests;	  /* exploratory tests (the Benjamini-Hochberg family) */
	size_t key_tests; /* key metrics tested, over every candidate */
	size_t key_total; /* K: the key tests far is split over (= key_tests) */
	/* key metrics only: what decides the exit status */
	size_t regressions, improvements, changed, open;
	/* exploratory rows beyond the minimum effect at q <= alpha */
	size_t x_worse, x_better;
};

int analysis__run(struct store *st, const char *baseline, const struct verdict_opts *o,
		  struct analysis **ret);
/* The same on a dataset already loaded (taken over: freed with the analysis). */
int analysis__from(struct dataset *ds, const struct verdict_opts *o, struct analysis **ret);
/*
 * The same on a loaded dataset against another of its variants (index base),
 * nothing read again: ds is borrowed and must outlive the analysis (the
 * kernel x LRU grid compares one campaign against several baselines).
 */
int analysis__against(const struct dataset *ds, size_t base, const struct verdict_opts *o,
		      struct analysis **ret);
void analysis__free(struct analysis *a);
void analysis__freep(struct analysis **a);

/*
 * A key test's level in words: "0.05/12 (the campaign's 0.05 over its 12
 * key tests)", and for an adaptive design "... spent over the looks
 * (O'Brien-Fleming-like): p <= 1.2e-05 at 3, ..., 0.0038 at 6 blocks"
 * (malloc'd).
 */
char *analysis__key_level_text(const struct analysis *an);
/* The campaign's false-alarm rate over its key tests: opts.far, or alpha when unset. */
double analysis__far(const struct analysis *an);
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

/* The scale a metric kind declares by its unit: CHANGE_LOG or CHANGE_RELATIVE. */
enum change_scale verdict__declared_scale(const char *unit);
/* "relative", "absolute", "log-ratio" */
const char *change_scale_name(enum change_scale s);

/*
 * The change and its interval in the units the minimum effect is in: the
 * relative change and Fieller's interval, or on the absolute scale the
 * difference and its interval over ref. false (lo, hi NAN) without an
 * interval.
 */
bool comparison__effect(const struct comparison *c, double *ret_change, double *ret_lo,
			double *ret_hi);

/* "regression", "improvement", "no significant change", ... */
const char *verdict_name(enum verdict v);
/* A short mark for fixed-width tables: "REGRESSION", "better", "~", "n/c", "n<2", ... */
const char *verdict_mark(enum verdict v);
/*
 * The mark of a row: a key row's verdict mark ("same" or "open" when not
 * significant, as the summary says it); an exploratory row's "worse?"
 * or "better?" for what would be a verdict, "~" when not significant and its
 * interval lies within +-min_effect, "undecided" when not significant but the
 * interval reaches past it (or there is none): the data cannot tell yet.
 */
const char *verdict_mark_of(const struct comparison *c, double min_effect);
/* Whether the verdict is one of those a tested metric gets. */
bool verdict_decided(enum verdict v);
/* "beyond", "within", "open", "" */
const char *decision_name(enum decision d);

#endif
