// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source memory.events (harness/common/source.h): each memcg's
 * counts of boundary events (__memory_events_show() in 6.1 mm/memcontrol.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info memory_events_metrics[] = {
	/* memory.events: counts of boundary events */
	METRIC("memory.events:low", "events", COUNTER, NONE, "reclaimed though under memory.low"),
	METRIC("memory.events:high", "events", COUNTER, LOWER,
	       "throttled for exceeding memory.high"),
	METRIC("memory.events:max", "events", COUNTER, LOWER, "about to exceed memory.max"),
	METRIC("memory.events:oom", "events", COUNTER, LOWER,
	       "reached memory.max and allocation failed"),
	METRIC("memory.events:oom_kill", "events", COUNTER, LOWER,
	       "processes killed by the memcg OOM killer"),
	METRIC("memory.events:oom_group_kill", "events", COUNTER, LOWER, "memcg OOM group kills"),
};

const struct source source_memory_events = {
	.name = "memory.events",
	.scope = SOURCE_MEMCG,
	.file = "memory.events",
	.parse = parse_flat_source,
	.metrics = memory_events_metrics,
	.n_metrics = ARRAY_SIZE(memory_events_metrics),
	.fallback = METRIC("memory.events*", "events", COUNTER, NONE, "memcg event counter"),
};
