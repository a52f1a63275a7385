/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside 'lrubench bisect' (cmd-bisect.c; its steps in cmd-bisect-step.c,
 * its context and git in cmd-bisect-ctx.c): what the three share.
 */
#ifndef LRUBENCH_CMD_BISECT_H
#define LRUBENCH_CMD_BISECT_H

#include "bisect.h"
#include "cmd-opt.h"
#include "metrics.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct bisect_db;

/* What a step process answers; the ends' children answer MEASURED or an error. */
enum step_exit {
	STEP_GOOD = 0,
	STEP_BAD = 1,
	STEP_ERROR = 2,
	STEP_SKIP = 125,
	STEP_INTERRUPTED = 130,
};

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

/* cmd-bisect-ctx.c */
void bisect_ctx__clear(struct bisect_ctx *c);
/* The options handed to each step as text (bisect.db's params), by their table. */
extern const struct cmd_opt bisect_step_opts[];
/* Store c in its database for the steps; read it back in a step. 0 or -errno, logged. */
int bisect_ctx__save(struct bisect_ctx *c);
int bisect_ctx__load(struct bisect_ctx *c, const char *db_path);
/* Set by SIGINT/SIGTERM once bisect_catch_signals() is called. */
extern volatile sig_atomic_t bisect_interrupted;
void bisect_catch_signals(void);
/* git -C repo ARGS...; its stdout, stripped, in *ret_out (when wanted). */
int bisect_git(const char *repo, const char *const args[], char **ret_out, char **ret_err);
int bisect_resolve_commit(const char *repo, const char *ref, char **ret_sha, char **ret_err);
/* A commit's subject, "" when git cannot say; malloc'd. */
char *bisect_commit_subject(const char *repo, const char *sha);

/* cmd-bisect-step.c: measure sha (the bad end when ends, else a step) in a
 * child whose output is the measurement's log; its step_exit. */
int bisect_step_run(struct bisect_ctx *c, const char *sha, bool ends);

#endif
