/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metric dictionary: one table (metrics.c) that the sampler's consumers,
 * the store, compare and reports all read. A metric's name is "SOURCE:KEY"
 * (vmstat:pgscan_anon, memory.stat:pgsteal_file, psi.memory:some.total).
 *
 * Metrics not in the table still get a row: metric__lookup() derives kind
 * and unit from the source's rules (vmstat nr_* are gauges in pages, the
 * rest counters, ...).
 *
 * Comparability across the two LRU implementations is a second table keyed
 * by metric pattern and kernel range: a metric whose meaning differs between
 * classic LRU and MGLRU on a kernel gets no cross-LRU verdict.
 */
#ifndef LRUBENCH_METRICS_H
#define LRUBENCH_METRICS_H

#include "kernel-version.h"

#include <stdbool.h>
#include <stddef.h>

enum metric_kind { METRIC_COUNTER, METRIC_GAUGE };
enum metric_better { BETTER_NONE, BETTER_HIGHER, BETTER_LOWER };

struct metric_info {
	const char *name;	 /* "SOURCE:KEY"; a trailing '*' matches a prefix */
	const char *unit;	 /* pages, bytes, events, us, ns */
	enum metric_kind kind;
	enum metric_better better;
	const char *description;
};

/* Fill *ret for name (a table row or a derived default); never fails for a
 * well-formed "SOURCE:KEY". -EINVAL if name has no ':'. */
int metric__lookup(const char *name, struct metric_info *ret);

/*
 * Whether name means the same under classic LRU and MGLRU on the kernel
 * whose release is given ("6.1.0-57-cloud-amd64" or "6.1.192"). Returns true
 * if comparable; otherwise false and *ret_reason (static text) says why.
 */
bool metric__comparable(const char *name, const char *kernel_release, const char **ret_reason);

const char *metric_kind_name(enum metric_kind kind);
/* The dictionary's rows, for listings and reports. */
const struct metric_info *metric__table(size_t *ret_n);

const char *metric_better_name(enum metric_better better);

#endif
