// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source memory.current (harness/common/source.h): each memcg's
 * memory.current, one number, sent as key "bytes".
 */
#include "source.h"

#include "procfs-parse.h"
#include "util.h"

#include <stdint.h>

static unsigned parse_current(const char *buf, size_t len, source_value_fn fn, void *arg)
{
	uint64_t v;

	if (procfs_parse_u64(buf, len, &v) == 0 && v <= INT64_MAX)
		fn(arg, "bytes", 5, (int64_t)v);
	return 0;
}

static const struct metric_info memory_current_metrics[] = {
	METRIC("memory.current:bytes", "bytes", GAUGE, NONE, "memory charged to the memcg"),
};

const struct source source_memory_current = {
	.name = "memory.current",
	.scope = SOURCE_MEMCG,
	.file = "memory.current",
	.parse = parse_current,
	.metrics = memory_current_metrics,
	.n_metrics = ARRAY_SIZE(memory_current_metrics),
	.fallback = METRIC("memory.current", "bytes", GAUGE, NONE, "memcg memory.current"),
};
