// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source perf (harness/common/source.h): each workload's
 * counters through libperf (harness/guest/agent-perf.c); the agent makes its
 * values (feeds[] in harness/guest/sampler.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info perf_metrics[] = {
	METRIC("perf:task-clock", "ns", COUNTER, NONE, "CPU time of the workload"),
	METRIC("perf:page-faults", "events", COUNTER, NONE, "page faults of the workload"),
	METRIC("perf:major-faults", "events", COUNTER, LOWER, "major faults of the workload"),
	METRIC("perf:minor-faults", "events", COUNTER, NONE, "minor faults of the workload"),
	METRIC("perf:context-switches", "events", COUNTER, NONE,
	       "context switches of the workload"),
	METRIC("perf:*", "events", COUNTER, NONE, "perf counter of the workload"),
};

const struct source source_perf = {
	.name = "perf",
	.scope = SOURCE_WORKLOAD,
	.metrics = perf_metrics,
	.n_metrics = ARRAY_SIZE(perf_metrics),
	.fallback = METRIC("perf", "events", COUNTER, NONE, "perf counter"),
};
