// SPDX-License-Identifier: GPL-2.0
/*
 * A workload added as the README says: its definition (below, as at the
 * top of a workloads/wl-NAME.c) and one row (workloads-toy.def). Nothing
 * else names it, yet the catalogue lists it, 'lrubench list' and the
 * README's table print it, plans take it with its parameters checked, and
 * its binary's parser takes the same parameters with the same defaults.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <string.h>

#include "catalogue.h"
#include "cmd.h"
#include "plan.h"
#include "util.h"
#include "wl-def.h"
#include "wl-opts.h"
#include "wl.h"

struct opts {
	uint64_t size, toys, duration_ms, seed;
	double red;
	const char *mode, *dir;
};

WORKLOAD_DEF(toy) = {
	WL_NAME("toy"),
	.claims = "test",
	.decides = "throughput toys",
	.description = "toys played with in a box, in test-workload-toy only; one op = one toy",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "the box (bytes, or Nx memory.max)"),
		PARAM_U64("toys", toys, "10", "toys to play with"),
		PARAM_FRACTION("red", red, "0.5", 0, 1, "share of red toys"),
		PARAM_CHOICE("mode", mode, "fast", "fast|slow", "how it plays"),
		PARAM_DURATION("duration", duration_ms, NULL, "or a time limit"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("toys", "toys", "higher", "toys played with"),
		METRIC_ONLY("young_toys", "pct", "none", "toys in the youngest generation",
			    "mglru"),
		{},
	},
	WL_SCRATCH(dir),
};

#define WORKLOAD(id) #id,
static const char *const rows[] = {
#include "WORKLOADS.def"
};
#undef WORKLOAD

/* What fn(arg) prints on stdout. */
static char *captured(void (*fn)(const char *), const char *arg)
{
	char path[] = "/tmp/lrubench-toy.XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	char *text = NULL;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	fn(arg);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	close(fd);
	assert_int_equal(read_file(path, 1u << 20, &text, NULL), 0);
	unlink(path);
	return text;
}

/* The catalogue: the workloads of WORKLOADS.def, then the toy. */
static void test_catalogue(void **state)
{
	size_t n = 0;

	(void)state;
	while (workload_catalogue[n])
		n++;
	assert_int_equal(n, ARRAY_SIZE(rows) + 1);
	assert_ptr_equal(workload_catalogue[n - 1], &wl_def_toy);
	assert_ptr_equal(workload_find("toy"), &wl_def_toy);
	assert_ptr_equal(workload_find("anon-zipf"), workload_catalogue[0]);
	assert_string_equal(wl_def_toy.binary, "/bin/wl-toy");
	assert_true(wl_def_toy.scratch);
	assert_int_equal(wl_def_toy.dir_off, offsetof(struct opts, dir));
	assert_int_equal(workload_param(&wl_def_toy, "red")->off, offsetof(struct opts, red));
	assert_true(wl_param__required(workload_param(&wl_def_toy, "size")));
	assert_false(wl_param__required(workload_param(&wl_def_toy, "duration")));
}

static void list_plain(const char *arg)
{
	char *argv[] = { (char *)"list", (char *)arg, NULL };

	assert_int_equal(cmd_list(arg ? 2 : 1, argv), 0);
}

/* 'lrubench list', its --results and the README's table. */
static void test_docs(void **state)
{
	_cleanup_free_ char *list = captured(list_plain, NULL);
	_cleanup_free_ char *results = captured(list_plain, "--results");
	_cleanup_free_ char *md = captured(list_plain, "--markdown");

	(void)state;
	assert_non_null(strstr(list, "\ntoy  [test]\n  toys played with in a box"));
	assert_non_null(strstr(list, "    red            number   0.5        share of red toys\n"));
	assert_non_null(strstr(list, "    mode           choice   fast       how it plays "
				     "(fast|slow)\n"));
	assert_non_null(strstr(list, "  needs: scratch disk (--dir=/scratch/NAME)\n"));
	assert_non_null(strstr(results, "\ntoy toys toys higher -\ntoy young_toys pct none mglru\n"));
	assert_non_null(strstr(md, "\n| `toy` | test | toys played with in a box, in "
				   "test-workload-toy only; one op = one toy |\n"));
}

static const char plan_head[] = "[variant a]\n[memcg m]\nmemory.max = 64M\n[workload t]\n"
				"type = toy\nmemcg = m\n";

/* A plan takes the toy, its parameters checked by their types, and refuses what it must. */
static void test_plan(void **state)
{
	static const struct {
		const char *lines, *err;
	} bad[] = {
		{ "size = 1M\nmode = medium\n",
		  "toy.ini:8: bad value 'medium' for 'mode' (fast|slow)" },
		{ "size = 1M\nred = 1.5\n",
		  "toy.ini:8: bad value '1.5' for 'red' (a number from 0 to 1)" },
		{ "size = 1M\ncolour = blue\n",
		  "toy.ini:8: unknown key 'colour' for workload type 'toy'" },
		{ "size = 1M\ndir = /tmp\n", "toy.ini:8: 'dir' is given by lrubench (/scratch/t)" },
		{ "size = 1M\nkey = young_toys\n",
		  "toy.ini:8: key 'young_toys' is not a result toy reports on every run (see "
		  "'lrubench list')" },
		{ "toys = 3\n", "toy.ini:0: [workload t] needs 'size' (the box (bytes, or Nx "
				"memory.max))" },
	};
	_cleanup_free_ char *text = xasprintf("%ssize = 0.5x\nred = 0.25\nmode = slow\n"
					      "key = toys\n",
					      plan_head);
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("toy.ini", text, &p, &err), 0);
	assert_ptr_equal(p->workloads[0].def, &wl_def_toy);
	assert_true(p->needs_scratch);
	assert_int_equal(p->workloads[0].nparams, 3);
	assert_string_equal(p->workloads[0].params[0].value, "33554432"); /* 0.5 x 64M */
	assert_string_equal(p->workloads[0].params[2].value, "slow");
	assert_string_equal(p->workloads[0].key, "toys");
	plan__free(p);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		_cleanup_free_ char *t = xasprintf("%s%s", plan_head, bad[i].lines);

		p = NULL;
		err = NULL;
		assert_int_equal(plan__parse("toy.ini", t, &p, &err), -EINVAL);
		assert_null(p);
		assert_string_equal(err, bad[i].err);
		free(err);
	}
}

/* The toy's binary parses its command line with the same definition. */
static void test_opts(void **state)
{
	struct opts o = { 0 };
	const char *good[] = { "wl-toy", "--size=2M", "--duration=3s", "--red=0.25", "--mode=slow",
			       "--dir=/scratch/x", NULL };
	const char *bad_choice[] = { "wl-toy", "--size=1", "--dir=/d", "--mode=medium", NULL };
	const char *bad_range[] = { "wl-toy", "--size=1", "--dir=/d", "--red=1.5", NULL };
	const char *missing[] = { "wl-toy", "--size=1", NULL };
	const char *missing_size[] = { "wl-toy", "--dir=/d", NULL };
	const char *unknown[] = { "wl-toy", "--size=1", "--dir=/d", "--sizes=2", NULL };
	const char *no_eq[] = { "wl-toy", "--size", "1", NULL };
	const char *relative[] = { "wl-toy", "--size=0.5x", "--dir=/d", NULL };

	(void)state;
	assert_int_equal(wl_opts_parse(&wl_def_toy, 6, (char **)good, &o), 0);
	assert_int_equal(o.size, 2 << 20);
	assert_int_equal(o.duration_ms, 3000);
	assert_true(o.red == 0.25);
	assert_string_equal(o.mode, "slow");
	assert_string_equal(o.dir, "/scratch/x");
	/* the defaults, and the binary's own for the seed */
	assert_int_equal(o.toys, 10);
	assert_int_equal(o.seed, 1);
	memset(&o, 0, sizeof(o));
	assert_int_equal(wl_opts_parse(&wl_def_toy, 2, (char **)missing_size, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 4, (char **)bad_choice, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 4, (char **)bad_range, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 2, (char **)missing, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 4, (char **)unknown, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 3, (char **)no_eq, &o), -EINVAL);
	assert_int_equal(wl_opts_parse(&wl_def_toy, 3, (char **)relative, &o), -EINVAL);
}

static void toy_help(const char *arg)
{
	const char *help[] = { "wl-toy", "--size=1", "--help", NULL };
	struct opts o = { 0 };

	(void)arg;
	assert_int_equal(wl_opts_parse(&wl_def_toy, 3, (char **)help, &o), 1);
}

static void toy_results(const char *arg)
{
	const char *argv[] = { "wl-toy", "--size=1", "--dir=/d", NULL };
	struct opts o = { 0 };

	(void)arg;
	assert_int_equal(wl_opts_parse(&wl_def_toy, 3, (char **)argv, &o), 0);
	wl_result("toys", 3);
	wl_result("young_toys", 12.5);
	wl_mark("launch_ns", 1.5e6, "ns");
}

/* Its --help, its result lines with the unit and direction of its definition, a mark. */
static void test_help_results(void **state)
{
	_cleanup_free_ char *help = captured(toy_help, NULL);
	_cleanup_free_ char *results = captured(toy_results, NULL);

	(void)state;
	assert_non_null(strstr(help, "usage: wl-toy --NAME=VALUE...\n"));
	assert_non_null(strstr(help, "  --red=NUMBER           share of red toys; 0 to 1; default "
				     "0.5\n"));
	assert_non_null(strstr(help, "  --size=BYTES           the box (bytes, or Nx memory.max); "
				     "required\n"));
	assert_non_null(strstr(help, "  --seed=N               PRNG seed (default: the run's seed); "
				     "by hand 1\n"));
	assert_non_null(strstr(help, "  --dir=PATH "));
	assert_string_equal(results, "result toys 3 toys higher\nresult young_toys 12.5 pct none\n"
				     "mark launch_ns 1500000 ns\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_docs),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_help_results),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
