// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench bisect: the first commit between a good and a bad kernel that
 * made a metric worse (run/bisection.h: what it does, step by step); and
 * 'lrubench __bisect-step DB', what git bisect run calls for each commit.
 */
#include "bisection.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- lrubench bisect ----------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lrubench bisect --good REF --bad REF --repo DIR --recipe RECIPE\n"
		"                       --metric WORKLOAD:METRIC [options]\n"
		"  --good REF, --bad REF  the ends: the metric is fine at good, worse at bad\n"
		"  --repo DIR             the kernel's git repository (its work tree is not touched)\n"
		"  --recipe RECIPE        patches and config (NAME for %s/NAME.ini, or FILE.ini);\n"
		"                         its [source] is replaced by each commit under test\n"
		"  --metric W:M           a result of the plan's workload W (anon:throughput), or a\n"
		"                         counter with a direction (memory.stat:pgmajfault[wl])\n"
		"  --plan PLAN            the workloads and guest (default %s)\n"
		"  --variant NAME         the plan's variant to run (default: its baseline)\n"
		"  --reps N               runs per batch (default 3)\n"
		"  --max-reps N           runs at most per commit before it is skipped (default 9)\n"
		"  --min-effect PCT       the least change the ends must show (default 5)\n"
		"  --dir DIR              where the bisection's databases go\n"
		"                         (default results/bisect-TIME; DIR/bisect.db)\n"
		"  -j, --jobs N           guests at once (default 1: timing metrics stay clean)\n"
		"  --accel auto|kvm|tcg   accelerator\n"
		"  --timeout DURATION     per-run limit (overrides the plan)\n"
		"Each commit runs beside the good end, interleaved. A step is bad when the %.0f%%\n"
		"t interval of its change (log ratio) against the good end lies wholly beyond\n"
		"half the bad end's change and Welch's p < 0.05, good when the interval lies\n"
		"wholly within +-that margin; otherwise --reps more runs, up to --max-reps, then\n"
		"git skips it.\n"
		"A commit that does not build or measures nothing is skipped. Exit: 0 first bad\n"
		"commit found, 1 no regression between the ends or only skipped commits left,\n"
		"2 error, 130 interrupted.\n",
		path_recipes(), path_default_plan(), 100 * BISECT_RULE_DEFAULT.level);
}

/* The numbers of the bisection's context, which its steps read back from bisect.db. */
#define CTX(f) offsetof(struct bisect_ctx, f)
static const struct cmd_opt step_opts[] = {
	{ .code = 'n', .name = "reps", .kind = CMD_OPT_INT, .off = CTX(reps), .min = 2, .max = 100 },
	{ .code = 'N', .name = "max-reps", .kind = CMD_OPT_INT, .off = CTX(max_reps), .min = 2,
	  .max = 1000 },
	{ .code = 'j', .name = "jobs", .kind = CMD_OPT_INT, .off = CTX(jobs), .min = 1, .max = 64 },
	{ .code = 't', .name = "timeout", .kind = CMD_OPT_DURATION, .off = CTX(timeout_ms) },
	{ .code = 0 },
};

/* What 'lrubench bisect' is given, as given; its context (bisect_ctx) is made from it. */
struct bisect_args {
	const char *good, *bad, *repo, *recipe, *metric, *plan, *variant, *dir, *accel;
	int min_effect_pct; /* 0: the rule's default */
};

#define ARG(f) offsetof(struct bisect_args, f)
static const struct cmd_opt bisect_opts[] = {
	{ .code = 'g', .name = "good", .kind = CMD_OPT_TEXT, .off = ARG(good) },
	{ .code = 'b', .name = "bad", .kind = CMD_OPT_TEXT, .off = ARG(bad) },
	{ .code = 'R', .name = "repo", .kind = CMD_OPT_TEXT, .off = ARG(repo) },
	{ .code = 'r', .name = "recipe", .kind = CMD_OPT_TEXT, .off = ARG(recipe) },
	{ .code = 'm', .name = "metric", .kind = CMD_OPT_TEXT, .off = ARG(metric) },
	{ .code = 'P', .name = "plan", .kind = CMD_OPT_TEXT, .off = ARG(plan) },
	{ .code = 'V', .name = "variant", .kind = CMD_OPT_TEXT, .off = ARG(variant) },
	{ .code = 'e', .name = "min-effect", .kind = CMD_OPT_INT, .off = ARG(min_effect_pct),
	  .min = 1, .max = 1000 },
	{ .code = 'd', .name = "dir", .kind = CMD_OPT_TEXT, .off = ARG(dir) },
	{ .code = 'a', .name = "accel", .kind = CMD_OPT_WORD, .off = ARG(accel),
	  .words = cmd_accel_words },
	{ .code = 0 },
};

int cmd_bisect(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "repo", required_argument, NULL, 'R' },
		{ "recipe", required_argument, NULL, 'r' },
		{ "metric", required_argument, NULL, 'm' },
		{ "plan", required_argument, NULL, 'P' },
		{ "variant", required_argument, NULL, 'V' },
		{ "reps", required_argument, NULL, 'n' },
		{ "max-reps", required_argument, NULL, 'N' },
		{ "min-effect", required_argument, NULL, 'e' },
		{ "dir", required_argument, NULL, 'd' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "accel", required_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct bisect_ctx c = {
		.reps = 3,
		.max_reps = 9,
		.jobs = 1,
		.rule = BISECT_RULE_DEFAULT,
		.threshold = NAN,
	};
	struct bisect_args a = { .min_effect_pct = 0 };
	int ch, ex;

	a.plan = path_default_plan();
	a.accel = "auto";
	optind = 1;
	while ((ch = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		int r = cmd_opt__parse(bisect_opts, &a, ch, optarg);

		if (r == 0)
			r = cmd_opt__parse(step_opts, &c, ch, optarg);
		if (r < 0)
			goto usage_err;
		if (r > 0)
			continue;
		if (ch == 'h') {
			usage(stdout);
			bisect_ctx__clear(&c);
			return 0;
		}
		goto usage_err;
	}
	if (a.min_effect_pct)
		c.rule.min_effect = a.min_effect_pct / 100.0;
	c.plan_path = xstrdup(a.plan);
	c.accel = xstrdup(a.accel);
	c.repo = a.repo ? xstrdup(a.repo) : NULL;
	c.metric = a.metric ? xstrdup(a.metric) : NULL;
	c.variant = a.variant ? xstrdup(a.variant) : NULL;
	if (!a.good || !a.bad || !c.repo || !a.recipe || !c.metric || optind != argc) {
		usage(stderr);
		goto usage_err;
	}
	if (c.max_reps < c.reps) {
		log_err("--max-reps %d is below --reps %d", c.max_reps, c.reps);
		goto usage_err;
	}
	ex = bisect_ctx__setup(&c, a.good, a.bad, a.recipe, a.dir) < 0 ? 2 : bisect_ctx__run(&c);
	bisect_ctx__clear(&c);
	return ex;
usage_err:
	bisect_ctx__clear(&c);
	return 2;
}

/* ---- lrubench __bisect-step DB: what git bisect run calls -------------------- */

int cmd_bisect_step(int argc, char **argv)
{
	if (argc != 2) {
		log_err("usage: lrubench __bisect-step BISECT_DB (run by git bisect run)");
		return 128;
	}
	return bisect_answer_git(argv[1]);
}
