// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled sources psi.memory, psi.io and psi.cpu (harness/common/source.h):
 * /proc/pressure/{memory,io,cpu}, cumulative stall time (PSI) in us,
 * system-wide. Their fallback covers any psi.* source.
 */
#include "source.h"

#include "util.h"

static const struct metric_info psi_memory_metrics[] = {
	METRIC("psi.memory:some.total", "us", COUNTER, LOWER, "time some tasks stalled on memory"),
	METRIC("psi.memory:full.total", "us", COUNTER, LOWER,
	       "time all non-idle tasks stalled on memory"),
};

static const struct metric_info psi_io_metrics[] = {
	METRIC("psi.io:some.total", "us", COUNTER, LOWER, "time some tasks stalled on I/O"),
	METRIC("psi.io:full.total", "us", COUNTER, LOWER, "time all non-idle tasks stalled on I/O"),
};

static const struct metric_info psi_cpu_metrics[] = {
	METRIC("psi.cpu:some.total", "us", COUNTER, LOWER, "time some tasks waited for a CPU"),
	METRIC("psi.cpu:full.total", "us", COUNTER, LOWER,
	       "time all non-idle tasks waited for a CPU"),
};

const struct source source_psi_memory = {
	.name = "psi.memory",
	.scope = SOURCE_SYSTEM,
	.file = "/proc/pressure/memory",
	.parse = parse_psi_source,
	.metrics = psi_memory_metrics,
	.n_metrics = ARRAY_SIZE(psi_memory_metrics),
	.fallback = METRIC("psi.*", "us", COUNTER, LOWER, "pressure stall time"),
};

const struct source source_psi_io = {
	.name = "psi.io",
	.scope = SOURCE_SYSTEM,
	.file = "/proc/pressure/io",
	.parse = parse_psi_source,
	.metrics = psi_io_metrics,
	.n_metrics = ARRAY_SIZE(psi_io_metrics),
	.fallback = METRIC("psi.*", "us", COUNTER, LOWER, "pressure stall time"),
};

const struct source source_psi_cpu = {
	.name = "psi.cpu",
	.scope = SOURCE_SYSTEM,
	.file = "/proc/pressure/cpu",
	.parse = parse_psi_source,
	.metrics = psi_cpu_metrics,
	.n_metrics = ARRAY_SIZE(psi_cpu_metrics),
	.fallback = METRIC("psi.*", "us", COUNTER, LOWER, "pressure stall time"),
};
