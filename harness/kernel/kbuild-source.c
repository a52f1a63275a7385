// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel build's source (kbuild-priv.h): its identity (a tarball's hash, a
 * tree's commit and changes, a git ref's commit, fetched into a mirror in
 * the cache), the patches' contents, the pristine tree extracted once into
 * the cache, and the build's own hard-linked copy with the patches applied.
 */
#include "kbuild-priv.h"
#include "files.h"
#include "kernel.h"
#include "util.h"

#include <limits.h>
#include <string.h>

#define PATCH_LIMIT (64u << 20)

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

	r = kb__run_quiet(argv, NULL, &list, &err);
	if (r < 0)
		return kb__fail(b, r, "%s: %s", tree, err);
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

/*
 * Where a reader can fetch the source: the git source itself when it is an
 * https:// URL, else a local repository's origin when that is one (KCIDB
 * takes https:// only). NULL when there is none.
 */
char *kb__git_https_url(const char *source, const char *repo)
{
	_cleanup_free_ char *out = NULL, *err = NULL;
	const char *argv[] = { "git", "-C", repo, "remote", "get-url", "origin", NULL };

	if (source && !strncmp(source, "https://", 8))
		return xstrdup(source);
	if (!repo || kb__run_quiet(argv, NULL, &out, &err) < 0)
		return NULL;
	strstrip(out);
	return !strncmp(out, "https://", 8) && !strpbrk(out, " \t\n") ? xstrdup(out) : NULL;
}

/*
 * A ref that names a branch, for KCIDB's git_repository_branch: not HEAD, a
 * commit id, refs/tags/... or a release tag (v6.12, v6.13-rc1).
 */
char *kb__git_branch_of(const char *ref)
{
	size_t n = strspn(ref, "0123456789abcdef");

	if (!strcmp(ref, "HEAD") || (n >= 7 && !ref[n]) || !strncmp(ref, "refs/tags/", 10) ||
	    (ref[0] == 'v' && ref[1] >= '0' && ref[1] <= '9'))
		return NULL;
	return xstrdup(!strncmp(ref, "refs/heads/", 11) ? ref + 11 : ref);
}
/* Identify the source without touching the cache: cheap enough for every lookup. */
int kb__identify_source(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	_cleanup_free_ char *where = kb__at(b, r->source_line);
	char sha[65];
	int rc;

	switch (r->source_kind) {
	case KBUILD_SRC_TARBALL: {
		_cleanup_free_ char *real = realpath(r->source, NULL);

		if (!real || !files__is_file(real))
			return kb__fail(b, -ENOENT, "%s: source tarball %s: %s%s", where, r->source,
				    real ? "not a file" : strerror(errno),
				    r->source_line ? ""
						   : " (the default source: apt-get install "
						     "linux-source-6.1)");
		rc = sha256_file(real, sha);
		if (rc < 0)
			return kb__fail(b, rc, "%s: %s: %s", where, real, strerror(-rc));
		b->source_desc = xasprintf("tarball:%s", real);
		b->source_id = xasprintf("sha256:%s", sha);
		return 0;
	}
	case KBUILD_SRC_TREE: {
		_cleanup_free_ char *real = realpath(r->source, NULL);
		_cleanup_free_ char *mk = NULL, *kc = NULL, *gitdir = NULL, *err = NULL;

		if (!real)
			return kb__fail(b, -ENOENT, "%s: source tree %s: %s", where, r->source,
				    strerror(errno));
		mk = xasprintf("%s/Makefile", real);
		kc = xasprintf("%s/Kconfig", real);
		if (!files__is_file(mk) || !files__is_file(kc))
			return kb__fail(b, -ENOENT, "%s: %s is not a kernel tree (no Makefile and "
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

			if (kb__run_quiet(head, NULL, &commit, &err) < 0 ||
			    kb__run_quiet(diff, NULL, &d, &err) < 0 ||
			    kb__run_quiet(untracked, NULL, &st, &err) < 0)
				return kb__fail(b, -EIO, "%s: %s", where, err);
			strstrip(commit);
			b->git_repo = xstrdup(real);
			b->git_url = kb__git_https_url(NULL, real);
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

			if (kb__run_quiet(argv, NULL, &commit, &err) < 0)
				return kb__fail(b, -ENOENT, "%s: git %s, ref %s: %s", where,
						r->source, r->ref, err);
			b->git_repo = xstrdup(r->source);
		} else {
			/* A remote: fetch the ref (shallow) into a bare mirror in the cache. */
			_cleanup_free_ char *mirror = NULL;
			char urlsha[65];

			sha256_buf(r->source, strlen(r->source), urlsha);
			mirror = xasprintf("%s/git/%.16s.git", b->cache, urlsha);
			if (!files__is_dir(mirror)) {
				const char *init[] = { "git", "init", "-q", "--bare", mirror,
						       NULL };

				mkdir_p(mirror);
				if (kb__run_quiet(init, NULL, NULL, &err) < 0)
					return kb__fail(b, -EIO, "%s: %s", where, err);
			}
			kb__say(b, KBUILD_STAGE_INFO, "fetching %s %s", r->source, r->ref);
			{
				const char *fetch[] = { "git", "-C", mirror, "fetch", "-q",
							"--depth=1", "--no-tags", "--",
							r->source, r->ref, NULL };
				const char *parse[] = { "git", "-C", mirror, "rev-parse",
							"--verify", "FETCH_HEAD^{commit}", NULL };

				if (kb__run_quiet(fetch, NULL, NULL, &err) < 0 ||
				    kb__run_quiet(parse, NULL, &commit, &err) < 0)
					return kb__fail(b, -EIO, "%s: git %s, ref %s: %s", where,
						    r->source, r->ref, err);
			}
			b->git_repo = TAKE_PTR(mirror);
		}
		strstrip(commit);
		b->git_commit = xstrdup(commit);
		b->git_url = kb__git_https_url(r->source, r->source[0] == '/' ? r->source : NULL);
		b->git_branch = kb__git_branch_of(r->ref);
		b->source_desc = xasprintf("git:%s@%s", r->source, r->ref);
		b->source_id = xasprintf("git:%s", commit);
		return 0;
	}
	}
	return -EINVAL;
}

/* Patches: each file's contents, or each range's format-patch output, hashed. */
int kb__identify_patches(struct kb *b)
{
	const struct kbuild_recipe *r = b->r;
	char *desc = NULL;

	b->patch_text = xcalloc(r->npatches + 1, sizeof(char *));
	b->patch_sha = xcalloc(r->npatches + 1, sizeof(*b->patch_sha));
	for (size_t i = 0; i < r->npatches; i++) {
		const struct kbuild_patch *p = &r->patches[i];
		_cleanup_free_ char *where = kb__at(b, p->line), *text = NULL, *err = NULL;
		size_t len = 0;
		char *t;
		int rc;

		if (!p->range) {
			rc = read_file(p->path, PATCH_LIMIT, &text, &len);
			if (rc < 0) {
				free(desc);
				return kb__fail(b, rc, "%s: patch %s: %s", where, p->path,
					    strerror(-rc));
			}
			if (!strstr(text, "\n+++ ") && strncmp(text, "+++ ", 4)) {
				free(desc);
				return kb__fail(b, -EINVAL, "%s: patch %s holds no diff", where,
					    p->path);
			}
		} else {
			const char *repo = r->repo ? r->repo : b->git_repo;
			const char *argv[] = { "git", "-C", repo, "format-patch", "--stdout",
					       "--no-signature", p->spec, NULL };

			if (!repo) {
				free(desc);
				return kb__fail(b, -EINVAL,
					    "%s: range %s: the source is not a git repository; "
					    "set 'repo = PATH' in [patches]",
					    where, p->spec);
			}
			rc = kb__run_quiet(argv, NULL, &text, &err);
			if (rc < 0) {
				free(desc);
				return kb__fail(b, rc, "%s: range %s: %s", where, p->spec, err);
			}
			if (!*text) {
				free(desc);
				return kb__fail(b, -EINVAL, "%s: range %s of %s holds no commits",
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
		_cleanup_free_ char *where = kb__at(b, r->source_line);

		for (size_t i = 0; i < ARRAY_SIZE(built); i++) {
			_cleanup_free_ char *p = xasprintf("%s/%s", real, built[i]);

			if (access(p, F_OK) == 0)
				return kb__fail(
				    b, -EEXIST,
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
	if (files__is_dir(tree)) {
		*ret_tree = TAKE_PTR(tree);
		return 0;
	}
	tmp = xasprintf("%s/.src-%.16s.%d", b->cache, id, (int)getpid());
	files__rm_rf(tmp);
	{
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);

		rc = mkdir_p(t);
		if (rc < 0)
			return kb__fail(b, rc, "%s: %s", t, strerror(-rc));
	}
	if (r->source_kind == KBUILD_SRC_TARBALL) {
		const char *tarball = strchr(b->source_desc, ':') + 1;
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);
		const char *argv[] = { "tar", "-xf", tarball, "-C", t, "--strip-components=1",
				       NULL };

		kb__say(b, KBUILD_STAGE_INFO, "extracting %s into %s (once per tarball)", tarball,
			dir);
		rc = kb__run_logged(b, argv, NULL);
	} else {
		_cleanup_free_ char *tar = xasprintf("%s/src.tar", tmp);
		_cleanup_free_ char *t = xasprintf("%s/tree", tmp);
		const char *archive[] = { "git", "-C", b->git_repo, "archive", "--format=tar",
					  "-o", tar, b->git_commit, NULL };
		const char *x[] = { "tar", "-xf", tar, "-C", t, NULL };

		kb__say(b, KBUILD_STAGE_INFO, "exporting %s %s into %s (once per commit)",
			r->source, b->git_commit, dir);
		rc = kb__run_logged(b, archive, NULL);
		if (rc == 0)
			rc = kb__run_logged(b, x, NULL);
		unlink(tar);
	}
	if (rc != 0) {
		_cleanup_free_ char *tail = kb__tail_lines(b, 10);

		files__rm_rf(tmp);
		return kb__fail(b, -EIO, "unpacking the source %s failed:\n%s", b->source_desc,
				tail);
	}
	if (rename(tmp, dir) < 0 && !files__is_dir(tree)) {
		rc = -errno;
		files__rm_rf(tmp);
		return kb__fail(b, rc, "rename %s -> %s: %s", tmp, dir, strerror(-rc));
	}
	files__rm_rf(tmp);
	b->exported = r->source_kind == KBUILD_SRC_GIT;
	*ret_tree = TAKE_PTR(tree);
	return 0;
}

/*
 * The tree this build compiles: a hard-linked copy of the pristine one at
 * WORK/src (patch(1) replaces the files it changes, so the pristine tree is
 * never written), with the patches applied.
 */
int kb__prepare_tree(struct kb *b)
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

		rc = kb__run_logged(b, cpl, NULL);
		if (rc != 0) {
			/* Another file system (a local tree): copy only when patching. */
			files__rm_rf(b->src);
			if (!r->npatches) {
				free(b->src);
				b->src = TAKE_PTR(pristine);
				return 0;
			}
			kb__say(b, KBUILD_STAGE_INFO, "copying %s (not on the cache's file system)",
			    pristine);
			rc = kb__run_logged(b, cpa, NULL);
			if (rc != 0) {
				_cleanup_free_ char *tail = kb__tail_lines(b, 5);

				return kb__fail(b, -EIO, "copying %s failed:\n%s", pristine, tail);
			}
		}
	}
	for (size_t i = 0; i < r->npatches; i++) {
		const struct kbuild_patch *p = &r->patches[i];
		_cleanup_free_ char *file = NULL, *where = kb__at(b, p->line);
		const char *dry[] = { "patch", "-p1", "-F0", "-N", "--batch", "--dry-run",
				      "-d", b->src, "-i", NULL, NULL };
		const char *apply[] = { "patch", "-p1", "-F0", "-N", "--batch",
					"--no-backup-if-mismatch", "-d", b->src, "-i", NULL,
					NULL };

		if (p->range) {
			file = xasprintf("%s/range-%zu.patch", b->work, i + 1);
			rc = files__write(file, b->patch_text[i], strlen(b->patch_text[i]),
					  0644);
			if (rc < 0)
				return kb__fail(b, rc, "%s: %s", file, strerror(-rc));
		} else {
			/* patch -d changes directory before it opens the file. */
			file = realpath(p->path, NULL);
			if (!file)
				return kb__fail(b, -errno, "%s: patch %s: %s", where, p->path,
					    strerror(errno));
		}
		dry[9] = apply[9] = file;
		kb__say(b, KBUILD_STAGE_INFO, "patch %zu/%zu: %s", i + 1, r->npatches, p->spec);
		rc = kb__run_logged(b, dry, NULL);
		if (rc == 0)
			rc = kb__run_logged(b, apply, NULL);
		if (rc != 0) {
			_cleanup_free_ char *tail = kb__tail_lines(b, 12);

			return kb__fail(b, -EIO, "%s: patch %s does not apply to %s (%s)%s:\n%s",
					where, p->spec, b->source_desc, b->source_id,
					i ? " after the patches before it" : "", tail);
		}
	}
	return 0;
}

char *kb__source_version(const char *src)
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
