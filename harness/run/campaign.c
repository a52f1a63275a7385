// SPDX-License-Identifier: GPL-2.0
/*
 * A campaign's three ways in (campaign.h): a new one from a plan, an
 * interrupted one resumed from its database, and one run of either in a
 * worker process. The jobs they share are in the campaign-*.c files
 * (campaign-priv.h lists them).
 */
#include "campaign-priv.h"
#include "classify.h"
#include "plan.h"
#include "store-campaign.h"
#include "store.h"
#include "util.h"

#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

static void campaign_free(struct campaign *c)
{
	campaign__kernels_free(c);
	free(c->variant_id);
	free(c->name);
	free(c->dir);
	store__close(c->st);
}

/* Hand the finished campaign to its command: its store stays open. */
static void campaign_done(struct campaign *c, const char *db, const char *history,
			  int failed_runs, struct campaign_done *ret)
{
	ret->st = TAKE_PTR(c->st);
	ret->db = xstrdup(db);
	ret->name = xstrdup(c->name);
	ret->history = history ? xstrdup(history) : NULL;
	ret->failed_runs = failed_runs;
}

void campaign_done__clear(struct campaign_done *d)
{
	store__close(d->st);
	free(d->db);
	free(d->name);
	free(d->history);
	memset(d, 0, sizeof(*d));
}

int campaign__run(struct plan *plan, const struct campaign_opts *o, struct campaign_done *ret)
{
	struct campaign c = { .plan = plan, .o = o };
	_cleanup_free_ char *db = NULL;
	char stamp[32];
	time_t now = time(NULL);
	int reps = o->repetitions > 0 ? o->repetitions : plan->repetitions;
	int failed_runs = 0, r;
	size_t nruns = 0;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	/* Shards started in the same second on one host keep apart their run directories. */
	if (o->shard.count)
		c.name = xasprintf("%s-%s-s%dof%d", plan->name, stamp, o->shard.index,
				   o->shard.count);
	else
		c.name = xasprintf("%s-%s", plan->name, stamp);
	c.adaptive = plan->adaptive && o->repetitions <= 0;
	if (c.adaptive && o->shard.count) {
		log_err("--shard %d/%d: %s has repetitions = auto, which adds blocks as the data "
			"comes in; shards need a fixed number: give --reps N",
			o->shard.index, o->shard.count, plan->path);
		r = -EINVAL;
		goto out;
	}
	if (!shard__fits(&o->shard, reps)) {
		log_err("--shard %d/%d: the plan has %d repetitions; a shard runs whole repetitions "
			"(every variant on each host), so at most %d shards (or raise --reps)",
			o->shard.index, o->shard.count, reps, reps);
		r = -EINVAL;
		goto out;
	}
	if (o->clock) {
		_cleanup_free_ char *err = NULL;

		plan__set_clock(plan, o->clock);
		r = plan__placements_check(plan, &err);
		if (r < 0) {
			log_err("%s (--clock %s)", err, o->clock);
			goto out;
		}
	}
	r = campaign__kernels_resolve(&c);
	if (r < 0)
		goto out;
	r = campaign__clock_resolve(&c);
	if (r < 0)
		goto out;

	{
		struct sysinfo si;

		if (sysinfo(&si) == 0 && plan->mem_bytes > (uint64_t)si.totalram * si.mem_unit) {
			log_err("%s: guest memory %llu MiB is more than this host has (%llu MiB)",
				plan->path, (unsigned long long)(plan->mem_bytes >> 20),
				(unsigned long long)(((uint64_t)si.totalram * si.mem_unit) >> 20));
			r = -ENOMEM;
			goto out;
		}
	}
	mkdir_p(o->results_dir);
	db = o->db_path ? xstrdup(o->db_path) : xasprintf("%s/%s.db", o->results_dir, c.name);
	if (access(db, F_OK) == 0) {
		log_err("%s exists: choose another --db, or continue it with --resume", db);
		r = -EEXIST;
		goto out;
	}
	c.dir = xasprintf("%s/%s", o->results_dir, c.name);
	mkdir_p(c.dir);
	r = store__open(db, &c.st);
	if (r < 0) {
		log_err("%s: cannot open the store: %s", db, strerror(-r));
		goto out;
	}
	r = campaign__record(&c, db, now, reps, &nruns);
	if (r < 0)
		goto out;
	if (o->shard.count)
		log_info("campaign %s: shard %d/%d, %zu of the plan's %zu runs, store %s", c.name,
			 o->shard.index, o->shard.count, nruns, (size_t)reps * plan->nvariants, db);
	else if (c.adaptive)
		log_info("campaign %s: %zu runs (%zu variants x %d repetitions), then a block at a "
			 "time until every key metric is decided (at most %d repetitions%s), store "
			 "%s",
			 c.name, nruns, plan->nvariants, reps, plan->max_repetitions,
			 plan->max_time_ms ? " and max_time" : "", db);
	else
		log_info("campaign %s: %zu runs (%zu variants x %d repetitions), store %s", c.name,
			 nruns, plan->nvariants, reps, db);
	r = campaign__execute(&c, db, &failed_runs);
	if (r == 0)
		campaign_done(&c, db, o->history, failed_runs, ret);
out:
	campaign_free(&c);
	return r;
}

int campaign__resume(const char *db, const struct campaign_opts *opts, struct campaign_done *ret)
{
	struct campaign_opts o = *opts;
	struct campaign c = { .o = &o };
	char *saved[CAMPAIGN_SAVED_OPTS] = { 0 };
	_cleanup_free_ struct store_run *running = NULL;
	size_t nrunning = 0;
	int failed_runs = 0, r;

	if (access(db, R_OK | W_OK) < 0) {
		r = -errno;
		log_err("--resume %s: %s", db, strerror(errno));
		return r;
	}
	r = campaign__load(&c, db, &o, saved);
	if (r < 0)
		goto out;
	/* A run left 'running' was cut off with the host: an infrastructure failure. */
	if (store__runs_running(c.st, &running, &nrunning) < 0) {
		r = -EIO;
		goto out;
	}
	for (size_t i = 0; i < nrunning; i++) {
		const struct store_run *run = &running[i];

		store__run_finish(c.st, run->id, RUN_FAILED_INFRA,
				  "lrubench stopped during the run (resumed later)", now_real_ns());
		r = campaign__retry_infra(&c, run->id, run->variant_id, run->rep, run->seed, false);
		if (r < 0)
			break;
	}
	store__commit(c.st);
	log_info("resuming campaign %s: %lld runs left", c.name,
		 (long long)store__runs_pending(c.st));
	r = campaign__execute(&c, db, &failed_runs);
	if (r == 0)
		campaign_done(&c, db, o.history, failed_runs, ret);
out:
	plan__free(c.plan);
	campaign_free(&c);
	for (size_t i = 0; i < ARRAY_SIZE(saved); i++)
		free(saved[i]);
	return r;
}

int campaign__worker(const char *db, int64_t run_id, const struct campaign_opts *opts)
{
	struct campaign_opts o = *opts;
	struct campaign c = { .o = &o, .quiet = true };
	char *saved[CAMPAIGN_SAVED_OPTS] = { 0 };
	struct store_run run = { .id = run_id, .variant_id = -1 };
	int vi = -1, r, code;
	struct run_outcome out = { .status = RUN_FAILED_INFRA };

	campaign__signals_install();
	r = campaign__load(&c, db, &o, saved);
	if (r == 0) {
		if (store__run_get(c.st, run_id, &run) <= 0)
			run = (struct store_run){ .id = run_id, .variant_id = -1 };
		vi = campaign__variant_index(&c, run.variant_id);
	}
	if (r < 0 || vi < 0) {
		log_err("run %lld: cannot load it from %s", (long long)run_id, db);
		code = WORKER_STORE_FAILED;
	} else {
		r = campaign__run_one(&c, (size_t)vi, &run, &out);
		code = r < 0 ? WORKER_STORE_FAILED : out.host_trouble ? WORKER_HOST_TROUBLE : WORKER_OK;
	}
	plan__free(c.plan);
	campaign_free(&c);
	for (size_t i = 0; i < ARRAY_SIZE(saved); i++)
		free(saved[i]);
	return code;
}
