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
#include "util.h"
#include "wl.h"

#include <getopt.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

struct opts {
	uint64_t size;
	double theta;
	double write_ratio;
	uint64_t accesses;
	uint64_t duration_ms;
	uint64_t rate; /* accesses per second, 0 = as fast as it goes */
	uint64_t seed;
};

static void usage(void)
{
	fprintf(stderr, "usage: wl-anon-zipf --size BYTES [--theta 0.99] [--write-ratio 0.2]\n"
			"                    [--accesses N | --duration MS] [--rate N] [--seed N]\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "theta", required_argument, NULL, 't' },
		{ "write-ratio", required_argument, NULL, 'w' },
		{ "accesses", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "rate", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{},
	};
	int c, idx = 0;

	*o = (struct opts){ .theta = 0.99, .write_ratio = 0.2, .seed = 1 };
	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		int r = 0;

		switch (c) {
		case 's':
			r = parse_size(optarg, &o->size);
			break;
		case 't':
			r = parse_double(optarg, &o->theta);
			r = r < 0 || o->theta < 0 || o->theta >= 1 ? -EINVAL : 0;
			break;
		case 'w':
			r = parse_double(optarg, &o->write_ratio);
			r = r < 0 || o->write_ratio < 0 || o->write_ratio > 1 ? -EINVAL : 0;
			break;
		case 'a':
			r = parse_u64(optarg, &o->accesses);
			break;
		case 'd':
			r = parse_duration_ms(optarg, &o->duration_ms);
			break;
		case 'r':
			r = parse_u64(optarg, &o->rate);
			break;
		case 'S':
			r = parse_u64(optarg, &o->seed);
			break;
		default:
			usage();
			return -EINVAL;
		}
		if (r < 0) {
			fprintf(stderr, "wl-anon-zipf: bad value '%s' for --%s\n", optarg,
				longopts[idx].name);
			return -EINVAL;
		}
	}
	if (!o->size || (!o->accesses && !o->duration_ms)) {
		usage();
		return -EINVAL;
	}
	return 0;
}

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
	struct opts o;
	struct wl_rng rng;
	struct wl_zipf zipf;
	struct wl_hist *lat;
	struct rusage ru0, ru1;
	uint64_t npages, ops = 0, t0, t1, deadline;
	volatile uint64_t sink = 0;
	unsigned char *mem;

	if (parse_opts(argc, argv, &o) < 0)
		return 2;
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
	wl_result("populate_s", (double)(t1 - t0) / 1e9, "s", "lower");

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
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt), "faults", "lower");
	wl_result("pages", (double)npages, "pages", "none");
	(void)sink;
	munmap(mem, npages * (uint64_t)page);
	free(lat);
	return 0;
}
