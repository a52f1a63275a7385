// SPDX-License-Identifier: GPL-2.0
/*
 * The traced reclaim paths, read in linux-source-6.1 mm/vmscan.c:
 * try_to_free_pages() brackets global direct reclaim with
 * mm_vmscan_direct_reclaim_begin/end; try_to_free_mem_cgroup_pages() (memcg
 * limit, memory.high, memory.reclaim) with mm_vmscan_memcg_reclaim_begin/end;
 * mem_cgroup_shrink_node() (cgroup v1 soft limit) with
 * mm_vmscan_memcg_softlimit_reclaim_begin/end; kswapd() emits
 * mm_vmscan_kswapd_wake before balance_pgdat() and mm_vmscan_kswapd_sleep
 * only when it goes fully to sleep, so its period includes short naps.
 */
#include "reclaim-paths.h"

#include <string.h>

const struct reclaim_path reclaim_paths[RECLAIM_PATHS] = {
	{ "direct", "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
	  "direct reclaim", true, true, false },
	{ "memcg", "mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
	  "memcg reclaim", true, true, false },
	{ "softlimit", "mm_vmscan_memcg_softlimit_reclaim_begin",
	  "mm_vmscan_memcg_softlimit_reclaim_end", "soft-limit reclaim", true, true, false },
	{ "kswapd", "mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep", "kswapd awake", false,
	  false, true },
};

const struct reclaim_path *reclaim_path_find(const char *name, size_t len)
{
	for (size_t i = 0; i < RECLAIM_PATHS; i++)
		if (strlen(reclaim_paths[i].name) == len && !memcmp(reclaim_paths[i].name, name, len))
			return &reclaim_paths[i];
	return NULL;
}
