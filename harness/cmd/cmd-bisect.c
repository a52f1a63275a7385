// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench bisect: the first commit between a good and a bad kernel that
 * made a metric worse.
 *
 *   1. Check everything that can be checked before a build: the repository,
 *      both refs (good an ancestor of bad), no bisection already running,
 *      the recipe, the plan, its variant and the metric (a workload result
 *      or a counter with a better direction).
 *   2. Measure the ends: build the recipe on the good commit and on the bad
 *      one (the recipe's patches and config; its [source] replaced by the
 *      commit), run the plan's variant --reps times on each. The bad end must
 *      be worse beyond doubt (bisect.h); else there is nothing to bisect.
 *   3. `git bisect start --no-checkout BAD GOOD` (the work tree is never
 *      touched: steps build `git archive BISECT_HEAD`), then `git bisect run
 *      lrubench __bisect-step DB`. Each step builds (cached), runs, judges
 *      against the good end's values and answers git: good 0, bad 1, skip 125
 *      (a commit that does not build, whose runs all fail, or that stays
 *      undecided after --max-reps), or 128, which stops the bisection, for an
 *      error of lrubench's own.
 *   4. Record git's verdict and `git bisect log`, end the bisection (`git
 *      bisect reset`), print every step.
 *
 * Everything lands in DIR/bisect.db (bisect.h): the inputs, each step's
 * values, judgement, decision and whole log; each step's runs are a campaign
 * database of their own beside it (DIR/step-NN-COMMIT.db).
 */
#include "bisect.h"
#include "campaign.h"
#include "catalogue.h"
#include "cmd-bisect.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "dataset.h"
#include "kernel-build.h"
#include "plan.h"
#include "spawn.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the metric ------------------------------------------------------------ */

/*
 * The direction of metric NAME:KEY in plan p: a result of the workload NAME,
 * or else a counter of the dictionary ("memory.stat:pgmajfault[wl]").
 */
static int metric_direction(const struct plan *p, const char *metric,
			    enum metric_better *ret, char **ret_err)
{
	const char *colon = strchr(metric, ':');
	_cleanup_free_ char *name = colon ? strndup(metric, (size_t)(colon - metric)) : NULL;
	_cleanup_free_ char *base = NULL;
	struct metric_info mi;

	if (!colon || colon == metric || !colon[1]) {
		*ret_err = xasprintf("--metric: bad value '%s' (WORKLOAD:METRIC, e.g. "
				     "anon:throughput)", metric);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct workload_def *d = p->workloads[i].def;
		_cleanup_free_ char *known = NULL;

		if (strcmp(p->workloads[i].name, name))
			continue;
		for (const struct wl_metric *m = d->metrics; m->key; m++) {
			char *t;

			if (!strcmp(m->key, colon + 1)) {
				if (!strcmp(m->better, "none")) {
					*ret_err = xasprintf("--metric %s: %s has no better "
							     "direction; bisect needs one",
							     metric, m->key);
					return -EINVAL;
				}
				*ret = !strcmp(m->better, "higher") ? BETTER_HIGHER : BETTER_LOWER;
				return 0;
			}
			t = xasprintf("%s%s%s", known ? known : "", known ? ", " : "", m->key);
			free(known);
			known = t;
		}
		*ret_err = xasprintf("--metric %s: workload %s (%s) has no result '%s' (it has: %s)",
				     metric, name, d->name, colon + 1, known);
		return -ENOENT;
	}
	/* A counter: "SOURCE:KEY[SCOPE]" looked up without its scope. */
	base = xstrdup(metric);
	if (strchr(base, '['))
		*strchr(base, '[') = '\0';
	if (metric__lookup(base, &mi) < 0 || mi.better == BETTER_NONE) {
		_cleanup_free_ char *names = NULL;

		for (size_t i = 0; i < p->nworkloads; i++) {
			char *t = xasprintf("%s%s%s", names ? names : "", names ? ", " : "",
					    p->workloads[i].name);

			free(names);
			names = t;
		}
		*ret_err = xasprintf("--metric %s: no workload '%s' in the plan (it has: %s), and "
				     "no counter with a better direction of that name",
				     metric, name, names ? names : "none");
		return -ENOENT;
	}
	*ret = mi.better;
	return 0;
}

static char *fmt_double(double x)
{
	return xasprintf("%.17g", x);
}

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

/* Check the inputs and fill c; 0 or an exit code. */
static int bisect_setup(struct bisect_ctx *c, const char *good_ref, const char *bad_ref,
			const char *recipe, const char *dir)
{
	char **ret_good = &c->good, **ret_bad = &c->bad;
	_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
	_cleanup_(plan__freep) struct plan *p = NULL;
	_cleanup_free_ char *err = NULL, *rpath = NULL, *out = NULL, *dbdir = NULL;
	const char *gitdir[] = { "rev-parse", "--git-dir", NULL };
	const char *bisecting[] = { "bisect", "log", NULL };

	c->cwd = getcwd(NULL, 0);
	rpath = TAKE_PTR(c->repo);
	c->repo = realpath(rpath, NULL);
	if (!c->cwd || !c->repo) {
		log_err("--repo %s: %s", rpath, strerror(errno));
		return 2;
	}
	free(rpath);
	rpath = NULL;
	if (bisect_git(c->repo, gitdir, NULL, &err) < 0) {
		log_err("--repo %s: not a git repository (%s)", c->repo, err);
		return 2;
	}
	if (bisect_resolve_commit(c->repo, good_ref, ret_good, &err) < 0 ||
	    bisect_resolve_commit(c->repo, bad_ref, ret_bad, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	if (!strcmp(*ret_good, *ret_bad)) {
		log_err("--good %s and --bad %s are the same commit %.12s", good_ref, bad_ref,
			*ret_good);
		return 2;
	}
	{
		const char *anc[] = { "merge-base", "--is-ancestor", *ret_good, *ret_bad, NULL };

		if (bisect_git(c->repo, anc, NULL, NULL) < 0) {
			log_err("--good %s (%.12s) is not an ancestor of --bad %s (%.12s) in %s",
				good_ref, *ret_good, bad_ref, *ret_bad, c->repo);
			return 2;
		}
	}
	if (bisect_git(c->repo, bisecting, &out, NULL) == 0) {
		log_err("%s: a bisection is already in progress there ('git bisect reset' ends "
			"it)", c->repo);
		return 2;
	}
	/* The recipe, the plan, its variant and the metric: every typo before a build. */
	if (kernel_spec_kind(recipe) != KERNEL_SPEC_RECIPE) {
		log_err("--recipe: bad value '%s' (a recipe NAME for %s/NAME.ini, or FILE.ini)",
			recipe, path_recipes());
		return 2;
	}
	rpath = kernel_spec_recipe_path(recipe, path_recipes());
	if (kbuild_recipe__load(rpath, &r, &err) < 0) {
		log_err("--recipe: %s", err);
		return 2;
	}
	c->recipe_path = realpath(rpath, NULL);
	c->recipe_text = xstrdup(r->text);
	if (plan__load(c->plan_path, &p, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	free(c->plan_path);
	c->plan_path = realpath(p->path, NULL);
	c->plan_text = xstrdup(p->text);
	if (!c->variant)
		c->variant = xstrdup(p->baseline);
	{
		size_t i;

		for (i = 0; i < p->nvariants; i++)
			if (!strcmp(p->variants[i].name, c->variant))
				break;
		if (i == p->nvariants) {
			log_err("--variant: %s has no variant '%s'", c->plan_path, c->variant);
			return 2;
		}
	}
	if (metric_direction(p, c->metric, &c->better, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	/* The bisection's directory: new, or one without a bisection in it. */
	if (dir) {
		dbdir = xstrdup(dir);
	} else {
		dbdir = path_stamped(path_results(), "bisect", "");
	}
	if (mkdir_p(dbdir) < 0 || !(c->dir = realpath(dbdir, NULL))) {
		log_err("--dir %s: %s", dbdir, strerror(errno));
		return 2;
	}
	c->db_path = xasprintf("%s/bisect.db", c->dir);
	if (access(c->db_path, F_OK) == 0) {
		log_err("%s exists: a bisection's directory holds one bisection (--dir DIR)",
			c->db_path);
		return 2;
	}
	if (bisect_db__open(c->db_path, &c->db, &err) < 0) {
		log_err("bisect: %s", err);
		return 2;
	}
	return 0;
}

/* Echo git bisect run's output and keep it. */
static int keep_output(void *ctx, const char *buf, size_t len)
{
	fwrite(buf, 1, len, stdout);
	fflush(stdout);
	fwrite(buf, 1, len, (FILE *)ctx);
	return 0;
}

/* The first bad commit in git bisect run's output, or NULL. */
static char *first_bad(const char *out)
{
	regex_t re;
	regmatch_t m[2];
	char *sha = NULL;

	if (regcomp(&re, "^([0-9a-f]{40,64}) is the first bad commit", REG_EXTENDED | REG_NEWLINE))
		return NULL;
	if (regexec(&re, out, 2, m, 0) == 0)
		sha = strndup(out + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	regfree(&re);
	return sha;
}

/* git bisect start, run, log, reset; the outcome in the database. Returns an exit code. */
static int bisect_drive(struct bisect_ctx *c, const char *good, const char *bad)
{
	_cleanup_free_ char *self = realpath("/proc/self/exe", NULL), *out = NULL, *err = NULL;
	_cleanup_free_ char *blog = NULL, *sha = NULL;
	const char *start[] = { "bisect", "start", "--no-checkout", bad, good, "--", NULL };
	const char *logv[] = { "bisect", "log", NULL };
	const char *reset[] = { "bisect", "reset", NULL };
	size_t len = 0;
	FILE *f;
	int rc, ex;

	/* git runs the steps by path: a binary rebuilt or removed since would
	 * answer for another version, or exit 127, which git takes for "bad". */
	if (!self || access(self, X_OK) < 0) {
		log_err("bisect: lrubench's own binary %s: %s", self ? self : "/proc/self/exe",
			strerror(errno));
		return 2;
	}
	if (bisect_git(c->repo, start, &out, &err) < 0) {
		log_err("bisect: %s", err);
		return 2;
	}
	printf("%s\n", out);
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	{
		const char *run[] = { "git", "-C", c->repo, "bisect", "run", self, "__bisect-step",
				      c->db_path, NULL };
		struct spawn_opts o = { .on_stdout = keep_output, .ctx = f };

		rc = spawn_run(run, &o);
	}
	fclose(f);
	if (bisect_git(c->repo, logv, &blog, &err) == 0)
		bisect_db__param_set(c->db, "git_bisect_log", blog);
	if (bisect_git(c->repo, reset, NULL, &err) < 0)
		log_warn("bisect: %s", err);
	bisect_db__param_set(c->db, "git_bisect_run", out);
	sha = first_bad(out);
	if (sha) {
		_cleanup_free_ char *subject = bisect_commit_subject(c->repo, sha);
		_cleanup_free_ char *line = xasprintf("%s %s", sha, subject);

		bisect_db__param_set(c->db, "first_bad", sha);
		bisect_db__param_set(c->db, "outcome", line);
		printf("\nfirst bad commit: %s\n", line);
		ex = 0;
	} else if (bisect_interrupted || rc == 128 + SIGINT || rc == 128 + SIGTERM) {
		bisect_db__param_set(c->db, "outcome", "interrupted");
		ex = 130;
	} else if (strstr(out, "only 'skip'ped commits left")) {
		bisect_db__param_set(c->db, "outcome", "only skipped commits left");
		printf("\nno single first bad commit: only skipped commits are left (see above)\n");
		ex = 1;
	} else {
		_cleanup_free_ char *why = xasprintf("git bisect run failed (exit %d)", rc);

		bisect_db__param_set(c->db, "outcome", why);
		log_err("bisect: %s; the steps' logs are in %s", why, c->db_path);
		ex = 2;
	}
	return ex;
}

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
	{ .code = 'a', .name = "accel", .kind = CMD_OPT_ACCEL, .off = ARG(accel) },
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
	_cleanup_free_ char *why = NULL, *thr = NULL;
	_cleanup_free_ double *gv = NULL, *bv = NULL;
	struct bisect_judgement j;
	size_t ng = 0, nb = 0;
	int ch, ex;

	a.plan = path_default_plan();
	a.accel = "auto";
	optind = 1;
	while ((ch = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		int r = cmd_opt__parse(bisect_opts, &a, ch, optarg);

		if (r == 0)
			r = cmd_opt__parse(bisect_step_opts, &c, ch, optarg);
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
	ex = bisect_setup(&c, a.good, a.bad, a.recipe, a.dir);
	if (ex)
		goto out;
	if (bisect_ctx__save(&c) < 0) {
		ex = 2;
		goto out;
	}
	bisect_catch_signals();
	log_info("bisect: %s between %.12s (good) and %.12s (bad) in %s; database %s",
		 c.metric, c.good, c.bad, c.repo, c.db_path);

	/* The ends, interleaved. */
	ex = bisect_step_run(&c, c.bad, true);
	if (ex != STEP_GOOD) {
		ex = ex == STEP_INTERRUPTED || bisect_interrupted ? 130 : 2;
		bisect_db__param_set(c.db, "outcome", ex == 130 ? "interrupted"
							       : "an end could not be measured");
		if (ex == 2)
			log_err("bisect: an end could not be measured; its log is in %s",
				c.db_path);
		goto table;
	}
	if (bisect_db__values(c.db, c.bad_id, &bv, &nb, &gv, &ng) < 0 ||
	    bisect_judge(gv, ng, bv, nb, c.better, 0, &c.rule, &j) < 0) {
		log_err("bisect: the ends' values cannot be compared (%zu and %zu values)", ng,
			nb);
		ex = 2;
		goto table;
	}
	if (bisect_threshold(&j, &c.rule, &c.threshold, &why) < 0) {
		_cleanup_free_ char *o = xasprintf("nothing to bisect: %s", why);

		bisect_db__param_set(c.db, "outcome", o);
		printf("%s: %s\n", c.metric, o);
		ex = 1;
		goto table;
	}
	thr = fmt_double(c.threshold);
	bisect_db__param_set(c.db, "threshold", thr);
	printf("%s: the bad end is %+.1f%% worse (%.0f%% interval [%+.1f%%, %+.1f%%]); a step "
	       "is bad beyond %+.1f%%\n",
	       c.metric, 100 * j.worse, 100 * c.rule.level, 100 * j.lo, 100 * j.hi,
	       100 * c.threshold);
	fflush(stdout);
	ex = bisect_drive(&c, c.good, c.bad);
table:
	printf("\n");
	bisect_db__print(c.db, stdout);
	printf("database: %s\n", c.db_path);
out:
	bisect_ctx__clear(&c);
	return ex;
usage_err:
	bisect_ctx__clear(&c);
	return 2;
}

