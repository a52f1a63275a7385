/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shards: a deterministic slice of a plan's runs, so that N hosts (a CI
 * matrix, a Slurm array) each run one slice and 'lrubench merge' joins them.
 *
 * The unit dealt out is a whole repetition: shard I of N runs repetitions r
 * with r % N == I - 1, every variant of each, interleaved as usual. So each
 * host measures every variant and a difference between hosts cannot pass for
 * a difference between variants (slicing by place in the interleaved order
 * would, with N equal to the number of variants, give each host one
 * variant). Seeds, repetitions and places in the order are the unsharded
 * campaign's, so shards merged equal the unsharded campaign run by run.
 */
#ifndef LRUBENCH_SHARD_H
#define LRUBENCH_SHARD_H

#include <stdbool.h>

#define SHARD_MAX 1000

struct shard {
	int index; /* 1-based */
	int count; /* 0: not sharded */
};

/* Parse "I/N", 1 <= I <= N <= SHARD_MAX, decimal digits only; -EINVAL otherwise. */
int shard__parse(const char *s, struct shard *ret);
/* Whether repetition rep (0-based) belongs to the shard; always true unsharded. */
bool shard__has(const struct shard *sh, int rep);
/* Whether every shard of sh->count gets at least one of reps repetitions. */
bool shard__fits(const struct shard *sh, int reps);

#endif
