// SPDX-License-Identifier: GPL-2.0
/*
 * The KCIDB export (report/kcidb.h) without booting anything:
 *   - kcidb__status: every verdict's status, the rule the README states;
 *   - kcidb__write on a campaign written through the store's API
 *     (campaign-fixture.h) with a regression and a lost repetition: a FAIL
 *     key test, an ERROR test carrying the run's reason, and a kernel with
 *     no provenance (the fixture records none) exported under its variant's
 *     kernel text, its build PASS (5 completed runs booted it); then the
 *     same with a git-built kernel's provenance: the checkout's commit,
 *     repository URL and branch.
 * The schema validation is harness/tests/integration/kcidb.t's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign-fixture.h"
#include "kcidb.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

static void test_status(void **state)
{
	static const struct {
		enum verdict v;
		enum decision d;
		const char *want;
	} t[] = {
		{ VERDICT_REGRESSION, DECISION_BEYOND, "FAIL" },
		{ VERDICT_IMPROVEMENT, DECISION_BEYOND, "PASS" },
		{ VERDICT_NO_CHANGE, DECISION_WITHIN, "PASS" },
		{ VERDICT_NO_CHANGE, DECISION_OPEN, "DONE" },
		{ VERDICT_CHANGED, DECISION_BEYOND, "DONE" },
		{ VERDICT_NOT_COMPARABLE, DECISION_NONE, "SKIP" },
		{ VERDICT_TOO_FEW, DECISION_NONE, "MISS" },
		{ VERDICT_NO_DATA, DECISION_NONE, "MISS" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct comparison c = { .verdict = t[i].v, .decision = t[i].d, .key = true };

		assert_string_equal(kcidb__status(&c), t[i].want);
	}
}

/* classic 100 100 100, mglru 80 80.5 (a 20% drop: a regression); mglru's third run lost */
static const struct fx_run runs[] = {
	{ 0, 0, 0, RUN_COMPLETED, 100.0, 1000, NULL },	{ 1, 0, 1, RUN_COMPLETED, 80.0, 1000, NULL },
	{ 0, 1, 2, RUN_COMPLETED, 100.5, 1000, NULL },	{ 1, 1, 3, RUN_COMPLETED, 80.5, 1000, NULL },
	{ 0, 2, 4, RUN_COMPLETED, 99.5, 1000, NULL },	{ 1, 2, 5, RUN_FAILED_KERNEL, 0, 1000, NULL },
};

static void test_write(void **state)
{
	char path[] = "/tmp/test-kcidb.XXXXXX";
	int fd = mkstemp(path);
	struct store *st = NULL;
	struct analysis *an = NULL;
	struct kcidb_counts n;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	fx_write(path, &(struct fx_campaign){ .campaign = "twin-k", .runs = runs,
					      .nruns = ARRAY_SIZE(runs) });
	assert_int_equal(store__open_readonly(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &(struct verdict_opts)VERDICT_OPTS_DEFAULT, &an), 0);
	f = open_memstream(&out, &len);
	assert_int_equal(kcidb__write(st, an, f, &n), 0);
	fclose(f);

	assert_int_equal(n.checkouts, 1);
	assert_int_equal(n.builds, 1);
	assert_int_equal(n.fail, 1);
	assert_int_equal(n.error, 1);
	assert_int_equal(n.tests, (size_t)an->key_tests + 1);
	assert_non_null(strstr(out, "\"version\": {\"major\": 5, \"minor\": 3}"));
	assert_non_null(strstr(out, "\"id\": \"lrubench:twin-k:mglru:anon:throughput\""));
	assert_non_null(strstr(out, "\"path\": \"lrubench.twin.anon.throughput.mglru\", "
				    "\"status\": \"FAIL\""));
	assert_non_null(strstr(out, "\"id\": \"lrubench:twin-k:run:6\""));
	assert_non_null(strstr(out, "\"path\": \"lrubench.twin.run.mglru\", \"status\": \"ERROR\""));
	assert_non_null(strstr(out, "\"run_status\": \"failed-kernel\", \"reason\": \"fixture\""));
	/* no kernel provenance: keyed by the variant's kernel text; completed runs booted it */
	assert_non_null(strstr(out, "\"id\": \"lrubench:twin-k:build:6.1.0-57 abc\""));
	assert_non_null(strstr(out, "\"status\": \"PASS\", \"misc\": {\"runs\": 6, \"booted\": 5"));
	assert_non_null(strstr(out, "its source is not known"));
	assert_null(strstr(out, "git_repository_url"));
	free(out);
	analysis__free(an);
	store__close(st);

	/* A kernel built from a git source with an https:// URL: checkout's repository and branch. */
	assert_int_equal(store__open(path, &st), 0);
	for (int64_t run = 1; run <= 6; run++) {
		assert_int_equal(store__run_prov(st, run, "kernel.source_id",
						 "git:0123456789abcdef0123456789abcdef01234567"), 0);
		assert_int_equal(store__run_prov(st, run, "kernel.recipe", "mm-unstable"), 0);
		assert_int_equal(store__run_prov(st, run, "kernel.git_url",
						 "https://git.kernel.org/pub/scm/linux/kernel/git/akpm/mm.git"),
				 0);
		assert_int_equal(store__run_prov(st, run, "kernel.git_branch", "mm-unstable"), 0);
	}
	store__close(st);
	assert_int_equal(store__open_readonly(path, &st), 0);
	assert_int_equal(analysis__run(st, NULL, &(struct verdict_opts)VERDICT_OPTS_DEFAULT, &an), 0);
	out = NULL;
	f = open_memstream(&out, &len);
	assert_int_equal(kcidb__write(st, an, f, &n), 0);
	fclose(f);
	assert_non_null(strstr(out, "\"git_commit_hash\": \"0123456789abcdef0123456789abcdef01234567\", "
				    "\"git_repository_url\": "
				    "\"https://git.kernel.org/pub/scm/linux/kernel/git/akpm/mm.git\", "
				    "\"git_repository_branch\": \"mm-unstable\""));

	free(out);
	analysis__free(an);
	store__close(st);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
