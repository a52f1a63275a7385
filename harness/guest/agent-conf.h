/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run configuration the host puts in the initramfs (PROTOCOL.md section
 * 1): parsed from a buffer into plain arrays, checked as a whole, errors kept
 * with their line so the agent can report them once its channel is open.
 */
#ifndef LRUBENCH_AGENT_CONF_H
#define LRUBENCH_AGENT_CONF_H

#include "mempolicy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONF_NAME_MAX 64

enum fault_kind { FAULT_NONE, FAULT_HANG, FAULT_PANIC, FAULT_CRASH, FAULT_GARBAGE };

/* The working-set probe's methods (wss_methods, agent-wss.c), a bit each. */
enum { WSS_GEN = 1, WSS_REF = 2, WSS_RECLAIM = 4, WSS_DROP = 8 };

struct conf_kv {		/* a "path=value" line (sysctl, sysfs) or a memcg file */
	char *key;
	char *value;
	unsigned line;
};

struct conf_memcg {
	char *name;
	struct conf_kv *files;	/* memory.max=..., in run.conf order */
	size_t n_files;
};

struct conf_workload {
	char *name;
	char *memcg;		/* NULL: the root cgroup */
	char **argv;		/* NULL-terminated; argv[0] is the binary */
	size_t argc;
	uint64_t start_ms;
	size_t *after;		/* indices of the workloads it waits for (they exit first) */
	size_t n_after;
	struct mempolicy mempolicy; /* set before exec; MPOL_DEFAULT (0): the kernel's */
	uint64_t cpus;		/* its CPU affinity, bit N: CPU N; 0: any */
};

struct agent_conf {
	char *run;
	char **modules;
	size_t n_modules;
	bool has_lru_enabled, has_min_ttl_ms;
	unsigned lru_enabled;
	uint64_t min_ttl_ms;
	struct conf_kv *sysctls, *sysfs;
	size_t n_sysctls, n_sysfs;
	char **readbacks;	/* paths below /proc/sys to read and report, e.g. vm/swappiness */
	size_t n_readbacks;
	uint64_t zram_size;
	char *zram_comp;
	char *cgroup2_options;	/* mount data, e.g. nsdelegate,memory_recursiveprot; NULL or "none": none */
	uint64_t interval_ms;
	char *tools_disk;	/* virtio-blk serial of the tools disk, mounted at /tools */
	char *scratch_disk;	/* and of the scratch disk, mounted at /scratch */
	bool has_scratch_read_ahead_kb;
	uint64_t scratch_read_ahead_kb;
	struct conf_memcg *memcgs;
	size_t n_memcgs;
	struct conf_workload *workloads;
	size_t n_workloads;
	enum fault_kind fault;
	uint64_t fault_at_ms;
	bool final_dump;
	uint64_t numa_nodes;	/* NUMA nodes the plan asked for; 0: not said (no check) */
	uint64_t calibrate_ms;	/* a busy loop of this many guest ms, then power off (0: none) */
	bool trace_reclaim;	/* trace=reclaim: stall histograms from the vmscan tracepoints */
	/* the working-set probe: wss_windows windows of wss_window_ms from wss_start_ms */
	uint64_t wss_start_ms, wss_window_ms, wss_windows;
	unsigned wss_methods; /* WSS_* bits; 0: no probe */

	/* "run.conf:LINE: what" for each problem found, in line order (problems
	 * of the file as a whole last). */
	char **errors;
	unsigned *error_lines;
	size_t n_errors;
};

/* Parse a run.conf held in buf (need not be NUL-terminated). Never fails:
 * problems land in conf->errors and the caller decides. *ret must be freed
 * with agent_conf_free(). */
void agent_conf_parse(const char *buf, size_t len, struct agent_conf **ret);
void agent_conf_free(struct agent_conf *conf);

const char *fault_kind_name(enum fault_kind kind);

/* Index of the memcg named name, or -1. */
int agent_conf_memcg_index(const struct agent_conf *conf, const char *name);

/* A name as PROTOCOL.md allows for memcgs and workloads: [A-Za-z0-9._-]+. */
bool conf_name_valid(const char *s);

#endif
