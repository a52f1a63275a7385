// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel values and recipes (kernel-build.h): what a plan's kernel value
 * names (debian, a recipe, a bzImage), and the recipe parser: kernels/NAME.ini
 * into a struct kbuild_recipe, every error naming the file and line.
 */
#include "kernel-build.h"
#include "ini.h"
#include "kernel.h"
#include "util.h"

#include <ctype.h>
#include <libgen.h>
#include <string.h>

/* ---- kernel values: debian, a recipe, an image ----------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

enum kernel_spec_kind kernel_spec_kind(const char *spec)
{
	if (!spec || !*spec)
		return KERNEL_SPEC_BAD;
	if (kernel__debian_spec_series(spec))
		return KERNEL_SPEC_DEBIAN;
	if (ends_with(spec, ".ini") && strlen(spec) > 4)
		return KERNEL_SPEC_RECIPE;
	if (strchr(spec, '/'))
		return KERNEL_SPEC_IMAGE;
	return ini__name_ok(spec) ? KERNEL_SPEC_RECIPE : KERNEL_SPEC_BAD;
}

char *kernel_spec_recipe_path(const char *spec, const char *recipes_dir)
{
	if (ends_with(spec, ".ini"))
		return xstrdup(spec);
	return xasprintf("%s/%s.ini", recipes_dir, spec);
}

/* ---- the recipe parser -------------------------------------------------- */

enum rsec { RSEC_NONE, RSEC_RECIPE, RSEC_SOURCE, RSEC_PATCHES, RSEC_CONFIG };

static const char *const rsec_names[] = { "", "recipe", "source", "patches", "config" };

struct rparser {
	const char *path;
	char *dir; /* the recipe's directory, for relative paths */
	struct ini ini;
	unsigned line;
	char *err;
	struct kbuild_recipe *r;
	enum rsec sec;
	unsigned ref_line, repo_line, first_range_line;
};

static int rfail(struct rparser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rfail(struct rparser *ps, const char *fmt, ...)
{
	_cleanup_free_ char *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	safe = ini__vmsg(fmt, ap);
	va_end(ap);
	free(ps->err);
	ps->err = ps->line ? xasprintf("%s:%u: %s", ps->path, ps->line, safe)
			   : xasprintf("%s: %s", ps->path, safe);
	return -EINVAL;
}

static char *resolve(const struct rparser *ps, const char *v)
{
	return v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", ps->dir, v);
}

/* A git revision as an argv element: never an option, no blanks or controls. */
static bool rev_ok(const char *s)
{
	if (!*s || *s == '-' || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._/^~+-@{}", *s))
			return false;
	return true;
}

static int set_description(struct rparser *ps, const char *k, const char *v)
{
	(void)k;
	free(ps->r->description);
	ps->r->description = xstrdup(v);
	return 0;
}

static int set_source(struct rparser *ps, const char *k, const char *v)
{
	struct kbuild_recipe *r = ps->r;

	if (r->source_line)
		return rfail(ps, "'%s': [source] takes one of tarball, tree or git, and line %u "
				 "already gave one", k, r->source_line);
	if (*v == '-')
		return rfail(ps, "bad %s '%s'", k, v);
	if (!strcmp(k, "tarball")) {
		r->source_kind = KBUILD_SRC_TARBALL;
		r->source = resolve(ps, v);
	} else if (!strcmp(k, "tree")) {
		r->source_kind = KBUILD_SRC_TREE;
		r->source = resolve(ps, v);
	} else {
		r->source_kind = KBUILD_SRC_GIT;
		/* A URL stays as written; a local repository is a path. */
		r->source = strstr(v, "://") || !strncmp(v, "git@", 4) ? xstrdup(v)
								       : resolve(ps, v);
	}
	r->source_line = ps->line;
	return 0;
}

static int set_ref(struct rparser *ps, const char *k, const char *v)
{
	(void)k;
	if (!rev_ok(v))
		return rfail(ps, "bad ref '%s' (a branch, tag or commit)", v);
	free(ps->r->ref);
	ps->r->ref = xstrdup(v);
	ps->ref_line = ps->line;
	return 0;
}

static int set_repo(struct rparser *ps, const char *k, const char *v)
{
	(void)k;
	if (*v == '-')
		return rfail(ps, "bad repo '%s'", v);
	free(ps->r->repo);
	ps->r->repo = resolve(ps, v);
	ps->repo_line = ps->line;
	return 0;
}

static int add_patch(struct rparser *ps, const char *k, const char *v)
{
	struct kbuild_recipe *r = ps->r;
	bool range = !strcmp(k, "range");

	if (range) {
		const char *dots = strstr(v, "..");
		_cleanup_free_ char *a = dots ? strndup(v, (size_t)(dots - v)) : NULL;
		const char *b = dots ? dots + 2 : NULL;

		/* A...B is a symmetric difference: not a patch series. */
		if (!dots || dots[2] == '.' || !a || !rev_ok(a) || !rev_ok(b))
			return rfail(ps, "bad range '%s' (BASE..TIP, e.g. v6.1.100..my-branch)", v);
		if (!ps->first_range_line)
			ps->first_range_line = ps->line;
	} else if (*v == '-') {
		return rfail(ps, "bad patch '%s'", v);
	}
	r->patches = xrealloc(r->patches, r->npatches + 1, sizeof(*r->patches));
	r->patches[r->npatches++] = (struct kbuild_patch){
		.range = range,
		.spec = xstrdup(v),
		.path = range ? NULL : resolve(ps, v),
		.line = ps->line,
	};
	return 0;
}

static int set_base(struct rparser *ps, const char *k, const char *v)
{
	struct kbuild_recipe *r = ps->r;

	(void)k;
	free(r->base_path);
	r->base_path = NULL;
	if (!strcmp(v, "minimal")) {
		r->base = KBUILD_BASE_MINIMAL;
	} else if (!strcmp(v, "defconfig")) {
		r->base = KBUILD_BASE_DEFCONFIG;
	} else if ((strchr(v, '/') || strchr(v, '.')) && *v != '-') {
		r->base = KBUILD_BASE_FILE;
		r->base_path = resolve(ps, v);
	} else {
		return rfail(ps, "bad base '%s' (minimal, defconfig, or the path of a config "
				 "file, e.g. /boot/config-6.1.0-57-cloud-amd64)", v);
	}
	r->base_line = ps->line;
	return 0;
}

static int add_fragment(struct rparser *ps, const char *k, const char *v)
{
	struct kbuild_recipe *r = ps->r;

	(void)k;
	if (*v == '-')
		return rfail(ps, "bad fragment '%s'", v);
	r->fragments = xrealloc(r->fragments, r->nfragments + 1, sizeof(*r->fragments));
	r->fragments[r->nfragments++] = (struct kbuild_fragment){
		.spec = xstrdup(v),
		.path = resolve(ps, v),
		.line = ps->line,
	};
	return 0;
}

/* Every key of a recipe: one row each. */
static const struct recipe_key {
	enum rsec sec;
	const char *key;
	int (*set)(struct rparser *ps, const char *k, const char *v);
	bool repeat;
} recipe_keys[] = {
	{ RSEC_RECIPE, "description", set_description, false },
	{ RSEC_SOURCE, "tarball", set_source, false },
	{ RSEC_SOURCE, "tree", set_source, false },
	{ RSEC_SOURCE, "git", set_source, false },
	{ RSEC_SOURCE, "ref", set_ref, false },
	{ RSEC_PATCHES, "patch", add_patch, true },
	{ RSEC_PATCHES, "range", add_patch, true },
	{ RSEC_PATCHES, "repo", set_repo, false },
	{ RSEC_CONFIG, "base", set_base, false },
	{ RSEC_CONFIG, "fragment", add_fragment, true },
};

static int recipe_key(struct rparser *ps, const char *k, const char *v)
{
	bool in_section = false;

	for (size_t i = 0; i < ARRAY_SIZE(recipe_keys); i++) {
		const struct recipe_key *rk = &recipe_keys[i];
		unsigned first;

		if (rk->sec != ps->sec)
			continue;
		in_section = true;
		if (strcmp(rk->key, k))
			continue;
		first = ini__once(&ps->ini, rsec_names[ps->sec], k);
		if (!rk->repeat && first)
			return rfail(ps, "'%s' given twice in [%s] (first at line %u)", k,
				     rsec_names[ps->sec], first);
		if (!*v)
			return rfail(ps, "empty value for '%s'", k);
		return rk->set(ps, k, v);
	}
	if (!in_section)
		return rfail(ps, "'%s' outside any section", k);
	{
		/* Name the keys the section takes. */
		_cleanup_free_ char *keys = NULL;

		for (size_t i = 0; i < ARRAY_SIZE(recipe_keys); i++) {
			char *t;

			if (recipe_keys[i].sec != ps->sec)
				continue;
			t = xasprintf("%s%s%s", keys ? keys : "", keys ? ", " : "",
				      recipe_keys[i].key);
			free(keys);
			keys = t;
		}
		return rfail(ps, "unknown key '%s' in [%s] (%s)", k, rsec_names[ps->sec], keys);
	}
}

void kbuild_recipe__set_git_source(struct kbuild_recipe *r, const char *repo, const char *commit)
{
	char *t = xasprintf("%s\n# lrubench: [source] replaced by git = %s, ref = %s\n", r->text,
			    repo, commit);

	free(r->text);
	r->text = t;
	free(r->source);
	r->source = xstrdup(repo);
	free(r->ref);
	r->ref = xstrdup(commit);
	r->source_kind = KBUILD_SRC_GIT;
}

static int recipe_finish(struct rparser *ps)
{
	struct kbuild_recipe *r = ps->r;

	if (!r->source_line) {
		r->source_kind = KBUILD_SRC_TARBALL;
		r->source = xstrdup(KBUILD_DEFAULT_TARBALL);
	}
	if (r->source_kind == KBUILD_SRC_GIT && !r->ref) {
		ps->line = r->source_line;
		return rfail(ps, "a git source needs 'ref = BRANCH|TAG|COMMIT' in [source]");
	}
	if (r->ref && r->source_kind != KBUILD_SRC_GIT) {
		ps->line = ps->ref_line;
		return rfail(ps, "'ref' is only for a git source");
	}
	if (ps->first_range_line && !r->repo &&
	    (r->source_kind == KBUILD_SRC_TARBALL ||
	     (r->source_kind == KBUILD_SRC_GIT && r->source[0] != '/'))) {
		ps->line = ps->first_range_line;
		return rfail(ps, "a range needs a local git repository: the source's, or "
				 "'repo = PATH' in [patches]");
	}
	if (r->repo && !ps->first_range_line) {
		ps->line = ps->repo_line;
		return rfail(ps, "'repo' is only for 'range' patches");
	}
	/*
	 * Without a fragment the build is a bare tinyconfig or defconfig that
	 * kernel__check refuses after a full build: an empty file, or one
	 * without [config], is a mistake to report now.
	 */
	if (!r->nfragments) {
		ps->line = 0;
		return rfail(ps, "the recipe sets no config fragment: it needs a [config] section "
				 "with 'fragment = lrubench.config' at least (the options lrubench "
				 "needs)");
	}
	return 0;
}

int kbuild_recipe__parse(const char *path, const char *text, struct kbuild_recipe **ret,
			 char **ret_err)
{
	_cleanup_(kbuild_recipe__freep) struct kbuild_recipe *r = xcalloc(1, sizeof(*r));
	_cleanup_free_ char *dcopy = xstrdup(path), *bcopy = xstrdup(path), *msg = NULL;
	struct rparser ps = { .path = path, .r = r };
	struct ini_item it;
	char *base;
	int rc;

	ps.dir = xstrdup(dirname(dcopy));
	ini__init(&ps.ini, text);
	r->path = xstrdup(path);
	r->text = xstrdup(text);
	base = basename(bcopy);
	r->name = ends_with(base, ".ini") ? strndup(base, strlen(base) - 4) : xstrdup(base);
	r->base = KBUILD_BASE_MINIMAL;
	while ((rc = ini__next(&ps.ini, &it, &msg)) > 0) {
		size_t i;

		ps.line = ps.ini.line;
		if (it.key) {
			rc = recipe_key(&ps, it.key, it.value);
			if (rc < 0)
				break;
			continue;
		}
		for (i = 1; i < ARRAY_SIZE(rsec_names); i++)
			if (!strcmp(it.section, rsec_names[i]))
				break;
		if (i == ARRAY_SIZE(rsec_names)) {
			rc = rfail(&ps, "unknown section [%s] (recipe, source, patches, config)",
				   it.section);
			break;
		}
		ps.sec = (enum rsec)i;
	}
	if (msg) {
		/* The tokenizer's message, prefixed and escaped as the parser's own. */
		ps.line = ps.ini.line;
		rc = rfail(&ps, "%s", msg);
	}
	if (rc == 0)
		rc = recipe_finish(&ps);
	ini__clear(&ps.ini);
	free(ps.dir);
	if (rc < 0) {
		*ret_err = ps.err ? ps.err : xasprintf("%s: invalid recipe", path);
		return rc;
	}
	free(ps.err);
	*ret = TAKE_PTR(r);
	return 0;
}

int kbuild_recipe__load(const char *path, struct kbuild_recipe **ret, char **ret_err)
{
	_cleanup_free_ char *text = NULL;
	int r = ini__read(path, "kernel recipe", "a recipe", &text, ret_err);

	return r < 0 ? r : kbuild_recipe__parse(path, text, ret, ret_err);
}

void kbuild_recipe__free(struct kbuild_recipe *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->name);
	free(r->text);
	free(r->description);
	free(r->source);
	free(r->ref);
	free(r->repo);
	for (size_t i = 0; i < r->npatches; i++) {
		free(r->patches[i].spec);
		free(r->patches[i].path);
	}
	free(r->patches);
	free(r->base_path);
	for (size_t i = 0; i < r->nfragments; i++) {
		free(r->fragments[i].spec);
		free(r->fragments[i].path);
	}
	free(r->fragments);
	free(r);
}

void kbuild_recipe__freep(struct kbuild_recipe **r)
{
	kbuild_recipe__free(*r);
}
