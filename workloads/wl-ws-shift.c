// SPDX-License-Identifier: GPL-2.0
/*
 * ws-shift: the working set moves. Two sets, A and B, each small enough for
 * the memcg alone but not together. Both are made (B first), then the hot
 * set alternates: A for the first phase (the warm-up, not measured), then
 * B, A, B, ... for `shifts` phases. In a phase, pages of the hot set are
 * accessed at random, uniformly (anon: read and write; file: read).
 *
 * After each shift the new hot set is mostly out (on zram swap, or evicted
 * from the page cache with a shadow entry) and comes back through refaults:
 * how fast it is resident again is where the classic LRU's refault-distance
 * activation (mm/workingset.c) and MGLRU's generations and tiers differ.
 *
 * Per shift, in 100 ms windows: settle_ms is the time from the shift until
 * the first window whose major faults are at most settle-pct of its
 * accesses (the phase's length when none is: such a shift did not settle,
 * settled_shifts says how many did); shift_majflt its major faults. Over
 * the shifts: the memcg's workingset_refault_* and workingset_activate_*
 * (memory.stat deltas). One op = one page access in a measured phase.
 */
#include "wl-def.h"

struct opts {
	const char *kind;
	uint64_t set_size;
	uint64_t shifts;
	uint64_t phase_ms;
	double settle;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(ws_shift) = {
	WL_NAME("ws-shift"),
	.claims = "C7",
	.decides = "settle_ms shift_majflt",
	.description = "two working sets that each fit the memcg but not together; the hot one "
		       "alternates every phase: how soon the new set is resident again, and its "
		       "refaults; one op = one page access",
	.params = (const struct wl_param[]){
		PARAM_CHOICE("kind", kind, "anon", "anon|file",
			     "anon: memory on zram swap; file: two mmap'd files on the scratch disk"),
		PARAM_SIZE("set-size", set_size, NULL, "each set (bytes, or Nx memory.max)"),
		PARAM_U64("shifts", shifts, "4", "measured phases after the warm-up (one shift each)"),
		PARAM_DURATION("phase", phase_ms, "5s", "each phase"),
		PARAM_FRACTION("settle-pct", settle, "0.01", 0, 1,
			       "settled: a 100 ms window's major faults per access at most this"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("settle_ms", "ms", "lower",
		       "from a shift until the new set is resident (mean over shifts)"),
		METRIC("settle_ms_max", "ms", "lower", "the slowest shift's settle_ms"),
		METRIC("settled_shifts", "shifts", "higher", "shifts that settled within their phase"),
		METRIC("shift_majflt", "faults", "lower", "major faults per shift (mean)"),
		METRIC("refault_anon", "pages", "lower",
		       "memory.stat workingset_refault_anon over the shifts"),
		METRIC("refault_file", "pages", "lower",
		       "memory.stat workingset_refault_file over the shifts"),
		METRIC("activate_anon", "pages", "none",
		       "memory.stat workingset_activate_anon over the shifts"),
		METRIC("activate_file", "pages", "none",
		       "memory.stat workingset_activate_file over the shifts"),
		METRIC("set_pages", "pages", "none", "pages in each set"),
		{},
	},
	WL_SCRATCH(dir),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define PROG "wl-ws-shift"
#define WINDOW_NS 100000000ULL

static const char *const wsc_keys[] = { "workingset_refault_anon", "workingset_refault_file",
					"workingset_activate_anon", "workingset_activate_file" };
static const char *const wsc_results[] = { "refault_anon", "refault_file", "activate_anon",
					   "activate_file" };

static uint64_t majflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_majflt;
}

/* The memcg's workingset counters; -1 for one it does not have. */
static void wsc_read(int64_t v[4])
{
	for (size_t i = 0; i < 4; i++)
		if (wl_memcg_read("memory.stat", wsc_keys[i], &v[i]) < 0)
			v[i] = -1;
}

/* One set at *ret: anonymous memory written with distinct words, or a mapped cold file. */
static int set_make(const struct opts *o, const char *name, uint64_t bytes, struct wl_rng *rng,
		    unsigned char **ret)
{
	const long page = sysconf(_SC_PAGESIZE);
	unsigned char *m;

	if (!strcmp(o->kind, "anon")) {
		m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -errno;
		/* distinct non-zero content per page: zram cannot store it as one word */
		for (uint64_t p = 0; p < bytes / (uint64_t)page; p++) {
			uint64_t *w = (uint64_t *)(m + p * (uint64_t)page);

			for (size_t i = 0; i < (size_t)page / sizeof(*w); i += 8)
				w[i] = wl_rng_next(rng);
		}
	} else {
		_cleanup_free_ char *path = xasprintf("%s/%s.dat", o->dir, name);
		_cleanup_close_ int fd = -1;
		volatile unsigned char sink = 0;
		int r = wl_file_create(path, bytes, wl_rng_next(rng));

		if (r < 0) {
			fprintf(stderr, PROG ": %s: %s\n", path, strerror(-r));
			return r;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			return -errno;
		/* read once: its pages are in the cache, then evicted with shadows, as anon's are swapped */
		for (uint64_t off = 0; off < bytes; off += (uint64_t)page)
			sink += m[off];
		(void)sink;
	}
	*ret = m;
	return 0;
}

struct phase {
	uint64_t ops, ns, majflt, settle_ns;
	bool settled;
};

/* Random accesses to set (npages) for phase_ms; the settle time in 100 ms windows. */
static void phase_run(const struct opts *o, unsigned char *set, uint64_t npages,
		      struct wl_rng *rng, struct wl_hist *lat, struct phase *ph)
{
	const long page = sysconf(_SC_PAGESIZE);
	const bool write = !strcmp(o->kind, "anon");
	uint64_t t0 = wl_now_ns(), end = t0 + o->phase_ms * 1000000ULL, win = t0, now = t0;
	uint64_t f0 = majflt_now(), fwin = f0, opswin = 0;
	volatile uint64_t sink = 0;

	*ph = (struct phase){ 0 };
	while (now < end) {
		uint64_t *w = (uint64_t *)(set + (wl_rng_next(rng) % npages) * (uint64_t)page);
		uint64_t a = wl_now_ns();

		if (write)
			w[ph->ops & 63] += 1;
		else
			sink += ((volatile unsigned char *)w)[ph->ops & 4095];
		now = wl_now_ns();
		if (lat)
			wl_hist_add(lat, now - a);
		ph->ops++;
		opswin++;
		if (now - win >= WINDOW_NS) {
			uint64_t f = majflt_now();

			if (!ph->settled && (double)(f - fwin) <= o->settle * (double)opswin) {
				ph->settled = true;
				ph->settle_ns = win - t0;
			}
			win = now;
			fwin = f;
			opswin = 0;
		}
	}
	ph->ns = now - t0;
	ph->majflt = majflt_now() - f0;
	if (!ph->settled)
		ph->settle_ns = ph->ns;
	(void)sink;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct opts o = { 0 };
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	unsigned char *set[2];
	struct wl_rng rng;
	struct phase ph;
	int64_t wsc0[4], wsc1[4];
	uint64_t npages, ops = 0, ns = 0, majflt = 0, settle_sum = 0, settle_max = 0, settled = 0;
	int r;

	r = wl_opts_parse(&wl_def_ws_shift, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	npages = o.set_size / (uint64_t)page;
	if (npages < 2 || !o.shifts || o.phase_ms < 200) {
		fprintf(stderr, PROG ": need set-size of 2 pages at least, shifts >= 1 and a phase "
				"of 200ms at least\n");
		return 2;
	}
	if (!strcmp(o.kind, "file")) {
		r = wl_dir_make(o.dir);
		if (r < 0) {
			fprintf(stderr, PROG ": mkdir %s: %s\n", o.dir, strerror(-r));
			return 1;
		}
	}
	wl_hist_init(lat);
	wl_rng_seed(&rng, o.seed);
	/* B first, then A: A is the most recent when the warm-up makes it hot. */
	r = set_make(&o, "b", npages * (uint64_t)page, &rng, &set[1]);
	if (r == 0)
		r = set_make(&o, "a", npages * (uint64_t)page, &rng, &set[0]);
	if (r < 0) {
		fprintf(stderr, PROG ": making the %s sets: %s\n", o.kind, strerror(-r));
		return 1;
	}
	phase_run(&o, set[0], npages, &rng, NULL, &ph); /* warm-up: A hot */
	wsc_read(wsc0);
	for (uint64_t s = 1; s <= o.shifts; s++) {
		phase_run(&o, set[s % 2], npages, &rng, lat, &ph);
		ops += ph.ops;
		ns += ph.ns;
		majflt += ph.majflt;
		settle_sum += ph.settle_ns;
		settle_max = ph.settle_ns > settle_max ? ph.settle_ns : settle_max;
		settled += ph.settled;
		fprintf(stderr, PROG ": shift %llu to %c: %s after %.0f ms, %llu major faults, "
				"%llu accesses\n",
			(unsigned long long)s, s % 2 ? 'B' : 'A', ph.settled ? "settled" : "not settled",
			(double)ph.settle_ns / 1e6, (unsigned long long)ph.majflt,
			(unsigned long long)ph.ops);
	}
	wsc_read(wsc1);
	wl_result_common(ops, ns, lat);
	wl_result("settle_ms", (double)settle_sum / 1e6 / (double)o.shifts);
	wl_result("settle_ms_max", (double)settle_max / 1e6);
	wl_result("settled_shifts", (double)settled);
	wl_result("shift_majflt", (double)majflt / (double)o.shifts);
	for (size_t i = 0; i < 4; i++)
		if (wsc0[i] >= 0 && wsc1[i] >= 0)
			wl_result(wsc_results[i], (double)(wsc1[i] - wsc0[i]));
	wl_result("set_pages", (double)npages);
	return 0;
}
#endif /* WL_DEF_ONLY */
