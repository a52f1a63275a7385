// SPDX-License-Identifier: GPL-2.0
/*
 * 'lrubench wss': the working-set model against the workloads' real
 * generators (wl_zipf_next + wl_scatter simulated; fio 3.33 itself, run with
 * its null engine, when it is installed), the probe's parsers on files
 * captured in a real guest (fixtures/guest/6.1.0-57-cloud-amd64/wss: lru_gen
 * right before and after an aging that ended a window, smaps of anon-zipf),
 * the run.conf keys, the measuring form of a plan, and the estimates of a
 * store written through the store's own API.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>

#include "catalogue.h"
#include "guest/agent-conf.h"
#include "procfs-parse.h"
#include "lib/wl.h"
#include "plan.h"
#include "store.h"
#include "util.h"
#include "wss-model.h"
#include "wss.h"

#define FIX "harness/tests/fixtures/guest/6.1.0-57-cloud-amd64/wss/"

static char *fixture(const char *name, size_t *ret_len)
{
	_cleanup_free_ char *path = xasprintf(FIX "%s", name);
	char *buf = NULL;

	if (read_file(path, 1u << 20, &buf, ret_len) < 0)
		fail_msg("cannot read fixture %s", path);
	return buf;
}

/* ---- the model -------------------------------------------------------------- */

static void test_rank_probs(void **state)
{
	static const double thetas[] = { 0, 0.5, 0.99, 1.2 };
	double *p = xcalloc(5000, sizeof(*p)), zetan = 0;

	(void)state;
	for (size_t t = 0; t < ARRAY_SIZE(thetas); t++) {
		double sum = 0;

		assert_int_equal(wss_zipf_rank_probs(5000, thetas[t], p), 0);
		for (size_t i = 0; i < 5000; i++) {
			assert_true(p[i] >= 0);
			sum += p[i];
		}
		assert_true(fabs(sum - 1) < 1e-12);
	}
	/* theta 0 is uniform; ranks 0 and 1 are Gray's exact ones */
	assert_int_equal(wss_zipf_rank_probs(5000, 0, p), 0);
	for (size_t i = 0; i < 5000; i++)
		assert_true(fabs(p[i] - 1.0 / 5000) < 1e-12);
	assert_int_equal(wss_zipf_rank_probs(5000, 0.99, p), 0);
	for (int i = 1; i <= 5000; i++)
		zetan += 1 / pow(i, 0.99);
	assert_true(fabs(p[0] - 1 / zetan) < 1e-15);
	assert_true(fabs(p[1] - pow(0.5, 0.99) / zetan) < 1e-15);
	assert_true(p[2] > p[100] && p[100] > p[4000]);
	assert_int_equal(wss_zipf_rank_probs(1, 0.5, p), -EINVAL);
	assert_int_equal(wss_zipf_rank_probs(10, 1.0, p), -EINVAL);
	assert_int_equal(wss_zipf_rank_probs(10, -0.1, p), -EINVAL);
	free(p);
}

static void test_expected_distinct(void **state)
{
	double p[4] = { 0.25, 0.25, 0.25, 0.25 }, q[3] = { 0.5, 0.5, 0 };

	(void)state;
	assert_true(wss_expected_distinct(p, 4, 0) == 0);
	assert_true(fabs(wss_expected_distinct(p, 4, 1) - 1) < 1e-12);
	/* n (1 - (1 - 1/n)^w) */
	assert_true(fabs(wss_expected_distinct(p, 4, 3) - 4 * (1 - pow(0.75, 3))) < 1e-12);
	assert_true(fabs(wss_expected_distinct(q, 3, 2) - 1.5) < 1e-12);
	assert_true(fabs(wss_expected_distinct(q, 3, 1e9) - 2) < 1e-12);
}

/* The maps are not injective: what they reach, for the plans' sizes. */
static void test_maps_reach(void **state)
{
	double e;
	uint64_t reach;

	(void)state;
	assert_int_equal(wss_zipf_expected(16384, 0.99, wss_map_anon_zipf, 1e3, &e, &reach), 0);
	assert_int_equal(reach, 16384); /* a power of two: a permutation */
	assert_int_equal(wss_zipf_expected(12288, 0.99, wss_map_anon_zipf, 40000, &e, &reach), 0);
	assert_int_equal(reach, 8460);
	assert_true(fabs(e - 5762) < 1); /* computed apart when the test plan was chosen */
	assert_int_equal(wss_zipf_expected(3072, 0.99, wss_map_fio, 2500, &e, &reach), 0);
	assert_int_equal(reach, 2815);
	assert_true(fabs(e - 806) < 1);
	for (uint64_t r = 0; r < 1000; r++)
		assert_int_equal(wss_map_anon_zipf(r, 12288), wl_scatter(r, 12288));
	assert_int_equal(wss_zipf_expected(1, 0.99, wss_map_fio, 10, &e, NULL), -EINVAL);
}

/* The model against anon-zipf's own generator: distinct pages of w draws, mean of 20 seeds. */
static void test_model_vs_wl_generator(void **state)
{
	static const struct {
		uint64_t n;
		double theta, w;
	} cases[] = { { 12288, 0.99, 40000 }, { 5000, 0.5, 3000 }, { 4096, 0.99, 200000 } };
	uint8_t *seen = xcalloc(12288, 1);

	(void)state;
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct wl_zipf z;
		double e, mean = 0;

		assert_int_equal(wl_zipf_init(&z, cases[c].n, cases[c].theta), 0);
		assert_int_equal(wss_zipf_expected(cases[c].n, cases[c].theta, wss_map_anon_zipf,
						   cases[c].w, &e, NULL),
				 0);
		for (uint64_t seed = 1; seed <= 20; seed++) {
			struct wl_rng rng;
			uint64_t distinct = 0;

			wl_rng_seed(&rng, seed);
			memset(seen, 0, cases[c].n);
			for (uint64_t i = 0; i < (uint64_t)cases[c].w; i++) {
				uint64_t page = wl_scatter(wl_zipf_next(&z, &rng), cases[c].n);

				distinct += !seen[page];
				seen[page] = 1;
			}
			mean += (double)distinct / 20;
		}
		if (fabs(mean / e - 1) > 0.01)
			fail_msg("n %llu theta %g w %g: simulated %.1f, model %.1f",
				 (unsigned long long)cases[c].n, cases[c].theta, cases[c].w, mean, e);
	}
	free(seen);
}

/*
 * fio 3.33 itself (null engine: no I/O, the offsets it would read in its
 * iolog, lines "TIME FILE read OFFSET 4096"), run in dir: distinct blocks read.
 * fio seeds each file's Zipf state from its name, so the names (relative to
 * dir) make the draws repeatable.
 */
static double fio_distinct(const char *dir, const char *args)
{
	_cleanup_free_ char *log = xasprintf("%s/io.log", dir), *text = NULL;
	_cleanup_free_ char *cmd = xasprintf(
		"cd %s && fio --name=z %s --bs=4096 --rw=randread --random_distribution=zipf:0.99 "
		"--ioengine=null --io_size=10G --write_iolog=io.log --output=/dev/null "
		">/dev/null 2>&1",
		dir, args);
	_cleanup_free_ uint8_t *seen = xcalloc((size_t)8 << 20, 1);
	char *names[8] = { 0 }, *save = NULL;
	size_t n = 0;

	unlink(log);
	if (system(cmd) != 0 || read_file(log, 64u << 20, &text, NULL) < 0)
		return NAN;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char file[256];
		unsigned long off;
		size_t f = 0;

		if (sscanf(l, "%*s %255s read %lu", file, &off) != 2)
			continue;
		while (f < 8 && names[f] && strcmp(names[f], file))
			f++;
		if (f == 8 || off / 4096 >= (1ul << 20))
			return NAN;
		if (!names[f])
			names[f] = xstrdup(file);
		n += !seen[(f << 20) + off / 4096];
		seen[(f << 20) + off / 4096] = 1;
	}
	for (size_t f = 0; f < 8; f++)
		free(names[f]);
	unlink(log);
	return (double)n;
}

static void test_model_vs_fio(void **state)
{
	char dir[] = "/tmp/lrubench-test-wss.XXXXXX";
	double e, got = 0;

	(void)state;
	if (system("fio --version >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	/* one file of 3072 blocks, 5000 reads, eight names: mean distinct (1218 here) */
	for (int i = 0; i < 8; i++) {
		_cleanup_free_ char *args = xasprintf("--filename=s%d --size=12M --number_ios=5000", i);

		got += fio_distinct(dir, args) / 8;
	}
	assert_int_equal(wss_zipf_expected(3072, 0.99, wss_map_fio, 5000, &e, NULL), 0);
	if (!(fabs(got / e - 1) < 0.02))
		fail_msg("fio, 1 file of 3072 blocks, 5000 reads: %.1f distinct, model %.1f", got, e);
	/* 4 files read round robin: each its own Zipf over a quarter of the set (3206 here) */
	got = fio_distinct(dir, "--directory=. --nrfiles=4 --size=48M --number_ios=10000");
	assert_int_equal(wss_zipf_expected(3072, 0.99, wss_map_fio, 2500, &e, NULL), 0);
	if (!(fabs(got / (4 * e) - 1) < 0.03))
		fail_msg("fio, 4 files of 3072 blocks, 10000 reads: %.0f distinct, model %.1f", got,
			 4 * e);
	rmdir(dir);
}

/* ---- the known values, from a plan's workloads ------------------------------ */

static const char plan_text[] = "[campaign]\nname = w\nbaseline = mglru\n"
				"[guest]\nswap = zram\n"
				"[variant classic]\nlru = classic\nmemcg.anon.memory.max = 16M\n"
				"[variant mglru]\nlru = mglru\n"
				"[memcg anon]\nmemory.max = 32M\nmemory.high = 30M\nmemory.low = 1M\n"
				"[memcg files]\nmemory.max = 32M\n"
				"[workload anon]\ntype = anon-zipf\nmemcg = anon\nsize = 1.5x\n"
				"rate = 10000\nduration = 60s\n"
				"[workload files]\ntype = file-zipf\nmemcg = files\nsize = 48M\n"
				"theta = 0.99\n";

static const struct plan_workload *find_wl(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->nworkloads; i++)
		if (!strcmp(p->workloads[i].name, name))
			return &p->workloads[i];
	fail_msg("no workload %s", name);
	return NULL;
}

static void test_known_values(void **state)
{
	_cleanup_(plan__freep) struct plan *p = NULL;
	_cleanup_free_ char *err = NULL;
	const struct wss_model *ma = wss_model_find("anon-zipf"), *mf = wss_model_find("file-zipf");
	struct wss_model_in in = { .window_s = 4, .throughput = NAN, .reads = NAN };
	double pages, e;
	char *how = NULL;

	(void)state;
	assert_int_equal(plan__parse("t.ini", plan_text, &p, &err), 0);
	assert_null(wss_model_find("sqlite-kv"));
	assert_string_equal(ma->kind, "anon");
	assert_string_equal(mf->kind, "file");
	/* anon-zipf: 1.5 x 32M = 12288 pages, theta 0.99 (the default), paced 10000/s */
	in.w = find_wl(p, "anon");
	assert_int_equal(ma->known(&in, &pages, &how), 0);
	assert_true(fabs(pages - 5762) < 1);
	assert_non_null(strstr(how, "12288 pages (8460 reachable)"));
	assert_non_null(strstr(how, "(paced)"));
	free(how);
	/* file-zipf without rate: its throughput, else nothing */
	in.w = find_wl(p, "files");
	assert_int_equal(mf->known(&in, &pages, &how), -ENODATA);
	free(how);
	in.throughput = 2500;
	assert_int_equal(mf->known(&in, &pages, &how), 0);
	assert_int_equal(wss_zipf_expected(3072, 0.99, wss_map_fio, 2500, &e, NULL), 0);
	assert_true(fabs(pages - 4 * e) < 1e-6);
	assert_non_null(strstr(how, "its mean throughput"));
	free(how);
	/* its read() calls count first: 5000 in a 2 s window = 10000 in the 4 s one */
	in.reads = 5000;
	in.reads_window_s = 2;
	assert_int_equal(mf->known(&in, &pages, &how), 0);
	assert_true(fabs(pages - 4 * e) < 1e-6);
	assert_non_null(strstr(how, "its read() calls"));
	free(how);
}

/* ---- the probe's parsers and run.conf keys ---------------------------------- */

static void test_lru_gen_window(void **state)
{
	_cleanup_free_ char *before = NULL, *after = NULL;
	struct procfs_lru_gen_memcg b, a;
	uint64_t anon, file;
	size_t lb, la;
	unsigned bad = 1;

	(void)state;
	before = fixture("lru_gen-before", &lb);
	after = fixture("lru_gen-after", &la);
	assert_int_equal(procfs_lru_gen_memcg(before, lb, "/anon", &b, &bad), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(b.memcg_id, 2);
	assert_int_equal(b.n_nodes, 1);
	assert_int_equal(b.node[0].n_gens, 4);
	assert_int_equal(procfs_lru_gen_max_seq(&b.node[0]), 5);
	assert_int_equal(procfs_lru_gen_memcg(after, la, "/anon", &a, NULL), 0);
	assert_int_equal(procfs_lru_gen_max_seq(&a.node[0]), 6);
	/* the aging put the window's pages in generation 5 and opened an empty 6 */
	procfs_lru_gen_window(&b, &a, &anon, &file);
	assert_int_equal(anon, 5159);
	assert_int_equal(file, 0);
	procfs_lru_gen_total(&a, &anon, &file);
	assert_int_equal(anon, 5673 + 1472 + 5159);
	assert_int_equal(file, 0);
	/* files (aged after anon: lru_gen-after-files): fio's text touched through page
	 * tables is the window; the pages its read() brought in sit in generation 3 */
	assert_int_equal(procfs_lru_gen_memcg(before, lb, "/files", &b, NULL), 0);
	assert_int_equal(procfs_lru_gen_memcg(after, la, "/files", &a, NULL), 0);
	procfs_lru_gen_window(&b, &a, &anon, &file);
	assert_int_equal(anon + file, 0); /* files is not aged yet in lru_gen-after */
	free(after);
	after = fixture("lru_gen-after-files", &la);
	assert_int_equal(procfs_lru_gen_memcg(after, la, "/files", &a, NULL), 0);
	assert_int_equal(a.memcg_id, 3);
	procfs_lru_gen_window(&b, &a, &anon, &file);
	assert_int_equal(anon, 48);
	assert_int_equal(file, 104);
	assert_int_equal(a.node[0].gen[0].seq, 3);
	assert_int_equal(a.node[0].gen[0].file, 6596);
	/* the root's path, a path that is a prefix of another, an absent one */
	assert_int_equal(procfs_lru_gen_memcg(after, la, "/", &a, NULL), 0);
	assert_int_equal(a.memcg_id, 1);
	assert_int_equal(procfs_lru_gen_memcg(after, la, "/file", &a, NULL), -ENOENT);
	assert_int_equal(procfs_lru_gen_memcg("", 0, "/anon", &a, NULL), -ENOENT);
	/* a node only one side lists counts nothing */
	{
		static const char t1[] = "memcg 2 /x\n node 0\n 5 10 100 200\n";
		static const char t2[] = "memcg 2 /x\n node 1\n 5 10 100 200\n 6 0 1 1\n";

		assert_int_equal(procfs_lru_gen_memcg(t1, sizeof(t1) - 1, "/x", &b, NULL), 0);
		assert_int_equal(procfs_lru_gen_memcg(t2, sizeof(t2) - 1, "/x", &a, NULL), 0);
		procfs_lru_gen_window(&b, &a, &anon, &file);
		assert_int_equal(anon + file, 0);
	}
}

static void test_smaps_ref(void **state)
{
	_cleanup_free_ char *buf = NULL;
	struct procfs_smaps_ref s;
	size_t len;
	unsigned bad = 1;

	(void)state;
	buf = fixture("smaps-anon-zipf", &len);
	assert_int_equal(procfs_parse_smaps_ref(buf, len, &s, &bad), 0);
	assert_int_equal(bad, 0);
	/* awk over the fixture: Referenced of inode-0 VMAs, and of the others */
	assert_int_equal(s.anon_kb, 20468);
	assert_int_equal(s.file_kb, 36);
	assert_int_equal(s.vmas, 11);
	{
		static const char t[] = "7f00-7f10 rw-s 00000000 00:01 7 /dev/zero (deleted)\n"
					"Referenced:  8 kB\n"
					"Referenced:  x kB\n"
					"VmFlags: rd wr sh\n"
					"7f10-7f20 rw-p 00000000 00:00 0\n"
					"Referenced:            4 kB\n";

		assert_int_equal(procfs_parse_smaps_ref(t, sizeof(t) - 1, &s, &bad), 0);
		assert_int_equal(s.file_kb, 8);
		assert_int_equal(s.anon_kb, 4);
		assert_int_equal(bad, 1);
	}
	assert_int_equal(procfs_parse_smaps_ref("Referenced: 4 kB\n", 17, &s, &bad), -EINVAL);
}

static void test_conf_keys(void **state)
{
	static const char ok[] = "wss_methods=gen,ref,drop\nwss_start_ms=1000\n"
				 "wss_window_ms=2000\nwss_windows=3\n";
	static const char *const bad[] = {
		"wss_methods=gen,reclaim,drop\nwss_window_ms=2000\nwss_windows=3\n",
		"wss_methods=gen,gen\nwss_window_ms=2000\nwss_windows=3\n",
		"wss_methods=idle\nwss_window_ms=2000\nwss_windows=3\n",
		"wss_methods=ref\n",
		"wss_methods=ref\nwss_window_ms=10\nwss_windows=3\n",
	};
	struct agent_conf *c;

	(void)state;
	agent_conf_parse(ok, sizeof(ok) - 1, &c);
	assert_int_equal(c->n_errors, 0);
	assert_int_equal(c->wss_methods, WSS_GEN | WSS_REF | WSS_DROP);
	assert_int_equal(c->wss_start_ms, 1000);
	assert_int_equal(c->wss_window_ms, 2000);
	assert_int_equal(c->wss_windows, 3);
	agent_conf_free(c);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		agent_conf_parse(bad[i], strlen(bad[i]), &c);
		if (c->n_errors == 0)
			fail_msg("accepted: %s", bad[i]);
		agent_conf_free(c);
	}
}

/* ---- the measuring form, and the estimates of a store ----------------------- */

static void test_plan_form(void **state)
{
	_cleanup_(plan__freep) struct plan *p = NULL;
	_cleanup_free_ char *err = NULL, *text = NULL;
	struct wss_opts o = { .start_ms = 10000, .window_ms = 5000, .windows = 4 }, back;

	(void)state;
	assert_int_equal(plan__parse("t.ini", plan_text, &p, &err), 0);
	o.variant = xstrdup("classic");
	o.lru = xstrdup("mglru");
	assert_int_equal(wss__plan(p, &o, &err), 0);
	assert_int_equal(p->nvariants, 1);
	assert_string_equal(p->variants[0].name, "wss-mglru");
	assert_string_equal(p->baseline, "wss-mglru");
	assert_int_equal(p->variants[0].lru_enabled, 0x7);
	assert_int_equal(p->variants[0].nmemcg_files, 0); /* its memcg.anon.memory.max */
	assert_string_equal(p->swap, "none");
	assert_string_equal(p->name, "w-wss");
	assert_int_equal(p->memcgs[0].nfiles, 1);
	assert_string_equal(p->memcgs[0].files[0].key, "memory.low");
	assert_int_equal(p->memcgs[1].nfiles, 0);
	assert_non_null(strstr(p->agent_conf, "wss_methods=gen,ref,drop\n"));
	assert_non_null(strstr(p->agent_conf, "wss_windows=4\n"));
	/* the sizes stay what the limits made them */
	assert_string_equal(find_wl(p, "anon")->params[0].value, "50331648");
	text = wss_opts__format(&o);
	assert_int_equal(wss_opts__parse(text, &back, &err), 0);
	assert_string_equal(back.variant, "classic");
	assert_int_equal(back.window_ms, 5000);
	wss_opts__clear(&back);
	wss_opts__clear(&o);
	/* classic has no aging; no such variant */
	plan__free(TAKE_PTR(p));
	assert_int_equal(plan__parse("t.ini", plan_text, &p, &err), 0);
	o = (struct wss_opts){ .lru = xstrdup("classic"), .methods = xstrdup("gen"),
			       .window_ms = 1000, .windows = 1 };
	free(TAKE_PTR(err));
	assert_int_equal(wss__plan(p, &o, &err), -EINVAL);
	free(TAKE_PTR(err));
	free(o.methods);
	free(o.lru);
	o.lru = NULL;
	o.methods = xstrdup("gen,reclaim");
	assert_int_equal(wss__plan(p, &o, &err), -EINVAL);
	assert_non_null(strstr(err, "do not mix"));
	free(TAKE_PTR(err));
	free(o.methods);
	o.methods = NULL;
	o.variant = xstrdup("nope");
	assert_int_equal(wss__plan(p, &o, &err), -ENOENT);
	wss_opts__clear(&o);
	free(TAKE_PTR(err));
	assert_int_equal(wss_opts__parse("lru=mglru", &back, &err), -EINVAL);
	free(TAKE_PTR(err));
	assert_int_equal(wss_opts__parse("window_ms=1;windows=2;colour=red", &back, &err),
			 -EINVAL);
}

/* One window of one memcg: its values as the agent sends them. */
static void put_window(struct store *st, int64_t run, int64_t seq, const char *memcg,
		       const char *const *keys, const int64_t *v)
{
	assert_int_equal(store__sample_begin(st, run, seq, seq * 1000000000LL), 0);
	for (size_t i = 0; keys[i]; i++)
		assert_int_equal(store__value(st, run, seq, keys[i], memcg, v[i]), 0);
	assert_int_equal(store__sample_end(st, run, seq, true), 0);
}

static void test_analyse(void **state)
{
	static const char *const akeys[] = { "wss:window", "wss:gen.window_ns", "wss:gen.anon",
					     "wss:gen.file", "wss:drop.window_ns", "wss:drop.file",
					     NULL };
	static const char *const fkeys[] = { "wss:window",	   "wss:gen.window_ns",
					     "wss:gen.anon",	   "wss:gen.file",
					     "wss:drop.window_ns", "wss:drop.file",
					     "wss:reads",	   "wss:reads.window_ns",
					     NULL };
	char path[] = "/tmp/lrubench-test-wss-db.XXXXXX";
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(wss__freep) struct wss *w = NULL;
	_cleanup_(wss__freep) struct wss *back = NULL;
	_cleanup_(plan__freep) struct plan *p = NULL;
	_cleanup_free_ char *err = NULL, *out = NULL;
	const struct wss_row *r;
	int64_t vid, run, failed;
	double ea, ef;
	size_t len = 0;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(store__open(path, &st), 0);
	store__meta_set(st, "campaign", "w-wss-1");
	store__meta_set(st, "plan.text", plan_text);
	store__meta_set(st, "plan.path", "t.ini");
	assert_int_equal(wss__analyse(st, &w), -ENODATA);
	assert_int_equal(store__variant_add(st, "wss-mglru", "6.1.0-57 abc", "mglru", "", &vid), 0);
	assert_int_equal(store__run_add(st, vid, 0, 0, 1, &run), 0);
	assert_int_equal(store__run_add(st, vid, 1, 1, 2, &failed), 0);
	assert_int_equal(store__run_finish(st, run, RUN_COMPLETED, "", 1), 0);
	assert_int_equal(store__run_finish(st, failed, RUN_FAILED_KERNEL, "oops", 1), 0);
	/* samples at seq seconds; the workloads start at 1 s, files ends at 18 s */
	assert_int_equal(store__event(st, run, 1000000000, "workload-start", "anon pid 9 memcg anon"),
			 0);
	assert_int_equal(
		store__event(st, run, 1000000000, "workload-start", "files pid 10 memcg files"), 0);
	assert_int_equal(store__event(st, run, 18000000000, "workload-exit", "files status 0"), 0);
	assert_int_equal(store__event(st, run, 30000000000, "workload-exit", "anon status 0"), 0);
	put_window(st, run, 10, "anon", akeys, (int64_t[]){ 1, 4000000000, 5700, 0, 3900000000, 0 });
	put_window(st, run, 15, "anon", akeys, (int64_t[]){ 2, 4000000000, 5800, 2, 3900000000, 0 });
	put_window(st, run, 10, "files", fkeys,
		   (int64_t[]){ 1, 4000000000, 48, 104, 3900000000, 2900, 9000, 3900000000 });
	put_window(st, run, 15, "files", fkeys,
		   (int64_t[]){ 2, 4000000000, 50, 104, 3900000000, 3000, 9000, 3900000000 });
	/* fio ended inside this one: left out */
	put_window(st, run, 20, "files", fkeys,
		   (int64_t[]){ 3, 4000000000, 1, 1, 3900000000, 99999, 5, 3900000000 });
	/* a failed run's windows are not measured */
	put_window(st, failed, 10, "anon", akeys, (int64_t[]){ 1, 4000000000, 1, 0, 1, 0 });
	assert_int_equal(store__result(st, run, "files", "throughput", 2300, "ops/s", "higher"), 0);
	assert_int_equal(store__commit(st), 0);

	assert_int_equal(wss__analyse(st, &w), 0);
	r = wss__find(w, "anon", "anon");
	assert_non_null(r);
	assert_string_equal(r->method, "gen");
	assert_int_equal(r->windows, 2);
	assert_true(fabs(r->pages - 5750) < 1e-9);
	assert_true(fabs(r->sd - sqrt(5000)) < 1e-9);
	assert_true(fabs(r->window_s - 4) < 1e-9);
	assert_int_equal(wss_zipf_expected(12288, 0.99, wss_map_anon_zipf, 40000, &ea, NULL), 0);
	assert_true(fabs(r->known - ea) < 1e-6);
	assert_non_null(strstr(r->source, "w-wss-1 (kernel 6.1.0-57 abc, mglru)"));
	/* the file row: fio's read() count (9000 in 3.9 s), not its throughput */
	r = wss__find(w, "files", "file");
	assert_string_equal(r->method, "drop");
	assert_true(fabs(r->pages - 2950) < 1e-9);
	assert_int_equal(wss_zipf_expected(3072, 0.99, wss_map_fio, 9000.0 / 4, &ef, NULL), 0);
	assert_true(fabs(r->known - 4 * ef) < 1e-6);
	assert_non_null(strstr(r->model, "its read() calls"));
	/* no model: the anon pages fio touched, the mapped file pages */
	assert_true(isnan(wss__find(w, "files", "anon")->known));
	assert_true(isnan(wss__find(w, "anon", "file-mapped")->known));
	/* total = anon + mapped file + file brought in */
	r = wss__find(w, "files", "total");
	assert_string_equal(r->method, "gen+drop");
	assert_true(fabs(r->pages - (49 + 104 + 2950)) < 1e-9);
	assert_true(fabs(wss__find(w, "anon", "total")->pages - 5751) < 1e-9);
	assert_int_equal(w->global_reclaim, 0);
	assert_int_equal(w->windows_partial, 1);

	/* stored, loaded back, printed with the limits of each variant */
	assert_int_equal(wss__store(st, w), 0);
	assert_int_equal(wss__load(st, &back), 0);
	assert_int_equal(back->nrows, w->nrows);
	for (size_t i = 0; i < w->nrows; i++) {
		assert_string_equal(back->rows[i].model, w->rows[i].model);
		assert_true(back->rows[i].pages == w->rows[i].pages);
		assert_true(isnan(w->rows[i].known) ? isnan(back->rows[i].known) :
						      back->rows[i].known == w->rows[i].known);
	}
	assert_int_equal(plan__parse("t.ini", plan_text, &p, &err), 0);
	f = open_memstream(&out, &len);
	wss__print(back, f);
	wss__print_limits(back, p, f);
	fclose(f);
	assert_non_null(strstr(out, "anon       anon        gen              5750"));
	assert_non_null(strstr(out, "-0.2%")); /* 5750 against 5762 */
	/* 32 MiB over 5751 pages (22.5 MiB); the classic variant's own 16M */
	assert_non_null(strstr(out, "anon       [memcg]            32.0 MiB       22.5 MiB       1.42"));
	assert_non_null(strstr(out, "anon       classic            16.0 MiB       22.5 MiB       0.71"));
	assert_non_null(strstr(out, "files      [memcg]            32.0 MiB       12.1 MiB       2.64"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_probs),
		cmocka_unit_test(test_expected_distinct),
		cmocka_unit_test(test_maps_reach),
		cmocka_unit_test(test_model_vs_wl_generator),
		cmocka_unit_test(test_model_vs_fio),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_lru_gen_window),
		cmocka_unit_test(test_smaps_ref),
		cmocka_unit_test(test_conf_keys),
		cmocka_unit_test(test_plan_form),
		cmocka_unit_test(test_analyse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
