/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a workload reads of the kernel about itself and its memcg, and the
 * file helpers the file workloads share. Functions return 0 or -errno and
 * print nothing; the workload reports what it could not read.
 */
#ifndef LRUBENCH_WL_SYS_H
#define LRUBENCH_WL_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WL_CGROUP_ROOT "/sys/fs/cgroup"

/* This process's cgroup: its directory ("/sys/fs/cgroup/wl"), its path below the root ("/wl"). */
int wl_memcg_self(char *dir, size_t dir_len, char *rel, size_t rel_len);

/* The value of key in the text of a flat "key value" file (memory.stat, /proc/vmstat). Pure. */
int wl_flat_get(const char *text, const char *key, int64_t *ret);
/* The same, read from path. */
int wl_flat_read(const char *path, const char *key, int64_t *ret);
/* A file of this process's memcg, e.g. wl_memcg_read("memory.stat", "pgsteal", &v). */
int wl_memcg_read(const char *file, const char *key, int64_t *ret);

/*
 * Bytes this process's cgroup read from the block device holding path
 * (io.stat rbytes: bios issued on its behalf, readahead included; 0 when
 * the device has no line yet). -ENOENT when the io controller is not
 * enabled for the cgroup (no io.stat).
 */
int wl_io_read_bytes(const char *path, uint64_t *ret);
/* rbytes of device maj:min in the text of an io.stat file (0 if it has no line). Pure. */
int wl_io_stat_rbytes(const char *text, unsigned maj, unsigned min, uint64_t *ret);
/* The "some ... total=N" stall time of a PSI file (/proc/pressure/memory), in us. */
int wl_psi_some_us(const char *path, uint64_t *ret);
/* CPU time of every kswapd thread, in ns: /proc/PID/schedstat's run time, else
 * utime + stime in clock ticks (10 ms steps). */
int wl_kswapd_cpu_ns(uint64_t *ret);
/* MemTotal of /proc/meminfo in bytes. */
int wl_mem_total(uint64_t *ret);
/* Whether MGLRU is on (/sys/kernel/mm/lru_gen/enabled is not 0). */
bool wl_mglru_on(void);

/* A memcg's pages per type in /sys/kernel/debug/lru_gen, over all nodes. */
struct wl_gen_sizes {
	uint64_t anon, file;		 /* in every generation */
	uint64_t young_anon, young_file; /* in the youngest generation of each node */
	unsigned ngens;			 /* generations seen (all nodes) */
};
/* From the text of the lru_gen file, the memcg whose path is rel ("/wl"). Pure.
 * -ENOENT if it is absent. */
int wl_lru_gen_parse(const char *text, const char *rel, struct wl_gen_sizes *ret);
int wl_lru_gen_read(const char *rel, struct wl_gen_sizes *ret);

/*
 * Create path holding bytes of PRNG content, synced and dropped from the
 * page cache so that the file starts cold.
 */
int wl_file_create(const char *path, uint64_t bytes, uint64_t seed);
/* Write back and drop an open file's cached pages. */
int wl_file_drop(int fd);
/* mkdir -p dir. */
int wl_dir_make(const char *dir);

#endif
