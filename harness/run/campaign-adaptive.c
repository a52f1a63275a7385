// SPDX-License-Identifier: GPL-2.0
/*
 * A campaign with repetitions = auto (adaptive.h): when its queue runs dry,
 * its key metrics so far decide whether a block more (every variant once)
 * is queued or it stops, and why.
 */
#include "adaptive.h"
#include "verdict.h"
#include "campaign-priv.h"
#include "plan.h"
#include "store-campaign.h"
#include "store.h"
#include "util.h"

#include <string.h>

/*
 * An adaptive campaign whose queue ran dry: look at the key metrics and add
 * a block (every variant once, in plan order, after everything else), or
 * record why it stops. 1 = a block was added, 0 = stop, -errno.
 */
int campaign__adaptive_more(struct campaign *c, const char *db, int64_t wall_ms)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_free_ char *why = NULL;
	struct adaptive_state s = {
		.blocks = (int)store__run_blocks(c->st),
		.max_blocks = c->plan->max_repetitions,
		.elapsed_ms = (uint64_t)wall_ms,
		.max_time_ms = c->plan->max_time_ms,
	};
	int64_t ord = store__run_next_ord(c->st);
	enum adaptive_step step;
	int r = analysis__run(c->st, NULL, NULL, &an);

	if (r < 0) {
		log_err("%s: cannot analyse the blocks so far: %s", db, strerror(-r));
		return r;
	}
	step = adaptive__next(an, &s, &why);
	if (step != ADAPTIVE_CONTINUE) {
		log_info("adaptive: stop: %s", why);
		store__meta_set(c->st, "adaptive.stop", why);
		return store__commit(c->st) < 0 ? -EIO : 0;
	}
	for (size_t i = 0; i < c->plan->nvariants; i++) {
		int64_t id;

		r = store__run_add(c->st, c->variant_id[i], s.blocks, (int)ord + (int)i,
				   c->plan->seed + (uint64_t)s.blocks, &id);
		if (r < 0) {
			log_err("%s: %s", db, store__errmsg(c->st));
			return r;
		}
	}
	store__meta_set_int(c->st, "repetitions", s.blocks + 1);
	store__meta_set_int(c->st, "plan.runs", (int64_t)((size_t)(s.blocks + 1) * c->plan->nvariants));
	log_info("adaptive: %s; adding block %d of at most %d", why, s.blocks + 1, s.max_blocks);
	return store__commit(c->st) < 0 ? -EIO : 1;
}
