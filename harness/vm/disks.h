/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's disks, each a virtio-blk device the agent finds by its serial
 * (PROTOCOL.md, run.conf keys tools_disk and scratch_disk). A plan gets
 * them only when one of its workloads needs them (catalogue rows: scratch,
 * tools):
 *
 * - the tools disk: the host programs the catalogue's workloads run (fio,
 *   sysbench), the shared libraries ldd(1) names for them and the dynamic
 *   loader, in a read-only ext4 image (mkfs.ext4 -d) cached by content hash
 *   like the initramfs; the agent mounts it at /tools and workloads run
 *   /tools/lib/LOADER --library-path /tools/lib /tools/bin/PROGRAM;
 * - the scratch disk: a sparse file made fresh for every run by mkfs.ext4,
 *   mounted at /scratch, so file workloads have page cache backed by a
 *   block device as on a real machine (tmpfs would be swap-backed).
 */
#ifndef LRUBENCH_DISKS_H
#define LRUBENCH_DISKS_H

#include <stddef.h>
#include <stdint.h>

struct workload_def;

#define DISK_SERIAL_TOOLS "lrubench-tools"
#define DISK_SERIAL_SCRATCH "lrubench-scratch"

struct tools_image {
	char *path;    /* the cached ext4 image */
	char hash[65]; /* its content hash (the cache key) */
	size_t nfiles;
};

/*
 * Build (or find in cache_dir) the tools image holding the programs that the
 * n workloads of defs name (their catalogue rows' tools), found in PATH,
 * with their libraries: a plan needs only its own workloads' tools.
 */
int tools_image__get(const char *cache_dir, const struct workload_def *const *defs, size_t n,
		     struct tools_image **ret, char **ret_err);
void tools_image__free(struct tools_image *t);
void tools_image__freep(struct tools_image **t);

/* A fresh sparse file of bytes at path with an empty ext4 file system on it. */
int scratch_disk__create(const char *path, uint64_t bytes, char **ret_err);

/*
 * The shared objects in ldd(1)'s output: for each, the name it is loaded by
 * (the soname, or the loader's file name) and the host path. Pure: for tests.
 * -ENOENT with *ret_err naming the library if ldd says "not found".
 */
struct ldd_lib {
	char *name, *path;
};
int ldd_parse(const char *text, struct ldd_lib **ret, size_t *ret_n, char **ret_err);
void ldd_libs_free(struct ldd_lib *libs, size_t n);

#endif
