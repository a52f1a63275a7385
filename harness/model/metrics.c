// SPDX-License-Identifier: GPL-2.0
/*
 * The metric dictionary and the cross-LRU comparability table.
 *
 * metric_table[] is the one list of known metrics: a name is "SOURCE:KEY",
 * and a trailing '*' matches any key with that prefix. An exact row wins over
 * a prefix row, a longer prefix over a shorter one. Names no row matches get
 * their source's default (default_rules[]).
 *
 * Units: pages, bytes, KiB, events, us, ns. Facts about units and meanings
 * were read in linux-source-6.1 (6.1.192): mm/vmstat.c (vmstat names, pgpgin
 * and pgpgout divided into KiB in vmstat_start()), mm/memcontrol.c
 * (memory_stats[], memcg_page_state_unit(), memory_stat_format(),
 * __memory_events_show()), mm/vmscan.c, mm/workingset.c and mm/swap.c (what
 * each reclaim counter counts under each LRU).
 */
#include "metrics.h"

#include "util.h"

#include <limits.h>
#include <string.h>

#define C METRIC_COUNTER
#define G METRIC_GAUGE
#define B_NONE BETTER_NONE
#define B_HIGH BETTER_HIGHER
#define B_LOW BETTER_LOWER

static const struct metric_info metric_table[] = {
	/* /proc/vmstat: reclaim */
	{ "vmstat:pgscan_kswapd", "pages", C, B_NONE,
	  "pages scanned by kswapd (global reclaim only, not memcg-limit reclaim)" },
	{ "vmstat:pgscan_direct", "pages", C, B_NONE,
	  "pages scanned by direct reclaim (global reclaim only, not memcg-limit reclaim)" },
	{ "vmstat:pgscan_direct_throttle", "events", C, B_LOW,
	  "direct reclaimers throttled on too many pages under writeback" },
	{ "vmstat:pgscan_anon", "pages", C, B_NONE,
	  "anon pages scanned, global and memcg reclaim" },
	{ "vmstat:pgscan_file", "pages", C, B_NONE,
	  "file pages scanned, global and memcg reclaim" },
	{ "vmstat:pgsteal_kswapd", "pages", C, B_NONE,
	  "pages reclaimed by kswapd (global reclaim only)" },
	{ "vmstat:pgsteal_direct", "pages", C, B_NONE,
	  "pages reclaimed by direct reclaim (global reclaim only)" },
	{ "vmstat:pgsteal_anon", "pages", C, B_NONE,
	  "anon pages reclaimed, global and memcg reclaim" },
	{ "vmstat:pgsteal_file", "pages", C, B_NONE,
	  "file pages reclaimed, global and memcg reclaim" },
	{ "vmstat:pgrefill", "pages", C, B_NONE,
	  "classic: active-list pages scanned; MGLRU: pages re-sorted to younger generations" },
	{ "vmstat:pgactivate", "pages", C, B_NONE,
	  "pages moved to the active list or youngest generation" },
	{ "vmstat:pgdeactivate", "pages", C, B_NONE, "pages moved to the inactive list" },
	{ "vmstat:pgrotated", "pages", C, B_NONE,
	  "pages moved to the reclaim end of the LRU after writeback" },
	{ "vmstat:pglazyfree", "pages", C, B_NONE, "pages marked lazily freeable (MADV_FREE)" },
	{ "vmstat:pglazyfreed", "pages", C, B_NONE, "lazily freeable pages reclaimed" },
	{ "vmstat:pgskip_*", "pages", C, B_NONE, "pages skipped by reclaim in a zone" },
	{ "vmstat:allocstall_*", "events", C, B_LOW,
	  "allocations that entered direct reclaim, by zone" },
	{ "vmstat:kswapd_*", "events", C, B_NONE, "kswapd wakeup and watermark events" },
	{ "vmstat:pageoutrun", "events", C, B_NONE, "kswapd reclaim passes (balance_pgdat)" },
	{ "vmstat:slabs_scanned", "objects", C, B_NONE, "slab objects scanned by shrinkers" },
	{ "vmstat:oom_kill", "events", C, B_LOW, "tasks killed by the OOM killer" },
	/* /proc/vmstat: faults and I/O */
	{ "vmstat:pgfault", "events", C, B_NONE, "page faults, minor and major" },
	{ "vmstat:pgmajfault", "events", C, B_LOW, "major page faults (needed I/O or swap-in)" },
	{ "vmstat:pswpin", "pages", C, B_LOW, "pages swapped in" },
	{ "vmstat:pswpout", "pages", C, B_LOW, "pages swapped out" },
	{ "vmstat:pgpgin", "KiB", C, B_LOW, "KiB read from block devices" },
	{ "vmstat:pgpgout", "KiB", C, B_NONE, "KiB written to block devices" },
	{ "vmstat:zswpin", "pages", C, B_LOW, "pages loaded from zswap" },
	{ "vmstat:zswpout", "pages", C, B_NONE, "pages stored to zswap" },
	{ "vmstat:swap_ra", "pages", C, B_NONE, "swap readahead pages" },
	{ "vmstat:swap_ra_hit", "pages", C, B_HIGH, "swap readahead pages that were used" },
	/* /proc/vmstat: workingset (node counters) */
	{ "vmstat:workingset_refault_anon", "pages", C, B_LOW,
	  "anon pages refaulted after eviction" },
	{ "vmstat:workingset_refault_file", "pages", C, B_LOW,
	  "file pages refaulted after eviction" },
	{ "vmstat:workingset_activate_anon", "pages", C, B_NONE,
	  "classic: refaulted anon pages activated; MGLRU: anon pages protected by their tier" },
	{ "vmstat:workingset_activate_file", "pages", C, B_NONE,
	  "classic: refaulted file pages activated; MGLRU: file pages protected by their tier" },
	{ "vmstat:workingset_restore_anon", "pages", C, B_LOW,
	  "refaulted anon pages that were part of the working set" },
	{ "vmstat:workingset_restore_file", "pages", C, B_LOW,
	  "refaulted file pages that were part of the working set" },
	{ "vmstat:workingset_nodereclaim", "events", C, B_NONE, "shadow-entry nodes reclaimed" },
	{ "vmstat:workingset_nodes", "nodes", G, B_NONE, "xarray nodes holding shadow entries" },
	/* /proc/vmstat: nr_* are gauges in pages, except these */
	{ "vmstat:nr_*", "pages", G, B_NONE, "pages in this state" },
	{ "vmstat:nr_kernel_stack", "KiB", G, B_NONE, "kernel stacks" },
	{ "vmstat:nr_vmscan_write", "pages", C, B_NONE, "pages written by reclaim" },
	{ "vmstat:nr_vmscan_immediate_reclaim", "pages", C, B_NONE,
	  "pages marked for reclaim as soon as their writeback ends" },
	{ "vmstat:nr_dirtied", "pages", C, B_NONE, "pages dirtied" },
	{ "vmstat:nr_written", "pages", C, B_NONE, "pages written back" },
	{ "vmstat:nr_throttled_written", "pages", C, B_NONE, "pages written while throttled" },
	{ "vmstat:nr_foll_pin_acquired", "pages", C, B_NONE, "FOLL_PIN pins taken" },
	{ "vmstat:nr_foll_pin_released", "pages", C, B_NONE, "FOLL_PIN pins released" },
	{ "vmstat:thp_*", "events", C, B_NONE, "transparent huge page events" },
	{ "vmstat:compact_*", "events", C, B_NONE, "compaction events" },
	{ "vmstat:pgalloc_*", "pages", C, B_NONE, "pages allocated, by zone" },
	{ "vmstat:pgfree", "pages", C, B_NONE, "pages freed" },

	/* memory.stat (cgroup v2): sizes in bytes, events counted */
	{ "memory.stat:anon", "bytes", G, B_NONE, "anonymous memory (mapped anon pages)" },
	{ "memory.stat:file", "bytes", G, B_NONE, "page cache, including tmpfs and shmem" },
	{ "memory.stat:kernel_stack", "bytes", G, B_NONE, "kernel stacks" },
	{ "memory.stat:active_*", "bytes", G, B_NONE, "active LRU list size" },
	{ "memory.stat:inactive_*", "bytes", G, B_NONE, "inactive LRU list size" },
	{ "memory.stat:pgscan", "pages", C, B_NONE, "pages scanned, kswapd and direct" },
	{ "memory.stat:pgsteal", "pages", C, B_NONE, "pages reclaimed, kswapd and direct" },
	{ "memory.stat:pgscan_*", "pages", C, B_NONE, "pages scanned in this memcg" },
	{ "memory.stat:pgsteal_*", "pages", C, B_NONE, "pages reclaimed from this memcg" },
	{ "memory.stat:pgfault", "events", C, B_NONE, "page faults in this memcg" },
	{ "memory.stat:pgmajfault", "events", C, B_LOW, "major page faults in this memcg" },
	{ "memory.stat:pgrefill", "pages", C, B_NONE,
	  "classic: active-list pages scanned; MGLRU: pages re-sorted to younger generations" },
	{ "memory.stat:pgactivate", "pages", C, B_NONE, "pages activated" },
	{ "memory.stat:pgdeactivate", "pages", C, B_NONE, "pages deactivated" },
	{ "memory.stat:pglazyfree*", "pages", C, B_NONE, "MADV_FREE pages marked, reclaimed" },
	{ "memory.stat:zswpin", "pages", C, B_LOW, "pages loaded from zswap" },
	{ "memory.stat:zswpout", "pages", C, B_NONE, "pages stored to zswap" },
	{ "memory.stat:thp_*", "events", C, B_NONE, "transparent huge page events" },
	{ "memory.stat:workingset_refault_*", "pages", C, B_LOW, "pages refaulted after eviction" },
	{ "memory.stat:workingset_activate_*", "pages", C, B_NONE,
	  "classic: refaulted pages activated; MGLRU: pages protected by their tier" },
	{ "memory.stat:workingset_restore_*", "pages", C, B_LOW,
	  "refaulted pages that were part of the working set" },
	{ "memory.stat:workingset_nodereclaim", "events", C, B_NONE,
	  "shadow-entry nodes reclaimed" },

	/* memory.events: counts of boundary events */
	{ "memory.events:low", "events", C, B_NONE, "reclaimed though under memory.low" },
	{ "memory.events:high", "events", C, B_LOW, "throttled for exceeding memory.high" },
	{ "memory.events:max", "events", C, B_LOW, "about to exceed memory.max" },
	{ "memory.events:oom", "events", C, B_LOW, "reached memory.max and allocation failed" },
	{ "memory.events:oom_kill", "events", C, B_LOW,
	  "processes killed by the memcg OOM killer" },
	{ "memory.events:oom_group_kill", "events", C, B_LOW, "memcg OOM group kills" },

	{ "memory.current:bytes", "bytes", G, B_NONE, "memory charged to the memcg" },
	{ "memory.pressure:some.total", "us", C, B_LOW,
	  "time some tasks of the memcg stalled on memory" },
	{ "memory.pressure:full.total", "us", C, B_LOW,
	  "time all non-idle tasks of the memcg stalled on memory" },
	{ "psi.memory:some.total", "us", C, B_LOW, "time some tasks stalled on memory" },
	{ "psi.memory:full.total", "us", C, B_LOW, "time all non-idle tasks stalled on memory" },
	{ "psi.io:some.total", "us", C, B_LOW, "time some tasks stalled on I/O" },
	{ "psi.io:full.total", "us", C, B_LOW, "time all non-idle tasks stalled on I/O" },
	{ "psi.cpu:some.total", "us", C, B_LOW, "time some tasks waited for a CPU" },
	{ "psi.cpu:full.total", "us", C, B_LOW, "time all non-idle tasks waited for a CPU" },

	{ "kswapd:cpu_ns", "ns", C, B_LOW, "CPU time of every kswapd thread (utime + stime)" },

	{ "perf:task-clock", "ns", C, B_NONE, "CPU time of the workload" },
	{ "perf:page-faults", "events", C, B_NONE, "page faults of the workload" },
	{ "perf:major-faults", "events", C, B_LOW, "major faults of the workload" },
	{ "perf:minor-faults", "events", C, B_NONE, "minor faults of the workload" },
	{ "perf:context-switches", "events", C, B_NONE, "context switches of the workload" },
	{ "perf:*", "events", C, B_NONE, "perf counter of the workload" },

	/* reclaim: periods between a path's begin and end tracepoints (reclaim-paths.c,
	 * agent-trace.c); KEY is PART.PATH, PATH direct, memcg, softlimit or kswapd */
	{ "reclaim:count.*", "events", C, B_LOW,
	  "reclaim periods that ended (a task's stall; kswapd: wake to sleep)" },
	{ "reclaim:total_ns.*", "ns", C, B_LOW, "time the reclaim periods took, summed" },
	{ "reclaim:hist.*", "events", C, B_NONE,
	  "reclaim periods whose duration falls in the bucket starting at the key's last number "
	  "(ns; log-linear, 8 buckets per octave)" },
	{ "reclaim:p50_ns.*", "ns", G, B_LOW,
	  "median duration of the run's reclaim periods (from its histogram)" },
	{ "reclaim:p99_ns.*", "ns", G, B_LOW,
	  "99th percentile of the run's reclaim period durations (from its histogram)" },
	{ "reclaim:p999_ns.*", "ns", G, B_LOW,
	  "99.9th percentile of the run's reclaim period durations (from its histogram)" },
	{ "reclaim:per_s.*", "1/s", G, B_LOW, "reclaim periods per second of the run" },
	{ "reclaim:records", "events", C, B_NONE, "tracepoint records the agent read" },
	{ "reclaim:lost", "events", C, B_LOW, "tracepoint records lost to a full ring buffer" },
	{ "reclaim:unpaired", "events", C, B_LOW,
	  "records without their begin or end (lost, or before tracing began)" },
	{ "reclaim:bad_records", "events", C, B_LOW, "ring records the agent could not read" },
	{ "reclaim:drains", "events", C, B_NONE, "times the agent read the rings" },
	{ "reclaim:open", "events", G, B_NONE, "reclaim periods begun and not ended at the sample" },
	{ "reclaim:cpu_ns", "ns", C, B_LOW,
	  "CPU time the guest agent spent reading the rings and pairing records" },
	/* the working-set probe of 'lrubench wss' (agent-wss.c): one window a sample */
	{ "wss:*", "pages", G, B_NONE, "pages touched in a working-set window" },
	{ "wss:window", "windows", G, B_NONE, "number of the working-set window" },
	{ "wss:gen.window_ns", "ns", G, B_NONE, "working-set window between two agings" },
	{ "wss:ref.window_ns", "ns", G, B_NONE, "working-set window between clear_refs and smaps" },
	{ "wss:ref.procs", "processes", G, B_NONE, "processes whose smaps were read" },
	{ "wss:reads", "calls", G, B_NONE, "read() calls of the memcg's processes in the window" },
	{ "wss:reads.window_ns", "ns", G, B_NONE, "window of the read() count (the file window)" },
	{ "wss:drop.window_ns", "ns", G, B_NONE,
	  "working-set window from the drop_caches to the count" },
	{ "wss:drop.ns", "ns", G, B_NONE, "time the window's opening drop_caches took" },
	{ "wss:reclaim.window_ns", "ns", G, B_NONE,
	  "working-set window from the memory.reclaim to the count" },
	{ "wss:reclaim.ns", "ns", G, B_NONE, "time the window's opening memory.reclaim took" },
	{ "wss:step_ns", "ns", G, B_NONE, "time the probe spent on the memcg at the boundary" },

	{ "agent:cpu_ns", "ns", C, B_LOW, "CPU time of the guest agent (measurement overhead)" },
	{ "agent:sample_ns", "ns", G, B_LOW, "time spent taking this sample" },
	{ "agent:*", "ns", C, B_NONE, "guest agent bookkeeping" },
};

/* Defaults by source for names no row matches; a trailing '*' matches a prefix. */
static const struct metric_info default_rules[] = {
	{ "vmstat", "events", C, B_NONE, "vmstat event counter" },
	{ "memory.stat", "bytes", G, B_NONE, "memcg memory.stat size" },
	{ "memory.events*", "events", C, B_NONE, "memcg event counter" },
	{ "memory.current", "bytes", G, B_NONE, "memcg memory.current" },
	{ "memory.pressure", "us", C, B_LOW, "memcg pressure stall time" },
	{ "psi.*", "us", C, B_LOW, "pressure stall time" },
	{ "kswapd", "ns", C, B_LOW, "kswapd time" },
	{ "perf", "events", C, B_NONE, "perf counter" },
	{ "reclaim", "events", C, B_NONE, "reclaim tracer value" },
	{ "agent", "ns", C, B_NONE, "guest agent bookkeeping" },
};

static const struct metric_info unknown_source = { "*", "value", G, B_NONE,
						   "value of an unknown source" };

#undef C
#undef G
#undef B_NONE
#undef B_HIGH
#undef B_LOW

/*
 * How well pattern matches name: -1 for no match, a larger number for a
 * closer match (exact beats any prefix, a longer prefix a shorter one).
 */
static long match(const char *pattern, const char *name)
{
	size_t plen = strlen(pattern);

	if (plen && pattern[plen - 1] == '*')
		return strncmp(pattern, name, plen - 1) ? -1 : (long)(plen - 1);
	return strcmp(pattern, name) ? -1 : LONG_MAX;
}

static const struct metric_info *best_row(const struct metric_info *rows, size_t n,
					  const char *name)
{
	const struct metric_info *best = NULL;
	long best_score = -1;

	for (size_t i = 0; i < n; i++) {
		long sc = match(rows[i].name, name);

		if (sc > best_score) {
			best_score = sc;
			best = &rows[i];
		}
	}
	return best;
}

int metric__lookup(const char *name, struct metric_info *ret)
{
	const struct metric_info *row;
	const char *colon;
	char source[128];
	size_t slen;

	if (!name || !(colon = strchr(name, ':')) || colon == name || !colon[1])
		return -EINVAL;
	row = best_row(metric_table, ARRAY_SIZE(metric_table), name);
	if (!row) {
		slen = (size_t)(colon - name);
		if (slen >= sizeof(source))
			slen = sizeof(source) - 1;
		memcpy(source, name, slen);
		source[slen] = '\0';
		row = best_row(default_rules, ARRAY_SIZE(default_rules), source);
		if (!row)
			row = &unknown_source;
	}
	*ret = *row;
	ret->name = name;
	return 0;
}

const struct metric_info *metric__table(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(metric_table);
	return metric_table;
}

const char *metric_kind_name(enum metric_kind kind)
{
	return kind == METRIC_GAUGE ? "gauge" : "counter";
}

const char *metric_better_name(enum metric_better better)
{
	switch (better) {
	case BETTER_HIGHER:
		return "higher";
	case BETTER_LOWER:
		return "lower";
	default:
		return "none";
	}
}

#define KV(a, b, c) { .major = (a), .minor = (b), .sub = (c) }

static const char r_refault[] =
	"under MGLRU a refault is counted only while the generation the folio was evicted from is "
	"still the oldest one (lru_gen_refault() in 6.1 mm/workingset.c compares the shadow "
	"entry's sequence with min_seq), so it is undercounted; compare pgmajfault, pgpgin, pswpin "
	"and throughput instead";
static const char r_restore[] =
	"under MGLRU counted behind the same oldest-generation check as refaults, for folios that "
	"refaulted through page tables or had the most references (lru_gen_refault() in 6.1 "
	"mm/workingset.c); classic LRU counts refaults of folios that were active when evicted";
static const char r_activate[] =
	"classic LRU counts refaulting folios activated because their refault distance fits the "
	"workingset (workingset_refault() in 6.1 mm/workingset.c); MGLRU counts folios that "
	"eviction found protected by their access tier and moved to a younger generation "
	"(sort_folio() in 6.1 mm/vmscan.c), which are not refaults";
static const char r_pgscan[] =
	"MGLRU counts only the folios it isolates; folios it re-sorts to younger generations go to "
	"pgrefill (scan_folios()), while classic LRU counts every folio taken "
	"from the inactive list (shrink_inactive_list()); scan counts and scan efficiency "
	"(pgsteal/pgscan) are not comparable";
static const char r_pgrefill[] =
	"classic LRU counts folios scanned on the active list (shrink_active_list()); MGLRU has no active list and counts folios that eviction re-sorted to "
	"younger generations (scan_folios())";
static const char r_pgactivate[] =
	"classic LRU counts promotions to the active list (folio_mark_accessed() in 6.1 mm/swap.c) "
	"and folios reclaim keeps (shrink_folio_list() in mm/vmscan.c); under MGLRU "
	"folio_mark_accessed() only raises the access tier, so pgactivate counts folios reclaim "
	"keeps and young folios lru_gen_look_around() moves to the youngest generation";
static const char r_pgdeactivate[] =
	"classic LRU counts folios reclaim moves from the active to the inactive list "
	"(shrink_active_list() in 6.1 mm/vmscan.c); MGLRU never runs shrink_active_list(), so it "
	"counts only madvise/DAMON deactivations and invalidated file folios (mm/swap.c)";
static const char r_pgrotated[] =
	"counted by the same code (lru_move_tail_fn() in 6.1 mm/swap.c), but MGLRU puts dirty "
	"folios under writeback in the second youngest generation and its evict_folios() "
	"(mm/vmscan.c) reclaims at once clean folios that missed folio_rotate_reclaimable(), so "
	"different folios are rotated";
static const char r_active_size[] =
	"under MGLRU active/inactive sizes are derived: the two youngest generations count as "
	"active (lru_gen_is_active()), not an active list";

static const char r_refault_612[] =
	"comparable: lru_gen_refault() counts every refault whose eviction lruvec is the folio's "
	"(the 6.1 oldest-generation check now only gates workingset_activate/restore), as "
	"workingset_refault() does for classic LRU";
static const char r_restore_612[] =
	"under MGLRU counted only for refaults from the oldest generation (lru_gen_test_recent() "
	"compares the shadow's sequence with min_seq) that came through page tables or had the "
	"most references; classic LRU counts refaults of folios active when evicted";
static const char r_activate_612[] =
	"under MGLRU counts refaults from the oldest generation (lru_gen_test_recent() vs min_seq); "
	"classic LRU counts refaults whose refault distance fits the workingset "
	"(workingset_test_recent())";

/*
 * One row per metric pattern and kernel range, each with the source it was
 * read from. Ranges are closed to a series ("6.1 to 6.1.y": until 6.2) because
 * reclaim changes between series: a kernel outside every range of a pattern
 * gets "not known to be comparable", never a verdict.
 */
#define SRC_61 "linux-source-6.1 (6.1.192) "
#define SRC_612 "linux-source-6.12 (6.12.118) "
static const struct comparability {
	const char *pattern;
	struct kernel_version from, until; /* until exclusive */
	const char *reason;		   /* why; the text compare prints */
	const char *source;		   /* file and function it was read from */
	bool same;			   /* read and found comparable in this range */
} comparability_table[] = {
	{ "vmstat:workingset_refault_*", KV(6, 1, 0), KV(6, 2, 0), r_refault,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "memory.stat:workingset_refault_*", KV(6, 1, 0), KV(6, 2, 0), r_refault,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "vmstat:workingset_restore_*", KV(6, 1, 0), KV(6, 2, 0), r_restore,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "memory.stat:workingset_restore_*", KV(6, 1, 0), KV(6, 2, 0), r_restore,
	  SRC_61 "mm/workingset.c lru_gen_refault()", false },
	{ "vmstat:workingset_activate_*", KV(6, 1, 0), KV(6, 2, 0), r_activate,
	  SRC_61 "mm/workingset.c workingset_refault(), mm/vmscan.c sort_folio()", false },
	{ "memory.stat:workingset_activate_*", KV(6, 1, 0), KV(6, 2, 0), r_activate,
	  SRC_61 "mm/workingset.c workingset_refault(), mm/vmscan.c sort_folio()", false },
	{ "vmstat:pgscan_kswapd", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_direct", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_anon", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_file", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_kswapd", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_direct", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_anon", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_file", KV(6, 1, 0), KV(6, 2, 0), r_pgscan,
	  SRC_61 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgrefill", KV(6, 1, 0), KV(6, 2, 0), r_pgrefill,
	  SRC_61 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "memory.stat:pgrefill", KV(6, 1, 0), KV(6, 2, 0), r_pgrefill,
	  SRC_61 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "vmstat:pgactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgactivate,
	  SRC_61 "mm/swap.c folio_mark_accessed(), mm/vmscan.c lru_gen_look_around()", false },
	{ "memory.stat:pgactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgactivate,
	  SRC_61 "mm/swap.c folio_mark_accessed(), mm/vmscan.c lru_gen_look_around()", false },
	{ "vmstat:pgdeactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgdeactivate,
	  SRC_61 "mm/vmscan.c shrink_active_list(), mm/swap.c", false },
	{ "memory.stat:pgdeactivate", KV(6, 1, 0), KV(6, 2, 0), r_pgdeactivate,
	  SRC_61 "mm/vmscan.c shrink_active_list(), mm/swap.c", false },
	{ "vmstat:pgrotated", KV(6, 1, 0), KV(6, 2, 0), r_pgrotated,
	  SRC_61 "mm/swap.c lru_move_tail_fn(), mm/vmscan.c evict_folios()", false },
	{ "vmstat:nr_active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:active_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:inactive_*", KV(6, 1, 0), KV(6, 2, 0), r_active_size,
	  SRC_61 "include/linux/mm_inline.h lru_gen_is_active()", false },
	/* 6.12 to 6.12.y; pgactivate, pgdeactivate, pgrotated not read yet: not known */
	{ "vmstat:workingset_refault_*", KV(6, 12, 0), KV(6, 13, 0), r_refault_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", true },
	{ "memory.stat:workingset_refault_*", KV(6, 12, 0), KV(6, 13, 0), r_refault_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", true },
	{ "vmstat:workingset_restore_*", KV(6, 12, 0), KV(6, 13, 0), r_restore_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), lru_gen_test_recent()", false },
	{ "memory.stat:workingset_restore_*", KV(6, 12, 0), KV(6, 13, 0), r_restore_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), lru_gen_test_recent()", false },
	{ "vmstat:workingset_activate_*", KV(6, 12, 0), KV(6, 13, 0), r_activate_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", false },
	{ "memory.stat:workingset_activate_*", KV(6, 12, 0), KV(6, 13, 0), r_activate_612,
	  SRC_612 "mm/workingset.c lru_gen_refault(), workingset_refault()", false },
	{ "vmstat:pgscan_kswapd", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_direct", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_anon", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgscan_file", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_kswapd", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_direct", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_anon", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "memory.stat:pgscan_file", KV(6, 12, 0), KV(6, 13, 0), r_pgscan,
	  SRC_612 "mm/vmscan.c scan_folios(), shrink_inactive_list()", false },
	{ "vmstat:pgrefill", KV(6, 12, 0), KV(6, 13, 0), r_pgrefill,
	  SRC_612 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "memory.stat:pgrefill", KV(6, 12, 0), KV(6, 13, 0), r_pgrefill,
	  SRC_612 "mm/vmscan.c shrink_active_list(), scan_folios()", false },
	{ "vmstat:nr_active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "vmstat:nr_zone_inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:active_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
	{ "memory.stat:inactive_*", KV(6, 12, 0), KV(6, 13, 0), r_active_size,
	  SRC_612 "include/linux/mm_inline.h lru_gen_is_active()", false },
};

static const char r_unknown[] =
	"not known to be comparable: the kernel is outside every range this metric's meaning under "
	"both LRUs was read for (harness/model/metrics.c comparability_table[]); no verdict";

/*
 * The reason and its source in one static text, built once and shared by the
 * rows with the same reason and source (compare lists a reason once, by pointer).
 */
static const char *row_text(size_t i)
{
	static char *text[ARRAY_SIZE(comparability_table)];
	const struct comparability *c = &comparability_table[i];
	size_t first = i;

	for (size_t j = 0; j < i; j++)
		if (comparability_table[j].reason == c->reason &&
		    !strcmp(comparability_table[j].source, c->source)) {
			first = j;
			break;
		}
	if (!text[first])
		text[first] = xasprintf("%s [source: %s]", c->reason, c->source);
	return text[first];
}

bool metric__comparable(const char *name, const char *kernel_release, const char **ret_reason)
{
	struct kernel_version v;
	bool known = kernel_release && kernel_version_parse(kernel_release, &v) == 0;
	bool listed = false;

	if (!name)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(comparability_table); i++) {
		const struct comparability *c = &comparability_table[i];

		if (match(c->pattern, name) < 0)
			continue;
		listed = true;
		if (!known || !kernel_version_in_range(v, c->from, c->until))
			continue;
		if (c->same)
			return true;
		if (ret_reason)
			*ret_reason = row_text(i);
		return false;
	}
	/* a metric whose meaning depends on the LRU, on a kernel no row covers */
	if (listed && ret_reason)
		*ret_reason = r_unknown;
	return !listed;
}
