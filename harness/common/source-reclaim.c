// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source reclaim (harness/common/source.h): the stall histograms
 * of the reclaim tracer (trace=reclaim, harness/guest/agent-trace.c), whose
 * values carry their own scope, system-wide or a memcg's (PROTOCOL.md,
 * "Reclaim stall histograms"); the agent makes its values (feeds[] in
 * harness/guest/sampler.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info reclaim_metrics[] = {
	/* reclaim: periods between a path's begin and end tracepoints (reclaim-paths.c,
	 * agent-trace.c); KEY is PART.PATH, PATH direct, memcg, softlimit or kswapd */
	METRIC("reclaim:count.*", "events", COUNTER, LOWER,
	       "reclaim periods that ended (a task's stall; kswapd: wake to sleep)"),
	METRIC("reclaim:total_ns.*", "ns", COUNTER, LOWER, "time the reclaim periods took, summed"),
	METRIC("reclaim:hist.*", "events", COUNTER, NONE,
	       "reclaim periods whose duration falls in the bucket starting at the key's last "
	       "number (ns; log-linear, 8 buckets per octave)"),
	METRIC("reclaim:p50_ns.*", "ns", GAUGE, LOWER,
	       "median duration of the run's reclaim periods (from its histogram)"),
	METRIC("reclaim:p99_ns.*", "ns", GAUGE, LOWER,
	       "99th percentile of the run's reclaim period durations (from its histogram)"),
	METRIC("reclaim:p999_ns.*", "ns", GAUGE, LOWER,
	       "99.9th percentile of the run's reclaim period durations (from its histogram)"),
	METRIC("reclaim:per_s.*", "1/s", GAUGE, LOWER, "reclaim periods per second of the run"),
	METRIC("reclaim:ns_per_page.*", "ns", GAUGE, LOWER,
	       "reclaim time per page reclaimed: the path's periods summed over the pages it "
	       "took (memcg: the memcg's pgsteal; direct, kswapd: vmstat pgsteal_direct, "
	       "pgsteal_kswapd)"),
	METRIC("reclaim:records", "events", COUNTER, NONE, "tracepoint records the agent read"),
	METRIC("reclaim:lost", "events", COUNTER, LOWER,
	       "tracepoint records lost to a full ring buffer"),
	METRIC("reclaim:unpaired", "events", COUNTER, LOWER,
	       "records without their begin or end (lost, or before tracing began)"),
	METRIC("reclaim:bad_records", "events", COUNTER, LOWER,
	       "ring records the agent could not read"),
	METRIC("reclaim:drains", "events", COUNTER, NONE, "times the agent read the rings"),
	METRIC("reclaim:open", "events", GAUGE, NONE,
	       "reclaim periods begun and not ended at the sample"),
	METRIC("reclaim:cpu_ns", "ns", COUNTER, LOWER,
	       "CPU time the guest agent spent reading the rings and pairing records"),
};

const struct source source_reclaim = {
	.name = "reclaim",
	.scope = SOURCE_SYSTEM,
	.metrics = reclaim_metrics,
	.n_metrics = ARRAY_SIZE(reclaim_metrics),
	.fallback = METRIC("reclaim", "events", COUNTER, NONE, "reclaim tracer value"),
};
