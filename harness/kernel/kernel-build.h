/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels built from source. A recipe (an INI file in kernels/) names a
 * source, an ordered list of patches and a config:
 *
 *   [recipe]    description = TEXT
 *   [source]    tarball = PATH      (default: /usr/src/linux-source-6.1.tar.xz)
 *               tree = PATH         a local kernel tree (a git work tree or not)
 *               git = URL|PATH      a git repository, with
 *               ref = REF           the branch, tag or commit to build
 *   [patches]   patch = FILE        applied in order (GNU patch -p1, no fuzz)
 *               range = A..B        git format-patch A..B of `repo` (or of the
 *                                   source, when it is a local repository)
 *               repo = PATH
 *   [config]    base = minimal | defconfig | PATH   (tinyconfig, x86_64_defconfig
 *                                   or a config file, e.g. a distribution's)
 *               fragment = FILE     merged in order by the kernel's own
 *                                   scripts/kconfig/merge_config.sh, then
 *                                   olddefconfig; every option a fragment sets
 *                                   must survive, and the result must have what
 *                                   lrubench needs (kernel__check); one
 *                                   fragment at least (lrubench.config)
 *
 * Relative paths are relative to the recipe's directory. Unknown sections and
 * keys, repeated single keys and bad values are errors naming file and line.
 *
 * A build happens out of tree (O=) in a scratch directory under the cache,
 * with ccache when it is installed, and lands in CACHE/build-KEY/ (bzImage,
 * config, System.map, build.log, manifest) where KEY hashes the source
 * identity, the patches' contents, the resolved .config and the compiler.
 * The recipe's inputs are memoised (CACHE/kbuild-index/), so an unchanged
 * recipe resolves to its build without extracting or configuring anything.
 */
#ifndef LRUBENCH_KERNEL_BUILD_H
#define LRUBENCH_KERNEL_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#define KBUILD_DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"

/* What a plan's or a command line's kernel value names. */
enum kernel_spec_kind {
	KERNEL_SPEC_DEBIAN, /* "debian": the embedded default */
	KERNEL_SPEC_RECIPE, /* a recipe: NAME (kernels/NAME.ini) or a path ending in .ini */
	KERNEL_SPEC_IMAGE,  /* a bzImage path (holds a '/') */
	KERNEL_SPEC_BUILD,  /* a build directory under the cache: build-KEY */
	KERNEL_SPEC_BAD,
};

/*
 * Classify a kernel value: "debian"; NAME (letters, digits, '.', '_', '-')
 * is a recipe in kernels/; a value ending in ".ini" is a recipe file; any
 * other value holding a '/' is a bzImage (so a bzImage in the current
 * directory is written ./bzImage). Pure.
 */
enum kernel_spec_kind kernel_spec_kind(const char *spec);

/* The recipe file a KERNEL_SPEC_RECIPE value names (malloc'd). */
char *kernel_spec_recipe_path(const char *spec, const char *recipes_dir);

enum kbuild_source { KBUILD_SRC_TARBALL, KBUILD_SRC_TREE, KBUILD_SRC_GIT };
enum kbuild_base { KBUILD_BASE_MINIMAL, KBUILD_BASE_DEFCONFIG, KBUILD_BASE_FILE };

struct kbuild_patch {
	bool range;	/* a git range, else a file */
	char *spec;	/* as written in the recipe */
	char *path;	/* the file, resolved against the recipe's directory */
	unsigned line;	/* where the recipe names it */
};

struct kbuild_fragment {
	char *spec;
	char *path;
	unsigned line;
};

struct kbuild_recipe {
	char *path;	/* the recipe file, as given */
	char *name;	/* its base name without .ini */
	char *text;	/* the whole file, for the manifest's hash */
	char *description;
	enum kbuild_source source_kind;
	char *source;	/* tarball or tree path (resolved), or the git URL or path */
	char *ref;	/* git only */
	unsigned source_line;
	char *repo;	/* for ranges: a local git repository (resolved), or NULL */
	struct kbuild_patch *patches;
	size_t npatches;
	enum kbuild_base base;
	char *base_path; /* KBUILD_BASE_FILE */
	unsigned base_line;
	struct kbuild_fragment *fragments;
	size_t nfragments;
};

/* Parse text read from path. On error *ret_err = "path:line: what". Pure. */
int kbuild_recipe__parse(const char *path, const char *text, struct kbuild_recipe **ret,
			 char **ret_err);
int kbuild_recipe__load(const char *path, struct kbuild_recipe **ret, char **ret_err);
void kbuild_recipe__free(struct kbuild_recipe *r);
/*
 * Build the recipe from commit of the local git repository repo instead of
 * its own [source] (a bisection step): patches and config stay the recipe's.
 * The recipe's text (hashed into the manifest) gains a line that says so.
 */
void kbuild_recipe__set_git_source(struct kbuild_recipe *r, const char *repo, const char *commit);
void kbuild_recipe__freep(struct kbuild_recipe **r);

/*
 * Check a resolved config against the fragments' requests: every
 * "CONFIG_X=v" or "# CONFIG_X is not set" line of a fragment (the last one
 * of each option wins) must hold in config. Returns 0, or -ENOTSUP with
 * *ret_err naming each option that did not survive, with the fragment file
 * and line that asked for it. Pure (the fragments' texts are given).
 */
int kbuild_config_verify(const char *config, const char *const frag_names[],
			 const char *const frag_texts[], size_t nfrags, char **ret_err);

enum kbuild_stage { KBUILD_STAGE_INFO, KBUILD_STAGE_COMPILE };

struct kbuild_opts {
	const char *cache_dir; /* kernels/cache */
	const char *cc;	       /* the compiler, default gcc */
	int jobs;	       /* make -j, default the number of CPUs */
	bool force;	       /* build even when the cache has it */
	bool no_ccache;	       /* compile without ccache even when it is installed */
	/* Remove a git source's tree after the build when this build exported it
	 * (a bisection builds each commit once: its trees would fill the disk). */
	bool drop_git_source;
	/* Progress, for the caller to show (stderr): a stage and a message. */
	void (*progress)(void *ctx, enum kbuild_stage stage, const char *msg);
	void *ctx;
};

/* A progress sink for callers that show it as log lines: ctx is the recipe's name. */
void kbuild_progress_log(void *ctx, enum kbuild_stage stage, const char *msg);

struct kbuild_kv {
	char *key, *value;
};

/* A built kernel: one directory of the cache. */
struct kbuild {
	char *dir;   /* CACHE/build-KEY */
	char *image; /* dir/bzImage */
	char *config; /* dir/config */
	char *key;
	bool cached; /* found in the cache: nothing was built */
	struct kbuild_kv *manifest; /* the manifest, in file order */
	size_t nmanifest;
};

/*
 * Build the recipe, or find its build in the cache. On failure *ret_err
 * names the cause (the missing file, the patch that does not apply and
 * patch's output, the option that did not survive, or the failing make with
 * the tail of its log and the log's path).
 */
int kbuild__build(const struct kbuild_recipe *r, const struct kbuild_opts *o,
		  struct kbuild **ret, char **ret_err);

/*
 * Resolve the recipe's config without building (for `kernel check`): the
 * config text of its cached build when there is one, else a scratch
 * resolution. Verified like a build's.
 */
int kbuild__resolve_config(const struct kbuild_recipe *r, const struct kbuild_opts *o,
			   char **ret_config, char **ret_err);

/* Open a build directory (CACHE/build-KEY) through its manifest. */
int kbuild__open(const char *dir, struct kbuild **ret, char **ret_err);
/* The cached build of a recipe's current inputs, without building: 0, or -ENOENT. */
int kbuild__lookup(const struct kbuild_recipe *r, const struct kbuild_opts *o,
		   struct kbuild **ret, char **ret_err);
void kbuild__free(struct kbuild *b);
void kbuild__freep(struct kbuild **b);

/* A manifest value, or NULL. The first of repeated keys. */
const char *kbuild__get(const struct kbuild *b, const char *key);

/* Manifest keys that go into each run's provenance, as "kernel.KEY". */
extern const char *const kbuild_prov_keys[];

#endif
