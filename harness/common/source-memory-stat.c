// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source memory.stat (harness/common/source.h): each memcg's
 * memory.stat (cgroup v2), sizes in bytes, events counted. Units and meanings
 * were read in linux-source-6.1 (6.1.192): mm/memcontrol.c (memory_stats[],
 * memcg_page_state_unit(), memory_stat_format()).
 */
#include "source.h"

#include "util.h"

static const struct metric_info memory_stat_metrics[] = {
	/* memory.stat (cgroup v2): sizes in bytes, events counted */
	METRIC("memory.stat:anon", "bytes", GAUGE, NONE, "anonymous memory (mapped anon pages)"),
	METRIC("memory.stat:file", "bytes", GAUGE, NONE, "page cache, including tmpfs and shmem"),
	METRIC("memory.stat:kernel_stack", "bytes", GAUGE, NONE, "kernel stacks"),
	METRIC("memory.stat:active_*", "bytes", GAUGE, NONE, "active LRU list size"),
	METRIC("memory.stat:inactive_*", "bytes", GAUGE, NONE, "inactive LRU list size"),
	METRIC("memory.stat:pgscan", "pages", COUNTER, NONE, "pages scanned, kswapd and direct"),
	METRIC("memory.stat:pgsteal", "pages", COUNTER, NONE, "pages reclaimed, kswapd and direct"),
	METRIC("memory.stat:pgscan_*", "pages", COUNTER, NONE, "pages scanned in this memcg"),
	METRIC("memory.stat:pgsteal_*", "pages", COUNTER, NONE, "pages reclaimed from this memcg"),
	METRIC("memory.stat:pgfault", "events", COUNTER, NONE, "page faults in this memcg"),
	METRIC("memory.stat:pgmajfault", "events", COUNTER, LOWER,
	       "major page faults in this memcg"),
	METRIC("memory.stat:pgrefill", "pages", COUNTER, NONE,
	       "classic: active-list pages scanned; MGLRU: pages re-sorted to younger generations"),
	METRIC("memory.stat:pgactivate", "pages", COUNTER, NONE, "pages activated"),
	METRIC("memory.stat:pgdeactivate", "pages", COUNTER, NONE, "pages deactivated"),
	METRIC("memory.stat:pglazyfree*", "pages", COUNTER, NONE,
	       "MADV_FREE pages marked, reclaimed"),
	METRIC("memory.stat:zswpin", "pages", COUNTER, LOWER, "pages loaded from zswap"),
	METRIC("memory.stat:zswpout", "pages", COUNTER, NONE, "pages stored to zswap"),
	METRIC("memory.stat:thp_*", "events", COUNTER, NONE, "transparent huge page events"),
	METRIC("memory.stat:workingset_refault_*", "pages", COUNTER, LOWER,
	       "pages refaulted after eviction"),
	METRIC("memory.stat:workingset_activate_*", "pages", COUNTER, NONE,
	       "classic: refaulted pages activated; MGLRU: pages protected by their tier"),
	METRIC("memory.stat:workingset_restore_*", "pages", COUNTER, LOWER,
	       "refaulted pages that were part of the working set"),
	METRIC("memory.stat:workingset_nodereclaim", "events", COUNTER, NONE,
	       "shadow-entry nodes reclaimed"),
};

const struct source source_memory_stat = {
	.name = "memory.stat",
	.scope = SOURCE_MEMCG,
	.file = "memory.stat",
	.parse = parse_flat_source,
	.metrics = memory_stat_metrics,
	.n_metrics = ARRAY_SIZE(memory_stat_metrics),
	.fallback = METRIC("memory.stat", "bytes", GAUGE, NONE, "memcg memory.stat size"),
};
