// SPDX-License-Identifier: GPL-2.0
#include "catalogue.h"

#include <stddef.h>
#include <string.h>

/*
 * The result shape every workload reports (workloads/lib/wl.h). What one
 * operation is differs per workload; its row's description says.
 */
#define COMMON_METRICS                                                                      \
	METRIC("ops", "ops", "higher", "operations completed"),                             \
	METRIC("throughput", "ops/s", "higher", "operations per second"),                   \
	METRIC("lat_p50", "ns", "lower", "median operation latency"),                       \
	METRIC("lat_p90", "ns", "lower", "90th percentile latency"),                        \
	METRIC("lat_p99", "ns", "lower", "99th percentile latency"),                        \
	METRIC("lat_p999", "ns", "lower", "99.9th percentile latency"),                     \
	METRIC("duration", "s", "none", "measured phase wall time")

#define PARAM(n, t, d, h) { .name = n, .type = t, .def = d, .help = h }
#define PARAM_RANGE(n, d, lo, hi, h)                                                               \
	{ .name = n, .type = WLP_FRACTION, .def = d, .min = lo, .max = hi, .help = h }
#define PARAM_CHOICE(n, d, c, h)                                                            \
	{ .name = n, .type = WLP_CHOICE, .def = d, .help = h, .choices = c }
#define METRIC(k, u, b, h) { .key = k, .unit = u, .better = b, .help = h }
#define METRIC_ONLY(k, u, b, h, o) { .key = k, .unit = u, .better = b, .help = h, .only = o }

#define SEED_PARAM PARAM("seed", WLP_U64, NULL, "PRNG seed (default: the run's seed)")

static const char *const tools_fio[] = { "fio", NULL };
static const char *const tools_sysbench[] = { "sysbench", NULL };
static const char *const tools_shell[] = { "bash", "cat", NULL };

static const struct workload_def anon_zipf = {
	.name = "anon-zipf",
	.binary = "/bin/wl-anon-zipf",
	.claims = "C1 C7",
	.decides = "throughput majflt",
	.description = "anonymous working set larger than its memcg, Zipf page popularity, "
		       "read/write mix, on zram swap; one op = one page access",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "working set (bytes, or Nx memory.max)"),
		PARAM_RANGE("theta", "0.99", 0, 0.9999, "Zipf skew, 0 = uniform"),
		PARAM_RANGE("write-ratio", "0.2", 0, 1, "fraction of accesses that write"),
		PARAM("accesses", WLP_U64, NULL, "accesses in the measured phase"),
		PARAM("duration", WLP_DURATION, NULL, "or a time limit for it"),
		PARAM("rate", WLP_U64, "0", "accesses per second (paced), 0 = unpaced"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("populate_s", "s", "lower", "time to first-touch the working set"),
		METRIC("majflt", "faults", "lower", "major faults of the workload (swap-ins)"),
		METRIC("pages", "pages", "none", "working set in pages"),
		{},
	},
};

static const struct workload_def file_zipf = {
	.name = "file-zipf",
	.binary = "/bin/wl-file-zipf",
	.claims = "C7",
	.decides = "throughput hit_ratio",
	.description = "fio: buffered 4K random reads over a file set on the scratch disk, "
		       "random_distribution=zipf; one op = one read",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "file set (bytes, or Nx memory.max)"),
		PARAM("files", WLP_U64, "4", "files in the set (fio nrfiles)"),
		PARAM_RANGE("theta", "1.2", 0.01, 10, "fio's Zipf theta (not 1.0)"),
		PARAM("bs", WLP_SIZE, "4K", "read size"),
		PARAM("duration", WLP_DURATION, "10s", "measured phase (fio runtime)"),
		PARAM("rate", WLP_U64, "0", "reads per second (fio rate_iops), 0 = unpaced"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("bandwidth", "bytes/s", "higher", "bytes read per second"),
		METRIC("read_bytes", "bytes", "lower",
		       "memcg's reads from the scratch disk (io.stat): misses and readahead"),
		METRIC("hit_ratio", "ratio", "higher",
		       "1 - disk bytes / bytes read: page cache hits"),
		{},
	},
	.scratch = true,
	.tools = tools_fio,
};

static const struct workload_def stream_hot = {
	.name = "stream-hot",
	.binary = "/bin/wl-stream-hot",
	.claims = "C6",
	.decides = "hot_majflt stream_throughput",
	.description = "a sequential read() stream over a file set larger than the memcg beside a "
		       "hot file read at random through mmap; one op = one hot page access",
	.params = (const struct wl_param[]){
		PARAM("hot-size", WLP_SIZE, NULL, "hot file, mmap'd (bytes, or Nx memory.max)"),
		PARAM("stream-size", WLP_SIZE, NULL, "streamed file set"),
		PARAM("stream-files", WLP_U64, "4", "files in the streamed set"),
		PARAM("passes", WLP_U64, "2", "passes over the streamed set"),
		PARAM("chunk", WLP_SIZE, "256K", "read() size of the stream"),
		PARAM_RANGE("theta", "0", 0, 0.9999, "Zipf skew of hot accesses, 0 = uniform"),
		PARAM("hot-rate", WLP_U64, "0", "hot accesses per second, 0 = as fast as it goes"),
		PARAM("duration", WLP_DURATION, NULL, "time limit of the measured phase"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("hot_majflt", "faults", "lower",
		       "major faults of the hot set (evicted, read back)"),
		METRIC("hot_read_bytes", "bytes", "lower", "disk bytes read for the hot set"),
		METRIC("hot_resident_pct", "pct", "higher",
		       "hot pages resident at the end (mincore)"),
		METRIC("stream_bytes", "bytes", "none", "bytes streamed"),
		METRIC("stream_throughput", "bytes/s", "higher", "stream read rate"),
		{},
	},
	.scratch = true,
};

static const struct workload_def mmap_stride = {
	.name = "mmap-stride",
	.binary = "/bin/wl-mmap-stride",
	.claims = "C6",
	.decides = "majflt read_amp",
	.description = "an mmap'd file read one byte per stride, pass after pass: fault-around "
		       "and readahead bring pages never touched; one op = one touch",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "file (bytes, or Nx memory.max)"),
		PARAM("stride", WLP_SIZE, "64K", "distance between touches"),
		PARAM("passes", WLP_U64, "4", "passes over the file"),
		PARAM_CHOICE("advice", "normal", "normal|random|sequential",
		             "madvise() of the mapping"),
		PARAM("duration", WLP_DURATION, NULL, "time limit of the measured phase"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("majflt", "faults", "lower", "major faults, all passes"),
		METRIC("majflt_warm", "faults", "lower", "major faults after the first pass"),
		METRIC("read_bytes", "bytes", "lower", "bytes read from the disk"),
		METRIC("read_amp", "x", "lower", "disk bytes per byte of the pages touched"),
		METRIC("touched_pages", "pages", "none", "distinct pages touched per pass"),
		{},
	},
	.scratch = true,
};

static const struct workload_def anon_file_mix = {
	.name = "anon-file-mix",
	.binary = "/bin/wl-anon-file-mix",
	.claims = "C1 C2",
	.decides = "anon_steal_pct majflt file_read_bytes",
	.description = "anon and file working sets in one memcg, Zipf accesses to each, zram "
		       "swap; the reclaim balance between them; one op = one page access",
	.params = (const struct wl_param[]){
		PARAM("anon-size", WLP_SIZE, NULL, "anonymous set (bytes, or Nx memory.max)"),
		PARAM("file-size", WLP_SIZE, NULL, "file set"),
		PARAM_RANGE("anon-ratio", "0.5", 0, 1, "fraction of accesses to the anon set"),
		PARAM_RANGE("theta", "0.9", 0, 0.9999, "Zipf skew within each set"),
		PARAM_RANGE("write-ratio", "0.2", 0, 1, "fraction of anon accesses that write"),
		PARAM_CHOICE("file-access", "read", "read|mmap",
		             "file pages through pread() or mmap"),
		PARAM("accesses", WLP_U64, NULL, "accesses in the measured phase"),
		PARAM("duration", WLP_DURATION, NULL, "or a time limit for it"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("majflt", "faults", "lower",
		       "major faults (swap-ins; file misses too with mmap)"),
		METRIC("file_read_bytes", "bytes", "lower", "bytes read from the scratch disk"),
		METRIC("pgsteal_anon", "pages", "none",
		       "anon pages reclaimed (/proc/vmstat delta)"),
		METRIC("pgsteal_file", "pages", "none",
		       "file pages reclaimed (/proc/vmstat delta)"),
		METRIC("anon_steal_pct", "pct", "none", "anon share of the pages reclaimed"),
		METRIC("steal_attributed", "ratio", "none",
		       "memcg pgsteal / vmstat pgsteal: 1 = the vmstat split is this "
		       "memcg's alone"),
		METRIC("active_anon_pct", "pct", "none",
		       "anon on the active list at the end (memory.stat)"),
		METRIC("active_file_pct", "pct", "none",
		       "file on the active list at the end (memory.stat)"),
		METRIC_ONLY("gen_anon_young_pct", "pct", "none",
		            "anon pages in the youngest generation (lru_gen)", "mglru"),
		METRIC_ONLY("gen_file_young_pct", "pct", "none",
		            "file pages in the youngest generation (lru_gen)", "mglru"),
		{},
	},
	.scratch = true,
};

static const struct workload_def proactive = {
	.name = "proactive",
	.binary = "/bin/wl-proactive",
	.claims = "C3",
	.decides = "over_reclaim_pct reclaim_ratio",
	.description = "cold page cache and anon in a memcg, then reclaim requests through "
		       "memory.reclaim and steps of memory.high; one op = one memory.reclaim write",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "cold page cache: a file read once"),
		PARAM("anon-size", WLP_SIZE, "0", "cold anonymous memory beside it"),
		PARAM("request", WLP_SIZE, NULL,
		      "bytes per memory.reclaim write and memory.high step"),
		PARAM("requests", WLP_U64, "8", "memory.reclaim writes"),
		PARAM("high-steps", WLP_U64, "4", "memory.high steps after them"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("requested_bytes", "bytes", "none", "asked of memory.reclaim"),
		METRIC("reclaimed_bytes", "bytes", "none",
		       "drop of memory.current around the writes"),
		METRIC("reclaim_ratio", "ratio", "none", "reclaimed / requested (1 = exact)"),
		METRIC("over_reclaim_pct", "pct", "lower",
		       "reclaimed beyond the request, % of requested"),
		METRIC("eagain", "requests", "lower", "memory.reclaim writes refused (EAGAIN)"),
		METRIC("high_ratio", "ratio", "none",
		       "reclaimed / requested by the memory.high steps"),
		{},
	},
	.scratch = true,
};

static const struct workload_def app_switch = {
	.name = "app-switch",
	.binary = "/bin/wl-app-switch",
	.claims = "C5",
	.decides = "switch_p50 fg_majflt",
	.description = "K apps, each in its own child memcg (MEMCG/app0..) with anon and file "
		       "sets; the foreground rotates every period; one op = one foreground page "
		       "access",
	.params = (const struct wl_param[]){
		PARAM("apps", WLP_U64, "4", "apps (child memcgs)"),
		PARAM("app-anon", WLP_SIZE, NULL, "anon set per app (bytes, or Nx memory.max)"),
		PARAM("app-file", WLP_SIZE, NULL, "file set per app, mmap'd"),
		PARAM("period", WLP_DURATION, "5s", "time in the foreground"),
		PARAM("switches", WLP_U64, NULL, "foreground switches (default 2 x apps)"),
		PARAM_RANGE("theta", "0.9", 0, 0.9999, "Zipf skew of foreground accesses"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("switches", "switches", "none", "foreground switches"),
		METRIC("switch_p50", "ns", "lower",
		       "median time to re-touch the new foreground's set"),
		METRIC("switch_p90", "ns", "lower", "90th percentile of it"),
		METRIC("switch_max", "ns", "lower", "longest switch"),
		METRIC("fg_majflt", "faults", "lower",
		       "major faults of apps while in the foreground"),
		METRIC("retouch_majflt", "faults", "lower",
		       "of which during the re-touch after a switch"),
		{},
	},
	.scratch = true,
};

static const struct workload_def sqlite_kv = {
	.name = "sqlite-kv",
	.binary = "/bin/wl-sqlite-kv",
	.claims = "C7",
	.decides = "throughput read_bytes",
	.description = "SQLite (linked in) point lookups and updates of Zipf keys on a database "
		       "larger than its memcg; one op = one statement",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "database size (bytes, or Nx memory.max)"),
		PARAM("value-size", WLP_SIZE, "1000", "bytes per value"),
		PARAM_RANGE("theta", "0.99", 0, 0.9999, "Zipf skew of keys"),
		PARAM_RANGE("read-ratio", "0.9", 0, 1, "fraction of lookups (the rest update)"),
		PARAM("cache", WLP_SIZE, "2M", "SQLite's own page cache"),
		PARAM_CHOICE("mmap", "off", "off|on", "read the database through mmap"),
		PARAM("ops", WLP_U64, NULL, "statements in the measured phase"),
		PARAM("duration", WLP_DURATION, NULL, "or a time limit for it"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("rows", "rows", "none", "rows in the table"),
		METRIC("db_bytes", "bytes", "none", "database file size"),
		METRIC("populate_s", "s", "lower", "time to build the database"),
		METRIC("read_bytes", "bytes", "lower",
		       "bytes read from the disk in the measured phase"),
		METRIC("majflt", "faults", "lower", "major faults in the measured phase"),
		{},
	},
	.scratch = true,
};

static const struct workload_def sysbench_fileio = {
	.name = "sysbench-fileio",
	.binary = "/bin/wl-sysbench-fileio",
	.claims = "C7",
	.decides = "throughput read_bytes",
	.description = "sysbench fileio, random read or read-write, on a file set larger than the "
		       "memcg; one op = one sysbench event",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "file set (bytes, or Nx memory.max)"),
		PARAM("files", WLP_U64, "8", "files in the set"),
		PARAM_CHOICE("mode", "rndrd", "rndrd|rndrw|rndwr|seqrd",
		             "sysbench --file-test-mode"),
		PARAM("bs", WLP_SIZE, "4K", "block size"),
		PARAM("duration", WLP_DURATION, "10s", "measured phase"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("reads_per_s", "ops/s", "higher", "reads per second"),
		METRIC("writes_per_s", "ops/s", "higher", "writes per second"),
		METRIC("read_mib_s", "MiB/s", "higher", "read throughput"),
		METRIC("written_mib_s", "MiB/s", "higher", "write throughput"),
		METRIC("read_bytes", "bytes", "lower",
		       "memcg's reads from the scratch disk, prepare and run (io.stat)"),
		METRIC("prepare_s", "s", "lower", "time to write the file set"),
		{},
	},
	.scratch = true,
	.tools = tools_sysbench,
};

static const struct workload_def dirty_write = {
	.name = "dirty-write",
	.binary = "/bin/wl-dirty-write",
	.claims = "C7",
	.decides = "bandwidth oom_kill",
	.description = "buffered sequential writes of a file much larger than a small memcg: "
		       "dirty pages and writeback under the limit; one op = one write()",
	.params = (const struct wl_param[]){
		PARAM("size", WLP_SIZE, NULL, "file written per pass (bytes, or Nx memory.max)"),
		PARAM("bs", WLP_SIZE, "1M", "write() size"),
		PARAM("passes", WLP_U64, "1", "passes (later ones overwrite)"),
		PARAM("duration", WLP_DURATION, NULL, "time limit of the writes"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("bandwidth", "bytes/s", "higher", "bytes written per second"),
		METRIC("fsync_s", "s", "lower", "the final fsync()"),
		METRIC("oom_kill", "kills", "lower", "memcg OOM kills meanwhile (memory.events)"),
		METRIC("max_events", "events", "none",
		       "times the memcg hit memory.max (memory.events)"),
		METRIC("writer_killed", "count", "lower", "1 if the writer died of a signal"),
		{},
	},
	.scratch = true,
};

static const struct workload_def lowmem_cost = {
	.name = "lowmem-cost",
	.binary = "/bin/wl-lowmem-cost",
	.claims = "C4",
	.decides = "reclaim_ns_per_page kswapd_cpu_ms",
	.description = "a small machine mostly full of mlocked (and shmem) memory, a file set "
		       "churning through the rest: what global reclaim costs; one op = one read",
	.params = (const struct wl_param[]){
		PARAM_RANGE("locked", "0.6", 0, 0.95, "share of MemTotal mlocked"),
		PARAM_RANGE("shmem", "0", 0, 0.95, "share of MemTotal in shmem (no swap: pinned)"),
		PARAM_RANGE("churn", "0.4", 0.01, 8, "file set as a share of MemTotal"),
		PARAM("chunk", WLP_SIZE, "64K", "pread() size over the file set"),
		PARAM("duration", WLP_DURATION, "20s", "measured phase"),
		SEED_PARAM,
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("kswapd_cpu_ms", "ms", "lower", "CPU time of kswapd over the phase"),
		METRIC("pgsteal", "pages", "none", "pages reclaimed system-wide (kswapd + direct)"),
		METRIC("kswapd_ns_per_page", "ns", "lower", "kswapd CPU per page kswapd reclaimed"),
		METRIC("reclaim_ns_per_page", "ns", "lower",
		       "(kswapd CPU + the workload's system time) per page reclaimed: "
		       "an upper bound"),
		METRIC("direct_pct", "pct", "lower",
		       "share of pages reclaimed directly (allocation stalls)"),
		METRIC("psi_some_ms", "ms", "lower",
		       "memory pressure stall (PSI some) over the phase"),
		METRIC("locked_bytes", "bytes", "none", "bytes mlocked"),
		{},
	},
	.scratch = true,
};

/* Not a reclaim scenario: the benchmark's yardstick for the agent's own sampler. */
static const struct workload_def shell_monitor = {
	.name = "shell-monitor",
	.binary = "/bin/wl-shell-monitor",
	.claims = "bench",
	.decides = "cpu_ns_per_sample",
	.description = "a bash loop that cats the files the agent samples, every interval, one "
		       "cat process per file group: the agent's sampler's yardstick; one op = "
		       "one sample",
	.params = (const struct wl_param[]){
		PARAM("interval", WLP_DURATION, "1s", "between samples (bash's read -t)"),
		PARAM("duration", WLP_DURATION, "20s", "how long it samples"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("samples", "samples", "none", "passes over the files"),
		METRIC("cpu_ns_per_sample", "ns", "lower",
		       "CPU of bash and its cats per sample (beside agent:cpu_ns per sample)"),
		METRIC("cpu_pct", "pct", "lower", "that CPU as a share of one CPU's time"),
		{},
	},
	.tools = tools_shell,
};

const struct workload_def *const workload_catalogue[] = {
	&anon_zipf,   &file_zipf, &stream_hot,	    &mmap_stride, &anon_file_mix, &proactive,
	&app_switch,  &sqlite_kv, &sysbench_fileio, &dirty_write, &lowmem_cost, &shell_monitor,
	NULL,
};

const struct workload_def *workload_find(const char *name)
{
	for (size_t i = 0; workload_catalogue[i]; i++)
		if (!strcmp(workload_catalogue[i]->name, name))
			return workload_catalogue[i];
	return NULL;
}

const struct wl_param *workload_param(const struct workload_def *w, const char *name)
{
	for (const struct wl_param *p = w->params; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

bool wl_param_choice_ok(const struct wl_param *p, const char *word)
{
	size_t n = strlen(word);

	if (p->type != WLP_CHOICE || !p->choices || !n)
		return false;
	for (const char *c = p->choices; *c;) {
		size_t len = strcspn(c, "|");

		if (len == n && !strncmp(c, word, n))
			return true;
		c += len;
		if (*c == '|')
			c++;
	}
	return false;
}
