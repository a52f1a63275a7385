// SPDX-License-Identifier: GPL-2.0
#include "stall-pair.h"

#include "util.h"

#include <stdlib.h>

/* A task's pending state on one path: a begin awaiting its end, or an orphan end. */
struct pending {
	uint32_t tid;
	uint8_t path;
	bool orphan; /* t is an end with no begin yet */
	uint64_t t;
	int32_t scope; /* of the orphan end */
};

struct stall_pairs {
	size_t nscopes;
	struct loghist *hist; /* [(nscopes + 1) x RECLAIM_PATHS], system first */
	struct pending *p;    /* few: tasks in reclaim right now */
	size_t np, cap;
	struct stall_pair_stats stats;
};

int stall_pairs_new(size_t nscopes, struct stall_pairs **ret)
{
	struct stall_pairs *sp = xcalloc(1, sizeof(*sp));

	sp->nscopes = nscopes;
	sp->hist = xcalloc((nscopes + 1) * RECLAIM_PATHS, sizeof(*sp->hist));
	*ret = sp;
	return 0;
}

void stall_pairs_free(struct stall_pairs *sp)
{
	if (!sp)
		return;
	free(sp->hist);
	free(sp->p);
	free(sp);
}

static struct loghist *hist(const struct stall_pairs *sp, int scope, unsigned path)
{
	return &sp->hist[(size_t)(scope + 1) * RECLAIM_PATHS + path];
}

const struct loghist *stall_pairs_hist(const struct stall_pairs *sp, int scope, unsigned path)
{
	if (scope < STALL_SCOPE_NONE || scope >= (int)sp->nscopes || path >= RECLAIM_PATHS)
		return NULL;
	return hist(sp, scope, path);
}

const struct stall_pair_stats *stall_pairs_stats(const struct stall_pairs *sp)
{
	return &sp->stats;
}

size_t stall_pairs_open(const struct stall_pairs *sp)
{
	size_t n = 0;

	for (size_t i = 0; i < sp->np; i++)
		n += !sp->p[i].orphan;
	return n;
}

static void record(struct stall_pairs *sp, unsigned path, int scope, uint64_t begin, uint64_t end)
{
	if (end < begin) {
		sp->stats.backwards++;
		return;
	}
	loghist__add(hist(sp, STALL_SCOPE_NONE, path), end - begin);
	if (scope >= 0 && (size_t)scope < sp->nscopes && reclaim_paths[path].per_memcg)
		loghist__add(hist(sp, scope, path), end - begin);
	sp->stats.paired++;
}

static void drop(struct stall_pairs *sp, size_t i)
{
	sp->p[i] = sp->p[--sp->np];
}

void stall_pairs_feed(struct stall_pairs *sp, const struct stall_event *ev)
{
	struct pending *pd = NULL;
	size_t i;

	if (ev->path >= RECLAIM_PATHS)
		return;
	for (i = 0; i < sp->np; i++)
		if (sp->p[i].tid == ev->tid && sp->p[i].path == ev->path) {
			pd = &sp->p[i];
			break;
		}
	if (ev->begin) {
		if (pd && pd->orphan && pd->t >= ev->t) {
			/* its end was read first (another CPU's ring) */
			record(sp, ev->path, pd->scope, ev->t, pd->t);
			drop(sp, i);
			return;
		}
		if (pd && !pd->orphan) {
			if (reclaim_paths[ev->path].begin_continues)
				return;
			sp->stats.restarted++;
		} else if (pd) {
			sp->stats.orphans++; /* an end from before this begin: not its end */
		}
	} else if (pd && !pd->orphan) {
		record(sp, ev->path, ev->scope, pd->t, ev->t);
		drop(sp, i);
		return;
	} else if (pd) {
		sp->stats.orphans++; /* two ends: the first lost its begin */
	}
	if (!pd) {
		if (sp->np == sp->cap) {
			sp->cap = sp->cap ? 2 * sp->cap : 16;
			sp->p = xrealloc(sp->p, sp->cap, sizeof(*sp->p));
		}
		pd = &sp->p[sp->np++];
	}
	*pd = (struct pending){
		.tid = ev->tid,
		.path = ev->path,
		.orphan = !ev->begin,
		.t = ev->t,
		.scope = ev->scope,
	};
}

static int by_time(const void *a, const void *b)
{
	const struct stall_event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* equal times: a begin before an end */
	return (int)y->begin - (int)x->begin;
}

void stall_pairs_feed_batch(struct stall_pairs *sp, struct stall_event *ev, size_t n)
{
	qsort(ev, n, sizeof(*ev), by_time);
	for (size_t i = 0; i < n; i++)
		stall_pairs_feed(sp, &ev[i]);
}

void stall_pairs_expire(struct stall_pairs *sp, uint64_t before)
{
	for (size_t i = 0; i < sp->np;) {
		if (sp->p[i].orphan && sp->p[i].t < before) {
			sp->stats.orphans++;
			drop(sp, i);
			continue;
		}
		i++;
	}
}
