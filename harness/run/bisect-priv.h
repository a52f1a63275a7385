/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside a bisection (harness/run/ only; bisection.h says the whole): what
 * its files share.
 */
#ifndef LRUBENCH_BISECT_PRIV_H
#define LRUBENCH_BISECT_PRIV_H

#include "bisection.h"

#include <signal.h>
#include <stdbool.h>

/* What a step process answers; the ends' children answer MEASURED or an error. */
enum step_exit {
	STEP_GOOD = 0,
	STEP_BAD = 1,
	STEP_ERROR = 2,
	STEP_SKIP = 125,
	STEP_INTERRUPTED = 130,
};

/* bisect-ctx.c: store c in its database for the steps; read it back in a
 * step. 0 or -errno, logged. */
int bisect_ctx__save(struct bisect_ctx *c);
int bisect_ctx__load(struct bisect_ctx *c, const char *db_path);

/* bisect-signal.c: set by SIGINT/SIGTERM once bisect_catch_signals() is called. */
extern volatile sig_atomic_t bisect_interrupted;
void bisect_catch_signals(void);

/* bisect-git.c: git -C repo ARGS...; its stdout, stripped, in *ret_out (when wanted). */
int bisect_git(const char *repo, const char *const args[], char **ret_out, char **ret_err);
int bisect_resolve_commit(const char *repo, const char *ref, char **ret_sha, char **ret_err);
/* A commit's subject, "" when git cannot say; malloc'd. */
char *bisect_commit_subject(const char *repo, const char *sha);

/* bisect-step.c: measure sha (the bad end when ends, else a step) in a
 * child whose output is the measurement's log; its step_exit. */
int bisect_step_run(struct bisect_ctx *c, const char *sha, bool ends);

#endif
