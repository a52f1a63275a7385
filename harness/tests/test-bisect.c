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
	/* Beyond the threshold but not beyond doubt (two noisy runs): not bad. */
	{
		const double g2[] = { 1.00, 1.10 }, b2[] = { 1.12, 1.30 };

		assert_int_equal(bisect_judge(g2, 2, b2, 2, BETTER_LOWER, 0.01, &rule, &j), 0);
		assert_true(j.lo > 0.01 && j.p > rule.alpha);
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
	/* Better than the good end is good, not bad. */
	assert_int_equal(
		bisect_judge(tput_good, 4, tput_better, 4, BETTER_HIGHER, 0.25, &rule, &j), 0);
	assert_true(j.worse < -0.9);
	assert_int_equal(j.call, BISECT_GOOD);
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
	/* Two runs a side, wholly apart but noisy: the bootstrap's interval excludes
	 * no change, Welch's test does not, and doubt wins. */
	{
		const double g2[] = { 1.00, 1.10 }, b2[] = { 1.12, 1.30 };

		assert_int_equal(bisect_judge(g2, 2, b2, 2, BETTER_LOWER, 0, &rule, &j), 0);
		assert_true(j.lo > 0 && j.worse > 0.1 && j.p > 0.05);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_lower_is_better),
		cmocka_unit_test(test_judge_higher_is_better),
		cmocka_unit_test(test_ends_refused),
		cmocka_unit_test(test_db),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
