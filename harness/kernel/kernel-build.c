// SPDX-License-Identifier: GPL-2.0
/*
 * Recipes and the kernel builder (see kernel-build.h for the recipe format).
 *
 * A build goes: identify the inputs (source identity, patch contents, config
 * base and fragments, compiler) -> look the inputs up in the index (an
 * unchanged recipe stops here) -> extract the source once into the cache ->
 * hard-link a scratch copy, apply the patches -> resolve the config with the
 * kernel's own tools and verify it -> hash (source, patches, .config,
 * compiler) into the build key -> look the key up -> make bzImage -> move the
 * artifacts to build-KEY/ with a manifest. Builds hold one lock per cache:
 * on a shared 2-core machine two kernel builds at once only slow each other.
 */
#include "kernel-build.h"
#include "kernel-workspace.h"
#include "kernel.h"
#include "spawn.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#define INPUTS_VERSION "lrubench-kbuild 1"
#define ARCH "x86_64"
#define PATCH_LIMIT (64u << 20)
#define TAIL_KEEP 8192
#define PROGRESS_EVERY_NS (15ll * 1000000000)

/* ---- kernel values: debian, a recipe, an image ----------------------------- */

static bool name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

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
	return name_ok(spec) ? KERNEL_SPEC_RECIPE : KERNEL_SPEC_BAD;
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
	unsigned line;
	char *err;
	struct kbuild_recipe *r;
	enum rsec sec;
	unsigned ref_line, repo_line, first_range_line;
};

static int rfail(struct rparser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rfail(struct rparser *ps, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL, *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	/* What the message echoes from the file never puts raw bytes on a terminal. */
	safe = str_escape(msg);
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

static int recipe_key(struct rparser *ps, unsigned seen[], const char *k, const char *v)
{
	bool in_section = false;

	for (size_t i = 0; i < ARRAY_SIZE(recipe_keys); i++) {
		const struct recipe_key *rk = &recipe_keys[i];

		if (rk->sec != ps->sec)
			continue;
		in_section = true;
		if (strcmp(rk->key, k))
			continue;
		if (!rk->repeat && seen[i])
			return rfail(ps, "'%s' given twice in [%s] (first at line %u)", k,
				     rsec_names[ps->sec], seen[i]);
		if (!*v)
			return rfail(ps, "empty value for '%s'", k);
		seen[i] = ps->line;
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
	_cleanup_free_ char *copy = xstrdup(text), *dcopy = xstrdup(path);
	_cleanup_free_ char *bcopy = xstrdup(path);
	struct rparser ps = { .path = path, .r = r };
	unsigned seen[ARRAY_SIZE(recipe_keys)] = { 0 };
	char *line, *next, *base;
	int rc = 0;

	ps.dir = xstrdup(dirname(dcopy));
	r->path = xstrdup(path);
	r->text = xstrdup(text);
	base = basename(bcopy);
	r->name = ends_with(base, ".ini") ? strndup(base, strlen(base) - 4) : xstrdup(base);
	r->base = KBUILD_BASE_MINIMAL;
	for (line = copy; line && rc == 0; line = next) {
		char *eq, *k, *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ps.line++;
		if (strlen(line) > 4096) {
			rc = rfail(&ps, "line longer than 4096 bytes");
			break;
		}
		line = strstrip(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *close = strchr(line, ']');
			char *name;
			size_t i;

			if (!close || close[1]) {
				rc = rfail(&ps, "bad section header '%s'", line);
				break;
			}
			*close = '\0';
			name = strstrip(line + 1);
			for (i = 1; i < ARRAY_SIZE(rsec_names); i++)
				if (!strcmp(name, rsec_names[i]))
					break;
			if (i == ARRAY_SIZE(rsec_names)) {
				rc = rfail(&ps, "unknown section [%s] (recipe, source, patches, "
						"config)", name);
				break;
			}
			ps.sec = (enum rsec)i;
			continue;
		}
		eq = strchr(line, '=');
		if (!eq) {
			rc = rfail(&ps, "expected 'key = value', got '%s'", line);
			break;
		}
		*eq = '\0';
		k = strstrip(line);
		v = strstrip(eq + 1);
		if (!*k) {
			rc = rfail(&ps, "empty key");
			break;
		}
		rc = recipe_key(&ps, seen, k, v);
	}
	if (rc == 0)
		rc = recipe_finish(&ps);
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
	size_t len = 0;
	unsigned nul;
	int r = read_regular_file(path, 1u << 20, &text, &len);

	if (r == -EINVAL) {
		*ret_err = xasprintf("kernel recipe %s: %s, not a regular file", path,
				     path_kind(path));
		return r;
	}
	if (r < 0) {
		*ret_err = xasprintf("kernel recipe %s: %s", path, strerror(-r));
		return r;
	}
	nul = text_nul_line(text, len);
	if (nul) {
		*ret_err = xasprintf("%s:%u: a NUL byte: a recipe is text", path, nul);
		return -EINVAL;
	}
	return kbuild_recipe__parse(path, text, ret, ret_err);
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

/* ---- config verification --------------------------------------------------- */

/*
 * Find option name's line in a config: *ret_value is its value ("y", "64",
 * "\"lzo-rle\"") or NULL for "# CONFIG_name is not set" or absence.
 */
static void config_lookup(const char *config, const char *name, size_t nlen, char **ret_value)
{
	const char *p = config;

	*ret_value = NULL;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

		if (llen > nlen + 1 && !strncmp(p, name, nlen) && p[nlen] == '=') {
			*ret_value = strndup(p + nlen + 1, llen - nlen - 1);
			return;
		}
		p = eol ? eol + 1 : NULL;
	}
}

struct wanted {
	char *name; /* CONFIG_X */
	char *value; /* NULL: not set */
	size_t frag;
	unsigned line;
};

int kbuild_config_verify(const char *config, const char *const frag_names[],
			 const char *const frag_texts[], size_t nfrags, char **ret_err)
{
	struct wanted *w = NULL;
	size_t nw = 0;
	char *errs = NULL;

	for (size_t f = 0; f < nfrags; f++) {
		const char *p = frag_texts[f];
		unsigned line = 0;

		while (p && *p) {
			const char *eol = strchr(p, '\n');
			size_t llen = eol ? (size_t)(eol - p) : strlen(p);
			_cleanup_free_ char *l = strndup(p, llen);
			char *s = strstrip(l), *name = NULL, *value = NULL;
			size_t i;

			line++;
			p = eol ? eol + 1 : NULL;
			if (!strncmp(s, "CONFIG_", 7) && strchr(s, '=')) {
				char *eq = strchr(s, '=');

				name = strndup(s, (size_t)(eq - s));
				value = xstrdup(eq + 1);
			} else if (!strncmp(s, "# CONFIG_", 9) && ends_with(s, " is not set")) {
				name = strndup(s + 2, strlen(s) - 2 - strlen(" is not set"));
			} else {
				continue;
			}
			for (i = 0; i < nw; i++)
				if (!strcmp(w[i].name, name))
					break;
			if (i == nw) {
				w = xrealloc(w, nw + 1, sizeof(*w));
				nw++;
			} else {
				free(w[i].name);
				free(w[i].value);
			}
			w[i] = (struct wanted){
				.name = name, .value = value, .frag = f, .line = line
			};
		}
	}
	for (size_t i = 0; i < nw; i++) {
		_cleanup_free_ char *got = NULL;
		bool held;
		char *t;

		config_lookup(config, w[i].name, strlen(w[i].name), &got);
		if (!got)
			held = !w[i].value; /* unset, as asked or not */
		else if (!w[i].value)
			held = !strcmp(got, "n");
		else
			held = !strcmp(got, w[i].value);
		if (held)
			continue;
		if (w[i].value)
			t = xasprintf("%s%s%s=%s (%s:%u) became %s%s%s", errs ? errs : "",
				      errs ? "; " : "", w[i].name, w[i].value,
				      frag_names[w[i].frag], w[i].line,
				      got ? w[i].name : "not set", got ? "=" : "", got ? got : "");
		else
			t = xasprintf("%s%s%s unset (%s:%u) became %s=%s", errs ? errs : "",
				      errs ? "; " : "", w[i].name, frag_names[w[i].frag], w[i].line,
				      w[i].name, got);
		free(errs);
		errs = t;
	}
	for (size_t i = 0; i < nw; i++) {
		free(w[i].name);
		free(w[i].value);
	}
	free(w);
	if (errs) {
		*ret_err = errs;
		return -ENOTSUP;
	}
	return 0;
}

/* ---- builds --------------------------------------------------------------------- */

const char *const kbuild_prov_keys[] = {
	"recipe",     "recipe_sha256", "source_id", "source_version", "patches",
	"fragments", "compiler",      "build_key", NULL,
};

/* One build in progress. */
struct kb {
	const struct kbuild_recipe *r;
	const struct kbuild_opts *o;
	char *cache;	   /* absolute */
	char *cc;	   /* as make's CC: "gcc" or "ccache gcc" */
	bool ccache;
	char *env[8];	   /* for every command: no inherited make or kconfig state */
	char *compiler;	   /* identity: the compiler's and the linker's first lines */
	char *source_desc; /* tarball:PATH, tree:PATH, git:URL@REF */
	char *source_id;   /* sha256:HEX, git:COMMIT[+dirty:HEX], tree-stat:HEX */
	char *git_repo;	   /* a local repository: the git source's, or the tree's */
	char *git_commit;
	char **patch_text; /* range patches, from git format-patch */
	char (*patch_sha)[65];
	char (*frag_sha)[65];
	char base_sha[65];
	char *patches_desc, *fragments_desc, *base_desc;
	char prekey[65];
	bool exported; /* this build exported a git source's tree (drop_git_source) */
	char *work, *src, *obj, *log_path;
	char *ws_desc; /* how the series' workspace was used: "ws-6.1 (fresh)", ... */
	FILE *log;
	char tail[TAIL_KEEP];
	size_t tail_len;
	char cur[16];	   /* the start of the current output line */
	size_t cur_len;
	bool compiling;
	unsigned compiled;
	int64_t t0, last_progress;
	char **err;
	bool err_set;
};

void kbuild_progress_log(void *ctx, enum kbuild_stage stage, const char *msg)
{
	(void)stage;
	log_info("kernel %s: %s", (const char *)ctx, msg);
}

static void say(struct kb *b, enum kbuild_stage st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct kb *b, enum kbuild_stage st, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	if (!b->o->progress)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	b->o->progress(b->o->ctx, st, msg);
}

/* "recipe:line: " for messages about one line of the recipe. */
static char *at(const struct kb *b, unsigned line)
{
	return line ? xasprintf("%s:%u", b->r->path, line) : xstrdup(b->r->path);
}

static int fail(struct kb *b, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct kb *b, int r, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (b->err_set)
		free(*b->err);
	*b->err = msg;
	b->err_set = true;
	return r;
}

/* Append one line of output to *out, indented, without the scratch tree's paths. */
static void quote_line(const struct kb *b, FILE *out, const char *line, size_t len)
{
	const char *prefixes[] = { b->src, b->obj, b->work };

	fputs("    | ", out);
	while (len) {
		size_t skip = 0;

		for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !skip; i++) {
			size_t n = prefixes[i] ? strlen(prefixes[i]) : 0;

			if (n && len > n && !strncmp(line, prefixes[i], n) && line[n] == '/')
				skip = n + 1;
		}
		if (skip) {
			line += skip;
			len -= skip;
			continue;
		}
		fputc(*line++, out);
		len--;
	}
	fputc('\n', out);
}

/* The last n lines of what the current command printed, quoted. */
static char *tail_lines(const struct kb *b, int n)
{
	const char *end = b->tail + b->tail_len, *p = end;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	while (p > b->tail && p[-1] == '\n')
		p--;
	end = p;
	for (int lines = 0; p > b->tail; p--)
		if (p[-1] == '\n' && ++lines == n)
			break;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		quote_line(b, f, p, l);
		p += l + (nl ? 1 : 0);
	}
	fclose(f);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

/*
 * The first errors in a log, quoted: with make -j the cause scrolls out of
 * the tail while other jobs finish.
 */
static char *first_errors(const struct kb *b, const char *log, int max)
{
	_cleanup_free_ char *all = NULL;
	char *text = NULL;
	size_t len = 0;
	int n = 0;
	FILE *f;

	if (read_file(log, 256u << 20, &all, NULL) < 0)
		return xstrdup("    | (the log cannot be read)");
	f = open_memstream(&text, &len);
	for (char *p = all, *nl; p && *p && n < max; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(p, "error:") || strstr(p, "Error:") || strstr(p, "*** ") ||
		    strstr(p, "undefined reference")) {
			quote_line(b, f, p, strlen(p));
			n++;
		}
	}
	fclose(f);
	if (!n) {
		free(text);
		return xstrdup("    | (none recognised)");
	}
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

static int on_output(void *ctx, const char *buf, size_t len)
{
	struct kb *b = ctx;

	if (b->log)
		fwrite(buf, 1, len, b->log);
	if (len >= TAIL_KEEP) {
		memcpy(b->tail, buf + len - TAIL_KEEP, TAIL_KEEP);
		b->tail_len = TAIL_KEEP;
	} else {
		if (b->tail_len + len > TAIL_KEEP) {
			size_t drop = b->tail_len + len - TAIL_KEEP;

			memmove(b->tail, b->tail + drop, b->tail_len - drop);
			b->tail_len -= drop;
		}
		memcpy(b->tail + b->tail_len, buf, len);
		b->tail_len += len;
	}
	if (!b->compiling)
		return 0;
	/* Count compiled files: kbuild's "  CC      path.o" lines. */
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			if (b->cur_len >= 5 && (!memcmp(b->cur, "  CC ", 5) ||
						!memcmp(b->cur, "  AS ", 5)))
				b->compiled++;
			b->cur_len = 0;
		} else if (b->cur_len < sizeof(b->cur)) {
			b->cur[b->cur_len++] = buf[i];
		}
	}
	if (now_mono_ns() - b->last_progress >= PROGRESS_EVERY_NS) {
		int64_t s = (now_mono_ns() - b->t0) / 1000000000;

		b->last_progress = now_mono_ns();
		say(b, KBUILD_STAGE_COMPILE, "compiling: %u files, %lld:%02lld", b->compiled,
		    (long long)s / 60, (long long)s % 60);
	}
	return 0;
}

/* Run a command with its output in the build log. Returns its exit status or -errno. */
static int run_logged(struct kb *b, const char *const argv[], const char *cwd)
{
	_cleanup_free_ char *cmd = argv_join(argv);
	struct spawn_opts so = {
		.cwd = cwd,
		.on_stdout = on_output,
		.ctx = b,
		.stderr_to_stdout = true,
		.env = (const char *const *)b->env,
	};

	if (b->log) {
		fprintf(b->log, "$ %s%s%s\n", cwd ? "cd " : "", cwd ? cwd : "", cwd ? " && " : "");
		fprintf(b->log, "  %s\n", cmd);
		fflush(b->log);
	}
	b->tail_len = 0;
	return spawn_run(argv, &so);
}

/* A command whose output matters only when it fails. */
static int run_quiet(const char *const argv[], const char *cwd, char **ret_out, char **ret_err)
{
	_cleanup_free_ char *err = NULL, *out = NULL;
	struct spawn_opts so = { .cwd = cwd, .ret_stdout = &out, .ret_stderr = &err,
				 .stdout_limit = 256u << 20 };
	int r = spawn_run(argv, &so);

	if (r != 0) {
		_cleanup_free_ char *cmd = argv_join(argv);

		*ret_err = xasprintf("'%s' failed (%s %d): %s", cmd, r < 0 ? "error" : "exit",
				     r < 0 ? -r : r, err ? strstrip(err) : "");
		return r < 0 ? r : -EIO;
	}
	if (ret_out)
		*ret_out = TAKE_PTR(out);
	return 0;
}

static int rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", "--", path, NULL };

	return spawn_run(argv, NULL) == 0 ? 0 : -EIO;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = xstrdup(path ? path : "/usr/bin:/bin");
	char *save = NULL;

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		_cleanup_free_ char *p = xasprintf("%s/%s", d, prog);

		if (access(p, X_OK) == 0)
			return true;
	}
	return false;
}

static int write_all(const char *path, const char *buf, size_t len)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r = read_file(from, 1u << 30, &buf, &len);

	return r < 0 ? r : write_all(to, buf, len);
}

static char *first_line(const char *s)
{
	return strndup(s, strcspn(s, "\n"));
}

/* The compiler and linker, as their --version first lines. */
static int identify_compiler(struct kb *b)
{
	const char *cc = b->o->cc ? b->o->cc : "gcc";
	const char *ccv[] = { cc, "--version", NULL };
	const char *ldv[] = { "ld", "--version", NULL };
	_cleanup_free_ char *out = NULL, *ldout = NULL, *err = NULL;
	_cleanup_free_ char *l1 = NULL, *l2 = NULL;
	int r;

	r = run_quiet(ccv, NULL, &out, &err);
	if (r < 0)
		return fail(b, r, "the compiler: %s", err);
	r = run_quiet(ldv, NULL, &ldout, &err);
	if (r < 0)
		return fail(b, r, "the linker: %s", err);
	l1 = first_line(out);
	l2 = first_line(ldout);
	b->compiler = xasprintf("%s; %s", l1, l2);
	b->ccache = !b->o->no_ccache && in_path("ccache");
	b->cc = b->ccache ? xasprintf("ccache %s", cc) : xstrdup(cc);
	/* A calling make's jobserver and a user's KCONFIG_CONFIG are not ours. */
	b->env[0] = xstrdup("MAKEFLAGS=");
	b->env[1] = xstrdup("MFLAGS=");
	b->env[2] = xstrdup("KCONFIG_CONFIG=.config");
	if (b->ccache) {
		/*
		 * Every build compiles ../src from its own obj/ under the cache,
		 * so with the cache as base directory the compile commands of two
		 * builds are the same and ccache can share their objects.
		 */
		b->env[3] = xasprintf("CCACHE_DIR=%s/ccache", b->cache);
		b->env[4] = xasprintf("CCACHE_BASEDIR=%s", b->cache);
		b->env[5] = xstrdup("CCACHE_NOHASHDIR=true");
	}
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A tree that is not a git work tree: hash of every file's path, size and mtime. */
static int tree_stat_id(struct kb *b, const char *tree, char out[65])
{
	const char *argv[] = { "find", tree, "-path", "*/.git", "-prune", "-o", "-type", "f",
			       "-printf", "%P %s %T@\\n", NULL };
	_cleanup_free_ char *list = NULL, *err = NULL;
	char **lines = NULL;
	size_t n = 0;
	int r;

	r = run_quiet(argv, NULL, &list, &err);
	if (r < 0)
		return fail(b, r, "%s: %s", tree, err);
	for (char *p = list, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lines = xrealloc(lines, n + 1, sizeof(*lines));
		lines[n++] = p;
	}
	if (n)
		qsort(lines, n, sizeof(*lines), str_cmp);
	{
		char *joined = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&joined, &len);

		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s\n", lines[i]);
		fclose(f);
		sha256_buf(joined, len, out);
		free(joined);
	}
	free(lines);
	return 0;
}

/* Identify the source without touching the cache: cheap enough for every lookup. */
static int identify_source(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *where = at(b, r->source_line);
	char sha[65];
	int rc;

	switch (r->source_kind) {
	case KBUILD_SRC_TARBALL: {
		_cleanup_free_ char *real = realpath(r->source, NULL);

		if (!real || !is_file(real))
			return fail(b, -ENOENT, "%s: source tarball %s: %s%s", where, r->source,
				    real ? "not a file" : strerror(errno),
				    r->source_line ? ""
						   : " (the default source: apt-get install "
						     "linux-source-6.1)");
		rc = sha256_file(real, sha);
		if (rc < 0)
			return fail(b, rc, "%s: %s: %s", where, real, strerror(-rc));
		b->source_desc = xasprintf("tarball:%s", real);
		b->source_id = xasprintf("sha256:%s", sha);
		return 0;
	}
	case KBUILD_SRC_TREE: {
		_cleanup_free_ char *real = realpath(r->source, NULL);
		_cleanup_free_ char *mk = NULL, *kc = NULL, *gitdir = NULL, *err = NULL;

		if (!real)
			return fail(b, -ENOENT, "%s: source tree %s: %s", where, r->source,
				    strerror(errno));
		mk = xasprintf("%s/Makefile", real);
		kc = xasprintf("%s/Kconfig", real);
		if (!is_file(mk) || !is_file(kc))
			return fail(b, -ENOENT, "%s: %s is not a kernel tree (no Makefile and "
						"Kconfig)", where, real);
		b->source_desc = xasprintf("tree:%s", real);
		gitdir = xasprintf("%s/.git", real);
		if (access(gitdir, F_OK) == 0) {
			const char *head[] = { "git", "-C", real, "rev-parse", "--verify",
					       "HEAD^{commit}", NULL };
			const char *diff[] = { "git", "-C", real, "diff", "--binary", "HEAD",
					       NULL };
			const char *untracked[] = { "git", "-C", real, "status", "--porcelain",
						    "--untracked-files=all", NULL };
			_cleanup_free_ char *commit = NULL, *d = NULL, *st = NULL;

			if (run_quiet(head, NULL, &commit, &err) < 0 ||
			    run_quiet(diff, NULL, &d, &err) < 0 ||
			    run_quiet(untracked, NULL, &st, &err) < 0)
				return fail(b, -EIO, "%s: %s", where, err);
			strstrip(commit);
			b->git_repo = xstrdup(real);
			if (*d || *st) {
				_cleanup_free_ char *both = xasprintf("%s\n%s", d, st);

				sha256_buf(both, strlen(both), sha);
				b->source_id = xasprintf("git:%s+dirty:%.16s", commit, sha);
			} else {
				b->source_id = xasprintf("git:%s", commit);
			}
			return 0;
		}
		rc = tree_stat_id(b, real, sha);
		if (rc < 0)
			return rc;
		b->source_id = xasprintf("tree-stat:%s", sha);
		return 0;
	}
	case KBUILD_SRC_GIT: {
		_cleanup_free_ char *commit = NULL, *err = NULL, *rev = NULL;

		rev = xasprintf("%s^{commit}", r->ref);
		if (r->source[0] == '/') {
			const char *argv[] = { "git", "-C", r->source, "rev-parse", "--verify",
					       rev, NULL };

			if (run_quiet(argv, NULL, &commit, &err) < 0)
				return fail(b, -ENOENT, "%s: git %s, ref %s: %s", where, r->source,
					    r->ref, err);
			b->git_repo = xstrdup(r->source);
		} else {
			/* A remote: fetch the ref (shallow) into a bare mirror in the cache. */
			_cleanup_free_ char *mirror = NULL;
			char urlsha[65];

			sha256_buf(r->source, strlen(r->source), urlsha);
			mirror = xasprintf("%s/git/%.16s.git", b->cache, urlsha);
			if (!is_dir(mirror)) {
				const char *init[] = { "git", "init", "-q", "--bare", mirror,
						       NULL };

				mkdir_p(mirror);
				if (run_quiet(init, NULL, NULL, &err) < 0)
					return fail(b, -EIO, "%s: %s", where, err);
			}
			say(b, KBUILD_STAGE_INFO, "fetching %s %s", r->source, r->ref);
			{
				const char *fetch[] = { "git", "-C", mirror, "fetch", "-q",
							"--depth=1", "--no-tags", "--",
							r->source, r->ref, NULL };
				const char *parse[] = { "git", "-C", mirror, "rev-parse",
							"--verify", "FETCH_HEAD^{commit}", NULL };

				if (run_quiet(fetch, NULL, NULL, &err) < 0 ||
				    run_quiet(parse, NULL, &commit, &err) < 0)
					return fail(b, -EIO, "%s: git %s, ref %s: %s", where,
						    r->source, r->ref, err);
			}
			b->git_repo = TAKE_PTR(mirror);
		}
		strstrip(commit);
		b->git_commit = xstrdup(commit);
		b->source_desc = xasprintf("git:%s@%s", r->source, r->ref);
		b->source_id = xasprintf("git:%s", commit);
		return 0;
	}
	}
	return -EINVAL;
}

/* Patches: each file's contents, or each range's format-patch output, hashed. */
static int identify_patches(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	char *desc = NULL;

	b->patch_text = xcalloc(r->npatches + 1, sizeof(char *));
	b->patch_sha = xcalloc(r->npatches + 1, sizeof(*b->patch_sha));
	for (size_t i = 0; i < r->npatches; i++) {
		const struct kbuild_patch *p = &r->patches[i];
		_cleanup_free_ char *where = at(b, p->line), *text = NULL, *err = NULL;
		size_t len = 0;
		char *t;
		int rc;

		if (!p->range) {
			rc = read_file(p->path, PATCH_LIMIT, &text, &len);
			if (rc < 0) {
				free(desc);
				return fail(b, rc, "%s: patch %s: %s", where, p->path,
					    strerror(-rc));
			}
			if (!strstr(text, "\n+++ ") && strncmp(text, "+++ ", 4)) {
				free(desc);
				return fail(b, -EINVAL, "%s: patch %s holds no diff", where,
					    p->path);
			}
		} else {
			const char *repo = r->repo ? r->repo : b->git_repo;
			const char *argv[] = { "git", "-C", repo, "format-patch", "--stdout",
					       "--no-signature", p->spec, NULL };

			if (!repo) {
				free(desc);
				return fail(b, -EINVAL,
					    "%s: range %s: the source is not a git repository; "
					    "set 'repo = PATH' in [patches]",
					    where, p->spec);
			}
			rc = run_quiet(argv, NULL, &text, &err);
			if (rc < 0) {
				free(desc);
				return fail(b, rc, "%s: range %s: %s", where, p->spec, err);
			}
			if (!*text) {
				free(desc);
				return fail(b, -EINVAL, "%s: range %s of %s holds no commits",
					    where, p->spec, repo);
			}
			len = strlen(text);
			b->patch_text[i] = xstrdup(text);
		}
		sha256_buf(text, len, b->patch_sha[i]);
		t = xasprintf("%s%s%s sha256:%s", desc ? desc : "", desc ? ", " : "", p->spec,
			      b->patch_sha[i]);
		free(desc);
		desc = t;
	}
	b->patches_desc = desc ? desc : xstrdup("none");
	return 0;
}

/* Config inputs: the base and each fragment, hashed (the files must exist). */
static int identify_config(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	char *desc = NULL;
	int rc;

	switch (r->base) {
	case KBUILD_BASE_MINIMAL:
		b->base_desc = xstrdup("minimal (tinyconfig)");
		break;
	case KBUILD_BASE_DEFCONFIG:
		b->base_desc = xstrdup("defconfig");
		break;
	case KBUILD_BASE_FILE:
		rc = sha256_file(r->base_path, b->base_sha);
		if (rc < 0) {
			_cleanup_free_ char *where = at(b, r->base_line);

			return fail(b, rc, "%s: base config %s: %s", where, r->base_path,
				    strerror(-rc));
		}
		b->base_desc = xasprintf("%s sha256:%s", r->base_path, b->base_sha);
		break;
	}
	b->frag_sha = xcalloc(r->nfragments + 1, sizeof(*b->frag_sha));
	for (size_t i = 0; i < r->nfragments; i++) {
		char *t;

		rc = sha256_file(r->fragments[i].path, b->frag_sha[i]);
		if (rc < 0) {
			_cleanup_free_ char *where = at(b, r->fragments[i].line);

			free(desc);
			return fail(b, rc, "%s: fragment %s: %s", where, r->fragments[i].path,
				    strerror(-rc));
		}
		t = xasprintf("%s%s%s sha256:%s", desc ? desc : "", desc ? ", " : "",
			      r->fragments[i].spec, b->frag_sha[i]);
		free(desc);
		desc = t;
	}
	b->fragments_desc = desc ? desc : xstrdup("none");
	return 0;
}

/* Everything that determines the resolved config and the build, hashed. */
static void compute_prekey(struct kb *b)
{
	_cleanup_free_ char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	fprintf(f, "%s\narch %s\nsource %s\ncompiler %s\n", INPUTS_VERSION, ARCH, b->source_id,
		b->compiler);
	for (size_t i = 0; i < b->r->npatches; i++)
		fprintf(f, "patch %s\n", b->patch_sha[i]);
	/* Contents, not names: a moved recipe is the same recipe. */
	fprintf(f, "base %s\n", b->r->base == KBUILD_BASE_FILE ? b->base_sha : b->base_desc);
	for (size_t i = 0; i < b->r->nfragments; i++)
		fprintf(f, "fragment %s\n", b->frag_sha[i]);
	fclose(f);
	sha256_buf(doc, len, b->prekey);
}

static int identify(struct kb *b)
{
	int rc = identify_compiler(b);

	if (rc == 0)
		rc = identify_source(b);
	if (rc == 0)
		rc = identify_patches(b);
	if (rc == 0)
		rc = identify_config(b);
	if (rc == 0)
		compute_prekey(b);
	return rc;
}

static char *index_path(const struct kb *b)
{
	return xasprintf("%s/kbuild-index/%s", b->cache, b->prekey);
}

/* ---- the manifest ------------------------------------------------------------ */

static void kv_set(struct kbuild *k, const char *key, const char *value)
{
	for (size_t i = 0; i < k->nmanifest; i++) {
		if (!strcmp(k->manifest[i].key, key)) {
			free(k->manifest[i].value);
			k->manifest[i].value = xstrdup(value);
			return;
		}
	}
	k->manifest = xrealloc(k->manifest, k->nmanifest + 1, sizeof(*k->manifest));
	k->manifest[k->nmanifest++] = (struct kbuild_kv){ xstrdup(key), xstrdup(value) };
}

const char *kbuild__get(const struct kbuild *k, const char *key)
{
	for (size_t i = 0; i < k->nmanifest; i++)
		if (!strcmp(k->manifest[i].key, key))
			return k->manifest[i].value;
	return NULL;
}

void kbuild__free(struct kbuild *k)
{
	if (!k)
		return;
	free(k->dir);
	free(k->image);
	free(k->config);
	free(k->key);
	for (size_t i = 0; i < k->nmanifest; i++) {
		free(k->manifest[i].key);
		free(k->manifest[i].value);
	}
	free(k->manifest);
	free(k);
}

void kbuild__freep(struct kbuild **k)
{
	kbuild__free(*k);
}

int kbuild__open(const char *dir, struct kbuild **ret, char **ret_err)
{
	_cleanup_(kbuild__freep) struct kbuild *k = xcalloc(1, sizeof(*k));
	_cleanup_free_ char *mpath = xasprintf("%s/manifest", dir), *text = NULL;
	const char *key;
	int r;

	r = read_file(mpath, 1u << 20, &text, NULL);
	if (r < 0) {
		*ret_err = xasprintf("%s: not a kernel build directory (%s: %s)", dir, mpath,
				     strerror(-r));
		return r;
	}
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char *eq, *line;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line = strstrip(p);
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		kv_set(k, strstrip(line), strstrip(eq + 1));
	}
	key = kbuild__get(k, "build_key");
	k->dir = realpath(dir, NULL);
	if (!key || !k->dir) {
		*ret_err = xasprintf("%s: manifest without build_key", dir);
		return -EINVAL;
	}
	k->key = xstrdup(key);
	k->image = xasprintf("%s/bzImage", k->dir);
	k->config = xasprintf("%s/config", k->dir);
	if (!is_file(k->image)) {
		*ret_err = xasprintf("%s: no bzImage", dir);
		return -ENOENT;
	}
	k->cached = true;
	*ret = TAKE_PTR(k);
	return 0;
}

/* The recipe's own fields win over those of whichever recipe built it first. */
static void manifest_set_recipe(struct kbuild *k, const struct kbuild_recipe *r)
{
	_cleanup_free_ char *real = realpath(r->path, NULL);
	char sha[65];

	sha256_buf(r->text, strlen(r->text), sha);
	kv_set(k, "recipe", r->name);
	kv_set(k, "recipe_path", real ? real : r->path);
	kv_set(k, "recipe_sha256", sha);
	kv_set(k, "description", r->description ? r->description : "");
}

/* ---- steps of a build ------------------------------------------------------ */

static void kb_clear(struct kb *b)
{
	if (b->log)
		fclose(b->log);
	free(b->cache);
	free(b->cc);
	for (size_t i = 0; i < ARRAY_SIZE(b->env); i++)
		free(b->env[i]);
	free(b->compiler);
	free(b->source_desc);
	free(b->source_id);
	free(b->git_repo);
	free(b->git_commit);
	for (size_t i = 0; b->patch_text && i < b->r->npatches; i++)
		free(b->patch_text[i]);
	free(b->patch_text);
	free(b->patch_sha);
	free(b->frag_sha);
	free(b->patches_desc);
	free(b->fragments_desc);
	free(b->base_desc);
	free(b->work);
	free(b->src);
	free(b->obj);
	free(b->log_path);
	free(b->ws_desc);
}

static int kb_init(struct kb *b, const struct kbuild_recipe *r, const struct kbuild_opts *o,
		   char **ret_err)
{
	int rc;

	*b = (struct kb){ .r = r, .o = o, .err = ret_err };
	rc = mkdir_p(o->cache_dir);
	if (rc < 0)
		return fail(b, rc, "kernel cache %s: %s", o->cache_dir, strerror(-rc));
	b->cache = realpath(o->cache_dir, NULL);
	if (!b->cache)
		return fail(b, -errno, "kernel cache %s: %s", o->cache_dir, strerror(errno));
	return identify(b);
}

/* The pristine source tree in the cache (extracted once), or the local tree. */
static int materialize_source(struct kb *b, char **ret_tree)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *dir = NULL, *tmp = NULL, *tree = NULL;
	const char *id = strchr(b->source_id, ':') + 1;
	int rc;

	if (r->source_kind == KBUILD_SRC_TREE) {
		const char *real = strchr(b->source_desc, ':') + 1;
		/* The kernel's own test (Makefile, outputmakefile) for out-of-tree builds. */
		const char *built[] = { ".config", "include/config", "arch/x86/include/generated" };
		_cleanup_free_ char *where = at(b, r->source_line);

		for (size_t i = 0; i < ARRAY_SIZE(built); i++) {
			_cleanup_free_ char *p = xasprintf("%s/%s", real, built[i]);

			if (access(p, F_OK) == 0)
				return fail(b, -EEXIST,
					    "%s: tree %s was built in place (it has %s), and the "
					    "kernel refuses out-of-tree builds (O=, as lrubench "
					    "makes) from such a tree: run 'make mrproper' there, or "
					    "build the committed branch with 'git = %s' and 'ref = "
					    "BRANCH', which never touches your tree",
					    where, real, built[i], real);
		}
		*ret_tree = strdup(real);
		return 0;
	}
	dir = xasprintf("%s/src-%.16s", b->cache, id);
	tree = xasprintf("%s/tree", dir);
	if (is_dir(tree)) {
		*ret_tree = TAKE_PTR(tree);
		return 0;
	}
	tmp = xasprintf("%s/.src-%.16s.%d", b->cache, id, (int)getpid());
	rm_rf(tmp);
	{
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);

		rc = mkdir_p(t);
		if (rc < 0)
			return fail(b, rc, "%s: %s", t, strerror(-rc));
	}
	if (r->source_kind == KBUILD_SRC_TARBALL) {
		const char *tarball = strchr(b->source_desc, ':') + 1;
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);
		const char *argv[] = { "tar", "-xf", tarball, "-C", t, "--strip-components=1",
				       NULL };

		say(b, KBUILD_STAGE_INFO, "extracting %s into %s (once per tarball)", tarball, dir);
		rc = run_logged(b, argv, NULL);
	} else {
		_cleanup_free_ char *tar = xasprintf("%s/src.tar", tmp);
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);
		const char *archive[] = { "git", "-C", b->git_repo, "archive", "--format=tar",
					  "-o", tar, b->git_commit, NULL };
		const char *x[] = { "tar", "-xf", tar, "-C", t, NULL };

		say(b, KBUILD_STAGE_INFO, "exporting %s %s into %s (once per commit)", r->source,
		    b->git_commit, dir);
		rc = run_logged(b, archive, NULL);
		if (rc == 0)
			rc = run_logged(b, x, NULL);
		unlink(tar);
	}
	if (rc != 0) {
		_cleanup_free_ char *tail = tail_lines(b, 10);

		rm_rf(tmp);
		return fail(b, -EIO, "unpacking the source %s failed:\n%s", b->source_desc, tail);
	}
	if (rename(tmp, dir) < 0 && !is_dir(tree)) {
		rc = -errno;
		rm_rf(tmp);
		return fail(b, rc, "rename %s -> %s: %s", tmp, dir, strerror(-rc));
	}
	rm_rf(tmp);
	b->exported = r->source_kind == KBUILD_SRC_GIT;
	*ret_tree = TAKE_PTR(tree);
	return 0;
}

/*
 * The tree this build compiles: a hard-linked copy of the pristine one at
 * WORK/src (patch(1) replaces the files it changes, so the pristine tree is
 * never written), with the patches applied.
 */
static int prepare_tree(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *pristine = NULL;
	int rc;

	rc = materialize_source(b, &pristine);
	if (rc < 0)
		return rc;
	{
		const char *cpl[] = { "cp", "-al", "--", pristine, b->src, NULL };
		const char *cpa[] = { "cp", "-a", "--reflink=auto", "--", pristine, b->src, NULL };

		rc = run_logged(b, cpl, NULL);
		if (rc != 0) {
			/* Another file system (a local tree): copy only when patching. */
			rm_rf(b->src);
			if (!r->npatches) {
				free(b->src);
				b->src = TAKE_PTR(pristine);
				return 0;
			}
			say(b, KBUILD_STAGE_INFO, "copying %s (not on the cache's file system)",
			    pristine);
			rc = run_logged(b, cpa, NULL);
			if (rc != 0) {
				_cleanup_free_ char *tail = tail_lines(b, 5);

				return fail(b, -EIO, "copying %s failed:\n%s", pristine, tail);
			}
		}
	}
	for (size_t i = 0; i < r->npatches; i++) {
		const struct kbuild_patch *p = &r->patches[i];
		_cleanup_free_ char *file = NULL, *where = at(b, p->line);
		const char *dry[] = { "patch", "-p1", "-F0", "-N", "--batch", "--dry-run",
				      "-d", b->src, "-i", NULL, NULL };
		const char *apply[] = { "patch", "-p1", "-F0", "-N", "--batch",
					"--no-backup-if-mismatch", "-d", b->src, "-i", NULL,
					NULL };

		if (p->range) {
			file = xasprintf("%s/range-%zu.patch", b->work, i + 1);
			rc = write_all(file, b->patch_text[i], strlen(b->patch_text[i]));
			if (rc < 0)
				return fail(b, rc, "%s: %s", file, strerror(-rc));
		} else {
			/* patch -d changes directory before it opens the file. */
			file = realpath(p->path, NULL);
			if (!file)
				return fail(b, -errno, "%s: patch %s: %s", where, p->path,
					    strerror(errno));
		}
		dry[9] = apply[9] = file;
		say(b, KBUILD_STAGE_INFO, "patch %zu/%zu: %s", i + 1, r->npatches, p->spec);
		rc = run_logged(b, dry, NULL);
		if (rc == 0)
			rc = run_logged(b, apply, NULL);
		if (rc != 0) {
			_cleanup_free_ char *tail = tail_lines(b, 12);

			return fail(b, -EIO, "%s: patch %s does not apply to %s (%s)%s:\n%s", where,
				    p->spec, b->source_desc, b->source_id,
				    i ? " after the patches before it" : "", tail);
		}
	}
	return 0;
}

/* make -C SRC O=OBJ ARCH= CC= [extra...] target */
static int run_make(struct kb *b, const char *target, char *const extra[])
{
	_cleanup_free_ char *o = xasprintf("O=%s", b->obj), *cc = xasprintf("CC=%s", b->cc);
	const char *argv[16] = { "make", "-C", b->src, o, "ARCH=" ARCH, cc, "CROSS_COMPILE=" };
	size_t n = 7;

	for (size_t i = 0; extra && extra[i] && n < ARRAY_SIZE(argv) - 2; i++)
		argv[n++] = extra[i];
	argv[n++] = target;
	return run_logged(b, argv, NULL);
}

static int make_step(struct kb *b, const char *target, char *const extra[], const char *what)
{
	int rc = run_make(b, target, extra);

	if (rc != 0) {
		_cleanup_free_ char *tail = tail_lines(b, 15);

		return fail(b, -EIO, "%s: 'make %s' failed (%s %d); log %s:\n%s", what, target,
			    rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc, b->log_path, tail);
	}
	return 0;
}

/* Base, fragments (merge_config.sh), olddefconfig; then verify. */
static int resolve_config(struct kb *b, char **ret_config)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *dotconfig = xasprintf("%s/.config", b->obj), *config = NULL;
	_cleanup_free_ char *desc = xasprintf("config of %s", r->path);
	const char **names = xcalloc(r->nfragments + 1, sizeof(char *));
	char **texts = xcalloc(r->nfragments + 1, sizeof(char *));
	int rc = mkdir_p(b->obj);

	if (rc < 0) {
		fail(b, rc, "%s: %s", b->obj, strerror(-rc));
		goto out;
	}
	say(b, KBUILD_STAGE_INFO, "config: %s + %zu fragment%s", b->base_desc, r->nfragments,
	    r->nfragments == 1 ? "" : "s");
	if (r->base == KBUILD_BASE_MINIMAL) {
		rc = make_step(b, "tinyconfig", NULL, desc);
	} else if (r->base == KBUILD_BASE_DEFCONFIG) {
		rc = make_step(b, "defconfig", NULL, desc);
	} else {
		rc = copy_file(r->base_path, dotconfig);
		if (rc < 0) {
			_cleanup_free_ char *where = at(b, r->base_line);

			fail(b, rc, "%s: base config %s: %s", where, r->base_path, strerror(-rc));
		}
	}
	if (rc < 0)
		goto out;
	if (r->nfragments) {
		/* Copies with plain names: merge_config.sh does not quote its arguments. */
		const char **argv = xcalloc(r->nfragments + 5, sizeof(char *));
		_cleanup_free_ char *script = xasprintf("%s/scripts/kconfig/merge_config.sh",
							b->src);
		char **copies = xcalloc(r->nfragments + 1, sizeof(char *));
		size_t n = 0;

		argv[n++] = "sh";
		argv[n++] = script;
		argv[n++] = "-m";
		argv[n++] = ".config";
		for (size_t i = 0; i < r->nfragments && rc == 0; i++) {
			_cleanup_free_ char *full = NULL;
			size_t len = 0;

			rc = read_file(r->fragments[i].path, 1u << 20, &texts[i], &len);
			if (rc < 0) {
				_cleanup_free_ char *where = at(b, r->fragments[i].line);

				fail(b, rc, "%s: fragment %s: %s", where, r->fragments[i].path,
				     strerror(-rc));
				break;
			}
			names[i] = r->fragments[i].spec;
			copies[i] = xasprintf("lrubench-fragment-%zu.config", i + 1);
			full = xasprintf("%s/%s", b->obj, copies[i]);
			rc = write_all(full, texts[i], len);
			if (rc < 0)
				fail(b, rc, "%s: %s", full, strerror(-rc));
			argv[n++] = copies[i];
		}
		if (rc == 0) {
			rc = run_logged(b, argv, b->obj);
			if (rc != 0) {
				_cleanup_free_ char *tail = tail_lines(b, 10);

				rc = fail(b, -EIO, "%s: merge_config.sh failed:\n%s", desc, tail);
			}
		}
		for (size_t i = 0; i < r->nfragments; i++)
			free(copies[i]);
		free(copies);
		free(argv);
		if (rc < 0)
			goto out;
	}
	rc = make_step(b, "olddefconfig", NULL, desc);
	if (rc < 0)
		goto out;
	rc = read_file(dotconfig, 16u << 20, &config, NULL);
	if (rc < 0) {
		fail(b, rc, "%s: %s", dotconfig, strerror(-rc));
		goto out;
	}
	{
		_cleanup_free_ char *why = NULL, *missing = NULL;
		struct kernel fake = { .config = config };
		int rv = kbuild_config_verify(config, names, (const char *const *)texts,
					      r->nfragments, &why);

		/* What lrubench needs first: it is the cause, lost options its effects. */
		rc = kernel__check(&fake, KERNEL_ZRAM_COMP_DEFAULT, &missing);
		if (rc < 0) {
			fail(b, rc, "%s: the resolved config lacks what lrubench needs: %s "
				    "(does the recipe merge kernels/lrubench.config last?)%s%s",
			     r->path, missing, why ? "; also lost: " : "", why ? why : "");
			goto out;
		}
		if (rv < 0) {
			rc = fail(b, rv, "%s: options the fragments set did not survive resolution "
					 "(a dependency is missing, or the option is not "
					 "user-visible): %s",
				  r->path, why);
			goto out;
		}
	}
	*ret_config = TAKE_PTR(config);
	rc = 0;
out:
	for (size_t i = 0; i < r->nfragments; i++)
		free(texts[i]);
	free(texts);
	free(names);
	return rc;
}

static char *build_key(const struct kb *b, const char *config)
{
	_cleanup_free_ char *doc = NULL;
	size_t len = 0;
	char csha[65], *key = xcalloc(1, 65);
	FILE *f = open_memstream(&doc, &len);

	sha256_buf(config, strlen(config), csha);
	fprintf(f, "%s\narch %s\nsource %s\n", INPUTS_VERSION, ARCH, b->source_id);
	for (size_t i = 0; i < b->r->npatches; i++)
		fprintf(f, "patch %s\n", b->patch_sha[i]);
	fprintf(f, "config %s\ncompiler %s\n", csha, b->compiler);
	fclose(f);
	sha256_buf(doc, len, key);
	return key;
}

static char *source_version(const char *src)
{
	_cleanup_free_ char *mk = xasprintf("%s/Makefile", src), *text = NULL;
	const char *names[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION" };
	char parts[4][32] = { "", "", "", "" };
	int line = 0;

	if (read_file(mk, 1u << 20, &text, NULL) < 0)
		return xstrdup("unknown");
	/* The four assignments open the top Makefile. */
	for (char *p = text, *nl; p && *p && line++ < 12; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		for (size_t i = 0; i < 4; i++) {
			size_t n = strlen(names[i]);

			if (!strncmp(p, names[i], n) && strstr(p, "=") &&
			    (p[n] == ' ' || p[n] == '='))
				snprintf(parts[i], sizeof(parts[i]), "%s",
					 strstrip(strchr(p, '=') + 1));
		}
	}
	return xasprintf("%s.%s.%s%s", parts[0], parts[1], parts[2], parts[3]);
}

static int write_manifest(struct kb *b, const char *dir, const char *key, const char *config,
			  const char *release, double seconds)
{
	_cleanup_free_ char *path = xasprintf("%s/manifest", dir), *text = NULL;
	_cleanup_free_ char *version = source_version(b->src), *real = realpath(b->r->path, NULL);
	_cleanup_free_ char *img = xasprintf("%s/bzImage", dir);
	char csha[65], rsha[65], isha[65], stamp[32];
	time_t now = time(NULL);
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	sha256_buf(config, strlen(config), csha);
	sha256_buf(b->r->text, strlen(b->r->text), rsha);
	if (sha256_file(img, isha) < 0)
		strcpy(isha, "?");
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# lrubench kernel build: what went in, what came out (hashes are sha256)\n");
	fprintf(f, "build_key = %s\n", key);
	fprintf(f, "recipe = %s\n", b->r->name);
	fprintf(f, "recipe_path = %s\n", real ? real : b->r->path);
	fprintf(f, "recipe_sha256 = %s\n", rsha);
	fprintf(f, "description = %s\n", b->r->description ? b->r->description : "");
	fprintf(f, "source = %s\n", b->source_desc);
	fprintf(f, "source_id = %s\n", b->source_id);
	fprintf(f, "source_version = %s\n", version);
	fprintf(f, "patches = %s\n", b->patches_desc);
	fprintf(f, "base = %s\n", b->base_desc);
	fprintf(f, "fragments = %s\n", b->fragments_desc);
	fprintf(f, "config_sha256 = %s\n", csha);
	fprintf(f, "compiler = %s\n", b->compiler);
	fprintf(f, "ccache = %s\n", b->ccache ? "yes" : "no");
	fprintf(f, "workspace = %s\n", b->ws_desc ? b->ws_desc : "none");
	fprintf(f, "release = %s\n", release);
	fprintf(f, "bzimage_sha256 = %s\n", isha);
	fprintf(f, "build_seconds = %.0f\n", seconds);
	fprintf(f, "compiled_files = %u\n", b->compiled);
	fprintf(f, "built_at = %s\n", stamp);
	fprintf(f, "lrubench_version = %s\n", LRUBENCH_VERSION);
	fclose(f);
	return write_all(path, text, len);
}

/* One build at a time per cache; say so when waiting. */
static int lock_cache(struct kb *b, int *ret_fd)
{
	_cleanup_free_ char *path = xasprintf("%s/kbuild.lock", b->cache);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return fail(b, -errno, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		say(b, KBUILD_STAGE_INFO, "waiting for another kernel build (%s)", path);
		if (flock(fd, LOCK_EX) < 0) {
			int rc = -errno;

			close(fd);
			return fail(b, rc, "%s: %s", path, strerror(-rc));
		}
	}
	*ret_fd = fd;
	return 0;
}

/* The build the index maps these inputs to, if it is still there. */
static int lookup(struct kb *b, struct kbuild **ret)
{
	_cleanup_free_ char *idx = index_path(b), *key = NULL, *dir = NULL, *err = NULL;
	struct kbuild *k = NULL;

	if (read_file(idx, 256, &key, NULL) < 0)
		return -ENOENT;
	dir = xasprintf("%s/build-%s", b->cache, strstrip(key));
	if (kbuild__open(dir, &k, &err) < 0)
		return -ENOENT;
	manifest_set_recipe(k, b->r);
	*ret = k;
	return 0;
}

static void index_write(struct kb *b, const char *key)
{
	_cleanup_free_ char *dir = xasprintf("%s/kbuild-index", b->cache);
	_cleanup_free_ char *idx = index_path(b);
	_cleanup_free_ char *tmp = xasprintf("%s.%d", idx, (int)getpid());
	_cleanup_free_ char *line = xasprintf("%s\n", key);

	mkdir_p(dir);
	if (write_all(tmp, line, strlen(line)) == 0)
		rename(tmp, idx);
	unlink(tmp);
}

static int setup_work(struct kb *b)
{
	int rc;

	b->work = xasprintf("%s/work-%.16s", b->cache, b->prekey);
	b->src = xasprintf("%s/src", b->work);
	b->obj = xasprintf("%s/obj", b->work);
	b->log_path = xasprintf("%s/build.log", b->work);
	rm_rf(b->work); /* a build that was killed */
	rc = mkdir_p(b->work);
	if (rc < 0)
		return fail(b, rc, "%s: %s", b->work, strerror(-rc));
	b->log = fopen(b->log_path, "we");
	if (!b->log)
		return fail(b, -errno, "%s: %s", b->log_path, strerror(errno));
	fprintf(b->log, "# lrubench %s: kernel recipe %s\n# source %s (%s)\n# patches %s\n"
			"# config %s + %s\n# compiler %s%s\n",
		LRUBENCH_VERSION, b->r->path, b->source_desc, b->source_id, b->patches_desc,
		b->base_desc, b->fragments_desc, b->compiler, b->ccache ? " (through ccache)" : "");
	return 0;
}

/* Keep a failed build's log beside the builds, since the scratch tree goes. */
static char *keep_failed_log(struct kb *b)
{
	_cleanup_free_ char *dst = xasprintf("%s/failed-%.16s.log", b->cache, b->prekey);

	if (b->log) {
		fclose(b->log);
		b->log = NULL;
	}
	if (rename(b->log_path, dst) == 0) {
		free(b->log_path);
		b->log_path = TAKE_PTR(dst);
	}
	return b->log_path;
}

static int compile(struct kb *b, const char *key, const char *config, struct kbuild **ret)
{
	_cleanup_free_ char *final = xasprintf("%s/build-%s", b->cache, key);
	_cleanup_free_ char *out = xasprintf("%s/.build-%s.%d", b->cache, key, (int)getpid());
	_cleanup_free_ char *jobs = NULL, *localversion = NULL, *release = NULL, *relpath = NULL;
	_cleanup_free_ char *err = NULL;
	_cleanup_(kws__freep) struct kws *ws = NULL;
	char *extra[6];
	const struct {
		const char *from, *to;
	} artifacts[] = {
		{ "arch/x86/boot/bzImage", "bzImage" },
		{ ".config", "config" },
		{ "System.map", "System.map" },
	};
	int64_t t0 = now_mono_ns();
	double seconds;
	int rc;

	/*
	 * Compile in the series' workspace (kernel-workspace.h): the config
	 * resolved in the scratch tree, the scratch tree's files synced in.
	 */
	{
		_cleanup_free_ char *version = source_version(b->src), *series = NULL;
		_cleanup_free_ char *dotconfig = xasprintf("%s/.config", b->obj);

		series = kws_series(version);
		rc = kws__prepare(b->cache, series, b->src, dotconfig, b->o->force, &ws, &err);
		if (rc < 0)
			return fail(b, rc, "%s", err);
		b->ws_desc = ws->fresh ? xasprintf("ws-%s (fresh)", series)
				       : xasprintf("ws-%s (incremental: %u files written, %u "
						   "removed, %u unchanged)",
						   series, ws->written, ws->removed, ws->same);
		say(b, KBUILD_STAGE_INFO, "workspace %s", b->ws_desc);
		free(b->src);
		free(b->obj);
		b->src = xstrdup(ws->src);
		b->obj = xstrdup(ws->obj);
	}
	jobs = xasprintf("-j%d", b->o->jobs > 0 ? b->o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN));
	/* The release names the build: uname -r in the guest says which kernel it is. */
	localversion = xasprintf("LOCALVERSION=-lrb-%.8s", key);
	extra[0] = jobs;
	extra[1] = localversion;
	extra[2] = (char *)"KBUILD_BUILD_USER=lrubench";
	extra[3] = (char *)"KBUILD_BUILD_HOST=lrubench";
	extra[4] = NULL;
	say(b, KBUILD_STAGE_INFO, "compiling: make %s bzImage%s (log %s)", jobs,
	    b->ccache ? " through ccache" : "", b->log_path);
	b->compiling = true;
	b->t0 = b->last_progress = now_mono_ns();
	rc = run_make(b, "bzImage", extra);
	kws__done(ws, rc);
	b->compiling = false;
	seconds = (double)(now_mono_ns() - t0) / 1e9;
	if (rc != 0) {
		_cleanup_free_ char *tail = tail_lines(b, 12), *errors = NULL;
		const char *log = keep_failed_log(b);

		errors = first_errors(b, log, 12);
		return fail(b, -EIO, "%s: the kernel build failed ('make bzImage' %s %d after "
				     "%.0f s); log %s; its first errors:\n%s\nits last lines:\n%s",
			    b->r->path, rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc, seconds, log,
			    errors, tail);
	}
	say(b, KBUILD_STAGE_INFO, "compiled %u files in %.0f s", b->compiled, seconds);
	rm_rf(out);
	rc = mkdir_p(out);
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(artifacts); i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", b->obj, artifacts[i].from);
		_cleanup_free_ char *to = xasprintf("%s/%s", out, artifacts[i].to);

		rc = copy_file(from, to);
		if (rc < 0)
			fail(b, rc, "%s: %s", from, strerror(-rc));
	}
	if (rc < 0)
		goto err;
	relpath = xasprintf("%s/include/config/kernel.release", b->obj);
	if (read_file(relpath, 256, &release, NULL) < 0)
		release = xstrdup("unknown");
	fclose(b->log);
	b->log = NULL;
	{
		_cleanup_free_ char *to = xasprintf("%s/build.log", out);

		rc = copy_file(b->log_path, to);
		if (rc < 0) {
			fail(b, rc, "%s: %s", to, strerror(-rc));
			goto err;
		}
	}
	rc = write_manifest(b, out, key, config, strstrip(release), seconds);
	if (rc < 0) {
		fail(b, rc, "%s/manifest: %s", out, strerror(-rc));
		goto err;
	}
	if (is_dir(final)) {
		/* --force: the new build replaces the old one. */
		_cleanup_free_ char *old = xasprintf("%s.old.%d", final, (int)getpid());

		if (rename(final, old) == 0)
			rm_rf(old);
	}
	if (rename(out, final) < 0) {
		rc = fail(b, -errno, "rename %s -> %s: %s", out, final, strerror(errno));
		goto err;
	}
	rc = kbuild__open(final, ret, &err);
	if (rc < 0)
		return fail(b, rc, "%s", err);
	(*ret)->cached = false;
	return 0;
err:
	rm_rf(out);
	return rc;
}

static int build_locked(struct kb *b, bool config_only, struct kbuild **ret, char **ret_config)
{
	_cleanup_free_ char *config = NULL, *key = NULL;
	int rc;

	rc = setup_work(b);
	if (rc == 0)
		rc = prepare_tree(b);
	if (rc == 0)
		rc = resolve_config(b, &config);
	if (rc < 0)
		goto out;
	if (config_only) {
		*ret_config = TAKE_PTR(config);
		goto out;
	}
	key = build_key(b, config);
	if (!b->o->force) {
		_cleanup_free_ char *dir = xasprintf("%s/build-%s", b->cache, key), *err = NULL;

		if (kbuild__open(dir, ret, &err) == 0) {
			/* Other inputs, same result: e.g. a fragment that changed nothing. */
			say(b, KBUILD_STAGE_INFO, "the resolved config was built before: %s", dir);
			manifest_set_recipe(*ret, b->r);
			index_write(b, key);
			goto out;
		}
	}
	rc = compile(b, key, config, ret);
	if (rc == 0)
		index_write(b, key);
out:
	if (b->log) {
		fclose(b->log);
		b->log = NULL;
	}
	if (b->work && is_dir(b->work))
		rm_rf(b->work);
	if (b->o->drop_git_source && b->exported) {
		_cleanup_free_ char *src = xasprintf("%s/src-%.16s", b->cache,
						     strchr(b->source_id, ':') + 1);

		rm_rf(src);
	}
	return rc;
}

int kbuild__build(const struct kbuild_recipe *r, const struct kbuild_opts *o,
		  struct kbuild **ret, char **ret_err)
{
	struct kb b;
	_cleanup_close_ int lock = -1;
	int rc;

	rc = kb_init(&b, r, o, ret_err);
	if (rc == 0 && !o->force && lookup(&b, ret) == 0)
		goto out;
	if (rc == 0)
		rc = lock_cache(&b, &lock);
	/* Someone else may have built it while we waited. */
	if (rc == 0 && !o->force && lookup(&b, ret) == 0)
		goto out;
	if (rc == 0)
		rc = build_locked(&b, false, ret, NULL);
out:
	kb_clear(&b);
	return rc;
}

int kbuild__lookup(const struct kbuild_recipe *r, const struct kbuild_opts *o,
		   struct kbuild **ret, char **ret_err)
{
	struct kb b;
	int rc = kb_init(&b, r, o, ret_err);

	if (rc == 0)
		rc = lookup(&b, ret);
	kb_clear(&b);
	return rc;
}

int kbuild__resolve_config(const struct kbuild_recipe *r, const struct kbuild_opts *o,
			   char **ret_config, char **ret_err)
{
	_cleanup_(kbuild__freep) struct kbuild *k = NULL;
	_cleanup_close_ int lock = -1;
	struct kb b;
	int rc = kb_init(&b, r, o, ret_err);

	if (rc == 0 && lookup(&b, &k) == 0) {
		rc = read_file(k->config, 16u << 20, ret_config, NULL);
		if (rc < 0)
			fail(&b, rc, "%s: %s", k->config, strerror(-rc));
		goto out;
	}
	if (rc == 0)
		rc = lock_cache(&b, &lock);
	if (rc == 0)
		rc = build_locked(&b, true, NULL, ret_config);
out:
	kb_clear(&b);
	return rc;
}
