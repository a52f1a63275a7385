// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source node.numastat (harness/common/source.h):
 * /sys/devices/system/node/nodeN/numastat, one instance per node in a guest
 * with more than one NUMA node: where the node's allocations were meant to
 * go and where they went (node_read_numastat() in linux-source-6.1
 * drivers/base/node.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info node_numastat_metrics[] = {
	METRIC("node.numastat:numa_hit", "pages", COUNTER, NONE,
	       "allocated on this node as intended"),
	METRIC("node.numastat:numa_miss", "pages", COUNTER, LOWER,
	       "allocated on this node though meant for another (it was full)"),
	METRIC("node.numastat:numa_foreign", "pages", COUNTER, LOWER,
	       "meant for this node but allocated on another"),
	METRIC("node.numastat:interleave_hit", "pages", COUNTER, NONE,
	       "interleaved allocations that got this node"),
	METRIC("node.numastat:local_node", "pages", COUNTER, NONE,
	       "allocated here by a task running here"),
	METRIC("node.numastat:other_node", "pages", COUNTER, NONE,
	       "allocated here by a task running on another node"),
};

const struct source source_node_numastat = {
	.name = "node.numastat",
	.scope = SOURCE_NODE,
	.file = "numastat",
	.parse = parse_flat_source,
	.metrics = node_numastat_metrics,
	.n_metrics = ARRAY_SIZE(node_numastat_metrics),
	.fallback = METRIC("node.numastat*", "pages", COUNTER, NONE, "a NUMA allocation counter"),
};
