/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bisection database (bisect-db.c) and what a step records in it: the
 * rule's parameters and a commit's judgement. The rule itself, which judges
 * a commit, is analysis/bisect.h's.
 */
#ifndef LRUBENCH_BISECT_DB_H
#define LRUBENCH_BISECT_DB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum bisect_call { BISECT_GOOD, BISECT_BAD, BISECT_UNDECIDED };

struct bisect_rule {
	double min_effect; /* the least relative change the ends must show, 0.05 */
	double alpha;	   /* Welch's p the ends must beat, 0.05 */
	double level;	   /* of the interval, 0.95 */
	uint64_t seed;	   /* unused since the t interval (kept: bisection databases store it) */
	unsigned resamples; /* likewise */
};
#define BISECT_RULE_DEFAULT \
	((struct bisect_rule){                                                         \
		.min_effect = 0.05, .alpha = 0.05, .level = 0.95, .seed = 1, .resamples = 10000 })

struct bisect_judgement {
	size_t n_good, n;
	double mean_good, mean;
	double worse, lo, hi; /* relative change against the good end, positive = worse */
	double p;	      /* Welch's two-sided p of the difference of the means */
	enum bisect_call call; /* against the threshold given */
};

/*
 * The bisection database: one SQLite file per bisection, beside the step
 * campaigns' own databases. Tables:
 *   bisect_param(key, value)   the inputs (repo, good, bad, recipe and its
 *                              text, plan and its text, variant, metric, rule),
 *                              the threshold and the outcome (first_bad,
 *                              git_bisect_log)
 *   bisect_step(...)           one row per commit measured: the ends (role
 *                              good, bad) and git's steps (role step): the
 *                              build, the campaign databases, the values and
 *                              the good end's measured interleaved with them,
 *                              the judgement, the decision told to git (good,
 *                              bad, skip) or error, why, and the step's log
 */
struct bisect_db;

struct bisect_step {
	int64_t id;
	int ord;
	const char *role;   /* good, bad, step */
	const char *commit; /* full sha */
	const char *subject;
	const char *build_key;
	const char *campaigns; /* the step's campaign databases, space separated */
	const double *vals;
	size_t n;
	const double *good_vals; /* the good end's, measured interleaved with vals */
	size_t ngood;
	const struct bisect_judgement *j; /* NULL for none */
	double threshold;		  /* NAN for the ends */
	const char *decision;		  /* good, bad, skip, error; NULL while running */
	const char *reason;
};

int bisect_db__open(const char *path, struct bisect_db **ret, char **ret_err);
void bisect_db__close(struct bisect_db *db);
void bisect_db__closep(struct bisect_db **db);

int bisect_db__param_set(struct bisect_db *db, const char *key, const char *value);
/* -ENOENT when absent; *ret malloc'd. */
int bisect_db__param_get(struct bisect_db *db, const char *key, char **ret);

/* A new step row (role, commit, subject), numbered in order; *ret_ord its number. */
int bisect_db__step_begin(struct bisect_db *db, const char *role, const char *commit,
			  const char *subject, int64_t *ret_id, int *ret_ord);
/* Record what a step found (s->id names the row). */
int bisect_db__step_finish(struct bisect_db *db, const struct bisect_step *s);
int bisect_db__step_log(struct bisect_db *db, int64_t id, const char *log, size_t len);
/*
 * A step's values and the good end's measured beside them (malloc'd; NULL
 * and 0 for none). -ENOENT when there is no such step.
 */
int bisect_db__values(struct bisect_db *db, int64_t id, double **ret_vals, size_t *ret_n,
		      double **ret_good, size_t *ret_ngood);
/* The rule, every field, as parameters rule.*; and back (-ENOENT, -EINVAL with *ret_err). */
int bisect_db__rule_save(struct bisect_db *db, const struct bisect_rule *rule);
int bisect_db__rule_load(struct bisect_db *db, struct bisect_rule *ret, char **ret_err);
/* Print the steps as a table (ord, role, commit, subject, n, mean, change, decision). */
int bisect_db__print(struct bisect_db *db, FILE *f);

const char *bisect_db__errmsg(struct bisect_db *db);

#endif
