// SPDX-License-Identifier: GPL-2.0
#include "dataset.h"
#include "plan.h"
#include "store.h"
#include "util.h"

#include <sqlite3.h>
#include <string.h>

/*
 * The reclaim counters compared, as increases over each run; memcg and
 * workload counters per memcg or workload. The dictionary (metrics.c)
 * supplies unit and direction. One row per counter.
 */
static const char *const key_counters[] = {
	"vmstat:pgscan_anon",
	"vmstat:pgscan_file",
	"vmstat:pgsteal_anon",
	"vmstat:pgsteal_file",
	"vmstat:pgscan_kswapd",
	"vmstat:pgscan_direct",
	"vmstat:pgmajfault",
	"vmstat:pswpin",
	"vmstat:pswpout",
	"vmstat:workingset_refault_anon",
	"vmstat:workingset_refault_file",
	"memory.stat:pgscan",
	"memory.stat:pgsteal",
	"memory.stat:pgmajfault",
	"memory.events:oom_kill",
	"psi.memory:some.total",
	"psi.memory:full.total",
	"memory.pressure:some.total",
	"memory.pressure:full.total",
	"kswapd:cpu_ns",
	"perf:major-faults",
	"perf:task-clock",
	"agent:cpu_ns",
};

static bool key_counter(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_counters); i++)
		if (!strcmp(key_counters[i], name))
			return true;
	return false;
}

static const char *text(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);

	return s ? s : "";
}

static struct ds_row *row_get(struct dataset *ds, const char *label, const char *metric,
			      const char *scope, const char *group, const char *unit,
			      enum metric_better better, bool result)
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
		.n = xcalloc(ds->nv, sizeof(size_t)),
	};
	return r;
}

static void row_add(struct dataset *ds, struct ds_row *r, size_t vi, double x)
{
	if (r->n[vi] < ds->maxruns)
		r->vals[vi * ds->maxruns + r->n[vi]++] = x;
}

static enum metric_better better_parse(const char *s)
{
	return !strcmp(s, "higher") ? BETTER_HIGHER :
	       !strcmp(s, "lower")  ? BETTER_LOWER :
				      BETTER_NONE;
}

static int load_run(sqlite3 *db, struct dataset *ds, size_t vi, int64_t run_id)
{
	sqlite3_stmt *q = NULL;

	/* Workload results. */
	if (sqlite3_prepare_v2(db,
			       "SELECT workload, key, value, unit, better FROM result "
			       "WHERE run_id = ? ORDER BY workload, rowid",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		_cleanup_free_ char *label = xasprintf("%s:%s", text(q, 0), text(q, 1));
		struct ds_row *r = row_get(ds, label, label, text(q, 0), text(q, 0), text(q, 3),
					   better_parse(text(q, 4)), true);

		row_add(ds, r, vi, sqlite3_column_double(q, 2));
	}
	sqlite3_finalize(q);

	/*
	 * Counter increases: last sample minus first, per scope. A counter that
	 * first appears after the run's first sample (a workload's perf
	 * counters, which start at zero when it starts) counts from zero.
	 */
	if (sqlite3_prepare_v2(
		    db,
		    "WITH b AS (SELECT metric_id, scope_id, MIN(seq) AS s0, MAX(seq) AS s1 "
		    "           FROM value WHERE run_id = ?1 GROUP BY metric_id, scope_id) "
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
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *name = text(q, 0), *scope = text(q, 1);
		_cleanup_free_ char *label = NULL, *group = NULL;
		struct metric_info mi;
		struct ds_row *r;

		if (!key_counter(name) || metric__lookup(name, &mi) < 0)
			continue;
		if (!strcmp(scope, "-")) {
			label = xstrdup(name);
			group = xstrdup("system");
		} else {
			label = xasprintf("%s[%s]", name, scope);
			/* perf counts a workload; memory.* files belong to a memcg */
			group = !strncmp(name, "perf:", 5) ? xstrdup(scope) :
							     xasprintf("memcg %s", scope);
		}
		r = row_get(ds, label, name, scope, group, mi.unit, mi.better, false);
		row_add(ds, r, vi, (double)sqlite3_column_int64(q, 2));
	}
	sqlite3_finalize(q);
	return 0;
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

int dataset__load(struct store *st, const char *baseline, struct dataset **ret)
{
	_cleanup_(dataset__freep) struct dataset *ds = xcalloc(1, sizeof(*ds));
	_cleanup_free_ char *base_meta = NULL, *warm = NULL;
	sqlite3 *db = store__db(st);
	sqlite3_stmt *q = NULL;
	int64_t w;
	int r = 0;

	if (store__meta_get(st, "campaign", &ds->campaign) < 0)
		ds->campaign = xstrdup("campaign");
	if (store__meta_get(st, "plan.warmup", &warm) == 0 && parse_i64(warm, &w) == 0 && w > 0)
		ds->warmup = (int)w;
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
		int64_t vid = sqlite3_column_int64(q, 1);
		const char *status = text(q, 3), *rel = text(q, 4);
		size_t vi;

		for (vi = 0; vi < ds->nv; vi++)
			if (ds->v[vi].id == vid)
				break;
		if (vi == ds->nv)
			continue;
		if (strcmp(status, RUN_COMPLETED)) {
			if (!strncmp(status, "failed", 6))
				ds->v[vi].failed++;
			else
				ds->v[vi].other++;
			continue;
		}
		if (sqlite3_column_int(q, 2) < ds->warmup) {
			ds->v[vi].warmup++;
			continue;
		}
		if (*rel && !ds->release)
			ds->release = xstrdup(rel);
		ds->v[vi].runs =
			xrealloc(ds->v[vi].runs, (size_t)ds->v[vi].measured + 1, sizeof(int64_t));
		ds->v[vi].runs[ds->v[vi].measured++] = sqlite3_column_int64(q, 0);
		r = load_run(db, ds, vi, sqlite3_column_int64(q, 0));
	}
	sqlite3_finalize(q);
	if (r < 0)
		return r;
	if (!ds->release)
		ds->release = xstrdup("");
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

void dataset__free(struct dataset *ds)
{
	if (!ds)
		return;
	for (size_t i = 0; i < ds->nrows; i++) {
		struct ds_row *r = &ds->rows[i];

		free(r->label);
		free(r->metric);
		free(r->scope);
		free(r->group);
		free(r->unit);
		free(r->vals);
		free(r->n);
	}
	for (size_t i = 0; i < ds->nv; i++) {
		free(ds->v[i].name);
		free(ds->v[i].lru);
		free(ds->v[i].kernel);
		free(ds->v[i].knobs);
		free(ds->v[i].runs);
	}
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
