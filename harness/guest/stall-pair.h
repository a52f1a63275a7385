/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim tracepoint records paired per task into durations and counted in
 * log-linear histograms (loghist.h) per memcg and reclaim path. Pure: no
 * I/O, events in, histograms out; the agent feeds it what it drained from
 * the perf ring buffers (agent-trace.c).
 *
 * Pairing is by (task, path). Records of one drain are sorted by time
 * first, since each CPU has its own ring. A begin and its end can still
 * reach the agent out of order across two drains (the task migrated and the
 * other CPU's ring was read first): an end with no begin is kept as an
 * orphan, and a later-read begin from before it completes the pair. A
 * begin while one is open restarts the period (its end was lost) unless the
 * path says a second begin continues it (kswapd woken before it slept).
 * Each duration counts in the system-wide histogram and, when the task was
 * in one of the memcgs, in that memcg's.
 */
#ifndef LRUBENCH_STALL_PAIR_H
#define LRUBENCH_STALL_PAIR_H

#include "loghist.h"
#include "reclaim-paths.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No memcg of the run: the root cgroup, another cgroup, or unknown. */
#define STALL_SCOPE_NONE (-1)

struct stall_event {
	uint64_t t;   /* CLOCK_MONOTONIC ns */
	uint32_t tid;
	uint8_t path; /* index in reclaim_paths[] */
	bool begin;
	int32_t scope; /* memcg index, or STALL_SCOPE_NONE */
};

struct stall_pair_stats {
	uint64_t paired;    /* durations recorded */
	uint64_t restarted; /* begins that found one open: its end was lost */
	uint64_t orphans;   /* ends never matched by a begin (dropped) */
	uint64_t backwards; /* end before its begin: not recorded */
};

struct stall_pairs;

int stall_pairs_new(size_t nscopes, struct stall_pairs **ret);
void stall_pairs_free(struct stall_pairs *sp);
/* One record, in time order for its task. */
void stall_pairs_feed(struct stall_pairs *sp, const struct stall_event *ev);
/* A drain's records: sorted by time (in place), then fed. */
void stall_pairs_feed_batch(struct stall_pairs *sp, struct stall_event *ev, size_t n);
/* Drop orphan ends older than before (ns): their begins were lost. */
void stall_pairs_expire(struct stall_pairs *sp, uint64_t before);
/* The histogram of a memcg (scope index) or system-wide (STALL_SCOPE_NONE). */
const struct loghist *stall_pairs_hist(const struct stall_pairs *sp, int scope, unsigned path);
const struct stall_pair_stats *stall_pairs_stats(const struct stall_pairs *sp);
/* Periods begun and not ended yet. */
size_t stall_pairs_open(const struct stall_pairs *sp);

#endif
