// SPDX-License-Identifier: GPL-2.0
/*
 * The KCIDB v5.3 export of a campaign (kcidb.h): checkouts and builds from
 * the variants' kernel provenance (store-export.h), tests from the same
 * analysis compare prints (verdict.h) and the lost repetitions.
 */
#include "kcidb.h"
#include "escape.h"
#include "plan.h"
#include "store-export.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ORIGIN "lrubench"

const char *kcidb__status(const struct comparison *c)
{
	switch (c->verdict) {
	case VERDICT_REGRESSION:
		return "FAIL";
	case VERDICT_IMPROVEMENT:
		return "PASS";
	case VERDICT_NO_CHANGE:
		return c->decision == DECISION_WITHIN ? "PASS" : "DONE";
	case VERDICT_CHANGED:
	case VERDICT_NO_DIRECTION:
		return "DONE";
	case VERDICT_NOT_COMPARABLE:
		return "SKIP";
	case VERDICT_TOO_FEW:
	case VERDICT_NO_DATA:
		break;
	}
	return "MISS";
}

static void count(struct kcidb_counts *n, const char *status)
{
	n->tests++;
	if (!strcmp(status, "PASS"))
		n->pass++;
	else if (!strcmp(status, "FAIL"))
		n->fail++;
	else if (!strcmp(status, "DONE"))
		n->done++;
	else if (!strcmp(status, "SKIP"))
		n->skip++;
	else if (!strcmp(status, "MISS"))
		n->miss++;
	else
		n->error++;
}

static void json_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.10g", x);
	else
		fprintf(f, "null");
}

/* ", "name": "value"" when value is set and not empty. */
static void json_opt(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, ", \"%s\": ", name);
	escape_json(f, value);
}

/* One part of a test path: [A-Za-z0-9_-], anything else '_', no '_' at either end, never empty. */
static void path_part(FILE *f, const char *s)
{
	size_t len = strlen(s), a = 0, b = len;
	bool any = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!(ch < 128 && (ch == '-' || ch == '_' || (ch >= '0' && ch <= '9') ||
				   ((ch | 32) >= 'a' && (ch | 32) <= 'z'))))
			continue;
		if (!any)
			a = i;
		any = true;
		b = i + 1;
	}
	if (!any) {
		fputc('_', f);
		return;
	}
	for (size_t i = a; i < b; i++) {
		unsigned char ch = (unsigned char)s[i];
		bool okc = ch < 128 && (ch == '-' || ch == '_' || (ch >= '0' && ch <= '9') ||
					((ch | 32) >= 'a' && (ch | 32) <= 'z'));

		fputc(okc ? ch : '_', f);
	}
}

/* The id of the campaign's object kind:rest, as a JSON string. */
static void json_id(FILE *f, const char *campaign, const char *kind, const char *rest)
{
	_cleanup_free_ char *id = xasprintf(ORIGIN ":%s:%s%s%s", campaign, kind, *kind ? ":" : "",
					    rest);

	escape_json(f, id);
}

/* Where a variant's kernel came from, as a key that names its checkout. */
static const char *checkout_key(const struct store_export_kernel *k, const char *kernel_text)
{
	const char *s = store_export_kernel__get(k, "kernel.source_id");

	if (!s)
		s = store_export_kernel__get(k, "kernel.source");
	return s ? s : kernel_text;
}

/* A variant's kernel image, as a key that names its build. */
static const char *build_key(const struct store_export_kernel *k, const char *kernel_text)
{
	const char *s = store_export_kernel__get(k, "kernel.sha256");

	return s ? s : kernel_text;
}

/* The git commit of a source identity "git:<40 hex>[+dirty:...]", into buf; false if none. */
static bool git_commit(const char *source_id, char buf[41])
{
	if (!source_id || strncmp(source_id, "git:", 4))
		return false;
	for (int i = 0; i < 40; i++) {
		char ch = source_id[4 + i];

		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
			return false;
	}
	if (source_id[44] && source_id[44] != '+')
		return false;
	memcpy(buf, source_id + 4, 40);
	buf[40] = 0;
	return true;
}

struct xp {
	FILE *f;
	struct store *st;
	const struct analysis *an;
	const struct dataset *ds;
	char *campaign, *plan, *run_by, *start; /* start: RFC 3339, or NULL */
	struct store_export_kernel *k;
	size_t nk;
	const struct store_export_kernel **vk; /* per dataset variant: its kernel entry, or NULL */
	size_t *vbuild;			       /* per dataset variant: its build */
	size_t *bvar, *bcheckout;	       /* per build: its first variant, its checkout */
	size_t nb;
	size_t *cvar; /* per checkout: its first variant */
	size_t nco;
	struct kcidb_counts n;
};

static const char *vkey(const struct xp *x, size_t v, bool build)
{
	return build ? build_key(x->vk[v], x->ds->v[v].kernel) :
		       checkout_key(x->vk[v], x->ds->v[v].kernel);
}

/* Group the variants' kernels into builds and checkouts. */
static void group(struct xp *x)
{
	const struct dataset *ds = x->ds;

	x->vk = xcalloc(ds->nv, sizeof(*x->vk));
	x->vbuild = xcalloc(ds->nv, sizeof(*x->vbuild));
	x->bvar = xcalloc(ds->nv, sizeof(*x->bvar));
	x->bcheckout = xcalloc(ds->nv, sizeof(*x->bcheckout));
	x->cvar = xcalloc(ds->nv, sizeof(*x->cvar));
	for (size_t v = 0; v < ds->nv; v++)
		for (size_t i = 0; i < x->nk; i++)
			if (!strcmp(x->k[i].variant, ds->v[v].name))
				x->vk[v] = &x->k[i];
	for (size_t v = 0; v < ds->nv; v++) {
		size_t b, c;

		for (b = 0; b < x->nb; b++)
			if (!strcmp(vkey(x, x->bvar[b], true), vkey(x, v, true)))
				break;
		x->vbuild[v] = b;
		if (b < x->nb)
			continue;
		x->bvar[x->nb++] = v;
		for (c = 0; c < x->nco; c++)
			if (!strcmp(vkey(x, x->cvar[c], false), vkey(x, v, false)))
				break;
		if (c == x->nco)
			x->cvar[x->nco++] = v;
		x->bcheckout[b] = c;
	}
}

static void common(struct xp *x)
{
	fprintf(x->f, ", \"origin\": \"" ORIGIN "\"");
	json_opt(x->f, "start_time", x->start);
}

static void write_checkouts(struct xp *x)
{
	FILE *f = x->f;

	fprintf(f, "  \"checkouts\": [");
	for (size_t c = 0; c < x->nco; c++) {
		const struct store_export_kernel *k = x->vk[x->cvar[c]];
		const char *key = vkey(x, x->cvar[c], false);
		const char *source = store_export_kernel__get(k, "kernel.source");
		const char *sid = store_export_kernel__get(k, "kernel.source_id");
		const char *recipe = store_export_kernel__get(k, "kernel.recipe");
		const char *sver = store_export_kernel__get(k, "kernel.source_version");
		const char *kver = store_export_kernel__get(k, "kernel.version");
		bool debian = !recipe && source && !strncmp(source, "debian:", 7);
		_cleanup_free_ char *comment = NULL;
		char commit[41];

		fprintf(f, "%s\n    {\"id\": ", c ? "," : "");
		json_id(f, x->campaign, "checkout", key);
		common(x);
		if (debian)
			fprintf(f, ", \"tree_name\": \"debian\"");
		if (git_commit(sid, commit))
			fprintf(f, ", \"git_commit_hash\": \"%s\"", commit);
		json_opt(f, "git_repository_url", store_export_kernel__get(k, "kernel.git_url"));
		json_opt(f, "git_repository_branch", store_export_kernel__get(k, "kernel.git_branch"));
		if (recipe)
			comment = xasprintf("built by lrubench from recipe %s: source %s%s%s%s", recipe,
					    sid ? sid : "?", sver ? " (version " : "",
					    sver ? sver : "", sver ? ")" : "");
		else if (debian)
			comment = xasprintf("Debian's prebuilt kernel, package %s%s%s: lrubench "
					    "checked out no source, the package names it",
					    source + 7, kver ? ": " : "", kver ? kver : "");
		else
			comment = xasprintf("a kernel image given to lrubench (%s): its source is "
					    "not known",
					    source ? source : key);
		json_opt(f, "comment", comment);
		/* the source was there: a kernel was made from it and runs used it */
		fprintf(f, ", \"valid\": true, \"misc\": {\"prebuilt\": %s",
			recipe ? "false" : "true");
		json_opt(f, "source", source);
		json_opt(f, "source_id", sid);
		json_opt(f, "source_version", sver);
		json_opt(f, "recipe", recipe);
		json_opt(f, "recipe_sha256", store_export_kernel__get(k, "kernel.recipe_sha256"));
		json_opt(f, "patches", store_export_kernel__get(k, "kernel.patches"));
		json_opt(f, "fragments", store_export_kernel__get(k, "kernel.fragments"));
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ],\n");
	x->n.checkouts = x->nco;
}

/* The build's runs: all its variants' together. */
static void build_runs(const struct xp *x, size_t b, int64_t *runs, int64_t *booted,
		       int64_t *failed_kernel)
{
	*runs = *booted = *failed_kernel = 0;
	for (size_t v = 0; v < x->ds->nv; v++)
		if (x->vbuild[v] == b && x->vk[v]) {
			*runs += x->vk[v]->runs;
			*booted += x->vk[v]->booted;
			*failed_kernel += x->vk[v]->failed_kernel;
		}
}

static void write_builds(struct xp *x)
{
	FILE *f = x->f;

	fprintf(f, "  \"builds\": [");
	for (size_t b = 0; b < x->nb; b++) {
		const struct store_export_kernel *k = x->vk[x->bvar[b]];
		const char *recipe = store_export_kernel__get(k, "kernel.recipe");
		const char *config = store_export_kernel__get(k, "kernel.config");
		const char *release = store_export_kernel__get(k, "kernel.release");
		const char *kver = store_export_kernel__get(k, "kernel.version");
		_cleanup_free_ char *cname = NULL, *comment = NULL;
		int64_t runs, booted, failed_kernel;

		build_runs(x, b, &runs, &booted, &failed_kernel);
		if (recipe)
			cname = xasprintf("%s", recipe);
		else if (config)
			cname = xstrdup(strrchr(config, '/') ? strrchr(config, '/') + 1 : config);
		comment = xstrdup(kver ? kver : release ? release : x->ds->v[x->bvar[b]].kernel);
		fprintf(f, "%s\n    {\"id\": ", b ? "," : "");
		json_id(f, x->campaign, "build", vkey(x, x->bvar[b], true));
		fprintf(f, ", \"checkout_id\": ");
		json_id(f, x->campaign, "checkout", vkey(x, x->cvar[x->bcheckout[b]], false));
		common(x);
		fprintf(f, ", \"architecture\": \"x86_64\"");
		json_opt(f, "comment", comment);
		json_opt(f, "compiler", store_export_kernel__get(k, "kernel.compiler"));
		json_opt(f, "config_name", cname);
		/* the build is good when a guest booted it; bad only when the kernel failed */
		if (booted)
			fprintf(f, ", \"status\": \"PASS\"");
		else if (failed_kernel)
			fprintf(f, ", \"status\": \"FAIL\"");
		fprintf(f, ", \"misc\": {\"runs\": %lld, \"booted\": %lld",
			(long long)runs, (long long)booted);
		json_opt(f, "kernel_sha256", store_export_kernel__get(k, "kernel.sha256"));
		json_opt(f, "release", release);
		json_opt(f, "config", config);
		json_opt(f, "config_sha256", store_export_kernel__get(k, "kernel.config_sha256"));
		json_opt(f, "build_key", store_export_kernel__get(k, "kernel.build_key"));
		json_opt(f, "image", store_export_kernel__get(k, "kernel.image"));
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ],\n");
	x->n.builds = x->nb;
}

/* The test's environment: the variant's LRU and knobs. */
static void environment(const struct xp *x, size_t v)
{
	const struct ds_variant *dv = &x->ds->v[v];
	_cleanup_free_ char *comment = xasprintf("variant %s: LRU %s%s%s", dv->name, dv->lru,
						 *dv->knobs ? ", knobs " : "", dv->knobs);

	fprintf(x->f, ", \"environment\": {\"comment\": ");
	escape_json(x->f, comment);
	fprintf(x->f, ", \"misc\": {\"variant\": ");
	escape_json(x->f, dv->name);
	fprintf(x->f, ", \"lru\": ");
	escape_json(x->f, dv->lru);
	fprintf(x->f, ", \"knobs\": ");
	escape_json(x->f, dv->knobs);
	fprintf(x->f, "}}");
}

static void tool_misc(const struct xp *x)
{
	fprintf(x->f, "\"lrubench_version\": ");
	escape_json(x->f, LRUBENCH_VERSION);
	json_opt(x->f, "campaign_lrubench_version", x->run_by);
	fprintf(x->f, ", \"campaign\": ");
	escape_json(x->f, x->campaign);
	fprintf(x->f, ", \"baseline\": ");
	escape_json(x->f, x->ds->v[x->ds->base].name);
}

/* The comment of a key test: its verdict in words, as compare says it. */
static char *test_comment(const struct xp *x, const struct comparison *c, const char *status)
{
	const struct ds_row *r = &x->ds->rows[c->row];
	const char *cand = x->ds->v[c->cand].name, *base = x->ds->v[x->ds->base].name;
	double ch, lo, hi;

	if (!strcmp(status, "SKIP"))
		return xasprintf("%s: %s against %s not comparable across LRUs: %s", r->label, cand,
				 base, c->reason ? c->reason : "?");
	if (!strcmp(status, "MISS"))
		return xasprintf("%s: %s against %s: %zu block(s) with both sides, a verdict needs "
				 "%d (runs failed or never ran)",
				 r->label, cand, base, c->pairs, VERDICT_MIN_BLOCKS);
	if (!comparison__effect(c, &ch, &lo, &hi))
		lo = hi = NAN;
	if (!strcmp(status, "DONE") && c->verdict == VERDICT_NO_CHANGE)
		return xasprintf("%s: %s against %s: no significant change, but the interval "
				 "[%+.1f%%, %+.1f%%] straddles +-%g%%: undecided (open)%s",
				 r->label, cand, base, 100 * lo, 100 * hi,
				 100 * x->an->o.min_effect,
				 c->more_blocks ? ", more blocks would likely decide it" : "");
	return xasprintf("%s: %s against %s: %s (%s), change %+.1f%% [%+.1f%%, %+.1f%%]",
			 r->label, cand, base, verdict_name(c->verdict),
			 verdict_mark_of(c, x->an->o.min_effect), 100 * ch, 100 * lo, 100 * hi);
}

static void write_key_test(struct xp *x, const struct comparison *c, bool *first)
{
	const struct dataset *ds = x->ds;
	const struct ds_row *r = &ds->rows[c->row];
	const char *status = kcidb__status(c);
	const char *metric = r->label;
	_cleanup_free_ char *comment = test_comment(x, c, status);
	_cleanup_free_ char *rest = xasprintf("%s:%s", ds->v[c->cand].name, r->label);
	double ch, lo, hi;
	FILE *f = x->f;

	if (r->result && !strncmp(metric, r->scope, strlen(r->scope)) &&
	    metric[strlen(r->scope)] == ':')
		metric += strlen(r->scope) + 1;
	fprintf(f, "%s\n    {\"id\": ", *first ? "" : ",");
	*first = false;
	json_id(f, x->campaign, "", rest);
	fprintf(f, ", \"build_id\": ");
	json_id(f, x->campaign, "build", vkey(x, c->cand, true));
	common(x);
	fprintf(f, ", \"path\": \"" ORIGIN ".");
	path_part(f, x->plan);
	fputc('.', f);
	path_part(f, r->family);
	fputc('.', f);
	path_part(f, metric);
	fputc('.', f);
	path_part(f, ds->v[c->cand].name);
	fprintf(f, "\", \"status\": \"%s\"", status);
	json_opt(f, "comment", comment);
	if (c->cur.n && isfinite(c->cur.mean) && strcmp(status, "SKIP") && strcmp(status, "MISS")) {
		fprintf(f, ", \"number\": {\"value\": ");
		json_num(f, c->cur.mean);
		json_opt(f, "unit", r->unit);
		fprintf(f, "}");
	}
	environment(x, c->cand);
	fprintf(f, ", \"misc\": {");
	tool_misc(x);
	fprintf(f, ", \"candidate\": ");
	escape_json(f, ds->v[c->cand].name);
	fprintf(f, ", \"workload\": ");
	escape_json(f, r->family);
	fprintf(f, ", \"metric\": ");
	escape_json(f, r->label);
	fprintf(f, ", \"unit\": ");
	escape_json(f, r->unit ? r->unit : "");
	fprintf(f, ", \"better\": ");
	escape_json(f, metric_better_name(r->better));
	fprintf(f, ", \"key\": true");
	fprintf(f, ", \"verdict\": ");
	escape_json(f, verdict_name(c->verdict));
	fprintf(f, ", \"mark\": ");
	escape_json(f, verdict_mark_of(c, x->an->o.min_effect));
	fprintf(f, ", \"decision\": \"%s\"", decision_name(c->decision));
	fprintf(f, ", \"baseline_mean\": ");
	json_num(f, c->base.n ? c->base.mean : NAN);
	fprintf(f, ", \"candidate_mean\": ");
	json_num(f, c->cur.n ? c->cur.mean : NAN);
	fprintf(f, ", \"baseline_n\": %zu, \"candidate_n\": %zu, \"n\": %zu", c->base.n, c->cur.n,
		c->pairs);
	if (!comparison__effect(c, &ch, &lo, &hi))
		lo = hi = NAN;
	fprintf(f, ", \"scale\": \"%s\", \"change\": ", change_scale_name(c->scale));
	json_num(f, ch);
	fprintf(f, ", \"interval\": [");
	json_num(f, lo);
	fprintf(f, ", ");
	json_num(f, hi);
	fprintf(f, "], \"level\": ");
	json_num(f, c->level);
	fprintf(f, ", \"p\": ");
	json_num(f, c->paired.p);
	fprintf(f, ", \"q\": ");
	json_num(f, c->q);
	fprintf(f, ", \"family_size\": %zu, \"min_effect\": ", c->family_size);
	json_num(f, x->an->o.min_effect);
	fprintf(f, ", \"more_blocks\": %zu", c->more_blocks);
	json_opt(f, "reason", c->reason);
	fprintf(f, "}}");
	count(&x->n, status);
}

/* A lost repetition: the run failed and no retry made it good. */
static void write_failure(struct xp *x, const struct ds_failure *fl, bool *first)
{
	const struct ds_variant *v = &x->ds->v[fl->variant];
	_cleanup_free_ char *rest = xasprintf("%lld", (long long)fl->run_id);
	_cleanup_free_ char *comment = xasprintf("run %lld (variant %s, repetition %d) %s: %s",
						 (long long)fl->run_id, v->name, fl->rep + 1,
						 fl->status, *fl->reason ? fl->reason : "no reason");
	FILE *f = x->f;

	fprintf(f, "%s\n    {\"id\": ", *first ? "" : ",");
	*first = false;
	json_id(f, x->campaign, "run", rest);
	fprintf(f, ", \"build_id\": ");
	json_id(f, x->campaign, "build", vkey(x, fl->variant, true));
	common(x);
	fprintf(f, ", \"path\": \"" ORIGIN ".");
	path_part(f, x->plan);
	fprintf(f, ".run.");
	path_part(f, v->name);
	fprintf(f, "\", \"status\": \"ERROR\"");
	json_opt(f, "comment", comment);
	json_opt(f, "log_excerpt", *fl->reason ? fl->reason : NULL);
	environment(x, fl->variant);
	fprintf(f, ", \"misc\": {");
	tool_misc(x);
	fprintf(f, ", \"run\": %lld, \"variant\": ", (long long)fl->run_id);
	escape_json(f, v->name);
	fprintf(f, ", \"repetition\": %d, \"run_status\": ", fl->rep);
	escape_json(f, fl->status);
	fprintf(f, ", \"reason\": ");
	escape_json(f, fl->reason);
	fprintf(f, "}}");
	count(&x->n, "ERROR");
}

static void write_tests(struct xp *x)
{
	bool first = true;

	fprintf(x->f, "  \"tests\": [");
	for (size_t i = 0; i < x->an->nc; i++)
		if (x->an->c[i].key)
			write_key_test(x, &x->an->c[i], &first);
	for (size_t i = 0; i < x->ds->nfailures; i++)
		write_failure(x, &x->ds->failures[i], &first);
	fprintf(x->f, "\n  ]\n");
}

static void xp__clear(struct xp *x)
{
	free(x->campaign);
	free(x->plan);
	free(x->run_by);
	free(x->start);
	store_export_kernels__free(x->k, x->nk);
	free(x->vk);
	free(x->vbuild);
	free(x->bvar);
	free(x->bcheckout);
	free(x->cvar);
}

int kcidb__write(struct store *st, const struct analysis *an, FILE *f,
		 struct kcidb_counts *ret_counts)
{
	struct xp x = { .f = f, .st = st, .an = an, .ds = an->ds };
	_cleanup_free_ char *created = NULL;
	int r;

	r = store__export_kernels(st, &x.k, &x.nk);
	if (r < 0)
		return r;
	if (store__meta_get(st, "campaign", &x.campaign) < 0)
		x.campaign = xstrdup(x.ds->campaign ? x.ds->campaign : "campaign");
	x.plan = xstrdup(x.ds->plan && x.ds->plan->name ? x.ds->plan->name : x.campaign);
	store__meta_get(st, "lrubench.version", &x.run_by);
	if (store__meta_get(st, "created", &created) == 0) {
		char *end;
		long long t = strtoll(created, &end, 10);
		time_t tt = (time_t)t;
		struct tm tm;
		char buf[32];

		if (end != created && !*end && t > 0 && gmtime_r(&tt, &tm) &&
		    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
			x.start = xstrdup(buf);
	}
	group(&x);
	fprintf(f, "{\n  \"version\": {\"major\": 5, \"minor\": 3},\n");
	write_checkouts(&x);
	write_builds(&x);
	write_tests(&x);
	fprintf(f, "}\n");
	if (ret_counts)
		*ret_counts = x.n;
	xp__clear(&x);
	return ferror(f) ? -EIO : 0;
}
