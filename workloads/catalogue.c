// SPDX-License-Identifier: GPL-2.0
#include "catalogue.h"

#include <stddef.h>
#include <string.h>

/* The result shape every workload reports (workloads/lib/wl.h). */
#define COMMON_METRICS                                                                             \
	{ "ops", "ops", "higher", "operations completed" },                                        \
	{ "throughput", "ops/s", "higher", "operations per second" },                              \
	{ "lat_p50", "ns", "lower", "median operation latency" },                                  \
	{ "lat_p90", "ns", "lower", "90th percentile latency" },                                   \
	{ "lat_p99", "ns", "lower", "99th percentile latency" },                                   \
	{ "lat_p999", "ns", "lower", "99.9th percentile latency" },                                \
	{ "duration", "s", "none", "measured phase wall time" }

static const struct workload_def anon_zipf = {
	.name = "anon-zipf",
	.binary = "/bin/wl-anon-zipf",
	.claims = "C1 C7",
	.description = "anonymous working set larger than its memcg, Zipf page popularity, "
		       "read/write mix, on zram swap",
	.params = (const struct wl_param[]){
		{ "size", WLP_SIZE, NULL, 0, 0, "working set (bytes, or Nx memory.max)" },
		{ "theta", WLP_FRACTION, "0.99", 0, 0.9999, "Zipf skew, 0 = uniform" },
		{ "write-ratio", WLP_FRACTION, "0.2", 0, 1, "fraction of accesses that write" },
		{ "accesses", WLP_U64, NULL, 0, 0, "accesses in the measured phase" },
		{ "duration", WLP_DURATION, NULL, 0, 0, "or a time limit for it" },
		{ "seed", WLP_U64, NULL, 0, 0, "PRNG seed (default: the run's seed)" },
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		{ "populate_s", "s", "lower", "time to first-touch the working set" },
		{ "majflt", "faults", "lower", "major faults of the workload (swap-ins)" },
		{ "pages", "pages", "none", "working set in pages" },
		{},
	},
};

const struct workload_def *const workload_catalogue[] = {
	&anon_zipf,
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
