/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaim paths whose latency lrubench traces: one row per path, its
 * begin and end tracepoints (vmscan group, mm/vmscan.c) and the name the
 * stream, the store and the reports give it. The guest agent opens the
 * tracepoints; the host reads the names back (PROTOCOL.md, source reclaim).
 */
#ifndef LRUBENCH_RECLAIM_PATHS_H
#define LRUBENCH_RECLAIM_PATHS_H

#include <stdbool.h>
#include <stddef.h>

struct reclaim_path {
	const char *name;     /* KEY part in the stream: "direct", "memcg", ... */
	const char *begin_tp; /* tracepoint under events/vmscan/ */
	const char *end_tp;
	const char *label;    /* for plots and reports */
	/* A task waits for it (a stall), as opposed to kswapd's background work. */
	bool stall;
	/* Per memcg as well as system-wide (kswapd works for a node, not a memcg). */
	bool per_memcg;
	/* A second begin while open continues the period (kswapd woken again
	 * before it slept) instead of starting a new one. */
	bool begin_continues;
};

enum { RECLAIM_PATHS = 4 };
extern const struct reclaim_path reclaim_paths[RECLAIM_PATHS];

/* The row named name (length len), or NULL. */
const struct reclaim_path *reclaim_path_find(const char *name, size_t len);

#endif
