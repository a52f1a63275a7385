// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled source memory.numa_stat (harness/common/source.h): each
 * memcg's memory.stat split by node, in a guest with more than one NUMA
 * node. A line is "anon N0=4096 N1=0" (memory_numa_stat_show() in
 * linux-source-6.1 mm/memcontrol.c); each N<node>=<value> becomes the key
 * "anon.N0". Sizes are bytes, the workingset_* lines events.
 */
#include "source.h"

#include "util.h"

#include <string.h>

static const struct metric_info memory_numa_stat_metrics[] = {
	METRIC("memory.numa_stat:anon.*", "bytes", GAUGE, NONE, "the memcg's anon memory on a node"),
	METRIC("memory.numa_stat:file.*", "bytes", GAUGE, NONE,
	       "the memcg's page cache on a node"),
	METRIC("memory.numa_stat:workingset_*", "events", COUNTER, NONE,
	       "the memcg's refaults, activations and restores on a node"),
};

/* "KEY N0=V N1=V ..." per line; a malformed line is skipped and counted. */
static unsigned parse_numa_stat(const char *buf, size_t len, source_value_fn fn, void *arg)
{
	const char *end = buf + len;
	unsigned bad = 0;

	for (const char *line = buf; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		const char *sp, *p;
		size_t klen;

		if (!eol)
			eol = end;
		sp = memchr(line, ' ', (size_t)(eol - line));
		klen = sp ? (size_t)(sp - line) : 0;
		if (!klen || klen > 64) {
			bad += eol > line;
			line = eol + 1;
			continue;
		}
		for (p = sp; p < eol;) {
			char key[96], *num_end;
			unsigned long node;
			long long v;

			while (p < eol && *p == ' ')
				p++;
			if (p >= eol)
				break;
			if (*p != 'N') {
				bad++;
				break;
			}
			node = strtoul(p + 1, &num_end, 10);
			if (num_end == p + 1 || *num_end != '=' || node > 1023) {
				bad++;
				break;
			}
			v = strtoll(num_end + 1, &num_end, 10);
			if (num_end > eol || (num_end < eol && *num_end != ' ')) {
				bad++;
				break;
			}
			snprintf(key, sizeof(key), "%.*s.N%lu", (int)klen, line, node);
			fn(arg, key, strlen(key), v);
			p = num_end;
		}
		line = eol + 1;
	}
	return bad;
}

const struct source source_memory_numa_stat = {
	.name = "memory.numa_stat",
	.scope = SOURCE_MEMCG,
	.file = "memory.numa_stat",
	.parse = parse_numa_stat,
	.metrics = memory_numa_stat_metrics,
	.n_metrics = ARRAY_SIZE(memory_numa_stat_metrics),
	.multi_node = true,
	.fallback = METRIC("memory.numa_stat*", "bytes", GAUGE, NONE,
			   "the memcg's memory of a kind on a node"),
};
