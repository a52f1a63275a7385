// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict layer and the report writers on a campaign database built
 * here through the store: warm-up runs and failed runs kept out of the
 * numbers, a clear regression found, an unchanged metric left alone, no
 * verdict with n < 2 or across LRUs on a metric marked not comparable, and
 * reports (HTML, JUnit, JSON, plots) that stay well-formed when the guest
 * sends hostile names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign-fixture.h"
#include "compare.h"
#include "escape.h"
#include "noise.h"
#include "plan.h"
#include "report.h"
#include "spawn.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

/* A result key as a hostile guest might send it: markup, quotes, a control
 * character, invalid UTF-8, gnuplot's enhanced-text and macro characters. */
#define HOSTILE "k<&>\"'\x01\xc3\xa9\xff_^{}@$\\"

static char tmpdir[] = "/tmp/lrubench-test-verdict.XXXXXX";

struct run_spec {
	const char *variant;
	int rep;
	const char *status;
	double tput, lat; /* results */
	int64_t refault; /* counter increase */
	bool only1; /* also report w:only1 */
};

/*
 * base (classic), cand (MGLRU) and twin (classic), four repetitions, the
 * first a warm-up with absurd values; cand is 30% slower, and one of its
 * runs failed with a zero that must not be averaged. w:only1 has one value
 * in base, two in cand, none in twin.
 */
static const struct run_spec runs[] = {
	{ "base", 0, RUN_COMPLETED, 5000, 500, 1000000, false },
	{ "cand", 0, RUN_COMPLETED, 5000, 500, 1000000, false },
	{ "twin", 0, RUN_COMPLETED, 5000, 500, 1000000, false },
	{ "base", 1, RUN_COMPLETED, 102, 10, 1000, true },
	{ "cand", 1, RUN_COMPLETED, 70, 10.2, 300, true },
	{ "twin", 1, RUN_COMPLETED, 101, 10.1, 1010, false },
	{ "base", 2, RUN_COMPLETED, 98, 11, 1020, false },
	{ "cand", 2, RUN_COMPLETED, 72, 10.8, 310, true },
	{ "twin", 2, RUN_COMPLETED, 99, 10.9, 990, false },
	{ "base", 3, RUN_COMPLETED, 101, 9, 980, false },
	{ "cand", 3, RUN_COMPLETED, 69, 9.1, 290, false },
	{ "twin", 3, RUN_COMPLETED, 100, 9.2, 1000, false },
	{ "cand", 3, RUN_FAILED_WORKLOAD, 0, 0, 0, false },
};

/* every run's guest.kernel_release; tests of other kernels set it */
static const char *fixture_release = "6.1.0-57-cloud-amd64";
static const char *variant_kernel = "6.1 k";
static const char *cand_release; /* the cand variant's, when not fixture_release */
static bool with_pgscan; /* also sample vmstat:pgscan_anon */

static char *build_db(void)
{
	char *path = xasprintf("%s/c.db", tmpdir);
	struct store *st = NULL;
	int64_t vid[3], run;
	static const char *const names[] = { "base", "cand", "twin" };
	static const char *const lrus[] = { "classic", "mglru", "classic" };

	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(store__meta_set(st, "campaign", "vt<&>"), 0);
	assert_int_equal(store__meta_set(st, "plan.baseline", "base"), 0);
	assert_int_equal(store__meta_set(st, "plan.warmup", "1"), 0);
	/* workload w's key results: the catalogue's for anon-zipf (throughput, majflt) */
	assert_int_equal(store__meta_set(st, "plan.text",
					 "[variant base]\nlru = classic\n[memcg m]\n"
					 "memory.max = 64M\n[workload w]\ntype = anon-zipf\n"
					 "memcg = m\nsize = 2x\n"),
			 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(store__variant_add(st, names[i], variant_kernel, lrus[i], "", &vid[i]),
				 0);
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		const struct run_spec *r = &runs[i];
		int v = r->variant[0] == 'b' ? 0 : r->variant[0] == 'c' ? 1 : 2;

		assert_int_equal(store__run_add(st, vid[v], r->rep, (int)i, 1, &run), 0);
		store__run_prov(st, run, "guest.kernel_release",
				v == 1 && cand_release ? cand_release : fixture_release);
		assert_int_equal(
			store__result(st, run, "w", "throughput", r->tput, "ops/s", "higher"), 0);
		assert_int_equal(store__result(st, run, "w", "lat_p99", r->lat, "ns", "lower"), 0);
		assert_int_equal(store__result(st, run, "w", HOSTILE, 1, "x", "higher"), 0);
		if (r->only1)
			assert_int_equal(store__result(st, run, "w", "only1", 5, "x", "lower"), 0);
		for (int seq = 0; seq < 2; seq++) {
			assert_int_equal(store__sample_begin(st, run, seq, seq * 1000000000LL), 0);
			assert_int_equal(store__value(st, run, seq,
						      "vmstat:workingset_refault_anon", "-",
						      seq ? 5000 + r->refault : 5000),
					 0);
			if (with_pgscan)
				assert_int_equal(store__value(st, run, seq, "vmstat:pgscan_anon", "-",
							      seq ? 900 + r->refault : 900),
						 0);
			assert_int_equal(store__sample_end(st, run, seq, true), 0);
		}
		assert_int_equal(store__run_finish(st, run, r->status, NULL, 1), 0);
	}
	store__close(st);
	return path;
}

static const struct comparison *find(const struct analysis *an, const char *label, const char *cand)
{
	for (size_t i = 0; i < an->nc; i++)
		if (!strcmp(an->ds->rows[an->c[i].row].label, label) &&
		    !strcmp(an->ds->v[an->c[i].cand].name, cand))
			return &an->c[i];
	fail_msg("no comparison of %s for %s", label, cand);
	return NULL;
}

static void test_verdicts(void **state)
{
	_cleanup_free_ char *path = build_db();
	struct store *st = NULL;
	struct analysis *an = NULL;
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	const struct comparison *c;

	(void)state;
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	assert_string_equal(an->ds->v[an->ds->base].name, "base");
	assert_int_equal(an->ds->warmup, 1);
	/* warm-up and failed runs counted, not measured */
	assert_int_equal(an->ds->v[1].measured, 3);
	assert_int_equal(an->ds->v[1].warmup, 1);
	assert_int_equal(an->ds->v[1].failed, 1);

	c = find(an, "w:throughput", "cand");
	assert_true(c->key);
	assert_int_equal(c->family_size, 1);
	assert_int_equal(c->base.n, 3);
	assert_int_equal(c->pairs, 3);
	assert_true(fabs(c->base.mean - (102 + 98 + 101) / 3.0) < 1e-9);
	assert_true(fabs(c->cur.mean - (70 + 72 + 69) / 3.0) < 1e-9);
	assert_true(fabs(c->change - (211.0 / 3 - 301.0 / 3) / (301.0 / 3)) < 1e-12);
	assert_int_equal(c->verdict, VERDICT_REGRESSION);
	assert_int_equal(c->decision, DECISION_BEYOND);
	/* a fixed design, a family of one, but two candidates (cand, twin): the campaign's
	 * 0.05 over its 2 key tests, each at 0.025 (one alpha per candidate let the exit
	 * status's false-alarm rate grow with the candidates) */
	assert_int_equal(an->key_total, 2);
	assert_true(fabs(c->level - 0.975) < 1e-12);
	assert_true(fabs(c->q - 2 * c->paired.p) < 1e-15);
	assert_true(c->q <= 0.05);
	assert_true(c->ci_hi < -0.05);
	assert_true(c->cliff == -1);
	/* the twin is within a percent: no verdict either way, and shown to be within 5% */
	c = find(an, "w:throughput", "twin");
	assert_int_equal(c->verdict, VERDICT_NO_CHANGE);
	assert_int_equal(c->decision, DECISION_WITHIN);
	/* exploratory: no decision, no part in the counts */
	c = find(an, "w:lat_p99", "cand");
	assert_false(c->key);
	assert_int_equal(c->verdict, VERDICT_NO_CHANGE);
	assert_int_equal(c->decision, DECISION_NONE);
	assert_int_equal(find(an, "w:only1", "cand")->verdict, VERDICT_TOO_FEW);
	assert_int_equal(find(an, "w:only1", "twin")->verdict, VERDICT_NO_DATA);
	/* refaults: not comparable across LRUs (6.1), comparable between two classic runs;
	 * the candidate's 70% fewer refaults would otherwise read as an improvement */
	c = find(an, "vmstat:workingset_refault_anon", "cand");
	assert_int_equal(c->verdict, VERDICT_NOT_COMPARABLE);
	assert_non_null(c->reason);
	assert_true(isnan(c->change) && isnan(c->q));
	assert_int_equal(find(an, "vmstat:workingset_refault_anon", "twin")->verdict,
			 VERDICT_NO_CHANGE);
	assert_int_equal(an->regressions, 1);
	assert_int_equal(an->improvements, 0);
	assert_int_equal(an->key_tests, 2);
	/* exploratory: lat and hostile for cand and twin, refault for twin */
	assert_int_equal(an->tests, 5);
	assert_int_equal(analysis__exit_status(an), EXIT_REGRESSION);

	/* a larger minimum effect turns the regression into no change */
	analysis__free(an);
	o.min_effect = 0.5;
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	assert_int_equal(find(an, "w:throughput", "cand")->verdict, VERDICT_NO_CHANGE);
	assert_int_equal(an->regressions, 0);
	assert_int_equal(analysis__exit_status(an), EXIT_NO_REGRESSION);
	analysis__free(an);
	/* another baseline: cand against itself is no baseline; twin as the baseline */
	assert_int_equal(analysis__run(st, "nope", &o, &an), -ENOENT);
	assert_int_equal(analysis__run(st, "twin", &o, &an), 0);
	assert_string_equal(an->ds->v[an->ds->base].name, "twin");
	analysis__free(an);
	store__close(st);
}

static bool have(const char *prog)
{
	const char *argv[] = { prog, "--version", NULL };
	_cleanup_free_ char *out = NULL, *err = NULL;
	struct spawn_opts so = { .ret_stdout = &out, .ret_stderr = &err };

	return spawn_run(argv, &so) == 0;
}

static bool xml_ok(const char *path)
{
	const char *argv[] = { "xmllint", "--noout", path, NULL };
	_cleanup_free_ char *err = NULL;
	struct spawn_opts so = { .ret_stderr = &err };
	int r = spawn_run(argv, &so);

	if (r != 0)
		print_error("xmllint %s: %s\n", path, err ? err : "");
	return r == 0;
}

static void test_reports(void **state)
{
	_cleanup_free_ char *path = xasprintf("%s/c.db", tmpdir);
	_cleanup_free_ char *dir = xasprintf("%s/report", tmpdir);
	_cleanup_free_ char *junit = xasprintf("%s/junit.xml", tmpdir);
	_cleanup_free_ char *json = xasprintf("%s/v.json", tmpdir);
	_cleanup_free_ char *html = xasprintf("%s/index.html", dir);
	_cleanup_free_ char *j = NULL, *js = NULL, *h = NULL, *md = NULL, *mdpath = NULL;
	struct report_opts o = { .db_path = path,
				 .dir = dir,
				 .vo = VERDICT_OPTS_DEFAULT,
				 .junit = junit,
				 .json = json };
	struct store *st = NULL;
	int status = 99;
	const char *p;
	int failures = 0;

	(void)state;
	if (access(path, F_OK) < 0)
		free(build_db());
	o.no_plots = !have("gnuplot");
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(report__write(st, &o, &status), 0);
	store__close(st);
	assert_int_equal(status, EXIT_REGRESSION);

	/* JUnit: one failing case, the regression; the n/c and n<2 cases skipped */
	assert_int_equal(read_file(junit, 1 << 20, &j, NULL), 0);
	for (p = j; (p = strstr(p, "<failure ")); p++)
		failures++;
	assert_int_equal(failures, 1);
	assert_non_null(strstr(j, "name=\"w:throughput\">\n      <failure type=\"regression\""));
	assert_non_null(strstr(j, "<skipped message=\"not comparable across LRUs: under MGLRU"));
	assert_non_null(strstr(j, "<skipped message=\"too few blocks (n &lt; 2)\"/>"));
	/* every planned run measured: no error */
	assert_non_null(strstr(j, "errors=\"0\""));
	assert_null(strstr(j, "<error"));
	/* hostile text escaped, the invalid byte and the control character replaced */
	assert_non_null(strstr(j, "name=\"w:k&lt;&amp;&gt;&quot;&#39;\xef\xbf\xbd\xc3\xa9\xef"
				  "\xbf\xbd_^{}@$\\\""));
	assert_null(strstr(j, "\xff"));
	assert_non_null(strstr(j, "name=\"lrubench vt&lt;&amp;&gt;\""));

	assert_int_equal(read_file(json, 1 << 20, &js, NULL), 0);
	assert_non_null(strstr(js, "\"metric\": \"w:k<&>\\\"'\\u0001\xc3\xa9\\ufffd_^{}@$\\\\\""));
	assert_non_null(strstr(js, "\"regressions\": 1,"));
	assert_non_null(strstr(js, "\"warmup_repetitions\": 1,"));

	assert_int_equal(read_file(html, 16 << 20, &h, NULL), 0);
	assert_null(strstr(h, "\xff"));
	assert_null(strstr(h, "<&>"));
	mdpath = xasprintf("%s/report.md", dir);
	assert_int_equal(read_file(mdpath, 1 << 20, &md, NULL), 0);
	/* the claims scoreboard comes first, then the verdict table */
	assert_non_null(strstr(md, "## Claims"));
	assert_true(strstr(md, "## Claims") < strstr(md, "## Verdicts"));
	assert_non_null(strstr(md, "| C8: "));
	assert_non_null(strstr(h, "<section id=\"claims\">"));
	assert_true(strstr(h, "id=\"claims\"") < strstr(h, "id=\"verdicts\""));
	assert_true(strstr(md, "## Verdicts") < strstr(md, "## Comparison"));
	assert_non_null(strstr(md, "REGRESSION"));
	if (!have("xmllint")) {
		print_message("SKIP well-formedness: xmllint not installed\n");
	} else {
		assert_true(xml_ok(junit));
		assert_true(xml_ok(html));
	}
	if (o.no_plots) {
		print_message("SKIP plots: gnuplot not installed\n");
	} else {
		static const char *const must[] = { "heatmap", "bars-0-w" };

		/* the hostile name went through gnuplot too (bars of group w) */
		for (size_t i = 0; i < ARRAY_SIZE(must); i++)
			for (int e = 0; e < 3; e++) {
				static const char *const ext[] = { "png", "svg", "pdf" };
				_cleanup_free_ char *f =
					xasprintf("%s/plots/%s.%s", dir, must[i], ext[e]);
				struct stat sb;

				if (stat(f, &sb) < 0 || sb.st_size == 0)
					fail_msg("%s missing or empty", f);
			}
		assert_non_null(strstr(h, "<svg"));
	}
}

/* The A/A transformation of a plan and noise figures through the store. */
static void test_noise(void **state)
{
	static const char plan_text[] = "[campaign]\nbaseline = b\n[variant a]\nlru = classic\n"
					"[variant b]\nlru = mglru\nsysctl.vm.swappiness = 10\n"
					"memcg.m.memory.max = 1M\nthp = always\nread_ahead_kb = 64\n"
					"trace = off\nmin_ttl_ms = 500\n[memcg m]\nmemory.max = 2M\n"
					"[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n"
					"[workload f]\ntype = file-zipf\nmemcg = m\nsize = 1M\n";
	_cleanup_free_ char *path = xasprintf("%s/c.db", tmpdir);
	_cleanup_free_ char *err = NULL;
	struct plan *p = NULL;
	struct store *st = NULL;
	struct analysis *an = NULL;
	struct noise *nz = NULL, *back = NULL;
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	const struct noise_row *r;

	(void)state;
	assert_int_equal(plan__parse("aa.ini", plan_text, &p, &err), 0);
	assert_int_equal(noise__plan(p, NULL, &err), 0);
	assert_int_equal(p->nvariants, 2);
	assert_string_equal(p->variants[0].name, "b-a");
	assert_string_equal(p->variants[1].name, "b-b");
	assert_string_equal(p->baseline, "b-a");
	assert_string_equal(p->name, "campaign-noise");
	for (int i = 0; i < 2; i++) {
		assert_string_equal(p->variants[i].lru, "mglru");
		assert_string_equal(p->variants[i].sysctls[0].value, "10");
		assert_string_equal(plan_variant__memcg(&p->variants[i], "m", "memory.max"),
				    "1048576");
		/* every knob of the variant, not only those noise.c once knew of */
		assert_string_equal(p->variants[i].thp, "always");
		assert_int_equal(p->variants[i].read_ahead_kb, 64);
		assert_int_equal(p->variants[i].trace, 0);
		assert_int_equal(p->variants[i].min_ttl_ms, 500);
	}
	assert_int_equal(noise__plan(p, "zz", &err), -ENOENT);
	plan__free(p);

	/* base against twin, both classic: the A/A figures of the synthetic campaign */
	if (access(path, F_OK) < 0)
		free(build_db());
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(analysis__run(st, "base", &o, &an), 0);
	assert_int_equal(noise__compute(an, 2, &nz), 0);
	assert_int_equal(noise__store(st, nz), 0);
	assert_int_equal(noise__load(st, &back), 0);
	r = noise__find(back, "w:throughput");
	assert_non_null(r);
	assert_int_equal(r->n, 3);
	/* by hand: base 102 98 101 (variance 13/3 = 4.333), twin 101 99 100 (variance 1),
	 * pooled cv = sqrt((4.333 + 1) / 2) / 100.1667 */
	assert_true(fabs(r->cv - sqrt((13.0 / 3 + 1) / 2) / (601.0 / 6)) < 1e-12);
	assert_true(fabs(r->mde - stats__mde(3, r->cv, 0.05, 0.8)) < 1e-12);
	/* paired: differences -1 1 -1 over 3 blocks (sd sqrt(4/3)), base mean 301/3 */
	assert_int_equal(r->blocks, 3);
	assert_true(fabs(r->pair_sd - sqrt(4.0 / 3) / (301.0 / 3)) < 1e-12);
	/* the non-central t's answer at the key level, beyond the shortcut (t(1 - alpha'/2, 2)
	 * + t(0.8, 2)) sd / sqrt(3) that was 14% short (test-stats checks it by simulation) */
	assert_true(fabs(r->mde_paired - stats__paired_mde(3, r->pair_sd, NOISE_KEY_LEVEL, 0.8)) <
		    1e-9 * r->pair_sd);
	assert_true(r->mde_paired > 1.1 * (stats__t_crit(NOISE_KEY_LEVEL, 2) + 1.06066) *
					    r->pair_sd / sqrt(3));
	assert_null(noise__find(back, "w:only1"));
	noise__free(nz);
	noise__free(back);
	analysis__free(an);
	store__close(st);
}

/*
 * A swappiness sweep: classic and MGLRU at swappiness 10 and 150, two runs
 * each; pgsteal anon/file chosen so that the anon share is 20% and 60%
 * (classic), 10% and 30% (MGLRU). The balance plots appear, and the sweep's
 * data holds one line per LRU mode in swappiness order with those shares.
 */
static void test_balance_sweep(void **state)
{
	static const struct {
		const char *name, *lru, *knobs;
		int64_t anon, file;
	} v[] = {
		{ "cl10", "classic", "lru_enabled=0x0000 vm/swappiness=10", 200, 800 },
		{ "mg150", "mglru", "lru_enabled=0x0007 vm/swappiness=150", 300, 700 },
		{ "cl150", "classic", "lru_enabled=0x0000 vm/swappiness=150", 600, 400 },
		{ "mg10", "mglru", "lru_enabled=0x0007 vm/swappiness=10", 100, 900 },
	};
	_cleanup_free_ char *path = xasprintf("%s/sweep.db", tmpdir);
	_cleanup_free_ char *dir = xasprintf("%s/sweep", tmpdir);
	_cleanup_free_ char *dat = xasprintf("%s/plots/balance-swappiness.dat", dir);
	_cleanup_free_ char *data = NULL;
	struct report_opts o = { .db_path = path, .dir = dir, .vo = VERDICT_OPTS_DEFAULT };
	struct store *st = NULL;
	int64_t vid, run;
	int ord = 0;

	(void)state;
	if (!have("gnuplot")) {
		skip();
		return;
	}
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(store__meta_set(st, "campaign", "sweep"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		assert_int_equal(store__variant_add(st, v[i].name, "k", v[i].lru, v[i].knobs, &vid),
				 0);
		for (int rep = 0; rep < 2; rep++) {
			assert_int_equal(store__run_add(st, vid, rep, ord++, 1, &run), 0);
			for (int seq = 0; seq < 2; seq++) {
				assert_int_equal(store__sample_begin(st, run, seq, seq * 1000000000LL),
						 0);
				assert_int_equal(store__value(st, run, seq, "vmstat:pgsteal_anon", "-",
							      seq * v[i].anon),
						 0);
				assert_int_equal(store__value(st, run, seq, "vmstat:pgsteal_file", "-",
							      seq * v[i].file),
						 0);
				assert_int_equal(store__sample_end(st, run, seq, true), 0);
			}
			assert_int_equal(store__result(st, run, "w", "t", 1, "x", "higher"), 0);
			assert_int_equal(store__run_finish(st, run, RUN_COMPLETED, NULL, 1), 0);
		}
	}
	assert_int_equal(report__write(st, &o, NULL), 0);
	store__close(st);
	for (int e = 0; e < 3; e++) {
		static const char *const ext[] = { "png", "svg", "pdf" };
		_cleanup_free_ char *f1 = xasprintf("%s/plots/balance.%s", dir, ext[e]);
		_cleanup_free_ char *f2 = xasprintf("%s/plots/balance-swappiness.%s", dir, ext[e]);
		struct stat sb;

		assert_true(stat(f1, &sb) == 0 && sb.st_size > 0);
		assert_true(stat(f2, &sb) == 0 && sb.st_size > 0);
	}
	assert_int_equal(read_file(dat, 1 << 20, &data, NULL), 0);
	/* block 0 classic, block 1 mglru (the order variants name them); no spread: 0 */
	assert_non_null(strstr(data, "10 20 0\n150 60 0\n\n\n10 10 0\n150 30 0\n\n\n"));
}

static void test_escape(void **state)
{
	_cleanup_free_ char *x = NULL, *js = NULL, *g = NULL, *fn = escape_filename("../a b/é");
	size_t lx = 0, lj = 0, lg = 0;
	FILE *fx = open_memstream(&x, &lx), *fj = open_memstream(&js, &lj);
	FILE *fg = open_memstream(&g, &lg);

	(void)state;
	escape_xml(fx, "a<b>&\"'\x01\xed\xa0\x80\xc0\xaf\n");
	escape_json(fj, "a\"\\\n\x01\xff");
	escape_gnuplot(fg, "a\"\\\n\x01'@$_^{}\xff");
	fclose(fx);
	fclose(fj);
	fclose(fg);
	/* a surrogate (ED A0 80) and an overlong slash (C0 AF) are invalid UTF-8 */
	assert_string_equal(x, "a&lt;b&gt;&amp;&quot;&#39;\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n");
	assert_string_equal(js, "\"a\\\"\\\\\\n\\u0001\\ufffd\"");
	assert_string_equal(g, "\"a\\\"\\\\\\n '@$_^{}?\"");
	assert_string_equal(fn, "_._a_b___");
	free(fn);
	fn = escape_filename("");
	assert_string_equal(fn, "_");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct spawn_opts so = { 0 };

	(void)state;
	if (getenv("LRUBENCH_TEST_KEEP")) { /* to look at the reports */
		print_message("kept %s\n", tmpdir);
		return 0;
	}
	return spawn_run(argv, &so) == 0 ? 0 : -1;
}

/*
 * Failure is never green: a campaign that lost a run (its kernel panicked,
 * no retry made it good) and whose candidate has one block is incomplete:
 * exit 3 from the verdict layer and the report, an <error> per lost run
 * with its reason and console tail in JUnit, INCOMPLETE in the summary. A
 * campaign whose every run failed says that nothing was measured.
 */
static void test_incomplete(void **state)
{
	static const struct fx_run lost[] = {
		{ 0, 0, 0, RUN_COMPLETED, 100, 10, NULL },
		{ 1, 0, 1, RUN_FAILED_KERNEL, 0, 10, NULL },
		{ 0, 1, 2, RUN_COMPLETED, 101, 10, NULL },
		{ 1, 1, 3, RUN_COMPLETED, 99, 10, NULL },
	};
	static const struct fx_run none[] = {
		{ 0, 0, 0, RUN_FAILED_INFRA, 0, 10, NULL },
		{ 1, 0, 1, RUN_FAILED_KERNEL, 0, 10, NULL },
	};
	const struct fx_campaign campaigns[] = {
		{ .campaign = "lost", .runs = lost, .nruns = ARRAY_SIZE(lost) },
		{ .campaign = "none", .runs = none, .nruns = ARRAY_SIZE(none) },
	};

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(campaigns); k++) {
		_cleanup_free_ char *path = xasprintf("%s/inc-%zu.db", tmpdir, k);
		_cleanup_free_ char *dir = xasprintf("%s/inc-%zu", tmpdir, k);
		_cleanup_free_ char *junit = xasprintf("%s/inc-%zu.xml", tmpdir, k);
		_cleanup_free_ char *j = NULL, *out = NULL, *buf = NULL;
		struct report_opts o = { .db_path = path, .dir = dir, .vo = VERDICT_OPTS_DEFAULT,
					 .junit = junit, .no_plots = true };
		struct store *st = NULL;
		struct analysis *an = NULL;
		const char *why;
		size_t len = 0;
		FILE *f;
		int status = 99;

		fx_write(path, &campaigns[k]);
		assert_int_equal(store__open(path, &st), 0);
		assert_int_equal(analysis__run(st, NULL, NULL, &an), 0);
		assert_int_equal(analysis__exit_status(an), EXIT_INCOMPLETE);
		why = analysis__incomplete(an, &buf);
		assert_non_null(why);
		f = open_memstream(&out, &len);
		compare__summary(an, f);
		fclose(f);
		assert_true(!strncmp(out, "INCOMPLETE: ", 12));
		if (k == 0) {
			assert_int_equal(an->ds->nfailures, 1);
			assert_int_equal(an->ds->v[1].lost, 1);
			assert_non_null(strstr(why, "1 planned run failed"));
			assert_non_null(strstr(why, "mglru has 1 block measured beside classic"));
		} else {
			assert_string_equal(why, "no run was measured");
		}
		analysis__free(an);
		assert_int_equal(report__write(st, &o, &status), 0);
		store__close(st);
		assert_int_equal(status, EXIT_INCOMPLETE);
		assert_int_equal(read_file(junit, 1 << 20, &j, NULL), 0);
		if (have("xmllint"))
			assert_true(xml_ok(junit));
		if (k == 0) {
			/* the lost run and the short variant; the console's tail in the error */
			assert_non_null(strstr(j, "<testsuites name=\"lrubench lost\" tests="));
			assert_non_null(strstr(j, "errors=\"2\""));
			assert_non_null(strstr(j, "<error type=\"failed-kernel\" "
						  "message=\"failed-kernel: fixture\">"));
			assert_non_null(strstr(j, "console (last lines):\nrun at place 1</error>"));
			assert_non_null(strstr(j, "<error type=\"incomplete\" message=\"1 block "
						  "measured beside classic; a verdict needs 2\""));
		} else {
			assert_non_null(strstr(j, "<error type=\"failed-infra\""));
			assert_non_null(strstr(j, "<error type=\"nothing-measured\""));
		}
	}
}

/*
 * Kernel x LRU: two kernels under each LRU, 3 blocks. On kernel A MGLRU
 * halves the major faults; on kernel B both LRUs fault as A's classic, so B
 * regresses against A under MGLRU (+100%) and is the same under classic.
 */
static void test_kernel_lru_grid(void **state)
{
	static const char *const names[] = { "a-classic", "a-mglru", "b-classic", "b-mglru" };
	static const char *const lrus[] = { "classic", "mglru", "classic", "mglru" };
	static const char *const kernels[] = { "6.1.0-57 aaa", "6.1.0-57 aaa", "6.12.118 bbb",
					       "6.12.118 bbb" };
	static const double faults[] = { 1000, 500, 1000, 1000 };
	_cleanup_free_ char *path = xasprintf("%s/grid.db", tmpdir);
	_cleanup_free_ char *out = NULL;
	struct store *st = NULL;
	struct analysis *an = NULL;
	struct compare_grid g;
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	int64_t vid[4], run;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(store__meta_set(st, "campaign", "grid"), 0);
	assert_int_equal(store__meta_set(st, "plan.baseline", "a-classic"), 0);
	assert_int_equal(store__meta_set(st, "plan.text",
					 "[variant a-classic]\n[memcg m]\nmemory.max = 64M\n"
					 "[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 2x\n"),
			 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(store__variant_add(st, names[i], kernels[i], lrus[i],
						    i % 2 ? "lru_enabled=0x0007 thp=never" :
							    "lru_enabled=0x0000 thp=never",
						    &vid[i]),
				 0);
	for (int rep = 0, ord = 0; rep < 3; rep++)
		for (int i = 0; i < 4; i++, ord++) {
			assert_int_equal(store__run_add(st, vid[i], rep, ord, 1, &run), 0);
			assert_int_equal(store__result(st, run, "w", "majflt",
						       faults[i] * (1 + 0.01 * rep) + i, "faults",
						       "lower"),
					 0);
			assert_int_equal(store__run_finish(st, run, RUN_COMPLETED, NULL, 1), 0);
		}
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	assert_int_equal(compare__grid_find(an->ds, &g), 0);
	assert_int_equal(g.nk, 2);
	assert_string_equal(an->ds->v[g.cell[1][1]].name, "b-mglru");
	f = open_memstream(&out, &len);
	assert_int_equal(compare__grid(an->ds, &o, f), 0);
	fclose(f);
	analysis__free(an);
	store__close(st);
	/* kernel A: MGLRU halves the faults; kernel B: MGLRU changes nothing, and is +100% on A's */
	assert_non_null(strstr(out, "w        majflt                 6.1.0-57"));
	assert_non_null(strstr(out, "-49.9% improved\n"));
	assert_null(strstr(out, " \n")); /* no trailing blanks in mail */
	assert_non_null(strstr(out, "6.12.118"));
	assert_non_null(strstr(out, "+100% REGRESSION"));
	/* a plain A/B is no grid */
	{
		struct dataset ds = { .nv = 2 };
		struct ds_variant v[2] = {
			{ .name = (char *)"x", .lru = (char *)"classic", .kernel = (char *)"k 1",
			  .knobs = (char *)"lru_enabled=0x0000" },
			{ .name = (char *)"y", .lru = (char *)"mglru", .kernel = (char *)"k 1",
			  .knobs = (char *)"lru_enabled=0x0007" },
		};

		ds.v = v;
		assert_int_equal(compare__grid_find(&ds, &g), -ENOENT);
	}
}

/* compare on a 6.12 campaign and on an unknown 7.3: the reasons of that kernel's range */
static void test_other_kernel_compare(void **state)
{
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	struct analysis *an = NULL;
	struct store *st = NULL;
	_cleanup_free_ char *path = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	_cleanup_free_ char *keep = xasprintf("%s/c.db", tmpdir);
	_cleanup_free_ char *kept = xasprintf("%s/c-6.1.db", tmpdir);
	assert_int_equal(rename(keep, kept), 0);
	fixture_release = variant_kernel = "6.12.118+deb12-cloud-amd64";
	with_pgscan = true;
	path = build_db();
	with_pgscan = false;
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	/* 6.12 counts every MGLRU refault: a verdict, not n/c */
	assert_int_not_equal(find(an, "vmstat:workingset_refault_anon", "cand")->verdict,
			     VERDICT_NOT_COMPARABLE);
	assert_int_equal(find(an, "vmstat:pgscan_anon", "cand")->verdict, VERDICT_NOT_COMPARABLE);
	analysis__free(an);
	assert_non_null(f = open_memstream(&out, &len));
	assert_int_equal(compare_print(st, f, NULL, false) >= 0, 1);
	fclose(f);
	assert_non_null(strstr(out, "[source: linux-source-6.12 (6.12.118) mm/vmscan.c scan_folios()"));
	assert_null(strstr(out, "6.1.192"));
	free(out);
	out = NULL;
	store__close(st);
	unlink(path);
	free(path);

	fixture_release = variant_kernel = "7.3.1";
	path = build_db();
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	assert_int_equal(find(an, "vmstat:workingset_refault_anon", "cand")->verdict,
			 VERDICT_NOT_COMPARABLE);
	analysis__free(an);
	assert_non_null(f = open_memstream(&out, &len));
	assert_int_equal(compare_print(st, f, NULL, false) >= 0, 1);
	fclose(f);
	assert_non_null(strstr(out, "n/c = not comparable across classic LRU and MGLRU on 7.3.1"));
	assert_non_null(strstr(out, "not known to be comparable"));
	free(out);
	store__close(st);
	unlink(path);
	fixture_release = "6.1.0-57-cloud-amd64";
	variant_kernel = "6.1 k";
	assert_int_equal(rename(kept, keep), 0);
}

/* MGLRU on 6.12 against classic on 6.1: n/c where either kernel says so, both named */
static void test_two_kernels_compare(void **state)
{
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	struct analysis *an = NULL;
	struct store *st = NULL;
	_cleanup_free_ char *path = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	_cleanup_free_ char *keep = xasprintf("%s/c.db", tmpdir);
	_cleanup_free_ char *kept = xasprintf("%s/c-6.1.db", tmpdir);
	assert_int_equal(rename(keep, kept), 0);
	cand_release = "6.12.118+deb12-cloud-amd64";
	path = build_db();
	cand_release = NULL;
	assert_int_equal(store__open(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &o, &an), 0);
	/* comparable on 6.12, not on the baseline's 6.1: n/c with 6.1's reason */
	assert_int_equal(find(an, "vmstat:workingset_refault_anon", "cand")->verdict,
			 VERDICT_NOT_COMPARABLE);
	analysis__free(an);
	assert_non_null(f = open_memstream(&out, &len));
	assert_int_equal(compare_print(st, f, NULL, false) >= 0, 1);
	fclose(f);
	assert_non_null(strstr(out, "n/c = not comparable across classic LRU and MGLRU on "
				    "6.1.0-57-cloud-amd64 or 6.12.118+deb12-cloud-amd64 (a reason's "
				    "source names its kernel):"));
	assert_non_null(strstr(out, "[source: linux-source-6.1 (6.1.192) mm/workingset.c"));
	free(out);
	store__close(st);
	unlink(path);
	assert_int_equal(rename(kept, keep), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_kernel_lru_grid),
		cmocka_unit_test(test_other_kernel_compare),
		cmocka_unit_test(test_two_kernels_compare),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_balance_sweep),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
