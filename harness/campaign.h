/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign: a plan expanded into runs (variant x repetition, interleaved
 * A B A B so drift does not masquerade as a difference), each run booted,
 * streamed into the store, classified, and the whole compared at the end.
 */
#ifndef LRUBENCH_CAMPAIGN_H
#define LRUBENCH_CAMPAIGN_H

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
	const char *fault;	/* fault injection for tests: KIND[@MS] */
	uint64_t silence_timeout_ms; /* overrides the default channel silence limit */
	uint64_t timeout_ms;	/* overrides the plan's per-run timeout */
};

/* Exit codes: 0 all runs completed, 2 error; failed runs are data (exit 0). */
int campaign_run(struct plan *plan, const struct campaign_opts *o);

#endif
