// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel recipes: exact values from valid recipes, file:line errors from bad
 * ones, the config verification, the kernel value classes, and the builder's
 * errors that come before any compilation (missing patch, base, fragment).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbuild-priv.h"
#include "kernel-build.h"
#include "kernel.h"
#include "spawn.h"
#include "util.h"

static const char good[] = "# a recipe\n"
			   "[recipe]\n"
			   "description = a test kernel\n"
			   "\n"
			   "[source]\n"
			   "tree = ../linux\n"
			   "[patches]\n"
			   "patch = patches/a.patch\n"
			   "range = v6.1.100..my-branch\n"
			   "patch = /abs/b.patch\n"
			   "[config]\n"
			   "base = /boot/config-6.1\n"
			   "fragment = lrubench.config\n"
			   "fragment = extra/more.config\n";

static void test_valid_recipe(void **state)
{
	struct kbuild_recipe *r = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(kbuild_recipe__parse("kernels/t.ini", good, &r, &err), 0);
	assert_null(err);
	assert_string_equal(r->name, "t");
	assert_string_equal(r->description, "a test kernel");
	assert_int_equal(r->source_kind, KBUILD_SRC_TREE);
	assert_string_equal(r->source, "kernels/../linux");
	assert_int_equal(r->source_line, 6);
	assert_null(r->ref);
	assert_int_equal(r->npatches, 3);
	assert_false(r->patches[0].range);
	assert_string_equal(r->patches[0].spec, "patches/a.patch");
	assert_string_equal(r->patches[0].path, "kernels/patches/a.patch");
	assert_int_equal(r->patches[0].line, 8);
	assert_true(r->patches[1].range);
	assert_string_equal(r->patches[1].spec, "v6.1.100..my-branch");
	assert_null(r->patches[1].path);
	assert_string_equal(r->patches[2].path, "/abs/b.patch");
	assert_int_equal(r->base, KBUILD_BASE_FILE);
	assert_string_equal(r->base_path, "/boot/config-6.1");
	assert_int_equal(r->base_line, 12);
	assert_int_equal(r->nfragments, 2);
	assert_string_equal(r->fragments[0].path, "kernels/lrubench.config");
	assert_string_equal(r->fragments[1].path, "kernels/extra/more.config");
	assert_int_equal(r->fragments[1].line, 14);
	kbuild_recipe__free(r);
}

/* What a KCIDB checkout can name: an https:// repository and a branch, never a guess. */
static void test_git_url_and_branch(void **state)
{
	char dir[] = "/tmp/lrubench-test-XXXXXX";
	_cleanup_free_ char *cmd = NULL, *u = NULL;
	static const struct {
		const char *ref, *want;
	} refs[] = {
		{ "mm-unstable", "mm-unstable" }, { "refs/heads/for-next", "for-next" },
		{ "HEAD", NULL }, { "v6.12", NULL }, { "v6.13-rc1", NULL },
		{ "refs/tags/x", NULL }, { "0123abc", NULL }, { "deadbeef0123", NULL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(refs); i++) {
		_cleanup_free_ char *b = kb__git_branch_of(refs[i].ref);

		if (refs[i].want)
			assert_string_equal(b, refs[i].want);
		else
			assert_null(b);
	}
	u = kb__git_https_url("https://example.org/linux.git", NULL);
	assert_string_equal(u, "https://example.org/linux.git");
	free(TAKE_PTR(u));
	assert_null(kb__git_https_url("git://example.org/linux.git", NULL));
	assert_non_null(mkdtemp(dir));
	cmd = xasprintf("git init -q %s", dir);
	assert_int_equal(system(cmd), 0);
	assert_null(kb__git_https_url(dir, dir)); /* no origin */
	free(cmd);
	cmd = xasprintf("git -C %s remote add origin git@example.org:linux.git", dir);
	assert_int_equal(system(cmd), 0);
	assert_null(kb__git_https_url(dir, dir)); /* not https */
	free(cmd);
	cmd = xasprintf("git -C %s remote set-url origin https://git.kernel.org/x/linux.git", dir);
	assert_int_equal(system(cmd), 0);
	u = kb__git_https_url(dir, dir);
	assert_string_equal(u, "https://git.kernel.org/x/linux.git");
	free(cmd);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_defaults_and_git(void **state)
{
	struct kbuild_recipe *r = NULL;
	char *err = NULL;

	(void)state;
	/* Only the fragment said: linux-source-6.1, tinyconfig, no patches. */
	assert_int_equal(kbuild_recipe__parse("x.ini", "[config]\nfragment = lrubench.config\n",
					      &r, &err),
			 0);
	assert_int_equal(r->source_kind, KBUILD_SRC_TARBALL);
	assert_string_equal(r->source, KBUILD_DEFAULT_TARBALL);
	assert_int_equal(r->source_line, 0);
	assert_int_equal(r->base, KBUILD_BASE_MINIMAL);
	assert_int_equal(r->npatches, 0);
	assert_int_equal(r->nfragments, 1);
	assert_string_equal(r->name, "x");
	kbuild_recipe__free(r);

	/* A URL stays a URL; a range on a remote source needs a local repo. */
	assert_int_equal(kbuild_recipe__parse("k/g.ini",
					      "[source]\ngit = https://example.org/linux.git\n"
					      "ref = v6.1.100\n[patches]\nrange = a..b\n"
					      "repo = ../linux\n[config]\nbase = defconfig\n"
					      "fragment = lrubench.config\n",
					      &r, &err),
			 0);
	assert_int_equal(r->source_kind, KBUILD_SRC_GIT);
	assert_string_equal(r->source, "https://example.org/linux.git");
	assert_string_equal(r->ref, "v6.1.100");
	assert_string_equal(r->repo, "k/../linux");
	assert_int_equal(r->base, KBUILD_BASE_DEFCONFIG);
	kbuild_recipe__free(r);
}

/* Each bad recipe must fail with exactly this message (file:line: what). */
static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "[sources]\n", "bad.ini:1: unknown section [sources] (recipe, source, patches, config)" },
	{ "[source]\ntarbal = x.tar.xz\n",
	  "bad.ini:2: unknown key 'tarbal' in [source] (tarball, tree, git, ref)" },
	{ "[config]\nbase = minimal\nfragmnet = a.config\n",
	  "bad.ini:3: unknown key 'fragmnet' in [config] (base, fragment)" },
	{ "[patches]\npatches = a.patch\n",
	  "bad.ini:2: unknown key 'patches' in [patches] (patch, range, repo)" },
	{ "base = minimal\n", "bad.ini:1: 'base' outside any section" },
	{ "[config]\nbase = minimal\nbase = defconfig\n",
	  "bad.ini:3: 'base' given twice in [config] (first at line 2)" },
	{ "[config]\nbase = minmal\n",
	  "bad.ini:2: bad base 'minmal' (minimal, defconfig, or the path of a config file, e.g. "
	  "/boot/config-6.1.0-57-cloud-amd64)" },
	{ "[source]\ntarball = a.tar.xz\ntree = /src/linux\n",
	  "bad.ini:3: 'tree': [source] takes one of tarball, tree or git, and line 2 already gave "
	  "one" },
	{ "[source]\n\ngit = /src/linux\n",
	  "bad.ini:3: a git source needs 'ref = BRANCH|TAG|COMMIT' in [source]" },
	{ "[source]\ntree = /src/linux\nref = v6.1\n",
	  "bad.ini:3: 'ref' is only for a git source" },
	{ "[source]\ngit = /src/linux\nref = --upload-pack=x\n",
	  "bad.ini:3: bad ref '--upload-pack=x' (a branch, tag or commit)" },
	{ "[source]\ngit = /src/linux\nref = v6.1 x\n",
	  "bad.ini:3: bad ref 'v6.1 x' (a branch, tag or commit)" },
	{ "[patches]\nrange = a...b\n",
	  "bad.ini:2: bad range 'a...b' (BASE..TIP, e.g. v6.1.100..my-branch)" },
	{ "[patches]\nrange = v6.1\n",
	  "bad.ini:2: bad range 'v6.1' (BASE..TIP, e.g. v6.1.100..my-branch)" },
	{ "[patches]\n# the tarball is no repository\nrange = a..b\n",
	  "bad.ini:3: a range needs a local git repository: the source's, or 'repo = PATH' in "
	  "[patches]" },
	{ "[patches]\npatch = a.patch\nrepo = /src/linux\n",
	  "bad.ini:3: 'repo' is only for 'range' patches" },
	{ "[patches]\npatch =\n", "bad.ini:2: empty value for 'patch'" },
	{ "[patches]\npatch = -R\n", "bad.ini:2: bad patch '-R'" },
	{ "[config\n", "bad.ini:1: bad section header '[config'" },
	{ "[config]\nbase minimal\n", "bad.ini:2: expected 'key = value', got 'base minimal'" },
	/* No fragment (#28): tinyconfig alone, refused by kernel__check after a whole build. */
	{ "", "bad.ini: the recipe sets no config fragment: it needs a [config] section with "
	      "'fragment = lrubench.config' at least (the options lrubench needs)" },
	{ "# only a comment\n[recipe]\ndescription = x\n[source]\ntree = /src/linux\n",
	  "bad.ini: the recipe sets no config fragment: it needs a [config] section with "
	  "'fragment = lrubench.config' at least (the options lrubench needs)" },
	{ "[source]\ngit = /src/linux\nref = v6\x01\xc2\x9b" "31m\n",
	  "bad.ini:3: bad ref 'v6\\x01\\xc2\\x9b31m' (a branch, tag or commit)" },
	{ "[config]\nbase = defconfig\n",
	  "bad.ini: the recipe sets no config fragment: it needs a [config] section with "
	  "'fragment = lrubench.config' at least (the options lrubench needs)" },
};

static void test_bad_recipes(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct kbuild_recipe *r = NULL;
		char *err = NULL;

		assert_int_equal(kbuild_recipe__parse("bad.ini", bad[i].text, &r, &err), -EINVAL);
		assert_null(r);
		assert_non_null(err);
		assert_string_equal(err, bad[i].msg);
		free(err);
	}
}

static void test_shipped_recipes(void **state)
{
	const char *names[] = { "kernels/minimal.ini", "kernels/patched-example.ini" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct kbuild_recipe *r = NULL;
		char *err = NULL;

		if (kbuild_recipe__load(names[i], &r, &err) < 0)
			fail_msg("%s", err);
		assert_int_equal(r->base, KBUILD_BASE_MINIMAL);
		/* lrubench.config comes last, so nothing overrides what lrubench needs. */
		assert_string_equal(r->fragments[r->nfragments - 1].path,
				    "kernels/lrubench.config");
		for (size_t j = 0; j < r->nfragments; j++)
			assert_int_equal(access(r->fragments[j].path, R_OK), 0);
		for (size_t j = 0; j < r->npatches; j++)
			assert_int_equal(access(r->patches[j].path, R_OK), 0);
		assert_int_equal(r->npatches, i);
		kbuild_recipe__free(r);
	}
}

static const char resolved[] = "CONFIG_64BIT=y\n"
				"CONFIG_MEMCG=y\n"
				"# CONFIG_LRU_GEN is not set\n"
				"CONFIG_NR_CPUS=64\n"
				"CONFIG_ZRAM=m\n"
				"CONFIG_ZRAM_DEF_COMP=\"lzo-rle\"\n";

static void test_config_verify(void **state)
{
	const char *names[] = { "a.config", "b.config" };
	const char *ok[] = {
		"CONFIG_64BIT=y\n# CONFIG_LRU_GEN is not set\n# CONFIG_SWAP is not set\n",
		"CONFIG_NR_CPUS=64\nCONFIG_ZRAM_DEF_COMP=\"lzo-rle\"\n",
	};
	const char *lost[] = { "CONFIG_MEMCG=y\nCONFIG_LRU_GEN=y\n# comment\nCONFIG_ZRAM=y\n",
			       "# CONFIG_MEMCG is not set\nCONFIG_NR_CPUS=8\n" };
	/* The last fragment wins: b turns LRU_GEN off again, as the result has it. */
	const char *override[] = { "CONFIG_LRU_GEN=y\n", "# CONFIG_LRU_GEN is not set\n" };
	char *err = NULL;

	(void)state;
	assert_int_equal(kbuild_config_verify(resolved, names, ok, 2, &err), 0);
	assert_null(err);
	assert_int_equal(kbuild_config_verify(resolved, names, override, 2, &err), 0);
	assert_int_equal(kbuild_config_verify(resolved, names, lost, 2, &err), -ENOTSUP);
	assert_string_equal(err, "CONFIG_MEMCG unset (b.config:1) became CONFIG_MEMCG=y; "
				 "CONFIG_LRU_GEN=y (a.config:2) became not set; "
				 "CONFIG_ZRAM=y (a.config:4) became CONFIG_ZRAM=m; "
				 "CONFIG_NR_CPUS=8 (b.config:2) became CONFIG_NR_CPUS=64");
	free(err);
}

static void test_kernel_spec(void **state)
{
	char *p;

	(void)state;
	assert_int_equal(kernel_spec_kind("debian"), KERNEL_SPEC_DEBIAN);
	assert_int_equal(kernel_spec_kind("debian-6.1"), KERNEL_SPEC_DEBIAN);
	assert_int_equal(kernel_spec_kind("debian-6.12"), KERNEL_SPEC_DEBIAN);
	/* An unknown series is a recipe name, not a Debian kernel. */
	assert_int_equal(kernel_spec_kind("debian-9.9"), KERNEL_SPEC_RECIPE);
	assert_string_equal(kernel__debian_spec_series("debian"), "6.1");
	assert_string_equal(kernel__debian_spec_series("debian-6.12"), "6.12");
	assert_int_equal(kernel_spec_kind("minimal"), KERNEL_SPEC_RECIPE);
	assert_int_equal(kernel_spec_kind("my.kernel-2"), KERNEL_SPEC_RECIPE);
	assert_int_equal(kernel_spec_kind("../r/x.ini"), KERNEL_SPEC_RECIPE);
	assert_int_equal(kernel_spec_kind("./bzImage"), KERNEL_SPEC_IMAGE);
	assert_int_equal(kernel_spec_kind("/boot/vmlinuz-6.1"), KERNEL_SPEC_IMAGE);
	assert_int_equal(kernel_spec_kind("my kernel"), KERNEL_SPEC_BAD);
	assert_int_equal(kernel_spec_kind(""), KERNEL_SPEC_BAD);
	assert_int_equal(kernel_spec_kind(".ini"), KERNEL_SPEC_RECIPE);
	p = kernel_spec_recipe_path("minimal", "kernels");
	assert_string_equal(p, "kernels/minimal.ini");
	free(p);
	p = kernel_spec_recipe_path("../r/x.ini", "kernels");
	assert_string_equal(p, "../r/x.ini");
	free(p);
}

/* A scratch directory: a fake kernel tree (Makefile, Kconfig) and a cache. */
static char scratch[] = "/tmp/test-kbuild.XXXXXX";

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -EIO;
}

static int scratch_setup(void **state)
{
	char *p;

	(void)state;
	strcpy(scratch, "/tmp/test-kbuild.XXXXXX");
	if (!mkdtemp(scratch))
		return -1;
	p = xasprintf("%s/linux", scratch);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/linux/Makefile", scratch);
	put(p, "VERSION = 6\n");
	free(p);
	p = xasprintf("%s/linux/Kconfig", scratch);
	put(p, "mainmenu \"x\"\n");
	free(p);
	p = xasprintf("%s/a.config", scratch);
	put(p, "CONFIG_MEMCG=y\n");
	free(p);
	return 0;
}

static int scratch_teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", "--", scratch, NULL };

	(void)state;
	return spawn_run(argv, NULL) == 0 ? 0 : -1;
}

static void expect_build_error(const char *text, const char *expect)
{
	_cleanup_free_ char *path = xasprintf("%s/r.ini", scratch);
	_cleanup_free_ char *cache = xasprintf("%s/cache", scratch);
	_cleanup_free_ char *want = xasprintf(expect, scratch, scratch);
	struct kbuild_recipe *r = NULL;
	struct kbuild *b = NULL;
	struct kbuild_opts o = { .cache_dir = cache };
	char *err = NULL;

	assert_int_equal(put(path, text), 0);
	if (kbuild_recipe__load(path, &r, &err) < 0)
		fail_msg("%s", err);
	assert_true(kbuild__build(r, &o, &b, &err) < 0);
	assert_null(b);
	assert_non_null(err);
	assert_string_equal(err, want);
	free(err);
	kbuild_recipe__free(r);
}

/* Errors found before anything is extracted or compiled name the recipe's line. */
static void test_build_input_errors(void **state)
{
	(void)state;
	expect_build_error("[source]\ntree = linux\n[patches]\npatch = nope.patch\n"
			   "[config]\nfragment = a.config\n",
			   "%s/r.ini:4: patch %s/nope.patch: No such file or directory");
	expect_build_error("[source]\ntree = linux\n[config]\nbase = conf/config-x\n"
			   "fragment = a.config\n",
			   "%s/r.ini:4: base config %s/conf/config-x: No such file or directory");
	expect_build_error("[source]\ntree = linux\n[config]\nbase = minimal\n"
			   "fragment = a.config\nfragment = gone.config\n",
			   "%s/r.ini:6: fragment %s/gone.config: No such file or directory");
	expect_build_error("[source]\ntree = nowhere\n[config]\nfragment = a.config\n",
			   "%s/r.ini:2: source tree %s/nowhere: No such file or directory");
	expect_build_error("[source]\ntarball = none.tar.xz\n[config]\nfragment = a.config\n",
			   "%s/r.ini:2: source tarball %s/none.tar.xz: No such file or directory");
}

/* A recipe is a regular text file (#28): a FIFO blocked open, a NUL cut the text short. */
static void test_recipe_files(void **state)
{
	_cleanup_free_ char *fifo = xasprintf("%s/fifo.ini", scratch);
	_cleanup_free_ char *nul = xasprintf("%s/nul.ini", scratch);
	_cleanup_free_ char *want = NULL;
	static const char text[] = "[source]\ntree = linux\n[con\0fig]\nfragment = a.config\n";
	struct kbuild_recipe *r = NULL;
	char *err = NULL;
	FILE *f;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(kbuild_recipe__load(fifo, &r, &err), -EINVAL);
	assert_null(r);
	want = xasprintf("kernel recipe %s: a FIFO, not a regular file", fifo);
	assert_string_equal(err, want);
	free(err);
	free(want);
	assert_int_equal(kbuild_recipe__load(scratch, &r, &err), -EINVAL);
	want = xasprintf("kernel recipe %s: a directory, not a regular file", scratch);
	assert_string_equal(err, want);
	free(err);
	free(want);
	f = fopen(nul, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f), sizeof(text) - 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(kbuild_recipe__load(nul, &r, &err), -EINVAL);
	assert_null(r);
	want = xasprintf("%s:3: a NUL byte: a recipe is text", nul);
	assert_string_equal(err, want);
	free(err);
}

/* A bzImage-looking file: setup 2 sectors, syssize paragraphs, version at 0x500. */
static char *fake_image(const char *name, uint32_t syssize, const char *version, size_t size)
{
	char *path = xasprintf("%s/%s", scratch, name);
	unsigned char *img = xcalloc(1, size);
	FILE *f;

	img[0x1f1] = 1;
	img[0x1f4] = (unsigned char)syssize;
	img[0x1f5] = (unsigned char)(syssize >> 8);
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00; /* the version at 0x300 + 0x200 */
	img[0x20f] = 0x03;
	memcpy(img + 0x500, version, strlen(version) + 1);
	f = fopen(path, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	free(img);
	return path;
}

/* A truncated kernel and one whose version string is not text are named as such. */
static void test_image_checks(void **state)
{
	_cleanup_free_ char *whole = fake_image("whole", 16, "6.1.0-test (t@t) #1 SMP", 0x600);
	_cleanup_free_ char *cut = fake_image("cut", 64, "6.1.0-test (t@t) #1 SMP", 0x600);
	_cleanup_free_ char *junk = fake_image("junk", 16, "6.1\x01\x1b[2J", 0x600);
	_cleanup_free_ char *want = NULL;
	struct kernel *k = NULL;
	char *err = NULL;

	(void)state;
	/* whole: the boot header is fine; what fails next is the missing config */
	assert_true(kernel__open(whole, NULL, NULL, &k, &err) < 0);
	assert_null(strstr(err, "truncated"));
	assert_null(strstr(err, "not a kernel"));
	free(err);
	err = NULL;
	/* 1024 bytes of setup + 64 x 16 of code = 2048, the file has 0x600 = 1536 */
	assert_int_equal(kernel__open(cut, NULL, NULL, &k, &err), -EINVAL);
	want = xasprintf("%s: truncated: its boot header says 2048 bytes, the file has 1536", cut);
	assert_string_equal(err, want);
	free(err);
	err = NULL;
	free(want);
	assert_int_equal(kernel__open(junk, NULL, NULL, &k, &err), -EINVAL);
	want = xasprintf("%s: not a kernel: the version string at 0x500 is not text ('6.1\\x01')",
			 junk);
	assert_string_equal(err, want);
	free(err);
	assert_null(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_recipe),
		cmocka_unit_test(test_defaults_and_git),
		cmocka_unit_test(test_git_url_and_branch),
		cmocka_unit_test(test_bad_recipes),
		cmocka_unit_test(test_shipped_recipes),
		cmocka_unit_test(test_config_verify),
		cmocka_unit_test(test_kernel_spec),
		cmocka_unit_test_setup_teardown(test_build_input_errors, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_recipe_files, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_image_checks, scratch_setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
