/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build tree of a kernel series, kept between builds: CACHE/ws-SERIES/
 * with src/ (the tree make compiles) and obj/ (make's O= directory).
 *
 * A kernel developer rebuilds one tree after a change; lrubench does the
 * same. Before each build, src/ is made equal to the tree the build is of
 * (the pristine source with the recipe's patches applied, or another commit
 * of the same series): files whose content is the same keep their inode and
 * their time, files that differ are written anew (a new inode, the time of
 * now), files the tree lacks are removed. make then recompiles what those
 * files and the config touch, and relinks: a one-patch recipe after its
 * baseline, or the next commit of a bisection, costs a minute, not the four
 * that recompiling everything through ccache takes here.
 *
 * A workspace marked busy when its build never finished (the process was
 * killed) is thrown away and started afresh: nothing of an unknown state is
 * ever reused. The caller holds the kernel cache's lock.
 */
#ifndef LRUBENCH_KERNEL_WORKSPACE_H
#define LRUBENCH_KERNEL_WORKSPACE_H

#include <stdbool.h>

struct kws {
	char *dir; /* CACHE/ws-SERIES */
	char *src, *obj;
	bool fresh; /* created for this build: everything compiles */
	/* what making src/ equal to the build's tree did */
	unsigned same, written, removed;
};

/*
 * The workspace of series (e.g. "6.1") in cache for a build of tree, whose
 * resolved config is the file config: src/ synced to tree, obj/.config
 * replaced when its content differs, the workspace marked busy. fresh: start
 * a new one even when a usable one is there (--force). 0 or -errno with
 * *ret_err set.
 */
int kws__prepare(const char *cache, const char *series, const char *tree, const char *config,
		 bool fresh, struct kws **ret, char **ret_err);
/*
 * make ran to its end (exit status status): the workspace is whole again,
 * whatever make said; a make killed by a signal (status >= 128) or that did
 * not start leaves it busy, to be thrown away by the next build.
 */
void kws__done(struct kws *w, int status);
void kws__free(struct kws *w);
void kws__freep(struct kws **w);

/* "6.1" of a source version "6.1.192" (malloc'd); "unknown" when it has no dot. */
char *kws_series(const char *version);

#endif
