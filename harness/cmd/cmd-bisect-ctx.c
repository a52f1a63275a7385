// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection's context (cmd-bisect.h): cleared, stored in its bisect.db for
 * the steps git runs and read back by them; git, asked for commits; and the
 * signals that end a bisection.
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
#include <time.h>
#include <unistd.h>

void bisect_ctx__clear(struct bisect_ctx *c)
{
	bisect_db__close(c->db);
	free(c->db_path);
	free(c->dir);
	free(c->cwd);
	free(c->repo);
	free(c->good);
	free(c->bad);
	free(c->recipe_path);
	free(c->recipe_text);
	free(c->plan_path);
	free(c->plan_text);
	free(c->variant);
	free(c->metric);
	free(c->accel);
	memset(c, 0, sizeof(*c));
}

/* The options handed to each step as text (bisect.db's params), by their table. */
#define CTX(f) offsetof(struct bisect_ctx, f)
const struct cmd_opt bisect_step_opts[] = {
	{ .code = 'n', .name = "reps", .kind = CMD_OPT_INT, .off = CTX(reps), .min = 2, .max = 100,
	  .param = "reps" },
	{ .code = 'N', .name = "max-reps", .kind = CMD_OPT_INT, .off = CTX(max_reps), .min = 2,
	  .max = 1000, .param = "max_reps" },
	{ .code = 'j', .name = "jobs", .kind = CMD_OPT_INT, .off = CTX(jobs), .min = 1, .max = 64,
	  .param = "jobs" },
	{ .code = 't', .name = "timeout", .kind = CMD_OPT_DURATION, .off = CTX(timeout_ms),
	  .param = "timeout_ms" },
	{ .code = 0 },
};

volatile sig_atomic_t bisect_interrupted;

/*
 * Ctrl-C reaches the whole process group: git, the step and its campaign stop
 * on their own. lrubench's own process only notes it and cleans up after
 * them. (A handler, not SIG_IGN: an ignored signal would stay ignored in
 * everything exec'd.)
 */
static void on_signal(int sig)
{
	(void)sig;
	bisect_interrupted = 1;
}

void bisect_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* git -C repo ARGS...; its stdout, stripped, in *ret_out (when wanted). */
int bisect_git(const char *repo, const char *const args[], char **ret_out, char **ret_err)
{
	const char *argv[16] = { "git", "-C", repo };
	size_t n = 3;
	_cleanup_free_ char *out = NULL, *err = NULL;
	struct spawn_opts o = { .ret_stdout = &out, .ret_stderr = &err };
	int rc;

	for (; *args && n < ARRAY_SIZE(argv) - 1; args++)
		argv[n++] = *args;
	rc = spawn_run(argv, &o);
	if (rc != 0) {
		if (ret_err)
			*ret_err = xasprintf("%s: %s", argv_join(argv),
					     err && *err ? strstrip(err)
							 : rc < 0 ? strerror(-rc) : "failed");
		return rc < 0 ? rc : -EIO;
	}
	if (ret_out)
		*ret_out = xstrdup(out ? strstrip(out) : "");
	return 0;
}

int bisect_resolve_commit(const char *repo, const char *ref, char **ret_sha, char **ret_err)
{
	_cleanup_free_ char *rev = xasprintf("%s^{commit}", ref);
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", rev, NULL };

	if (*ref == '-' || bisect_git(repo, args, ret_sha, NULL) < 0) {
		*ret_err = xasprintf("%s: no commit '%s'", repo, ref);
		return -ENOENT;
	}
	return 0;
}

char *bisect_commit_subject(const char *repo, const char *sha)
{
	const char *args[] = { "log", "-1", "--format=%s", sha, NULL };
	char *s = NULL;

	return bisect_git(repo, args, &s, NULL) == 0 ? s : xstrdup("");
}

int bisect_ctx__save(struct bisect_ctx *c)
{
	const char *kv[][2] = {
		{ "cwd", c->cwd },
		{ "dir", c->dir },
		{ "repo", c->repo },
		{ "good", c->good },
		{ "bad", c->bad },
		{ "recipe", c->recipe_path },
		{ "recipe_text", c->recipe_text },
		{ "plan", c->plan_path },
		{ "plan_text", c->plan_text },
		{ "variant", c->variant },
		{ "metric", c->metric },
		{ "better", metric_better_name(c->better) },
		{ "accel", c->accel },
	};

	for (size_t i = 0; i < ARRAY_SIZE(kv); i++)
		if (bisect_db__param_set(c->db, kv[i][0], kv[i][1]) < 0)
			goto db_err;
	for (const struct cmd_opt *row = bisect_step_opts; row->code; row++) {
		_cleanup_free_ char *v = cmd_opt__format(row, c);

		if (bisect_db__param_set(c->db, row->param, v) < 0)
			goto db_err;
	}
	if (bisect_db__param_set(c->db, "lrubench_version", LRUBENCH_VERSION) < 0)
		goto db_err;
	if (bisect_db__rule_save(c->db, &c->rule) < 0)
		goto db_err;
	return 0;
db_err:
	log_err("bisect: %s: %s", c->db_path, bisect_db__errmsg(c->db));
	return -EIO;
}

int bisect_ctx__load(struct bisect_ctx *c, const char *db_path)
{
	struct {
		const char *key;
		char **dst;
	} strs[] = {
		{ "cwd", &c->cwd },	     { "dir", &c->dir },
		{ "repo", &c->repo },	     { "recipe", &c->recipe_path },
		{ "good", &c->good },	     { "bad", &c->bad },
		{ "recipe_text", &c->recipe_text }, { "plan", &c->plan_path },
		{ "plan_text", &c->plan_text }, { "variant", &c->variant },
		{ "metric", &c->metric },    { "accel", &c->accel },
	};
	const char *nums[] = { "better", "threshold" };
	char *v[ARRAY_SIZE(nums)] = { 0 };
	_cleanup_free_ char *err = NULL;
	int rc = 0;

	c->db_path = xstrdup(db_path);
	if (bisect_db__open(db_path, &c->db, &err) < 0) {
		log_err("bisect: %s", err);
		return -EIO;
	}
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		if (bisect_db__param_get(c->db, strs[i].key, strs[i].dst) < 0) {
			log_err("bisect: %s has no '%s': not a bisection database", db_path,
				strs[i].key);
			return -ENOENT;
		}
	for (const struct cmd_opt *row = bisect_step_opts; row->code; row++) {
		_cleanup_free_ char *s = NULL;

		if (bisect_db__param_get(c->db, row->param, &s) < 0) {
			log_err("bisect: %s has no '%s'", db_path, row->param);
			return -ENOENT;
		}
		if (cmd_opt__load(row, c, s) < 0) {
			log_err("bisect: %s: bad '%s': '%s'", db_path, row->param, s);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (bisect_db__param_get(c->db, nums[i], &v[i]) < 0) {
			log_err("bisect: %s has no '%s'", db_path, nums[i]);
			rc = -ENOENT;
			goto out;
		}
	c->better = !strcmp(v[0], "higher") ? BETTER_HIGHER : BETTER_LOWER;
	c->threshold = strtod(v[1], NULL);
	if (bisect_db__rule_load(c->db, &c->rule, &err) < 0) {
		log_err("bisect: %s: %s", db_path, err);
		rc = -EINVAL;
	}
out:
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		free(v[i]);
	return rc;
}
