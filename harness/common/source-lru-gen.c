// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source lru_gen (harness/common/source.h): MGLRU's debugfs file,
 * sent as "g" lines (one per generation), not as values, so it has no
 * metric rows; the agent reads it only when the file is there and MGLRU is
 * on (emit_lru_gen() in harness/guest/sampler.c).
 */
#include "source.h"

const struct source source_lru_gen = {
	.name = "lru_gen",
	.scope = SOURCE_SYSTEM,
	.file = "/sys/kernel/debug/lru_gen", /* LRU_GEN_DEBUGFS of harness/guest/agent.h */
};
