/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plans: INI files in the spirit of fio job files (the files in workloads/plans/).
 *
 *   [campaign]        name, repetitions (N or auto), min_repetitions, max_repetitions,
 *                     max_time, seed, interval, timeout, baseline, retries, warmup
 *   [guest]           memory, cpus, swap, swap_size, zram_comp, thp, cmdline, scratch_size,
 *                     cgroup2_options (default nsdelegate,memory_recursiveprot, as systemd),
 *                     trace (on: reclaim stall histograms from the vmscan tracepoints),
 *                     clock (real: guest time follows the host's; instructions: it
 *                     advances per executed instruction, QEMU's -icount), clock_sleep
 *   [variant NAME]    kernel, lru, min_ttl_ms, thp, read_ahead_kb, fault_around_bytes,
 *                     trace, sysctl.<path>,
 *                     config, modules, memcg.<memcg>.<file> (this variant's value of a
 *                     [memcg] file)
 *   [memcg NAME]      any memory.* control file, e.g. memory.max = 256M
 *   [workload NAME]   type (a catalogue workload), memcg, start, then its parameters
 *
 * A sweep: min_ttl_ms, thp, read_ahead_kb or a sysctl given a list
 * ("sysctl.vm.swappiness = 0, 60, 200") makes one variant per value, named
 * NAME-KNOBVALUE ("mglru-swappiness60"; KNOB is the key's last word); two
 * sweeps in one variant make every combination ("mglru-swappiness0-thpnever").
 *
 * Every key is a row of a table in plan-keys.c (campaign_keys[], guest_keys[],
 * variant_keys[], workload_keys[]: key, type, field, checks, help; a new key
 * is one row); a workload's parameters are its catalogue entry's (catalogue.h),
 * a memcg's files a list of memory.* files. Unknown keys and bad values are
 * errors naming the file, line and key. The parser is pure: text in, plan
 * out; the INI text is cut by ini.h.
 */
#ifndef LRUBENCH_PLAN_H
#define LRUBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workload_def;

struct kv {
	char *key, *value;
};

struct plan_sweep {
	char *key;
	char **values;
	size_t nvalues;
	int line;
};

struct plan_variant {
	char *name;
	char *kernel;	   /* "debian" (the embedded default), a recipe (NAME for
			    * kernels/NAME.ini, or FILE.ini: built before any run) or a
			    * bzImage path (holding a '/'): see kernel_spec_kind() */
	char *config;	   /* optional config path for the kernel */
	char *modules;	   /* optional modules directory */
	char *lru;	   /* classic, mglru, or a raw enabled value */
	unsigned lru_enabled; /* value for /sys/kernel/mm/lru_gen/enabled */
	int64_t min_ttl_ms;   /* -1 = leave the kernel's default */
	struct kv *sysctls;   /* key "vm/swappiness" */
	size_t nsysctls;
	/* Overrides of [memcg] control files for this variant, key "MEMCG.FILE"
	 * (wl.memory.max); relative workload sizes still follow the [memcg]. */
	struct kv *memcg_files;
	size_t nmemcg_files;
	char *thp;	      /* NULL: the guest's */
	int64_t read_ahead_kb; /* of the scratch disk; -1 = the kernel's default */
	/* debugfs fault_around_bytes (pages a file fault maps around it): -1 the kernel's */
	int64_t fault_around_bytes;
	int read_ahead_line;
	int trace;	       /* 1 on, 0 off, -1 the guest's */
	struct plan_sweep *sweeps; /* only while parsing: expanded by plan__parse */
	size_t nsweeps;
};

struct plan_memcg {
	char *name;
	struct kv *files; /* control file -> value (sizes resolved to bytes) */
	size_t nfiles;
	uint64_t max_bytes; /* memory.max, for relative sizes; 0 = unlimited */
};

struct plan_workload {
	char *name;
	const struct workload_def *def;
	char *memcg;
	uint64_t start_ms;
	char *after; /* "after =": workloads declared above that exit before it starts,
		      * comma-separated; NULL: none */
	struct kv *params; /* resolved: sizes in bytes */
	size_t nparams;
	char *key; /* "key =": its key results, space-separated; NULL: the catalogue's */
	char *numa_policy; /* "numa_policy =" (mempolicy.h); NULL: the kernel's default */
	int numa_policy_line;
	char *cpu_affinity; /* "cpu_affinity =": the vCPUs it may run on, a list; NULL: any */
	int cpu_affinity_line;
};

struct plan {
	char *path;
	char *text; /* the whole file, kept for provenance */
	char *name;
	int repetitions; /* with adaptive: the first blocks, min_repetitions */
	/*
	 * repetitions = auto: blocks of runs (every variant once) are added until
	 * every key metric is decided (verdict.h) or max_repetitions or max_time
	 * (0: none) is reached.
	 */
	bool adaptive;
	int min_repetitions, max_repetitions;
	uint64_t max_time_ms;
	int retries; /* re-runs of a run whose infrastructure failed */
	int warmup;  /* first repetitions of each variant run but excluded from statistics */
	uint64_t seed;
	uint64_t interval_ms;
	uint64_t timeout_ms;
	char *baseline;
	uint64_t mem_bytes;
	int cpus;	/* the guest's vCPUs: cpus_asked, or the clock's default */
	int cpus_asked; /* [guest] cpus; 0: not said */
	int numa;	/* NUMA nodes (1: none); memory split evenly, CPUs dealt out (vm_argv) */
	char *clock;	/* "real" or "instructions" (PLAN_CLOCK_*) */
	bool clock_sleep; /* instructions: -icount sleep=on (idle time is host time) */
	char *swap; /* zram or none */
	uint64_t swap_bytes;
	char *zram_comp;
	char *cgroup2_options; /* cgroup2's mount data, or "none" */
	char *thp;
	char *cmdline;
	bool trace; /* reclaim stall histograms (agent-trace.c); a variant may say otherwise */
	char *remap; /* what plan__remap applied after parsing, or NULL */
	char *agent_conf; /* run.conf lines added to every run (lrubench wss), or NULL */
	uint64_t scratch_bytes; /* scratch disk size; 0 = max(2G, 4 x memory) */
	bool needs_scratch;	/* some workload has files: a scratch disk per run */
	bool needs_tools;	/* some workload runs a host tool: the tools disk */
	struct plan_variant *variants;
	size_t nvariants;
	struct plan_memcg *memcgs;
	size_t nmemcgs;
	struct plan_workload *workloads;
	size_t nworkloads;
};

/* As systemd (since v247) mounts cgroup2: delegation-safe, and memory.low/min reach nested memcgs. */
#define PLAN_CGROUP2_OPTIONS_DEFAULT "nsdelegate,memory_recursiveprot"
/* [guest] numa: at most this many nodes, each with at least PLAN_NUMA_NODE_MIN of memory. */
#define PLAN_NUMA_MAX 8
#define PLAN_NUMA_NODE_MIN (128ull << 20)
#define PLAN_CLOCK_REAL "real"
#define PLAN_CLOCK_INSTRUCTIONS "instructions"
/* Whether s names a clock mode. */
bool plan_clock_ok(const char *s);
/* The vCPUs a guest gets when the plan does not say: 2 on the real clock, 1 on
 * the instruction-counted one (more vCPUs there are not deterministic). */
int plan_clock_default_cpus(const char *clock);
/* Run p on clock (a command line's --clock): its cpus follow unless it said them. */
void plan__set_clock(struct plan *p, const char *clock);
/*
 * Whether every workload's cpu_affinity and numa_policy name only vCPUs and
 * nodes p's guest has: checked when parsing, and again after plan__set_clock
 * (the clock's default vCPUs). 0, or -EINVAL with *ret_err "path:line: ...".
 */
int plan__placements_check(const struct plan *p, char **ret_err);

/* Parse text (from path, used in messages). On error *ret_err = "path:line: ...". */
int plan__parse(const char *path, const char *text, struct plan **ret, char **ret_err);
int plan__load(const char *path, struct plan **ret, char **ret_err);
void plan__free(struct plan *p);
void plan__freep(struct plan **p);
/*
 * Re-make the plan's variants (lrubench ab, bisect): one line per new
 * variant, in campaign order, "NAME<tab>FROM<tab>KERNEL" (variant FROM's LRU
 * mode, knobs and overrides on KERNEL, whose config and modules are its
 * own), and a line "baseline<tab>NAME". Once per plan: the text is kept in
 * p->remap, which the campaign stores, so that its workers and --resume
 * re-make the same variants from the plan's text. 0, or -EINVAL with
 * *ret_err (the plan unchanged).
 */
int plan__remap(struct plan *p, const char *text, char **ret_err);

/* A copy of v with strings of its own, named name, without sweeps (noise's twins);
 * plan_variant__clear frees what a variant owns. */
struct plan_variant plan_variant__copy(const struct plan_variant *v, const char *name);
void plan_variant__clear(struct plan_variant *v);

/*
 * Keep only the variant named name (NULL: the baseline), renamed new_name,
 * as the baseline. -ENOENT with *ret_err if the plan has no such variant.
 */
int plan__keep_variant(struct plan *p, const char *name, const char *new_name, char **ret_err);

/* The variant's value for a memcg control file, or NULL to keep the [memcg] one. */
const char *plan_variant__memcg(const struct plan_variant *v, const char *memcg, const char *file);
/* The THP mode of variant v: its own or the guest's. */
const char *plan__variant_thp(const struct plan *p, const struct plan_variant *v);
/* Whether variant v's runs trace reclaim: its own trace or the guest's. */
bool plan__variant_trace(const struct plan *p, const struct plan_variant *v);
/* The scratch disk size of the plan. */
uint64_t plan__scratch_bytes(const struct plan *p);

/* Resolve an LRU mode name: classic = 0, mglru = 0x0007, or a number <= 0x7. */
int lru_mode_parse(const char *s, unsigned *ret);
/*
 * The mechanisms an lru_gen/enabled value turns on, in words: "classic"
 * (bit 0 clear), else "core" plus "page-table walk" (0x0002) and "non-leaf
 * young" (0x0004) where set. A static string.
 */
const char *lru_mode_mechanisms(unsigned enabled);

#endif
