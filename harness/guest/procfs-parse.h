/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure parsers for the kernel files the guest agent samples: a buffer in,
 * values out through a structure or a callback, no I/O and no allocation.
 * The host's unit tests feed them files captured from real guests.
 *
 * Every parser is defensive: a line it cannot read is skipped and counted
 * (a patched kernel may print anything), never fatal. The buffer need not be
 * NUL-terminated; a last line without '\n' is parsed like the others.
 *
 * Callbacks return 0 to go on or a negative errno to stop; the parser then
 * returns that value.
 */
#ifndef LRUBENCH_PROCFS_PARSE_H
#define LRUBENCH_PROCFS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One "key value" pair; key is not NUL-terminated. */
typedef int (*procfs_kv_fn)(void *arg, const char *key, size_t key_len, int64_t value);

/*
 * Flat "key value" files: /proc/vmstat, memory.stat, memory.events.
 * Calls fn for each well-formed line in file order. Returns 0 or fn's error;
 * *ret_bad (if not NULL) gets the number of lines skipped as malformed.
 */
int procfs_parse_flat(const char *buf, size_t len, procfs_kv_fn fn, void *arg, unsigned *ret_bad);

/* A file holding one unsigned integer (memory.current). 0 or -EINVAL. */
int procfs_parse_u64(const char *buf, size_t len, uint64_t *ret);

/*
 * PSI files (/proc/pressure/{memory,io,cpu}, memory.pressure):
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=123
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=45
 * total is in microseconds. A missing "full" line (cpu on kernels before
 * 5.13) leaves has_full false. Returns 0 if at least "some" was read, else
 * -EINVAL.
 */
struct procfs_psi {
	bool has_some, has_full;
	int64_t some_total, full_total;
};
int procfs_parse_psi(const char *buf, size_t len, struct procfs_psi *ret);

/*
 * /sys/kernel/debug/lru_gen (mm/vmscan.c lru_gen_seq_show):
 *   memcg    ID PATH          (printed for the first memory node only)
 *    node     N
 *           SEQ     AGE_MS       ANON        FILE   (one line per generation)
 * The lru_gen_full variant's tier and mm-walk rows (a different field count)
 * are skipped, and its 'x' marks after ANON and FILE are accepted.
 */
struct procfs_lru_gen_row {
	unsigned memcg_id;
	int node;
	uint64_t seq;
	uint64_t age_ms;
	uint64_t anon, file;	/* pages */
	const char *path;	/* the memcg's path ("/" for the root), not NUL-terminated */
	size_t path_len;
};
typedef int (*procfs_lru_gen_fn)(void *arg, const struct procfs_lru_gen_row *row);
int procfs_parse_lru_gen(const char *buf, size_t len, procfs_lru_gen_fn fn, void *arg,
			 unsigned *ret_bad);

/*
 * /proc/PID/stat: the comm (between the first '(' and the last ')', so a comm
 * holding spaces or parentheses is read right) and utime, stime (fields 14
 * and 15, clock ticks). 0 or -EINVAL.
 */
struct procfs_pid_stat {
	char comm[64];
	char state;
	uint64_t utime, stime;
};
int procfs_parse_pid_stat(const char *buf, size_t len, struct procfs_pid_stat *ret);

#endif
