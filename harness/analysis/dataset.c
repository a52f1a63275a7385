// SPDX-License-Identifier: GPL-2.0
#include "dataset.h"
#include "catalogue.h"
#include "plan.h"
#include "stall.h"
#include "store-dataset.h"
#include "store.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The reclaim counters compared, as increases over each run; memcg and
 * workload counters per memcg or workload. The dictionary (metrics.c)
 * supplies unit and direction. One row per counter.
 */
static const struct {
	const char *name;
	bool decides; /* in the "system" family of key metrics (verdict.h) */
} key_counters[] = {
	{ "vmstat:pgscan_anon", false },
	{ "vmstat:pgscan_file", false },
	{ "vmstat:pgsteal_anon", false },
	{ "vmstat:pgsteal_file", false },
	{ "vmstat:pgscan_kswapd", false },
	{ "vmstat:pgscan_direct", false },
	{ "vmstat:pgmajfault", true },
	{ "vmstat:pswpin", false },
	{ "vmstat:pswpout", true },
	{ "vmstat:workingset_refault_anon", false },
	{ "vmstat:workingset_refault_file", false },
	{ "memory.stat:pgscan", false },
	{ "memory.stat:pgsteal", false },
	{ "memory.stat:pgmajfault", false },
	{ "memory.events:oom_kill", false },
	{ "psi.memory:some.total", false },
	{ "psi.memory:full.total", true },
	{ "memory.pressure:some.total", false },
	{ "memory.pressure:full.total", false },
	{ "kswapd:cpu_ns", false },
	{ "perf:major-faults", false },
	{ "perf:task-clock", false },
	{ "agent:cpu_ns", false },
};

/* The counter's index in key_counters, or -1: not compared. */
static int key_counter(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_counters); i++)
		if (!strcmp(key_counters[i].name, name))
			return (int)i;
	return -1;
}

/* Whether word is one of the space-separated words of list. */
static bool word_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; p && *p;) {
		size_t w = strcspn(p, " ");

		if (w == len && !strncmp(p, word, len))
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

/* The plan's workload called name, or NULL. */
static const struct plan_workload *plan_workload(const struct plan *p, const char *name)
{
	for (size_t i = 0; p && i < p->nworkloads; i++)
		if (!strcmp(p->workloads[i].name, name))
			return &p->workloads[i];
	return NULL;
}

/*
 * The row's verdict family and whether it is one of the family's key
 * metrics (dataset.h). Without the plan (a database from elsewhere) rows
 * keep their group and nothing is key.
 */
static void row_family(const struct plan *p, struct ds_row *r, int counter)
{
	const struct plan_workload *w = NULL;

	if (r->result) {
		w = plan_workload(p, r->scope);
		r->family = xstrdup(r->scope);
		if (w)
			r->key = word_in(w->key ? w->key : w->def->decides,
					 r->label + strlen(r->scope) + 1);
		return;
	}
	if (!strcmp(r->scope, "-")) {
		r->family = xstrdup("system");
		r->key = p && counter >= 0 && key_counters[counter].decides;
		return;
	}
	if (!strncmp(r->metric, "perf:", 5)) {
		r->family = xstrdup(r->scope);
		return;
	}
	/* a memcg's counters: its workload's family when it holds one workload */
	for (size_t i = 0; p && i < p->nworkloads; i++) {
		if (strcmp(p->workloads[i].memcg, r->scope))
			continue;
		if (w) {
			w = NULL;
			break;
		}
		w = &p->workloads[i];
	}
	r->family = w ? xstrdup(w->name) : xstrdup(r->group);
}

static struct ds_row *row_get(struct dataset *ds, const struct plan *p, const char *label,
			      const char *metric, const char *scope, const char *group,
			      const char *unit, enum metric_better better, bool result, int counter)
{
	struct ds_row *r;

	for (size_t i = 0; i < ds->nrows; i++)
		if (!strcmp(ds->rows[i].label, label))
			return &ds->rows[i];
	ds->rows = xrealloc(ds->rows, ds->nrows + 1, sizeof(*ds->rows));
	r = &ds->rows[ds->nrows++];
	*r = (struct ds_row){
		.label = xstrdup(label),
		.metric = xstrdup(metric),
		.scope = xstrdup(scope),
		.group = xstrdup(group),
		.unit = xstrdup(unit),
		.better = better,
		.result = result,
		.vals = xcalloc(ds->nv * ds->maxruns, sizeof(double)),
		.reps = xcalloc(ds->nv * ds->maxruns, sizeof(int)),
		.n = xcalloc(ds->nv, sizeof(size_t)),
	};
	row_family(p, r, counter);
	return r;
}

static void row_add(struct dataset *ds, struct ds_row *r, size_t vi, int rep, double x)
{
	if (r->n[vi] < ds->maxruns) {
		r->reps[vi * ds->maxruns + r->n[vi]] = rep;
		r->vals[vi * ds->maxruns + r->n[vi]++] = x;
	}
}

size_t ds_pairs(const struct dataset *ds, const struct ds_row *r, size_t a, size_t b, double *pa,
		double *pb)
{
	const double *va = ds_vals(ds, r, a), *vb = ds_vals(ds, r, b);
	const int *ra = &r->reps[a * ds->maxruns], *rb = &r->reps[b * ds->maxruns];
	size_t n = 0;

	/* a repetition measured twice (merged inputs) pairs its first value */
	for (size_t i = 0; i < r->n[a]; i++) {
		bool dup = false;

		for (size_t k = 0; k < i; k++)
			dup |= ra[k] == ra[i];
		for (size_t j = 0; j < r->n[b] && !dup; j++) {
			if (rb[j] != ra[i])
				continue;
			pa[n] = va[i];
			pb[n++] = vb[j];
			break;
		}
	}
	return n;
}

static enum metric_better better_parse(const char *s)
{
	return !strcmp(s, "higher") ? BETTER_HIGHER :
	       !strcmp(s, "lower")  ? BETTER_LOWER :
				      BETTER_NONE;
}

/* What a run's counters go into. */
struct load_ctx {
	struct dataset *ds;
	const struct plan *p;
	size_t vi;
	int rep;
	struct stall_run stalls;
};

/* The row of a counter or derived value of a memcg, a workload or the machine. */
static void add_value(struct load_ctx *lc, const char *name, const char *scope, int counter,
		      double x)
{
	_cleanup_free_ char *label = NULL, *group = NULL;
	struct metric_info mi;
	struct ds_row *r;

	if (metric__lookup(name, &mi) < 0)
		return;
	if (!strcmp(scope, "-")) {
		label = xstrdup(name);
		group = xstrdup("system");
	} else {
		label = xasprintf("%s[%s]", name, scope);
		/* perf counts a workload; memory.* files and reclaim stalls belong to a memcg */
		group = !strncmp(name, "perf:", 5) ? xstrdup(scope) : xasprintf("memcg %s", scope);
	}
	r = row_get(lc->ds, lc->p, label, name, scope, group, mi.unit, mi.better, false, counter);
	row_add(lc->ds, r, lc->vi, lc->rep, x);
}

static void add_stall(void *arg, const char *metric, const char *scope, double x)
{
	add_value(arg, metric, scope, -1, x);
}

/* A measured run's results, counters and reclaim stall histograms reduced (stall.h). */
static void load_run(struct dataset *ds, const struct plan *p, size_t vi, int rep,
		     const struct store_run_data *d)
{
	struct load_ctx lc = { .ds = ds, .p = p, .vi = vi, .rep = rep };

	for (size_t i = 0; i < d->nresults; i++) {
		const struct store_result *res = &d->results[i];
		_cleanup_free_ char *label = xasprintf("%s:%s", res->workload, res->key);
		struct ds_row *r = row_get(ds, p, label, label, res->workload, res->workload,
					   res->unit, better_parse(res->better), true, -1);

		row_add(ds, r, vi, rep, res->value);
	}
	for (size_t i = 0; i < d->nincreases; i++) {
		const struct store_increase *inc = &d->increases[i];
		int counter;

		if (stall_run__add(&lc.stalls, inc->metric, inc->scope, inc->increase))
			continue;
		stall_run__add_pages(&lc.stalls, inc->metric, inc->scope, inc->increase);
		counter = key_counter(inc->metric);
		if (counter >= 0)
			add_value(&lc, inc->metric, inc->scope, counter, (double)inc->increase);
	}
	lc.stalls.seconds = d->seconds;
	stall_run__reduce(&lc.stalls, add_stall, &lc);
	stall_run__clear(&lc.stalls);
}

static void row_clear(struct ds_row *r)
{
	free(r->label);
	free(r->metric);
	free(r->scope);
	free(r->group);
	free(r->family);
	free(r->unit);
	free(r->vals);
	free(r->reps);
	free(r->n);
}

/*
 * Reclaim stall rows that are 0 in every run (a path never taken: soft
 * limits on cgroup v2, direct reclaim without global pressure) say nothing:
 * dropped.
 */
static void drop_silent_stalls(struct dataset *ds)
{
	size_t kept = 0;

	for (size_t i = 0; i < ds->nrows; i++) {
		struct ds_row *r = &ds->rows[i];
		bool silent = !strncmp(r->metric, "reclaim:", 8);

		for (size_t v = 0; v < ds->nv && silent; v++)
			for (size_t k = 0; k < r->n[v] && silent; k++)
				silent = ds_vals(ds, r, v)[k] == 0;
		if (silent)
			row_clear(r);
		else
			ds->rows[kept++] = *r;
	}
	ds->nrows = kept;
}

static int load_variants(struct store *st, struct dataset *ds, const char *baseline)
{
	struct store_variant *sv = NULL;
	size_t n = 0;
	bool found = !baseline;
	int r;

	r = store__variants(st, &sv, &n);
	if (r < 0)
		return r;
	ds->v = xcalloc(n, sizeof(*ds->v));
	for (size_t i = 0; i < n; i++) {
		ds->v[i] = (struct ds_variant){
			.id = sv[i].id,
			.name = TAKE_PTR(sv[i].name),
			.lru = TAKE_PTR(sv[i].lru_mode),
			.kernel = TAKE_PTR(sv[i].kernel),
			.knobs = TAKE_PTR(sv[i].knobs),
		};
		if (sv[i].runs > ds->maxruns)
			ds->maxruns = sv[i].runs;
		if (baseline && !strcmp(baseline, ds->v[i].name)) {
			ds->base = i;
			found = true;
		}
	}
	ds->nv = n;
	store_variants__free(sv, n);
	if (!ds->nv)
		return -ENODATA;
	return found ? 0 : -ENOENT;
}

/*
 * The plan the campaign ran, for the verdict families and the design; NULL
 * when the database holds none that parses (it came from elsewhere).
 */
static struct plan *plan_of(struct store *st)
{
	_cleanup_free_ char *plan_text = NULL, *path = NULL, *err = NULL;
	struct plan *p = NULL;

	if (store__meta_get(st, "plan.text", &plan_text) < 0)
		return NULL;
	if (store__meta_get(st, "plan.path", &path) < 0)
		path = xstrdup("plan");
	if (plan__parse(path, plan_text, &p, &err) < 0)
		return NULL;
	return p;
}

/* The index of the variant with this id, or ds->nv. */
static size_t variant_of(const struct dataset *ds, int64_t id)
{
	size_t vi = 0;

	while (vi < ds->nv && ds->v[vi].id != id)
		vi++;
	return vi;
}

/*
 * The runs whose repetition was lost: failed, with no completed run of the
 * same variant and repetition and none pending or running. One failure per
 * lost repetition (its last attempt).
 */
static int load_failures(struct store *st, struct dataset *ds)
{
	struct store_lost_run *lost = NULL;
	size_t n = 0;
	int r;

	r = store__lost_runs(st, &lost, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		size_t vi = variant_of(ds, lost[i].variant_id);

		if (vi == ds->nv)
			continue;
		ds->v[vi].lost++;
		ds->failures = xrealloc(ds->failures, ds->nfailures + 1, sizeof(*ds->failures));
		ds->failures[ds->nfailures++] = (struct ds_failure){
			.run_id = lost[i].run_id,
			.variant = vi,
			.rep = lost[i].rep,
			.status = TAKE_PTR(lost[i].status),
			.reason = TAKE_PTR(lost[i].reason),
		};
	}
	store_lost_runs__free(lost, n);
	return 0;
}

int dataset__load(struct store *st, const char *baseline, struct dataset **ret)
{
	_cleanup_(dataset__freep) struct dataset *ds = xcalloc(1, sizeof(*ds));
	struct plan *plan = ds->plan = plan_of(st);
	_cleanup_free_ char *base_meta = NULL, *warm = NULL;
	struct store_run *runs = NULL;
	size_t nruns = 0;
	int64_t w;
	int r = 0;

	if (store__meta_get(st, "campaign", &ds->campaign) < 0)
		ds->campaign = xstrdup("campaign");
	if (store__meta_get(st, "plan.warmup", &warm) == 0 && parse_i64(warm, &w) == 0 && w > 0)
		ds->warmup = (int)w;
	if (plan && plan->adaptive) {
		_cleanup_free_ char *reps = NULL;

		/* 'run --reps N' made a fixed design of an adaptive plan */
		if (store__meta_get(st, "plan.adaptive", &reps) == 0 && !strcmp(reps, "1")) {
			ds->adaptive = true;
			ds->min_reps = plan->min_repetitions;
			ds->max_reps = plan->max_repetitions;
			if (store__meta_get(st, "adaptive.stop", &ds->stop) < 0)
				ds->stop = NULL;
		}
	}
	if (store__meta_get(st, "guest.clock", &ds->clock) < 0)
		ds->clock = NULL;
	if (!baseline && store__meta_get(st, "plan.baseline", &base_meta) == 0)
		baseline = base_meta;
	r = load_variants(st, ds, baseline);
	if (r == -ENOENT && baseline == base_meta)
		r = 0; /* a stale plan baseline: the first variant */
	if (r < 0)
		return r;

	r = store__runs(st, ds->warmup, &runs, &nruns);
	if (r < 0)
		return r;
	for (size_t i = 0; i < nruns; i++) {
		const struct store_run *run = &runs[i];
		const char *status = run->status, *rel = run->release;
		size_t vi = variant_of(ds, run->variant_id);
		struct ds_variant *v;

		if (vi == ds->nv)
			continue;
		v = &ds->v[vi];
		if (strcmp(status, RUN_COMPLETED)) {
			if (!strncmp(status, "failed", 6))
				v->failed++;
			else
				v->other++;
			continue;
		}
		if (run->rep < ds->warmup) {
			v->warmup++;
			continue;
		}
		if (*rel && !ds->release)
			ds->release = xstrdup(rel);
		if (*rel && !v->release)
			v->release = xstrdup(rel);
		v->runs = xrealloc(v->runs, (size_t)v->measured + 1, sizeof(int64_t));
		v->reps = xrealloc(v->reps, (size_t)v->measured + 1, sizeof(int));
		v->reps[v->measured] = run->rep;
		v->runs[v->measured++] = run->id;
		load_run(ds, plan, vi, run->rep, &run->data);
	}
	store_runs__free(runs, nruns);
	r = load_failures(st, ds);
	if (r < 0)
		return r;
	drop_silent_stalls(ds);
	if (!ds->release)
		ds->release = xstrdup("");
	for (size_t i = 0; i < ds->nv; i++)
		if (!ds->v[i].release)
			ds->v[i].release = xstrdup("");
	*ret = TAKE_PTR(ds);
	return 0;
}

int ds_lru_enabled(const struct ds_variant *v, unsigned *ret)
{
	static const char key[] = "lru_enabled=";
	const char *k = v->knobs;

	/* the knobs' first word (campaign-record.c), or a later one in older stores */
	for (; k && *k; k += strcspn(k, " "), k += strspn(k, " ")) {
		if (strncmp(k, key, strlen(key)))
			continue;
		char w[24];

		snprintf(w, sizeof(w), "%.*s", (int)strcspn(k + strlen(key), " "), k + strlen(key));
		if (lru_mode_parse(w, ret) == 0)
			return 0;
	}
	return v->lru ? lru_mode_parse(v->lru, ret) : -EINVAL;
}

bool ds_lru_mglru(const struct ds_variant *v)
{
	unsigned e;

	if (ds_lru_enabled(v, &e) < 0)
		return v->lru && strcmp(v->lru, "classic") != 0;
	return e & 1;
}

const char *ds_knobs_but_lru(const struct ds_variant *v)
{
	const char *k = v->knobs ? v->knobs : "";

	if (!strncmp(k, "lru_enabled=", strlen("lru_enabled="))) {
		k += strcspn(k, " ");
		k += strspn(k, " ");
	}
	return k;
}

bool ds_cross_lru(const struct dataset *ds, size_t a, size_t b)
{
	return ds_lru_mglru(&ds->v[a]) != ds_lru_mglru(&ds->v[b]);
}

void ds_kernels(const struct dataset *ds, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < ds->nv; i++) {
		const char *k = ds->v[i].release && *ds->v[i].release ? ds->v[i].release :
									 ds->v[i].kernel;
		size_t l = strlen(buf);

		if (!k || strstr(buf, k))
			continue;
		snprintf(buf + l, len - l, "%s%s", l ? " " : "", k);
	}
}

int ds_swappiness(const struct ds_variant *v)
{
	const char *p = v->knobs ? strstr(v->knobs, "vm/swappiness=") : NULL;

	return p ? atoi(p + strlen("vm/swappiness=")) : -1;
}

void dataset__free(struct dataset *ds)
{
	if (!ds)
		return;
	plan__free(ds->plan);
	for (size_t i = 0; i < ds->nrows; i++)
		row_clear(&ds->rows[i]);
	for (size_t i = 0; i < ds->nv; i++) {
		free(ds->v[i].name);
		free(ds->v[i].lru);
		free(ds->v[i].kernel);
		free(ds->v[i].knobs);
		free(ds->v[i].release);
		free(ds->v[i].runs);
		free(ds->v[i].reps);
	}
	for (size_t i = 0; i < ds->nfailures; i++) {
		free(ds->failures[i].status);
		free(ds->failures[i].reason);
	}
	free(ds->failures);
	free(ds->stop);
	free(ds->clock);
	free(ds->rows);
	free(ds->v);
	free(ds->campaign);
	free(ds->release);
	free(ds);
}

void dataset__freep(struct dataset **ds)
{
	dataset__free(*ds);
}
