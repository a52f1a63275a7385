// SPDX-License-Identifier: GPL-2.0
/*
 * mmap-stride: a file on the scratch disk, mmap'd and read one byte every
 * stride bytes, front to back, pass after pass.
 *
 * The pages touched are few (size / stride) and fit the memcg easily, but
 * every fault brings more: fault-around maps neighbours already cached and
 * read-around (mmap readahead) reads pages around the fault that this
 * workload never touches. How the LRU places those never-touched pages
 * decides whether the touched ones survive to the next pass: with the
 * touched set resident, passes after the first need no major faults
 * (majflt_warm). read_amp is disk bytes per byte of touched pages.
 *
 * Where the pages sit at the end, under either LRU: the resident share of
 * the touched pages and of the never-touched ones (mincore(), which faults
 * nothing in). Placing never-touched pages as used shows as untouched pages
 * resident while touched ones are not. Under MGLRU also the share of the
 * memcg's file pages in the youngest generation (lru_gen).
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t stride;
	uint64_t passes;
	const char *advice;
	uint64_t duration_ms;
	const char *dir;
};

WORKLOAD_DEF(mmap_stride) = {
	WL_NAME("mmap-stride"),
	.claims = "C6",
	.decides = "majflt read_amp",
	.description = "an mmap'd file read one byte per stride, pass after pass: fault-around "
		       "and readahead bring pages never touched; one op = one touch",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "file (bytes, or Nx memory.max)"),
		PARAM_SIZE("stride", stride, "64K", "distance between touches"),
		PARAM_U64("passes", passes, "4", "passes over the file"),
		PARAM_CHOICE("advice", advice, "normal", "normal|random|sequential",
			     "madvise() of the mapping"),
		PARAM_DURATION("duration", duration_ms, NULL, "time limit of the measured phase"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("majflt", "faults", "lower", "major faults, all passes"),
		METRIC("majflt_warm", "faults", "lower",
		       "major faults after the first pass (none when it did not finish)"),
		METRIC("passes_done", "passes", "none", "passes over the file completed"),
		METRIC("read_bytes", "bytes", "lower", "bytes read from the disk"),
		METRIC("read_amp", "x", "lower", "disk bytes per byte of the pages touched"),
		METRIC("touched_pages", "pages", "none", "distinct pages touched per pass"),
		METRIC("touched_resident_pct", "pct", "higher",
		       "touched pages resident at the end (mincore)"),
		METRIC("untouched_resident_pct", "pct", "none",
		       "never-touched pages of the file resident at the end (mincore)"),
		METRIC_ONLY("gen_file_young_pct", "pct", "none",
			    "the memcg's file pages in the youngest generation at the end (lru_gen)",
			    "mglru"),
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
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The resident shares of the touched pages and of the others, as results; -errno. */
static int report_residency(const unsigned char *map, uint64_t size, uint64_t stride, long page)
{
	uint64_t npages = (size + (uint64_t)page - 1) / (uint64_t)page, every = stride / (uint64_t)page;
	uint64_t t = 0, t_res = 0, u = 0, u_res = 0;
	_cleanup_free_ unsigned char *vec = xcalloc(npages, 1);

	if (mincore((void *)map, size, vec) < 0)
		return -errno;
	for (uint64_t i = 0; i < npages; i++) {
		bool res = vec[i] & 1;

		if (i % every == 0)
			t++, t_res += res;
		else
			u++, u_res += res;
	}
	wl_result("touched_resident_pct", pct(t_res, t));
	if (u)
		wl_result("untouched_resident_pct", pct(u_res, u));
	return 0;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct opts o = { 0 };
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_close_ int fd = -1;
	struct rusage ru0, ru1, ru_first;
	uint64_t ops = 0, passes_done = 0, t0, t1, deadline, touched;
	volatile unsigned char sink = 0;
	unsigned char *map;
	bool first_done = false;
	double disk;
	int adv, r;

	r = wl_opts_parse(&wl_def_mmap_stride, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (!o.stride || o.stride % (uint64_t)page || o.size < o.stride || !o.passes) {
		fprintf(stderr, "wl-mmap-stride: need a stride that is a multiple of the page size "
				"and size >= stride\n");
		return 2;
	}
	adv = !strcmp(o.advice, "random")	      ? MADV_RANDOM
	      : !strcmp(o.advice, "sequential") ? MADV_SEQUENTIAL
					      : MADV_NORMAL;
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-mmap-stride: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/stride.dat", o.dir);
	r = wl_file_create(path, o.size, 7);
	if (r < 0) {
		fprintf(stderr, "wl-mmap-stride: %s: %s\n", path, strerror(-r));
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-mmap-stride: %s: %s\n", path, strerror(errno));
		return 1;
	}
	map = mmap(NULL, o.size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || madvise(map, o.size, adv) < 0) {
		fprintf(stderr, "wl-mmap-stride: mmap/madvise: %s\n", strerror(errno));
		return 1;
	}
	wl_hist_init(lat);
	touched = (o.size + o.stride - 1) / o.stride;

	getrusage(RUSAGE_SELF, &ru0);
	ru_first = ru0;
	t0 = wl_now_ns();
	deadline = o.duration_ms ? t0 + o.duration_ms * 1000000 : UINT64_MAX;
	for (uint64_t p = 0; p < o.passes; p++) {
		for (uint64_t off = 0; off < o.size; off += o.stride) {
			uint64_t a = wl_now_ns(), b;

			sink += map[off];
			b = wl_now_ns();
			wl_hist_add(lat, b - a);
			ops++;
			if ((ops & 255) == 0 && b >= deadline)
				goto done;
		}
		passes_done++;
		if (p == 0) {
			getrusage(RUSAGE_SELF, &ru_first);
			first_done = true;
		}
	}
done:
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	(void)sink;

	wl_result_common(ops, t1 - t0, lat);
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt));
	/* undefined, not 0, when the first pass never finished (claims.c reads passes_done) */
	if (first_done)
		wl_result("majflt_warm", (double)(ru1.ru_majflt - ru_first.ru_majflt));
	wl_result("passes_done", (double)passes_done);
	wl_result("read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512);
	disk = (double)(ru1.ru_inblock - ru0.ru_inblock) * 512;
	wl_result("read_amp", ops ? disk / ((double)ops * (double)page) : 0);
	wl_result("touched_pages", (double)touched);
	r = report_residency(map, o.size, o.stride, page);
	if (r < 0)
		fprintf(stderr, "wl-mmap-stride: mincore: %s\n", strerror(-r));
	if (wl_mglru_on()) {
		char dir[512], rel[512];
		struct wl_gen_sizes g;

		if (wl_memcg_self(dir, sizeof(dir), rel, sizeof(rel)) == 0 &&
		    wl_lru_gen_read(rel, &g) == 0)
			wl_result("gen_file_young_pct", pct(g.young_file, g.file));
		else
			fprintf(stderr, "wl-mmap-stride: own memcg not in lru_gen\n");
	}
	munmap(map, o.size);
	return 0;
}
#endif /* WL_DEF_ONLY */
