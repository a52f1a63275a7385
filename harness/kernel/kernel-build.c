// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel builder (kernel-build.h): one build from its recipe to CACHE/build-KEY/.
 *
 * A build goes: identify the inputs (source identity, patch contents, config
 * base and fragments, compiler) -> look the inputs up in the index (an
 * unchanged recipe stops here) -> extract the source once into the cache ->
 * hard-link a scratch copy, apply the patches -> resolve the config with the
 * kernel's own tools and verify it -> hash (source, patches, .config,
 * compiler) into the build key -> look the key up -> make bzImage -> move the
 * artifacts to build-KEY/ with a manifest. Builds hold one lock per cache:
 * on a shared 2-core machine two kernel builds at once only slow each other.
 *
 * The steps live by job: the commands and their log in kbuild-exec.c, the
 * source and patches in kbuild-source.c, the config in kbuild-config.c, keys,
 * manifests, index and lock in kbuild-cache.c; the recipe format in
 * kbuild-recipe.c.
 */
#include "kernel-build.h"
#include "files.h"
#include "kbuild-priv.h"
#include "kernel-workspace.h"
#include "kernel.h"
#include "spawn.h"
#include "util.h"

#include <limits.h>
#include <string.h>

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

	r = kb__run_quiet(ccv, NULL, &out, &err);
	if (r < 0)
		return kb__fail(b, r, "the compiler: %s", err);
	r = kb__run_quiet(ldv, NULL, &ldout, &err);
	if (r < 0)
		return kb__fail(b, r, "the linker: %s", err);
	l1 = first_line(out);
	l2 = first_line(ldout);
	b->compiler = xasprintf("%s; %s", l1, l2);
	if (!b->o->no_ccache) {
		_cleanup_free_ char *ccache = files__which("ccache");

		b->ccache = ccache != NULL;
	}
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

static int identify(struct kb *b)
{
	int rc = identify_compiler(b);

	if (rc == 0)
		rc = kb__identify_source(b);
	if (rc == 0)
		rc = kb__identify_patches(b);
	if (rc == 0)
		rc = kb__identify_config(b);
	if (rc == 0)
		kb__prekey(b);
	return rc;
}

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
	free(b->git_url);
	free(b->git_branch);
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
		return kb__fail(b, rc, "kernel cache %s: %s", o->cache_dir, strerror(-rc));
	b->cache = realpath(o->cache_dir, NULL);
	if (!b->cache)
		return kb__fail(b, -errno, "kernel cache %s: %s", o->cache_dir, strerror(errno));
	return identify(b);
}

static int setup_work(struct kb *b)
{
	int rc;

	b->work = xasprintf("%s/work-%.16s", b->cache, b->prekey);
	b->src = xasprintf("%s/src", b->work);
	b->obj = xasprintf("%s/obj", b->work);
	b->log_path = xasprintf("%s/build.log", b->work);
	files__rm_rf(b->work); /* a build that was killed */
	rc = mkdir_p(b->work);
	if (rc < 0)
		return kb__fail(b, rc, "%s: %s", b->work, strerror(-rc));
	b->log = fopen(b->log_path, "we");
	if (!b->log)
		return kb__fail(b, -errno, "%s: %s", b->log_path, strerror(errno));
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
		_cleanup_free_ char *version = kb__source_version(b->src), *series = NULL;
		_cleanup_free_ char *dotconfig = xasprintf("%s/.config", b->obj);

		series = kws_series(version);
		rc = kws__prepare(b->cache, series, b->src, dotconfig, b->o->force, &ws, &err);
		if (rc < 0)
			return kb__fail(b, rc, "%s", err);
		b->ws_desc = ws->fresh ? xasprintf("ws-%s (fresh)", series)
				       : xasprintf("ws-%s (incremental: %u files written, %u "
						   "removed, %u unchanged)",
						   series, ws->written, ws->removed, ws->same);
		kb__say(b, KBUILD_STAGE_INFO, "workspace %s", b->ws_desc);
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
	kb__say(b, KBUILD_STAGE_INFO, "compiling: make %s bzImage%s (log %s)", jobs,
	    b->ccache ? " through ccache" : "", b->log_path);
	b->compiling = true;
	b->t0 = b->last_progress = now_mono_ns();
	rc = kb__make(b, "bzImage", extra);
	kws__done(ws, rc);
	b->compiling = false;
	seconds = (double)(now_mono_ns() - t0) / 1e9;
	if (rc != 0) {
		_cleanup_free_ char *tail = kb__tail_lines(b, 12), *errors = NULL;
		const char *log = keep_failed_log(b);

		errors = kb__first_errors(b, log, 12);
		return kb__fail(b, -EIO, "%s: the kernel build failed ('make bzImage' %s %d after "
				     "%.0f s); log %s; its first errors:\n%s\nits last lines:\n%s",
			    b->r->path, rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc, seconds, log,
			    errors, tail);
	}
	kb__say(b, KBUILD_STAGE_INFO, "compiled %u files in %.0f s", b->compiled, seconds);
	files__rm_rf(out);
	rc = mkdir_p(out);
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(artifacts); i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", b->obj, artifacts[i].from);
		_cleanup_free_ char *to = xasprintf("%s/%s", out, artifacts[i].to);

		rc = files__copy(from, to, 0644);
		if (rc < 0)
			kb__fail(b, rc, "%s: %s", from, strerror(-rc));
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

		rc = files__copy(b->log_path, to, 0644);
		if (rc < 0) {
			kb__fail(b, rc, "%s: %s", to, strerror(-rc));
			goto err;
		}
	}
	rc = kb__write_manifest(b, out, key, config, strstrip(release), seconds);
	if (rc < 0) {
		kb__fail(b, rc, "%s/manifest: %s", out, strerror(-rc));
		goto err;
	}
	if (files__is_dir(final)) {
		/* --force: the new build replaces the old one. */
		_cleanup_free_ char *old = xasprintf("%s.old.%d", final, (int)getpid());

		if (rename(final, old) == 0)
			files__rm_rf(old);
	}
	if (rename(out, final) < 0) {
		rc = kb__fail(b, -errno, "rename %s -> %s: %s", out, final, strerror(errno));
		goto err;
	}
	rc = kbuild__open(final, ret, &err);
	if (rc < 0)
		return kb__fail(b, rc, "%s", err);
	(*ret)->cached = false;
	return 0;
err:
	files__rm_rf(out);
	return rc;
}

static int build_locked(struct kb *b, bool config_only, struct kbuild **ret, char **ret_config)
{
	_cleanup_free_ char *config = NULL, *key = NULL;
	int rc;

	rc = setup_work(b);
	if (rc == 0)
		rc = kb__prepare_tree(b);
	if (rc == 0)
		rc = kb__resolve_config(b, &config);
	if (rc < 0)
		goto out;
	if (config_only) {
		*ret_config = TAKE_PTR(config);
		goto out;
	}
	key = kb__build_key(b, config);
	if (!b->o->force) {
		_cleanup_free_ char *dir = xasprintf("%s/build-%s", b->cache, key), *err = NULL;

		if (kbuild__open(dir, ret, &err) == 0) {
			/* Other inputs, same result: e.g. a fragment that changed nothing. */
			kb__say(b, KBUILD_STAGE_INFO, "the resolved config was built before: %s",
				dir);
			kb__manifest_recipe(*ret, b->r);
			kb__index_write(b, key);
			goto out;
		}
	}
	rc = compile(b, key, config, ret);
	if (rc == 0)
		kb__index_write(b, key);
out:
	if (b->log) {
		fclose(b->log);
		b->log = NULL;
	}
	if (b->work && files__is_dir(b->work))
		files__rm_rf(b->work);
	if (b->o->drop_git_source && b->exported) {
		_cleanup_free_ char *src = xasprintf("%s/src-%.16s", b->cache,
						     strchr(b->source_id, ':') + 1);

		files__rm_rf(src);
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
	if (rc == 0 && !o->force && kb__lookup(&b, ret) == 0)
		goto out;
	if (rc == 0)
		rc = kb__lock(&b, &lock);
	/* Someone else may have built it while we waited. */
	if (rc == 0 && !o->force && kb__lookup(&b, ret) == 0)
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
		rc = kb__lookup(&b, ret);
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

	if (rc == 0 && kb__lookup(&b, &k) == 0) {
		rc = read_file(k->config, 16u << 20, ret_config, NULL);
		if (rc < 0)
			kb__fail(&b, rc, "%s: %s", k->config, strerror(-rc));
		goto out;
	}
	if (rc == 0)
		rc = kb__lock(&b, &lock);
	if (rc == 0)
		rc = build_locked(&b, true, NULL, ret_config);
out:
	kb_clear(&b);
	return rc;
}
