// SPDX-License-Identifier: GPL-2.0
/*
 * The history database (see history.h). WAL, foreign keys on, every value
 * bound. A night is written in one transaction: a reader sees it whole or
 * not at all.
 *
 * Schema (PRAGMA user_version = HISTORY_SCHEMA_VERSION):
 *
 * meta(key PK, value)
 *	"schema.version", and "created" (unix s).
 * night(id PK, campaign UNIQUE, plan, plan_sha256, started, appended, host, db,
 *       lrubench_version, pinned, host_class)
 *	One campaign: its name, its plan's name and the sha256 of the plan
 *	text, when it started and when it was appended (unix s), its host(s),
 *	the path of its campaign database, the lrubench that ran it. pinned = 1
 *	marks the baseline night of the plan on a host class (at most one per
 *	plan and host class). Nights of a plan are ordered by started.
 *	host_class (since version 2): the machine the night ran on, as
 *	hist_host_class() makes it from the campaign's meta; nights are
 *	compared only within a class unless asked otherwise.
 * night_variant(night_id -> night, ord, variant, kernel, lru_mode, knobs, runs,
 *               completed, PK(night_id, variant))
 *	The night's variants in the campaign's order, the kernel each ran
 *	(release and sha256 prefix), and how many of its runs completed.
 * summary(night_id -> night, variant, metric, unit, better, key, n, mean, sd,
 *         median, PK(night_id, variant, metric))
 *	Per variant and metric, over the completed runs: n, mean, sample
 *	standard deviation (NULL for n < 2), median. metric is a workload
 *	result "WORKLOAD:KEY" or a counter's increase over the run,
 *	"SOURCE:KEY" or "SOURCE:KEY[memcg]". key = 1 for the metrics plotted
 *	(workload results with a direction).
 *
 * View:
 * v_summary	each summary row with its campaign, plan, host class, time (UTC text),
 *		kernel
 *
 * Version 1 (no host_class) is migrated in place when opened: its nights get
 * the class "unrecorded" (their campaigns did not record the host's
 * hardware), so they stay comparable with each other, and meta gets
 * "migrated.v1" (unix s). Other versions are refused.
 */
#include "history.h"
#include "kernel.h"
#include "numfmt.h"
#include "plan.h"
#include "sql.h"
#include "store.h"
#include "util.h"

#include <math.h>
#include <string.h>
#include <time.h>

#define HISTORY_SCHEMA_VERSION 2

static const char schema_sql[] =
	"CREATE TABLE meta(\n"
	"  key TEXT PRIMARY KEY NOT NULL,\n"
	"  value TEXT NOT NULL);\n"
	"CREATE TABLE night(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  campaign TEXT NOT NULL UNIQUE,\n"
	"  plan TEXT NOT NULL,\n"
	"  plan_sha256 TEXT NOT NULL,\n"
	"  started INTEGER NOT NULL,\n"
	"  appended INTEGER NOT NULL,\n"
	"  host TEXT NOT NULL,\n"
	"  db TEXT NOT NULL,\n"
	"  lrubench_version TEXT NOT NULL,\n"
	"  pinned INTEGER NOT NULL DEFAULT 0 CHECK(pinned IN (0, 1)),\n"
	"  host_class TEXT NOT NULL);\n"
	"CREATE INDEX night_plan ON night(plan, started);\n"
	"CREATE TABLE night_variant(\n"
	"  night_id INTEGER NOT NULL REFERENCES night(id) ON DELETE CASCADE,\n"
	"  ord INTEGER NOT NULL,\n"
	"  variant TEXT NOT NULL,\n"
	"  kernel TEXT NOT NULL,\n"
	"  lru_mode TEXT NOT NULL,\n"
	"  knobs TEXT NOT NULL,\n"
	"  runs INTEGER NOT NULL,\n"
	"  completed INTEGER NOT NULL,\n"
	"  PRIMARY KEY(night_id, variant));\n"
	"CREATE TABLE summary(\n"
	"  night_id INTEGER NOT NULL REFERENCES night(id) ON DELETE CASCADE,\n"
	"  variant TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  unit TEXT NOT NULL,\n"
	"  better TEXT NOT NULL CHECK(better IN ('higher', 'lower', 'none')),\n"
	"  key INTEGER NOT NULL CHECK(key IN (0, 1)),\n"
	"  n INTEGER NOT NULL,\n"
	"  mean REAL NOT NULL,\n"
	"  sd REAL,\n"
	"  median REAL NOT NULL,\n"
	"  PRIMARY KEY(night_id, variant, metric));\n";

/* The view, in the schema and again after a migration. */
static const char view_sql[] =
	"CREATE VIEW v_summary AS\n"
	"  SELECT n.campaign, n.plan, n.host_class, n.started,\n"
	"         datetime(n.started, 'unixepoch') AS time,\n"
	"         nv.kernel, s.variant, s.metric, s.n, s.mean, s.sd, s.median, s.unit, s.better\n"
	"  FROM summary s JOIN night n ON n.id = s.night_id\n"
	"  JOIN night_variant nv ON nv.night_id = s.night_id AND nv.variant = s.variant;\n";

struct history {
	sqlite3 *db;
	char errmsg[512];
};

static int fail(struct history *h, const char *what)
{
	snprintf(h->errmsg, sizeof(h->errmsg), "%.160s: %.300s", what, sqlite3_errmsg(h->db));
	return -EIO;
}

static int exec(struct history *h, const char *sql)
{
	return sql_exec(h->db, sql, NULL, 0) == 0 ? 0 : fail(h, sql);
}

static int prep(struct history *h, const char *sql, sqlite3_stmt **ret)
{
	return sql_prepare(h->db, sql, ret, NULL, 0) == 0 ? 0 : fail(h, sql);
}

/* Step a statement that returns no row, then reset it. */
static int done(struct history *h, sqlite3_stmt *s)
{
	return sql_step_done(h->db, s, NULL, 0) == 0 ? 0 : fail(h, sqlite3_sql(s));
}

static int history_open(struct history *h, const char *path);

int history__open(const char *path, struct history **ret, char **ret_err)
{
	_cleanup_(history__closep) struct history *h = xcalloc(1, sizeof(*h));
	int r = history_open(h, path);

	if (r < 0) {
		if (ret_err)
			*ret_err = xstrdup(h->errmsg[0] ? h->errmsg : strerror(-r));
		return r;
	}
	*ret = TAKE_PTR(h);
	return 0;
}

static int history_open(struct history *h, const char *path)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int version, r;

	r = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (r != SQLITE_OK) {
		snprintf(h->errmsg, sizeof(h->errmsg), "cannot open: %s", sqlite3_errstr(r));
		return r == SQLITE_CANTOPEN ? -ENOENT : -EIO;
	}
	sqlite3_busy_timeout(h->db, 30000);
	r = exec(h, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
		    "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE");
	if (r < 0)
		return r;
	r = prep(h, "PRAGMA user_version", &q);
	if (r < 0 || sqlite3_step(q) != SQLITE_ROW)
		return r < 0 ? r : fail(h, "user_version");
	version = sqlite3_column_int(q, 0);
	sqlite3_finalize(TAKE_PTR(q));
	if (version == 0) {
		_cleanup_free_ char *sql = xasprintf(
			"%s%sPRAGMA user_version = %d; INSERT INTO meta VALUES ('schema.version', "
			"'%d'), ('created', CAST(strftime('%%s', 'now') AS TEXT));",
			schema_sql, view_sql, HISTORY_SCHEMA_VERSION, HISTORY_SCHEMA_VERSION);

		r = exec(h, sql);
	} else if (version == 1) {
		/* In place, in this transaction: a reader sees version 1 or 2, whole. */
		_cleanup_free_ char *sql = xasprintf(
			"ALTER TABLE night ADD COLUMN host_class TEXT NOT NULL DEFAULT '%s'; "
			"DROP VIEW v_summary; %sPRAGMA user_version = %d; "
			"UPDATE meta SET value = '%d' WHERE key = 'schema.version'; "
			"INSERT OR REPLACE INTO meta VALUES ('migrated.v1', "
			"CAST(strftime('%%s', 'now') AS TEXT));",
			HISTORY_CLASS_UNRECORDED, view_sql, HISTORY_SCHEMA_VERSION,
			HISTORY_SCHEMA_VERSION);

		r = exec(h, sql);
	} else if (version != HISTORY_SCHEMA_VERSION) {
		snprintf(h->errmsg, sizeof(h->errmsg), "history schema version %d, this lrubench "
			 "knows %d (and migrates 1)", version, HISTORY_SCHEMA_VERSION);
		r = -EPROTO;
	}
	if (r < 0) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return exec(h, "COMMIT");
}

void history__close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close_v2(h->db);
	free(h);
}

void history__closep(struct history **h)
{
	history__close(*h);
}

const char *history__errmsg(struct history *h)
{
	return h->errmsg[0] ? h->errmsg : "no error";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void hist_summarize(const double *x, size_t n, struct hist_summary *ret)
{
	double s = 0, ss = 0, *sorted;

	*ret = (struct hist_summary){ .n = n, .mean = NAN, .sd = NAN, .median = NAN };
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	ret->mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - ret->mean) * (x[i] - ret->mean);
	if (n > 1)
		ret->sd = sqrt(ss / (double)(n - 1));
	sorted = xcalloc(n, sizeof(double));
	memcpy(sorted, x, n * sizeof(double));
	qsort(sorted, n, sizeof(double), cmp_double);
	ret->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}

/* The values of one (variant, metric) as they stream by, sorted by both. */
struct acc {
	char *variant, *metric, *unit, *better;
	bool key;
	double *x;
	size_t n, cap;
};

static void acc_clear(struct acc *a)
{
	free(a->variant);
	free(a->metric);
	free(a->unit);
	free(a->better);
	free(a->x);
	*a = (struct acc){ 0 };
}

/* Write the accumulated row, if any, as a summary row of the night. */
static int acc_flush(struct history *h, sqlite3_stmt *ins, struct acc *a)
{
	struct hist_summary s;
	int r;

	if (!a->n) {
		acc_clear(a);
		return 0;
	}
	hist_summarize(a->x, a->n, &s);
	sql_bind_text(ins, 2, a->variant);
	sql_bind_text(ins, 3, a->metric);
	sql_bind_text(ins, 4, a->unit);
	sql_bind_text(ins, 5, a->better);
	sqlite3_bind_int(ins, 6, a->key);
	sqlite3_bind_int64(ins, 7, (int64_t)s.n);
	sqlite3_bind_double(ins, 8, s.mean);
	if (isnan(s.sd))
		sqlite3_bind_null(ins, 9);
	else
		sqlite3_bind_double(ins, 9, s.sd);
	sqlite3_bind_double(ins, 10, s.median);
	r = done(h, ins);
	acc_clear(a);
	return r;
}

static int acc_add(struct history *h, sqlite3_stmt *ins, struct acc *a, const char *variant,
		   const char *metric, const char *unit, const char *better, double x)
{
	if (!a->variant || strcmp(a->variant, variant) || strcmp(a->metric, metric)) {
		int r = acc_flush(h, ins, a);

		if (r < 0)
			return r;
		a->variant = xstrdup(variant);
		a->metric = xstrdup(metric);
		a->unit = xstrdup(unit);
		a->better = xstrdup(better);
		a->key = strcmp(better, "none") != 0;
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 8;
		a->x = xrealloc(a->x, a->cap, sizeof(double));
	}
	a->x[a->n++] = x;
	return 0;
}

/*
 * The per-run values of a campaign, sorted by variant and metric: workload
 * results, then counter increases over each run (last sample minus first; a
 * counter first seen after the run's first sample, such as a workload's perf
 * counter, counts from zero), for counters with a direction.
 */
static const char results_sql[] =
	"SELECT v.name, x.workload || ':' || x.key, x.unit, x.better, x.value "
	"FROM src.result x JOIN src.run r ON r.id = x.run_id "
	"JOIN src.variant v ON v.id = r.variant_id WHERE r.status = 'completed' "
	"ORDER BY v.id, 2, r.ord";
static const char counters_sql[] =
	"WITH b AS (SELECT run_id, metric_id, scope_id, MIN(seq) AS s0, MAX(seq) AS s1 "
	"           FROM src.value WHERE run_id IN (SELECT id FROM src.run "
	"             WHERE status = 'completed') AND metric_id IN (SELECT id FROM src.metric "
	"             WHERE kind = 'counter' AND better <> 'none') "
	"           GROUP BY run_id, metric_id, scope_id), "
	"     f AS (SELECT run_id, MIN(seq) AS first FROM src.sample GROUP BY run_id) "
	"SELECT va.name, CASE sc.name WHEN '-' THEN m.name ELSE m.name || '[' || sc.name || ']' END, "
	"  m.unit, m.better, "
	"  (SELECT v FROM src.value WHERE run_id = b.run_id AND seq = b.s1 "
	"     AND metric_id = b.metric_id AND scope_id = b.scope_id) - "
	"  CASE WHEN b.s0 > f.first THEN 0 ELSE (SELECT v FROM src.value WHERE run_id = b.run_id "
	"     AND seq = b.s0 AND metric_id = b.metric_id AND scope_id = b.scope_id) END "
	"FROM b JOIN f USING(run_id) JOIN src.run r ON r.id = b.run_id "
	"JOIN src.variant va ON va.id = r.variant_id JOIN src.metric m ON m.id = b.metric_id "
	"JOIN src.scope sc ON sc.id = b.scope_id ORDER BY va.id, 2, r.ord";

static int summaries_write(struct history *h, int64_t night)
{
	_cleanup_stmt_ sqlite3_stmt *ins = NULL;
	const char *const queries[] = { results_sql, counters_sql };
	int r;

	r = prep(h,
		 "INSERT INTO summary(night_id, variant, metric, unit, better, key, n, mean, sd, "
		 "median) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		 &ins);
	if (r < 0)
		return r;
	sqlite3_bind_int64(ins, 1, night);
	for (size_t i = 0; i < ARRAY_SIZE(queries); i++) {
		_cleanup_stmt_ sqlite3_stmt *q = NULL;
		struct acc a = { 0 };
		int rc;

		r = prep(h, queries[i], &q);
		if (r < 0)
			return r;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW && r == 0) {
			if (sqlite3_column_type(q, 4) == SQLITE_NULL)
				continue;
			r = acc_add(h, ins, &a, sql_col_text(q, 0), sql_col_text(q, 1),
				    sql_col_text(q, 2), sql_col_text(q, 3),
				    sqlite3_column_double(q, 4));
			/* counters are context, not the plotted key metrics */
			if (i == 1)
				a.key = false;
		}
		if (r == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
			r = fail(h, "reading the campaign");
		if (r == 0)
			r = acc_flush(h, ins, &a);
		acc_clear(&a);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A CPU's model name as a class part: "(R)", "(TM)" and "(tm)" dropped, blanks collapsed, '/'
 * made '-' (it separates the parts); "?" if unknown. */
static char *cpu_part(const char *model)
{
	static const char *const marks[] = { "(R)", "(TM)", "(tm)" };
	char *s = xstrdup(model && *model && strcmp(model, "unknown") ? model : "?"), *w = s;

	for (const char *p = s; *p;) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(marks); i++)
			if (!strncmp(p, marks[i], strlen(marks[i])))
				break;
		if (i < ARRAY_SIZE(marks)) {
			p += strlen(marks[i]);
			continue;
		}
		if (*p == ' ' || *p == '\t') {
			while (*p == ' ' || *p == '\t')
				p++;
			if (w > s && *p)
				*w++ = ' ';
			continue;
		}
		*w++ = *p == '/' ? '-' : *p;
		p++;
	}
	*w = '\0';
	return s;
}

char *hist_host_class(const char *cpu_model, const char *cpus, const char *mem_bytes,
		      const char *accel, const char *qemu_version, const char *clock)
{
	_cleanup_free_ char *cpu = cpu_part(cpu_model), *qemu = NULL;
	const char *v = qemu_version ? strstr(qemu_version, "version ") : NULL;
	int64_t n = 0, mem = 0;
	char ncpu[24] = "?", gib[24] = "?", icount[24] = "";
	int shift;

	if (cpus && parse_i64(cpus, &n) == 0 && n > 0)
		snprintf(ncpu, sizeof(ncpu), "%lld", (long long)n);
	/* MemTotal sits a little under the installed size: rounded up to the GiB it lands
	 * there, and a reserve that moves by some MiB between kernels changes nothing. */
	if (mem_bytes && parse_i64(mem_bytes, &mem) == 0 && mem > 0)
		snprintf(gib, sizeof(gib), "%lld", (long long)((mem + (1LL << 30) - 1) >> 30));
	/* "QEMU emulator version 7.2.22 (Debian ...)": the upstream version, 7.2.22 */
	if (v && v[8])
		qemu = xasprintf("%.*s", (int)strcspn(v + 8, " \t\n(/"), v + 8);
	/* "instructions shift=3 sleep=on": a run's times are in that clock's unit */
	if (clock && !strncmp(clock, "instructions", 12)) {
		if (sscanf(clock, "instructions shift=%d", &shift) == 1 && shift >= 0)
			snprintf(icount, sizeof(icount), "+icount%d", shift);
		else
			snprintf(icount, sizeof(icount), "+icount?");
	}
	return xasprintf("%s/%scpu/%sGiB/%s%s/qemu-%s", cpu, ncpu, gib,
			 accel && *accel ? accel : "?", icount, qemu && *qemu ? qemu : "?");
}

/* The accelerator the campaign's runs used (run_prov accel, of the completed runs if any ran),
 * several joined by '+'; else the one it asked for if that names one; else "?". */
static char *night_accel(struct history *h, const char *asked)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	char *a = NULL;

	if (prep(h,
		 "SELECT group_concat(value, '+') FROM (SELECT DISTINCT p.value FROM "
		 "src.run_prov p JOIN src.run r ON r.id = p.run_id WHERE p.key = 'accel' AND "
		 "p.value <> '' AND (r.status = 'completed' OR NOT EXISTS (SELECT 1 FROM src.run "
		 "WHERE status = 'completed')) ORDER BY p.value)",
		 &q) == 0 &&
	    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL)
		a = sql_col_dup(q, 0);
	if (!a)
		a = xstrdup(!strcmp(asked, "kvm") || !strcmp(asked, "tcg") ? asked : "?");
	return a;
}

/* The plan's name from its text; the campaign's name if it no longer parses. */
static char *plan_name(const char *text, const char *campaign)
{
	_cleanup_(plan__freep) struct plan *p = NULL;
	_cleanup_free_ char *err = NULL;

	if (text && plan__parse("plan", text, &p, &err) == 0)
		return xstrdup(p->name);
	return xstrdup(campaign);
}

static char *meta(struct store *st, const char *key, const char *def)
{
	char *v = NULL;

	return store__meta_get(st, key, &v) == 0 ? v : xstrdup(def);
}

int history__append(struct history *h, struct store *st, const char *db_path,
		    int64_t *ret_night)
{
	_cleanup_free_ char *campaign = meta(st, "campaign", ""), *text = meta(st, "plan.text", "");
	_cleanup_free_ char *created = meta(st, "created", "0"), *host = meta(st, "host", "");
	_cleanup_free_ char *version = meta(st, "lrubench.version", LRUBENCH_VERSION);
	_cleanup_free_ char *cpu = meta(st, "host.cpu_model", ""), *cpus = meta(st, "host.cpus", "");
	_cleanup_free_ char *mem = meta(st, "host.mem_bytes", ""), *qemu = meta(st, "qemu.version", "");
	_cleanup_free_ char *asked = meta(st, "opt.accel", ""), *accel = NULL, *class = NULL;
	_cleanup_free_ char *clock = meta(st, "guest.clock", "real");
	_cleanup_free_ char *mixed = meta(st, "host.classes", "");
	_cleanup_free_ char *plan = NULL, *abs = realpath(db_path, NULL);
	_cleanup_stmt_ sqlite3_stmt *del = NULL, *ins = NULL, *att = NULL;
	int64_t night, started = 0;
	char sha[65];
	int r, rc, pinned = 0;

	if (!*campaign || !*text) {
		snprintf(h->errmsg, sizeof(h->errmsg), "%s: not a campaign database", db_path);
		return -EINVAL;
	}
	plan = plan_name(text, campaign);
	parse_i64(created, &started);
	sha256_buf(text, strlen(text), sha); /* the campaign's plan.sha256 */
	r = prep(h, "ATTACH DATABASE ? AS src", &att);
	if (r < 0)
		return r;
	sql_bind_text(att, 1, db_path);
	r = done(h, att);
	if (r < 0)
		return r;
	r = exec(h, "BEGIN IMMEDIATE");
	if (r < 0)
		goto detach;
	accel = night_accel(h, asked);
	class = hist_host_class(cpu, cpus, mem, accel, qemu, clock);
	/* A merge of shards from several machines: a class of its own, never one of them. */
	if (*mixed) {
		free(class);
		class = xasprintf("mixed(%s)", mixed);
	}
	/* Appending a campaign again replaces its night and keeps its pin. */
	r = prep(h, "DELETE FROM night WHERE campaign = ? RETURNING pinned", &del);
	if (r < 0)
		goto rollback;
	sql_bind_text(del, 1, campaign);
	while ((rc = sqlite3_step(del)) == SQLITE_ROW)
		pinned = sqlite3_column_int(del, 0);
	if (rc != SQLITE_DONE) {
		r = fail(h, "night");
		goto rollback;
	}
	r = prep(h,
		 "INSERT INTO night(campaign, plan, plan_sha256, started, appended, host, db, "
		 "lrubench_version, pinned, host_class) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		 &ins);
	if (r < 0)
		goto rollback;
	sql_bind_text(ins, 1, campaign);
	sql_bind_text(ins, 2, plan);
	sql_bind_text(ins, 3, sha);
	sqlite3_bind_int64(ins, 4, started);
	sqlite3_bind_int64(ins, 5, now_real_ns() / 1000000000);
	sql_bind_text(ins, 6, host);
	sql_bind_text(ins, 7, abs ? abs : db_path);
	sql_bind_text(ins, 8, version);
	sqlite3_bind_int(ins, 9, pinned);
	sql_bind_text(ins, 10, class);
	r = done(h, ins);
	if (r < 0)
		goto rollback;
	night = sqlite3_last_insert_rowid(h->db);
	if (pinned) {
		/* its pin kept: still one per plan and host class, if its class changed */
		_cleanup_stmt_ sqlite3_stmt *un = NULL;

		r = prep(h, "UPDATE night SET pinned = 0 WHERE plan = ? AND host_class = ? AND id <> ?",
			 &un);
		if (r < 0)
			goto rollback;
		sql_bind_text(un, 1, plan);
		sql_bind_text(un, 2, class);
		sqlite3_bind_int64(un, 3, night);
		r = done(h, un);
		if (r < 0)
			goto rollback;
	}
	{
		_cleanup_stmt_ sqlite3_stmt *nv = NULL;

		r = prep(h,
			 "INSERT INTO night_variant(night_id, ord, variant, kernel, lru_mode, knobs, "
			 "runs, completed) SELECT ?, ROW_NUMBER() OVER (ORDER BY v.id), v.name, "
			 "v.kernel, v.lru_mode, v.knobs, "
			 "(SELECT COUNT(*) FROM src.run WHERE variant_id = v.id), "
			 "(SELECT COUNT(*) FROM src.run WHERE variant_id = v.id AND "
			 " status = 'completed') FROM src.variant v",
			 &nv);
		if (r < 0)
			goto rollback;
		sqlite3_bind_int64(nv, 1, night);
		r = done(h, nv);
		if (r < 0)
			goto rollback;
	}
	r = summaries_write(h, night);
	if (r < 0)
		goto rollback;
	r = exec(h, "COMMIT");
	if (r < 0)
		goto rollback;
	sqlite3_exec(h->db, "DETACH DATABASE src", NULL, NULL, NULL);
	*ret_night = night;
	return 0;
rollback:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
detach:
	sqlite3_exec(h->db, "DETACH DATABASE src", NULL, NULL, NULL);
	return r;
}

static int night_by(struct history *h, const char *sql, const char *text, int64_t *ret)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r, rc;

	r = prep(h, sql, &q);
	if (r < 0)
		return r;
	if (text)
		sql_bind_text(q, 1, text);
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	if (rc != SQLITE_ROW)
		return fail(h, "night");
	*ret = sqlite3_column_int64(q, 0);
	return 0;
}

int history__night(struct history *h, const char *campaign, int64_t *ret_night)
{
	return night_by(h, "SELECT id FROM night WHERE campaign = ?", campaign, ret_night);
}

int history__latest(struct history *h, int64_t *ret_night)
{
	return night_by(h, "SELECT id FROM night ORDER BY started DESC, id DESC LIMIT 1", NULL,
			ret_night);
}

int history__night_plan(struct history *h, int64_t night, char **ret_plan)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r;

	r = prep(h, "SELECT plan FROM night WHERE id = ?", &q);
	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, night);
	if (sqlite3_step(q) != SQLITE_ROW)
		return -ENOENT;
	*ret_plan = xstrdup(sql_col_text(q, 0));
	return 0;
}

int history__pin(struct history *h, const char *campaign)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int64_t night;
	int r;

	r = history__night(h, campaign, &night);
	if (r < 0)
		return r;
	r = prep(h,
		 "UPDATE night SET pinned = (id = ?1) "
		 "WHERE plan = (SELECT plan FROM night WHERE id = ?1) "
		 "AND host_class = (SELECT host_class FROM night WHERE id = ?1)",
		 &s);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, night);
	return done(h, s);
}

/* "mean ±cv% n=N" from columns i (n), i+1 (mean), i+2 (sd); "-" when absent. */
static void fmt_cell(char *buf, size_t len, sqlite3_stmt *q, int i)
{
	char num[16];
	double mean = sqlite3_column_double(q, i + 1);
	int n = sqlite3_column_int(q, i);

	if (sqlite3_column_type(q, i) == SQLITE_NULL) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_num(num, sizeof(num), mean);
	if (sqlite3_column_type(q, i + 2) != SQLITE_NULL && mean != 0)
		snprintf(buf, len, "%s ±%.0f%% n=%d", num,
			 100 * sqlite3_column_double(q, i + 2) / fabs(mean), n);
	else
		snprintf(buf, len, "%s n=%d", num, n);
}

/* The change of the mean of columns (i..) against (j..), as compare shows it. */
static void fmt_change(char *buf, size_t len, sqlite3_stmt *q, int i, int j)
{
	double a = sqlite3_column_double(q, i + 1), b = sqlite3_column_double(q, j + 1);

	if (sqlite3_column_type(q, i) == SQLITE_NULL || sqlite3_column_type(q, j) == SQLITE_NULL)
		snprintf(buf, len, "-");
	else if (sqlite3_column_int(q, i) < 2 || sqlite3_column_int(q, j) < 2)
		snprintf(buf, len, "(n<2)");
	else if (b == 0)
		snprintf(buf, len, "%s", a == 0 ? "0" : "(base 0)");
	else
		snprintf(buf, len, "%+.1f%%", 100 * (a - b) / fabs(b));
}

static void night_line(struct history *h, FILE *out, const char *label, int64_t night)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (night < 0 || prep(h,
			      "SELECT campaign, datetime(started, 'unixepoch'), "
			      "(SELECT SUM(completed) FROM night_variant WHERE night_id = id), "
			      "(SELECT SUM(runs) FROM night_variant WHERE night_id = id), host "
			      "FROM night WHERE id = ?",
			      &q) < 0)
		return;
	sqlite3_bind_int64(q, 1, night);
	if (sqlite3_step(q) == SQLITE_ROW)
		fprintf(out, "%-9s %s  %s UTC  %d of %d runs completed  host %s\n", label,
			sql_col_text(q, 0), sql_col_text(q, 1), sqlite3_column_int(q, 2),
			sqlite3_column_int(q, 3), sql_col_text(q, 4));
}

/* Kernels that changed since night other, one line per variant. */
static void kernel_changes(struct history *h, FILE *out, int64_t night, int64_t other,
			   const char *label)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (other < 0 || prep(h,
			      "SELECT a.variant, a.kernel, b.kernel FROM night_variant a "
			      "JOIN night_variant b ON b.night_id = ?2 AND b.variant = a.variant "
			      "WHERE a.night_id = ?1 AND a.kernel <> b.kernel ORDER BY a.ord",
			      &q) < 0)
		return;
	sqlite3_bind_int64(q, 1, night);
	sqlite3_bind_int64(q, 2, other);
	while (sqlite3_step(q) == SQLITE_ROW)
		fprintf(out, "kernel    %s: %s (%s: %s)\n", sql_col_text(q, 0), sql_col_text(q, 1),
			label, sql_col_text(q, 2));
}

/* The host class of a night (malloc'd); NULL if there is no such night. */
static char *night_class(struct history *h, int64_t night)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (night < 0 || prep(h, "SELECT host_class FROM night WHERE id = ?", &q) < 0)
		return NULL;
	sqlite3_bind_int64(q, 1, night);
	return sqlite3_step(q) == SQLITE_ROW ? sql_col_dup(q, 0) : NULL;
}

/* Which nights were compared: the line that says so, and a warning per side that crosses. */
static void hosts_lines(struct history *h, FILE *out, int64_t night, bool any_host, int64_t prev,
			int64_t pinned)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *class = night_class(h, night);
	const int64_t side[] = { prev, pinned };
	const char *const name[] = { "previous", "pinned" };
	int same, other;

	if (!class || prep(h,
			   "SELECT COALESCE(SUM(o.host_class = n.host_class), 0), "
			   "COALESCE(SUM(o.host_class <> n.host_class), 0) FROM night n "
			   "JOIN night o ON o.plan = n.plan AND o.id <> n.id WHERE n.id = ?",
			   &q) < 0)
		return;
	sqlite3_bind_int64(q, 1, night);
	if (sqlite3_step(q) != SQLITE_ROW)
		return;
	same = sqlite3_column_int(q, 0);
	other = sqlite3_column_int(q, 1);
	if (!any_host) {
		fprintf(out, "hosts     compared with %d night%s of host class %s", same,
			same == 1 ? "" : "s", class);
		if (other)
			fprintf(out, "; %d night%s of other classes left out: --any-host", other,
				other == 1 ? "" : "s");
		fputc('\n', out);
		return;
	}
	fprintf(out, "hosts     compared with %d night%s of any host class (--any-host): %d of "
		     "host class %s, %d of other classes\n",
		same + other, same + other == 1 ? "" : "s", same, class, other);
	for (size_t i = 0; i < ARRAY_SIZE(side); i++) {
		_cleanup_free_ char *c = night_class(h, side[i]);

		if (c && strcmp(c, class))
			fprintf(out, "warning   the %s night ran on host class %s, this night on %s: "
				     "its change may be the hosts'\n", name[i], c, class);
	}
}

int history__compare_print(struct history *h, int64_t night, bool any_host, FILE *out)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *plan = NULL;
	int64_t prev = -1, pinned = -1;
	int r;

	r = history__night_plan(h, night, &plan);
	if (r < 0)
		return r;
	/* Within the night's host class, or (any_host) across: the class's own pin first. */
	r = prep(h,
		 "SELECT p.id FROM night n JOIN night p ON p.plan = n.plan AND p.id <> n.id "
		 "AND (p.started < n.started OR (p.started = n.started AND p.id < n.id)) "
		 "AND (?2 OR p.host_class = n.host_class) "
		 "WHERE n.id = ?1 ORDER BY p.started DESC, p.id DESC LIMIT 1",
		 &q);
	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, night);
	sqlite3_bind_int(q, 2, any_host);
	if (sqlite3_step(q) == SQLITE_ROW)
		prev = sqlite3_column_int64(q, 0);
	sqlite3_finalize(TAKE_PTR(q));
	r = prep(h,
		 "SELECT p.id FROM night n JOIN night p ON p.plan = n.plan AND p.pinned "
		 "AND (?2 OR p.host_class = n.host_class) WHERE n.id = ?1 "
		 "ORDER BY p.host_class = n.host_class DESC, p.started DESC, p.id DESC LIMIT 1",
		 &q);
	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, night);
	sqlite3_bind_int(q, 2, any_host);
	if (sqlite3_step(q) == SQLITE_ROW)
		pinned = sqlite3_column_int64(q, 0);
	sqlite3_finalize(TAKE_PTR(q));

	fprintf(out, "history of plan %s\n", plan);
	night_line(h, out, "night", night);
	if (prev >= 0)
		night_line(h, out, "previous", prev);
	else
		fprintf(out, "previous  none: the first night of this plan\n");
	if (pinned >= 0)
		night_line(h, out, "pinned", pinned);
	else
		fprintf(out, "pinned    none ('lrubench history pin HIST.db CAMPAIGN' sets one)\n");
	hosts_lines(h, out, night, any_host, prev, pinned);
	kernel_changes(h, out, night, prev, "previous");
	kernel_changes(h, out, night, pinned, "pinned");

	/* Every metric of the three nights; rows all zero left out, key metrics kept. */
	r = prep(h,
		 "WITH k AS (SELECT DISTINCT variant, metric FROM summary "
		 "           WHERE night_id IN (?1, ?2, ?3)) "
		 "SELECT k.variant, k.metric, COALESCE(s.unit, p.unit, b.unit), "
		 "  COALESCE(s.better, p.better, b.better), COALESCE(s.key, p.key, b.key) AS is_key, "
		 "  s.n, s.mean, s.sd, p.n, p.mean, p.sd, b.n, b.mean, b.sd "
		 "FROM k LEFT JOIN summary s ON s.night_id = ?1 AND s.variant = k.variant "
		 "  AND s.metric = k.metric "
		 "LEFT JOIN summary p ON p.night_id = ?2 AND p.variant = k.variant "
		 "  AND p.metric = k.metric "
		 "LEFT JOIN summary b ON b.night_id = ?3 AND b.variant = k.variant "
		 "  AND b.metric = k.metric "
		 "LEFT JOIN night_variant nv ON nv.night_id = ?1 AND nv.variant = k.variant "
		 "WHERE is_key OR COALESCE(s.mean, 0) <> 0 OR COALESCE(p.mean, 0) <> 0 "
		 "  OR COALESCE(b.mean, 0) <> 0 "
		 "ORDER BY nv.ord IS NULL, nv.ord, k.variant, is_key DESC, k.metric",
		 &q);
	if (r < 0)
		return r;
	sqlite3_bind_int64(q, 1, night);
	sqlite3_bind_int64(q, 2, prev);
	sqlite3_bind_int64(q, 3, pinned);
	fprintf(out, "\n%-12s %-40s %-7s %-6s %20s %20s %8s %20s %8s\n", "variant", "metric", "unit",
		"better", "night", "previous", "change", "pinned", "change");
	while ((r = sqlite3_step(q)) == SQLITE_ROW) {
		char cur[48], pre[48], pin[48], c1[16], c2[16];

		fmt_cell(cur, sizeof(cur), q, 5);
		fmt_cell(pre, sizeof(pre), q, 8);
		fmt_cell(pin, sizeof(pin), q, 11);
		fmt_change(c1, sizeof(c1), q, 5, 8);
		fmt_change(c2, sizeof(c2), q, 5, 11);
		fprintf(out, "%-12s %-40s %-7s %-6s %20s %20s %8s %20s %8s\n", sql_col_text(q, 0),
			sql_col_text(q, 1), sql_col_text(q, 2), sql_col_text(q, 3), cur, pre, c1,
			pin, c2);
	}
	if (r != SQLITE_DONE)
		return fail(h, "summary");
	fprintf(out, "\nValues: mean ±coefficient of variation over n completed runs; counters "
		     "are increases over the run.\nchange: relative change of the mean, shown "
		     "where both sides have n >= 2; no significance test here\n(lrubench compare "
		     "on a campaign database gives the verdicts).\n");
	return 0;
}

int history__list_print(struct history *h, FILE *out)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	bool classes;
	int r;

	/* The host class column only where there is more than one. */
	r = prep(h, "SELECT COUNT(DISTINCT host_class) > 1 FROM night", &q);
	if (r < 0)
		return r;
	classes = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0);
	sqlite3_finalize(TAKE_PTR(q));
	r = prep(h,
		 "SELECT n.plan, n.campaign, datetime(n.started, 'unixepoch'), "
		 "(SELECT SUM(completed) FROM night_variant WHERE night_id = n.id), "
		 "(SELECT SUM(runs) FROM night_variant WHERE night_id = n.id), "
		 "CASE WHEN n.pinned THEN 'pinned' ELSE '' END, n.host_class "
		 "FROM night n ORDER BY n.plan, n.started, n.id",
		 &q);
	if (r < 0)
		return r;
	if (classes)
		fprintf(out, "%-16s %-40s %-19s %-9s %-6s %s\n", "plan", "campaign",
			"started (UTC)", "runs", "", "host class");
	else
		fprintf(out, "%-16s %-40s %-19s %-9s %s\n", "plan", "campaign", "started (UTC)",
			"runs", "");
	while ((r = sqlite3_step(q)) == SQLITE_ROW) {
		char runs[32];

		snprintf(runs, sizeof(runs), "%d/%d", sqlite3_column_int(q, 3),
			 sqlite3_column_int(q, 4));
		if (classes)
			fprintf(out, "%-16s %-40s %-19s %-9s %-6s %s\n", sql_col_text(q, 0),
				sql_col_text(q, 1), sql_col_text(q, 2), runs, sql_col_text(q, 5),
				sql_col_text(q, 6));
		else
			fprintf(out, "%-16s %-40s %-19s %-9s %s\n", sql_col_text(q, 0),
				sql_col_text(q, 1), sql_col_text(q, 2), runs, sql_col_text(q, 5));
	}
	return r == SQLITE_DONE ? 0 : fail(h, "night");
}

/* ---- what the trend plots read (history-plot.c) --------------------------- */

int history__pinned_x(struct history *h, const char *plan, char **ret_xs)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int r;

	r = prep(h,
		 "SELECT group_concat(x, ' ') FROM (SELECT x FROM (SELECT pinned, "
		 "ROW_NUMBER() OVER (ORDER BY started, id) - 1 AS x FROM night WHERE plan = ?) "
		 "WHERE pinned ORDER BY x)",
		 &q);
	if (r < 0)
		return r;
	sql_bind_text(q, 1, plan);
	if (sqlite3_step(q) != SQLITE_ROW || sqlite3_column_type(q, 0) == SQLITE_NULL)
		return -ENOENT;
	*ret_xs = sql_col_dup(q, 0);
	return 0;
}

void history_metrics__free(struct history_metric *m, size_t n)
{
	for (size_t i = 0; m && i < n; i++) {
		free(m[i].metric);
		free(m[i].unit);
		free(m[i].better);
	}
	free(m);
}

int history__key_metrics(struct history *h, const char *plan, struct history_metric **ret,
			 size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct history_metric *m = NULL;
	size_t n = 0;
	int r, rc;

	r = prep(h,
		 "SELECT s.metric, MAX(s.unit), MAX(s.better) FROM summary s "
		 "JOIN night n ON n.id = s.night_id WHERE n.plan = ? AND s.key "
		 "GROUP BY s.metric ORDER BY s.metric",
		 &q);
	if (r < 0)
		return r;
	sql_bind_text(q, 1, plan);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		m = xrealloc(m, n + 1, sizeof(*m));
		m[n++] = (struct history_metric){
			.metric = sql_col_dup(q, 0),
			.unit = sql_col_dup(q, 1),
			.better = sql_col_dup(q, 2),
		};
	}
	if (rc != SQLITE_DONE) {
		history_metrics__free(m, n);
		return fail(h, "summary");
	}
	*ret = m;
	*ret_n = n;
	return 0;
}

void history_points__free(struct history_point *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].variant);
		free(p[i].host_class);
		free(p[i].label);
	}
	free(p);
}

int history__trend(struct history *h, const char *plan, const char *metric,
		   struct history_point **ret, size_t *ret_n)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	struct history_point *p = NULL;
	size_t n = 0;
	int r, rc;

	r = prep(h,
		 "WITH nights AS (SELECT id, started, host_class, ROW_NUMBER() OVER "
		 "                  (ORDER BY started, id) - 1 AS x FROM night WHERE plan = ?1), "
		 "     vord AS (SELECT variant, MIN(night_id * 1000 + ord) AS o FROM night_variant "
		 "              WHERE night_id IN (SELECT id FROM nights) GROUP BY variant), "
		 "     cord AS (SELECT host_class, MIN(x) AS o FROM nights GROUP BY host_class) "
		 "SELECT s.variant, n.x, s.mean, s.sd, "
		 "  strftime('%m-%d %H:%M', n.started, 'unixepoch'), n.host_class "
		 "FROM summary s JOIN nights n ON n.id = s.night_id "
		 "JOIN vord ON vord.variant = s.variant JOIN cord ON cord.host_class = n.host_class "
		 "WHERE s.metric = ?2 ORDER BY vord.o, s.variant, cord.o, n.x",
		 &q);
	if (r < 0)
		return r;
	sql_bind_text(q, 1, plan);
	sql_bind_text(q, 2, metric);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		p = xrealloc(p, n + 1, sizeof(*p));
		p[n++] = (struct history_point){
			.variant = sql_col_dup(q, 0),
			.x = sqlite3_column_int(q, 1),
			.mean = sqlite3_column_double(q, 2),
			.sd = sql_col_real(q, 3),
			.label = sql_col_dup(q, 4),
			.host_class = sql_col_dup(q, 5),
		};
	}
	if (rc != SQLITE_DONE) {
		history_points__free(p, n);
		return fail(h, "summary");
	}
	*ret = p;
	*ret_n = n;
	return 0;
}
