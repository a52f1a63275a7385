// SPDX-License-Identifier: GPL-2.0
/*
 * One commit measured beside the good end (bisect's steps and its ends): in
 * a child process whose output is the step's log, the recipe built on both
 * commits, batches of runs, the rule's judgement, the rows recorded; and
 * what git bisect run calls (bisection.h).
 */
#include "bisect-db.h"
#include "bisect-priv.h"
#include "bisect.h"
#include "campaign-finish.h"
#include "campaign.h"
#include "dataset.h"
#include "kernel-build.h"
#include "paths.h"
#include "plan.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The plan's variant on the good end's kernel and on X's, for one batch of runs. */
static int step_plan(const struct bisect_ctx *c, const char *name, int batch, const char *xlabel,
		     const char *good_image, const char *x_image, struct plan **ret,
		     char **ret_err)
{
	_cleanup_free_ char *remap = xasprintf("good\t%s\t%s\n%s\t%s\t%s\nbaseline\tgood\n",
					       c->variant, good_image, xlabel, c->variant, x_image);
	struct plan *p = NULL;
	int r;

	if (strpbrk(good_image, "\t\n") || strpbrk(x_image, "\t\n")) {
		*ret_err = xasprintf("a kernel path holds a tab or a newline: %s, %s", good_image,
				     x_image);
		return -EINVAL;
	}
	r = plan__parse(c->plan_path, c->plan_text, &p, ret_err);
	if (r < 0)
		return r;
	if (plan__remap(p, remap, ret_err) < 0) {
		plan__free(p);
		return -EINVAL;
	}
	free(p->name);
	p->name = xstrdup(name);
	/* Every batch is a campaign of its own: a warm-up would leave small batches
	 * without a measured run. The plan's warm-up is for long campaigns. */
	p->warmup = 0;
	/* A later batch's workloads draw other random streams than the first's. */
	p->seed += (uint64_t)batch * 1000003u;
	*ret = p;
	return 0;
}

/* The metric's values of variant vname in the campaign at db, appended to *vals. */
static int campaign_values(const char *db, const char *metric, const char *vname, double **vals,
			   size_t *n, int *ret_failed, char **ret_err)
{
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(dataset__freep) struct dataset *ds = NULL;
	size_t vi;

	if (store__open(db, &st) < 0 || dataset__load(st, NULL, &ds) < 0) {
		*ret_err = xasprintf("%s: cannot read the campaign", db);
		return -EIO;
	}
	for (vi = 0; vi < ds->nv; vi++)
		if (!strcmp(ds->v[vi].name, vname))
			break;
	if (vi == ds->nv) {
		*ret_err = xasprintf("%s: no variant '%s'", db, vname);
		return -ENOENT;
	}
	*ret_failed += ds->v[vi].failed;
	for (size_t i = 0; i < ds->nrows; i++) {
		const struct ds_row *row = &ds->rows[i];
		const double *x = ds_vals(ds, row, vi);

		if (strcmp(row->label, metric))
			continue;
		*vals = xrealloc(*vals, *n + row->n[vi] + 1, sizeof(**vals));
		for (size_t k = 0; k < row->n[vi]; k++)
			(*vals)[(*n)++] = x[k];
		break;
	}
	return 0; /* a metric no run measured adds no value */
}

/* Build c's recipe on commit sha: 0, or -errno with *ret_err. */
static int step_build(const struct bisect_ctx *c, const char *sha, struct kbuild **ret,
		      char **ret_err)
{
	_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = NULL;
	struct kbuild_opts o = {
		.cache_dir = path_kernel_cache(),
		.progress = kbuild_progress_log,
		.drop_git_source = true,
	};
	int rc = kbuild_recipe__parse(c->recipe_path, c->recipe_text, &r, ret_err);

	if (rc < 0)
		return rc;
	kbuild_recipe__set_git_source(r, c->repo, sha);
	o.ctx = r->name;
	return kbuild__build(r, &o, ret, ret_err);
}

/* What one measurement records: X's row, and the good end's when X is the bad end. */
struct measurement {
	struct bisect_step x, good;
	bool ends;
};

/* Record the rows and answer. */
static int step_end(struct bisect_ctx *c, struct measurement *m, const char *decision,
		    const char *reason, int ex)
{
	struct bisect_step *rows[] = { m->ends ? &m->good : NULL, &m->x };

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct bisect_step *row = rows[i];

		if (!row)
			continue;
		row->decision = !strcmp(decision, "ok") ? row->role : decision;
		row->reason = reason;
		if (bisect_db__step_finish(c->db, row) < 0) {
			log_err("bisect: %s: recording step %d: %s", c->db_path, row->ord,
				bisect_db__errmsg(c->db));
			return STEP_ERROR;
		}
		log_info("bisect: #%d %s %.12s: %s%s%s", row->ord, row->role, row->commit,
			 row->decision, reason ? ": " : "", reason ? reason : "");
	}
	return ex;
}

/*
 * Measure commit sha (the bad end, or a step) beside the good end (the
 * child's work): build both (the good end's is cached after the first
 * time), then batches of --reps runs of each, interleaved: once for the
 * ends, until the rule decides for a step (at most --max-reps runs of it).
 * Records the rows; returns a step_exit.
 */
static int step_measure(struct bisect_ctx *c, struct measurement *m)
{
	const char *sha = m->x.commit, *xlabel = m->ends ? "bad" : "step";
	_cleanup_(kbuild__freep) struct kbuild *kg = NULL, *kx = NULL;
	_cleanup_free_ char *err = NULL, *campaigns = NULL, *reason = NULL;
	_cleanup_free_ double *vals = NULL, *good = NULL;
	size_t n = 0, ng = 0;
	struct bisect_judgement j;
	bool judged = false;
	int failed = 0, gfailed = 0, runs = 0;

	log_info("bisect: #%d %.12s: building %s on the good end %.12s and on it", m->x.ord, sha,
		 c->recipe_path, m->good.commit);
	if (step_build(c, m->good.commit, &kg, &err) < 0) {
		log_err("bisect: the good end %.12s does not build: %s", m->good.commit, err);
		reason = xasprintf("the good end does not build: %.400s", err);
		return step_end(c, m, "error", reason, STEP_ERROR);
	}
	m->good.build_key = kbuild__get(kg, "build_key");
	if (step_build(c, sha, &kx, &err) < 0) {
		log_err("bisect: #%d %.12s does not build: %s", m->x.ord, sha, err);
		reason = xasprintf("build failed: %.400s", err);
		return step_end(c, m, m->ends ? "error" : "skip", reason,
				m->ends ? STEP_ERROR : STEP_SKIP);
	}
	m->x.build_key = kbuild__get(kx, "build_key");
	for (int batch = 0; runs < c->max_reps; batch++) {
		_cleanup_free_ char *name = NULL, *db = NULL, *t = NULL;
		_cleanup_(plan__freep) struct plan *p = NULL;
		int want = c->reps < c->max_reps - runs ? c->reps : c->max_reps - runs;
		struct campaign_opts o = {
			.accel = c->accel,
			.results_dir = c->dir,
			.reports_dir = c->dir,
			.build_dir = path_build(),
			.kernel_cache = path_kernel_cache(),
			.recipes_dir = path_recipes(),
			.repetitions = want,
			.jobs = c->jobs,
			.timeout_ms = c->timeout_ms,
		};
		struct campaign_done done = { 0 };
		size_t before = n, gbefore = ng;
		int r;

		name = batch ? xasprintf("step-%02d-%.12s-%d", m->x.ord, sha, batch + 1)
			     : xasprintf("step-%02d-%.12s", m->x.ord, sha);
		db = xasprintf("%s/%s.db", c->dir, name);
		o.db_path = db;
		if (step_plan(c, name, batch, xlabel, kg->image, kx->image, &p, &err) < 0) {
			log_err("bisect: %s", err);
			return step_end(c, m, "error", err, STEP_ERROR);
		}
		t = xasprintf("%s%s%s", campaigns ? campaigns : "", campaigns ? " " : "", db);
		free(campaigns);
		campaigns = TAKE_PTR(t);
		m->x.campaigns = m->good.campaigns = campaigns;
		log_info("bisect: #%d %.12s: %d run%s each of good and %s, interleaved, into %s",
			 m->x.ord, sha, want, want == 1 ? "" : "s", xlabel, db);
		r = campaign__finish(campaign__run(p, &o, &done), &done, &o);
		runs += want;
		if (r == 130)
			return step_end(c, m, "error", "interrupted", STEP_INTERRUPTED);
		/* a regression or failed runs are the step's data, judged below */
		if (r != EXIT_NO_REGRESSION && r != EXIT_REGRESSION && r != EXIT_INCOMPLETE)
			return step_end(c, m, "error", "the campaign failed (its log above)",
					STEP_ERROR);
		r = campaign_values(db, c->metric, xlabel, &vals, &n, &failed, &err);
		m->x.vals = vals; /* a realloc may have moved them */
		m->x.n = n;
		if (r == 0)
			r = campaign_values(db, c->metric, "good", &good, &ng, &gfailed, &err);
		m->x.good_vals = m->good.vals = good;
		m->x.ngood = m->good.n = ng;
		if (r < 0) {
			log_err("bisect: %s", err);
			return step_end(c, m, "error", err, STEP_ERROR);
		}
		if (ng == gbefore) {
			/* The good end is known to work: its runs failing is the host's trouble,
			 * no verdict on the commit. */
			reason = xasprintf("no run of the good end measured %s in this batch (%d "
					   "failed): the host, not the commit",
					   c->metric, gfailed);
			return step_end(c, m, "error", reason, STEP_ERROR);
		}
		if (n == before)
			break; /* no run measured it: a kernel that fails every run stays failing */
		if (n < 2 || ng < 2)
			continue;
		if (bisect_judge(good, ng, vals, n, c->better, c->threshold, &c->rule, &j) < 0)
			break;
		judged = true;
		m->x.j = &j;
		log_info("bisect: #%d %.12s: %s %.4g (good end beside it %.4g): %+.1f%% worse, "
			 "%.0f%% interval [%+.1f%%, %+.1f%%]%s",
			 m->x.ord, sha, c->metric, j.mean, j.mean_good, 100 * j.worse,
			 100 * c->rule.level, 100 * j.lo, 100 * j.hi,
			 m->ends || j.call != BISECT_UNDECIDED ? ""
			 : j.lo > c->threshold		       ? ": above the threshold, not beyond doubt"
							       : ": straddles the threshold");
		if (m->ends || j.call != BISECT_UNDECIDED)
			break;
	}
	if (n < 2 || ng < 2) {
		reason = xasprintf("%zu and %zu of %d runs each of %s and good measured %s (%d "
				   "failed)",
				   n, ng, runs, xlabel, c->metric, failed);
		return step_end(c, m, m->ends ? "error" : "skip", reason,
				m->ends ? STEP_ERROR : STEP_SKIP);
	}
	if (!judged)
		return step_end(c, m, "error", "no relative change against the good end (its "
					       "mean is 0)", STEP_ERROR);
	if (m->ends)
		return step_end(c, m, "ok", NULL, STEP_GOOD);
	reason = xasprintf("%+.1f%% worse than the good end, interval [%+.1f%%, %+.1f%%] %s the "
			   "threshold %+.1f%%, Welch p = %.2g (%zu runs)",
			   100 * j.worse, 100 * j.lo, 100 * j.hi,
			   j.call == BISECT_BAD	 ? "wholly above"
			   : j.call == BISECT_GOOD ? "wholly within +-"
			   : j.lo > c->threshold	 ? "wholly above (but p >= alpha)"
						 : "straddles",
			   100 * c->threshold, j.p, n);
	switch (j.call) {
	case BISECT_BAD:
		return step_end(c, m, "bad", reason, STEP_BAD);
	case BISECT_GOOD:
		return step_end(c, m, "good", reason, STEP_GOOD);
	case BISECT_UNDECIDED:
		break;
	}
	return step_end(c, m, "skip", reason, STEP_SKIP);
}

static int reopen(struct bisect_ctx *c)
{
	_cleanup_free_ char *err = NULL;

	if (bisect_db__open(c->db_path, &c->db, &err) < 0) {
		log_err("bisect: %s", err);
		return -EIO;
	}
	return 0;
}

/*
 * Measure sha (the bad end when ends, else a step) in a child whose stdout
 * and stderr are the measurement's log: shown on stderr as it comes and
 * stored whole in its rows. Returns the child's step_exit (STEP_ERROR if it
 * died).
 */
int bisect_step_run(struct bisect_ctx *c, const char *sha, bool ends)
{
	_cleanup_free_ char *subject = bisect_commit_subject(c->repo, sha), *log = NULL, *err = NULL;
	_cleanup_free_ char *gsubject = NULL;
	struct measurement m = {
		.ends = ends,
		.x = { .role = ends ? "bad" : "step", .commit = sha, .subject = subject,
		       .threshold = ends ? NAN : c->threshold },
		.good = { .role = "good", .commit = c->good, .threshold = NAN },
	};
	size_t len = 0;
	int fds[2], status = 0, ex;
	pid_t pid;
	FILE *f;
	char buf[4096];
	ssize_t got;

	if (ends) {
		gsubject = bisect_commit_subject(c->repo, c->good);
		m.good.subject = gsubject;
		if (bisect_db__step_begin(c->db, "good", c->good, gsubject, &m.good.id,
					  &m.good.ord) < 0)
			goto db_err;
	}
	if (bisect_db__step_begin(c->db, m.x.role, sha, subject, &m.x.id, &m.x.ord) < 0)
		goto db_err;
	if (ends)
		c->bad_id = m.x.id;
	if (pipe(fds) < 0) {
		log_err("bisect: pipe: %s", strerror(errno));
		return STEP_ERROR;
	}
	fflush(stdout);
	fflush(stderr);
	/* No SQLite connection may cross a fork: close ours, the child opens its
	 * own, and ours is opened again once the child is gone. */
	bisect_db__closep(&c->db);
	pid = fork();
	if (pid < 0) {
		log_err("bisect: fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		reopen(c);
		return STEP_ERROR;
	}
	if (pid == 0) {
		struct bisect_ctx child = *c;

		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (bisect_db__open(c->db_path, &child.db, &err) < 0) {
			log_err("bisect: %s", err);
			_exit(STEP_ERROR);
		}
		printf("== bisect step %d (%s): %s %s\n", m.x.ord, m.x.role, sha, subject);
		fflush(stdout);
		ex = step_measure(&child, &m);
		fflush(stdout);
		fflush(stderr);
		_exit(ex);
	}
	close(fds[1]);
	f = open_memstream(&log, &len);
	while ((got = read(fds[0], buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		fwrite(buf, 1, (size_t)got, stderr);
		fwrite(buf, 1, (size_t)got, f);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	fclose(f);
	if (reopen(c) < 0)
		return STEP_ERROR;
	if (bisect_db__step_log(c->db, m.x.id, log, len) < 0 ||
	    (ends && bisect_db__step_log(c->db, m.good.id, log, len) < 0))
		log_err("bisect: %s: storing step %d's log: %s", c->db_path, m.x.ord,
			bisect_db__errmsg(c->db));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	/* Killed (Ctrl-C during a build): its rows say so rather than "running". */
	{
		_cleanup_free_ char *why = xasprintf("the step's process died: signal %d",
						     WTERMSIG(status));

		m.x.decision = m.good.decision = "error";
		m.x.reason = m.good.reason = why;
		bisect_db__step_finish(c->db, &m.x);
		if (ends)
			bisect_db__step_finish(c->db, &m.good);
		log_err("bisect: step %d (%.12s): %s", m.x.ord, sha, why);
	}
	return WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM ? STEP_INTERRUPTED
									  : STEP_ERROR;
db_err:
	log_err("bisect: %s: %s", c->db_path, bisect_db__errmsg(c->db));
	return STEP_ERROR;
}

/* ---- what git bisect run calls ---------------------------------------------- */

int bisect_answer_git(const char *db_path)
{
	struct bisect_ctx c = { 0 };
	_cleanup_free_ char *sha = NULL, *err = NULL;
	const char *head[] = { "rev-parse", "--verify", "BISECT_HEAD^{commit}", NULL };
	int ex;

	bisect_catch_signals();
	if (access(db_path, R_OK | W_OK) < 0) {
		log_err("bisect: %s: %s", db_path, strerror(errno));
		return 128;
	}
	if (bisect_ctx__load(&c, db_path) < 0) {
		bisect_ctx__clear(&c);
		return 128;
	}
	if (chdir(c.cwd) < 0) {
		log_err("bisect: %s: %s", c.cwd, strerror(errno));
		bisect_ctx__clear(&c);
		return 128;
	}
	if (bisect_git(c.repo, head, &sha, &err) < 0) {
		log_err("bisect: %s", err);
		bisect_ctx__clear(&c);
		return 128;
	}
	ex = bisect_step_run(&c, sha, false);
	bisect_ctx__clear(&c);
	switch (ex) {
	case STEP_GOOD:
	case STEP_BAD:
	case STEP_SKIP:
		return ex;
	default:
		/* 128 stops git bisect run: an error of lrubench's is no verdict on the commit. */
		return 128;
	}
}
