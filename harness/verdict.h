/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdicts: every candidate variant against the baseline, per metric.
 *
 * For each row of the dataset and each candidate: both sides' summaries, the
 * relative change of the mean with a seeded bootstrap 95% interval, Welch's
 * t (the p-value that decides) and Mann-Whitney U (shown beside it), Cliff's
 * delta and Hedges' g. The p-values of all metrics with a better direction
 * in the campaign form one family, adjusted by Benjamini-Hochberg; a metric
 * is then
 *   regression / improvement  q <= alpha and |change| >= min effect, in the
 *                             worse / better direction;
 *   no significant change     otherwise.
 * No verdict where a side has fewer than 2 measured runs, for metrics
 * without a direction, and across LRU implementations for metrics the
 * comparability table (metrics.c) marks: those keep the numbers and the
 * reason.
 */
#ifndef LRUBENCH_VERDICT_H
#define LRUBENCH_VERDICT_H

#include "dataset.h"
#include "stats.h"

enum verdict {
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
	VERDICT_NO_CHANGE,
	VERDICT_NO_DIRECTION, /* better = none: numbers only */
	VERDICT_NOT_COMPARABLE, /* across LRUs: numbers and reason only */
	VERDICT_TOO_FEW, /* a side has n < 2 */
	VERDICT_NO_DATA, /* a side has no value */
};

struct verdict_opts {
	double min_effect; /* relative, 0.05 */
	double alpha; /* after Benjamini-Hochberg, 0.05 */
	double level; /* confidence level of the intervals, 0.95 */
	uint64_t seed; /* bootstrap seed, mixed with the metric and variant names */
	unsigned resamples;
};
#define VERDICT_OPTS_DEFAULT    \
	((struct verdict_opts){ \
		.min_effect = 0.05, .alpha = 0.05, .level = 0.95, .seed = 1, .resamples = 10000 })

struct comparison {
	size_t row, cand; /* dataset row and candidate variant */
	struct stats_summary base, cur; /* n = 0: no value */
	double change; /* (mean(cur) - mean(base)) / |mean(base)|; +-INFINITY from a zero base; NAN
			  none */
	double ci_lo, ci_hi; /* bootstrap interval of change; NAN when not computed */
	struct stats_test welch, mw; /* p NAN when not computed */
	double q; /* Benjamini-Hochberg adjusted Welch p; NAN outside the family */
	double cliff, hedges; /* NAN when undefined */
	enum verdict verdict;
	const char *reason; /* NOT_COMPARABLE: why (static text) */
};

struct analysis {
	struct dataset *ds;
	struct verdict_opts o;
	struct comparison *c; /* candidate-major: for each candidate, every row */
	size_t nc;
	size_t tests; /* size of the Benjamini-Hochberg family */
	size_t regressions, improvements;
};

int analysis__run(struct store *st, const char *baseline, const struct verdict_opts *o,
		  struct analysis **ret);
/* The same on a dataset already loaded (taken over: freed with the analysis). */
int analysis__from(struct dataset *ds, const struct verdict_opts *o, struct analysis **ret);
void analysis__free(struct analysis *a);
void analysis__freep(struct analysis **a);

/* "regression", "improvement", "no significant change", ... */
const char *verdict_name(enum verdict v);
/* A short mark for fixed-width tables: "REGRESSION", "better", "~", "n/c", "n<2", ... */
const char *verdict_mark(enum verdict v);
/* Whether the verdict is one of the three a metric with a direction gets. */
bool verdict_decided(enum verdict v);

#endif
