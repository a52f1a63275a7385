/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign: a plan expanded into runs (variant x repetition, interleaved
 * A B A B so drift does not masquerade as a difference), each run booted,
 * streamed into the store, classified, and the whole compared at the end.
 */
#ifndef LRUBENCH_CAMPAIGN_H
#define LRUBENCH_CAMPAIGN_H

#include "shard.h"

#include <stdint.h>

struct plan;

struct campaign_opts {
	const char *kernel;	/* overrides every variant's kernel: debian, a recipe, a bzImage */
	const char *config;	/* its config, when not beside it */
	const char *modules;	/* its modules tree */
	const char *accel;	/* auto, kvm, tcg */
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

/*
 * Exit codes (verdict.h): 0 no key metric regressed, 1 one did, 3 the
 * campaign is incomplete (runs failed after their retries, a variant with
 * fewer than 2 blocks: never a pass), 2 error, 130 interrupted (the
 * database is resumable).
 */
int campaign_run(struct plan *plan, const struct campaign_opts *o);
/* Continue an interrupted campaign: only runs not yet done, with its plan and options. */
int campaign_resume(const char *db, const struct campaign_opts *o);
/*
 * Run one pending run of the campaign in db (the scheduler's worker process,
 * 'lrubench __run-one DB RUN_ID'). Exit code: 0, 4 the store failed, 5 the
 * host cannot run guests now.
 */
int campaign_worker(const char *db, int64_t run_id, const struct campaign_opts *o);

#endif
