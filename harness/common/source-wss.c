// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source wss (harness/common/source.h): the working-set probe of
 * 'lrubench wss' (harness/guest/agent-wss.c), one window of each memcg in
 * the sample taken right after the window ends; the agent makes its values
 * (feeds[] in harness/guest/sampler.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info wss_metrics[] = {
	/* the working-set probe of 'lrubench wss' (agent-wss.c): one window a sample */
	METRIC("wss:*", "pages", GAUGE, NONE, "pages touched in a working-set window"),
	METRIC("wss:window", "windows", GAUGE, NONE, "number of the working-set window"),
	METRIC("wss:gen.window_ns", "ns", GAUGE, NONE, "working-set window between two agings"),
	METRIC("wss:ref.window_ns", "ns", GAUGE, NONE,
	       "working-set window between clear_refs and smaps"),
	METRIC("wss:ref.procs", "processes", GAUGE, NONE, "processes whose smaps were read"),
	METRIC("wss:reads", "calls", GAUGE, NONE,
	       "read() calls of the memcg's processes in the window"),
	METRIC("wss:reads.window_ns", "ns", GAUGE, NONE,
	       "window of the read() count (the file window)"),
	METRIC("wss:drop.window_ns", "ns", GAUGE, NONE,
	       "working-set window from the drop_caches to the count"),
	METRIC("wss:drop.ns", "ns", GAUGE, NONE, "time the window's opening drop_caches took"),
	METRIC("wss:reclaim.window_ns", "ns", GAUGE, NONE,
	       "working-set window from the memory.reclaim to the count"),
	METRIC("wss:reclaim.ns", "ns", GAUGE, NONE,
	       "time the window's opening memory.reclaim took"),
	METRIC("wss:step_ns", "ns", GAUGE, NONE,
	       "time the probe spent on the memcg at the boundary"),
};

const struct source source_wss = {
	.name = "wss",
	.scope = SOURCE_MEMCG,
	.metrics = wss_metrics,
	.n_metrics = ARRAY_SIZE(wss_metrics),
};
