// SPDX-License-Identifier: GPL-2.0
/*
 * Every workload of workloads/WORKLOADS.def against its definition and its
 * file, the definitions' value parsing and the README's table; and the
 * workloads' parsers on captured output: fio 3.33 JSON, sysbench 1.0.20
 * text, lru_gen and memory.stat of a real 6.1 guest, io.stat lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glob.h>
#include <math.h>
#include <stdalign.h>
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

/* A value of p's type (allocated): its default, else one that parses. */
static char *sample_value(const struct wl_param *p)
{
	if (p->def || p->guest_def)
		return xstrdup(p->def ? p->def : p->guest_def);
	switch (p->type) {
	case WLP_SIZE:
		return xstrdup("1M");
	case WLP_U64:
		return xstrdup("3");
	case WLP_DURATION:
		return xstrdup("2s");
	case WLP_FRACTION:
		return xasprintf("%.17g", p->min);
	case WLP_CHOICE:
		return xasprintf("%.*s", (int)strcspn(p->choices, "|"), p->choices);
	}
	return xstrdup("");
}

/* A parameter: its name, its help, its default parsed with its own type. */
static void check_param(const struct workload_def *w, const struct wl_param *p)
{
	union wl_value v;

	if (!proto_name(p->name) || !p->help)
		fail_msg("%s: parameter '%s' has a bad name or no help", w->name, p->name);
	if (!strcmp(p->name, "dir") || !strcmp(p->name, "help"))
		fail_msg("%s: '%s' is the binary's own option, not a parameter", w->name, p->name);
	if (p->type == WLP_FRACTION && !(p->min <= p->max))
		fail_msg("%s: '%s' has the range [%g, %g]", w->name, p->name, p->min, p->max);
	if (p->type == WLP_CHOICE && (!p->choices || !*p->choices))
		fail_msg("%s: choice '%s' has no choices", w->name, p->name);
	if (p->def && p->guest_def)
		fail_msg("%s: '%s' has a plan default and a binary's", w->name, p->name);
	if (p->def && wl_param__parse(p, p->def, &v) < 0)
		fail_msg("%s: default '%s' of '%s' does not parse as its type%s%s", w->name,
			 p->def, p->name, p->choices ? ": " : "", p->choices ? p->choices : "");
	if (p->guest_def && wl_param__parse(p, p->guest_def, &v) < 0)
		fail_msg("%s: the binary's default '%s' of '%s' does not parse as its type",
			 w->name, p->guest_def, p->name);
	/* Two parameters filling one field of struct opts: a copy and paste. */
	for (const struct wl_param *o = w->params; o < p; o++)
		if (o->off == p->off || !strcmp(o->name, p->name))
			fail_msg("%s: '%s' and '%s' share a name or a field", w->name, o->name,
				 p->name);
	if (w->scratch && p->off == w->dir_off)
		fail_msg("%s: '%s' fills the field of --dir", w->name, p->name);
}

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
		const struct wl_metric *m = workload_metric(w, k);

		if (!m)
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

/* The results: protocol names, known directions, the common shape first, each once. */
static void check_metrics(const struct workload_def *w)
{
	size_t nm = 0;

	for (const struct wl_metric *m = w->metrics; m->key; m++, nm++) {
		if (!proto_name(m->key) || !proto_name(m->unit))
			fail_msg("%s: result '%s' unit '%s' is not a protocol name", w->name, m->key,
				 m->unit);
		if (!m->help)
			fail_msg("%s: result '%s' has no help", w->name, m->key);
		if (strcmp(m->better, "higher") && strcmp(m->better, "lower") &&
		    strcmp(m->better, "none"))
			fail_msg("%s: result '%s' better '%s'", w->name, m->key, m->better);
		if (m->only && strcmp(m->only, "mglru"))
			fail_msg("%s: result '%s' only '%s'", w->name, m->key, m->only);
		if (nm < ARRAY_SIZE(common) && strcmp(m->key, common[nm]))
			fail_msg("%s: result %zu is '%s', not the common shape's '%s'", w->name, nm,
				 m->key, common[nm]);
		if (workload_metric(w, m->key) != m)
			fail_msg("%s: result '%s' twice", w->name, m->key);
	}
	if (nm <= ARRAY_SIZE(common))
		fail_msg("%s: no results of its own beside the common shape", w->name);
}

/*
 * The binary's parser takes every parameter (its default, or a sample
 * value) and --dir when it has files, into a buffer standing for its
 * struct opts; and refuses a command line without a required one.
 */
static void check_parser(const struct workload_def *w)
{
	alignas(max_align_t) char opts[4096];
	_cleanup_free_ char **argv = NULL;
	_cleanup_free_ char *usage = NULL;
	size_t argc = 1, len = 0;
	FILE *f;

	for (const struct wl_param *p = w->params; p->name; p++, argc++)
		if (p->off + sizeof(uint64_t) > sizeof(opts))
			fail_msg("%s: '%s' at offset %zu", w->name, p->name, p->off);
	argv = xcalloc(argc + 2, sizeof(*argv));
	argc = 0;
	argv[argc++] = xstrdup(w->binary);
	for (const struct wl_param *p = w->params; p->name; p++) {
		_cleanup_free_ char *v = sample_value(p);

		argv[argc++] = xasprintf("--%s=%s", p->name, v);
	}
	if (w->scratch)
		argv[argc++] = xstrdup("--dir=/scratch/x");
	memset(opts, 0, sizeof(opts));
	if (wl_opts_parse(w, (int)argc, argv, opts) != 0)
		fail_msg("%s: its parser refuses its own defaults", w->name);
	if (w->scratch) {
		const char *dir;

		memcpy(&dir, opts + w->dir_off, sizeof(dir));
		assert_string_equal(dir, "/scratch/x");
	}
	/* Each required one left out (the last: --dir), in turn: moved to the end, cut. */
	for (size_t i = 1; i < argc; i++) {
		bool dir = w->scratch && i == argc - 1;
		char *cut = argv[i];

		if (!dir && !wl_param__required(&w->params[i - 1]))
			continue;
		memmove(&argv[i], &argv[i + 1], (argc - i - 1) * sizeof(*argv));
		argv[argc - 1] = cut;
		if (wl_opts_parse(w, (int)argc - 1, argv, opts) != -EINVAL)
			fail_msg("%s: its parser runs without %s", w->name, cut);
		memmove(&argv[i + 1], &argv[i], (argc - i - 1) * sizeof(*argv));
		argv[i] = cut;
	}
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	/* --help names every parameter */
	f = open_memstream(&usage, &len);
	assert_non_null(f);
	wl_opts_usage(w, f);
	fclose(f);
	for (const struct wl_param *p = w->params; p->name; p++) {
		_cleanup_free_ char *opt = xasprintf("--%s=", p->name);

		if (!strstr(usage, opt))
			fail_msg("%s: --help has no %s", w->name, opt);
	}
}

/*
 * workloads/WORKLOADS.def, a row WORKLOAD(id) a line as the Makefile reads
 * it, is the catalogue in its order; each row names workloads/wl-ID.c and
 * /bin/wl-ID ('-' for '_'); and every workloads/wl-*.c has its row.
 */
#define WORKLOAD(id) #id,
static const char *const rows[] = {
#include "WORKLOADS.def"
};
#undef WORKLOAD

static void test_catalogue_list(void **state)
{
	_cleanup_free_ char *text = NULL;
	size_t n = 0, lines = 0;
	glob_t g;

	(void)state;
	if (read_file("workloads/WORKLOADS.def", 1u << 20, &text, NULL) < 0)
		fail_msg("cannot read workloads/WORKLOADS.def");
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		_cleanup_free_ char *want = NULL;

		if (strncmp(line, "WORKLOAD", 8))
			continue;
		if (lines >= ARRAY_SIZE(rows))
			fail_msg("WORKLOADS.def: '%s': more rows than the catalogue", line);
		want = xasprintf("WORKLOAD(%s)", rows[lines++]);
		if (strcmp(line, want))
			fail_msg("WORKLOADS.def: '%s': the Makefile reads only '%s' lines", line,
				 want);
	}
	assert_int_equal(lines, ARRAY_SIZE(rows));
	for (; workload_catalogue[n]; n++) {
		const struct workload_def *w = workload_catalogue[n];
		_cleanup_free_ char *id = xstrdup(w->name);
		_cleanup_free_ char *bin = xasprintf("/bin/wl-%s", w->name);
		_cleanup_free_ char *src = xasprintf("workloads/wl-%s.c", w->name);

		for (char *c = id; *c; c++)
			*c = *c == '-' ? '_' : *c;
		if (n >= ARRAY_SIZE(rows) || strcmp(id, rows[n]))
			fail_msg("catalogue entry %zu is '%s', WORKLOADS.def's row '%s'", n, w->name,
				 n < ARRAY_SIZE(rows) ? rows[n] : "(none)");
		assert_string_equal(w->binary, bin);
		if (access(src, R_OK) < 0)
			fail_msg("%s: no source %s", w->name, src);
	}
	assert_int_equal(n, ARRAY_SIZE(rows));
	assert_int_equal(glob("workloads/wl-*.c", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = g.gl_pathv[i] + strlen("workloads/wl-");
		_cleanup_free_ char *name = xasprintf("%.*s", (int)(strlen(base) - 2), base);

		if (!workload_find(name))
			fail_msg("%s has no row in WORKLOADS.def: it is neither built nor listed",
				 g.gl_pathv[i]);
	}
	globfree(&g);
}

/* Every definition: names the agent will forward, the common shape first, parsable defaults. */
static void test_catalogue_rows(void **state)
{
	(void)state;
	for (size_t i = 0; workload_catalogue[i]; i++) {
		const struct workload_def *w = workload_catalogue[i];

		assert_ptr_equal(workload_find(w->name), w);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(workload_catalogue[j]->name, w->name))
				fail_msg("two workloads named %s", w->name);
		if (!proto_name(w->name) || !w->claims || !*w->claims || !w->description)
			fail_msg("%s: a bad name, no claims or no description", w->name);
		for (const struct wl_param *p = w->params; p->name; p++) {
			check_param(w, p);
			assert_ptr_equal(workload_param(w, p->name), p);
		}
		check_metrics(w);
		check_decides(w);
		check_parser(w);
	}
	assert_null(workload_find("nope"));
}

static void test_choice(void **state)
{
	const struct wl_param *p = workload_param(workload_find("mmap-stride"), "advice");

	(void)state;
	assert_true(wl_param__choice_ok(p, "random"));
	assert_true(wl_param__choice_ok(p, "normal"));
	assert_false(wl_param__choice_ok(p, "rand"));
	assert_false(wl_param__choice_ok(p, "random|normal"));
	assert_false(wl_param__choice_ok(p, ""));
	assert_false(wl_param__choice_ok(workload_param(workload_find("anon-zipf"), "size"),
					 "random"));
}

/* Each type's parsing, and its refusals, as plan and binary share it. */
static void test_param_parse(void **state)
{
	const struct workload_def *w = workload_find("mmap-stride");
	const struct wl_param *theta = workload_param(workload_find("anon-zipf"), "theta");
	union wl_value v;

	(void)state;
	assert_int_equal(wl_param__parse(workload_param(w, "size"), "2M", &v), 0);
	assert_int_equal(v.u, 2 << 20);
	assert_int_equal(wl_param__parse(workload_param(w, "size"), "2.5x", &v), -EINVAL);
	assert_int_equal(wl_param__parse(workload_param(w, "passes"), "7", &v), 0);
	assert_int_equal(v.u, 7);
	assert_true(wl_param__parse(workload_param(w, "passes"), "-1", &v) < 0);
	assert_int_equal(wl_param__parse(workload_param(w, "duration"), "1500ms", &v), 0);
	assert_int_equal(v.u, 1500);
	assert_int_equal(wl_param__parse(workload_param(w, "advice"), "random", &v), 0);
	assert_string_equal(v.s, "random");
	assert_int_equal(wl_param__parse(workload_param(w, "advice"), "rand", &v), -EINVAL);
	assert_int_equal(wl_param__parse(theta, "0.9999", &v), 0);
	assert_true(v.d == 0.9999);
	assert_int_equal(wl_param__parse(theta, "1", &v), -EINVAL);
	assert_int_equal(wl_param__parse(theta, "nan", &v), -EINVAL);
	/* required: no default, and not a count or a duration (unset = 0) */
	assert_true(wl_param__required(workload_param(w, "size")));
	assert_false(wl_param__required(workload_param(w, "duration")));
	assert_false(wl_param__required(workload_param(workload_find("anon-zipf"), "accesses")));
	assert_false(wl_param__required(workload_param(workload_find("anon-zipf"), "seed")));
}

/* README.md's table of workloads is the catalogue's (scripts/readme-workloads.sh). */
static void test_readme_table(void **state)
{
	_cleanup_free_ char *readme = NULL, *table = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&table, &len);
	char *start, *end;

	(void)state;
	assert_non_null(f);
	workload_catalogue_markdown(f);
	fclose(f);
	if (read_file("README.md", 4u << 20, &readme, NULL) < 0)
		fail_msg("cannot read README.md");
	start = strstr(readme, "\n<!-- workloads: ");
	end = start ? strstr(start, "\n<!-- /workloads -->") : NULL;
	if (!start || !end)
		fail_msg("README.md has no <!-- workloads: --> ... <!-- /workloads --> lines");
	start = strchr(start + 1, '\n') + 1;
	end[1] = '\0';
	if (strcmp(start, table))
		fail_msg("README.md's table of workloads is not the catalogue's: "
			 "scripts/readme-workloads.sh rewrites it");
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
		cmocka_unit_test(test_catalogue_list),
		cmocka_unit_test(test_catalogue_rows),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_param_parse),
		cmocka_unit_test(test_readme_table),
		cmocka_unit_test(test_fio_json),
		cmocka_unit_test(test_sysbench),
		cmocka_unit_test(test_lru_gen_sizes),
		cmocka_unit_test(test_flat_and_io_stat),
		cmocka_unit_test(test_hist_add_n_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
