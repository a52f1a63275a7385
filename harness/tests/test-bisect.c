// SPDX-License-Identifier: GPL-2.0
/*
 * The bisection rule and its database: a commit clearly at the bad end's
 * level is bad, one at the good end's is good, one halfway is undecided;
 * the direction of the metric orients the change; ends that do not bracket a
 * regression are refused; too few values are no judgement. The database
 * keeps steps in order, with their values, judgement and log.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bisect-priv.h"
#include "bisect.h"
#include "util.h"

static const double good[] = { 1.00, 1.04, 0.97, 1.02, 0.99 };
static const double bad[] = { 2.01, 1.95, 2.08, 2.00, 1.97 };

static void test_judge_lower_is_better(void **state)
{
	struct bisect_rule rule = BISECT_RULE_DEFAULT;
	struct bisect_judgement j, e;
	const double mid[] = { 1.40, 1.62, 1.50, 1.35, 1.66 };
	double thr;
	char *why = NULL;

	(void)state;
	/* The bad end: about twice the good end's time, so +100% worse. */
	assert_int_equal(bisect_judge(good, 5, bad, 5, BETTER_LOWER, 0, &rule, &e), 0);
	assert_true(e.worse > 0.95 && e.worse < 1.05);
	assert_true(e.lo > 0.9 && e.lo <= e.worse && e.worse <= e.hi);
	assert_int_equal(bisect_threshold(&e, &rule, &thr, &why), 0);
	assert_true(fabs(thr - e.worse / 2) < 1e-12);

	/* At the bad end's level: bad. At the good end's: good. Halfway: undecided. */
	assert_int_equal(bisect_judge(good, 5, bad, 5, BETTER_LOWER, thr, &rule, &j), 0);
	assert_int_equal(j.call, BISECT_BAD);
	assert_int_equal(bisect_judge(good, 5, good, 5, BETTER_LOWER, thr, &rule, &j), 0);
	assert_int_equal(j.call, BISECT_GOOD);
	assert_true(fabs(j.worse) < 1e-12);
	/* Beyond the threshold but not beyond doubt (two noisy runs): not bad, and the t
	 * interval agrees with Welch's test (the bootstrap's lay wholly above 1%) */
	{
		const double g2[] = { 1.00, 1.10 }, b2[] = { 1.12, 1.30 };

		assert_int_equal(bisect_judge(g2, 2, b2, 2, BETTER_LOWER, 0.01, &rule, &j), 0);
		assert_true(j.lo < 0 && j.p > rule.alpha);
		assert_int_equal(j.call, BISECT_UNDECIDED);
	}
	assert_int_equal(bisect_judge(good, 5, mid, 5, BETTER_LOWER, thr, &rule, &j), 0);
	assert_int_equal(j.call, BISECT_UNDECIDED);
	assert_true(j.lo < thr && j.hi > thr);
	assert_string_equal(bisect_call_name(j.call), "undecided");
}

static void test_judge_higher_is_better(void **state)
{
	struct bisect_rule rule = BISECT_RULE_DEFAULT;
	struct bisect_judgement j;
	/* Throughput halved at the bad end: 50% worse, and the interval flipped with it. */
	const double tput_good[] = { 1000, 1040, 970, 1010 };
	const double tput_bad[] = { 500, 520, 490, 505 };
	const double tput_better[] = { 2000, 2100, 1950, 2050 };

	(void)state;
	assert_int_equal(bisect_judge(tput_good, 4, tput_bad, 4, BETTER_HIGHER, 0.25, &rule, &j), 0);
	assert_true(j.worse > 0.48 && j.worse < 0.52);
	assert_true(j.lo <= j.worse && j.worse <= j.hi && j.lo > 0.25);
	assert_int_equal(j.call, BISECT_BAD);
	/* Far better than the good end is not bad, nor shown equivalent to it: undecided */
	assert_int_equal(
		bisect_judge(tput_good, 4, tput_better, 4, BETTER_HIGHER, 0.25, &rule, &j), 0);
	assert_true(j.worse < -0.9);
	assert_int_equal(j.call, BISECT_UNDECIDED);
	/* Within +-25% of the good end beyond doubt: good */
	{
		const double near[] = { 1010, 1030, 980, 1000 };

		assert_int_equal(
			bisect_judge(tput_good, 4, near, 4, BETTER_HIGHER, 0.25, &rule, &j), 0);
		assert_true(j.lo > -0.25 && j.hi < 0.25);
		assert_int_equal(j.call, BISECT_GOOD);
	}
	/* The same data read as lower-is-better: an improvement, so the threshold refuses it. */
	{
		double thr;
		char *why = NULL;

		assert_int_equal(
			bisect_judge(tput_good, 4, tput_bad, 4, BETTER_LOWER, 0, &rule, &j), 0);
		assert_int_equal(bisect_threshold(&j, &rule, &thr, &why), -EDOM);
		assert_non_null(strstr(why, "not reliably worse"));
		free(why);
	}
}

static void test_ends_refused(void **state)
{
	struct bisect_rule rule = BISECT_RULE_DEFAULT;
	struct bisect_judgement j;
	const double same[] = { 1.01, 0.98, 1.03, 1.00, 0.99 };
	const double small[] = { 1.021, 1.022, 1.020, 1.021 }; /* +2%, reliably */
	const double flat[] = { 1.0, 1.0, 1.0 };
	const double zero[] = { 0, 0, 0 };
	double thr = -1;
	char *why = NULL;

	(void)state;
	/* No difference: the interval includes zero. */
	assert_int_equal(bisect_judge(good, 5, same, 5, BETTER_LOWER, 0, &rule, &j), 0);
	assert_int_equal(bisect_threshold(&j, &rule, &thr, &why), -EDOM);
	assert_non_null(strstr(why, "beyond doubt"));
	free(why);
	/* Two runs a side, wholly apart but noisy: neither the interval nor Welch's test
	 * excludes no change (the percentile bootstrap's interval did), and doubt wins. */
	{
		const double g2[] = { 1.00, 1.10 }, b2[] = { 1.12, 1.30 };

		assert_int_equal(bisect_judge(g2, 2, b2, 2, BETTER_LOWER, 0, &rule, &j), 0);
		assert_true(j.lo < 0 && j.worse > 0.1 && j.p > 0.05);
		assert_int_equal(bisect_threshold(&j, &rule, &thr, &why), -EDOM);
		assert_non_null(strstr(why, "not worse beyond doubt"));
		free(why);
	}
	/* A reliable but tiny difference: below the minimum effect. */
	assert_int_equal(bisect_judge(flat, 3, small, 4, BETTER_LOWER, 0, &rule, &j), 0);
	assert_true(j.lo > 0);
	assert_int_equal(bisect_threshold(&j, &rule, &thr, &why), -EDOM);
	assert_non_null(strstr(why, "minimum effect"));
	free(why);
	assert_true(thr == -1); /* untouched on refusal */
	/* No judgement without two values a side, a direction, or a non-zero good mean. */
	assert_int_equal(bisect_judge(good, 1, bad, 5, BETTER_LOWER, 0, &rule, &j), -EINVAL);
	assert_int_equal(bisect_judge(good, 5, bad, 1, BETTER_LOWER, 0, &rule, &j), -EINVAL);
	assert_int_equal(bisect_judge(good, 5, bad, 5, BETTER_NONE, 0, &rule, &j), -EINVAL);
	assert_int_equal(bisect_judge(zero, 3, bad, 5, BETTER_LOWER, 0, &rule, &j), -EDOM);
}

/*
 * The interval by simulation: log-normal runs (sd of the log 2% to 30%), a
 * true ratio of the medians R; the interval of the change must hold R - 1
 * (the change of the geometric means) at least 94% of the time at nominal
 * 95%, at 2 to 5 runs a side; the percentile bootstrap's covered 67% at 2.
 * Then the steps' error rates between ends 50% apart (threshold 25%): a
 * commit like the good end called bad, one like the bad end called good.
 */
static void test_coverage(void **state)
{
	static const double sds[] = { 0.02, 0.10, 0.30 };
	struct bisect_rule rule = BISECT_RULE_DEFAULT;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const size_t trials = 4000;

	(void)state;
	gsl_rng_set(rng, 17);
	for (size_t n = 2; n <= 5; n++)
		for (size_t k = 0; k < ARRAY_SIZE(sds); k++) {
			size_t hold = 0;
			double cov;

			for (size_t t = 0; t < trials; t++) {
				double g[5], x[5], ratio = t % 2 ? 1.3 : 1.0;
				struct bisect_judgement j;

				for (size_t i = 0; i < n; i++) {
					g[i] = 100 * exp(gsl_ran_gaussian(rng, sds[k]));
					x[i] = 100 * ratio * exp(gsl_ran_gaussian(rng, sds[k]));
				}
				assert_int_equal(
					bisect_judge(g, n, x, n, BETTER_LOWER, 0.25, &rule, &j), 0);
				hold += j.lo <= ratio - 1 && ratio - 1 <= j.hi;
			}
			cov = (double)hold / (double)trials;
			print_message("bisect interval n=%zu sd %.0f%%: coverage %.4f (nominal 0.95)\n",
				      n, 100 * sds[k], cov);
			if (cov < 0.94)
				fail_msg("n=%zu sd %g: coverage %.4f", n, sds[k], cov);
		}
	for (size_t n = 2; n <= 5; n++) {
		size_t good_bad = 0, good_und = 0, bad_good = 0, bad_und = 0;

		for (size_t t = 0; t < trials; t++) {
			double g[5], xg[5], xb[5];
			struct bisect_judgement j;

			for (size_t i = 0; i < n; i++) {
				g[i] = 100 * exp(gsl_ran_gaussian(rng, 0.10));
				xg[i] = 100 * exp(gsl_ran_gaussian(rng, 0.10));
				xb[i] = 150 * exp(gsl_ran_gaussian(rng, 0.10));
			}
			assert_int_equal(bisect_judge(g, n, xg, n, BETTER_LOWER, 0.25, &rule, &j), 0);
			good_bad += j.call == BISECT_BAD;
			good_und += j.call == BISECT_UNDECIDED;
			assert_int_equal(bisect_judge(g, n, xb, n, BETTER_LOWER, 0.25, &rule, &j), 0);
			bad_good += j.call == BISECT_GOOD;
			bad_und += j.call == BISECT_UNDECIDED;
		}
		print_message("bisect steps n=%zu sd 10%%, ends 50%% apart: a good commit called bad "
			      "%.4f, undecided %.3f; a bad one called good %.4f, undecided %.3f\n",
			      n, (double)good_bad / trials, (double)good_und / trials,
			      (double)bad_good / trials, (double)bad_und / trials);
		/* a wrong call needs the interval to miss the truth: at most 1 - level */
		assert_true((double)good_bad / trials <= 0.05);
		assert_true((double)bad_good / trials <= 0.05);
	}
	gsl_rng_free(rng);
}

static void test_db(void **state)
{
	char dir[] = "/tmp/lrubench-test-bisect.XXXXXX";
	_cleanup_free_ char *path = NULL, *v = NULL, *err = NULL, *out = NULL;
	struct bisect_db *db = NULL;
	struct bisect_rule rule = BISECT_RULE_DEFAULT;
	struct bisect_judgement j;
	double *vals = NULL, *gvals = NULL;
	size_t n = 0, ng = 0, len = 0;
	int64_t id1, id2, id3;
	int ord;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/bisect.db", dir);
	assert_int_equal(bisect_db__open(path, &db, &err), 0);
	assert_int_equal(bisect_db__param_set(db, "metric", "anon:populate_s"), 0);
	assert_int_equal(bisect_db__param_set(db, "metric", "anon:lat_p99"), 0);
	assert_int_equal(bisect_db__param_get(db, "metric", &v), 0);
	assert_string_equal(v, "anon:lat_p99");
	assert_int_equal(bisect_db__param_get(db, "nothing", &out), -ENOENT);
	/* No such step yet. */
	assert_int_equal(bisect_db__values(db, 1, &vals, &n, &gvals, &ng), -ENOENT);

	assert_int_equal(bisect_db__step_begin(db, "good", "aaaa", "base", &id1, &ord), 0);
	assert_int_equal(ord, 1);
	assert_int_equal(bisect_db__step_finish(db, &(struct bisect_step){
				 .id = id1, .role = "good", .commit = "aaaa", .vals = good,
				 .n = 5, .threshold = NAN, .decision = "good" }), 0);
	assert_int_equal(bisect_db__step_begin(db, "bad", "cccc", "tip", &id2, &ord), 0);
	assert_int_equal(ord, 2);
	assert_int_equal(bisect_judge(good, 5, bad, 5, BETTER_LOWER, 0, &rule, &j), 0);
	assert_int_equal(bisect_db__step_finish(db, &(struct bisect_step){
				 .id = id2, .role = "bad", .commit = "cccc", .vals = bad, .n = 5,
				 .good_vals = good, .ngood = 5, .j = &j, .threshold = NAN,
				 .decision = "bad" }), 0);
	assert_int_equal(bisect_db__step_begin(db, "step", "bbbb", "the middle", &id3, &ord), 0);
	assert_int_equal(ord, 3);
	assert_int_equal(bisect_db__step_finish(db, &(struct bisect_step){
				 .id = id3, .role = "step", .commit = "bbbb", .threshold = 0.5,
				 .decision = "skip", .reason = "build failed" }), 0);
	assert_int_equal(bisect_db__step_log(db, id3, "make: *** Error 2\n", 18), 0);
	/* A role outside the table's is refused; a row that does not exist is -ENOENT. */
	assert_int_equal(bisect_db__step_begin(db, "middle", "dddd", "", &id3, &ord), -EINVAL);
	assert_int_equal(bisect_db__step_finish(db, &(struct bisect_step){
				 .id = 99, .role = "step", .commit = "x", .decision = "good" }),
			 -ENOENT);

	/* Values come back exactly, in order, with the good end's measured beside them. */
	assert_int_equal(bisect_db__values(db, id2, &vals, &n, &gvals, &ng), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ng, 5);
	for (size_t i = 0; i < n; i++)
		assert_true(vals[i] == bad[i] && gvals[i] == good[i]);
	free(vals);
	free(gvals);
	/* A step that measured nothing: no values, no error. */
	assert_int_equal(bisect_db__values(db, id3, &vals, &n, &gvals, &ng), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ng, 0);
	assert_null(vals);
	assert_null(gvals);

	f = open_memstream(&out, &len);
	assert_int_equal(bisect_db__print(db, f), 0);
	fclose(f);
	assert_non_null(strstr(out, "good  aaaa"));
	assert_non_null(strstr(out, "+99.4%"));
	assert_non_null(strstr(out, "skip     the middle"));
	/* The rule, every field, survives the database: steps run in other processes. */
	{
		struct bisect_rule r = { .min_effect = 0.07, .alpha = 0.01, .level = 0.9,
					 .seed = 18446744073709551557ull, .resamples = 1234 };
		struct bisect_rule back = BISECT_RULE_DEFAULT;
		char *rerr = NULL;

		assert_int_equal(bisect_db__rule_load(db, &back, &rerr), -ENOENT);
		assert_non_null(strstr(rerr, "no rule."));
		free(rerr);
		assert_int_equal(bisect_db__rule_save(db, &r), 0);
		assert_int_equal(bisect_db__rule_load(db, &back, &rerr), 0);
		assert_true(back.min_effect == r.min_effect && back.alpha == r.alpha &&
			    back.level == r.level);
		assert_true(back.seed == r.seed);
		assert_int_equal(back.resamples, r.resamples);
		assert_int_equal(bisect_db__param_set(db, "rule.alpha", "0"), 0);
		assert_int_equal(bisect_db__rule_load(db, &back, &rerr), -EINVAL);
		assert_non_null(strstr(rerr, "alpha 0"));
		free(rerr);
		assert_int_equal(bisect_db__param_set(db, "rule.alpha", "0.05x"), 0);
		assert_int_equal(bisect_db__rule_load(db, &back, &rerr), -EINVAL);
		assert_non_null(strstr(rerr, "bad rule.alpha '0.05x'"));
		free(rerr);
	}
	bisect_db__close(db);

	/* Reopened: still there (the schema is created only once). */
	assert_int_equal(bisect_db__open(path, &db, &err), 0);
	assert_int_equal(bisect_db__values(db, id1, &vals, &n, &gvals, &ng), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ng, 0);
	free(vals);
	free(gvals);
	bisect_db__close(db);
	unlink(path);
	{
		_cleanup_free_ char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);

		unlink(wal);
		unlink(shm);
	}
	rmdir(dir);
}

/* A bisection's context survives its database: each step, a process of its own, reads it back. */
static void test_ctx_roundtrip(void **state)
{
	char dir[] = "/tmp/lrubench-test-bisect-ctx.XXXXXX";
	_cleanup_free_ char *err = NULL, *v = NULL;
	struct bisect_ctx c = {
		.cwd = xstrdup("/work"), .repo = xstrdup("/src/linux"), .good = xstrdup("aaaa"),
		.bad = xstrdup("cccc"), .recipe_path = xstrdup("/k/minimal.ini"),
		.recipe_text = xstrdup("[recipe]\n"), .plan_path = xstrdup("/p/bisect.ini"),
		.plan_text = xstrdup("[plan]\n"), .variant = xstrdup("classic"),
		.metric = xstrdup("anon:populate_s"), .better = BETTER_HIGHER,
		.accel = xstrdup("tcg"), .reps = 3, .max_reps = 9, .jobs = 2,
		.timeout_ms = 5400000, .rule = BISECT_RULE_DEFAULT, .threshold = NAN,
	};
	struct bisect_ctx back = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	c.dir = xstrdup(dir);
	c.db_path = xasprintf("%s/bisect.db", dir);
	c.rule.min_effect = 0.1;
	assert_int_equal(bisect_db__open(c.db_path, &c.db, &err), 0);
	assert_int_equal(bisect_ctx__save(&c), 0);
	/* the numbers as text, as every bisect.db has held them */
	assert_int_equal(bisect_db__param_get(c.db, "timeout_ms", &v), 0);
	assert_string_equal(v, "5400000");
	/* a step needs the threshold the ends gave */
	assert_int_equal(bisect_ctx__load(&back, c.db_path), -ENOENT);
	bisect_ctx__clear(&back);
	assert_int_equal(bisect_db__param_set(c.db, "threshold", "0.25"), 0);
	assert_int_equal(bisect_ctx__load(&back, c.db_path), 0);
	assert_string_equal(back.cwd, c.cwd);
	assert_string_equal(back.dir, c.dir);
	assert_string_equal(back.repo, c.repo);
	assert_string_equal(back.good, c.good);
	assert_string_equal(back.bad, c.bad);
	assert_string_equal(back.recipe_path, c.recipe_path);
	assert_string_equal(back.recipe_text, c.recipe_text);
	assert_string_equal(back.plan_path, c.plan_path);
	assert_string_equal(back.plan_text, c.plan_text);
	assert_string_equal(back.variant, c.variant);
	assert_string_equal(back.metric, c.metric);
	assert_string_equal(back.accel, c.accel);
	assert_int_equal(back.better, BETTER_HIGHER);
	assert_int_equal(back.reps, 3);
	assert_int_equal(back.max_reps, 9);
	assert_int_equal(back.jobs, 2);
	assert_true(back.timeout_ms == 5400000);
	assert_true(back.rule.min_effect == 0.1);
	assert_true(back.threshold == 0.25);
	bisect_ctx__clear(&back);
	/* a number that is not one is refused */
	assert_int_equal(bisect_db__param_set(c.db, "jobs", "2x"), 0);
	assert_int_equal(bisect_ctx__load(&back, c.db_path), -EINVAL);
	bisect_ctx__clear(&back);
	{
		_cleanup_free_ char *wal = xasprintf("%s-wal", c.db_path);
		_cleanup_free_ char *shm = xasprintf("%s-shm", c.db_path);

		unlink(c.db_path);
		unlink(wal);
		unlink(shm);
	}
	bisect_ctx__clear(&c);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_lower_is_better),
		cmocka_unit_test(test_judge_higher_is_better),
		cmocka_unit_test(test_ends_refused),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_db),
		cmocka_unit_test(test_ctx_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
