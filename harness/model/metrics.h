/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metric dictionary that the store, compare and reports all read. A
 * metric's name is "SOURCE:KEY" (vmstat:pgscan_anon, memory.stat:pgsteal_file,
 * psi.memory:some.total); its rows are those of the sampled sources
 * (harness/common/sources.c), each source's in its own file, shared with the
 * guest agent that samples them.
 *
 * Metrics no row names still get one: metric__lookup() takes their source's
 * fallback (vmstat keys are event counters, memory.stat sizes in bytes, ...).
 *
 * Comparability across the two LRU implementations is a second table keyed
 * by metric pattern and kernel range: a metric whose meaning differs between
 * classic LRU and MGLRU on a kernel gets no cross-LRU verdict.
 */
#ifndef LRUBENCH_METRICS_H
#define LRUBENCH_METRICS_H

#include "kernel-version.h"
#include "source.h" /* struct metric_info, enum metric_kind, enum metric_better */

#include <stdbool.h>
#include <stddef.h>

/* Fill *ret for name (a source's row or its fallback); never fails for a
 * well-formed "SOURCE:KEY". -EINVAL if name has no ':'. */
int metric__lookup(const char *name, struct metric_info *ret);
/* The same over the n sources given (metric__lookup: sources_table()). */
int metric__lookup_in(const struct source *const *sources, size_t n, const char *name,
		      struct metric_info *ret);

/*
 * Whether name means the same under classic LRU and MGLRU on the kernel
 * whose release is given ("6.1.0-57-cloud-amd64" or "6.1.192"). Returns true
 * if comparable; otherwise false and *ret_reason (static text) says why.
 */
bool metric__comparable(const char *name, const char *kernel_release, const char **ret_reason);
/*
 * Whether the comparability table covers the kernel whose release is given:
 * some row was read for it. On a kernel it does not cover, the metrics whose
 * meaning depends on the LRU are marked not comparable for want of knowledge
 * ("unknown"), which is no evidence that they differ.
 */
bool metric__comparability_known(const char *kernel_release);

const char *metric_kind_name(enum metric_kind kind);

const char *metric_better_name(enum metric_better better);

#endif
