// SPDX-License-Identifier: GPL-2.0
/*
 * anon-zipf: an anonymous working set with a Zipf-skewed page popularity.
 *
 * The set is populated once (every page written, so it is real anon memory
 * that must go to swap when the memcg is smaller than the set), then pages
 * are accessed in Zipf order: rank r maps to a pseudo-random page, so hot
 * pages are scattered over the set rather than packed at its start. Each
 * access reads or writes one word of the page; a fraction of the accesses
 * are writes (dirtying the page, so a swapped-in copy must be written again).
 *
 * Under reclaim this measures how well an LRU keeps the hot pages resident:
 * hot pages evicted come back as major faults from zram, which shows in the
 * latency tail and the throughput.
 *
 * --rate paces the accesses to a known number per second (on an absolute
 * schedule: a late start is caught up), so that the accesses in any window
 * are known from the parameters (lrubench wss, harness/analysis/wss-model.c).
 *
 * Reports the common result shape plus populate time and its own major faults.
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	double theta;
	double write_ratio;
	uint64_t accesses;
	uint64_t duration_ms;
	uint64_t rate; /* accesses per second, 0 = as fast as it goes */
	uint64_t seed;
};

WORKLOAD_DEF(anon_zipf) = {
	WL_NAME("anon-zipf"),
	.claims = "C1 C7",
	.decides = "throughput majflt",
	.description = "anonymous working set larger than its memcg, Zipf page popularity, "
		       "read/write mix, on zram swap; one op = one page access",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "working set (bytes, or Nx memory.max)"),
		PARAM_FRACTION("theta", theta, "0.99", 0, 0.9999, "Zipf skew, 0 = uniform"),
		PARAM_FRACTION("write-ratio", write_ratio, "0.2", 0, 1,
			       "fraction of accesses that write"),
		PARAM_U64("accesses", accesses, NULL, "accesses in the measured phase"),
		PARAM_DURATION("duration", duration_ms, NULL, "or a time limit for it"),
		PARAM_U64("rate", rate, "0", "accesses per second (paced), 0 = unpaced"),
		PARAM_SEED(seed),
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

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

/* With --rate: sleep until access number ops is due, t0 + ops / rate. */
static void pace(uint64_t t0, uint64_t ops, uint64_t rate)
{
	uint64_t due = t0 + (uint64_t)((double)ops * 1e9 / (double)rate);
	struct timespec ts = { (time_t)(due / 1000000000u), (long)(due % 1000000000u) };

	if (due > wl_now_ns())
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct opts o = { 0 };
	struct wl_rng rng;
	struct wl_zipf zipf;
	struct wl_hist *lat;
	struct rusage ru0, ru1;
	uint64_t npages, ops = 0, t0, t1, deadline;
	volatile uint64_t sink = 0;
	unsigned char *mem;

	int r = wl_opts_parse(&wl_def_anon_zipf, argc, argv, &o);

	if (r != 0)
		return r < 0 ? 2 : 0;
	if (!o.size || (!o.accesses && !o.duration_ms)) {
		fprintf(stderr, "wl-anon-zipf: need a size, and accesses or a duration\n");
		return 2;
	}
	npages = o.size / (uint64_t)page;
	if (wl_zipf_init(&zipf, npages, o.theta) < 0) {
		fprintf(stderr, "wl-anon-zipf: size %llu gives %llu pages: need at least 2\n",
			(unsigned long long)o.size, (unsigned long long)npages);
		return 2;
	}
	lat = xcalloc(1, sizeof(*lat));
	wl_hist_init(lat);
	wl_rng_seed(&rng, o.seed);

	mem = mmap(NULL, npages * (uint64_t)page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("wl-anon-zipf: mmap");
		return 1;
	}
	/* Populate: distinct non-zero content per page so zram cannot dedupe it to nothing. */
	t0 = wl_now_ns();
	for (uint64_t p = 0; p < npages; p++) {
		uint64_t *w = (uint64_t *)(mem + p * (uint64_t)page);

		for (size_t i = 0; i < (size_t)page / sizeof(*w); i += 8)
			w[i] = wl_rng_next(&rng);
	}
	t1 = wl_now_ns();
	wl_result("populate_s", (double)(t1 - t0) / 1e9);

	getrusage(RUSAGE_SELF, &ru0);
	t0 = wl_now_ns();
	deadline = o.duration_ms ? t0 + o.duration_ms * 1000000ULL : UINT64_MAX;
	for (;;) {
		uint64_t page_idx = wl_scatter(wl_zipf_next(&zipf, &rng), npages);
		uint64_t *w = (uint64_t *)(mem + page_idx * (uint64_t)page);
		bool write = wl_rng_double(&rng) < o.write_ratio;
		uint64_t a, b;

		if (o.rate && (ops & 15) == 0)
			pace(t0, ops, o.rate);
		a = wl_now_ns();

		if (write)
			w[ops & 63] += 1;
		else
			sink += w[ops & 63];
		b = wl_now_ns();
		wl_hist_add(lat, b - a);
		ops++;
		if (o.accesses && ops >= o.accesses)
			break;
		if ((ops & 1023) == 0 && b >= deadline)
			break;
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);

	wl_result_common(ops, t1 - t0, lat);
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt));
	wl_result("pages", (double)npages);
	(void)sink;
	munmap(mem, npages * (uint64_t)page);
	free(lat);
	return 0;
}
#endif /* WL_DEF_ONLY */
