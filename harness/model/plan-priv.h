/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the plan parser: its state (struct parser) and what its files share,
 * for plan.c and the plan-NAME.c files only. The uses go one way:
 *
 *   plan.c           the driver: sections, keys, load, free, accessors
 *     plan-check.c     once the file is read: sizes, cross-references
 *     plan-variants.c  [variant] lists (sweeps), their expansion, remaps
 *       plan-keys.c      the key tables of every section
 *         plan-parser.c    errors, key lines, key-value lists
 *
 * each file using only those below it. Every hook returns 0 or
 * parser__fail()'s error.
 */
#ifndef LRUBENCH_PLAN_PRIV_H
#define LRUBENCH_PLAN_PRIV_H

#include "plan.h"
#include "ini.h"

#include <stdbool.h>
#include <stddef.h>

enum section { SEC_NONE, SEC_CAMPAIGN, SEC_GUEST, SEC_VARIANT, SEC_MEMCG, SEC_WORKLOAD };

struct parser {
	const char *path;
	int line;
	char *err;
	struct plan *p;
	enum section sec;
	/* The current section's header ("guest", "variant NAME"): the keys each
	 * gave are kept in ini, so that a key given twice is refused, and checks
	 * made later name its line. */
	char *sec_name;
	struct ini ini;
	int bounds_line; /* where min/max_repetitions or max_time was set */
	int numa_line;	 /* where [guest] numa was set */
};

/* ---- plan-parser.c: the core ---- */

/* Set ps->err to "path:line: MESSAGE" (the message escaped as ini.h does); -EINVAL. */
int parser__fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The line where key was given in section sec ("memcg wl"), or 0. */
int parser__seen_line(const struct parser *ps, const char *sec, const char *key);
/* Append a copy of k = v to the list *kv of *n; kv__free frees a list of n. */
void kv__add(struct kv **kv, size_t *n, const char *k, const char *v);
void kv__free(struct kv *kv, size_t n);

/* ---- plan-keys.c: a key of a section, at ps->line ---- */

int parser__campaign_key(struct parser *ps, const char *k, const char *v);
int parser__guest_key(struct parser *ps, const char *k, const char *v);
int parser__memcg_key(struct parser *ps, const char *k, const char *v);
int parser__workload_key(struct parser *ps, const char *k, const char *v);
/* One knob of variant var, a single value. */
int parser__variant_knob(struct parser *ps, struct plan_variant *var, const char *k,
			 const char *v);
/* Whether the [variant] key k takes a list (a sweep). */
bool variant_key_sweeps(const char *k);

/* ---- plan-variants.c ---- */

/* A key of the current [variant]: a single value, or a list (a sweep). */
int parser__variant_key(struct parser *ps, const char *k, const char *v);
/* Every variant's sweeps expanded: one variant per combination of values. */
int parser__variants_expand(struct parser *ps);

/* ---- plan-check.c ---- */

/* After parsing: sweeps, cross-references, required keys, relative sizes. */
int parser__finish(struct parser *ps);

#endif
