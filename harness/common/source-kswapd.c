// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source kswapd (harness/common/source.h): CPU time of every
 * kswapd thread, from their /proc/PID/stat found once when the agent starts;
 * the agent makes its values (feeds[] in harness/guest/sampler.c).
 */
#include "source.h"

#include "util.h"

static const struct metric_info kswapd_metrics[] = {
	METRIC("kswapd:cpu_ns", "ns", COUNTER, LOWER,
	       "CPU time of every kswapd thread (/proc/PID/schedstat, ns; utime + stime in "
	       "clock ticks where the kernel has no schedstat)"),
};

const struct source source_kswapd = {
	.name = "kswapd",
	.scope = SOURCE_SYSTEM,
	.metrics = kswapd_metrics,
	.n_metrics = ARRAY_SIZE(kswapd_metrics),
	.fallback = METRIC("kswapd", "ns", COUNTER, LOWER, "kswapd time"),
};
