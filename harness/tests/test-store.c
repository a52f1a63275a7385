// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite store: schema, round trips of every kind of row, batching,
 * duplicates, crash safety and integrity.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "store.h"
#include "util.h"

struct fixture {
	char dir[64];
	char *path;
	struct store *st;
	sqlite3 *ro; /* the test's own read-only connection (view()) */
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test-store.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	f->path = xasprintf("%s/campaign.db", f->dir);
	if (store__open(f->path, &f->st) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *p;

	sqlite3_close(f->ro);
	store__close(f->st);
	p = xasprintf("rm -rf '%s'", f->dir);
	if (system(p) != 0)
		return -1;
	free(p);
	free(f->path);
	free(f);
	return 0;
}

/* The first column of the first row of sql, as int64; -1 if no row. */
static int64_t q_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* Same, as a malloc'd text ("(null)" for NULL, "(none)" without a row). */
static char *q_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	char *v;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = xstrdup(sqlite3_column_text(s, 0) ? (const char *)sqlite3_column_text(s, 0)
						       : "(null)");
	else
		v = xstrdup("(none)");
	sqlite3_finalize(s);
	return v;
}

static void assert_q_text(sqlite3 *db, const char *sql, const char *want)
{
	char *got = q_text(db, sql);

	if (strcmp(got, want))
		fail_msg("'%s': got '%s', want '%s'", sql, got, want);
	free(got);
}

/* A read-only connection of the test's own to the file, once the store committed its batch. */
static sqlite3 *ro_open(const char *path)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail_msg("open '%s' read-only: %s", path, db ? sqlite3_errmsg(db) : "no memory");
	return db;
}

static sqlite3 *view(struct fixture *f)
{
	assert_int_equal(store__commit(f->st), 0);
	if (!f->ro)
		f->ro = ro_open(f->path);
	return f->ro;
}

static int64_t add_run(struct store *st)
{
	int64_t vid = 0, rid = 0;

	assert_int_equal(store__variant_add(st, "mglru", "debian-6.1", "mglru", "", &vid), 0);
	assert_int_equal(store__run_add(st, vid, 0, 0, 42, &rid), 0);
	return rid;
}

static void test_schema(void **state)
{
	struct fixture *f = *state;

	assert_q_text(view(f),
		      "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema "
		      "WHERE type IN ('table', 'view') ORDER BY name)",
		      "event,log,lru_gen,meta,metric,result,run,run_prov,sample,scope,v_delta,"
		      "v_run,v_value,value,variant");
	assert_int_equal(q_int(view(f), "PRAGMA user_version"), 1);
	assert_q_text(view(f), "PRAGMA journal_mode", "wal");
	/* foreign_keys and synchronous belong to the store's own connection, not the file:
	 * foreign keys are seen at work in test_runs (a run of no variant is refused) */
	assert_q_text(view(f), "SELECT value FROM meta WHERE key = 'schema.version'", "1");
	assert_q_text(view(f), "PRAGMA integrity_check", "ok");
	assert_q_text(view(f), "PRAGMA foreign_key_check", "(none)");
}

static void test_reopen_and_version(void **state)
{
	struct fixture *f = *state;
	struct store *st2 = NULL;
	int64_t rid = add_run(f->st), id1 = 0, id2 = 0;
	sqlite3 *raw = NULL;

	assert_int_equal(store__sample_begin(f->st, rid, 0, 1), 0);
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgfault", "-", 5), 0);
	assert_int_equal(store__metric_id(f->st, "vmstat:pgfault", &id1), 0);
	store__close(f->st);
	f->st = NULL;

	/* a second open sees the rows and gives names the same ids */
	assert_int_equal(store__open(f->path, &f->st), 0);
	assert_int_equal(store__metric_id(f->st, "vmstat:pgfault", &id2), 0);
	assert_int_equal(id1, id2);
	assert_int_equal(q_int(view(f), "SELECT v FROM value"), 5);
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgmajfault", "-", 6), 0);
	assert_int_equal(store__commit(f->st), 0);
	assert_int_equal(q_int(view(f), "SELECT COUNT(*) FROM metric"), 2);

	/* a file from a future lrubench is refused, untouched */
	store__close(f->st);
	f->st = NULL;
	assert_int_equal(sqlite3_open(f->path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(store__open(f->path, &st2), -EPROTO);
	assert_null(st2);
	/* a file that is not a database */
	{
		char *junk = xasprintf("%s/junk.db", f->dir);
		FILE *fp = fopen(junk, "w");

		fputs("this is not an SQLite file, not at all, really\n", fp);
		fclose(fp);
		assert_int_equal(store__open(junk, &st2), -EIO);
		free(junk);
	}
	assert_int_equal(sqlite3_open(f->path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 1", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(store__open(f->path, &f->st), 0);
}

static void test_meta(void **state)
{
	struct fixture *f = *state;
	char *v = NULL;

	assert_int_equal(store__meta_set(f->st, "campaign", "ab-test"), 0);
	assert_int_equal(store__meta_set(f->st, "plan.text", "[global]\nreps=3\n"), 0);
	assert_int_equal(store__meta_set(f->st, "campaign", "ab-test-2"), 0);
	assert_int_equal(store__meta_get(f->st, "campaign", &v), 0);
	assert_string_equal(v, "ab-test-2");
	free(v);
	assert_int_equal(store__meta_get(f->st, "plan.text", &v), 0);
	assert_string_equal(v, "[global]\nreps=3\n");
	free(v);
	v = NULL;
	assert_int_equal(store__meta_get(f->st, "nope", &v), -ENOENT);
	assert_null(v);
	/* quotes are data, not SQL */
	assert_int_equal(store__meta_set(f->st, "x'); DROP TABLE meta; --", "'"), 0);
	assert_int_equal(store__meta_get(f->st, "x'); DROP TABLE meta; --", &v), 0);
	assert_string_equal(v, "'");
	free(v);
}

/* The bytes of a file (the test compares a campaign before and after a reader). */
static char *file_bytes(const char *path, size_t *len)
{
	char *buf = NULL;

	assert_int_equal(read_file(path, 1 << 26, &buf, len), 0);
	return buf;
}

/*
 * A reader (compare, report) opens the campaign read-only: it reads what a
 * writer stored, any write is refused with -EROFS, and the file is the same
 * byte for byte after it closed (no journal mode set, no schema, no PRAGMA
 * optimize at close). A database that is not a campaign does not open.
 */
static void test_open_readonly(void **state)
{
	struct fixture *f = *state;
	struct store *ro = NULL;
	char *v = NULL, *before, *after, *other;
	size_t nb, na;
	FILE *e;
	int64_t vid;

	assert_int_equal(store__meta_set(f->st, "campaign", "ro-test"), 0);
	assert_int_equal(store__variant_add(f->st, "classic", "6.1", "classic", "", &vid), 0);
	store__close(f->st);
	f->st = NULL;
	before = file_bytes(f->path, &nb);

	assert_int_equal(store__open_readonly(f->path, &ro), 0);
	assert_int_equal(store__meta_get(ro, "campaign", &v), 0);
	assert_string_equal(v, "ro-test");
	free(v);
	assert_int_equal(store__meta_set(ro, "campaign", "changed"), -EROFS);
	assert_non_null(strstr(store__errmsg(ro), "opened to be read"));
	assert_int_equal(store__variant_add(ro, "mglru", "6.1", "mglru", "", &vid), -EROFS);
	store__close(ro);
	after = file_bytes(f->path, &na);
	assert_int_equal(na, nb);
	assert_memory_equal(after, before, nb);

	free(before);
	free(after);
	other = xasprintf("%s/other.db", f->dir);
	e = fopen(other, "w");
	assert_non_null(e);
	fclose(e);
	ro = NULL;
	assert_true(store__open_readonly(other, &ro) < 0);
	assert_null(ro);
	free(other);
}

/* Readers refuse what is not a campaign, saying why, and leave the file as it was. */
static void test_check_campaign(void **state)
{
	struct fixture *f = *state;
	_cleanup_free_ char *other = xasprintf("%s/other.db", f->dir);
	_cleanup_free_ char *text = xasprintf("%s/notes.txt", f->dir);
	_cleanup_free_ char *gone = xasprintf("%s/gone.db", f->dir);
	char *want = NULL;
	sqlite3 *db = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(store__meta_set(f->st, "campaign", "c"), 0);
	assert_int_equal(store__commit(f->st), 0);
	assert_int_equal(store__check_campaign(f->path, &err), 0);
	assert_null(err);
	/* another program's database: refused, and no lrubench table added to it */
	assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE x (a)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store__check_campaign(other, &err), -EINVAL);
	want = xasprintf("%s: not a campaign database (SQLite: no such table: meta)", other);
	assert_string_equal(err, want);
	free(err);
	free(want);
	err = NULL;
	assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
	assert_int_equal(q_int(db, "SELECT COUNT(*) FROM sqlite_master"), 1);
	sqlite3_close(db);
	/* not SQLite at all */
	{
		FILE *t = fopen(text, "we");

		assert_non_null(t);
		fputs("hello, not a database\n", t);
		assert_int_equal(fclose(t), 0);
	}
	assert_int_equal(store__check_campaign(text, &err), -EINVAL);
	want = xasprintf("%s: not a campaign database (SQLite: file is not a database)", text);
	assert_string_equal(err, want);
	free(err);
	free(want);
	err = NULL;
	/* missing: the errno, and nothing created */
	assert_int_equal(store__check_campaign(gone, &err), -ENOENT);
	assert_int_equal(access(gone, F_OK), -1);
	free(err);
}

/* A store that cannot be created says why: a read-only file system is not "no such file". */
static void test_open_readonly_dir(void **state)
{
	struct fixture *f = *state;
	_cleanup_free_ char *ro = xasprintf("%s/ro", f->dir), *db = xasprintf("%s/ro/x.db", f->dir);
	struct store *st = NULL;

	assert_int_equal(mkdir(ro, 0755), 0);
	if (mount("tmpfs", ro, "tmpfs", MS_RDONLY, "size=64k") < 0) {
		print_message("no read-only tmpfs here (%s): the check needs root\n", strerror(errno));
		skip();
	}
	assert_int_equal(store__open(db, &st), -EROFS);
	assert_null(st);
	assert_int_equal(umount(ro), 0);
}

static void test_runs(void **state)
{
	struct fixture *f = *state;
	int64_t v1 = 0, v2 = 0, again = 0, r1 = 0, r2 = 0;

	assert_int_equal(store__variant_add(f->st, "classic", "debian-6.1", "classic", "", &v1), 0);
	assert_int_equal(store__variant_add(f->st, "mglru", "debian-6.1", "mglru",
					    "min_ttl_ms=1000", &v2),
			 0);
	assert_int_not_equal(v1, v2);
	/* the same variant again gives its id; a different one by that name is refused */
	assert_int_equal(store__variant_add(f->st, "mglru", "debian-6.1", "mglru",
					    "min_ttl_ms=1000", &again),
			 0);
	assert_int_equal(again, v2);
	again = -7;
	assert_int_equal(store__variant_add(f->st, "mglru", "debian-6.1", "mglru", "", &again),
			 -EEXIST);
	assert_int_equal(again, -7);

	assert_int_equal(store__run_add(f->st, v1, 0, 0, UINT64_MAX, &r1), 0);
	assert_int_equal(store__run_add(f->st, v2, 0, 1, 7, &r2), 0);
	assert_int_equal((uint64_t)q_int(view(f), "SELECT seed FROM run WHERE ord = 0"), UINT64_MAX);
	assert_q_text(view(f), "SELECT status FROM run WHERE ord = 1", "pending");
	/* a run of no variant breaks a foreign key */
	assert_int_equal(store__run_add(f->st, 999, 0, 2, 1, &again), -EINVAL);

	assert_int_equal(store__run_prov(f->st, r1, "kernel.sha256", "ab12"), 0);
	assert_int_equal(store__run_prov(f->st, r1, "accel", "tcg"), 0);
	assert_int_equal(store__run_prov(f->st, r1, "accel", "kvm"), 0);
	assert_q_text(view(f), "SELECT group_concat(key || '=' || value, ' ') FROM run_prov",
		      "accel=kvm kernel.sha256=ab12");

	assert_int_equal(store__run_start(f->st, r1, 1000), 0);
	assert_q_text(view(f), "SELECT status || ',' || started_ns FROM run WHERE ord = 0",
		      "running,1000");
	assert_int_equal(store__run_finish(f->st, r1, RUN_FAILED_KERNEL, "panic at 3.2 s", 5000),
			 0);
	assert_q_text(view(f),
		      "SELECT status || ',' || reason || ',' || ended_ns FROM run WHERE ord = 0",
		      "failed-kernel,panic at 3.2 s,5000");
	assert_int_equal(store__run_finish(f->st, r2, RUN_COMPLETED, NULL, 1), 0);
	assert_q_text(view(f), "SELECT quote(reason) FROM run WHERE ord = 1", "NULL");
	assert_int_equal(store__run_finish(f->st, r2, "exploded", NULL, 1), -EINVAL);
	assert_int_equal(store__run_finish(f->st, 12345, RUN_COMPLETED, NULL, 1), -ENOENT);
	assert_q_text(view(f), "SELECT variant || ',' || wall_s FROM v_run WHERE run_id = 1",
		      "classic,4.0e-06");

	assert_int_equal(store__event(f->st, r1, 123, "oom", "killed wl (pid 42)"), 0);
	assert_int_equal(store__event(f->st, r1, 124, "boot", ""), 0);
	assert_int_equal(store__commit(f->st), 0);
	assert_q_text(view(f), "SELECT group_concat(t_ns || ':' || kind || ':' || text, '|') FROM event",
		      "123:oom:killed wl (pid 42)|124:boot:");
	assert_true(store__stats(f->st)->events == 2);
}

static void test_log(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);
	static const char raw[] = "[    0.0] Linux\0version\xff\xfe\n";
	sqlite3_stmt *s = NULL;

	assert_int_equal(store__log(f->st, rid, "console", raw, sizeof(raw) - 1), 0);
	assert_int_equal(sqlite3_prepare_v2(view(f), "SELECT text FROM log WHERE name = 'console'", -1,
					    &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_bytes(s, 0), sizeof(raw) - 1);
	assert_memory_equal(sqlite3_column_blob(s, 0), raw, sizeof(raw) - 1);
	sqlite3_finalize(s);
	/* stored whole again: replaced, not doubled */
	assert_int_equal(store__log(f->st, rid, "console", "short", 5), 0);
	assert_int_equal(store__log(f->st, rid, "empty", NULL, 0), 0);
	assert_int_equal(q_int(view(f), "SELECT COUNT(*) FROM log"), 2);
	assert_q_text(view(f), "SELECT CAST(text AS TEXT) FROM log WHERE name = 'console'", "short");
	assert_int_equal(q_int(view(f), "SELECT length(text) FROM log WHERE name = 'empty'"), 0);
}

static void test_values_round_trip(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);
	static const int64_t vals[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1,
					INT64_MAX };

	assert_int_equal(store__sample_begin(f->st, rid, 0, 1000000000), 0);
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		char scope[16];

		snprintf(scope, sizeof(scope), "s%zu", i);
		assert_int_equal(store__value(f->st, rid, 0, "agent:test", scope, vals[i]), 0);
	}
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgscan_anon", "-", 3), 0);
	assert_int_equal(store__value(f->st, rid, 0, "memory.stat:anon", "wl", 4096), 0);
	assert_int_equal(store__sample_end(f->st, rid, 0, true), 0);
	assert_int_equal(store__commit(f->st), 0);

	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		char *sql = xasprintf("SELECT v FROM v_value WHERE metric = 'agent:test' AND "
				      "scope = 's%zu'",
				      i);

		assert_true(q_int(view(f), sql) == vals[i]);
		free(sql);
	}
	assert_q_text(view(f),
		      "SELECT name || '|' || source || '|' || unit || '|' || kind || '|' || better "
		      "FROM metric WHERE name = 'vmstat:pgscan_anon'",
		      "vmstat:pgscan_anon|vmstat|pages|counter|none");
	assert_q_text(view(f),
		      "SELECT source || '|' || unit || '|' || kind FROM metric "
		      "WHERE name = 'memory.stat:anon'",
		      "memory.stat|bytes|gauge");
	assert_q_text(view(f), "SELECT scope || '=' || v || ',' || complete || ',' || t_ns FROM v_value "
			  "WHERE metric = 'memory.stat:anon'",
		      "wl=4096,1,1000000000");
	assert_int_equal(q_int(view(f), "SELECT COUNT(*) FROM scope"), 9);
	assert_true(store__stats(f->st)->values == 9);
	/* a name without a source is refused */
	assert_int_equal(store__value(f->st, rid, 0, "pgscan_anon", "-", 1), -EINVAL);
	/* a value of a sample that does not exist breaks a foreign key */
	assert_int_equal(store__value(f->st, rid, 77, "vmstat:pgfault", "-", 1), -EINVAL);
	assert_int_equal(store__sample_end(f->st, rid, 77, true), -ENOENT);
}

static void test_lru_gen_and_results(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);

	assert_int_equal(store__sample_begin(f->st, rid, 3, 10), 0);
	assert_int_equal(store__lru_gen(f->st, rid, 3, 1, "/wl", 0, 7, 1500, 2048, 4096), 0);
	assert_int_equal(store__lru_gen(f->st, rid, 3, 1, "/wl", 0, 8, 20, -1, INT64_MAX), 0);
	assert_int_equal(store__lru_gen(f->st, rid, 3, 1, "/wl", 0, 8, 99, 99, 99), 0);
	assert_int_equal(store__result(f->st, rid, "wl", "ops_per_s", 1234.5, "ops/s", "higher"),
			 0);
	assert_int_equal(store__result(f->st, rid, "wl", "p99", -0.002, "ms", "lower"), 0);
	assert_int_equal(store__result(f->st, rid, "wl", "p99", 5, "ms", "lower"), 0);
	assert_int_equal(store__result(f->st, rid, "wl", "bad", 1, "ms", "sideways"), -EINVAL);
	assert_int_equal(store__result(f->st, rid, "wl", "bad", NAN, "ms", "none"), -EINVAL);
	assert_int_equal(store__commit(f->st), 0);
	assert_q_text(view(f),
		      "SELECT group_concat(memcg_path || ',' || gen || ',' || age_ms || ',' || "
		      "anon || ',' || file, '|') FROM lru_gen",
		      "/wl,7,1500,2048,4096|/wl,8,20,-1,9223372036854775807");
	assert_q_text(view(f), "SELECT group_concat(key || '=' || value || unit || better, '|') FROM "
			  "(SELECT * FROM result ORDER BY workload, rowid)",
		      "ops_per_s=1234.5ops/shigher|p99=-0.002mslower");
	assert_true(store__stats(f->st)->dup_gens == 1);
	assert_true(store__stats(f->st)->dup_results == 1);
	assert_true(store__stats(f->st)->gens == 2);
}

static void test_duplicates(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);

	assert_int_equal(store__sample_begin(f->st, rid, 0, 10), 0);
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgfault", "-", 1), 0);
	/* the duplicate is ignored, the first value kept, the batch goes on */
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgfault", "-", 2), 0);
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:pgmajfault", "-", 3), 0);
	assert_int_equal(store__sample_begin(f->st, rid, 0, 11), 0);
	assert_int_equal(store__commit(f->st), 0);
	assert_true(store__stats(f->st)->dup_values == 1);
	assert_true(store__stats(f->st)->values == 2);
	assert_true(store__stats(f->st)->dup_samples == 1);
	assert_true(store__stats(f->st)->batches_lost == 0);
	assert_q_text(view(f), "SELECT group_concat(metric || '=' || v, ',') FROM v_value",
		      "vmstat:pgfault=1,vmstat:pgmajfault=3");
	assert_int_equal(q_int(view(f), "SELECT t_ns FROM sample"), 10);
}

static void test_batch_commit(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);
	sqlite3 *reader = NULL;
	uint64_t c0 = store__stats(f->st)->commits;
	int i;

	assert_int_equal(sqlite3_open(f->path, &reader), SQLITE_OK);
	assert_int_equal(store__sample_begin(f->st, rid, 0, 10), 0);
	/* the sample row and 1998 values: 1999 rows, nothing committed yet */
	for (i = 0; i < 1998; i++) {
		char key[32];

		snprintf(key, sizeof(key), "vmstat:k%d", i);
		assert_int_equal(store__value(f->st, rid, 0, key, "-", i), 0);
	}
	assert_true(store__stats(f->st)->commits == c0);
	assert_int_equal(q_int(reader, "SELECT COUNT(*) FROM value"), 0);
	/* the 2000th row commits the batch */
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:k_last", "-", 1), 0);
	assert_true(store__stats(f->st)->commits == c0 + 1);
	assert_int_equal(q_int(reader, "SELECT COUNT(*) FROM value"), 1999);
	/* the next row opens a new batch, committed by store__commit */
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:k_more", "-", 1), 0);
	assert_int_equal(q_int(reader, "SELECT COUNT(*) FROM value"), 1999);
	assert_int_equal(store__commit(f->st), 0);
	assert_int_equal(q_int(reader, "SELECT COUNT(*) FROM value"), 2000);
	assert_true(store__stats(f->st)->commits == c0 + 2);
	/* nothing open: a no-op */
	assert_int_equal(store__commit(f->st), 0);
	assert_true(store__stats(f->st)->commits == c0 + 2);
	assert_q_text(reader, "PRAGMA integrity_check", "ok");
	sqlite3_close(reader);
}

static void test_views(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);
	static const int64_t series[] = { 100, 150, 150, 20, 50 }; /* a reset at seq 3 */

	for (int s = 0; s < 5; s++) {
		assert_int_equal(store__sample_begin(f->st, rid, s, (s + 1) * 1000000000LL), 0);
		assert_int_equal(store__value(f->st, rid, s, "vmstat:pgfault", "-", series[s]), 0);
		assert_int_equal(store__value(f->st, rid, s, "vmstat:nr_free_pages", "-", 7), 0);
		assert_int_equal(store__sample_end(f->st, rid, s, s != 4), 0);
	}
	assert_int_equal(store__commit(f->st), 0);
	assert_q_text(view(f), "SELECT group_concat(quote(delta), ',') FROM (SELECT delta FROM v_delta "
			  "WHERE metric = 'vmstat:pgfault' ORDER BY seq)",
		      "NULL,50,0,NULL,30");
	/* gauges have no delta */
	assert_int_equal(
		q_int(view(f), "SELECT COUNT(*) FROM v_delta WHERE metric = 'vmstat:nr_free_pages'"), 0);
	assert_q_text(view(f), "SELECT samples || ',' || incomplete FROM v_run", "5,1");
}

static void test_name_limit(void **state)
{
	struct fixture *f = *state;
	int64_t rid = add_run(f->st);
	char key[32];
	int i;

	assert_int_equal(store__sample_begin(f->st, rid, 0, 10), 0);
	for (i = 0; i < 65536; i++) {
		snprintf(key, sizeof(key), "vmstat:k%d", i);
		assert_int_equal(store__value(f->st, rid, 0, key, "-", i), 0);
	}
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:one_too_many", "-", 1), -ENOSPC);
	/* names already seen still work */
	assert_int_equal(store__value(f->st, rid, 0, "vmstat:k5", "s2", 1), 0);
	assert_int_equal(store__commit(f->st), 0);
	assert_int_equal(q_int(view(f), "SELECT COUNT(*) FROM metric"), 65536);
}

/* A writer killed in the middle of a batch leaves a sound file with the committed batches. */
static void test_crash_mid_batch(void **state)
{
	struct fixture *f = *state;
	char *path = xasprintf("%s/crash.db", f->dir);
	struct store *st = NULL;
	int status = 0;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct store *cst = NULL;
		int64_t rid;

		if (store__open(path, &cst) < 0)
			_exit(2);
		rid = add_run(cst);
		if (store__sample_begin(cst, rid, 0, 1) < 0)
			_exit(3);
		/* sample + 4999 values: batches of 2000 rows commit twice, 1000 rows pending */
		for (int i = 0; i < 4999; i++) {
			char key[32];

			snprintf(key, sizeof(key), "vmstat:k%d", i);
			if (store__value(cst, rid, 0, key, "-", i) < 0)
				_exit(4);
		}
		raise(SIGKILL);
		_exit(5);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	assert_int_equal(store__open(path, &st), 0);
	{
		sqlite3 *db = ro_open(path);

		assert_q_text(db, "PRAGMA integrity_check", "ok");
		assert_q_text(db, "PRAGMA foreign_key_check", "(none)");
		assert_int_equal(q_int(db, "SELECT COUNT(*) FROM value"), 3999);
		assert_int_equal(q_int(db, "SELECT MAX(v) FROM value"), 3998);
		sqlite3_close(db);
	}
	/* and it takes new rows */
	assert_int_equal(store__value(st, 1, 0, "vmstat:after", "-", 1), 0);
	store__close(st);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopen_and_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_meta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_campaign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_readonly_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_readonly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lru_gen_and_results, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_views, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crash_mid_batch, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
