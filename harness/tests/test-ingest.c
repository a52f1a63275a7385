// SPDX-License-Identifier: GPL-2.0
/*
 * Ingest: captured-format streams (harness/tests/fixtures/stream/) into a
 * temporary store, then SQL on what was kept, through a read-only connection
 * of the test's own to the committed file. Run from the repository root
 * (as "make unit" does) or point LRUBENCH_FIXTURES at the fixtures folder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <string.h>

#include "ingest.h"
#include "store.h"
#include "util.h"

#define CLEAN "stream/mglru-6.1-clean.stream"
#define TROUBLED "stream/classic-6.1-troubled.stream"

struct fixture {
	char dir[64];
	char path[80]; /* the store's file */
	struct store *st;
	int64_t run1, run2;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	int64_t vid;

	strcpy(f->dir, "/tmp/test-ingest.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/c.db", f->dir);
	if (store__open(f->path, &f->st) < 0 ||
	    store__variant_add(f->st, "v", "debian-6.1", "mglru", "", &vid) < 0 ||
	    store__run_add(f->st, vid, 0, 0, 1, &f->run1) < 0 ||
	    store__run_add(f->st, vid, 1, 1, 2, &f->run2) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", f->dir);

	store__close(f->st);
	free(f);
	return system(cmd) == 0 ? 0 : -1;
}

static char *fixture_read(const char *name, size_t *len)
{
	const char *dir = getenv("LRUBENCH_FIXTURES");
	_cleanup_free_ char *path = xasprintf("%s/%s", dir ? dir : "harness/tests/fixtures", name);
	char *buf = NULL;

	if (read_file(path, 16 << 20, &buf, len) < 0)
		fail_msg("cannot read %s (run from the repository root)", path);
	return buf;
}

/* Ingest a fixture into run_id, fed in chunks of the given size (0: all at once). */
static const struct ingest_stats *ingest_fixture(struct fixture *f, int64_t run_id,
						 const char *name, size_t chunk,
						 struct ingest_stats *copy)
{
	size_t len = 0, off = 0;
	_cleanup_free_ char *buf = fixture_read(name, &len);
	struct ingest *in = NULL;

	assert_int_equal(ingest__new(f->st, run_id, &in), 0);
	while (off < len) {
		size_t n = chunk && chunk < len - off ? chunk : len - off;

		assert_int_equal(ingest__feed(in, buf + off, n), 0);
		off += n;
	}
	assert_int_equal(ingest__finish(in), 0);
	*copy = *ingest__stats(in);
	ingest__free(in);
	return copy;
}

static void closedbp(sqlite3 **db)
{
	sqlite3_close(*db);
}

/* What the store committed to its file, read by a connection of the test's own. */
static sqlite3 *open_readonly(struct fixture *f)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(f->path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail_msg("open '%s' read-only: %s", f->path, db ? sqlite3_errmsg(db) : "no memory");
	return db;
}

static int64_t q_int(struct fixture *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int64_t q_int(struct fixture *f, const char *fmt, ...)
{
	_cleanup_(closedbp) sqlite3 *db = open_readonly(f);
	_cleanup_free_ char *sql = NULL;
	sqlite3_stmt *s = NULL;
	int64_t v = INT64_MIN;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&sql, fmt, ap) >= 0);
	va_end(ap);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static char *q_text(struct fixture *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *q_text(struct fixture *f, const char *fmt, ...)
{
	_cleanup_(closedbp) sqlite3 *db = open_readonly(f);
	_cleanup_free_ char *sql = NULL;
	sqlite3_stmt *s = NULL;
	char *v = NULL;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&sql, fmt, ap) >= 0);
	va_end(ap);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = xstrdup((const char *)sqlite3_column_text(s, 0));
	else
		v = xstrdup("(none)");
	sqlite3_finalize(s);
	return v;
}

#define assert_text(f, want, ...)                                                                  \
	do {                                                                                       \
		char *_got = q_text(f, __VA_ARGS__);                                               \
		if (strcmp(_got, want))                                                            \
			fail_msg("got '%s', want '%s'", _got, want);                               \
		free(_got);                                                                        \
	} while (0)

static void test_clean_run(void **state)
{
	struct fixture *f = *state;
	struct ingest_stats s;
	int64_t r = f->run1;

	ingest_fixture(f, r, CLEAN, 0, &s);
	assert_int_equal(s.lines, 1532);
	assert_int_equal(s.rejected, 0);
	assert_int_equal(s.samples, 6);
	assert_int_equal(s.incomplete, 0);
	assert_int_equal(s.values, 6 * 242);
	assert_int_equal(s.gens, 6 * 8);
	assert_int_equal(s.results, 3);
	assert_int_equal(s.events, 6);
	assert_int_equal(s.hello, 1);
	assert_int_equal(s.bye, 1);
	assert_string_equal(s.kernel_release, "6.1.0-57-cloud-amd64");
	assert_string_equal(s.agent_version, "0.1.0-7-gabc1234");
	assert_string_equal(s.bye_reason, "done");
	assert_string_equal(s.first_reject, "");

	/* samples: all there, complete, at the guest's times */
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM sample WHERE run_id = %lld AND complete",
			       (long long)r),
			 6);
	assert_int_equal(q_int(f, "SELECT t_ns FROM sample WHERE run_id = %lld AND seq = 5",
			       (long long)r),
			 6000000000);
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM value WHERE run_id = %lld", (long long)r),
			 1452);
	/* exact values, through the view */
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 3 AND "
				  "metric = 'vmstat:pgscan_anon' AND scope = '-'",
			       (long long)r),
			 135513);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 5 AND "
				  "metric = 'memory.stat:anon' AND scope = 'wl'",
			       (long long)r),
			 201347072);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 5 AND "
				  "metric = 'vmstat:nr_free_pages'",
			       (long long)r),
			 36000);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 4 AND "
				  "metric = 'perf:task-clock' AND scope = 'wl'",
			       (long long)r),
			 3800000000);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 2 AND "
				  "metric = 'psi.memory:some.total'",
			       (long long)r),
			 4006);
	assert_int_equal(q_int(f, "SELECT SUM(delta) FROM v_delta WHERE run_id = %lld AND "
				  "metric = 'vmstat:pgscan_anon'",
			       (long long)r),
			 5 * 5171);
	/* the dictionary rows came with the names */
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM metric"), 242);
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM scope"), 2);
	assert_text(f, "KiB|counter|lower",
		    "SELECT unit || '|' || kind || '|' || better FROM metric "
		    "WHERE name = 'vmstat:pgpgin'");
	assert_text(f, "pages|gauge",
		    "SELECT unit || '|' || kind FROM metric WHERE name = 'vmstat:nr_free_pages'");
	/* lru_gen rows */
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM lru_gen WHERE run_id = %lld", (long long)r),
			 48);
	assert_text(f, "/wl|2017|2001|500",
		    "SELECT memcg_path || '|' || age_ms || '|' || anon || '|' || file FROM lru_gen "
		    "WHERE run_id = %lld AND seq = 1 AND memcg_id = 2 AND node = 0 AND gen = 2",
		    (long long)r);
	/* results, events, what the agent read back */
	assert_text(f, "612345.25|ops/s|higher",
		    "SELECT value || '|' || unit || '|' || better FROM result WHERE run_id = %lld "
		    "AND workload = 'wl' AND key = 'ops_per_s'",
		    (long long)r);
	assert_text(f, "boot,boot,knobs,memcg,workload-start,workload-exit",
		    "SELECT group_concat(kind, ',') FROM "
		    "(SELECT kind FROM event WHERE run_id = %lld ORDER BY id)",
		    (long long)r);
	assert_text(f, "wl status 0 after 4.98 s",
		    "SELECT text FROM event WHERE run_id = %lld AND kind = 'workload-exit'",
		    (long long)r);
	assert_int_equal(q_int(f, "SELECT t_ns FROM event WHERE run_id = %lld AND kind = 'memcg'",
			       (long long)r),
			 910000000);
	assert_text(f, "0x0007",
		    "SELECT value FROM run_prov WHERE run_id = %lld AND "
		    "key = 'guest.conf.lru_gen/enabled'",
		    (long long)r);
	assert_text(f, "console=ttyS0 transparent_hugepage=never quiet panic=-1",
		    "SELECT value FROM run_prov WHERE run_id = %lld AND "
		    "key = 'guest.conf.kernel/cmdline'",
		    (long long)r);
	assert_text(f, "[lzo-rle] lzo lz4 zstd",
		    "SELECT value FROM run_prov WHERE run_id = %lld AND "
		    "key = 'guest.conf.zram/comp_algorithm'",
		    (long long)r);
	assert_text(f, "r0001-mglru-0",
		    "SELECT value FROM run_prov WHERE run_id = %lld AND key = 'guest.run'",
		    (long long)r);
	assert_text(f, "ok", "PRAGMA integrity_check");
}

static void test_troubled_run(void **state)
{
	struct fixture *f = *state;
	struct ingest_stats s;
	int64_t r = f->run2;

	ingest_fixture(f, r, TROUBLED, 0, &s);
	/* 9 garbage lines and the torn last line */
	assert_int_equal(s.rejected, 10);
	assert_int_equal(s.lines, 872);
	/* sample 0 is fine; 1 has a duplicated line, 2 a wrong count, 3 no end */
	assert_int_equal(s.samples, 1);
	assert_int_equal(s.incomplete, 3);
	assert_int_equal(s.values, 242 * 3 + 100);
	assert_int_equal(s.gens, 8 * 3);
	assert_int_equal(s.results, 0);
	assert_int_equal(s.bye, 0);
	assert_string_equal(s.bye_reason, "");
	assert_string_equal(s.first_reject,
			    "line 520: invalid integer: 'v vmstat - pgfault notanumber'");
	assert_true(store__stats(f->st)->dup_values == 1);

	assert_text(f, "0:1,1:0,2:0,3:0",
		    "SELECT group_concat(seq || ':' || complete, ',') FROM (SELECT * FROM sample "
		    "WHERE run_id = %lld ORDER BY seq)",
		    (long long)r);
	/* the values of the incomplete samples are kept */
	assert_text(f, "0:242,1:242,2:242,3:100",
		    "SELECT group_concat(seq || ':' || n, ',') FROM (SELECT seq, COUNT(*) AS n "
		    "FROM value WHERE run_id = %lld GROUP BY seq ORDER BY seq)",
		    (long long)r);
	/* the duplicated line did not overwrite: one row, the original value */
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE run_id = %lld AND seq = 1 AND "
				  "metric = 'vmstat:nr_free_pages'",
			       (long long)r),
			 40000);
	/* nothing from the garbage lines */
	assert_int_equal(q_int(f, "SELECT COUNT(*) FROM value WHERE run_id = %lld AND v = "
				  "99999999",
			       (long long)r),
			 0);
	assert_text(f, "6.1.0-57-cloud-amd64", "SELECT '%s'", s.kernel_release);
	assert_text(f, "ok", "PRAGMA integrity_check");
	assert_text(f, "(none)", "PRAGMA foreign_key_check");
}

/* Whatever the chunking, the same rows. */
static void test_chunking(void **state)
{
	struct fixture *f = *state;
	static const size_t chunks[] = { 1, 7, 1023, 1024, 1025, 4096 };
	struct ingest_stats ref, s;
	int64_t sum_ref, n_ref;

	ingest_fixture(f, f->run1, CLEAN, 0, &ref);
	sum_ref = q_int(f, "SELECT SUM(v %% 1000003 * (seq + 1)) FROM value WHERE run_id = %lld",
			(long long)f->run1);
	n_ref = q_int(f, "SELECT COUNT(*) FROM value WHERE run_id = %lld", (long long)f->run1);
	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		int64_t vid, rid;
		char name[32];

		snprintf(name, sizeof(name), "chunk%zu", chunks[i]);
		assert_int_equal(store__variant_add(f->st, name, "k", "classic", "", &vid), 0);
		assert_int_equal(store__run_add(f->st, vid, 0, 0, 0, &rid), 0);
		ingest_fixture(f, rid, CLEAN, chunks[i], &s);
		assert_int_equal(s.lines, ref.lines);
		assert_int_equal(s.values, ref.values);
		assert_int_equal(s.samples, ref.samples);
		assert_int_equal(q_int(f, "SELECT COUNT(*) FROM value WHERE run_id = %lld",
				       (long long)rid),
				 n_ref);
		assert_int_equal(q_int(f, "SELECT SUM(v %% 1000003 * (seq + 1)) FROM value WHERE "
					  "run_id = %lld",
				       (long long)rid),
				 sum_ref);
	}
}

static void test_no_such_run(void **state)
{
	struct fixture *f = *state;
	struct ingest *in = NULL;

	assert_int_equal(ingest__new(f->st, 9999, &in), -ENOENT);
	assert_null(in);
	ingest__free(NULL);
}

static void test_edge_records(void **state)
{
	struct fixture *f = *state;
	static const char in_text[] = "sample 0 5\n"
				      "v vmstat - pgfault 9223372036854775807\n"
				      "v vmstat - pgmajfault -9223372036854775808\n"
				      "v made.up scope9 some/key:x 5\n" /* unknown: default row */
				      "end 0 3\n"
				      "sample 1 6\n"
				      "v vmstat - pgfault 1\n"
				      "sample 2 7\n" /* sample 1 is cut short by sample 2 */
				      "end 2 0\n"
				      "result w k 1e3 u none\n"
				      "result w k 2 u none\n" /* duplicate: first kept */
				      "bye kernel panic: not syncing\n";
	struct ingest *in = NULL;
	const struct ingest_stats *s;

	assert_int_equal(ingest__new(f->st, f->run1, &in), 0);
	assert_int_equal(ingest__feed(in, in_text, sizeof(in_text) - 1), 0);
	assert_int_equal(ingest__finish(in), 0);
	s = ingest__stats(in);
	assert_int_equal(s->samples, 2);
	assert_int_equal(s->incomplete, 1);
	assert_int_equal(s->hello, 0);
	assert_int_equal(s->results, 1);
	assert_string_equal(s->bye_reason, "kernel panic: not syncing");
	assert_true(q_int(f, "SELECT v FROM v_value WHERE metric = 'vmstat:pgfault' AND seq = 0") ==
		    INT64_MAX);
	assert_true(q_int(f, "SELECT v FROM v_value WHERE metric = 'vmstat:pgmajfault'") ==
		    INT64_MIN);
	assert_text(f, "0:1,1:0,2:1",
		    "SELECT group_concat(seq || ':' || complete, ',') FROM (SELECT * FROM sample "
		    "ORDER BY seq)");
	assert_int_equal(q_int(f, "SELECT value FROM result WHERE key = 'k'"), 1000);
	assert_text(f, "made.up|value|gauge|5",
		    "SELECT m.source || '|' || m.unit || '|' || m.kind || '|' || v.v FROM metric m "
		    "JOIN value v ON v.metric_id = m.id WHERE m.name = 'made.up:some/key:x'");
	ingest__free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_troubled_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chunking, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_such_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edge_records, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
