// SPDX-License-Identifier: GPL-2.0
/*
 * The list of sampled sources: one row per source, each defined in its own
 * harness/common/source-NAME.c (harness/common/source.h says what a source
 * holds). The agent samples them in this order, one instance per scope,
 * and the host's metric dictionary knows the rows of every one; a new
 * source goes before agent, which measures the sample it ends.
 */
#include "source.h"

#include "util.h"

#define SOURCES(X)   \
	X(vmstat)           \
	X(memory_stat)      \
	X(memory_events)    \
	X(memory_current)   \
	X(memory_pressure)  \
	X(memory_numa_stat) \
	X(node_vmstat)      \
	X(node_numastat)    \
	X(psi_memory)       \
	X(psi_io)           \
	X(psi_cpu)          \
	X(kswapd)           \
	X(lru_gen)          \
	X(perf)             \
	X(reclaim)          \
	X(wss)              \
	X(agent)

#define DECLARE(id) extern const struct source source_##id;
SOURCES(DECLARE)
#undef DECLARE

#define ROW(id) &source_##id,
static const struct source *const table[] = { SOURCES(ROW) };
#undef ROW

const struct source *const *sources_table(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(table);
	return table;
}
