// SPDX-License-Identifier: GPL-2.0
/*
 * The workload catalogue against itself and the binaries' sources, and the
 * workloads' parsers on captured output: fio 3.33 JSON, sysbench 1.0.20
 * text, lru_gen and memory.stat of a real 6.1 guest, io.stat lines, and
 * the binaries' option tables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "catalogue.h"
#include "util.h"
#include "wl-opts.h"
#include "wl-parse.h"
#include "wl-sys.h"
#include "wl.h"

#define FIX "harness/tests/fixtures/"

static char *fixture(const char *name)
{
	_cleanup_free_ char *path = xasprintf(FIX "%s", name);
	char *buf = NULL;

	if (read_file(path, 16u << 20, &buf, NULL) < 0)
		fail_msg("cannot read fixture %s", path);
	return buf;
}

/* PROTOCOL.md names: what the agent forwards in result lines. */
static bool proto_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || strchr("._:/+-", *s)))
			return false;
	return true;
}

static const char *const common[] = { "ops",	 "throughput", "lat_p50", "lat_p90",
				       "lat_p99", "lat_p999",   "duration" };

static void check_param(const struct workload_def *w, const struct wl_param *p)
{
	uint64_t u;

	if (!proto_name(p->name) || !p->help)
		fail_msg("%s: parameter '%s' has a bad name or no help", w->name, p->name);
	if (!strcmp(p->name, "dir"))
		fail_msg("%s: 'dir' is given by lrubench, not a parameter", w->name);
	if (!p->def)
		return;
	switch (p->type) {
	case WLP_SIZE:
		assert_int_equal(parse_size(p->def, &u), 0);
		break;
	case WLP_U64:
		assert_int_equal(parse_u64(p->def, &u), 0);
		break;
	case WLP_DURATION:
		assert_int_equal(parse_duration_ms(p->def, &u), 0);
		break;
	case WLP_FRACTION: {
		double d = strtod(p->def, NULL);

		if (!(d >= p->min && d <= p->max))
			fail_msg("%s: default %s of '%s' outside [%g, %g]", w->name, p->def,
				 p->name, p->min, p->max);
		break;
	}
	case WLP_CHOICE:
		if (!wl_param_choice_ok(p, p->def))
			fail_msg("%s: default '%s' of '%s' not in %s", w->name, p->def, p->name,
				 p->choices);
		break;
	}
}

/* Every row: names the agent will forward, the common shape first, a source file. */
/* Every key result is a result of the row, reported always, once. */
static void check_decides(const struct workload_def *w)
{
	_cleanup_free_ char *keys = NULL;
	char *save = NULL;
	size_t n = 0;

	if (!w->decides || !*w->decides)
		fail_msg("%s: no key results (.decides)", w->name);
	keys = xstrdup(w->decides);
	for (char *k = strtok_r(keys, " ", &save); k; k = strtok_r(NULL, " ", &save), n++) {
		const struct wl_metric *m = w->metrics;

		while (m->key && strcmp(m->key, k))
			m++;
		if (!m->key)
			fail_msg("%s: key result '%s' is not one of its results", w->name, k);
		if (m->only)
			fail_msg("%s: key result '%s' is reported only under %s", w->name, k,
				 m->only);
		for (const char *o = keys; o < k; o += strlen(o) + 1)
			if (!strcmp(o, k))
				fail_msg("%s: key result '%s' twice", w->name, k);
	}
	/* a family of more than 4 costs every verdict its power (Bonferroni) */
	if (n > 4)
		fail_msg("%s: %zu key results; at most 4", w->name, n);
}

static void test_catalogue_rows(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; workload_catalogue[i]; i++, n++) {
		const struct workload_def *w = workload_catalogue[i];
		_cleanup_free_ char *bin = xasprintf("/bin/wl-%s", w->name);
		_cleanup_free_ char *src = xasprintf("workloads/wl-%s.c", w->name);
		size_t nm = 0;

		assert_ptr_equal(workload_find(w->name), w);
		assert_string_equal(w->binary, bin);
		if (access(src, R_OK) < 0)
			fail_msg("%s: no source %s", w->name, src);
		for (const struct wl_param *p = w->params; p->name; p++) {
			check_param(w, p);
			assert_ptr_equal(workload_param(w, p->name), p);
		}
		for (const struct wl_metric *m = w->metrics; m->key; m++, nm++) {
			if (!proto_name(m->key) || !proto_name(m->unit))
				fail_msg("%s: result '%s' unit '%s' is not a protocol name",
					 w->name, m->key, m->unit);
			if (strcmp(m->better, "higher") && strcmp(m->better, "lower") &&
			    strcmp(m->better, "none"))
				fail_msg("%s: result '%s' better '%s'", w->name, m->key, m->better);
			if (m->only && strcmp(m->only, "mglru"))
				fail_msg("%s: result '%s' only '%s'", w->name, m->key, m->only);
			if (nm < ARRAY_SIZE(common))
				assert_string_equal(m->key, common[nm]);
			for (const struct wl_metric *o = w->metrics; o < m; o++)
				if (!strcmp(o->key, m->key))
					fail_msg("%s: result '%s' twice", w->name, m->key);
		}
		assert_true(nm > ARRAY_SIZE(common));
		check_decides(w);
	}
	assert_int_equal(n, 12);
	assert_null(workload_find("nope"));
}

static void test_choice(void **state)
{
	const struct wl_param *p = workload_param(workload_find("mmap-stride"), "advice");

	(void)state;
	assert_true(wl_param_choice_ok(p, "random"));
	assert_true(wl_param_choice_ok(p, "normal"));
	assert_false(wl_param_choice_ok(p, "rand"));
	assert_false(wl_param_choice_ok(p, "random|normal"));
	assert_false(wl_param_choice_ok(p, ""));
	assert_false(wl_param_choice_ok(workload_param(workload_find("anon-zipf"), "size"),
					 "random"));
}

static void test_fio_json(void **state)
{
	_cleanup_free_ char *text = fixture("tools/fio-3.33-randread-zipf.json");
	struct fio_result f;
	char *err = NULL;

	(void)state;
	assert_int_equal(fio_json_parse(text, &f, &err), 0);
	assert_int_equal(f.ios, 1522112);
	assert_true(fabs(f.iops - 760675.662169) < 1e-6);
	assert_int_equal(f.io_bytes, 6234570752ull);
	assert_true(f.bw_bytes == 3115727512.0);
	assert_true(fabs(f.runtime_s - 2.001) < 1e-9);
	assert_true(f.clat_ns[0] == 620 && f.clat_ns[1] == 1176 && f.clat_ns[2] == 1704 &&
		    f.clat_ns[3] == 53504);
	assert_int_equal(f.majf, 0);
	assert_int_equal(f.error, 0);

	assert_int_equal(fio_json_parse("fio: no output", &f, &err), -EINVAL);
	assert_string_equal(err, "no JSON object in fio's output");
	free(err);
	assert_int_equal(fio_json_parse("{\"jobs\": []}", &f, &err), -EINVAL);
	assert_string_equal(err, "fio's JSON has no jobs[0].read and .write");
	free(err);
	assert_int_equal(fio_json_parse("{\"jobs\": [{\"read\": {\"total_ios\": 5, \"clat_ns\": "
					"{\"percentile\": {\"50.000000\": 1}}}, \"write\": {}}]}",
					&f, &err),
			 -EINVAL);
	assert_string_equal(err, "fio's JSON has no clat_ns percentile 90.000000");
	free(err);
	assert_int_equal(fio_json_parse("{\"jobs\": [{\"read\": {\"total_ios\": 5", &f, &err),
			 -EINVAL);
	assert_string_equal(err, "fio's output is not valid JSON");
	free(err);
}

static void test_sysbench(void **state)
{
	_cleanup_free_ char *text = fixture("tools/sysbench-1.0.20-fileio-rndrw.txt");
	_cleanup_free_ struct wl_hist *h = xcalloc(1, sizeof(*h));
	struct sysbench_result s;
	char *err = NULL;
	uint64_t p99;

	(void)state;
	wl_hist_init(h);
	assert_int_equal(sysbench_parse(text, &s, h, &err), 0);
	assert_true(s.reads_s == 6619.06 && s.writes_s == 4412.71 && s.fsyncs_s == 442.26);
	assert_true(s.read_mib_s == 103.42 && s.written_mib_s == 68.95);
	assert_true(s.total_time_s == 2.0211);
	assert_int_equal(s.events, 23190);
	/* Every event is in the histogram. */
	assert_int_equal(s.hist_count, 23190);
	assert_int_equal(h->count, 23190);
	/* The rows are printed to the microsecond: 0.001 ms is the smallest. */
	assert_int_equal(h->min, 1000);
	/* sysbench's own p99 from its finer histogram: 3.96 ms. */
	p99 = wl_hist_quantile(h, 0.99);
	assert_true(p99 >= 3.96e6 * 0.97 && p99 <= 3.96e6 * 1.03);

	wl_hist_init(h);
	assert_int_equal(sysbench_parse("reads/s: 1\n", &s, h, &err), -EINVAL);
	assert_string_equal(err, "no 'writes/s:' in sysbench's output");
	free(err);
	{
		/* The numbers without the histogram (no --histogram=on). */
		_cleanup_free_ char *cut = xstrdup(text);
		char *hist = strstr(cut, "Latency histogram");

		memcpy(hist, "Latency hist0gram", 17);
		assert_int_equal(sysbench_parse(cut, &s, h, &err), -EINVAL);
		assert_string_equal(err,
				    "no latency histogram in sysbench's output (--histogram=on?)");
		free(err);
	}
}

static void test_lru_gen_sizes(void **state)
{
	_cleanup_free_ char *text = fixture("guest/6.1.0-57-cloud-amd64/mglru-memcg/lru_gen");
	struct wl_gen_sizes g;

	(void)state;
	assert_int_equal(wl_lru_gen_parse(text, "/wl", &g), 0);
	assert_int_equal(g.anon, 3492 + 24549 + 4558);
	assert_int_equal(g.file, 0);
	assert_int_equal(g.young_anon, 4558);
	assert_int_equal(g.young_file, 0);
	assert_int_equal(g.ngens, 3);
	assert_int_equal(wl_lru_gen_parse(text, "/", &g), 0);
	assert_int_equal(g.anon, 852 + 357);
	assert_int_equal(g.file, 1);
	assert_int_equal(g.young_anon, 357);
	assert_int_equal(g.ngens, 4);
	assert_int_equal(wl_lru_gen_parse(text, "/w", &g), -ENOENT);
	/* Two nodes: each node's youngest generation counts. */
	assert_int_equal(wl_lru_gen_parse("memcg 5 /a\n node 0\n 3 10 100 7\n 4 5 20 1\n"
					  " node 1\n 4 10 50 2\n 5 1 8 9\nmemcg 6 /b\n node 0\n"
					  " 9 1 1000 1000\n",
					  "/a", &g),
			 0);
	assert_int_equal(g.anon, 178);
	assert_int_equal(g.file, 19);
	assert_int_equal(g.young_anon, 20 + 8);
	assert_int_equal(g.young_file, 1 + 9);
}

static void test_flat_and_io_stat(void **state)
{
	_cleanup_free_ char *text = fixture("guest/6.1.0-57-cloud-amd64/mglru-memcg/memory.stat");
	int64_t v = -1;
	uint64_t u = 1;

	(void)state;
	assert_int_equal(wl_flat_get(text, "pgsteal", &v), 0);
	assert_int_equal(v, 118969);
	assert_int_equal(wl_flat_get(text, "pgsteal_direct", &v), 0);
	assert_int_equal(v, 118969);
	assert_int_equal(wl_flat_get(text, "anon", &v), 0);
	assert_int_equal(v, 132939776);
	assert_int_equal(wl_flat_get(text, "pgste", &v), -ENOENT);

	assert_int_equal(wl_io_stat_rbytes("254:0 rbytes=10 wbytes=3 rios=1 wios=1 dbytes=0 "
					   "dios=0\n254:16 rbytes=73253888 wbytes=0 rios=9 "
					   "wios=0 dbytes=0 dios=0\n",
					   254, 16, &u),
			 0);
	assert_int_equal(u, 73253888);
	assert_int_equal(wl_io_stat_rbytes("254:160 rbytes=5 wbytes=0\n", 254, 16, &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(wl_io_stat_rbytes("254:16 wbytes=0\n", 254, 16, &u), -EINVAL);
}

static void test_opts(void **state)
{
	uint64_t size = 0, n = 3, ms = 0;
	double d = 0.5;
	const char *mode = "a", *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("size", WL_OPT_SIZE, &size),
		WL_OPT("n", WL_OPT_U64, &n),
		WL_OPT("duration", WL_OPT_DURATION, &ms),
		WL_OPT_RANGE("theta", &d, 0, 1),
		WL_OPT_CHOICE("mode", &mode, "a|bc"),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	const char *good[] = { "wl", "--size=2M", "--duration=3s", "--theta=0.25", "--mode=bc",
			 "--dir=/scratch/x", NULL };
	const char *bad_choice[] = { "wl", "--size=1", "--dir=/d", "--mode=b", NULL };
	const char *bad_range[] = { "wl", "--size=1", "--dir=/d", "--theta=1.5", NULL };
	const char *missing[] = { "wl", "--size=1", NULL };
	const char *unknown[] = { "wl", "--size=1", "--dir=/d", "--sizes=2", NULL };
	const char *no_eq[] = { "wl", "--size", "1", NULL };

	(void)state;
	assert_int_equal(wl_opts_parse("wl", 6, (char **)good, opts), 0);
	assert_int_equal(size, 2 << 20);
	assert_int_equal(n, 3);
	assert_int_equal(ms, 3000);
	assert_true(d == 0.25);
	assert_string_equal(mode, "bc");
	assert_string_equal(dir, "/scratch/x");
	assert_int_equal(wl_opts_parse("wl", 4, (char **)bad_choice, opts), -EINVAL);
	assert_int_equal(wl_opts_parse("wl", 4, (char **)bad_range, opts), -EINVAL);
	assert_int_equal(wl_opts_parse("wl", 2, (char **)missing, opts), -EINVAL);
	assert_int_equal(wl_opts_parse("wl", 4, (char **)unknown, opts), -EINVAL);
	assert_int_equal(wl_opts_parse("wl", 3, (char **)no_eq, opts), -EINVAL);
}

static void test_hist_add_n_merge(void **state)
{
	_cleanup_free_ struct wl_hist *a = xcalloc(1, sizeof(*a));
	_cleanup_free_ struct wl_hist *b = xcalloc(1, sizeof(*b));

	(void)state;
	wl_hist_init(a);
	wl_hist_init(b);
	wl_hist_add_n(a, 100, 90);
	wl_hist_add_n(a, 5000, 0);
	wl_hist_add_n(b, 10000, 10);
	wl_hist_merge(a, b);
	assert_int_equal(a->count, 100);
	assert_int_equal(a->min, 100);
	assert_int_equal(a->max, 10000);
	/* The upper bound of 100's bucket, [100, 101]. */
	assert_int_equal(wl_hist_quantile(a, 0.9), 101);
	assert_true(wl_hist_quantile(a, 0.91) >= 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue_rows),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_fio_json),
		cmocka_unit_test(test_sysbench),
		cmocka_unit_test(test_lru_gen_sizes),
		cmocka_unit_test(test_flat_and_io_stat),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_hist_add_n_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
