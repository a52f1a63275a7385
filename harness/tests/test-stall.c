// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim stall histograms on the host: the stream's reclaim lines
 * (PROTOCOL.md) through ingest into a store, read back per run (stall.c),
 * reduced to the numbers compared, and turned into dataset rows. The stream
 * is built here with the guest's own bucket scheme (loghist.h), so the
 * expected values are known exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "dataset.h"
#include "ingest.h"
#include "loghist.h"
#include "stall.h"
#include "store.h"
#include "util.h"

#define MS 1000000ull

struct fixture {
	char dir[64];
	struct store *st;
	int64_t run;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	_cleanup_free_ char *path = NULL;
	int64_t vid;

	strcpy(f->dir, "/tmp/test-stall.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	path = xasprintf("%s/c.db", f->dir);
	if (store__open(path, &f->st) < 0 ||
	    store__variant_add(f->st, "classic", "debian-6.1", "classic", "", &vid) < 0 ||
	    store__run_add(f->st, vid, 0, 0, 1, &f->run) < 0)
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

/* The histogram lines of one scope and path, as the agent prints them. */
static size_t hist_lines(FILE *s, const char *scope, const char *path, const struct loghist *h)
{
	size_t n = 2;

	fprintf(s, "v reclaim %s count.%s %llu\n", scope, path, (unsigned long long)h->n);
	fprintf(s, "v reclaim %s total_ns.%s %llu\n", scope, path, (unsigned long long)h->sum);
	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++)
		if (h->count[i]) {
			fprintf(s, "v reclaim %s hist.%s.%llu %llu\n", scope, path,
				(unsigned long long)loghist_lower(i),
				(unsigned long long)h->count[i]);
			n++;
		}
	return n;
}

/*
 * Three samples a second apart. Memcg wl: 1, 2 and 6 ms stalls by the
 * second sample, two more of 50 ms by the third (their bucket first appears
 * then). System-wide the same plus a direct reclaim of 300 us outside any
 * memcg; softlimit traced and never taken. Two malformed names at the end.
 */
static char *make_stream(struct loghist *wl)
{
	struct loghist sys = { 0 }, direct = { 0 }, zero = { 0 };
	static const uint64_t first[] = { 1 * MS, 2 * MS, 6 * MS }, second[] = { 50 * MS, 50 * MS };
	char *text = NULL;
	size_t len = 0, n;
	FILE *s = open_memstream(&text, &len);

	memset(wl, 0, sizeof(*wl));
	fprintf(s, "hello 1 test 6.1.0-57-cloud-amd64 1\n");
	for (int seq = 0; seq < 3; seq++) {
		if (seq == 1) {
			for (size_t i = 0; i < ARRAY_SIZE(first); i++) {
				loghist__add(wl, first[i]);
				loghist__add(&sys, first[i]);
			}
			loghist__add(&direct, 300000);
		}
		if (seq == 2)
			for (size_t i = 0; i < ARRAY_SIZE(second); i++) {
				loghist__add(wl, second[i]);
				loghist__add(&sys, second[i]);
			}
		fprintf(s, "sample %d %llu\n", seq, (unsigned long long)(seq + 1) * 1000 * MS);
		n = hist_lines(s, "-", "memcg", &sys);
		n += hist_lines(s, "wl", "memcg", wl);
		n += hist_lines(s, "-", "direct", &direct);
		n += hist_lines(s, "-", "softlimit", &zero);
		n += hist_lines(s, "wl", "softlimit", &zero);
		if (seq == 2) {
			fprintf(s, "v reclaim - hist.memcg.1048577 5\nv reclaim - hist.nosuch.1024 1\n");
			n += 2;
		}
		/* the pages reclaimed: 1000 from wl over the run, 30 by direct reclaim */
		fprintf(s, "v memory.stat wl pgsteal %d\nv vmstat - pgsteal_direct %d\n",
			500 + 500 * seq, 7 + 15 * seq);
		n += 2;
		fprintf(s, "v reclaim - records %d\n", 10 * seq);
		fprintf(s, "end %d %zu\n", seq, n + 1);
	}
	fprintf(s, "bye done\n");
	fclose(s);
	return text;
}

static void ingest_stream(struct fixture *f, struct loghist *wl)
{
	_cleanup_free_ char *text = make_stream(wl);
	struct ingest *in = NULL;
	const struct ingest_stats *st;

	assert_int_equal(ingest__new(f->st, f->run, &in), 0);
	assert_int_equal(ingest__feed(in, text, strlen(text)), 0);
	assert_int_equal(ingest__finish(in), 0);
	st = ingest__stats(in);
	assert_int_equal(st->rejected, 0);
	assert_int_equal(st->samples, 3);
	assert_int_equal(st->incomplete, 0);
	ingest__free(in);
	assert_int_equal(store__run_finish(f->st, f->run, RUN_COMPLETED, NULL, 1), 0);
}

/* The test's own read-only view of the file, after the store commits what it holds. */
static sqlite3 *db_open(struct fixture *f)
{
	_cleanup_free_ char *path = xasprintf("%s/c.db", f->dir);
	sqlite3 *db = NULL;

	assert_int_equal(store__commit(f->st), 0);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	return db;
}

static int64_t q_int(struct fixture *f, const char *sql)
{
	sqlite3 *db = db_open(f);
	sqlite3_stmt *q = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

static const char *q_text(struct fixture *f, const char *sql, char *buf, size_t len)
{
	sqlite3 *db = db_open(f);
	sqlite3_stmt *q = NULL;

	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	sqlite3_close(db);
	return buf;
}

/* The lines land as ordinary values, typed by the metric dictionary. */
static void test_ingest(void **state)
{
	struct fixture *f = *state;
	struct loghist wl;
	char buf[128];

	ingest_stream(f, &wl);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE metric = 'reclaim:count.memcg' AND "
				  "scope = 'wl' AND seq = 2"),
			 5);
	assert_int_equal(q_int(f, "SELECT v FROM v_value WHERE metric = "
				  "'reclaim:total_ns.memcg' AND scope = '-' AND seq = 2"),
			 109 * MS);
	assert_string_equal(q_text(f, "SELECT unit || ' ' || kind || ' ' || better FROM metric "
				      "WHERE name = 'reclaim:total_ns.memcg'",
				   buf, sizeof(buf)),
			    "ns counter lower");
	assert_string_equal(q_text(f, "SELECT unit || ' ' || kind || ' ' || better FROM metric "
				      "WHERE name LIKE 'reclaim:hist.memcg.%' LIMIT 1",
				   buf, sizeof(buf)),
			    "events counter none");
	assert_string_equal(q_text(f, "SELECT source FROM metric WHERE name = 'reclaim:records'",
				   buf, sizeof(buf)),
			    "reclaim");
	/* the 50 ms bucket first appears in the last sample */
	{
		_cleanup_free_ char *sql = xasprintf(
			"SELECT MIN(seq) FROM v_value WHERE metric = 'reclaim:hist.memcg.%llu' AND "
			"scope = 'wl'",
			(unsigned long long)loghist_lower(loghist_index(50 * MS)));

		assert_int_equal(q_int(f, sql), 2);
	}
}

/* Read back as increases over the run; reduced to quantiles, rate and total. */
static void test_run_hist(void **state)
{
	struct fixture *f = *state;
	struct loghist wl;
	struct stall_run r;
	const struct loghist *h;

	ingest_stream(f, &wl);
	assert_int_equal(stall_run__load(f->st, f->run, &r), 0);
	assert_true(fabs(r.seconds - 2.0) < 1e-9);
	assert_int_equal(r.bad, 2);
	h = stall_run__find(&r, "wl", 1); /* memcg */
	assert_non_null(h);
	assert_int_equal(h->n, 5);
	assert_int_equal(h->sum, 109 * MS);
	assert_memory_equal(h->count, wl.count, sizeof(wl.count));
	assert_true(fabs(loghist__quantile(h, 0.5) - loghist__quantile(&wl, 0.5)) < 1e-6);
	h = stall_run__find(&r, "-", 0); /* direct */
	assert_non_null(h);
	assert_int_equal(h->n, 1);
	assert_int_equal(h->count[loghist_index(300000)], 1);
	assert_null(stall_run__find(&r, "wl", 0));
	/* merging a run into itself doubles it */
	{
		struct stall_run acc = { 0 };

		stall_run__merge(&acc, &r);
		stall_run__merge(&acc, &r);
		assert_int_equal(stall_run__find(&acc, "wl", 1)->n, 10);
		assert_true(fabs(acc.seconds - 4.0) < 1e-9);
		stall_run__clear(&acc);
	}
	stall_run__clear(&r);
}

struct point_sum {
	int64_t by_t[4];
	int64_t in_50ms;
};

static void add_point(void *arg, int64_t t_ns, unsigned bucket, int64_t count)
{
	struct point_sum *ps = arg;

	assert_true(t_ns >= 1000 * (int64_t)MS && t_ns <= 3000 * (int64_t)MS);
	ps->by_t[t_ns / (1000 * (int64_t)MS)] += count;
	if (bucket == loghist_index(50 * MS))
		ps->in_50ms += count;
}

/* Over time: the stalls that ended between samples, a bucket's first count included. */
static void test_series(void **state)
{
	struct fixture *f = *state;
	struct loghist wl;
	struct point_sum ps = { 0 };

	ingest_stream(f, &wl);
	assert_int_equal(stall__series(f->st, f->run, "wl", add_point, &ps), 0);
	assert_int_equal(ps.by_t[1], 0);
	assert_int_equal(ps.by_t[2], 3);
	assert_int_equal(ps.by_t[3], 2);
	assert_int_equal(ps.in_50ms, 2);
	memset(&ps, 0, sizeof(ps));
	/* the direct reclaim is a stall of the whole guest, in the second sample */
	assert_int_equal(stall__series(f->st, f->run, "-", add_point, &ps), 0);
	assert_int_equal(ps.by_t[2], 4);
	assert_int_equal(ps.by_t[3], 2);
}

static const struct ds_row *row(const struct dataset *ds, const char *label)
{
	for (size_t i = 0; i < ds->nrows; i++)
		if (!strcmp(ds->rows[i].label, label))
			return &ds->rows[i];
	return NULL;
}

/* The dataset's rows: per memcg and system, per path; silent paths dropped. */
static void test_dataset_rows(void **state)
{
	struct fixture *f = *state;
	struct dataset *ds = NULL;
	const struct ds_row *r;
	struct loghist wl;

	ingest_stream(f, &wl);
	assert_int_equal(dataset__load(f->st, NULL, &ds), 0);
	r = row(ds, "reclaim:p99_ns.memcg[wl]");
	assert_non_null(r);
	assert_int_equal(r->n[0], 1);
	assert_true(fabs(ds_vals(ds, r, 0)[0] - loghist__quantile(&wl, 0.99)) < 1e-6);
	assert_string_equal(r->unit, "ns");
	assert_int_equal(r->better, BETTER_LOWER);
	assert_string_equal(r->group, "memcg wl");
	r = row(ds, "reclaim:per_s.memcg[wl]");
	assert_non_null(r);
	assert_true(fabs(ds_vals(ds, r, 0)[0] - 2.5) < 1e-9);
	r = row(ds, "reclaim:total_ns.memcg");
	assert_non_null(r);
	assert_true(fabs(ds_vals(ds, r, 0)[0] - 109e6) < 1e-3);
	assert_string_equal(r->family, "system");
	/* the cost per page: 109 ms of memcg reclaim over 1000 pages, 300 us direct over 30 */
	r = row(ds, "reclaim:ns_per_page.memcg[wl]");
	assert_non_null(r);
	assert_true(fabs(ds_vals(ds, r, 0)[0] - 109000) < 1e-6);
	assert_string_equal(r->unit, "ns");
	assert_int_equal(r->better, BETTER_LOWER);
	r = row(ds, "reclaim:ns_per_page.direct");
	assert_non_null(r);
	assert_true(fabs(ds_vals(ds, r, 0)[0] - 10000) < 1e-6);
	assert_non_null(row(ds, "memory.stat:pgsteal[wl]")); /* the counter keeps its row */
	assert_null(row(ds, "reclaim:ns_per_page.memcg")); /* no system-wide memcg pages */
	assert_non_null(row(ds, "reclaim:p50_ns.direct"));
	assert_non_null(row(ds, "reclaim:p999_ns.memcg"));
	/* softlimit never ran: no row; the raw histogram counters are no rows either */
	assert_null(row(ds, "reclaim:per_s.softlimit"));
	assert_null(row(ds, "reclaim:total_ns.softlimit[wl]"));
	assert_null(row(ds, "reclaim:count.memcg[wl]"));
	for (size_t i = 0; i < ds->nrows; i++)
		assert_null(strstr(ds->rows[i].label, "hist."));
	dataset__free(ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ingest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_hist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dataset_rows, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
