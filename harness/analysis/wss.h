/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Working-set size ('lrubench wss PLAN'): a measuring pass over a plan's
 * workloads, then each memcg's working set beside what the workload's own
 * parameters say it should be (wss-model.h).
 *
 * The pass is a campaign of the plan's measuring form (wss__plan): one
 * variant (the baseline's kernel and knobs, the LRU the options name), no
 * memcg limit (memory.max, memory.high, memory.swap.max dropped: a working
 * set is what a workload touches when nothing stops it), no swap (so that
 * memory.reclaim evicts file pages only), and the guest agent's probe
 * (run.conf wss_*, agent-wss.c) taking windows from start_ms on. Its
 * options are the campaign's meta "wss.opts", which workers and --resume
 * apply again.
 *
 * The estimates live in the campaign database, in a table its writer makes:
 *   wss(memcg, quantity, method, pages, sd, windows, window_s, known, model,
 *       source, PK(memcg, quantity, method))
 * quantity is "anon" (anon pages touched through page tables), "file"
 * (file pages touched, read() included: method reclaim), "file-mapped"
 * (file pages touched through page tables) or "total" (anon + file); pages
 * the mean over the windows of every completed run, sd their spread; known
 * the models' expectation over the same windows (NULL without a model),
 * model how it was found; source the measuring campaign, its kernel and LRU.
 * 'lrubench report DB --wss WSS.db' copies the table into another campaign,
 * whose report then shows each memcg's memory.max against its working set.
 */
#ifndef LRUBENCH_WSS_H
#define LRUBENCH_WSS_H

#include "store-wss.h" /* struct wss_row: a row of the table */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct plan;
struct store;

struct wss_opts {
	char *variant;	/* NULL: the plan's baseline */
	char *lru;	/* mglru (default) or classic */
	char *methods;	/* NULL: gen,ref,reclaim under MGLRU, ref,reclaim under classic */
	uint64_t start_ms, window_ms, windows;
};

/* "key=value;..." as the campaign's meta keeps it, and back. */
char *wss_opts__format(const struct wss_opts *o);
int wss_opts__parse(const char *text, struct wss_opts *ret, char **ret_err);
void wss_opts__clear(struct wss_opts *o);

/* Turn p into its measuring form (above). -EINVAL/-ENOENT with *ret_err. */
int wss__plan(struct plan *p, const struct wss_opts *o, char **ret_err);

struct wss {
	struct wss_row *rows;
	size_t nrows;
	uint64_t global_reclaim; /* pages reclaimed by kswapd or direct reclaim in the runs */
	size_t windows_partial;	 /* windows left out: a workload started or ended in them */
};

/*
 * The estimates of a measuring campaign in st: its windows (the "wss"
 * values of its completed runs; a window that a workload of its memcg did
 * not run through, by the agent's workload-start and -exit events, is left
 * out), the plan's workloads and their results. -ENODATA when no window was
 * measured.
 */
int wss__analyse(struct store *st, struct wss **ret);
/* Replace the store's wss table with w. */
int wss__store(struct store *st, const struct wss *w);
/* -ENOENT if the store holds no wss table (or an empty one). */
int wss__load(struct store *st, struct wss **ret);
/* The row of memcg and quantity (the first method in the table's order), or NULL. */
const struct wss_row *wss__find(const struct wss *w, const char *memcg, const char *quantity);
/* The estimates, one line a row, with the known value and the error where there is one. */
void wss__print(const struct wss *w, FILE *f);
/*
 * Each memcg's memory.max (plan p's, and each variant's own where it sets
 * one) against its total working set in w. Prints nothing if none applies.
 */
void wss__print_limits(const struct wss *w, const struct plan *p, FILE *f);
void wss__free(struct wss *w);
void wss__freep(struct wss **w);

#endif
