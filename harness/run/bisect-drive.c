// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection run (bisection.h): its context stored for the steps, the ends
 * measured and the threshold they give, git bisect driven over the commits
 * between them, and every step printed.
 */
#include "bisect-db.h"
#include "bisect-priv.h"
#include "bisect.h"
#include "spawn.h"
#include "util.h"

#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *fmt_double(double x)
{
	return xasprintf("%.17g", x);
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

int bisect_ctx__run(struct bisect_ctx *c)
{
	_cleanup_free_ char *why = NULL, *thr = NULL;
	_cleanup_free_ double *gv = NULL, *bv = NULL;
	struct bisect_judgement j;
	size_t ng = 0, nb = 0;
	int ex;

	if (bisect_ctx__save(c) < 0)
		return 2;
	bisect_catch_signals();
	log_info("bisect: %s between %.12s (good) and %.12s (bad) in %s; database %s",
		 c->metric, c->good, c->bad, c->repo, c->db_path);

	/* The ends, interleaved. */
	ex = bisect_step_run(c, c->bad, true);
	if (ex != STEP_GOOD) {
		ex = ex == STEP_INTERRUPTED || bisect_interrupted ? 130 : 2;
		bisect_db__param_set(c->db, "outcome", ex == 130 ? "interrupted"
							       : "an end could not be measured");
		if (ex == 2)
			log_err("bisect: an end could not be measured; its log is in %s",
				c->db_path);
		goto table;
	}
	if (bisect_db__values(c->db, c->bad_id, &bv, &nb, &gv, &ng) < 0 ||
	    bisect_judge(gv, ng, bv, nb, c->better, 0, &c->rule, &j) < 0) {
		log_err("bisect: the ends' values cannot be compared (%zu and %zu values)", ng,
			nb);
		ex = 2;
		goto table;
	}
	if (bisect_threshold(&j, &c->rule, &c->threshold, &why) < 0) {
		_cleanup_free_ char *o = xasprintf("nothing to bisect: %s", why);

		bisect_db__param_set(c->db, "outcome", o);
		printf("%s: %s\n", c->metric, o);
		ex = 1;
		goto table;
	}
	thr = fmt_double(c->threshold);
	bisect_db__param_set(c->db, "threshold", thr);
	printf("%s: the bad end is %+.1f%% worse (%.0f%% interval [%+.1f%%, %+.1f%%]); a step "
	       "is bad beyond %+.1f%%\n",
	       c->metric, 100 * j.worse, 100 * c->rule.level, 100 * j.lo, 100 * j.hi,
	       100 * c->threshold);
	fflush(stdout);
	ex = bisect_drive(c, c->good, c->bad);
table:
	printf("\n");
	bisect_db__print(c->db, stdout);
	printf("database: %s\n", c->db_path);
	return ex;
}
