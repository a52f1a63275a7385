// SPDX-License-Identifier: GPL-2.0
#include "dataset.h"
#include "catalogue.h"
#include "plan.h"
#include "stall.h"
#include "store.h"
#include "util.h"

#include <sqlite3.h>
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

static const char *text(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);

	return s ? s : "";
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

static void add_counter(void *arg, const char *name, const char *scope, int64_t increase)
{
	struct load_ctx *lc = arg;
	int counter;

	if (stall_run__add(&lc->stalls, name, scope, increase))
		return;
	counter = key_counter(name);
	if (counter >= 0)
		add_value(lc, name, scope, counter, (double)increase);
}

static void add_stall(void *arg, const char *metric, const char *scope, double x)
{
	add_value(arg, metric, scope, -1, x);
}

static int load_run(sqlite3 *db, struct dataset *ds, const struct plan *p, size_t vi,
		    int64_t run_id, int rep)
{
	struct load_ctx lc = { .ds = ds, .p = p, .vi = vi, .rep = rep };
	sqlite3_stmt *q = NULL;
	int e;

	/* Workload results. */
	if (sqlite3_prepare_v2(db,
			       "SELECT workload, key, value, unit, better FROM result "
			       "WHERE run_id = ? ORDER BY workload, rowid",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		_cleanup_free_ char *label = xasprintf("%s:%s", text(q, 0), text(q, 1));
		struct ds_row *r = row_get(ds, p, label, label, text(q, 0), text(q, 0), text(q, 3),
					   better_parse(text(q, 4)), true, -1);

		row_add(ds, r, vi, rep, sqlite3_column_double(q, 2));
	}
	sqlite3_finalize(q);

	/* Counter increases, and the reclaim stall histograms reduced (stall.h). */
	e = ds_run_increases(db, run_id, "%", add_counter, &lc);
	if (e == 0)
		e = stall_run__span(db, run_id, &lc.stalls.seconds);
	if (e == 0)
		stall_run__reduce(&lc.stalls, add_stall, &lc);
	stall_run__clear(&lc.stalls);
	return e;
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

int ds_run_increases(sqlite3 *db, int64_t run_id, const char *name_like, ds_increase_fn fn,
		     void *arg)
{
	sqlite3_stmt *q = NULL;
	int rc;

	/*
	 * Last sample minus first, per scope. A counter that first appears
	 * after the run's first sample (a workload's perf counters, which start
	 * at zero when it starts) counts from zero.
	 */
	if (sqlite3_prepare_v2(
		    db,
		    "WITH b AS (SELECT metric_id, scope_id, MIN(seq) AS s0, MAX(seq) AS s1 "
		    "           FROM value WHERE run_id = ?1 AND metric_id IN "
		    "             (SELECT id FROM metric WHERE name LIKE ?2) "
		    "           GROUP BY metric_id, scope_id) "
		    "SELECT m.name, sc.name, "
		    "  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s1 "
		    "     AND metric_id = b.metric_id AND scope_id = b.scope_id) - "
		    "  CASE WHEN b.s0 > (SELECT MIN(seq) FROM sample WHERE run_id = ?1) THEN 0 ELSE "
		    "  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s0 "
		    "     AND metric_id = b.metric_id AND scope_id = b.scope_id) END "
		    "FROM b JOIN metric m ON m.id = b.metric_id JOIN scope sc ON sc.id = b.scope_id "
		    "ORDER BY m.name, sc.name",
		    -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_text(q, 2, name_like, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		fn(arg, text(q, 0), text(q, 1), sqlite3_column_int64(q, 2));
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int load_variants(struct store *st, struct dataset *ds, const char *baseline)
{
	sqlite3 *db = store__db(st);
	sqlite3_stmt *q = NULL;
	bool found = !baseline;

	if (sqlite3_prepare_v2(db,
			       "SELECT v.id, v.name, v.lru_mode, v.kernel, v.knobs, "
			       " (SELECT COUNT(*) FROM run WHERE variant_id = v.id) "
			       "FROM variant v ORDER BY v.id",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(q) == SQLITE_ROW) {
		ds->v = xrealloc(ds->v, ds->nv + 1, sizeof(*ds->v));
		ds->v[ds->nv] = (struct ds_variant){
			.id = sqlite3_column_int64(q, 0),
			.name = xstrdup(text(q, 1)),
			.lru = xstrdup(text(q, 2)),
			.kernel = xstrdup(text(q, 3)),
			.knobs = xstrdup(text(q, 4)),
		};
		if ((size_t)sqlite3_column_int64(q, 5) > ds->maxruns)
			ds->maxruns = (size_t)sqlite3_column_int64(q, 5);
		if (baseline && !strcmp(baseline, ds->v[ds->nv].name)) {
			ds->base = ds->nv;
			found = true;
		}
		ds->nv++;
	}
	sqlite3_finalize(q);
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
static int load_failures(sqlite3 *db, struct dataset *ds)
{
	sqlite3_stmt *q = NULL;

	if (sqlite3_prepare_v2(
		    db,
		    "SELECT r.id, r.variant_id, r.rep, r.status, COALESCE(r.reason, '') FROM run r "
		    "WHERE r.status LIKE 'failed%' AND r.ord = (SELECT MAX(o.ord) FROM run o "
		    "  WHERE o.variant_id = r.variant_id AND o.rep = r.rep "
		    "  AND o.status LIKE 'failed%') "
		    "AND NOT EXISTS (SELECT 1 FROM run o WHERE o.variant_id = r.variant_id "
		    "  AND o.rep = r.rep AND o.status IN ('completed', 'pending', 'running')) "
		    "ORDER BY r.ord",
		    -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(q) == SQLITE_ROW) {
		size_t vi = variant_of(ds, sqlite3_column_int64(q, 1));

		if (vi == ds->nv)
			continue;
		ds->v[vi].lost++;
		ds->failures = xrealloc(ds->failures, ds->nfailures + 1, sizeof(*ds->failures));
		ds->failures[ds->nfailures++] = (struct ds_failure){
			.run_id = sqlite3_column_int64(q, 0),
			.variant = vi,
			.rep = sqlite3_column_int(q, 2),
			.status = xstrdup(text(q, 3)),
			.reason = xstrdup(text(q, 4)),
		};
	}
	sqlite3_finalize(q);
	return 0;
}

int dataset__load(struct store *st, const char *baseline, struct dataset **ret)
{
	_cleanup_(dataset__freep) struct dataset *ds = xcalloc(1, sizeof(*ds));
	_cleanup_(plan__freep) struct plan *plan = plan_of(st);
	_cleanup_free_ char *base_meta = NULL, *warm = NULL;
	sqlite3 *db = store__db(st);
	sqlite3_stmt *q = NULL;
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
	if (!baseline && store__meta_get(st, "plan.baseline", &base_meta) == 0)
		baseline = base_meta;
	r = load_variants(st, ds, baseline);
	if (r == -ENOENT && baseline == base_meta)
		r = 0; /* a stale plan baseline: the first variant */
	if (r < 0)
		return r;

	if (sqlite3_prepare_v2(db,
			       "SELECT r.id, r.variant_id, r.rep, r.status, "
			       " (SELECT value FROM run_prov WHERE run_id = r.id AND "
			       "  key = 'guest.kernel_release') "
			       "FROM run r ORDER BY r.ord",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	while (r == 0 && sqlite3_step(q) == SQLITE_ROW) {
		const char *status = text(q, 3), *rel = text(q, 4);
		int rep = sqlite3_column_int(q, 2);
		size_t vi = variant_of(ds, sqlite3_column_int64(q, 1));
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
		if (rep < ds->warmup) {
			v->warmup++;
			continue;
		}
		if (*rel && !ds->release)
			ds->release = xstrdup(rel);
		if (*rel && !v->release)
			v->release = xstrdup(rel);
		v->runs = xrealloc(v->runs, (size_t)v->measured + 1, sizeof(int64_t));
		v->reps = xrealloc(v->reps, (size_t)v->measured + 1, sizeof(int));
		v->reps[v->measured] = rep;
		v->runs[v->measured++] = sqlite3_column_int64(q, 0);
		r = load_run(db, ds, plan, vi, sqlite3_column_int64(q, 0), rep);
	}
	sqlite3_finalize(q);
	if (r == 0)
		r = load_failures(db, ds);
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

bool ds_cross_lru(const struct dataset *ds, size_t a, size_t b)
{
	unsigned ea, eb;

	if (lru_mode_parse(ds->v[a].lru, &ea) < 0 || lru_mode_parse(ds->v[b].lru, &eb) < 0)
		return strcmp(ds->v[a].lru, ds->v[b].lru) != 0;
	/* bit 0 switches MGLRU on; the other bits are its features */
	return (ea & 1) != (eb & 1);
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
