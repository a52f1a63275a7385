// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source vmstat (harness/common/source.h): every "key value" line
 * of /proc/vmstat, system-wide. The agent also keeps the last text for
 * final_dump (feeds[] in harness/guest/sampler.c).
 *
 * Units and meanings were read in linux-source-6.1 (6.1.192): mm/vmstat.c
 * (the names; pgpgin and pgpgout divided into KiB in vmstat_start()),
 * mm/vmscan.c, mm/workingset.c and mm/swap.c (what each reclaim counter
 * counts under each LRU).
 */
#include "source.h"

#include "util.h"

static const struct metric_info vmstat_metrics[] = {
	/* /proc/vmstat: reclaim */
	METRIC("vmstat:pgscan_kswapd", "pages", COUNTER, NONE,
	       "pages scanned by kswapd (global reclaim only, not memcg-limit reclaim)"),
	METRIC("vmstat:pgscan_direct", "pages", COUNTER, NONE,
	       "pages scanned by direct reclaim (global reclaim only, not memcg-limit reclaim)"),
	METRIC("vmstat:pgscan_direct_throttle", "events", COUNTER, LOWER,
	       "direct reclaimers throttled on too many pages under writeback"),
	METRIC("vmstat:pgscan_anon", "pages", COUNTER, NONE,
	       "anon pages scanned, global and memcg reclaim"),
	METRIC("vmstat:pgscan_file", "pages", COUNTER, NONE,
	       "file pages scanned, global and memcg reclaim"),
	METRIC("vmstat:pgsteal_kswapd", "pages", COUNTER, NONE,
	       "pages reclaimed by kswapd (global reclaim only)"),
	METRIC("vmstat:pgsteal_direct", "pages", COUNTER, NONE,
	       "pages reclaimed by direct reclaim (global reclaim only)"),
	METRIC("vmstat:pgsteal_anon", "pages", COUNTER, NONE,
	       "anon pages reclaimed, global and memcg reclaim"),
	METRIC("vmstat:pgsteal_file", "pages", COUNTER, NONE,
	       "file pages reclaimed, global and memcg reclaim"),
	METRIC("vmstat:pgrefill", "pages", COUNTER, NONE,
	       "classic: active-list pages scanned; MGLRU: pages re-sorted to younger generations"),
	METRIC("vmstat:pgactivate", "pages", COUNTER, NONE,
	       "pages moved to the active list or youngest generation"),
	METRIC("vmstat:pgdeactivate", "pages", COUNTER, NONE, "pages moved to the inactive list"),
	METRIC("vmstat:pgrotated", "pages", COUNTER, NONE,
	       "pages moved to the reclaim end of the LRU after writeback"),
	METRIC("vmstat:pglazyfree", "pages", COUNTER, NONE,
	       "pages marked lazily freeable (MADV_FREE)"),
	METRIC("vmstat:pglazyfreed", "pages", COUNTER, NONE, "lazily freeable pages reclaimed"),
	METRIC("vmstat:pgskip_*", "pages", COUNTER, NONE, "pages skipped by reclaim in a zone"),
	METRIC("vmstat:allocstall_*", "events", COUNTER, LOWER,
	       "allocations that entered direct reclaim, by zone"),
	METRIC("vmstat:kswapd_*", "events", COUNTER, NONE, "kswapd wakeup and watermark events"),
	METRIC("vmstat:pageoutrun", "events", COUNTER, NONE,
	       "kswapd reclaim passes (balance_pgdat)"),
	METRIC("vmstat:slabs_scanned", "objects", COUNTER, NONE,
	       "slab objects scanned by shrinkers"),
	METRIC("vmstat:oom_kill", "events", COUNTER, LOWER, "tasks killed by the OOM killer"),
	/* /proc/vmstat: faults and I/O */
	METRIC("vmstat:pgfault", "events", COUNTER, NONE, "page faults, minor and major"),
	METRIC("vmstat:pgmajfault", "events", COUNTER, LOWER,
	       "major page faults (needed I/O or swap-in)"),
	METRIC("vmstat:pswpin", "pages", COUNTER, LOWER, "pages swapped in"),
	METRIC("vmstat:pswpout", "pages", COUNTER, LOWER, "pages swapped out"),
	METRIC("vmstat:pgpgin", "KiB", COUNTER, LOWER, "KiB read from block devices"),
	METRIC("vmstat:pgpgout", "KiB", COUNTER, NONE, "KiB written to block devices"),
	METRIC("vmstat:zswpin", "pages", COUNTER, LOWER, "pages loaded from zswap"),
	METRIC("vmstat:zswpout", "pages", COUNTER, NONE, "pages stored to zswap"),
	METRIC("vmstat:swap_ra", "pages", COUNTER, NONE, "swap readahead pages"),
	METRIC("vmstat:swap_ra_hit", "pages", COUNTER, HIGHER,
	       "swap readahead pages that were used"),
	/* /proc/vmstat: workingset (node counters) */
	METRIC("vmstat:workingset_refault_anon", "pages", COUNTER, LOWER,
	       "anon pages refaulted after eviction"),
	METRIC("vmstat:workingset_refault_file", "pages", COUNTER, LOWER,
	       "file pages refaulted after eviction"),
	METRIC("vmstat:workingset_activate_anon", "pages", COUNTER, NONE,
	       "classic: refaulted anon pages activated; "
	       "MGLRU: anon pages protected by their tier"),
	METRIC("vmstat:workingset_activate_file", "pages", COUNTER, NONE,
	       "classic: refaulted file pages activated; "
	       "MGLRU: file pages protected by their tier"),
	METRIC("vmstat:workingset_restore_anon", "pages", COUNTER, LOWER,
	       "refaulted anon pages that were part of the working set"),
	METRIC("vmstat:workingset_restore_file", "pages", COUNTER, LOWER,
	       "refaulted file pages that were part of the working set"),
	METRIC("vmstat:workingset_nodereclaim", "events", COUNTER, NONE,
	       "shadow-entry nodes reclaimed"),
	METRIC("vmstat:workingset_nodes", "nodes", GAUGE, NONE,
	       "xarray nodes holding shadow entries"),
	/* /proc/vmstat: nr_* are gauges in pages, except these */
	METRIC("vmstat:nr_*", "pages", GAUGE, NONE, "pages in this state"),
	METRIC("vmstat:nr_kernel_stack", "KiB", GAUGE, NONE, "kernel stacks"),
	METRIC("vmstat:nr_vmscan_write", "pages", COUNTER, NONE, "pages written by reclaim"),
	METRIC("vmstat:nr_vmscan_immediate_reclaim", "pages", COUNTER, NONE,
	       "pages marked for reclaim as soon as their writeback ends"),
	METRIC("vmstat:nr_dirtied", "pages", COUNTER, NONE, "pages dirtied"),
	METRIC("vmstat:nr_written", "pages", COUNTER, NONE, "pages written back"),
	METRIC("vmstat:nr_throttled_written", "pages", COUNTER, NONE,
	       "pages written while throttled"),
	METRIC("vmstat:nr_foll_pin_acquired", "pages", COUNTER, NONE, "FOLL_PIN pins taken"),
	METRIC("vmstat:nr_foll_pin_released", "pages", COUNTER, NONE, "FOLL_PIN pins released"),
	METRIC("vmstat:thp_*", "events", COUNTER, NONE, "transparent huge page events"),
	METRIC("vmstat:compact_*", "events", COUNTER, NONE, "compaction events"),
	METRIC("vmstat:pgalloc_*", "pages", COUNTER, NONE, "pages allocated, by zone"),
	METRIC("vmstat:pgfree", "pages", COUNTER, NONE, "pages freed"),
};

const struct source source_vmstat = {
	.name = "vmstat",
	.scope = SOURCE_SYSTEM,
	.file = "/proc/vmstat",
	.parse = parse_flat_source,
	.metrics = vmstat_metrics,
	.n_metrics = ARRAY_SIZE(vmstat_metrics),
	.fallback = METRIC("vmstat", "events", COUNTER, NONE, "vmstat event counter"),
};
