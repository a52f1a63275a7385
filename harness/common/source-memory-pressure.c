// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source memory.pressure (harness/common/source.h): each memcg's
 * cumulative stall time (PSI) in us.
 */
#include "source.h"

#include "util.h"

static const struct metric_info memory_pressure_metrics[] = {
	METRIC("memory.pressure:some.total", "us", COUNTER, LOWER,
	       "time some tasks of the memcg stalled on memory"),
	METRIC("memory.pressure:full.total", "us", COUNTER, LOWER,
	       "time all non-idle tasks of the memcg stalled on memory"),
};

const struct source source_memory_pressure = {
	.name = "memory.pressure",
	.scope = SOURCE_MEMCG,
	.file = "memory.pressure",
	.parse = parse_psi_source,
	.metrics = memory_pressure_metrics,
	.n_metrics = ARRAY_SIZE(memory_pressure_metrics),
	.fallback = METRIC("memory.pressure", "us", COUNTER, LOWER, "memcg pressure stall time"),
};
