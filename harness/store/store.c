// SPDX-License-Identifier: GPL-2.0
/*
 * The campaign store on SQLite.
 *
 * The file is opened in WAL mode with synchronous=NORMAL and foreign keys on:
 * a killed process or a power cut loses at most the last, uncommitted batch
 * and never leaves a file that fails PRAGMA integrity_check. Writes go into
 * one open transaction (the batch); it is committed by store__commit(), when
 * it holds STORE_BATCH_ROWS rows, by every campaign-level write (meta,
 * variant, run, provenance, log) and by store__close(). Every value is bound,
 * never formatted into SQL.
 *
 * Schema (PRAGMA user_version = STORE_SCHEMA_VERSION):
 *
 * meta(key PK, value)
 *	Campaign metadata: name, plan text, tool version, host, creation time.
 *	"schema.version" repeats user_version for readers of the file alone.
 * metric(id PK, name UNIQUE, source, unit, kind, better, description)
 *	The metric dictionary's rows (metrics.c) for every name this campaign
 *	saw, added the first time it is seen. name is "SOURCE:KEY"; kind is
 *	'counter' or 'gauge'; better is 'higher', 'lower' or 'none'.
 * scope(id PK, name UNIQUE)
 *	Value scopes: '-' system-wide, a memcg name, or a workload name.
 * variant(id PK, name UNIQUE, kernel, lru_mode, knobs)
 *	What is compared: a kernel (recipe name), an LRU mode, the knobs text.
 * run(id PK, variant_id -> variant, rep, ord, seed, status, reason,
 *     started_ns, ended_ns)
 *	One boot of one variant. rep is the repetition, ord the place in the
 *	campaign's interleaved order, seed the workload seed (a uint64 stored
 *	in two's complement: read it back as unsigned). status is one of the
 *	RUN_* texts of store.h; reason says why a run failed. Times are
 *	wall-clock ns, NULL until known.
 * run_prov(run_id -> run, key, value, PK(run_id, key))
 *	Provenance of a run: kernel and initramfs hashes, .config hash, accel,
 *	QEMU argv, guest kernel release, and what the agent read back ("conf"
 *	lines, as guest.conf.KEY). A repeated key keeps the last value.
 * sample(run_id -> run, seq, t_ns, complete, PK(run_id, seq))
 *	One sampling instant of a run: seq counts from 0, t_ns is the guest's
 *	CLOCK_MONOTONIC. complete is 1 once an "end" line with the right count
 *	arrived; a sample cut short keeps complete = 0 and its values.
 * value(run_id, seq, metric_id -> metric, scope_id -> scope, v,
 *       PK(run_id, seq, metric_id, scope_id), (run_id, seq) -> sample)
 *	One integer of one sample. WITHOUT ROWID, in sample order, so a batch
 *	appends. A duplicate key is ignored and counted (store__stats()).
 * lru_gen(run_id, seq, memcg_id, memcg_path, node, gen, age_ms, anon, file,
 *         PK(run_id, seq, memcg_id, node, gen), (run_id, seq) -> sample)
 *	One MGLRU generation of one memcg and node (/sys/kernel/debug/lru_gen):
 *	gen is the generation's sequence number, age_ms its age, anon and file
 *	its sizes in pages.
 * result(run_id -> run, workload, key, value REAL, unit, better,
 *        PK(run_id, workload, key))
 *	A workload's own result (throughput, latency percentile, ...).
 * event(id PK, run_id -> run, t_ns, kind, text)
 *	What happened during a run: the guest's events (t_ns guest monotonic)
 *	and the host's (timeouts, rejected stream lines; t_ns as the caller
 *	gives it).
 * log(id PK, run_id -> run, name, text BLOB, UNIQUE(run_id, name))
 *	A whole named log of a run (the console), raw bytes.
 *
 * Added by their writers, not part of the versioned schema:
 * noise(label PK, n, cv, change, mde, source)
 *	Noise figures of an A/A campaign (noise.h), or copied from one.
 * meta keys read by the statistics: plan.baseline, plan.warmup (runs whose
 * rep is below it are warm-up, not measured), noise.variant (an A/A
 * campaign: the plan variant run against itself).
 *
 * Views for ad-hoc queries:
 * v_value	every value with its run, time, metric and scope names
 * v_delta	counter values with the increase since the previous sample
 *		(NULL for the first sample and across a counter reset)
 * v_run	runs with their variant, duration and sample counts
 */
#include "store.h"

#include "metrics.h"
#include "sql.h"
#include "store-priv.h"
#include "util.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_SCHEMA_VERSION 1
#define STORE_BATCH_ROWS 2000
/* Distinct metric and scope names a store accepts: the guest is untrusted. */
#define STORE_MAX_NAMES 65536

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const char schema_sql[] =
	"CREATE TABLE meta(\n"
	"  key TEXT PRIMARY KEY NOT NULL,\n"
	"  value TEXT NOT NULL);\n"
	"CREATE TABLE metric(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE,\n"
	"  source TEXT NOT NULL,\n"
	"  unit TEXT NOT NULL,\n"
	"  kind TEXT NOT NULL CHECK(kind IN ('counter', 'gauge')),\n"
	"  better TEXT NOT NULL CHECK(better IN ('higher', 'lower', 'none')),\n"
	"  description TEXT NOT NULL);\n"
	"CREATE TABLE scope(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE);\n"
	"CREATE TABLE variant(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE,\n"
	"  kernel TEXT NOT NULL,\n"
	"  lru_mode TEXT NOT NULL,\n"
	"  knobs TEXT NOT NULL DEFAULT '');\n"
	"CREATE TABLE run(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  variant_id INTEGER NOT NULL REFERENCES variant(id),\n"
	"  rep INTEGER NOT NULL,\n"
	"  ord INTEGER NOT NULL,\n"
	"  seed INTEGER NOT NULL,\n"
	"  status TEXT NOT NULL DEFAULT 'pending' CHECK(status IN ('pending', 'running',\n"
	"    'completed', 'failed-workload', 'failed-kernel', 'failed-infra')),\n"
	"  reason TEXT,\n"
	"  started_ns INTEGER,\n"
	"  ended_ns INTEGER);\n"
	"CREATE INDEX run_variant ON run(variant_id);\n"
	"CREATE TABLE run_prov(\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  key TEXT NOT NULL,\n"
	"  value TEXT NOT NULL,\n"
	"  PRIMARY KEY(run_id, key)) WITHOUT ROWID;\n"
	"CREATE TABLE sample(\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  t_ns INTEGER NOT NULL,\n"
	"  complete INTEGER NOT NULL DEFAULT 0 CHECK(complete IN (0, 1)),\n"
	"  PRIMARY KEY(run_id, seq)) WITHOUT ROWID;\n"
	"CREATE TABLE value(\n"
	"  run_id INTEGER NOT NULL,\n"
	"  seq INTEGER NOT NULL,\n"
	"  metric_id INTEGER NOT NULL REFERENCES metric(id),\n"
	"  scope_id INTEGER NOT NULL REFERENCES scope(id),\n"
	"  v INTEGER NOT NULL,\n"
	"  PRIMARY KEY(run_id, seq, metric_id, scope_id),\n"
	"  FOREIGN KEY(run_id, seq) REFERENCES sample(run_id, seq) ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE lru_gen(\n"
	"  run_id INTEGER NOT NULL,\n"
	"  seq INTEGER NOT NULL,\n"
	"  memcg_id INTEGER NOT NULL,\n"
	"  memcg_path TEXT NOT NULL,\n"
	"  node INTEGER NOT NULL,\n"
	"  gen INTEGER NOT NULL,\n"
	"  age_ms INTEGER NOT NULL,\n"
	"  anon INTEGER NOT NULL,\n"
	"  file INTEGER NOT NULL,\n"
	"  PRIMARY KEY(run_id, seq, memcg_id, node, gen),\n"
	"  FOREIGN KEY(run_id, seq) REFERENCES sample(run_id, seq) ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE result(\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  workload TEXT NOT NULL,\n"
	"  key TEXT NOT NULL,\n"
	"  value REAL NOT NULL,\n"
	"  unit TEXT NOT NULL,\n"
	"  better TEXT NOT NULL CHECK(better IN ('higher', 'lower', 'none')),\n"
	"  PRIMARY KEY(run_id, workload, key));\n"
	"CREATE TABLE event(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  t_ns INTEGER NOT NULL,\n"
	"  kind TEXT NOT NULL,\n"
	"  text TEXT NOT NULL);\n"
	"CREATE INDEX event_run ON event(run_id, t_ns);\n"
	"CREATE TABLE log(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL,\n"
	"  text BLOB NOT NULL,\n"
	"  UNIQUE(run_id, name));\n"
	"CREATE VIEW v_value AS\n"
	"  SELECT v.run_id, v.seq, s.t_ns, s.complete, m.name AS metric, m.source,\n"
	"         sc.name AS scope, v.v, m.unit, m.kind\n"
	"  FROM value v JOIN sample s USING(run_id, seq)\n"
	"  JOIN metric m ON m.id = v.metric_id JOIN scope sc ON sc.id = v.scope_id;\n"
	"CREATE VIEW v_delta AS\n"
	"  SELECT run_id, seq, t_ns, metric, scope, v, unit,\n"
	"         CASE WHEN prev IS NULL OR v < prev THEN NULL ELSE v - prev END AS delta,\n"
	"         t_ns - prev_t AS dt_ns\n"
	"  FROM (SELECT *, LAG(v) OVER w AS prev, LAG(t_ns) OVER w AS prev_t\n"
	"        FROM v_value WHERE kind = 'counter'\n"
	"        WINDOW w AS (PARTITION BY run_id, metric, scope ORDER BY seq));\n"
	"CREATE VIEW v_run AS\n"
	"  SELECT r.id AS run_id, va.name AS variant, va.kernel, va.lru_mode, va.knobs,\n"
	"         r.rep, r.ord, r.status, r.reason,\n"
	"         (r.ended_ns - r.started_ns) / 1e9 AS wall_s,\n"
	"         (SELECT COUNT(*) FROM sample s WHERE s.run_id = r.id) AS samples,\n"
	"         (SELECT COUNT(*) FROM sample s WHERE s.run_id = r.id AND NOT s.complete)\n"
	"           AS incomplete\n"
	"  FROM run r JOIN variant va ON va.id = r.variant_id;\n";

enum stmt_id {
	SQL_BEGIN,
	SQL_COMMIT,
	SQL_VALUE,
	SQL_SAMPLE,
	SQL_SAMPLE_END,
	SQL_GEN,
	SQL_EVENT,
	SQL_RESULT,
	SQL_METRIC_ADD,
	SQL_METRIC_GET,
	SQL_SCOPE_ADD,
	SQL_SCOPE_GET,
	SQL__MAX,
};

static const char *const stmt_sql[SQL__MAX] = {
	[SQL_BEGIN] = "BEGIN IMMEDIATE",
	[SQL_COMMIT] = "COMMIT",
	[SQL_VALUE] = "INSERT OR IGNORE INTO value(run_id, seq, metric_id, scope_id, v) "
		      "VALUES (?, ?, ?, ?, ?)",
	[SQL_SAMPLE] = "INSERT OR IGNORE INTO sample(run_id, seq, t_ns) VALUES (?, ?, ?)",
	[SQL_SAMPLE_END] = "UPDATE sample SET complete = ? WHERE run_id = ? AND seq = ?",
	[SQL_GEN] = "INSERT OR IGNORE INTO lru_gen(run_id, seq, memcg_id, memcg_path, node, gen, "
		    "age_ms, anon, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[SQL_EVENT] = "INSERT INTO event(run_id, t_ns, kind, text) VALUES (?, ?, ?, ?)",
	[SQL_RESULT] = "INSERT OR IGNORE INTO result(run_id, workload, key, value, unit, better) "
		       "VALUES (?, ?, ?, ?, ?, ?)",
	[SQL_METRIC_ADD] = "INSERT OR IGNORE INTO metric(name, source, unit, kind, better, "
			   "description) VALUES (?, ?, ?, ?, ?, ?)",
	[SQL_METRIC_GET] = "SELECT id FROM metric WHERE name = ?",
	[SQL_SCOPE_ADD] = "INSERT OR IGNORE INTO scope(name) VALUES (?)",
	[SQL_SCOPE_GET] = "SELECT id FROM scope WHERE name = ?",
};

/* name -> id, open addressing; the keys are owned. */
struct name_cache {
	char **keys;
	int64_t *ids;
	size_t cap, n;
};

struct store {
	sqlite3 *db;
	sqlite3_stmt *stmt[SQL__MAX];
	bool readonly; /* store__open_readonly: every write is refused */
	bool in_tx;
	unsigned batch_rows;
	struct name_cache metrics, scopes;
	struct store_stats stats;
	char errmsg[512];
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static bool cache_get(const struct name_cache *c, const char *name, int64_t *ret)
{
	if (!c->cap)
		return false;
	for (size_t i = hash_str(name) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		if (!c->keys[i])
			return false;
		if (!strcmp(c->keys[i], name)) {
			*ret = c->ids[i];
			return true;
		}
	}
}

static void cache_put_slot(struct name_cache *c, char *key, int64_t id)
{
	size_t i = hash_str(key) & (c->cap - 1);

	while (c->keys[i])
		i = (i + 1) & (c->cap - 1);
	c->keys[i] = key;
	c->ids[i] = id;
	c->n++;
}

static void cache_put(struct name_cache *c, const char *name, int64_t id)
{
	if ((c->n + 1) * 2 > c->cap) {
		struct name_cache bigger = { 0 };

		bigger.cap = c->cap ? c->cap * 2 : 256;
		bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.ids = xcalloc(bigger.cap, sizeof(*bigger.ids));
		for (size_t i = 0; i < c->cap; i++)
			if (c->keys[i])
				cache_put_slot(&bigger, c->keys[i], c->ids[i]);
		free(c->keys);
		free(c->ids);
		*c = bigger;
	}
	cache_put_slot(c, xstrdup(name), id);
}

static void cache_clear(struct name_cache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		free(c->keys[i]);
	free(c->keys);
	free(c->ids);
	*c = (struct name_cache){ 0 };
}

/*
 * Record an SQLite failure; returns the -errno for it. If SQLite rolled the
 * open transaction back, the batch is gone and so are rows the name caches
 * point to.
 */
static int fail(struct store *st, int rc, const char *what)
{
	snprintf(st->errmsg, sizeof(st->errmsg), "%s: %s", what, sqlite3_errmsg(st->db));
	if (st->in_tx && sqlite3_get_autocommit(st->db)) {
		st->in_tx = false;
		st->stats.batches_lost++;
		cache_clear(&st->metrics);
		cache_clear(&st->scopes);
	}
	return sql_errno(rc);
}

/* Step a statement that returns no row, then reset it (sql.h); a failure is recorded. */
static int step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	if (sql_step_done(st->db, s, NULL, 0) == 0)
		return 0;
	return fail(st, sqlite3_extended_errcode(st->db), what);
}

static int exec(struct store *st, const char *sql, const char *what)
{
	if (sql_exec(st->db, sql, NULL, 0) == 0)
		return 0;
	return fail(st, sqlite3_extended_errcode(st->db), what);
}

static int tx_begin(struct store *st)
{
	int r;

	if (st->in_tx)
		return 0;
	if (st->readonly) {
		snprintf(st->errmsg, sizeof(st->errmsg), "a write to a campaign opened to be read");
		return -EROFS;
	}
	r = step_done(st, st->stmt[SQL_BEGIN], "begin");
	if (r < 0)
		return r;
	st->in_tx = true;
	st->batch_rows = 0;
	return 0;
}

int store__commit(struct store *st)
{
	int r;

	if (!st->in_tx)
		return 0;
	r = step_done(st, st->stmt[SQL_COMMIT], "commit");
	if (r < 0)
		return r;
	st->in_tx = false;
	st->batch_rows = 0;
	st->stats.commits++;
	return 0;
}

/* A row went into the batch: commit when it is full. */
static int tx_row(struct store *st)
{
	if (++st->batch_rows >= STORE_BATCH_ROWS)
		return store__commit(st);
	return 0;
}

static int create_schema(struct store *st)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int version, r, rc;

	r = tx_begin(st);
	if (r < 0)
		return r;
	rc = sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL);
	if (rc != SQLITE_OK || sqlite3_step(s) != SQLITE_ROW)
		return fail(st, sqlite3_errcode(st->db), "user_version");
	version = sqlite3_column_int(s, 0);
	/* a statement in progress would block the commit */
	sqlite3_reset(s);
	if (version == STORE_SCHEMA_VERSION)
		return store__commit(st);
	if (version != 0) {
		snprintf(st->errmsg, sizeof(st->errmsg),
			 "schema version %d, this lrubench knows %d", version,
			 STORE_SCHEMA_VERSION);
		return -EPROTO;
	}
	r = exec(st, schema_sql, "create schema");
	if (r < 0)
		return r;
	r = exec(st, "PRAGMA user_version = " STRINGIFY(STORE_SCHEMA_VERSION), "user_version");
	if (r < 0)
		return r;
	r = exec(st,
		 "INSERT INTO meta(key, value) VALUES ('schema.version', '" STRINGIFY(
			 STORE_SCHEMA_VERSION) "')",
		 "meta");
	if (r < 0)
		return r;
	return store__commit(st);
}

int store__open(const char *path, struct store **ret)
{
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_stmt_ sqlite3_stmt *jm = NULL;
	int rc, r;

	/* A new store in a directory it cannot be written to: say why (SQLite's
	 * retry without O_CREAT turns EROFS and EACCES into ENOENT). */
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		_cleanup_free_ char *dir = xstrdup(path);
		char *slash = strrchr(dir, '/');

		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		if (access(slash ? dir : ".", W_OK) < 0)
			return -errno;
	}
	st = xcalloc(1, sizeof(*st));
	rc = sqlite3_open_v2(path, &st->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK) {
		/* the real cause (EROFS, EACCES, ENOENT of the directory), not a guess */
		int e = st->db ? sqlite3_system_errno(st->db) : 0;

		return e > 0 ? -e : rc == SQLITE_CANTOPEN ? -ENOENT : -EIO;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 10000);

	/* WAL survives a killed writer; NORMAL syncs at checkpoints only */
	rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &jm, NULL);
	if (rc != SQLITE_OK || sqlite3_step(jm) != SQLITE_ROW)
		return fail(st, sqlite3_errcode(st->db), "journal_mode");
	if (sqlite3_stricmp((const char *)sqlite3_column_text(jm, 0), "wal")) {
		snprintf(st->errmsg, sizeof(st->errmsg), "cannot use WAL on %s", path);
		return -EIO;
	}
	sqlite3_reset(jm);
	r = exec(st, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", "pragmas");
	if (r < 0)
		return r;

	for (int i = 0; i < SQL__MAX; i++) {
		/* the statements on tables need the schema: BEGIN and COMMIT first */
		if (i > SQL_COMMIT)
			break;
		rc = sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
					&st->stmt[i], NULL);
		if (rc != SQLITE_OK)
			return fail(st, rc, stmt_sql[i]);
	}
	r = create_schema(st);
	if (r < 0) {
		/* never commit half a schema (store__close() would) */
		if (st->in_tx && !sqlite3_get_autocommit(st->db))
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		st->in_tx = false;
		return r;
	}
	for (int i = SQL_COMMIT + 1; i < SQL__MAX; i++) {
		rc = sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
					&st->stmt[i], NULL);
		if (rc != SQLITE_OK)
			return fail(st, rc, stmt_sql[i]);
	}
	*ret = TAKE_PTR(st);
	return 0;
}

int store__open_readonly(const char *path, struct store **ret)
{
	_cleanup_(store__closep) struct store *st = xcalloc(1, sizeof(*st));
	int rc;

	st->readonly = true;
	rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		int e = st->db ? sqlite3_system_errno(st->db) : 0;

		return e > 0 ? -e : rc == SQLITE_CANTOPEN ? -ENOENT : -EIO;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 10000);
	/* the schema is the campaign's own (store__check_campaign): nothing is created */
	for (int i = 0; i < SQL__MAX; i++) {
		rc = sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
					&st->stmt[i], NULL);
		if (rc != SQLITE_OK)
			return fail(st, rc, stmt_sql[i]);
	}
	*ret = TAKE_PTR(st);
	return 0;
}

int store__check_campaign(const char *path, char **ret_err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	char *msg = NULL;
	struct stat sb;
	int rc, r = 0;

	if (stat(path, &sb) < 0) {
		r = -errno;
		*ret_err = xasprintf("%s: %s", path, strerror(errno));
		return r;
	}
	if (!S_ISREG(sb.st_mode)) {
		*ret_err = xasprintf("%s: not a campaign database (not a regular file)", path);
		return -EINVAL;
	}
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'campaign'", -1, &q,
					NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(q);
		if (rc == SQLITE_DONE) {
			msg = xasprintf("%s: not a campaign database (its meta table names no "
					"campaign)",
					path);
			r = -EINVAL;
		} else if (rc != SQLITE_ROW) {
			r = -EIO;
		}
	} else {
		r = -EINVAL;
	}
	if (r < 0 && !msg)
		msg = xasprintf("%s: not a campaign database (SQLite: %s)", path,
				db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	sqlite3_finalize(q);
	sqlite3_close_v2(db);
	if (r < 0)
		*ret_err = msg;
	return r;
}

void store__close(struct store *st)
{
	if (!st)
		return;
	if (st->db) {
		store__commit(st);
		for (int i = 0; i < SQL__MAX; i++)
			sqlite3_finalize(st->stmt[i]);
		if (!st->in_tx && !st->readonly)
			sqlite3_exec(st->db, "PRAGMA optimize", NULL, NULL, NULL);
		sqlite3_close_v2(st->db);
	}
	cache_clear(&st->metrics);
	cache_clear(&st->scopes);
	free(st);
}

void store__closep(struct store **st)
{
	store__close(*st);
}

const char *store__errmsg(struct store *st)
{
	return st->errmsg[0] ? st->errmsg : "no error";
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **ret);

sqlite3 *store__sqlite(struct store *st)
{
	return st->db;
}

int store__fail(struct store *st, int rc, const char *what)
{
	return fail(st, rc, what);
}

int store__prepare(struct store *st, const char *sql, sqlite3_stmt **ret)
{
	return prepare(st, sql, ret);
}

int store__step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	return step_done(st, s, what);
}

int store__tx_begin(struct store *st)
{
	return tx_begin(st);
}

const struct store_stats *store__stats(const struct store *st)
{
	return &st->stats;
}

/* Prepare a one-off statement (campaign-level writes are rare). */
static int prepare(struct store *st, const char *sql, sqlite3_stmt **ret)
{
	if (sql_prepare(st->db, sql, ret, NULL, 0) == 0)
		return 0;
	return fail(st, sqlite3_extended_errcode(st->db), sql);
}

int store__meta_set(struct store *st, const char *key, const char *value)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = prepare(st, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", &s);
	if (r < 0)
		return r;
	if (sql_bind_text(s, 1, key) || sql_bind_text(s, 2, value))
		return fail(st, sqlite3_errcode(st->db), "meta");
	r = step_done(st, s, "meta");
	return r < 0 ? r : store__commit(st);
}

int store__meta_get(struct store *st, const char *key, char **ret_value)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int r, rc;

	r = prepare(st, "SELECT value FROM meta WHERE key = ?", &s);
	if (r < 0)
		return r;
	if (sql_bind_text(s, 1, key))
		return fail(st, sqlite3_errcode(st->db), "meta");
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	if (rc != SQLITE_ROW)
		return fail(st, rc, "meta");
	*ret_value = xstrdup((const char *)sqlite3_column_text(s, 0));
	return 0;
}

int store__variant_add(struct store *st, const char *name, const char *kernel,
		       const char *lru_mode, const char *knobs, int64_t *ret_id)
{
	_cleanup_stmt_ sqlite3_stmt *ins = NULL, *sel = NULL;
	int r, rc;

	r = tx_begin(st);
	if (r < 0)
		return r;
	/* adding the same variant again (a resumed campaign) gives its id */
	r = prepare(st,
		    "INSERT INTO variant(name, kernel, lru_mode, knobs) VALUES (?, ?, ?, ?) "
		    "ON CONFLICT(name) DO NOTHING",
		    &ins);
	if (r < 0)
		return r;
	if (sql_bind_text(ins, 1, name) || sql_bind_text(ins, 2, kernel) || sql_bind_text(ins, 3, lru_mode) ||
	    sql_bind_text(ins, 4, knobs ? knobs : ""))
		return fail(st, sqlite3_errcode(st->db), "variant");
	r = step_done(st, ins, "variant");
	if (r < 0)
		return r;
	r = prepare(st,
		    "SELECT id FROM variant WHERE name = ? AND kernel = ? AND lru_mode = ? "
		    "AND knobs = ?",
		    &sel);
	if (r < 0)
		return r;
	if (sql_bind_text(sel, 1, name) || sql_bind_text(sel, 2, kernel) || sql_bind_text(sel, 3, lru_mode) ||
	    sql_bind_text(sel, 4, knobs ? knobs : ""))
		return fail(st, sqlite3_errcode(st->db), "variant");
	rc = sqlite3_step(sel);
	if (rc == SQLITE_DONE) {
		snprintf(st->errmsg, sizeof(st->errmsg),
			 "variant '%s' exists with another kernel, LRU mode or knobs", name);
		return -EEXIST;
	}
	if (rc != SQLITE_ROW)
		return fail(st, rc, "variant");
	r = store__commit(st);
	if (r < 0)
		return r;
	*ret_id = sqlite3_column_int64(sel, 0);
	return 0;
}

int store__run_add(struct store *st, int64_t variant_id, int rep, int order, uint64_t seed,
		   int64_t *ret_run_id)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int64_t id;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = prepare(st, "INSERT INTO run(variant_id, rep, ord, seed) VALUES (?, ?, ?, ?)", &s);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, variant_id);
	sqlite3_bind_int(s, 2, rep);
	sqlite3_bind_int(s, 3, order);
	sqlite3_bind_int64(s, 4, (int64_t)seed);
	r = step_done(st, s, "run");
	if (r < 0)
		return r;
	id = sqlite3_last_insert_rowid(st->db);
	r = store__commit(st);
	if (r < 0)
		return r;
	*ret_run_id = id;
	return 0;
}

int store__run_prov(struct store *st, int64_t run_id, const char *key, const char *value)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = prepare(st, "INSERT OR REPLACE INTO run_prov(run_id, key, value) VALUES (?, ?, ?)",
		    &s);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	if (sql_bind_text(s, 2, key) || sql_bind_text(s, 3, value))
		return fail(st, sqlite3_errcode(st->db), "run_prov");
	r = step_done(st, s, "run_prov");
	return r < 0 ? r : store__commit(st);
}

static int run_update(struct store *st, int64_t run_id, const char *sql, const char *status,
		      const char *reason, int64_t wall_ns)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = prepare(st, sql, &s);
	if (r < 0)
		return r;
	if (sql_bind_text(s, 1, status))
		return fail(st, sqlite3_errcode(st->db), "run");
	if (reason ? sql_bind_text(s, 2, reason) : sqlite3_bind_null(s, 2))
		return fail(st, sqlite3_errcode(st->db), "run");
	sqlite3_bind_int64(s, 3, wall_ns);
	sqlite3_bind_int64(s, 4, run_id);
	r = step_done(st, s, "run");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0) {
		snprintf(st->errmsg, sizeof(st->errmsg), "no run %lld", (long long)run_id);
		return -ENOENT;
	}
	return store__commit(st);
}

int store__run_start(struct store *st, int64_t run_id, int64_t wall_ns)
{
	return run_update(st, run_id,
			  "UPDATE run SET status = ?1, reason = ?2, started_ns = ?3 WHERE id = ?4",
			  RUN_RUNNING, NULL, wall_ns);
}

int store__run_finish(struct store *st, int64_t run_id, const char *status, const char *reason,
		      int64_t wall_ns)
{
	return run_update(st, run_id,
			  "UPDATE run SET status = ?1, reason = ?2, ended_ns = ?3 WHERE id = ?4",
			  status, reason, wall_ns);
}

int store__event(struct store *st, int64_t run_id, int64_t t_ns, const char *kind,
		 const char *text)
{
	sqlite3_stmt *s = st->stmt[SQL_EVENT];
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, t_ns);
	if (sql_bind_text(s, 3, kind) || sql_bind_text(s, 4, text ? text : ""))
		return fail(st, sqlite3_errcode(st->db), "event");
	r = step_done(st, s, "event");
	if (r < 0)
		return r;
	st->stats.events++;
	return tx_row(st);
}

int store__log(struct store *st, int64_t run_id, const char *name, const char *text, size_t len)
{
	_cleanup_stmt_ sqlite3_stmt *s = NULL;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = prepare(st, "INSERT OR REPLACE INTO log(run_id, name, text) VALUES (?, ?, ?)", &s);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	if (sql_bind_text(s, 2, name) ||
	    sqlite3_bind_blob64(s, 3, len ? text : "", len, SQLITE_STATIC))
		return fail(st, sqlite3_errcode(st->db), "log");
	r = step_done(st, s, "log");
	return r < 0 ? r : store__commit(st);
}

int store__sample_begin(struct store *st, int64_t run_id, int64_t seq, int64_t t_ns)
{
	sqlite3_stmt *s = st->stmt[SQL_SAMPLE];
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_int64(s, 3, t_ns);
	r = step_done(st, s, "sample");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0)
		st->stats.dup_samples++;
	else
		st->stats.samples++;
	return tx_row(st);
}

int store__sample_end(struct store *st, int64_t run_id, int64_t seq, bool complete)
{
	sqlite3_stmt *s = st->stmt[SQL_SAMPLE_END];
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	sqlite3_bind_int(s, 1, complete);
	sqlite3_bind_int64(s, 2, run_id);
	sqlite3_bind_int64(s, 3, seq);
	r = step_done(st, s, "sample end");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0) {
		snprintf(st->errmsg, sizeof(st->errmsg), "no sample %lld of run %lld",
			 (long long)seq, (long long)run_id);
		return -ENOENT;
	}
	return 0;
}

/* Look name up in cache, else insert it (INSERT OR IGNORE) and select its id. */
static int name_id(struct store *st, struct name_cache *c, enum stmt_id add, enum stmt_id get,
		   const char *name, const struct metric_info *mi, int64_t *ret)
{
	sqlite3_stmt *s;
	int64_t id;
	int r, rc;

	if (cache_get(c, name, ret))
		return 0;
	if (c->n >= STORE_MAX_NAMES) {
		snprintf(st->errmsg, sizeof(st->errmsg), "more than %d distinct names",
			 STORE_MAX_NAMES);
		return -ENOSPC;
	}
	s = st->stmt[add];
	if (sql_bind_text(s, 1, name))
		return fail(st, sqlite3_errcode(st->db), "name");
	if (mi) {
		const char *colon = strchr(name, ':');

		if (sqlite3_bind_text(s, 2, name, (int)(colon - name), SQLITE_STATIC) ||
		    sql_bind_text(s, 3, mi->unit) || sql_bind_text(s, 4, metric_kind_name(mi->kind)) ||
		    sql_bind_text(s, 5, metric_better_name(mi->better)) ||
		    sql_bind_text(s, 6, mi->description))
			return fail(st, sqlite3_errcode(st->db), "metric");
	}
	r = step_done(st, s, "name");
	if (r < 0)
		return r;
	s = st->stmt[get];
	if (sql_bind_text(s, 1, name))
		return fail(st, sqlite3_errcode(st->db), "name");
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		r = fail(st, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "name");
		sqlite3_reset(s);
		return r;
	}
	id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	cache_put(c, name, id);
	*ret = id;
	return 0;
}

int store__metric_id(struct store *st, const char *metric, int64_t *ret_id)
{
	struct metric_info mi;
	int64_t id;
	int r;

	if (cache_get(&st->metrics, metric, ret_id))
		return 0;
	r = metric__lookup(metric, &mi);
	if (r < 0) {
		snprintf(st->errmsg, sizeof(st->errmsg), "metric name '%.64s' has no source",
			 metric);
		return r;
	}
	r = tx_begin(st);
	if (r < 0)
		return r;
	r = name_id(st, &st->metrics, SQL_METRIC_ADD, SQL_METRIC_GET, metric, &mi, &id);
	if (r < 0)
		return r;
	*ret_id = id;
	return 0;
}

int store__value(struct store *st, int64_t run_id, int64_t seq, const char *metric,
		 const char *scope, int64_t value)
{
	sqlite3_stmt *s = st->stmt[SQL_VALUE];
	int64_t metric_id, scope_id;
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	r = store__metric_id(st, metric, &metric_id);
	if (r < 0)
		return r;
	r = name_id(st, &st->scopes, SQL_SCOPE_ADD, SQL_SCOPE_GET, scope, NULL, &scope_id);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_int64(s, 3, metric_id);
	sqlite3_bind_int64(s, 4, scope_id);
	sqlite3_bind_int64(s, 5, value);
	r = step_done(st, s, "value");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0)
		st->stats.dup_values++;
	else
		st->stats.values++;
	return tx_row(st);
}

int store__lru_gen(struct store *st, int64_t run_id, int64_t seq, int64_t memcg_id,
		   const char *memcg_path, int64_t node, int64_t gen, int64_t age_ms, int64_t anon,
		   int64_t file)
{
	sqlite3_stmt *s = st->stmt[SQL_GEN];
	int r;

	r = tx_begin(st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_int64(s, 3, memcg_id);
	if (sql_bind_text(s, 4, memcg_path))
		return fail(st, sqlite3_errcode(st->db), "lru_gen");
	sqlite3_bind_int64(s, 5, node);
	sqlite3_bind_int64(s, 6, gen);
	sqlite3_bind_int64(s, 7, age_ms);
	sqlite3_bind_int64(s, 8, anon);
	sqlite3_bind_int64(s, 9, file);
	r = step_done(st, s, "lru_gen");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0)
		st->stats.dup_gens++;
	else
		st->stats.gens++;
	return tx_row(st);
}

int store__result(struct store *st, int64_t run_id, const char *workload, const char *key,
		  double value, const char *unit, const char *better)
{
	sqlite3_stmt *s = st->stmt[SQL_RESULT];
	int r;

	/* OR IGNORE would also swallow CHECK and NOT NULL failures: check here */
	if (!isfinite(value) || !better ||
	    (strcmp(better, "higher") && strcmp(better, "lower") && strcmp(better, "none"))) {
		snprintf(st->errmsg, sizeof(st->errmsg), "result %.64s: bad value or direction",
			 key);
		return -EINVAL;
	}
	r = tx_begin(st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	if (sql_bind_text(s, 2, workload) || sql_bind_text(s, 3, key) ||
	    sqlite3_bind_double(s, 4, value) || sql_bind_text(s, 5, unit) || sql_bind_text(s, 6, better))
		return fail(st, sqlite3_errcode(st->db), "result");
	r = step_done(st, s, "result");
	if (r < 0)
		return r;
	if (sqlite3_changes(st->db) == 0)
		st->stats.dup_results++;
	else
		st->stats.results++;
	return tx_row(st);
}
