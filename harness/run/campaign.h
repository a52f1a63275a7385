/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign: a plan expanded into runs (variant x repetition, interleaved
 * A B A B so drift does not masquerade as a difference), each run booted,
 * streamed into the store and classified. Comparing and reporting the whole
 * is campaign-finish.h's, which every command running one calls. The jobs
 * inside are listed in campaign-priv.h.
 */
#ifndef LRUBENCH_CAMPAIGN_H
#define LRUBENCH_CAMPAIGN_H

#include "shard.h"

#include <stdint.h>

struct plan;
struct store;

struct campaign_opts {
	const char *kernel;	/* overrides every variant's kernel: debian, a recipe, a bzImage */
	const char *config;	/* its config, when not beside it */
	const char *modules;	/* its modules tree */
	const char *accel;	/* auto, kvm, tcg */
	const char *clock;	/* real, instructions; NULL: the plan's */
	const char *db_path;	/* default results/<name>-<time>.db */
	const char *results_dir;
	const char *reports_dir;
	const char *build_dir;	/* binaries, image and probe caches */
	const char *kernel_cache; /* kernels/cache */
	const char *recipes_dir; /* kernels: where a recipe NAME is NAME.ini (default "kernels") */
	int repetitions;	/* overrides the plan when > 0 */
	int jobs;		/* guests at once; 0 = what cores and memory allow */
	const char *fault;	/* fault injection for tests: KIND[@MS] */
	int fault_run;		/* only the run in this place of the order (1-based); 0 = all */
	uint64_t silence_timeout_ms; /* overrides the default channel silence limit */
	uint64_t timeout_ms;	/* overrides the plan's per-run timeout */
	const char *aa_variant;	/* 'lrubench noise': the variant run against itself (noise.h) */
	const char *wss_opts;	/* 'lrubench wss': the plan's measuring form (wss.h), or NULL */
	struct shard shard;	/* run only this slice of the plan (shard.h) */
	const char *history;	/* append the finished campaign to this history database */
};

/* A campaign whose runs are all done: what its command compares and reports from. */
struct campaign_done {
	struct store *st; /* the campaign's store, open */
	char *db;	  /* its path */
	char *name;	  /* the campaign's name: its report goes to REPORTS/NAME */
	char *history;	  /* the history to append it to (--history, kept by --resume), or NULL */
	int failed_runs;  /* runs that failed in this invocation */
};
/* Close the store and free; accepts a zeroed one. */
void campaign_done__clear(struct campaign_done *d);

/*
 * Run plan's campaign: 0 with *ret filled (every run done; the caller
 * compares and reports), -EINTR when interrupted (the database is
 * resumable), or another -errno (logged).
 */
int campaign__run(struct plan *plan, const struct campaign_opts *o, struct campaign_done *ret);
/* Continue an interrupted campaign: only runs not yet done, with its plan and
 * options; returns as campaign__run. */
int campaign__resume(const char *db, const struct campaign_opts *o, struct campaign_done *ret);
/*
 * Run one pending run of the campaign in db (the scheduler's worker process,
 * 'lrubench __run-one DB RUN_ID'). Exit code: 0, 4 the store failed, 5 the
 * host cannot run guests now.
 */
int campaign__worker(const char *db, int64_t run_id, const struct campaign_opts *o);

#endif
