// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection's context (bisection.h): cleared, and stored in its bisect.db
 * for the steps git runs and read back by them.
 */
#include "bisect-db.h"
#include "bisect-priv.h"
#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The numbers handed to each step as text (bisect.db's params): their keys and fields. */
#define CTX(f) offsetof(struct bisect_ctx, f)
static const struct ctx_number {
	const char *key;
	size_t off;
	bool ms; /* a uint64_t of milliseconds, else an int */
} ctx_numbers[] = {
	{ .key = "reps", .off = CTX(reps) },
	{ .key = "max_reps", .off = CTX(max_reps) },
	{ .key = "jobs", .off = CTX(jobs) },
	{ .key = "timeout_ms", .off = CTX(timeout_ms), .ms = true },
};

/* Its value in c as text; malloc'd. */
static char *number_format(const struct bisect_ctx *c, const struct ctx_number *num)
{
	const void *f = (const char *)c + num->off;

	if (num->ms)
		return xasprintf("%llu", (unsigned long long)*(const uint64_t *)f);
	return xasprintf("%d", *(const int *)f);
}

/* Read back what number_format gave: 0, or -EINVAL. */
static int number_load(struct bisect_ctx *c, const struct ctx_number *num, const char *text)
{
	void *f = (char *)c + num->off;
	int64_t n;
	uint64_t u;

	if (num->ms) {
		if (parse_u64(text, &u) < 0)
			return -EINVAL;
		*(uint64_t *)f = u;
		return 0;
	}
	if (parse_i64(text, &n) < 0 || n < INT32_MIN || n > INT32_MAX)
		return -EINVAL;
	*(int *)f = (int)n;
	return 0;
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
	for (size_t i = 0; i < ARRAY_SIZE(ctx_numbers); i++) {
		_cleanup_free_ char *v = number_format(c, &ctx_numbers[i]);

		if (bisect_db__param_set(c->db, ctx_numbers[i].key, v) < 0)
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
	for (size_t i = 0; i < ARRAY_SIZE(ctx_numbers); i++) {
		const struct ctx_number *num = &ctx_numbers[i];
		_cleanup_free_ char *s = NULL;

		if (bisect_db__param_get(c->db, num->key, &s) < 0) {
			log_err("bisect: %s has no '%s'", db_path, num->key);
			return -ENOENT;
		}
		if (number_load(c, num, s) < 0) {
			log_err("bisect: %s: bad '%s': '%s'", db_path, num->key, s);
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
