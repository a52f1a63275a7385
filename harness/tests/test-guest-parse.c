// SPDX-License-Identifier: GPL-2.0
/*
 * The guest agent's pure parsers (harness/common/procfs-parse.c) on files
 * captured from real guests of Debian's 6.1.0-57-cloud-amd64 kernel under
 * TCG (fixtures/guest/, see its README.md): a memcg at 128M with MGLRU and
 * with the classic LRU, and global reclaim (kswapd busy) with MGLRU. Exact
 * values, then the malformed inputs a patched kernel could produce.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "procfs-parse.h"
#include "util.h"

#define FIX "harness/tests/fixtures/guest/6.1.0-57-cloud-amd64/"

static char *fixture(const char *dir, const char *name, size_t *ret_len)
{
	_cleanup_free_ char *path = xasprintf(FIX "%s/%s", dir, name);
	char *buf = NULL;

	if (read_file(path, 16u << 20, &buf, ret_len) < 0)
		fail_msg("cannot read fixture %s", path);
	return buf;
}

/* Collects the pairs of a flat file. */
struct kv_list {
	size_t n;
	char keys[256][64];
	int64_t values[256];
};

static int collect_kv(void *arg, const char *key, size_t key_len, int64_t value)
{
	struct kv_list *l = arg;

	assert_true(l->n < ARRAY_SIZE(l->keys));
	assert_true(key_len > 0 && key_len < sizeof(l->keys[0]));
	memcpy(l->keys[l->n], key, key_len);
	l->keys[l->n][key_len] = '\0';
	l->values[l->n++] = value;
	return 0;
}

static int64_t kv_get(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->keys[i], key))
			return l->values[i];
	fail_msg("key '%s' not parsed", key);
	return -1;
}

static void parse_flat_fixture(const char *dir, const char *name, struct kv_list *l)
{
	size_t len;
	_cleanup_free_ char *buf = fixture(dir, name, &len);
	unsigned bad = 99;

	memset(l, 0, sizeof(*l));
	assert_int_equal(procfs_parse_flat(buf, len, collect_kv, l, &bad), 0);
	assert_int_equal(bad, 0);
}

/* What each capture holds, read off the files by hand. */
struct lru_gen_expect {
	unsigned memcg_id;
	uint64_t seq, age_ms, anon, file;
	const char *path;
};

static const struct capture {
	const char *dir;
	int64_t vm_free, vm_pgfault, vm_pgmajfault, vm_pswpout, vm_pgscan_anon, vm_refault_anon,
		vm_pgscan_kswapd, vm_pgscan_file;
	int64_t st_anon, st_pgmajfault, st_pgscan, st_refault_anon;
	int64_t ev_max;
	uint64_t current;
	int64_t memcg_some, memcg_full, mem_some, mem_full, cpu_some;
	uint64_t kswapd_stime;
	uint64_t wl_utime, wl_stime;
	size_t n_gens, n_gens_full;
	struct lru_gen_expect gens[8];
} captures[] = {
	{
		.dir = "mglru-memcg",
		.vm_free = 206962, .vm_pgfault = 156025, .vm_pgmajfault = 102403,
		.vm_pswpout = 118969, .vm_pgscan_anon = 149523, .vm_refault_anon = 48359,
		.vm_pgscan_kswapd = 0,
		.st_anon = 132939776, .st_pgmajfault = 102404, .st_pgscan = 149523,
		.st_refault_anon = 48359,
		.ev_max = 1859, .current = 134066176,
		.memcg_some = 8865285, .memcg_full = 8865285,
		.mem_some = 8013789, .mem_full = 7924885, .cpu_some = 1311611,
		.kswapd_stime = 0, .wl_utime = 77, .wl_stime = 1522,
		.n_gens = 7, .n_gens_full = 8,
		.gens = {
			{ 1, 0, 19800, 0, 0, "/" },
			{ 1, 1, 19800, 0, 1, "/" },
			{ 1, 2, 19800, 852, 0, "/" },
			{ 1, 3, 19800, 357, 0, "/" },
			{ 2, 12, 2568, 3492, 0, "/wl" },
			{ 2, 13, 2540, 24549, 0, "/wl" },
			{ 2, 14, 1056, 4558, 0, "/wl" },
		},
	},
	{
		.dir = "classic-memcg",
		.vm_free = 206987, .vm_pgfault = 156031, .vm_pgmajfault = 102409,
		.vm_pswpout = 118945, .vm_pgscan_anon = 249562, .vm_refault_anon = 102402,
		.vm_pgscan_kswapd = 0,
		.st_anon = 133722112, .st_pgmajfault = 102410, .st_pgscan = 249562,
		.st_refault_anon = 102410,
		.ev_max = 2899, .current = 134184960,
		.memcg_some = 5221491, .memcg_full = 5221491,
		.mem_some = 5163995, .mem_full = 5120211, .cpu_some = 932272,
		.kswapd_stime = 0, .wl_utime = 45, .wl_stime = 1010,
		/* lru_gen still lists (empty) generations with MGLRU off. */
		.n_gens = 8, .n_gens_full = 8,
		.gens = {
			{ 1, 0, 12944, 0, 0, "/" },
			{ 1, 1, 12944, 0, 0, "/" },
			{ 1, 2, 12944, 0, 0, "/" },
			{ 1, 3, 12944, 0, 0, "/" },
			{ 2, 0, 10852, 0, 0, "/wl" },
			{ 2, 1, 10852, 0, 0, "/wl" },
			{ 2, 2, 10852, 0, 0, "/wl" },
			{ 2, 3, 10852, 0, 0, "/wl" },
		},
	},
	{
		.dir = "mglru-global",
		.vm_free = 1180, .vm_pgfault = 305965, .vm_pgmajfault = 198824,
		.vm_pswpout = 224528, .vm_pgscan_anon = 481193, .vm_refault_anon = 50764,
		.vm_pgscan_kswapd = 363783, .vm_pgscan_file = 1,
		.st_anon = 319479808, .st_pgmajfault = 198718, .st_pgscan = 479437,
		.st_refault_anon = 50649,
		.ev_max = 0, .current = 320712704,
		.memcg_some = 1766753, .memcg_full = 1766753,
		.mem_some = 7425109, .mem_full = 7328464, .cpu_some = 1106550,
		.kswapd_stime = 1368, .wl_utime = 71, .wl_stime = 1849,
		.n_gens = 6, .n_gens_full = 8,
		.gens = {
			{ 1, 35, 120, 317, 0, "/" },
			{ 1, 36, 112, 24, 0, "/" },
			{ 1, 37, 28, 71, 0, "/" },
			{ 2, 19, 3156, 41440, 0, "/wl" },
			{ 2, 20, 1356, 23403, 0, "/wl" },
			{ 2, 21, 128, 13162, 0, "/wl" },
		},
	},
};

static void test_vmstat(void **state)
{
	const struct capture *c = *state;
	struct kv_list l;

	parse_flat_fixture(c->dir, "vmstat", &l);
	assert_int_equal(l.n, 171);
	assert_string_equal(l.keys[0], "nr_free_pages");
	assert_int_equal(l.values[0], c->vm_free);
	assert_string_equal(l.keys[l.n - 1], "nr_unstable");
	assert_int_equal(kv_get(&l, "pgfault"), c->vm_pgfault);
	assert_int_equal(kv_get(&l, "pgmajfault"), c->vm_pgmajfault);
	assert_int_equal(kv_get(&l, "pswpout"), c->vm_pswpout);
	assert_int_equal(kv_get(&l, "pgscan_anon"), c->vm_pgscan_anon);
	assert_int_equal(kv_get(&l, "workingset_refault_anon"), c->vm_refault_anon);
	assert_int_equal(kv_get(&l, "pgscan_kswapd"), c->vm_pgscan_kswapd);
	assert_int_equal(kv_get(&l, "pgscan_file"), c->vm_pgscan_file);
}

static void test_memory_stat(void **state)
{
	const struct capture *c = *state;
	struct kv_list l;

	parse_flat_fixture(c->dir, "memory.stat", &l);
	assert_int_equal(l.n, 47);
	assert_string_equal(l.keys[0], "anon");
	assert_int_equal(l.values[0], c->st_anon);
	assert_string_equal(l.keys[l.n - 1], "thp_collapse_alloc");
	assert_int_equal(kv_get(&l, "file"), 0);
	assert_int_equal(kv_get(&l, "pgmajfault"), c->st_pgmajfault);
	assert_int_equal(kv_get(&l, "pgscan"), c->st_pgscan);
	assert_int_equal(kv_get(&l, "workingset_refault_anon"), c->st_refault_anon);
}

static void test_memory_events(void **state)
{
	static const char *const keys[] = { "low", "high", "max", "oom", "oom_kill",
					    "oom_group_kill" };
	const struct capture *c = *state;
	struct kv_list l;

	parse_flat_fixture(c->dir, "memory.events", &l);
	assert_int_equal(l.n, ARRAY_SIZE(keys));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		assert_string_equal(l.keys[i], keys[i]);
	assert_int_equal(kv_get(&l, "max"), c->ev_max);
	assert_int_equal(kv_get(&l, "oom_kill"), 0);
}

static void test_memory_current(void **state)
{
	const struct capture *c = *state;
	size_t len;
	_cleanup_free_ char *buf = fixture(c->dir, "memory.current", &len);
	uint64_t v = 0;

	assert_int_equal(procfs_parse_u64(buf, len, &v), 0);
	assert_int_equal(v, c->current);
}

static void check_psi(const char *dir, const char *name, int64_t some, int64_t full)
{
	size_t len;
	_cleanup_free_ char *buf = fixture(dir, name, &len);
	struct procfs_psi psi;

	assert_int_equal(procfs_parse_psi(buf, len, &psi), 0);
	assert_true(psi.has_some);
	assert_true(psi.has_full);
	assert_int_equal(psi.some_total, some);
	assert_int_equal(psi.full_total, full);
}

static void test_psi(void **state)
{
	const struct capture *c = *state;

	check_psi(c->dir, "memory.pressure", c->memcg_some, c->memcg_full);
	check_psi(c->dir, "pressure-memory", c->mem_some, c->mem_full);
	check_psi(c->dir, "pressure-io", 0, 0);
	/* 6.1 prints a system-wide cpu "full" line, always zero. */
	check_psi(c->dir, "pressure-cpu", c->cpu_some, 0);
}

struct gen_list {
	size_t n;
	struct procfs_lru_gen_row rows[16];
	char paths[16][32];
};

static int collect_gen(void *arg, const struct procfs_lru_gen_row *row)
{
	struct gen_list *l = arg;

	assert_true(l->n < ARRAY_SIZE(l->rows));
	assert_true(row->path_len < sizeof(l->paths[0]));
	l->rows[l->n] = *row;
	memcpy(l->paths[l->n], row->path, row->path_len);
	l->paths[l->n][row->path_len] = '\0';
	l->n++;
	return 0;
}

static void parse_gen_fixture(const char *dir, const char *name, struct gen_list *l)
{
	size_t len;
	_cleanup_free_ char *buf = fixture(dir, name, &len);
	unsigned bad = 99;

	memset(l, 0, sizeof(*l));
	assert_int_equal(procfs_parse_lru_gen(buf, len, collect_gen, l, &bad), 0);
	assert_int_equal(bad, 0);
}

static void test_lru_gen(void **state)
{
	const struct capture *c = *state;
	struct gen_list l;

	parse_gen_fixture(c->dir, "lru_gen", &l);
	assert_int_equal(l.n, c->n_gens);
	for (size_t i = 0; i < l.n; i++) {
		const struct lru_gen_expect *e = &c->gens[i];

		assert_int_equal(l.rows[i].memcg_id, e->memcg_id);
		assert_int_equal(l.rows[i].node, 0);
		assert_int_equal(l.rows[i].seq, e->seq);
		assert_int_equal(l.rows[i].age_ms, e->age_ms);
		assert_int_equal(l.rows[i].anon, e->anon);
		assert_int_equal(l.rows[i].file, e->file);
		assert_string_equal(l.paths[i], e->path);
	}
}

/* lru_gen_full: tier and mm-walk rows skipped, not counted as malformed. */
static void test_lru_gen_full(void **state)
{
	const struct capture *c = *state;
	struct gen_list l;

	parse_gen_fixture(c->dir, "lru_gen_full", &l);
	assert_int_equal(l.n, c->n_gens_full);
	assert_string_equal(l.paths[0], "/");
	assert_string_equal(l.paths[l.n - 1], "/wl");
	assert_int_equal(l.rows[l.n - 1].seq, c->gens[c->n_gens - 1].seq);
	assert_int_equal(l.rows[l.n - 1].anon, c->gens[c->n_gens - 1].anon);
}

static void test_lru_gen_full_marks(void **state)
{
	struct gen_list l;

	(void)state;
	/* The oldest wl generation is marked evicted: "0x 0x". */
	parse_gen_fixture("mglru-memcg", "lru_gen_full", &l);
	assert_int_equal(l.rows[4].memcg_id, 2);
	assert_int_equal(l.rows[4].seq, 11);
	assert_int_equal(l.rows[4].age_ms, 2612);
	assert_int_equal(l.rows[4].anon, 0);
	assert_int_equal(l.rows[4].file, 0);
}

static void test_pid_stat(void **state)
{
	const struct capture *c = *state;
	size_t len;
	_cleanup_free_ char *ksw = fixture(c->dir, "pid-stat-kswapd0", &len);
	struct procfs_pid_stat st;

	assert_int_equal(procfs_parse_pid_stat(ksw, len, &st), 0);
	assert_string_equal(st.comm, "kswapd0");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.utime, 0);
	assert_int_equal(st.stime, c->kswapd_stime);

	_cleanup_free_ char *wl = fixture(c->dir, "pid-stat-workload", &len);

	assert_int_equal(procfs_parse_pid_stat(wl, len, &st), 0);
	assert_string_equal(st.comm, "capture");
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.utime, c->wl_utime);
	assert_int_equal(st.stime, c->wl_stime);
}

/* schedstat: the run time in ns, its first field; malformed is refused. */
static void test_schedstat(void **state)
{
	static const char good[] = "1523340051 88012345 4021\n";
	static const char *const bad[] = { "", "12 34", "x 1 2\n", "-5 1 2\n" };
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(procfs_parse_schedstat(good, strlen(good), &ns), 0);
	assert_int_equal(ns, 1523340051ull);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(procfs_parse_schedstat(bad[i], strlen(bad[i]), &ns), -EINVAL);
}

/* --- malformed input --- */

static void test_flat_malformed(void **state)
{
	static const char text[] = "a 1\n"
				   "\n"
				   "novalue\n"
				   "b x\n"
				   "c 1 2\n"
				   "d -5\n"
				   "e 99999999999999999999\n"
				   "f 9223372036854775807\n"
				   "g -9223372036854775808\n"
				   "  h\t7  \n"
				   "i 3"; /* no final newline */
	struct kv_list l = { 0 };
	unsigned bad = 0;

	(void)state;
	assert_int_equal(procfs_parse_flat(text, strlen(text), collect_kv, &l, &bad), 0);
	assert_int_equal(bad, 4);
	assert_int_equal(l.n, 6);
	assert_int_equal(kv_get(&l, "a"), 1);
	assert_int_equal(kv_get(&l, "d"), -5);
	assert_int_equal(kv_get(&l, "f"), INT64_MAX);
	assert_int_equal(kv_get(&l, "g"), INT64_MIN);
	assert_int_equal(kv_get(&l, "h"), 7);
	assert_int_equal(kv_get(&l, "i"), 3);
}

/* The parser must not read past len: no NUL terminator is needed. */
static void test_flat_unterminated(void **state)
{
	char buf[8];
	struct kv_list l = { 0 };

	(void)state;
	memcpy(buf, "ab 12345", 8); /* not terminated; cut after "ab 12" */
	assert_int_equal(procfs_parse_flat(buf, 5, collect_kv, &l, NULL), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.values[0], 12);
}

static int stop_at_second(void *arg, const char *key, size_t key_len, int64_t value)
{
	int *calls = arg;

	(void)key;
	(void)key_len;
	(void)value;
	return ++*calls == 2 ? -ECANCELED : 0;
}

static void test_flat_callback_stops(void **state)
{
	static const char text[] = "a 1\nb 2\nc 3\n";
	int calls = 0;

	(void)state;
	assert_int_equal(procfs_parse_flat(text, strlen(text), stop_at_second, &calls, NULL),
			 -ECANCELED);
	assert_int_equal(calls, 2);
}

static void test_u64_malformed(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(procfs_parse_u64("max\n", 4, &v), -EINVAL);
	assert_int_equal(procfs_parse_u64("", 0, &v), -EINVAL);
	assert_int_equal(procfs_parse_u64("-1\n", 3, &v), -EINVAL);
	assert_int_equal(procfs_parse_u64("18446744073709551616\n", 21, &v), -EINVAL);
	assert_int_equal(v, 7);
	assert_int_equal(procfs_parse_u64("18446744073709551615", 20, &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_psi_malformed(void **state)
{
	static const char no_full[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n";
	static const char no_total[] = "some avg10=0.00 avg60=0.00\nfull total=x\n";
	static const char junk[] = "bogus total=1\nfull avg10=1.00 total=5\n";
	struct procfs_psi psi = { 0 };

	(void)state;
	assert_int_equal(procfs_parse_psi(no_full, strlen(no_full), &psi), 0);
	assert_true(psi.has_some);
	assert_false(psi.has_full);
	assert_int_equal(psi.some_total, 42);
	assert_int_equal(procfs_parse_psi(no_total, strlen(no_total), &psi), -EINVAL);
	assert_int_equal(procfs_parse_psi(junk, strlen(junk), &psi), -EINVAL);
	assert_int_equal(procfs_parse_psi("", 0, &psi), -EINVAL);
}

static void test_lru_gen_malformed(void **state)
{
	static const char text[] = "          5      100          1           2 \n" /* no memcg yet */
				   "memcg     3 /a b/c d\n"
				   "          5      100          1           2 \n" /* no node yet */
				   " node     0\n"
				   "          6      200          3           4 \n"
				   "          7      abc          3           4 \n"
				   "          8      200          3\n"
				   "memcg 99999 /too/big\n"
				   " node     1\n"
				   "          9      300          5          6x\n"
				   "memcg     4 /e\n"
				   " node     1 extra\n"
				   "         10      400          7           8 \n";
	struct gen_list l = { 0 };
	unsigned bad = 0;

	(void)state;
	assert_int_equal(procfs_parse_lru_gen(text, strlen(text), collect_gen, &l, &bad), 0);
	/* Bad: two rows without context, "abc", a 3-field row, the memcg id
	 * over 65535, the rows under it, the node line with an extra field
	 * and the row under it. */
	assert_int_equal(bad, 8);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.rows[0].memcg_id, 3);
	assert_int_equal(l.rows[0].seq, 6);
	assert_int_equal(l.rows[0].age_ms, 200);
	assert_int_equal(l.rows[0].anon, 3);
	assert_int_equal(l.rows[0].file, 4);
	assert_string_equal(l.paths[0], "/a b/c d");
}

static void test_pid_stat_odd_comm(void **state)
{
	static const char odd[] = "77 (a) (b c)) S 1 77 77 0 -1 4194560 1 2 3 4 150 250 0 0 20 0\n";
	static const char short_line[] = "77 (x) S 1 2 3\n";
	static const char no_paren[] = "77 x S 1 2 3 4 5 6 7 8 9 10 11 12\n";
	struct procfs_pid_stat st;

	(void)state;
	assert_int_equal(procfs_parse_pid_stat(odd, strlen(odd), &st), 0);
	assert_string_equal(st.comm, "a) (b c)");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.utime, 150);
	assert_int_equal(st.stime, 250);
	assert_int_equal(procfs_parse_pid_stat(short_line, strlen(short_line), &st), -EINVAL);
	assert_int_equal(procfs_parse_pid_stat(no_paren, strlen(no_paren), &st), -EINVAL);
}

/* One test per capture, named after it (the order of captures[]). */
#define PER_CAPTURE(fn)                                                                            \
	{ #fn " mglru-memcg", fn, NULL, NULL, (void *)&captures[0] },                               \
		{ #fn " classic-memcg", fn, NULL, NULL, (void *)&captures[1] },                     \
		{ #fn " mglru-global", fn, NULL, NULL, (void *)&captures[2] }

int main(void)
{
	const struct CMUnitTest tests[] = {
		PER_CAPTURE(test_vmstat),
		PER_CAPTURE(test_memory_stat),
		PER_CAPTURE(test_memory_events),
		PER_CAPTURE(test_memory_current),
		PER_CAPTURE(test_psi),
		PER_CAPTURE(test_lru_gen),
		PER_CAPTURE(test_lru_gen_full),
		PER_CAPTURE(test_pid_stat),
		cmocka_unit_test(test_lru_gen_full_marks),
		cmocka_unit_test(test_flat_malformed),
		cmocka_unit_test(test_flat_unterminated),
		cmocka_unit_test(test_flat_callback_stops),
		cmocka_unit_test(test_u64_malformed),
		cmocka_unit_test(test_psi_malformed),
		cmocka_unit_test(test_lru_gen_malformed),
		cmocka_unit_test(test_pid_stat_odd_comm),
		cmocka_unit_test(test_schedstat),
	};

	_Static_assert(ARRAY_SIZE(captures) == 3, "PER_CAPTURE lists three captures");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
