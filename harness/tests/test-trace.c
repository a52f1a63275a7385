// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim tracer's pure parts: the log-linear histogram (common/loghist.c),
 * pairing begin and end records per task (guest/stall-pair.c), reading a
 * perf ring and its records (guest/perf-ring.c) and finding tracepoint ids
 * in tracefs (guest/trace-events.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "guest/perf-ring.h"
#include "guest/stall-pair.h"
#include "guest/trace-events.h"
#include "loghist.h"
#include "util.h"

enum { DIRECT, MEMCG, SOFTLIMIT, KSWAPD };

/* Every value falls in its bucket; buckets tile the range, each at most 1/8 of its start wide. */
static void test_loghist_buckets(void **state)
{
	static const uint64_t probes[] = { 0, 1, 7, 8, 15, 16, 17, 31, 32, 1000, 1023, 1024, 1025,
					   999999, 1 << 20, (1ull << 40) + 12345, UINT64_MAX - 1,
					   UINT64_MAX };
	unsigned idx;

	(void)state;
	for (uint64_t v = 0; v < 200000; v++) {
		unsigned i = loghist_index(v);

		assert_true(i < LOGHIST_BUCKETS);
		assert_true(loghist_lower(i) <= v && v < loghist_upper(i));
	}
	for (size_t k = 0; k < ARRAY_SIZE(probes); k++) {
		unsigned i = loghist_index(probes[k]);

		assert_true(i < LOGHIST_BUCKETS);
		assert_true(loghist_lower(i) <= probes[k]);
		assert_true(probes[k] < loghist_upper(i) || i == LOGHIST_BUCKETS - 1);
	}
	assert_int_equal(loghist_index(UINT64_MAX), LOGHIST_BUCKETS - 1);
	for (unsigned i = 0; i + 1 < LOGHIST_BUCKETS; i++) {
		uint64_t lo = loghist_lower(i), hi = loghist_upper(i);

		assert_true(lo < hi);
		assert_int_equal(loghist_index(lo), i);
		assert_int_equal(loghist_index(hi - 1), i);
		if (lo >= 16)
			assert_true((hi - lo) * 8 <= lo);
		assert_true(loghist_is_lower(lo, &idx));
		assert_int_equal(idx, i);
	}
	/* 1 MiB + 1 ns starts no bucket; the stream's names are lower bounds */
	assert_false(loghist_is_lower((1 << 20) + 1, &idx));
	assert_true(loghist_is_lower(1 << 20, &idx));
	assert_int_equal(loghist_lower(idx), 1 << 20);
}

static void test_loghist_quantiles(void **state)
{
	struct loghist h = { 0 }, g = { 0 };

	(void)state;
	assert_true(isnan(loghist__quantile(&h, 0.5)));
	/* 1000 values, 1..1000 us */
	for (uint64_t v = 1; v <= 1000; v++)
		loghist__add(&h, v * 1000);
	assert_int_equal(h.n, 1000);
	assert_int_equal(h.sum, 500500000);
	assert_true(fabs(loghist__quantile(&h, 0.5) - 500e3) / 500e3 < 0.0625);
	assert_true(fabs(loghist__quantile(&h, 0.99) - 990e3) / 990e3 < 0.0625);
	assert_true(loghist__quantile(&h, 1) >= 1000e3);
	assert_true(loghist__quantile(&h, 1) <= loghist_upper(loghist_index(1000000)));
	assert_true(isnan(loghist__quantile(&h, 0)));
	/* one value: every quantile in its bucket */
	loghist__add(&g, 5000);
	assert_true(loghist__quantile(&g, 0.01) >= loghist_lower(loghist_index(5000)));
	assert_true(loghist__quantile(&g, 0.999) <= loghist_upper(loghist_index(5000)));
	/* merge adds counts, n and sum */
	loghist__merge(&g, &h);
	assert_int_equal(g.n, 1001);
	assert_int_equal(g.sum, 500505000);
	assert_int_equal(g.count[loghist_index(5000)], h.count[loghist_index(5000)] + 1);
}

static struct stall_event ev(uint64_t t, uint32_t tid, int path, bool begin, int scope)
{
	return (struct stall_event){ .t = t, .tid = tid, .path = (uint8_t)path, .begin = begin,
				     .scope = scope };
}

static uint64_t count_at(const struct stall_pairs *sp, int scope, int path, uint64_t v)
{
	return stall_pairs_hist(sp, scope, (unsigned)path)->count[loghist_index(v)];
}

/* In-order pairs of two tasks in two memcgs; kswapd only system-wide. */
static void test_pairs_in_order(void **state)
{
	struct stall_pairs *sp = NULL;
	struct stall_event e[] = {
		ev(1000, 10, MEMCG, true, STALL_SCOPE_NONE),
		ev(1500, 11, MEMCG, true, STALL_SCOPE_NONE),
		ev(4000, 10, MEMCG, false, 0),	   /* 3000 ns in memcg 0 */
		ev(101500, 11, MEMCG, false, 1),   /* 100000 ns in memcg 1 */
		ev(200000, 12, DIRECT, true, STALL_SCOPE_NONE),
		ev(260000, 12, DIRECT, false, STALL_SCOPE_NONE), /* outside the memcgs */
		ev(300000, 2, KSWAPD, true, STALL_SCOPE_NONE),
		ev(900000, 2, KSWAPD, false, 1),
	};

	(void)state;
	assert_int_equal(stall_pairs_new(2, &sp), 0);
	for (size_t i = 0; i < ARRAY_SIZE(e); i++)
		stall_pairs_feed(sp, &e[i]);
	assert_int_equal(stall_pairs_stats(sp)->paired, 4);
	assert_int_equal(stall_pairs_open(sp), 0);
	assert_int_equal(stall_pairs_hist(sp, STALL_SCOPE_NONE, MEMCG)->n, 2);
	assert_int_equal(stall_pairs_hist(sp, STALL_SCOPE_NONE, MEMCG)->sum, 103000);
	assert_int_equal(count_at(sp, 0, MEMCG, 3000), 1);
	assert_int_equal(stall_pairs_hist(sp, 0, MEMCG)->n, 1);
	assert_int_equal(count_at(sp, 1, MEMCG, 100000), 1);
	assert_int_equal(stall_pairs_hist(sp, 1, MEMCG)->n, 1);
	assert_int_equal(stall_pairs_hist(sp, STALL_SCOPE_NONE, DIRECT)->n, 1);
	assert_int_equal(stall_pairs_hist(sp, 0, DIRECT)->n + stall_pairs_hist(sp, 1, DIRECT)->n, 0);
	/* kswapd works for a node: system-wide only, whatever the record's cgroup */
	assert_int_equal(count_at(sp, STALL_SCOPE_NONE, KSWAPD, 600000), 1);
	assert_int_equal(stall_pairs_hist(sp, 1, KSWAPD)->n, 0);
	assert_null(stall_pairs_hist(sp, 2, MEMCG));
	stall_pairs_free(sp);
}

/*
 * Each CPU has its ring: a drain may read a task's end before its begin
 * (sorted within a drain), or in an earlier drain than its begin (an
 * orphan the begin completes).
 */
static void test_pairs_across_rings(void **state)
{
	struct stall_pairs *sp = NULL;
	/* CPU 1's ring read first: ends before begins, shuffled */
	struct stall_event drain1[] = {
		ev(5000, 20, MEMCG, false, 0), ev(9000, 21, MEMCG, false, 0),
		ev(1000, 20, MEMCG, true, 0),  ev(7000, 21, MEMCG, true, 0),
		ev(12000, 20, MEMCG, false, 0), /* its begin comes in the next drain */
	};
	struct stall_event drain2[] = { ev(11000, 20, MEMCG, true, 0) };

	(void)state;
	stall_pairs_new(1, &sp);
	stall_pairs_feed_batch(sp, drain1, ARRAY_SIZE(drain1));
	assert_int_equal(stall_pairs_stats(sp)->paired, 2);
	assert_int_equal(count_at(sp, 0, MEMCG, 4000), 1);
	assert_int_equal(count_at(sp, 0, MEMCG, 2000), 1);
	/* the orphan end waits; expiring what is older than it keeps it */
	stall_pairs_expire(sp, 12000);
	stall_pairs_feed_batch(sp, drain2, ARRAY_SIZE(drain2));
	assert_int_equal(stall_pairs_stats(sp)->paired, 3);
	assert_int_equal(count_at(sp, 0, MEMCG, 1000), 1);
	assert_int_equal(stall_pairs_stats(sp)->orphans, 0);
	assert_int_equal(stall_pairs_hist(sp, 0, MEMCG)->sum, 7000);
	stall_pairs_free(sp);
}

/* Lost records: a begin without its end restarts; kswapd woken again continues. */
static void test_pairs_lost(void **state)
{
	struct stall_pairs *sp = NULL;
	struct stall_event e[] = {
		ev(1000, 30, DIRECT, true, STALL_SCOPE_NONE),
		ev(2000, 30, DIRECT, true, STALL_SCOPE_NONE), /* the first one's end was lost */
		ev(2500, 30, DIRECT, false, STALL_SCOPE_NONE),
		ev(3000, 2, KSWAPD, true, STALL_SCOPE_NONE),
		ev(4000, 2, KSWAPD, true, STALL_SCOPE_NONE), /* woken before it slept */
		ev(9000, 2, KSWAPD, false, STALL_SCOPE_NONE),
		ev(10000, 31, MEMCG, false, 0), /* an end whose begin was lost */
		ev(10500, 31, MEMCG, false, 0), /* and another: the first is dropped */
		ev(20000, 32, MEMCG, true, 0),	/* open at the end */
	};

	(void)state;
	stall_pairs_new(1, &sp);
	for (size_t i = 0; i < ARRAY_SIZE(e); i++)
		stall_pairs_feed(sp, &e[i]);
	assert_int_equal(stall_pairs_stats(sp)->restarted, 1);
	assert_int_equal(count_at(sp, STALL_SCOPE_NONE, DIRECT, 500), 1);
	assert_int_equal(stall_pairs_hist(sp, STALL_SCOPE_NONE, DIRECT)->n, 1);
	assert_int_equal(count_at(sp, STALL_SCOPE_NONE, KSWAPD, 6000), 1);
	assert_int_equal(stall_pairs_stats(sp)->orphans, 1);
	assert_int_equal(stall_pairs_open(sp), 1);
	/* a begin after the orphan end is not its begin */
	{
		struct stall_event late = ev(11000, 31, MEMCG, true, STALL_SCOPE_NONE);

		stall_pairs_feed(sp, &late);
		assert_int_equal(stall_pairs_stats(sp)->orphans, 2);
		assert_int_equal(stall_pairs_hist(sp, 0, MEMCG)->n, 0);
	}
	/* an orphan older than the horizon expires */
	{
		struct stall_event end = ev(30000, 33, MEMCG, false, 0);

		stall_pairs_feed(sp, &end);
		stall_pairs_expire(sp, 30001);
		assert_int_equal(stall_pairs_stats(sp)->orphans, 3);
	}
	assert_int_equal(stall_pairs_stats(sp)->paired, 2);
	stall_pairs_free(sp);
}

/* A sample record as the kernel lays it out: id, pid/tid, time[, cgroup]. */
static size_t make_sample(unsigned char *buf, uint64_t id, uint32_t tid, uint64_t t,
			  const uint64_t *cgroup)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = cgroup ? 40 : 32 };
	uint32_t pid = tid + 1000;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, &pid, 4);
	memcpy(buf + 20, &tid, 4);
	memcpy(buf + 24, &t, 8);
	if (cgroup)
		memcpy(buf + 32, cgroup, 8);
	return h.size;
}

static void test_sample_decode(void **state)
{
	const uint64_t base = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	unsigned char rec[64];
	struct perf_sample_min s;
	uint64_t cg = 4242, lost = 0;
	size_t len;

	(void)state;
	len = make_sample(rec, 77, 123, 999999, &cg);
	assert_int_equal(perf_sample_decode(rec, len, base | PERF_SAMPLE_CGROUP, &s), 0);
	assert_int_equal(s.id, 77);
	assert_int_equal(s.tid, 123);
	assert_int_equal(s.pid, 1123);
	assert_int_equal(s.time, 999999);
	assert_int_equal(s.cgroup, 4242);
	len = make_sample(rec, 78, 5, 6, NULL);
	assert_int_equal(perf_sample_decode(rec, len, base, &s), 0);
	assert_int_equal(s.cgroup, 0);
	/* short, or a layout the tracer does not ask for */
	assert_int_equal(perf_sample_decode(rec, len, base | PERF_SAMPLE_CGROUP, &s), -EINVAL);
	assert_int_equal(perf_sample_decode(rec, len, base | PERF_SAMPLE_RAW, &s), -EINVAL);
	assert_int_equal(perf_lost_decode(rec, 16, &lost), -EINVAL);
	{
		struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 24 };
		uint64_t id = 1, n = 31;

		memcpy(rec, &h, 8);
		memcpy(rec + 8, &id, 8);
		memcpy(rec + 16, &n, 8);
		assert_int_equal(perf_lost_decode(rec, 24, &lost), 0);
		assert_int_equal(lost, 31);
	}
}

struct seen {
	size_t n;
	uint64_t ids[16];
	size_t lens[16];
};

static void collect(void *arg, const void *rec, size_t len)
{
	struct seen *s = arg;
	struct perf_sample_min m;

	assert_true(s->n < ARRAY_SIZE(s->ids));
	assert_int_equal(perf_sample_decode(rec, len,
					    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_CGROUP,
					    &m),
			 0);
	assert_int_equal(m.cgroup, m.id * 10);
	s->lens[s->n] = len;
	s->ids[s->n++] = m.id;
}

/* Three 40-byte records written into a 128-byte ring from position tail; the head. */
static uint64_t fill_ring(unsigned char *ring, size_t size, uint64_t tail)
{
	unsigned char rec[64];
	uint64_t pos = tail;

	memset(ring, 0xee, size);
	for (uint64_t id = 1; id <= 3; id++) {
		uint64_t cg = id * 10;
		size_t len = make_sample(rec, id, 7, 1000 * id, &cg);

		for (size_t i = 0; i < len; i++)
			ring[(pos + i) % size] = rec[i];
		pos += len;
	}
	return pos;
}

/* Records that wrap the ring's end, header or body, come out whole; a bad size stops. */
static void test_ring_wrap(void **state)
{
	/* from 100 the first record's body wraps; from 124 its header does */
	static const uint64_t tails[] = { 100, 124, 0 };
	unsigned char ring[128];
	static unsigned char wrap[64 * 1024];

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(tails); k++) {
		struct seen seen = { 0 };
		uint64_t head = fill_ring(ring, sizeof(ring), tails[k]);

		assert_int_equal(head - tails[k], 120);
		assert_int_equal(perf_ring_read(ring, sizeof(ring), tails[k], head, wrap, collect,
						&seen),
				 head);
		assert_int_equal(seen.n, 3);
		for (size_t i = 0; i < 3; i++) {
			assert_int_equal(seen.ids[i], i + 1);
			assert_int_equal(seen.lens[i], 40);
		}
		/* a record claiming more than was written stops the walk where it starts */
		memset(&seen, 0, sizeof(seen));
		assert_int_equal(perf_ring_read(ring, sizeof(ring), tails[k], head - 1, wrap,
						collect, &seen),
				 tails[k] + 80);
		assert_int_equal(seen.n, 2);
	}
	/* a zero-size header too */
	{
		struct perf_event_header z = { .type = PERF_RECORD_SAMPLE, .size = 0 };
		struct seen seen = { 0 };

		memcpy(ring, &z, sizeof(z));
		assert_int_equal(perf_ring_read(ring, sizeof(ring), 0, 64, wrap, collect, &seen), 0);
		assert_int_equal(seen.n, 0);
	}
}

static void put(const char *dir, const char *tp, const char *text)
{
	_cleanup_free_ char *d = xasprintf("%s/events/vmscan/%s", dir, tp);
	_cleanup_free_ char *f = xasprintf("%s/id", d);

	FILE *fp;

	assert_int_equal(mkdir_p(d), 0);
	fp = fopen(f, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Ids from a tracefs-like tree; a kernel without events/vmscan is named in the reason. */
static void test_tracefs_ids(void **state)
{
	char dir[] = "/tmp/test-trace.XXXXXX";
	uint64_t ids[RECLAIM_PATHS][2];
	char why[256];
	const char *roots[2];
	_cleanup_free_ char *missing = NULL, *cmd = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	missing = xasprintf("%s/none", dir);
	roots[0] = missing;
	roots[1] = dir;
	put(dir, "mm_vmscan_memcg_reclaim_begin", "412\n");
	put(dir, "mm_vmscan_memcg_reclaim_end", "411\n");
	put(dir, "mm_vmscan_direct_reclaim_begin", "414\n");
	put(dir, "mm_vmscan_kswapd_wake", "junk\n");
	put(dir, "mm_vmscan_kswapd_sleep", "420\n");
	/* the first root lacks events/vmscan: the second is used */
	assert_int_equal(trace_reclaim_ids(roots, 2, ids, why, sizeof(why)), 1);
	assert_int_equal(ids[MEMCG][0], 412);
	assert_int_equal(ids[MEMCG][1], 411);
	assert_int_equal(ids[DIRECT][0], 414);
	assert_int_equal(ids[DIRECT][1], 0);
	assert_int_equal(ids[KSWAPD][0], 0);
	assert_int_equal(ids[SOFTLIMIT][0], 0);
	assert_int_equal(trace_reclaim_ids(roots, 1, ids, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no events/vmscan under"));
	assert_non_null(strstr(why, missing));
	cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loghist_buckets),	 cmocka_unit_test(test_loghist_quantiles),
		cmocka_unit_test(test_pairs_in_order),	 cmocka_unit_test(test_pairs_across_rings),
		cmocka_unit_test(test_pairs_lost),	 cmocka_unit_test(test_sample_decode),
		cmocka_unit_test(test_ring_wrap),	 cmocka_unit_test(test_tracefs_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
