/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files and trees on the host: what a path is, where a program is, write a
 * buffer to a new file, copy a file, remove a tree. Each returns 0 or -errno
 * and prints nothing: the caller names the file in its message.
 */
#ifndef LRUBENCH_FILES_H
#define LRUBENCH_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether p is (after symbolic links) a directory; a regular file. */
bool files__is_dir(const char *p);
bool files__is_file(const char *p);
/* The first executable named name in $PATH (malloc'd), or NULL. */
char *files__which(const char *name);

/* Create (or truncate) path with mode and write len bytes of buf to it. */
int files__write(const char *path, const void *buf, size_t len, mode_t mode);
/* Copy the file from to the file to (created or truncated, with mode). */
int files__copy(const char *from, const char *to, mode_t mode);
/* rm -rf path: 0, or -EIO when rm failed. A missing path is no error. */
int files__rm_rf(const char *path);

#endif
