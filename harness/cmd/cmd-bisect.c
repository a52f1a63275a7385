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

/* What a step process answers; the ends' children answer MEASURED or an error. */
enum step_exit {
	STEP_GOOD = 0,
	STEP_BAD = 1,
	STEP_ERROR = 2,
	STEP_SKIP = 125,
	STEP_INTERRUPTED = 130,
};

/* Everything a step needs, kept in bisect_param so a step process can rebuild it. */
struct bisect_ctx {
	struct bisect_db *db;
	char *db_path; /* absolute */
	char *dir;     /* the bisection's directory, absolute */
	char *cwd;     /* where lrubench was started: relative paths resolve from here */
	char *repo;    /* absolute */
	char *good, *bad; /* the ends' commits */
	int64_t bad_id;	  /* the bad end's row, once measured */
	char *recipe_path, *recipe_text;
	char *plan_path, *plan_text;
	char *variant;
	char *metric;
	enum metric_better better;
	char *accel;
	int reps, max_reps, jobs;
	uint64_t timeout_ms;
	struct bisect_rule rule;
	double threshold; /* NAN until the ends are measured */
};

static void ctx_clear(struct bisect_ctx *c)
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
static const struct cmd_opt step_opts[] = {
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

static volatile sig_atomic_t interrupted;

/*
 * Ctrl-C reaches the whole process group: git, the step and its campaign stop
 * on their own. lrubench's own process only notes it and cleans up after
 * them. (A handler, not SIG_IGN: an ignored signal would stay ignored in
 * everything exec'd.)
 */
static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* git -C repo ARGS...; its stdout, stripped, in *ret_out (when wanted). */
static int git(const char *repo, const char *const args[], char **ret_out, char **ret_err)
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

static int resolve_commit(const char *repo, const char *ref, char **ret_sha, char **ret_err)
{
	_cleanup_free_ char *rev = xasprintf("%s^{commit}", ref);
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", rev, NULL };

	if (*ref == '-' || git(repo, args, ret_sha, NULL) < 0) {
		*ret_err = xasprintf("%s: no commit '%s'", repo, ref);
		return -ENOENT;
	}
	return 0;
}

static char *commit_subject(const char *repo, const char *sha)
{
	const char *args[] = { "log", "-1", "--format=%s", sha, NULL };
	char *s = NULL;

	return git(repo, args, &s, NULL) == 0 ? s : xstrdup("");
}

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

/* ---- one commit, measured (in a child whose output is the step's log) ------- */


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
		r = cmd_campaign_run(p, &o);
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
static int step_run(struct bisect_ctx *c, const char *sha, bool ends)
{
	_cleanup_free_ char *subject = commit_subject(c->repo, sha), *log = NULL, *err = NULL;
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
		gsubject = commit_subject(c->repo, c->good);
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

/* ---- the context, stored ---------------------------------------------------- */

static char *fmt_double(double x)
{
	return xasprintf("%.17g", x);
}

static int ctx_save(struct bisect_ctx *c)
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
	for (const struct cmd_opt *row = step_opts; row->code; row++) {
		_cleanup_free_ char *v = cmd_opt_format(row, c);

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

static int ctx_load(struct bisect_ctx *c, const char *db_path)
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
	for (const struct cmd_opt *row = step_opts; row->code; row++) {
		_cleanup_free_ char *s = NULL;

		if (bisect_db__param_get(c->db, row->param, &s) < 0) {
			log_err("bisect: %s has no '%s'", db_path, row->param);
			return -ENOENT;
		}
		if (cmd_opt_load(row, c, s) < 0) {
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

/* ---- lrubench __bisect-step DB: what git bisect run calls -------------------- */

int cmd_bisect_step(int argc, char **argv)
{
	struct bisect_ctx c = { 0 };
	_cleanup_free_ char *sha = NULL, *err = NULL;
	const char *head[] = { "rev-parse", "--verify", "BISECT_HEAD^{commit}", NULL };
	int ex;

	if (argc != 2) {
		log_err("usage: lrubench __bisect-step BISECT_DB (run by git bisect run)");
		return 128;
	}
	catch_signals();
	if (access(argv[1], R_OK | W_OK) < 0) {
		log_err("bisect: %s: %s", argv[1], strerror(errno));
		return 128;
	}
	if (ctx_load(&c, argv[1]) < 0) {
		ctx_clear(&c);
		return 128;
	}
	if (chdir(c.cwd) < 0) {
		log_err("bisect: %s: %s", c.cwd, strerror(errno));
		ctx_clear(&c);
		return 128;
	}
	if (git(c.repo, head, &sha, &err) < 0) {
		log_err("bisect: %s", err);
		ctx_clear(&c);
		return 128;
	}
	ex = step_run(&c, sha, false);
	ctx_clear(&c);
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
	if (git(c->repo, gitdir, NULL, &err) < 0) {
		log_err("--repo %s: not a git repository (%s)", c->repo, err);
		return 2;
	}
	if (resolve_commit(c->repo, good_ref, ret_good, &err) < 0 ||
	    resolve_commit(c->repo, bad_ref, ret_bad, &err) < 0) {
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

		if (git(c->repo, anc, NULL, NULL) < 0) {
			log_err("--good %s (%.12s) is not an ancestor of --bad %s (%.12s) in %s",
				good_ref, *ret_good, bad_ref, *ret_bad, c->repo);
			return 2;
		}
	}
	if (git(c->repo, bisecting, &out, NULL) == 0) {
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
		char stamp[32];
		time_t now = time(NULL);

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		dbdir = xasprintf("%s/bisect-%s", path_results(), stamp);
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
	if (git(c->repo, start, &out, &err) < 0) {
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
	if (git(c->repo, logv, &blog, &err) == 0)
		bisect_db__param_set(c->db, "git_bisect_log", blog);
	if (git(c->repo, reset, NULL, &err) < 0)
		log_warn("bisect: %s", err);
	bisect_db__param_set(c->db, "git_bisect_run", out);
	sha = first_bad(out);
	if (sha) {
		_cleanup_free_ char *subject = commit_subject(c->repo, sha);
		_cleanup_free_ char *line = xasprintf("%s %s", sha, subject);

		bisect_db__param_set(c->db, "first_bad", sha);
		bisect_db__param_set(c->db, "outcome", line);
		printf("\nfirst bad commit: %s\n", line);
		ex = 0;
	} else if (interrupted || rc == 128 + SIGINT || rc == 128 + SIGTERM) {
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
		int r = cmd_opt_parse(bisect_opts, &a, ch, optarg);

		if (r == 0)
			r = cmd_opt_parse(step_opts, &c, ch, optarg);
		if (r < 0)
			goto usage_err;
		if (r > 0)
			continue;
		if (ch == 'h') {
			usage(stdout);
			ctx_clear(&c);
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
	if (ctx_save(&c) < 0) {
		ex = 2;
		goto out;
	}
	catch_signals();
	log_info("bisect: %s between %.12s (good) and %.12s (bad) in %s; database %s",
		 c.metric, c.good, c.bad, c.repo, c.db_path);

	/* The ends, interleaved. */
	ex = step_run(&c, c.bad, true);
	if (ex != STEP_GOOD) {
		ex = ex == STEP_INTERRUPTED || interrupted ? 130 : 2;
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
	ctx_clear(&c);
	return ex;
usage_err:
	ctx_clear(&c);
	return 2;
}
