/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampled source, described once for the guest agent and the host: the
 * SOURCE of the stream's "v SOURCE SCOPE KEY VALUE" lines (PROTOCOL.md
 * section 2), the file the agent reads for it each sample, the pure function
 * that turns that file's text into KEY/VALUE pairs, and the rows of the
 * metric dictionary for its "SOURCE:KEY" names (unit, counter or gauge,
 * which way is better).
 *
 * Each source is one file, harness/common/source-NAME.c, that defines one
 * `const struct source source_NAME`, and one row in the list of
 * harness/common/sources.c. The agent's sampler (harness/guest/sampler.c)
 * samples every source of that list; the host's dictionary
 * (harness/model/metrics.c) knows every row of every source of it.
 */
#ifndef LRUBENCH_SOURCE_H
#define LRUBENCH_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum metric_kind { METRIC_COUNTER, METRIC_GAUGE };
enum metric_better { BETTER_NONE, BETTER_HIGHER, BETTER_LOWER };

/* One row of the metric dictionary. */
struct metric_info {
	const char *name; /* "SOURCE:KEY"; a trailing '*' matches a prefix */
	const char *unit; /* pages, bytes, events, us, ns */
	enum metric_kind kind;
	enum metric_better better;
	const char *description;
};

/* A row: METRIC("vmstat:pgmajfault", "events", COUNTER, LOWER, "major page faults"),
 * kind COUNTER or GAUGE, better NONE, HIGHER or LOWER. */
#define METRIC(name, unit, kind, better, description)                                              \
	{                                                                                          \
		name, unit, METRIC_##kind, BETTER_##better, description                            \
	}

enum source_scope {
	SOURCE_SYSTEM,	 /* one instance, SCOPE "-" */
	SOURCE_MEMCG,	 /* one instance per memcg, SCOPE its name */
	SOURCE_WORKLOAD, /* one instance per workload, SCOPE its name */
	SOURCE_NODE,	 /* one instance per NUMA node, SCOPE "nodeN", file under its sysfs
			  * directory; only in a guest with more than one node */
};

/* One KEY VALUE of a sample; key is not NUL-terminated. */
typedef void (*source_value_fn)(void *arg, const char *key, size_t key_len, int64_t value);

struct source {
	const char *name; /* SOURCE in the stream */
	enum source_scope scope;
	/* Read each sample: absolute (SOURCE_SYSTEM) or in the memcg's
	 * directory (SOURCE_MEMCG); NULL: the agent's own code makes the
	 * values (a row of feeds[] in harness/guest/sampler.c). */
	const char *file;
	/* The file's text (len bytes, NUL-terminated) into values, in order;
	 * returns the number of lines skipped as malformed. NULL: the agent's
	 * own code reads the file (feeds[] again). */
	unsigned (*parse)(const char *buf, size_t len, source_value_fn fn, void *arg);
	/* Dictionary rows, each named "NAME:KEY" or "NAME:PREFIX*". */
	const struct metric_info *metrics;
	size_t n_metrics;
	/* For a key no row matches: its name matches source names (a trailing
	 * '*' a prefix), its unit, kind and better are the key's. name NULL:
	 * none (the dictionary's "value of an unknown source"). */
	struct metric_info fallback;
	/* Sampled only in a guest with more than one NUMA node (SOURCE_NODE always is). */
	bool multi_node;
};

/* Every sampled source, in the order the agent sends them; *ret_n gets the count. */
const struct source *const *sources_table(size_t *ret_n);

/* Parsers for the common formats, as a source's parse. */
/* "key value" lines (/proc/vmstat, memory.stat, memory.events). */
unsigned parse_flat_source(const char *buf, size_t len, source_value_fn fn, void *arg);
/* A PSI file: "some.total" and, when the kernel prints it, "full.total" (us). */
unsigned parse_psi_source(const char *buf, size_t len, source_value_fn fn, void *arg);

/* The whole file at offset 0 into *buf (grown as needed from *cap bytes,
 * NUL-terminated): the kernel regenerates these seq files on every read at
 * offset 0, so one open fd serves every sample. Its length or -errno. */
ssize_t read_source_file(int fd, char **buf, size_t *cap);

#endif
