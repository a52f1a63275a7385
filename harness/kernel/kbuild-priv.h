/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the kernel builder: one build in progress (struct kb) and the steps
 * the files of the build share (kernel-build.c runs them in order). For
 * kernel-build.c and the kbuild-NAME.c files only.
 */
#ifndef LRUBENCH_KBUILD_PRIV_H
#define LRUBENCH_KBUILD_PRIV_H

#include "kernel-build.h"

#include <stdint.h>
#include <stdio.h>

#define INPUTS_VERSION "lrubench-kbuild 1"
#define ARCH "x86_64"
#define TAIL_KEEP 8192

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
	char *git_url;	   /* the repository's https:// URL (KCIDB's git_repository_url), or NULL */
	char *git_branch;  /* the git source's ref when it names a branch, or NULL */
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

/* ---- kbuild-exec.c: commands, the log, messages ---- */

/* A progress message (stage, printf format), when the caller wants them. */
void kb__say(struct kb *b, enum kbuild_stage st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "recipe:line" for messages about one line of the recipe (malloc'd). */
char *kb__at(const struct kb *b, unsigned line);
/* Set the build's error message (replacing one set before); returns r. */
int kb__fail(struct kb *b, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The last n lines of what the current command printed, quoted (malloc'd). */
char *kb__tail_lines(const struct kb *b, int n);
/* The first max error lines of the log, quoted (malloc'd). */
char *kb__first_errors(const struct kb *b, const char *log, int max);
/* Run a command with its output in the build log: its exit status, or -errno. */
int kb__run_logged(struct kb *b, const char *const argv[], const char *cwd);
/* A command whose output matters only when it fails: 0, or <0 with *ret_err. */
int kb__run_quiet(const char *const argv[], const char *cwd, char **ret_out, char **ret_err);
/* make -C SRC O=OBJ ARCH= CC= [extra...] target: its exit status, or -errno. */
int kb__make(struct kb *b, const char *target, char *const extra[]);
/* kb__make, failing with the log's tail; what names the step. */
int kb__make_step(struct kb *b, const char *target, char *const extra[], const char *what);

/* ---- kbuild-source.c: the source and the patches ---- */

/* Identify the source without touching the cache (cheap enough for every lookup). */
int kb__identify_source(struct kb *b);
/* source itself if an https:// URL, else repo's origin if one; NULL otherwise (KCIDB's git_repository_url). */
char *kb__git_https_url(const char *source, const char *repo);
/* ref if it names a branch (refs/heads/ dropped); NULL for HEAD, commit ids, tags. */
char *kb__git_branch_of(const char *ref);
/* The patches: each file's contents, or each range's format-patch output, hashed. */
int kb__identify_patches(struct kb *b);
/* The tree to compile at b->src: the pristine source, linked, patched. */
int kb__prepare_tree(struct kb *b);
/* VERSION.PATCHLEVEL.SUBLEVEL+EXTRAVERSION of the tree at src (malloc'd), or "unknown". */
char *kb__source_version(const char *src);

/* ---- kbuild-config.c: the config ---- */

/* The base and fragments, hashed (the files must exist). */
int kb__identify_config(struct kb *b);
/* Base, fragments (merge_config.sh), olddefconfig in b->obj; then verified. */
int kb__resolve_config(struct kb *b, char **ret_config);

/* ---- kbuild-cache.c: keys, manifests, the index, the lock ---- */

/* Everything that determines the resolved config and the build, hashed into b->prekey. */
void kb__prekey(struct kb *b);
/* The build key of the resolved config (malloc'd, 64 hex digits). */
char *kb__build_key(const struct kb *b, const char *config);
/* Set the manifest's recipe fields from r (the recipe's own win). */
void kb__manifest_recipe(struct kbuild *k, const struct kbuild_recipe *r);
/* Write dir/manifest: what went in, what came out. 0 or -errno. */
int kb__write_manifest(struct kb *b, const char *dir, const char *key, const char *config,
		       const char *release, double seconds);
/* One build at a time per cache; *ret_fd holds the lock. */
int kb__lock(struct kb *b, int *ret_fd);
/* The build the index maps b's inputs to, if it is still there: 0 or -ENOENT. */
int kb__lookup(struct kb *b, struct kbuild **ret);
/* Map b's inputs to the build key in the index. */
void kb__index_write(struct kb *b, const char *key);

#endif
