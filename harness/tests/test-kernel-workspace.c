// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel series' workspace (kernel-workspace.c): what make's time rule
 * needs of the sync. A file whose bytes do not change keeps its inode and its
 * time; a file that changes is written anew with a later time and never in
 * place (the pristine tree behind a hard link stays as it was); files the
 * tree lacks go; a build that never finished throws the workspace away.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "kernel-workspace.h"
#include "util.h"

static char root[] = "/tmp/lrubench-kws.XXXXXX";

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = at(rel);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static struct stat st_of(const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	return st;
}

static bool exists(const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	struct stat st;

	return lstat(p, &st) == 0;
}

static char *text_of(const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	char *t = NULL;

	assert_int_equal(read_file(p, 1 << 20, &t, NULL), 0);
	return t;
}

/* Every file of the workspace an hour old: what make saw when it last built. */
static void age(const char *rel)
{
	_cleanup_free_ char *p = at(rel);
	static struct timeval hour_ago;
	struct timeval tv[2];

	if (!hour_ago.tv_sec) {
		gettimeofday(&hour_ago, NULL);
		hour_ago.tv_sec -= 3600;
	}
	tv[0] = tv[1] = hour_ago;
	assert_int_equal(lutimes(p, tv), 0);
}

static int setup(void **state)
{
	_cleanup_free_ char *tree = NULL;

	(void)state;
	strcpy(root, "/tmp/lrubench-kws.XXXXXX");
	assert_non_null(mkdtemp(root));
	tree = at("tree/mm");
	assert_int_equal(mkdir_p(tree), 0);
	put("tree/Makefile", "VERSION = 6\n");
	put("tree/mm/vmscan.c", "int vm_swappiness = 60;\n");
	put("tree/mm/memory.c", "/* memory */\n");
	put("tree/gone.c", "/* removed later */\n");
	put("config", "CONFIG_LRU_GEN=y\n");
	{
		_cleanup_free_ char *l = at("tree/link");

		assert_int_equal(symlink("mm/memory.c", l), 0);
	}
	return 0;
}

static int teardown(void **state)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", root);

	(void)state;
	assert_int_equal(system(cmd), 0);
	return 0;
}

static struct kws *prepare(bool fresh)
{
	_cleanup_free_ char *tree = at("tree"), *config = at("config"), *err = NULL;
	struct kws *w = NULL;

	assert_int_equal(kws__prepare(root, "6.1", tree, config, fresh, &w, &err), 0);
	assert_null(err);
	return w;
}

static void test_sync(void **state)
{
	struct kws *w;
	struct stat vm0, mem0, vm1, mem1, pristine;
	_cleanup_free_ char *t = NULL, *c = NULL;

	(void)state;
	w = prepare(false);
	assert_true(w->fresh);
	/* A fresh workspace links the tree's files: same inodes. */
	assert_int_equal(st_of("ws-6.1/src/mm/vmscan.c").st_ino, st_of("tree/mm/vmscan.c").st_ino);
	assert_true(S_ISLNK(st_of("ws-6.1/src/link").st_mode));
	c = text_of("ws-6.1/obj/.config");
	assert_string_equal(c, "CONFIG_LRU_GEN=y\n");
	assert_true(exists("ws-6.1/.lrubench-busy"));
	kws__done(w, 0);
	assert_false(exists("ws-6.1/.lrubench-busy"));
	kws__free(w);

	/* The tree changes: a patch writes vmscan.c anew, gone.c goes, new.c comes. */
	age("ws-6.1/src/mm/memory.c");
	age("ws-6.1/src/mm/vmscan.c");
	age("ws-6.1/obj/.config");
	vm0 = st_of("ws-6.1/src/mm/vmscan.c");
	mem0 = st_of("ws-6.1/src/mm/memory.c");
	pristine = st_of("tree/mm/vmscan.c");
	{
		_cleanup_free_ char *p = at("tree/mm/vmscan.c"), *g = at("tree/gone.c");

		assert_int_equal(unlink(p), 0); /* as patch(1) does: a new file */
		assert_int_equal(unlink(g), 0);
	}
	put("tree/mm/vmscan.c", "int vm_swappiness = 100;\n");
	put("tree/new.c", "/* new */\n");
	w = prepare(false);
	assert_false(w->fresh);
	vm1 = st_of("ws-6.1/src/mm/vmscan.c");
	mem1 = st_of("ws-6.1/src/mm/memory.c");
	/* changed: a new inode, a later time, the new bytes; the old inode untouched */
	assert_int_not_equal(vm1.st_ino, vm0.st_ino);
	assert_true(vm1.st_mtime > vm0.st_mtime);
	t = text_of("ws-6.1/src/mm/vmscan.c");
	assert_string_equal(t, "int vm_swappiness = 100;\n");
	assert_int_equal(vm0.st_ino, pristine.st_ino);
	/* unchanged: same inode, same time */
	assert_int_equal(mem1.st_ino, mem0.st_ino);
	assert_int_equal(mem1.st_mtime, mem0.st_mtime);
	assert_false(exists("ws-6.1/src/gone.c"));
	assert_true(exists("ws-6.1/src/new.c"));
	/* the same config: obj/.config keeps its time */
	assert_int_equal(st_of("ws-6.1/obj/.config").st_mtime, mem0.st_mtime);
	assert_int_equal(w->removed, 1);
	assert_int_equal(w->written, 2); /* vmscan.c and new.c */
	kws__done(w, 2);		 /* make failed, but ran to its end */
	kws__free(w);

	/* Same bytes in another inode (another export of the same commit): kept. */
	age("ws-6.1/src/mm/vmscan.c");
	vm0 = st_of("ws-6.1/src/mm/vmscan.c");
	{
		_cleanup_free_ char *p = at("tree/mm/vmscan.c");

		assert_int_equal(unlink(p), 0);
	}
	put("tree/mm/vmscan.c", "int vm_swappiness = 100;\n");
	put("config", "CONFIG_LRU_GEN=n\n");
	w = prepare(false);
	assert_int_equal(w->written, 0);
	assert_int_equal(st_of("ws-6.1/src/mm/vmscan.c").st_ino, vm0.st_ino);
	assert_int_equal(st_of("ws-6.1/src/mm/vmscan.c").st_mtime, vm0.st_mtime);
	/* other write bits (git archive's 0664 against a tarball's 0644): kept; an
	 * execute bit that changes: written anew */
	{
		_cleanup_free_ char *m = at("tree/mm/memory.c"), *k = at("tree/Makefile");

		/* new files (another export), the same bytes */
		assert_int_equal(unlink(m), 0);
		assert_int_equal(unlink(k), 0);
		put("tree/mm/memory.c", "/* memory */\n");
		put("tree/Makefile", "VERSION = 6\n");
		assert_int_equal(chmod(m, 0664), 0);
		assert_int_equal(chmod(k, 0755), 0);
	}
	kws__done(w, 0);
	kws__free(w);
	mem0 = st_of("ws-6.1/src/mm/memory.c");
	w = prepare(false);
	assert_int_equal(st_of("ws-6.1/src/mm/memory.c").st_ino, mem0.st_ino);
	assert_int_equal(w->written, 1); /* the Makefile, now executable */
	assert_true(st_of("ws-6.1/src/Makefile").st_mode & 0100);
	/* another config: written anew */
	free(c);
	c = text_of("ws-6.1/obj/.config");
	assert_string_equal(c, "CONFIG_LRU_GEN=n\n");
	/* killed mid-build: the next build starts afresh */
	kws__done(w, 128 + 9);
	kws__free(w);
	put("ws-6.1/obj/half-written.o", "");
	w = prepare(false);
	assert_true(w->fresh);
	assert_false(exists("ws-6.1/obj/half-written.o"));
	kws__done(w, 0);
	kws__free(w);
	/* --force: afresh too */
	w = prepare(true);
	assert_true(w->fresh);
	kws__done(w, 0);
	kws__free(w);
}

static void test_series(void **state)
{
	_cleanup_free_ char *a = kws_series("6.1.192"), *b = kws_series("6.12.118"),
			    *c = kws_series("6.13-rc1"), *d = kws_series("unknown");

	(void)state;
	assert_string_equal(a, "6.1");
	assert_string_equal(b, "6.12");
	assert_string_equal(c, "6.13");
	assert_string_equal(d, "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sync, setup, teardown),
		cmocka_unit_test(test_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
