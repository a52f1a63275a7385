/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim stall histograms on the host: the source "reclaim" of the stream
 * (PROTOCOL.md; the guest's agent-trace.c) read back per run, and the one
 * place where a run's histograms become the numbers compared:
 *
 *   reclaim:p50_ns.PATH, p99_ns.PATH, p999_ns.PATH   quantiles of the run's
 *       periods (log-linear buckets, interpolated; within 6% on average)
 *   reclaim:per_s.PATH      periods per second of the run (first to last sample)
 *   reclaim:total_ns.PATH   the time the periods took, summed
 *   reclaim:ns_per_page.PATH   that time over the pages the path's reclaim
 *       took (#29: a cost normalised by work, steadier than the time alone):
 *       memcg in a memcg's scope over its memory.stat pgsteal (pages taken
 *       from it by any reclaimer: its limit reclaim where that dominates);
 *       direct and kswapd system-wide over vmstat pgsteal_direct and
 *       pgsteal_kswapd (kswapd's periods are awake time, naps included)
 *
 * per scope ("-": every period in the guest; a memcg: its tasks') and per
 * reclaim path (reclaim-paths.h). A run without periods on a traced path
 * gives a rate and a total of 0 and no quantiles.
 */
#ifndef LRUBENCH_STALL_H
#define LRUBENCH_STALL_H

#include "loghist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

struct stall_hist {
	char *scope;   /* "-" or a memcg */
	unsigned path; /* index in reclaim_paths[] */
	struct loghist h;
};

/* The pages a path's reclaim took in a scope over the run (stall_run__add_pages). */
struct stall_pages {
	char *scope;
	unsigned path;
	uint64_t pages;
};

struct stall_run {
	struct stall_hist *h;
	size_t n;
	struct stall_pages *pages;
	size_t npages;
	double seconds; /* the run's first to last sample */
	uint64_t bad;	/* reclaim values naming no path or no bucket: ignored */
};

/*
 * One counter increase of a run (metric "reclaim:count.P", "total_ns.P" or
 * "hist.P.LO"); false, and nothing kept, for any other metric. A value of
 * the reclaim source that names no known path or bucket is counted in
 * r->bad.
 */
bool stall_run__add(struct stall_run *r, const char *metric, const char *scope, int64_t increase);
/*
 * A counter increase that counts pages reclaimed on a path (memory.stat:pgsteal
 * of a memcg, vmstat:pgsteal_direct, vmstat:pgsteal_kswapd): kept for
 * ns_per_page; false for any other. The counter keeps its own row too.
 */
bool stall_run__add_pages(struct stall_run *r, const char *metric, const char *scope,
			  int64_t increase);
/* The run's sampled time span in seconds (0 with fewer than 2 samples). */
int stall_run__span(struct store *st, int64_t run_id, double *ret_seconds);
/* Every histogram of a run, as increases over the run (store-dataset.h). 0 or -EIO. */
int stall_run__load(struct store *st, int64_t run_id, struct stall_run *ret);
/* Add b's histograms into acc (scope and path matched); seconds add up. */
void stall_run__merge(struct stall_run *acc, const struct stall_run *b);
void stall_run__clear(struct stall_run *r);
/* The histogram of scope and path, or NULL. */
const struct loghist *stall_run__find(const struct stall_run *r, const char *scope, unsigned path);

/* The numbers compared (above), for every histogram of the run. */
typedef void (*stall_value_fn)(void *arg, const char *metric, const char *scope, double value);
void stall_run__reduce(const struct stall_run *r, stall_value_fn fn, void *arg);

/*
 * Over time: for each sample of the run after the first, the periods of the
 * stall paths (reclaim_path.stall) in scope that ended since the previous
 * sample, by bucket (t_ns is the sample's guest time).
 */
typedef void (*stall_point_fn)(void *arg, int64_t t_ns, unsigned bucket, int64_t count);
int stall__series(struct store *st, int64_t run_id, const char *scope, stall_point_fn fn,
		  void *arg);

#endif
