// SPDX-License-Identifier: GPL-2.0
#include "compare.h"
#include "metrics.h"
#include "store.h"
#include "util.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

/*
 * The reclaim counters the table shows, as deltas over each run. memcg
 * metrics are shown per memcg. One row per counter; the dictionary
 * (metrics.c) supplies unit and direction.
 */
static const char *const key_counters[] = {
	"vmstat:pgscan_anon",	  "vmstat:pgscan_file",	    "vmstat:pgsteal_anon",
	"vmstat:pgsteal_file",	  "vmstat:pgscan_kswapd",   "vmstat:pgscan_direct",
	"vmstat:pgmajfault",	  "vmstat:pswpin",	    "vmstat:pswpout",
	"vmstat:workingset_refault_anon", "vmstat:workingset_refault_file",
	"memory.stat:pgscan",	  "memory.stat:pgsteal",    "memory.stat:pgmajfault",
	"memory.events:oom_kill", "psi.memory:some.total",  "psi.memory:full.total",
	"memory.pressure:some.total", "memory.pressure:full.total",
	"kswapd:cpu_ns",	  "perf:major-faults",	    "perf:task-clock",
	"agent:cpu_ns",
};

struct variant {
	int64_t id;
	char *name, *lru;
};

struct row {
	char *label, *unit, *better, *metric;
	double *vals;	/* [variant][run] flattened: nvariants * maxruns */
	int *n;		/* per variant */
};

struct table {
	struct variant *v;
	size_t nv;
	size_t maxruns;
	struct row *rows;
	size_t nrows;
	char *release;
};

static struct row *row_get(struct table *t, const char *label, const char *metric,
			   const char *unit, const char *better)
{
	struct row *r;

	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].label, label))
			return &t->rows[i];
	t->rows = xrealloc(t->rows, t->nrows + 1, sizeof(*t->rows));
	r = &t->rows[t->nrows++];
	r->label = xstrdup(label);
	r->metric = xstrdup(metric);
	r->unit = xstrdup(unit ? unit : "");
	r->better = xstrdup(better ? better : "none");
	r->vals = xcalloc(t->nv * t->maxruns, sizeof(double));
	r->n = xcalloc(t->nv, sizeof(int));
	return r;
}

static void row_add(struct table *t, struct row *r, size_t vi, double x)
{
	if ((size_t)r->n[vi] < t->maxruns)
		r->vals[vi * t->maxruns + (size_t)r->n[vi]++] = x;
}

static bool key_counter(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_counters); i++)
		if (!strcmp(key_counters[i], name))
			return true;
	return false;
}

static int load_run(sqlite3 *db, struct table *t, size_t vi, int64_t run_id)
{
	sqlite3_stmt *q = NULL;
	int rc;

	/* Workload results. */
	rc = sqlite3_prepare_v2(db,
				"SELECT workload, key, value, unit, better FROM result "
				"WHERE run_id = ? ORDER BY workload, rowid",
				-1, &q, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		_cleanup_free_ char *label = xasprintf("%s:%s", sqlite3_column_text(q, 0),
						       sqlite3_column_text(q, 1));
		struct row *r = row_get(t, label, label, (const char *)sqlite3_column_text(q, 3),
					(const char *)sqlite3_column_text(q, 4));

		row_add(t, r, vi, sqlite3_column_double(q, 2));
	}
	sqlite3_finalize(q);

	/*
	 * Counter deltas: last sample minus first, per scope. A counter that
	 * first appears after the run's first sample (a workload's perf
	 * counters, which start at zero when it starts) counts from zero.
	 */
	rc = sqlite3_prepare_v2(
		db,
		"WITH b AS (SELECT metric_id, scope_id, MIN(seq) AS s0, MAX(seq) AS s1 "
		"           FROM value WHERE run_id = ?1 GROUP BY metric_id, scope_id) "
		"SELECT m.name, sc.name, "
		"  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s1 AND metric_id = b.metric_id "
		"     AND scope_id = b.scope_id) - "
		"  CASE WHEN b.s0 > (SELECT MIN(seq) FROM sample WHERE run_id = ?1) THEN 0 ELSE "
		"  (SELECT v FROM value WHERE run_id = ?1 AND seq = b.s0 AND metric_id = b.metric_id "
		"     AND scope_id = b.scope_id) END "
		"FROM b JOIN metric m ON m.id = b.metric_id JOIN scope sc ON sc.id = b.scope_id "
		"ORDER BY m.name, sc.name",
		-1, &q, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		const char *scope = (const char *)sqlite3_column_text(q, 1);
		_cleanup_free_ char *label = NULL;
		struct metric_info mi;
		struct row *r;

		if (!key_counter(name) || metric__lookup(name, &mi) < 0)
			continue;
		label = strcmp(scope, "-") ? xasprintf("%s[%s]", name, scope) : xstrdup(name);
		r = row_get(t, label, name, mi.unit, metric_better_name(mi.better));
		row_add(t, r, vi, (double)sqlite3_column_int64(q, 2));
	}
	sqlite3_finalize(q);
	return 0;
}

static void stats(const double *x, int n, double *mean, double *sd, double *mn, double *mx)
{
	double s = 0, ss = 0;

	*mn = INFINITY;
	*mx = -INFINITY;
	for (int i = 0; i < n; i++) {
		s += x[i];
		*mn = fmin(*mn, x[i]);
		*mx = fmax(*mx, x[i]);
	}
	*mean = n ? s / n : NAN;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

/* A number in at most 9 columns: 123456789, 12.3M, 1.23G. */
static void fmt_num(char *buf, size_t len, double x)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, len, "-");
	else if (a >= 1e10)
		snprintf(buf, len, "%.3gG", x / 1e9);
	else if (a >= 1e7)
		snprintf(buf, len, "%.4gM", x / 1e6);
	else if (a >= 100 || x == floor(x))
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.3g", x);
}

/* Text wrapped at width columns, each line indented. */
static void print_wrapped(FILE *out, const char *text, const char *indent, size_t width)
{
	size_t col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > width) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%.*s", col ? " " : indent, (int)w, text);
		col += (col ? 1 : strlen(indent)) + w;
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].label);
		free(t->rows[i].metric);
		free(t->rows[i].unit);
		free(t->rows[i].better);
		free(t->rows[i].vals);
		free(t->rows[i].n);
	}
	for (size_t i = 0; i < t->nv; i++) {
		free(t->v[i].name);
		free(t->v[i].lru);
	}
	free(t->rows);
	free(t->v);
	free(t->release);
}

int compare_print(struct store *st, FILE *out, const char *baseline)
{
	sqlite3 *db = store__db(st);
	sqlite3_stmt *q = NULL;
	struct table t = { 0 };
	_cleanup_free_ char *base_meta = NULL;
	size_t bi = 0;
	int r = 0;

	if (!baseline && store__meta_get(st, "plan.baseline", &base_meta) == 0)
		baseline = base_meta;
	if (sqlite3_prepare_v2(db,
			       "SELECT v.id, v.name, v.lru_mode, "
			       " (SELECT COUNT(*) FROM run WHERE variant_id = v.id) "
			       "FROM variant v ORDER BY v.id",
			       -1, &q, NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(q) == SQLITE_ROW) {
		t.v = xrealloc(t.v, t.nv + 1, sizeof(*t.v));
		t.v[t.nv].id = sqlite3_column_int64(q, 0);
		t.v[t.nv].name = xstrdup((const char *)sqlite3_column_text(q, 1));
		t.v[t.nv].lru = xstrdup((const char *)sqlite3_column_text(q, 2));
		if ((size_t)sqlite3_column_int64(q, 3) > t.maxruns)
			t.maxruns = (size_t)sqlite3_column_int64(q, 3);
		if (baseline && !strcmp(baseline, t.v[t.nv].name))
			bi = t.nv;
		t.nv++;
	}
	sqlite3_finalize(q);
	if (!t.nv) {
		fprintf(out, "no variants in this campaign\n");
		return 0;
	}

	/* Completed runs only: failed runs are listed by the report, not averaged. */
	if (sqlite3_prepare_v2(db,
			       "SELECT r.id, r.variant_id, "
			       " (SELECT value FROM run_prov WHERE run_id = r.id AND "
			       "  key = 'guest.kernel_release') "
			       "FROM run r WHERE r.status = 'completed' ORDER BY r.ord",
			       -1, &q, NULL) != SQLITE_OK) {
		table_free(&t);
		return -EIO;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		int64_t vid = sqlite3_column_int64(q, 1);
		const char *rel = (const char *)sqlite3_column_text(q, 2);

		if (rel && *rel && !t.release)
			t.release = xstrdup(rel);
		for (size_t i = 0; i < t.nv; i++)
			if (t.v[i].id == vid)
				r = load_run(db, &t, i, sqlite3_column_int64(q, 0));
		if (r < 0)
			break;
	}
	sqlite3_finalize(q);

	fprintf(out, "%-44s %-7s %-6s", "metric", "unit", "better");
	for (size_t i = 0; i < t.nv; i++) {
		char head[40];

		snprintf(head, sizeof(head), "%s%s", t.v[i].name, i == bi ? "*" : "");
		fprintf(out, " %20s", head);
	}
	fprintf(out, "  change vs %s\n", t.v[bi].name);
	for (size_t ri = 0; ri < t.nrows; ri++) {
		struct row *row = &t.rows[ri];
		double bmean, bsd, bmn, bmx;
		const char *reason = NULL;
		bool comparable;

		stats(&row->vals[bi * t.maxruns], row->n[bi], &bmean, &bsd, &bmn, &bmx);
		comparable = metric__comparable(row->metric, t.release ? t.release : "", &reason);
		fprintf(out, "%-44s %-7s %-6s", row->label, row->unit, row->better);
		for (size_t i = 0; i < t.nv; i++) {
			double mean, sd, mn, mx;
			char cell[48], num[16];

			stats(&row->vals[i * t.maxruns], row->n[i], &mean, &sd, &mn, &mx);
			fmt_num(num, sizeof(num), mean);
			if (row->n[i] > 1 && mean != 0)
				snprintf(cell, sizeof(cell), "%s ±%.0f%% n=%d", num,
					 100 * sd / fabs(mean), row->n[i]);
			else
				snprintf(cell, sizeof(cell), "%s n=%d", num, row->n[i]);
			fprintf(out, " %20s", cell);
		}
		fprintf(out, "  ");
		for (size_t i = 0; i < t.nv; i++) {
			double mean, sd, mn, mx;

			if (i == bi)
				continue;
			stats(&row->vals[i * t.maxruns], row->n[i], &mean, &sd, &mn, &mx);
			if (strcmp(t.v[i].lru, t.v[bi].lru) && !comparable)
				fprintf(out, " (not comparable)");
			else if (row->n[i] < 2 || row->n[bi] < 2)
				fprintf(out, " (n<2)");
			else if (bmean == 0)
				fprintf(out, " %s", mean == 0 ? "0" : "(base 0)");
			else
				fprintf(out, " %+.1f%%", 100 * (mean - bmean) / fabs(bmean));
		}
		fputc('\n', out);
	}
	/* The reasons behind the marks: each reason once, after the metrics it covers. */
	{
		bool cross = false;
		const char **done = xcalloc(t.nrows + 1, sizeof(char *));
		size_t ndone = 0;

		for (size_t i = 0; i < t.nv; i++)
			cross |= strcmp(t.v[i].lru, t.v[bi].lru) != 0;
		for (size_t ri = 0; cross && ri < t.nrows; ri++) {
			const char *reason = NULL, *other = NULL;
			bool seen = false;

			if (metric__comparable(t.rows[ri].metric, t.release ? t.release : "", &reason))
				continue;
			for (size_t j = 0; j < ndone; j++)
				seen |= done[j] == reason;
			if (seen)
				continue;
			done[ndone++] = reason;
			if (ndone == 1)
				fprintf(out, "\n(not comparable) across classic LRU and MGLRU on %s:\n",
					t.release ? t.release : "this kernel");
			fprintf(out, "  -");
			for (size_t j = ri; j < t.nrows; j++) {
				bool dup = false;

				if (metric__comparable(t.rows[j].metric, t.release ? t.release : "",
						       &other) || other != reason)
					continue;
				for (size_t k = ri; k < j; k++)
					dup |= !strcmp(t.rows[k].metric, t.rows[j].metric);
				if (!dup)
					fprintf(out, " %s", t.rows[j].metric);
			}
			fprintf(out, ":\n");
			print_wrapped(out, reason, "      ", 96);
		}
		free(done);
	}
	fprintf(out, "\n* baseline. Values: mean ±coefficient of variation over n completed runs; "
		     "counters are deltas over the run.\n");
	table_free(&t);
	return r;
}
