/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A metric bisection, what 'lrubench bisect' (cmd-bisect.c) runs: the first
 * commit between a good and a bad kernel that made a metric worse.
 *
 *   1. bisect_ctx__setup() checks everything that can be checked before a
 *      build: the repository, both refs (good an ancestor of bad), no
 *      bisection already running, the recipe, the plan, its variant and the
 *      metric (a workload result or a counter with a better direction).
 *   2. bisect_ctx__run() measures the ends: it builds the recipe on the good
 *      commit and on the bad one (the recipe's patches and config; its
 *      [source] replaced by the commit) and runs the plan's variant --reps
 *      times on each. The bad end must be worse beyond doubt (analysis/
 *      bisect.h); else there is nothing to bisect.
 *   3. Then `git bisect start --no-checkout BAD GOOD` (the work tree is never
 *      touched: steps build `git archive BISECT_HEAD`), and `git bisect run
 *      lrubench __bisect-step DB`, whose bisect_answer_git() builds (cached),
 *      runs, judges against the good end's values and answers git: good 0,
 *      bad 1, skip 125 (a commit that does not build, whose runs all fail, or
 *      that stays undecided after --max-reps), or 128, which stops the
 *      bisection, for an error of lrubench's own.
 *   4. It records git's verdict and `git bisect log`, ends the bisection
 *      (`git bisect reset`) and prints every step.
 *
 * Everything lands in DIR/bisect.db (store/bisect-db.h): the inputs, each
 * step's values, judgement, decision and whole log; each step's runs are a
 * campaign database of their own beside it (DIR/step-NN-COMMIT.db). Its
 * files: bisect-setup.c (1), bisect-drive.c (2 to 4), bisect-step.c (one
 * commit measured), bisect-ctx.c, bisect-git.c, bisect-signal.c (what they
 * share, bisect-priv.h).
 */
#ifndef LRUBENCH_BISECTION_H
#define LRUBENCH_BISECTION_H

#include "bisect-db.h"
#include "metrics.h"

#include <stdint.h>

struct bisect_db;

/* Everything a step needs, kept in bisect_param so a step process can rebuild it. */
struct bisect_ctx {
	struct bisect_db *db;
	char *db_path; /* absolute */
	char *dir;     /* the bisection's directory, absolute */
	char *cwd;     /* where lrubench was started: relative paths resolve from here */
	char *repo;    /* absolute */
	char *good, *bad; /* the ends' commits */
	int64_t bad_id;	  /* the bad end's row, once measured */
	char *recipe_path, *recipe_text;
	char *plan_path, *plan_text;
	char *variant;
	char *metric;
	enum metric_better better;
	char *accel;
	int reps, max_reps, jobs;
	uint64_t timeout_ms;
	struct bisect_rule rule;
	double threshold; /* NAN until the ends are measured */
};

void bisect_ctx__clear(struct bisect_ctx *c);
/*
 * Check the inputs and complete c: given c->repo, c->plan_path, c->variant
 * (NULL: the plan's baseline), c->metric and the numbers, the refs good_ref
 * and bad_ref, the recipe (NAME or FILE.ini) and dir (NULL: a new
 * results/bisect-TIME), resolve them and create dir/bisect.db. 0, or -errno
 * with the reason logged; nothing is created before every input is checked.
 */
int bisect_ctx__setup(struct bisect_ctx *c, const char *good_ref, const char *bad_ref,
		      const char *recipe, const char *dir);
/*
 * Run the bisection c was set up for: store c for the steps, measure the
 * ends, drive git bisect, print every step. The exit status: 0 first bad
 * commit found, 1 no regression between the ends or only skipped commits
 * left, 2 error, 130 interrupted.
 */
int bisect_ctx__run(struct bisect_ctx *c);
/*
 * What git bisect run calls ('lrubench __bisect-step DB'): measure
 * BISECT_HEAD in the bisection at db_path. git's answer: 0 good, 1 bad, 125
 * skip, 128 an error of lrubench's (stops the bisection).
 */
int bisect_answer_git(const char *db_path);

#endif
