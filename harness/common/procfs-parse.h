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
 * One memcg of a lru_gen text, for the working-set probe (agent-wss.c): its
 * id and, per node, its generations (at most PROCFS_LRU_GEN_NODES nodes and
 * PROCFS_LRU_GEN_GENS generations each, more are counted in ret_bad). path
 * is the memcg's as lru_gen prints it ("/wl"). 0, or -ENOENT if the memcg
 * is not listed.
 */
#define PROCFS_LRU_GEN_NODES 8
#define PROCFS_LRU_GEN_GENS 16
struct procfs_lru_gen_memcg {
	unsigned memcg_id;
	size_t n_nodes;
	struct procfs_lru_gen_node {
		int node;
		size_t n_gens;
		struct procfs_lru_gen_gen {
			uint64_t seq, anon, file;
		} gen[PROCFS_LRU_GEN_GENS];
	} node[PROCFS_LRU_GEN_NODES];
};
int procfs_lru_gen_memcg(const char *buf, size_t len, const char *path,
			 struct procfs_lru_gen_memcg *ret, unsigned *ret_bad);
/* The youngest generation's seq of a node (its max_seq); 0 if it has none. */
uint64_t procfs_lru_gen_max_seq(const struct procfs_lru_gen_node *n);
/*
 * The pages an aging window put in the generations (PROTOCOL.md, wss): read
 * after the aging that ended the window (cur) against the read after the
 * aging that began it (prev), the generations from prev's youngest up to
 * cur's youngest, which is left out (it is new and belongs to the next
 * window), summed over the nodes both list.
 */
void procfs_lru_gen_window(const struct procfs_lru_gen_memcg *prev,
			   const struct procfs_lru_gen_memcg *cur, uint64_t *ret_anon,
			   uint64_t *ret_file);
/* Every generation of every node summed. */
void procfs_lru_gen_total(const struct procfs_lru_gen_memcg *m, uint64_t *ret_anon,
			  uint64_t *ret_file);

/*
 * /proc/PID/smaps: the Referenced kB of the VMAs, split by backing: a VMA
 * whose inode (the header's fifth field) is 0 is anonymous (heap, stack,
 * private anonymous maps), any other file-backed (its COW'd anon pages
 * included). 0, or -EINVAL if no VMA was read.
 */
struct procfs_smaps_ref {
	uint64_t anon_kb, file_kb;
	unsigned vmas;
};
int procfs_parse_smaps_ref(const char *buf, size_t len, struct procfs_smaps_ref *ret,
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

/*
 * /proc/PID/schedstat, "RUN WAIT SLICES": the time the task ran on a CPU,
 * in ns (its sum_exec_runtime; the file exists with CONFIG_SCHED_INFO),
 * where /proc/PID/stat's utime and stime count clock ticks. 0 or -EINVAL.
 */
int procfs_parse_schedstat(const char *buf, size_t len, uint64_t *ret_run_ns);

#endif
