// SPDX-License-Identifier: GPL-2.0
#include "merge.h"
#include "history.h"
#include "kernel.h"
#include "sql.h"
#include "store-priv.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

/* What the pre-pass reads from each input before anything is written. */
struct input {
	const char *path;
	int version; /* PRAGMA user_version */
	char *campaign, *shard, *plan_sha, *reps, *created, *host;
	char *clock; /* meta guest.clock; NULL: the real clock (older databases) */
	char *host_class; /* the machine it ran on, as history classes nights (history.h) */
	char **variants; /* "name\tkernel\tlru_mode\tknobs" */
	size_t nvariants;
	uint64_t runs, taken, duplicates, replaced;
};

struct merge {
	sqlite3 *db; /* OUT's handle, from its store */
	char *err;
	struct merge_stats stats;
};

static void input_clear(struct input *in)
{
	free(in->campaign);
	free(in->shard);
	free(in->plan_sha);
	free(in->reps);
	free(in->created);
	free(in->host);
	free(in->clock);
	free(in->host_class);
	for (size_t i = 0; i < in->nvariants; i++)
		free(in->variants[i]);
	free(in->variants);
}

static int failf(struct merge *m, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failf(struct merge *m, int r, const char *fmt, ...)
{
	if (!m->err) {
		va_list ap;

		va_start(ap, fmt);
		if (vasprintf(&m->err, fmt, ap) < 0)
			abort();
		va_end(ap);
	}
	return r;
}

/* A meta value of the database db, or NULL. */
static char *meta_get(sqlite3 *db, const char *schema, const char *key)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *sql = xasprintf("SELECT value FROM %s.meta WHERE key = ?", schema);

	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		return NULL;
	sql_bind_text(q, 1, key);
	return sqlite3_step(q) == SQLITE_ROW ? sql_col_dup(q, 0) : NULL;
}

/* Read what is compared and recorded from one input, opened read-only. */
static int input_read(struct merge *m, struct input *in)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	_cleanup_free_ char *text = NULL;
	sqlite3 *db = NULL;
	char sha[65];
	int r = 0;

	if (access(in->path, R_OK) < 0)
		return failf(m, -ENOENT, "%s: %s", in->path, strerror(errno));
	if (sqlite3_open_v2(in->path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		r = failf(m, -EINVAL, "%s: cannot open: %s", in->path, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW) {
		r = failf(m, -EINVAL, "%s: not an SQLite database (%s)", in->path,
			  sqlite3_errmsg(db));
		goto out;
	}
	in->version = sqlite3_column_int(q, 0);
	sqlite3_finalize(TAKE_PTR(q));
	text = meta_get(db, "main", "plan.text");
	in->campaign = meta_get(db, "main", "campaign");
	if (!text || !in->campaign) {
		r = failf(m, -EINVAL, "%s: not a campaign database (no plan or campaign in its meta)",
			  in->path);
		goto out;
	}
	/* Older databases have no plan.sha256: the hash of the text is the same thing. */
	sha256_buf(text, strlen(text), sha);
	in->plan_sha = xstrdup(sha);
	in->reps = meta_get(db, "main", "repetitions");
	in->shard = meta_get(db, "main", "shard");
	in->created = meta_get(db, "main", "created");
	in->host = meta_get(db, "main", "host");
	in->clock = meta_get(db, "main", "guest.clock");
	{
		_cleanup_free_ char *cpu = meta_get(db, "main", "host.cpu_model");
		_cleanup_free_ char *cpus = meta_get(db, "main", "host.cpus");
		_cleanup_free_ char *mem = meta_get(db, "main", "host.mem_bytes");
		_cleanup_free_ char *qemu = meta_get(db, "main", "qemu.version");
		_cleanup_free_ char *accel = NULL;

		/* the accelerators its runs used, as history's night_accel reads them */
		if (sqlite3_prepare_v2(db,
				       "SELECT group_concat(value, '+') FROM (SELECT DISTINCT value "
				       "FROM run_prov WHERE key = 'accel' AND value <> '' ORDER BY "
				       "value)",
				       -1, &q, NULL) == SQLITE_OK &&
		    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL)
			accel = sql_col_dup(q, 0);
		sqlite3_finalize(TAKE_PTR(q));
		in->host_class = hist_host_class(cpu, cpus, mem, accel, qemu, in->clock);
	}
	if (sqlite3_prepare_v2(db,
			       "SELECT name || char(9) || kernel || char(9) || lru_mode || char(9) || "
			       "knobs FROM variant ORDER BY id",
			       -1, &q, NULL) != SQLITE_OK) {
		r = failf(m, -EINVAL, "%s: no variant table: %s", in->path, sqlite3_errmsg(db));
		goto out;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		in->variants = xrealloc(in->variants, in->nvariants + 1, sizeof(char *));
		in->variants[in->nvariants++] = sql_col_dup(q, 0);
	}
	sqlite3_finalize(TAKE_PTR(q));
	if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM run", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW) {
		r = failf(m, -EINVAL, "%s: no run table: %s", in->path, sqlite3_errmsg(db));
		goto out;
	}
	in->runs = (uint64_t)sqlite3_column_int64(q, 0);
out:
	sqlite3_finalize(TAKE_PTR(q));
	sqlite3_close_v2(db);
	return r;
}

/* Refuse inputs of another plan, before anything is written. */
static int inputs_check(struct merge *m, const struct input *a, const struct input *b)
{
	if (strcmp(a->plan_sha, b->plan_sha))
		return failf(m, -EINVAL,
			     "%s and %s were run from different plans (plan sha256 %.12s and "
			     "%.12s): refusing to merge",
			     a->path, b->path, a->plan_sha, b->plan_sha);
	if (strcmp(a->reps ? a->reps : "", b->reps ? b->reps : ""))
		return failf(m, -EINVAL,
			     "%s and %s ran the plan with different repetitions (%s and %s): "
			     "refusing to merge",
			     a->path, b->path, a->reps ? a->reps : "?", b->reps ? b->reps : "?");
	/* a run's times are in its guest's clock: another shift is another unit */
	if (strcmp(a->clock ? a->clock : "real", b->clock ? b->clock : "real"))
		return failf(m, -EINVAL,
			     "%s and %s ran on different guest clocks (%s and %s): their times "
			     "are not in the same unit; refusing to merge",
			     a->path, b->path, a->clock ? a->clock : "real",
			     b->clock ? b->clock : "real");
	for (size_t i = 0; i < b->nvariants; i++) {
		size_t nl = strcspn(b->variants[i], "\t");

		for (size_t j = 0; j < a->nvariants; j++) {
			if (strncmp(a->variants[j], b->variants[i], nl + 1) ||
			    !strcmp(a->variants[j], b->variants[i]))
				continue;
			return failf(m, -EINVAL,
				     "variant '%.*s' differs between %s (%s) and %s (%s): refusing "
				     "to merge",
				     (int)nl, b->variants[i], a->path, a->variants[j] + nl + 1,
				     b->path, b->variants[i] + nl + 1);
		}
	}
	return 0;
}

static int exec(struct merge *m, const struct input *in, const char *sql)
{
	if (sql_exec(m->db, sql, NULL, 0) == 0)
		return 0;
	return failf(m, -EIO, "%s: %s: %s", in ? in->path : "merge", sqlite3_errmsg(m->db), sql);
}

static int prep(struct merge *m, const struct input *in, const char *sql, sqlite3_stmt **ret)
{
	if (sql_prepare(m->db, sql, ret, NULL, 0) == 0)
		return 0;
	return failf(m, -EIO, "%s: %s: %s", in->path, sqlite3_errmsg(m->db), sql);
}

/* Step a statement that returns no row, then reset it. */
static int done(struct merge *m, const struct input *in, sqlite3_stmt *s)
{
	if (sql_step_done(m->db, s, NULL, 0) == 0)
		return 0;
	return failf(m, -EIO, "%s: %s: %s", in->path, sqlite3_errmsg(m->db), sqlite3_sql(s));
}

static int status_rank(const char *status)
{
	if (!strcmp(status, RUN_COMPLETED))
		return 3;
	if (!strcmp(status, RUN_FAILED_WORKLOAD) || !strcmp(status, RUN_FAILED_KERNEL))
		return 2;
	if (!strcmp(status, RUN_FAILED_INFRA))
		return 1;
	return 0; /* pending, running */
}

#define FINISHED_RANK 2

/* Rows hanging off a run, copied for the runs taken (temp.runmap.copy). */
static const char *const dependents_sql[] = {
	"INSERT INTO main.run_prov(run_id, key, value) SELECT m.dst, p.key, p.value "
	"FROM temp.runmap m JOIN src.run_prov p ON p.run_id = m.src WHERE m.copy",
	"INSERT INTO main.lru_gen(run_id, seq, memcg_id, memcg_path, node, gen, age_ms, anon, file) "
	"SELECT m.dst, g.seq, g.memcg_id, g.memcg_path, g.node, g.gen, g.age_ms, g.anon, g.file "
	"FROM temp.runmap m JOIN src.lru_gen g ON g.run_id = m.src WHERE m.copy",
	"INSERT INTO main.result(run_id, workload, key, value, unit, better) "
	"SELECT m.dst, x.workload, x.key, x.value, x.unit, x.better "
	"FROM temp.runmap m JOIN src.result x ON x.run_id = m.src WHERE m.copy",
	"INSERT INTO main.event(run_id, t_ns, kind, text) SELECT m.dst, e.t_ns, e.kind, e.text "
	"FROM temp.runmap m JOIN src.event e ON e.run_id = m.src WHERE m.copy ORDER BY e.id",
	"INSERT INTO main.log(run_id, name, text) SELECT m.dst, l.name, l.text "
	"FROM temp.runmap m JOIN src.log l ON l.run_id = m.src WHERE m.copy ORDER BY l.id",
	/* A retry names the run it retries by id: renumber to OUT's ids. */
	"UPDATE main.run_prov SET value = (SELECT CAST(m2.dst AS TEXT) FROM temp.runmap m2 "
	"  WHERE m2.src = CAST(run_prov.value AS INTEGER)) "
	"WHERE key = 'retry_of' AND run_id IN (SELECT dst FROM temp.runmap WHERE copy) "
	"  AND CAST(value AS INTEGER) IN (SELECT src FROM temp.runmap)",
};

/*
 * Delete run id of OUT and every row hanging off it (foreign keys are off
 * while copying: no cascade), noting it in gone[] (room for 40).
 */
static int run_replace(struct merge *m, const struct input *in, int64_t id, int64_t *gone,
		       size_t *ngone)
{
	static const char *const sql[] = {
		"DELETE FROM main.value WHERE run_id = ?",   "DELETE FROM main.lru_gen WHERE run_id = ?",
		"DELETE FROM main.sample WHERE run_id = ?",  "DELETE FROM main.run_prov WHERE run_id = ?",
		"DELETE FROM main.result WHERE run_id = ?",  "DELETE FROM main.event WHERE run_id = ?",
		"DELETE FROM main.log WHERE run_id = ?",     "DELETE FROM main.run WHERE id = ?",
	};

	for (size_t i = 0; i < ARRAY_SIZE(sql); i++) {
		_cleanup_stmt_ sqlite3_stmt *d = NULL;
		int r = prep(m, in, sql[i], &d);
		if (r < 0)
			return r;
		sqlite3_bind_int64(d, 1, id);
		r = done(m, in, d);
		if (r < 0)
			return r;
	}
	if (*ngone < 40)
		gone[(*ngone)++] = id;
	return 0;
}

/*
 * Decide for each run of the input whether it is taken, and insert those
 * taken into OUT; temp.runmap maps every input run to its OUT run (copy = 1
 * for those taken).
 */
static int runs_merge(struct merge *m, struct input *in)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL, *same = NULL, *fin = NULL, *unf = NULL, *ins = NULL,
				    *map = NULL, *retry = NULL;
	int r, rc;

	r = prep(m, in,
		 "SELECT r.id, v.name, r.rep, r.ord, r.seed, r.status, r.reason, r.started_ns, "
		 "r.ended_ns FROM src.run r JOIN src.variant v ON v.id = r.variant_id "
		 "ORDER BY r.ord, r.id",
		 &q);
	if (r < 0)
		return r;
	r = prep(m, in,
		 "SELECT r.id, r.status FROM main.run r JOIN main.variant v ON v.id = r.variant_id "
		 "WHERE v.name = ?1 AND r.rep = ?2 AND r.ord = ?3 ORDER BY r.id LIMIT 1",
		 &same);
	if (r < 0)
		return r;
	r = prep(m, in,
		 "SELECT r.id, r.status FROM main.run r JOIN main.variant v ON v.id = r.variant_id "
		 "WHERE v.name = ?1 AND r.rep = ?2 AND r.status IN ('completed', 'failed-workload', "
		 "'failed-kernel') ORDER BY r.id LIMIT 1",
		 &fin);
	if (r < 0)
		return r;
	r = prep(m, in,
		 "SELECT r.id FROM main.run r JOIN main.variant v ON v.id = r.variant_id "
		 "WHERE v.name = ?1 AND r.rep = ?2 AND r.status IN ('pending', 'running')",
		 &unf);
	if (r < 0)
		return r;
	r = prep(m, in,
		 "INSERT INTO main.run(variant_id, rep, ord, seed, status, reason, started_ns, "
		 "ended_ns) VALUES ((SELECT id FROM main.variant WHERE name = ?1), ?2, ?3, ?4, ?5, "
		 "?6, ?7, ?8)",
		 &ins);
	if (r < 0)
		return r;
	r = prep(m, in, "INSERT INTO temp.runmap(src, dst, copy) VALUES (?, ?, ?)", &map);
	if (r < 0)
		return r;
	r = prep(m, in,
		 "UPDATE main.run_prov SET value = ?2 WHERE key = 'retry_of' AND value = ?1", &retry);
	if (r < 0)
		return r;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t src_id = sqlite3_column_int64(q, 0), same_id = -1, fin_id = -1, keep = -1;
		int64_t gone[40], dst;
		const char *status = (const char *)sqlite3_column_text(q, 5);
		int rank = status_rank(status), same_rank = -1, fin_rank = -1;
		size_t ngone = 0;

		/* The same attempt already there, and a finished run of the same planned run. */
		for (int i = 1; i <= 3; i++)
			sqlite3_bind_value(same, i, sqlite3_column_value(q, i));
		if (sqlite3_step(same) == SQLITE_ROW) {
			same_id = sqlite3_column_int64(same, 0);
			same_rank = status_rank((const char *)sqlite3_column_text(same, 1));
		}
		sqlite3_reset(same);
		for (int i = 1; i <= 2; i++)
			sqlite3_bind_value(fin, i, sqlite3_column_value(q, i));
		if (sqlite3_step(fin) == SQLITE_ROW) {
			fin_id = sqlite3_column_int64(fin, 0);
			fin_rank = status_rank((const char *)sqlite3_column_text(fin, 1));
		}
		sqlite3_reset(fin);
		if (fin_id == same_id)
			fin_id = -1;

		/* Decide first, delete only for a run taken. */
		if (same_id >= 0 && rank <= same_rank)
			keep = same_id;
		else if (fin_id >= 0 && ((rank >= FINISHED_RANK && rank <= fin_rank) || rank == 0))
			keep = fin_id;
		if (keep >= 0) {
			in->duplicates++;
			m->stats.duplicates++;
			dst = keep;
		} else {
			if (same_id >= 0)
				r = run_replace(m, in, same_id, gone, &ngone);
			if (r == 0 && fin_id >= 0 && rank >= FINISHED_RANK)
				r = run_replace(m, in, fin_id, gone, &ngone);
			if (r == 0 && rank >= FINISHED_RANK) {
				/* a finished run supersedes unfinished copies of its planned run */
				int64_t ids[32];
				size_t nids = 0;

				for (int i = 1; i <= 2; i++)
					sqlite3_bind_value(unf, i, sqlite3_column_value(q, i));
				while (nids < ARRAY_SIZE(ids) && sqlite3_step(unf) == SQLITE_ROW)
					ids[nids++] = sqlite3_column_int64(unf, 0);
				sqlite3_reset(unf);
				for (size_t i = 0; i < nids && r == 0; i++)
					r = run_replace(m, in, ids[i], gone, &ngone);
			}
			if (r < 0)
				return r;
			for (int i = 1; i <= 8; i++)
				sqlite3_bind_value(ins, i, sqlite3_column_value(q, i));
			r = done(m, in, ins);
			if (r < 0)
				return r;
			dst = sqlite3_last_insert_rowid(m->db);
			in->taken++;
			in->replaced += ngone;
			m->stats.replaced += ngone;
		}
		sqlite3_bind_int64(map, 1, src_id);
		sqlite3_bind_int64(map, 2, dst);
		sqlite3_bind_int(map, 3, keep < 0);
		r = done(m, in, map);
		if (r < 0)
			return r;
		/* retries of earlier inputs' runs named the runs just replaced */
		for (size_t i = 0; i < ngone; i++) {
			char old[32], new[32];

			snprintf(old, sizeof(old), "%lld", (long long)gone[i]);
			snprintf(new, sizeof(new), "%lld", (long long)dst);
			sqlite3_bind_text(retry, 1, old, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(retry, 2, new, -1, SQLITE_TRANSIENT);
			r = done(m, in, retry);
			if (r < 0)
				return r;
		}
	}
	if (rc != SQLITE_DONE)
		return failf(m, -EIO, "%s: reading runs: %s", in->path, sqlite3_errmsg(m->db));
	return 0;
}

static int64_t count(struct merge *m, const char *sql)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;

	if (sqlite3_prepare_v2(m->db, sql, -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW)
		return -1;
	return sqlite3_column_int64(q, 0);
}

/* Copy one input (attached as src) into OUT, in one transaction. */
static int input_merge(struct merge *m, struct input *in, bool first)
{
	static const char *const names_sql[] = {
		"INSERT INTO main.variant(name, kernel, lru_mode, knobs) SELECT name, kernel, "
		"lru_mode, knobs FROM src.variant WHERE true ORDER BY id ON CONFLICT(name) DO NOTHING",
		"INSERT OR IGNORE INTO main.metric(name, source, unit, kind, better, description) "
		"SELECT name, source, unit, kind, better, description FROM src.metric ORDER BY id",
		"INSERT OR IGNORE INTO main.scope(name) SELECT name FROM src.scope ORDER BY id",
		"DELETE FROM temp.mmap; DELETE FROM temp.smap; DELETE FROM temp.runmap",
		"INSERT INTO temp.mmap SELECT s.id, d.id FROM src.metric s JOIN main.metric d "
		"USING(name)",
		"INSERT INTO temp.smap SELECT s.id, d.id FROM src.scope s JOIN main.scope d USING(name)",
	};
	int64_t want, n;
	int r;

	r = exec(m, in, "BEGIN IMMEDIATE");
	if (r < 0)
		return r;
	if (first) {
		/* The campaign's meta from the first input; what differs is set after. */
		r = exec(m, in,
			 "INSERT OR IGNORE INTO main.meta(key, value) SELECT key, value FROM src.meta "
			 "WHERE key NOT IN ('schema.version', 'campaign', 'created', 'shard', 'host', "
			 "'opt.history')");
		if (r < 0)
			goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names_sql); i++) {
		r = exec(m, in, names_sql[i]);
		if (r < 0)
			goto fail;
	}
	r = runs_merge(m, in);
	if (r < 0)
		goto fail;
	r = exec(m, in,
		 "INSERT INTO main.sample(run_id, seq, t_ns, complete) "
		 "SELECT m.dst, s.seq, s.t_ns, s.complete "
		 "FROM temp.runmap m JOIN src.sample s ON s.run_id = m.src WHERE m.copy");
	if (r < 0)
		goto fail;
	m->stats.samples += (uint64_t)sqlite3_changes(m->db);
	r = exec(m, in,
		 "INSERT INTO main.value(run_id, seq, metric_id, scope_id, v) "
		 "SELECT m.dst, x.seq, mm.dst, sm.dst, x.v FROM temp.runmap m "
		 "JOIN src.value x ON x.run_id = m.src JOIN temp.mmap mm ON mm.src = x.metric_id "
		 "JOIN temp.smap sm ON sm.src = x.scope_id WHERE m.copy");
	if (r < 0)
		goto fail;
	n = sqlite3_changes(m->db);
	m->stats.values += (uint64_t)n;
	/* Every value of the runs taken came across: none lost to an unmatched name. */
	want = count(m, "SELECT COUNT(*) FROM temp.runmap m JOIN src.value x ON x.run_id = m.src "
			"WHERE m.copy");
	if (want != n) {
		r = failf(m, -EIO, "%s: %lld of %lld values copied (a metric or scope unmatched)",
			  in->path, (long long)n, (long long)want);
		goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(dependents_sql); i++) {
		r = exec(m, in, dependents_sql[i]);
		if (r < 0)
			goto fail;
	}
	r = exec(m, in, "COMMIT");
	if (r < 0)
		goto fail;
	m->stats.runs_in += in->runs;
	return 0;
fail:
	sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

static int attach(struct merge *m, const struct input *in)
{
	_cleanup_stmt_ sqlite3_stmt *a = NULL;
	int r;

	r = prep(m, in, "ATTACH DATABASE ? AS src", &a);
	if (r < 0)
		return r;
	sql_bind_text(a, 1, in->path);
	return done(m, in, a);
}

/* "name-20240101-020000-s1of4" -> "name-20240101-020000-merged" */
static char *merged_name(const char *campaign)
{
	const char *dash = strrchr(campaign, '-');
	unsigned i, n;
	char tail;

	if (dash && sscanf(dash, "-s%uof%u%c", &i, &n, &tail) == 2)
		return xasprintf("%.*s-merged", (int)(dash - campaign), campaign);
	return xasprintf("%s-merged", campaign);
}

static int meta_set(struct merge *m, const char *key, const char *value)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;

	if (sqlite3_prepare_v2(m->db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", -1,
			       &s, NULL) != SQLITE_OK)
		return failf(m, -EIO, "meta: %s", sqlite3_errmsg(m->db));
	sql_bind_text(s, 1, key);
	sql_bind_text(s, 2, value);
	if (sqlite3_step(s) != SQLITE_DONE)
		return failf(m, -EIO, "meta: %s", sqlite3_errmsg(m->db));
	return 0;
}

/* What OUT says about itself: its name, its inputs, when and where they ran. */
static int meta_write(struct merge *m, struct input *in, size_t n)
{
	_cleanup_free_ char *name = merged_name(in[0].campaign), *hosts = NULL, *classes = NULL;
	const char *created = NULL;
	char buf[32];
	size_t hlen = 0, clen = 0, nclasses = 0;
	FILE *f = open_memstream(&hosts, &hlen), *fc = open_memstream(&classes, &clen);
	int r;

	for (size_t i = 0; i < n; i++) {
		bool seen = false, seen_class = false;

		for (size_t j = 0; j < i; j++)
			seen_class |= !strcmp(in[j].host_class, in[i].host_class);
		if (!seen_class) {
			fprintf(fc, "%s%s", nclasses ? " + " : "", in[i].host_class);
			nclasses++;
		}

		/* the earliest input's start: history orders nights by it */
		if (in[i].created && (!created || strtoll(in[i].created, NULL, 10) <
							    strtoll(created, NULL, 10)))
			created = in[i].created;
		for (size_t j = 0; j < i && in[i].host; j++)
			seen |= in[j].host && !strcmp(in[j].host, in[i].host);
		if (in[i].host && !seen)
			fprintf(f, "%s%s", ftell(f) ? ", " : "", in[i].host);
	}
	fclose(f);
	fclose(fc);
	m->stats.host_classes = nclasses;
	r = exec(m, NULL, "BEGIN IMMEDIATE");
	if (r < 0)
		return r;
	r = meta_set(m, "campaign", name);
	/* Shards of two machines: the host.* meta is the first's; history must not take it. */
	if (r == 0 && nclasses > 1)
		r = meta_set(m, "host.classes", classes);
	if (r == 0 && created)
		r = meta_set(m, "created", created);
	if (r == 0)
		r = meta_set(m, "host", hosts);
	snprintf(buf, sizeof(buf), "%zu", n);
	if (r == 0)
		r = meta_set(m, "merge.inputs", buf);
	snprintf(buf, sizeof(buf), "%lld", (long long)(now_real_ns() / 1000000000));
	if (r == 0)
		r = meta_set(m, "merge.created", buf);
	if (r == 0)
		r = meta_set(m, "merge.lrubench.version", LRUBENCH_VERSION);
	for (size_t i = 0; i < n && r == 0; i++) {
		_cleanup_free_ char *key = xasprintf("merge.input.%zu", i + 1);
		_cleanup_free_ char *v = xasprintf(
			"%s: campaign %s, shard %s, %llu runs: %llu taken, %llu duplicates, %llu "
			"replaced",
			in[i].path, in[i].campaign, in[i].shard ? in[i].shard : "none",
			(unsigned long long)in[i].runs, (unsigned long long)in[i].taken,
			(unsigned long long)in[i].duplicates, (unsigned long long)in[i].replaced);

		r = meta_set(m, key, v);
	}
	if (r < 0) {
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return exec(m, NULL, "COMMIT");
}

/* PRAGMA integrity_check and foreign_key_check both clean. */
static int out_check(struct merge *m, const char *path)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	const char *v;

	if (sqlite3_prepare_v2(m->db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW)
		return failf(m, -EIO, "%s: integrity_check: %s", path, sqlite3_errmsg(m->db));
	v = (const char *)sqlite3_column_text(q, 0);
	if (!v || strcmp(v, "ok"))
		return failf(m, -EIO, "%s: integrity_check: %s", path, v ? v : "?");
	sqlite3_finalize(TAKE_PTR(q));
	if (sqlite3_prepare_v2(m->db, "PRAGMA foreign_key_check", -1, &q, NULL) != SQLITE_OK)
		return failf(m, -EIO, "%s: foreign_key_check: %s", path, sqlite3_errmsg(m->db));
	if (sqlite3_step(q) == SQLITE_ROW)
		return failf(m, -EIO, "%s: foreign_key_check: a row of %s names no %s", path,
			     sqlite3_column_text(q, 0), sqlite3_column_text(q, 2));
	return 0;
}

static void unlink_db(const char *path)
{
	_cleanup_free_ char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);

	unlink(path);
	unlink(wal);
	unlink(shm);
}

int merge__run(const char *out, const char *const *paths, size_t n, struct merge_stats *ret_stats,
	       char **ret_err)
{
	_cleanup_free_ char *tmp = xasprintf("%s.merging", out);
	struct store *st = NULL;
	struct merge m = { 0 };
	struct input *in = xcalloc(n ? n : 1, sizeof(*in));
	int r = 0, version;

	if (!n) {
		r = failf(&m, -EINVAL, "no input to merge");
		goto out;
	}
	if (access(out, F_OK) == 0) {
		r = failf(&m, -EEXIST, "%s exists: merge writes a new database", out);
		goto out;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		in[i].path = paths[i];
		r = input_read(&m, &in[i]);
		if (r == 0 && i > 0)
			r = inputs_check(&m, &in[0], &in[i]);
	}
	if (r < 0)
		goto out;

	/* A stale OUT.merging is an earlier merge that did not finish. */
	unlink_db(tmp);
	r = store__open(tmp, &st);
	if (r < 0) {
		failf(&m, r, "%s: cannot create: %s", tmp, strerror(-r));
		goto out;
	}
	m.db = store__sqlite(st);
	version = (int)count(&m, "PRAGMA user_version");
	for (size_t i = 0; i < n && r == 0; i++)
		if (in[i].version != version)
			r = failf(&m, -EINVAL, "%s: schema version %d, this lrubench writes %d",
				  in[i].path, in[i].version, version);
	if (r < 0)
		goto out;
	/*
	 * Foreign keys are checked once at the end (out_check) rather than per
	 * row: half the time of a merge. Rows only come from inputs whose own
	 * keys held, through maps that cover every name.
	 */
	r = exec(&m, NULL,
		 "PRAGMA foreign_keys = OFF;"
		 "CREATE TEMP TABLE mmap(src INTEGER PRIMARY KEY, dst INTEGER NOT NULL);"
		 "CREATE TEMP TABLE smap(src INTEGER PRIMARY KEY, dst INTEGER NOT NULL);"
		 "CREATE TEMP TABLE runmap(src INTEGER PRIMARY KEY, dst INTEGER NOT NULL, "
		 "  copy INTEGER NOT NULL)");
	for (size_t i = 0; i < n && r == 0; i++) {
		r = attach(&m, &in[i]);
		if (r < 0)
			break;
		r = input_merge(&m, &in[i], i == 0);
		if (sqlite3_exec(m.db, "DETACH DATABASE src", NULL, NULL, NULL) != SQLITE_OK && r == 0)
			r = failf(&m, -EIO, "%s: detach: %s", in[i].path, sqlite3_errmsg(m.db));
	}
	if (r == 0)
		r = meta_write(&m, in, n);
	if (r == 0)
		r = out_check(&m, tmp);
	if (r < 0)
		goto out;
	m.stats.inputs = n;
	m.stats.runs = (uint64_t)count(&m, "SELECT COUNT(*) FROM run");
	m.stats.unfinished = (uint64_t)count(&m, "SELECT COUNT(*) FROM run WHERE status IN "
						 "('pending', 'running')");
	/* One file to rename: no WAL beside it (store__open turns WAL back on). */
	r = exec(&m, NULL, "PRAGMA journal_mode = DELETE");
	if (r < 0)
		goto out;
	store__close(TAKE_PTR(st));
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE) < 0) {
		r = failf(&m, -errno, "rename %s to %s: %s", tmp, out, strerror(errno));
		goto out;
	}
	if (ret_stats)
		*ret_stats = m.stats;
out:
	store__close(st);
	if (r < 0)
		unlink_db(tmp);
	for (size_t i = 0; i < n; i++)
		input_clear(&in[i]);
	free(in);
	if (r < 0 && ret_err)
		*ret_err = TAKE_PTR(m.err);
	free(m.err);
	return r;
}
