// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection's inputs checked before anything builds (bisection.h): the
 * repository and its refs, the recipe, the plan, its variant and the
 * metric's direction; then its directory and database.
 */
#include "bisect-db.h"
#include "bisect-priv.h"
#include "catalogue.h"
#include "kernel-build.h"
#include "kernel.h"
#include "paths.h"
#include "plan.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int bisect_ctx__setup(struct bisect_ctx *c, const char *good_ref, const char *bad_ref,
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
		return -ENOENT;
	}
	free(rpath);
	rpath = NULL;
	if (bisect_git(c->repo, gitdir, NULL, &err) < 0) {
		log_err("--repo %s: not a git repository (%s)", c->repo, err);
		return -EINVAL;
	}
	if (bisect_resolve_commit(c->repo, good_ref, ret_good, &err) < 0 ||
	    bisect_resolve_commit(c->repo, bad_ref, ret_bad, &err) < 0) {
		log_err("%s", err);
		return -ENOENT;
	}
	if (!strcmp(*ret_good, *ret_bad)) {
		log_err("--good %s and --bad %s are the same commit %.12s", good_ref, bad_ref,
			*ret_good);
		return -EINVAL;
	}
	{
		const char *anc[] = { "merge-base", "--is-ancestor", *ret_good, *ret_bad, NULL };

		if (bisect_git(c->repo, anc, NULL, NULL) < 0) {
			log_err("--good %s (%.12s) is not an ancestor of --bad %s (%.12s) in %s",
				good_ref, *ret_good, bad_ref, *ret_bad, c->repo);
			return -EINVAL;
		}
	}
	if (bisect_git(c->repo, bisecting, &out, NULL) == 0) {
		log_err("%s: a bisection is already in progress there ('git bisect reset' ends "
			"it)", c->repo);
		return -EBUSY;
	}
	/* The recipe, the plan, its variant and the metric: every typo before a build. */
	if (kernel_spec_kind(recipe) != KERNEL_SPEC_RECIPE) {
		log_err("--recipe: bad value '%s' (a recipe NAME for %s/NAME.ini, or FILE.ini)",
			recipe, path_recipes());
		return -EINVAL;
	}
	rpath = kernel_spec_recipe_path(recipe, path_recipes());
	if (kbuild_recipe__load(rpath, &r, &err) < 0) {
		log_err("--recipe: %s", err);
		return -EINVAL;
	}
	c->recipe_path = realpath(rpath, NULL);
	c->recipe_text = xstrdup(r->text);
	if (plan__load(c->plan_path, &p, &err) < 0) {
		log_err("%s", err);
		return -EINVAL;
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
			return -ENOENT;
		}
	}
	if (metric_direction(p, c->metric, &c->better, &err) < 0) {
		log_err("%s", err);
		return -EINVAL;
	}
	/* The bisection's directory: new, or one without a bisection in it. */
	if (dir) {
		dbdir = xstrdup(dir);
	} else {
		dbdir = path_stamped(path_results(), "bisect", "");
	}
	if (mkdir_p(dbdir) < 0 || !(c->dir = realpath(dbdir, NULL))) {
		log_err("--dir %s: %s", dbdir, strerror(errno));
		return -EIO;
	}
	c->db_path = xasprintf("%s/bisect.db", c->dir);
	if (access(c->db_path, F_OK) == 0) {
		log_err("%s exists: a bisection's directory holds one bisection (--dir DIR)",
			c->db_path);
		return -EEXIST;
	}
	if (bisect_db__open(c->db_path, &c->db, &err) < 0) {
		log_err("bisect: %s", err);
		return -EIO;
	}
	return 0;
}
