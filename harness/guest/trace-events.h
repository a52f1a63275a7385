/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint ids from tracefs (events/GROUP/NAME/id), for perf_event_open's
 * PERF_TYPE_TRACEPOINT. Reads files only, so tests point it at a fixture.
 */
#ifndef LRUBENCH_TRACE_EVENTS_H
#define LRUBENCH_TRACE_EVENTS_H

#include "reclaim-paths.h"

#include <stddef.h>
#include <stdint.h>

/* Where tracefs is looked for, in order: its own mount, then under debugfs. */
extern const char *const trace_roots[2];

/*
 * The begin and end ids of every reclaim path (ids[path][0], [1]; 0 when
 * the kernel has no such tracepoint), read under the first root holding
 * events/vmscan. Returns how many paths have both, or -ENOENT when no root
 * has events/vmscan; why then says what was looked for and where.
 */
int trace_reclaim_ids(const char *const *roots, size_t nroots, uint64_t ids[RECLAIM_PATHS][2],
		      char *why, size_t why_len);

#endif
