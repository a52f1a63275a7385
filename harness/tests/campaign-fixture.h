/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Campaign databases written through the store's own API, as a campaign
 * writes them, without booting anything: for the merge and history tests.
 * Include after cmocka.h.
 */
#ifndef LRUBENCH_TEST_CAMPAIGN_FIXTURE_H
#define LRUBENCH_TEST_CAMPAIGN_FIXTURE_H

#include <sqlite3.h>
#include <string.h>

#include "store.h"
#include "util.h"

/* A plan that parses, 2 variants x 2 repetitions. */
static const char fx_plan[] = "[campaign]\n"
			      "name = twin\n"
			      "repetitions = 2\n"
			      "seed = 7\n"
			      "baseline = classic\n"
			      "[variant classic]\n"
			      "lru = classic\n"
			      "[variant mglru]\n"
			      "lru = mglru\n"
			      "[memcg wl]\n"
			      "memory.max = 64M\n"
			      "[workload anon]\n"
			      "type = anon-zipf\n"
			      "memcg = wl\n"
			      "size = 2x\n";

static const char *const fx_variants[] = { "classic", "mglru" };

/* One run: its variant (index), repetition, place in the order and status; its numbers. */
struct fx_run {
	int variant, rep, ord;
	const char *status;
	double throughput;   /* anon:throughput result, if status is completed */
	int64_t base;	     /* counters start here and grow by 10 (pswpin) and 1 per sample */
	const char *retry_of; /* run_prov retry_of, or NULL */
};

struct fx_campaign {
	const char *plan;     /* default fx_plan */
	const char *campaign; /* meta campaign */
	const char *shard;    /* meta shard, or NULL */
	const char *kernel;   /* every variant's kernel, default "6.1.0-57 abc" */
	const char *created;  /* meta created, default "1000" */
	bool reorder;	      /* register metrics and scopes in another order: other ids */
	const struct fx_run *runs;
	size_t nruns;
	/* more of a run's numbers: called in each sample (seq >= 0, before it ends) and once
	 * after them (seq -1, with the results), for completed runs; NULL: none */
	void (*extra)(struct store *st, int64_t run_id, const struct fx_run *r, int64_t seq);
	/* the host, as a campaign records it: meta host.cpu_model, host.cpus, host.mem_bytes,
	 * qemu.version, and run_prov accel of every run; each left out where NULL */
	const char *cpu_model, *cpus, *mem_bytes, *qemu_version, *accel;
};

static inline void fx_value(struct store *st, int64_t id, int64_t seq, const char *m, const char *sc,
		     int64_t v)
{
	assert_int_equal(store__value(st, id, seq, m, sc, v), 0);
}

/* Write the campaign at path; returns nothing, asserts everything. */
static inline void fx_write(const char *path, const struct fx_campaign *c)
{
	struct store *st = NULL;
	int64_t vid[2];

	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(store__meta_set(st, "campaign", c->campaign), 0);
	assert_int_equal(store__meta_set(st, "plan.path", "twin.ini"), 0);
	assert_int_equal(store__meta_set(st, "plan.text", c->plan ? c->plan : fx_plan), 0);
	assert_int_equal(store__meta_set(st, "plan.baseline", "classic"), 0);
	assert_int_equal(store__meta_set(st, "repetitions", "2"), 0);
	assert_int_equal(store__meta_set(st, "created", c->created ? c->created : "1000"), 0);
	assert_int_equal(store__meta_set(st, "host", "fixture"), 0);
	if (c->shard)
		assert_int_equal(store__meta_set(st, "shard", c->shard), 0);
	if (c->cpu_model)
		assert_int_equal(store__meta_set(st, "host.cpu_model", c->cpu_model), 0);
	if (c->cpus)
		assert_int_equal(store__meta_set(st, "host.cpus", c->cpus), 0);
	if (c->mem_bytes)
		assert_int_equal(store__meta_set(st, "host.mem_bytes", c->mem_bytes), 0);
	if (c->qemu_version)
		assert_int_equal(store__meta_set(st, "qemu.version", c->qemu_version), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(store__variant_add(st, fx_variants[i],
						    c->kernel ? c->kernel : "6.1.0-57 abc",
						    fx_variants[i], "", &vid[i]),
				 0);
	if (c->reorder) {
		int64_t id;

		assert_int_equal(store__metric_id(st, "memory.stat:pgmajfault", &id), 0);
	}
	for (size_t i = 0; i < c->nruns; i++) {
		const struct fx_run *r = &c->runs[i];
		int64_t id;
		char seed[16], text[64];

		assert_int_equal(store__run_add(st, vid[r->variant], r->rep, r->ord,
						7 + (uint64_t)r->rep, &id),
				 0);
		snprintf(seed, sizeof(seed), "%d", 7 + r->rep);
		assert_int_equal(store__run_prov(st, id, "seed", seed), 0);
		if (r->retry_of)
			assert_int_equal(store__run_prov(st, id, "retry_of", r->retry_of), 0);
		if (c->accel)
			assert_int_equal(store__run_prov(st, id, "accel", c->accel), 0);
		if (!strcmp(r->status, RUN_PENDING))
			continue;
		assert_int_equal(store__run_start(st, id, 1000 + r->ord), 0);
		for (int64_t seq = 0; seq < 3; seq++) {
			assert_int_equal(store__sample_begin(st, id, seq, seq * 500000000), 0);
			if (c->reorder) {
				fx_value(st, id, seq, "memory.stat:pgmajfault", "wl", r->base + seq);
				fx_value(st, id, seq, "vmstat:pswpin", "-", r->base + 10 * seq);
			} else {
				fx_value(st, id, seq, "vmstat:pswpin", "-", r->base + 10 * seq);
				fx_value(st, id, seq, "memory.stat:pgmajfault", "wl", r->base + seq);
			}
			if (r->variant == 1)
				assert_int_equal(store__lru_gen(st, id, seq, 1, "/wl", 0, 4 + seq,
								100 * seq, 50, 60),
						 0);
			if (c->extra && !strcmp(r->status, RUN_COMPLETED))
				c->extra(st, id, r, seq);
			assert_int_equal(store__sample_end(st, id, seq, true), 0);
		}
		if (!strcmp(r->status, RUN_COMPLETED))
			assert_int_equal(store__result(st, id, "anon", "throughput", r->throughput,
						       "ops/s", "higher"),
					 0);
		if (c->extra && !strcmp(r->status, RUN_COMPLETED))
			c->extra(st, id, r, -1);
		snprintf(text, sizeof(text), "run at place %d", r->ord);
		assert_int_equal(store__event(st, id, 5, "phase", text), 0);
		assert_int_equal(store__log(st, id, "console", text, strlen(text)), 0);
		if (strcmp(r->status, RUN_RUNNING))
			assert_int_equal(store__run_finish(st, id, r->status,
							   strcmp(r->status, RUN_COMPLETED)
								   ? "fixture" : NULL,
							   2000 + r->ord),
					 0);
	}
	assert_int_equal(store__commit(st), 0);
	store__close(st);
}

/* The first column of the first row, as int64; -1 without a row. */
static inline int64_t fx_int(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* Every row of sql, columns joined by '|', rows by '\n' (malloc'd). */
static inline char *fx_rows(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare '%s': %s", sql, sqlite3_errmsg(db));
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(s); i++) {
			const char *t = (const char *)sqlite3_column_text(s, i);

			fprintf(f, "%s%s", i ? "|" : "", t ? t : "NULL");
		}
		fputc('\n', f);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	fclose(f);
	return out;
}

static inline void fx_assert_same(const char *a, const char *b, const char *sql)
{
	char *x = fx_rows(a, sql), *y = fx_rows(b, sql);

	if (strcmp(x, y))
		fail_msg("'%s' differs:\n%s:\n%s\n%s:\n%s", sql, a, x, b, y);
	free(x);
	free(y);
}

#endif
