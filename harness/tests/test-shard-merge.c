// SPDX-License-Identifier: GPL-2.0
/*
 * Shards and merge: "I/N" parsing, which repetitions a shard runs, and
 * merge__run() on campaign databases written through the store: shards
 * merged equal the unsharded campaign row for row (ids renumbered, names
 * matched), other plans are refused, duplicates are kept once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "campaign-fixture.h"
#include "history.h"
#include "merge.h"
#include "shard.h"

static void test_shard_parse(void **state)
{
	static const struct {
		const char *s;
		int i, n;
	} good[] = { { "1/1", 1, 1 }, { "2/4", 2, 4 }, { "4/4", 4, 4 }, { "1000/1000", 1000, 1000 },
		     { "17/250", 17, 250 } };
	static const char *const bad[] = { "", "1", "/2", "2/", "0/2", "3/2", "1/0", "a/b",
					   "1/2x", "01/2", "1/02", "+1/2", "-1/2", " 1/2", "1/2 ",
					   "1//2", "1/2/3", "1/1001", "99999/99999", "0x1/2" };
	struct shard sh = { .index = 9, .count = 9 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(shard__parse(good[i].s, &sh), 0);
		assert_int_equal(sh.index, good[i].i);
		assert_int_equal(sh.count, good[i].n);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		sh = (struct shard){ .index = 9, .count = 9 };
		if (shard__parse(bad[i], &sh) != -EINVAL)
			fail_msg("'%s' parsed", bad[i]);
		/* ret_ untouched on failure */
		assert_int_equal(sh.index, 9);
		assert_int_equal(sh.count, 9);
	}
	assert_int_equal(shard__parse(NULL, &sh), -EINVAL);
}

static void test_shard_slices(void **state)
{
	struct shard none = { 0 }, two = { .index = 2, .count = 3 };
	char got[32] = "";
	size_t len = 0;

	(void)state;
	for (int rep = 0; rep < 7; rep++) {
		assert_true(shard__has(&none, rep));
		if (shard__has(&two, rep))
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%d ", rep);
	}
	assert_string_equal(got, "1 4 ");
	/* every repetition in exactly one shard */
	for (int rep = 0; rep < 20; rep++) {
		int owners = 0;

		for (int i = 1; i <= 4; i++)
			owners += shard__has(&(struct shard){ .index = i, .count = 4 }, rep);
		assert_int_equal(owners, 1);
	}
	assert_true(shard__fits(&none, 1));
	assert_true(shard__fits(&two, 3));
	assert_false(shard__fits(&two, 2));
}

struct dir {
	char path[64];
};

static int setup(void **state)
{
	struct dir *d = xcalloc(1, sizeof(*d));

	strcpy(d->path, "/tmp/test-merge.XXXXXX");
	if (!mkdtemp(d->path))
		return -1;
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;
	char *cmd = xasprintf("rm -rf '%s'", d->path);
	int r = system(cmd);

	free(cmd);
	free(d);
	return r == 0 ? 0 : -1;
}

static char *in_dir(void **state, const char *name)
{
	return xasprintf("%s/%s", ((struct dir *)*state)->path, name);
}

/* The unsharded campaign: 2 variants x 2 repetitions, places 0..3. */
static const struct fx_run full_runs[] = {
	{ 0, 0, 0, RUN_COMPLETED, 100, 1000, NULL },
	{ 1, 0, 1, RUN_COMPLETED, 120, 2000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 110, 3000, NULL },
	{ 1, 1, 3, RUN_COMPLETED, 130, 4000, NULL },
};

/* Shard 1/2 and 2/2 of it (shard 2 registers its metrics in another order). */
static void write_shards(void **state, char **s1, char **s2)
{
	*s1 = in_dir(state, "s1.db");
	*s2 = in_dir(state, "s2.db");
	fx_write(*s1, &(struct fx_campaign){ .campaign = "twin-1-s1of2", .shard = "1/2",
					     .created = "2000", .runs = full_runs, .nruns = 2 });
	fx_write(*s2, &(struct fx_campaign){ .campaign = "twin-1-s2of2", .shard = "2/2",
					     .created = "1990", .reorder = true,
					     .runs = full_runs + 2, .nruns = 2 });
}

/* Runs and every row hanging off them, by names and places, not ids. */
static const char *const same_sql[] = {
	"SELECT v.name, r.rep, r.ord, r.seed, r.status, r.reason, r.started_ns, r.ended_ns "
	"FROM run r JOIN variant v ON v.id = r.variant_id ORDER BY r.ord",
	"SELECT name, kernel, lru_mode, knobs FROM variant ORDER BY id",
	"SELECT r.ord, x.seq, x.t_ns, x.metric, x.scope, x.v FROM v_value x JOIN run r ON "
	"r.id = x.run_id ORDER BY r.ord, x.seq, x.metric, x.scope",
	"SELECT r.ord, s.seq, s.t_ns, s.complete FROM sample s JOIN run r ON r.id = s.run_id "
	"ORDER BY r.ord, s.seq",
	"SELECT r.ord, g.seq, g.memcg_id, g.memcg_path, g.node, g.gen, g.age_ms, g.anon, g.file "
	"FROM lru_gen g JOIN run r ON r.id = g.run_id ORDER BY r.ord, g.seq, g.gen",
	"SELECT r.ord, x.workload, x.key, x.value, x.unit, x.better FROM result x JOIN run r ON "
	"r.id = x.run_id ORDER BY r.ord",
	"SELECT r.ord, e.t_ns, e.kind, e.text FROM event e JOIN run r ON r.id = e.run_id "
	"ORDER BY r.ord, e.id",
	"SELECT r.ord, l.name, l.text FROM log l JOIN run r ON r.id = l.run_id ORDER BY r.ord",
	"SELECT r.ord, p.key, p.value FROM run_prov p JOIN run r ON r.id = p.run_id "
	"ORDER BY r.ord, p.key",
	"SELECT name, source, unit, kind, better FROM metric ORDER BY name",
	"SELECT key, value FROM meta WHERE key IN ('plan.text', 'plan.path', 'plan.baseline', "
	"'repetitions') ORDER BY key",
};

static void test_shards_merge_to_unsharded(void **state)
{
	_cleanup_free_ char *full = in_dir(state, "full.db"), *out = in_dir(state, "out.db");
	_cleanup_free_ char *s1 = NULL, *s2 = NULL, *err = NULL, *meta = NULL;
	const char *in[2];
	struct merge_stats ms = { 0 };

	fx_write(full, &(struct fx_campaign){ .campaign = "twin-0", .runs = full_runs,
					      .nruns = 4 });
	write_shards(state, &s1, &s2);
	/* the shards really number metrics differently */
	assert_int_not_equal(fx_int(s1, "SELECT id FROM metric WHERE name = 'vmstat:pswpin'"),
			     fx_int(s2, "SELECT id FROM metric WHERE name = 'vmstat:pswpin'"));
	in[0] = s2; /* shard 2 first: OUT's ids follow neither shard */
	in[1] = s1;
	assert_int_equal(merge__run(out, in, 2, &ms, &err), 0);
	assert_null(err);
	for (size_t i = 0; i < ARRAY_SIZE(same_sql); i++)
		fx_assert_same(full, out, same_sql[i]);
	assert_int_equal(ms.inputs, 2);
	assert_int_equal(ms.runs_in, 4);
	assert_int_equal(ms.runs, 4);
	assert_int_equal(ms.duplicates, 0);
	assert_int_equal(ms.replaced, 0);
	assert_int_equal(ms.samples, 12);
	assert_int_equal(ms.values, 24);
	assert_int_equal(fx_int(out, "SELECT COUNT(*) FROM pragma_integrity_check WHERE "
				     "integrity_check = 'ok'"), 1);
	assert_int_equal(fx_int(out, "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
	/* what the merge says about itself; the earliest input's start; no shard */
	meta = fx_rows(out, "SELECT key, value FROM meta WHERE key IN ('campaign', 'created', "
			    "'merge.inputs', 'merge.input.1', 'merge.input.2', 'shard', 'host') "
			    "ORDER BY key");
	{
		_cleanup_free_ char *want = xasprintf(
			"campaign|twin-1-merged\ncreated|1990\nhost|fixture\nmerge.input.1|%s: "
			"campaign twin-1-s2of2, shard 2/2, 2 runs: 2 taken, 0 duplicates, 0 "
			"replaced\nmerge.input.2|%s: campaign twin-1-s1of2, shard 1/2, 2 runs: 2 "
			"taken, 0 duplicates, 0 replaced\nmerge.inputs|2\n",
			s2, s1);

		assert_string_equal(meta, want);
	}
	/* one file, renamed into place: no leftovers */
	{
		_cleanup_free_ char *tmp = xasprintf("%s.merging", out);
		_cleanup_free_ char *wal = xasprintf("%s-wal", out);

		assert_int_equal(access(tmp, F_OK), -1);
		assert_int_equal(access(wal, F_OK), -1);
	}
}

/*
 * Shards of two machines: the merged meta's host.* is the first shard's, so
 * the merge says so (host.classes, stats) and history files the night in a
 * class of its own, comparable with neither machine's nights by default.
 * Shards of one machine say nothing.
 */
static void test_two_machines(void **state)
{
	_cleanup_free_ char *s1 = in_dir(state, "m1.db"), *s2 = in_dir(state, "m2.db");
	_cleanup_free_ char *same = in_dir(state, "m2same.db"), *out = in_dir(state, "mixed.db");
	_cleanup_free_ char *one = in_dir(state, "one.db"), *hist = in_dir(state, "h.db");
	_cleanup_free_ char *err = NULL, *classes = NULL, *night = NULL;
	struct merge_stats ms = { 0 };
	struct history *h = NULL;
	struct store *st = NULL;
	int64_t id;
	const char *in[2];

	fx_write(s1, &(struct fx_campaign){ .campaign = "twin-1-s1of2", .shard = "1/2",
					    .runs = full_runs, .nruns = 2, .cpu_model = "AMD EPYC",
					    .cpus = "2", .mem_bytes = "25276194816", .accel = "tcg" });
	fx_write(s2, &(struct fx_campaign){ .campaign = "twin-1-s2of2", .shard = "2/2",
					    .runs = full_runs + 2, .nruns = 2,
					    .cpu_model = "Intel Xeon", .cpus = "56",
					    .mem_bytes = "16750372454", .accel = "kvm" });
	fx_write(same, &(struct fx_campaign){ .campaign = "twin-1-s2of2", .shard = "2/2",
					      .runs = full_runs + 2, .nruns = 2,
					      .cpu_model = "AMD EPYC", .cpus = "2",
					      .mem_bytes = "25276194816", .accel = "tcg" });
	in[0] = s1;
	in[1] = same;
	assert_int_equal(merge__run(one, in, 2, &ms, &err), 0);
	assert_int_equal(ms.host_classes, 1);
	assert_int_equal(fx_int(one, "SELECT COUNT(*) FROM meta WHERE key = 'host.classes'"), 0);
	in[1] = s2;
	assert_int_equal(merge__run(out, in, 2, &ms, &err), 0);
	assert_int_equal(ms.host_classes, 2);
	classes = fx_rows(out, "SELECT value FROM meta WHERE key = 'host.classes'");
	assert_string_equal(classes, "AMD EPYC/2cpu/24GiB/tcg/qemu-? + Intel Xeon/56cpu/16GiB/kvm/qemu-?\n");
	/* history: the merged night is its own class */
	assert_int_equal(history__open(hist, &h, &err), 0);
	assert_int_equal(store__open_readonly(out, &st), 0);
	assert_int_equal(history__append(h, st, out, &id), 0);
	store__close(st);
	history__close(h);
	night = fx_rows(hist, "SELECT host_class FROM night");
	assert_string_equal(night, "mixed(AMD EPYC/2cpu/24GiB/tcg/qemu-? + "
				   "Intel Xeon/56cpu/16GiB/kvm/qemu-?)\n");
}

static void test_refuse_other_plan(void **state)
{
	_cleanup_free_ char *other = in_dir(state, "other.db"), *out = in_dir(state, "out.db");
	_cleanup_free_ char *kern = in_dir(state, "kern.db"), *s1 = NULL, *s2 = NULL;
	_cleanup_free_ char *plan2 = xasprintf("%s\n# one more line\n", fx_plan);
	_cleanup_free_ char *tmp = xasprintf("%s.merging", out);
	char *err = NULL;
	const char *in[2];

	write_shards(state, &s1, &s2);
	fx_write(other, &(struct fx_campaign){ .plan = plan2, .campaign = "twin-2-s2of2",
					       .runs = full_runs + 2, .nruns = 2 });
	in[0] = s1;
	in[1] = other;
	assert_int_equal(merge__run(out, in, 2, NULL, &err), -EINVAL);
	assert_non_null(strstr(err, s1));
	assert_non_null(strstr(err, other));
	assert_non_null(strstr(err, "different plans"));
	free(err);
	err = NULL;
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(access(tmp, F_OK), -1);

	/* the same plan text on another kernel is another experiment */
	fx_write(kern, &(struct fx_campaign){ .campaign = "twin-3-s2of2", .kernel = "6.1.0-58 def",
					      .runs = full_runs + 2, .nruns = 2 });
	in[1] = kern;
	assert_int_equal(merge__run(out, in, 2, NULL, &err), -EINVAL);
	assert_non_null(strstr(err, "variant 'classic' differs"));
	assert_non_null(strstr(err, "6.1.0-58 def"));
	free(err);
	err = NULL;
	assert_int_equal(access(out, F_OK), -1);

	/* not a campaign database; a missing one; an OUT that exists */
	{
		_cleanup_free_ char *junk = in_dir(state, "junk.db"), *missing = in_dir(state, "no.db");

		FILE *f = fopen(junk, "w");

		assert_non_null(f);
		fputs("not sqlite at all, just text\n", f);
		fclose(f);
		in[1] = junk;
		assert_int_equal(merge__run(out, in, 2, NULL, &err), -EINVAL);
		assert_non_null(strstr(err, junk));
		free(err);
		err = NULL;
		in[1] = missing;
		assert_int_equal(merge__run(out, in, 2, NULL, &err), -ENOENT);
		free(err);
		err = NULL;
		in[1] = s2;
		assert_int_equal(merge__run(s2, in, 2, NULL, &err), -EEXIST);
		assert_non_null(strstr(err, "exists"));
		free(err);
	}
}

static void test_self_merge_dedups(void **state)
{
	_cleanup_free_ char *out = in_dir(state, "self.db"), *s1 = NULL, *s2 = NULL, *err = NULL;
	const char *in[3];
	struct merge_stats ms = { 0 };

	write_shards(state, &s1, &s2);
	in[0] = in[1] = in[2] = s1;
	assert_int_equal(merge__run(out, in, 3, &ms, &err), 0);
	assert_int_equal(ms.runs_in, 6);
	assert_int_equal(ms.runs, 2);
	assert_int_equal(ms.duplicates, 4);
	assert_int_equal(ms.values, 12);
	for (size_t i = 0; i < ARRAY_SIZE(same_sql); i++)
		fx_assert_same(s1, out, same_sql[i]);
}

/* A run pending in one input and completed in the other: the completed copy, in either order. */
static void test_prefer_completed(void **state)
{
	static const struct fx_run pending[] = {
		{ 0, 0, 0, RUN_PENDING, 0, 0, NULL },
		{ 1, 0, 1, RUN_RUNNING, 0, 500, NULL },
	};
	_cleanup_free_ char *a = in_dir(state, "pending.db"), *o1 = in_dir(state, "o1.db");
	_cleanup_free_ char *o2 = in_dir(state, "o2.db"), *s1 = NULL, *s2 = NULL, *err = NULL;
	const char *in[2];
	struct merge_stats ms = { 0 };

	write_shards(state, &s1, &s2);
	fx_write(a, &(struct fx_campaign){ .campaign = "twin-1-s1of2", .shard = "1/2",
					   .runs = pending, .nruns = 2 });
	in[0] = a;
	in[1] = s1;
	assert_int_equal(merge__run(o1, in, 2, &ms, &err), 0);
	assert_int_equal(ms.runs, 2);
	assert_int_equal(ms.replaced, 2);
	assert_int_equal(ms.duplicates, 0);
	assert_int_equal(ms.unfinished, 0);
	for (size_t i = 0; i < 9; i++)
		fx_assert_same(s1, o1, same_sql[i]);
	in[0] = s1;
	in[1] = a;
	assert_int_equal(merge__run(o2, in, 2, &ms, &err), 0);
	assert_int_equal(ms.runs, 2);
	assert_int_equal(ms.replaced, 0);
	assert_int_equal(ms.duplicates, 2);
	for (size_t i = 0; i < 9; i++)
		fx_assert_same(s1, o2, same_sql[i]);
}

/*
 * A shard run twice: the first time its first run failed in the
 * infrastructure and was retried at place 2; the second time it completed at
 * place 0. The repetition is measured once in OUT (no double count); taken
 * first, the failed attempt is kept and retry_of names OUT's id of it.
 */
static void test_retried_shard_counted_once(void **state)
{
	static const struct fx_run first[] = {
		{ 0, 0, 0, RUN_FAILED_INFRA, 0, 10, NULL },
		{ 1, 0, 1, RUN_COMPLETED, 120, 2000, NULL },
		{ 0, 0, 2, RUN_COMPLETED, 101, 1000, "1" },
	};
	static const struct fx_run again[] = {
		{ 0, 0, 0, RUN_COMPLETED, 100, 1000, NULL },
		{ 1, 0, 1, RUN_COMPLETED, 121, 2000, NULL },
	};
	_cleanup_free_ char *a = in_dir(state, "first.db"), *b = in_dir(state, "again.db");
	_cleanup_free_ char *out = in_dir(state, "retried.db"), *out2 = in_dir(state, "r2.db");
	_cleanup_free_ char *err = NULL, *runs = NULL;
	const char *in[2];
	struct merge_stats ms = { 0 };

	fx_write(a, &(struct fx_campaign){ .campaign = "twin-5-s1of2", .shard = "1/2",
					   .runs = first, .nruns = 3 });
	fx_write(b, &(struct fx_campaign){ .campaign = "twin-6-s1of2", .shard = "1/2",
					   .runs = again, .nruns = 2 });
	/* b first: OUT ids of a's runs are 3.. */
	in[0] = b;
	in[1] = a;
	assert_int_equal(merge__run(out, in, 2, &ms, &err), 0);
	runs = fx_rows(out, "SELECT v.name, r.rep, r.ord, r.status, x.value FROM run r "
			    "JOIN variant v ON v.id = r.variant_id LEFT JOIN result x ON "
			    "x.run_id = r.id ORDER BY r.ord, r.id");
	/* the failed attempt at place 0 is the same attempt as b's completed one */
	assert_string_equal(runs, "classic|0|0|completed|100.0\n"
				  "mglru|0|1|completed|121.0\n");
	assert_int_equal(ms.duplicates, 3);
	free(TAKE_PTR(runs));

	/* a first: its completed retry at place 2 wins over b's copy at place 0 */
	in[0] = a;
	in[1] = b;
	assert_int_equal(merge__run(out2, in, 2, &ms, &err), 0);
	runs = fx_rows(out2, "SELECT v.name, r.rep, r.ord, r.status, x.value FROM run r "
			     "JOIN variant v ON v.id = r.variant_id LEFT JOIN result x ON "
			     "x.run_id = r.id ORDER BY r.ord, r.id");
	assert_string_equal(runs, "classic|0|0|failed-infra|NULL\n"
				  "mglru|0|1|completed|120.0\n"
				  "classic|0|2|completed|101.0\n");
	assert_int_equal(fx_int(out2, "SELECT CAST(p.value AS INTEGER) = (SELECT id FROM run "
				      "WHERE status = 'failed-infra') FROM run_prov p "
				      "WHERE p.key = 'retry_of'"),
			 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shard_parse),
		cmocka_unit_test(test_shard_slices),
		cmocka_unit_test_setup_teardown(test_shards_merge_to_unsharded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuse_other_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_machines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_self_merge_dedups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prefer_completed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retried_shard_counted_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
