// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source agent (harness/common/source.h): the guest agent's own
 * cost, this sample's included, so it is the last row of the list
 * (harness/common/sources.c); the agent makes its values (feeds[] in
 * harness/guest/sampler.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info agent_metrics[] = {
	METRIC("agent:cpu_ns", "ns", COUNTER, LOWER,
	       "CPU time of the guest agent (measurement overhead)"),
	METRIC("agent:sample_ns", "ns", GAUGE, LOWER, "time spent taking this sample"),
	METRIC("agent:*", "ns", COUNTER, NONE, "guest agent bookkeeping"),
};

const struct source source_agent = {
	.name = "agent",
	.scope = SOURCE_SYSTEM,
	.metrics = agent_metrics,
	.n_metrics = ARRAY_SIZE(agent_metrics),
	.fallback = METRIC("agent", "ns", COUNTER, NONE, "guest agent bookkeeping"),
};
