// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source node.vmstat (harness/common/source.h): every "key
 * value" line of /sys/devices/system/node/nodeN/vmstat, one instance per
 * node, in a guest with more than one NUMA node ([guest] numa). The file
 * holds the node's node_stat_item and zone counters summed over its zones
 * (node_read_vmstat() in linux-source-6.1 drivers/base/node.c): LRU sizes,
 * free pages, refaults and activations. Reclaim's pgscan/pgsteal are
 * vm_events, global only: they are not here.
 */
#include "source.h"

#include "util.h"

static const struct metric_info node_vmstat_metrics[] = {
	METRIC("node.vmstat:nr_free_pages", "pages", GAUGE, NONE, "free pages on the node"),
	METRIC("node.vmstat:nr_inactive_anon", "pages", GAUGE, NONE,
	       "anon pages on the node's inactive list (classic) or older generations"),
	METRIC("node.vmstat:nr_active_anon", "pages", GAUGE, NONE,
	       "anon pages on the node's active list (classic) or youngest generations"),
	METRIC("node.vmstat:nr_inactive_file", "pages", GAUGE, NONE,
	       "file pages on the node's inactive list (classic) or older generations"),
	METRIC("node.vmstat:nr_active_file", "pages", GAUGE, NONE,
	       "file pages on the node's active list (classic) or youngest generations"),
	METRIC("node.vmstat:nr_dirtied", "pages", COUNTER, NONE, "pages dirtied on the node"),
	METRIC("node.vmstat:nr_written", "pages", COUNTER, NONE, "pages written on the node"),
	METRIC("node.vmstat:nr_vmscan_write", "pages", COUNTER, NONE,
	       "pages written by reclaim on the node"),
	METRIC("node.vmstat:nr_vmscan_immediate_reclaim", "pages", COUNTER, NONE,
	       "pages to reclaim as soon as their writeback ends"),
	METRIC("node.vmstat:nr_*", "pages", GAUGE, NONE, "a page count of the node"),
	METRIC("node.vmstat:workingset_*", "events", COUNTER, NONE,
	       "the node's refaults, activations, restores and shadow-node reclaims"),
	METRIC("node.vmstat:pg*", "pages", COUNTER, NONE, "the node's promotions and demotions"),
};

const struct source source_node_vmstat = {
	.name = "node.vmstat",
	.scope = SOURCE_NODE,
	.file = "vmstat",
	.parse = parse_flat_source,
	.metrics = node_vmstat_metrics,
	.n_metrics = ARRAY_SIZE(node_vmstat_metrics),
	.fallback = METRIC("node.vmstat*", "events", COUNTER, NONE, "a counter of the node"),
};
