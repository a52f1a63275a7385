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
 */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint64_t size = 0, stride = 64 << 10, passes = 4, duration_ms = 0;
	const char *advice = "normal", *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("size", WL_OPT_SIZE, &size),
		WL_OPT("stride", WL_OPT_SIZE, &stride),
		WL_OPT("passes", WL_OPT_U64, &passes),
		WL_OPT_CHOICE("advice", &advice, "normal|random|sequential"),
		WL_OPT("duration", WL_OPT_DURATION, &duration_ms),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_close_ int fd = -1;
	struct rusage ru0, ru1, ru_first;
	uint64_t ops = 0, t0, t1, deadline, touched;
	volatile unsigned char sink = 0;
	unsigned char *map;
	bool first_done = false;
	double disk;
	int adv, r;

	if (wl_opts_parse("wl-mmap-stride", argc, argv, opts) < 0)
		return 2;
	if (!stride || stride % (uint64_t)page || size < stride || !passes) {
		fprintf(stderr, "wl-mmap-stride: need a stride that is a multiple of the page size "
				"and size >= stride\n");
		return 2;
	}
	adv = !strcmp(advice, "random")	      ? MADV_RANDOM
	      : !strcmp(advice, "sequential") ? MADV_SEQUENTIAL
					      : MADV_NORMAL;
	r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-mmap-stride: mkdir %s: %s\n", dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/stride.dat", dir);
	r = wl_file_create(path, size, 7);
	if (r < 0) {
		fprintf(stderr, "wl-mmap-stride: %s: %s\n", path, strerror(-r));
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-mmap-stride: %s: %s\n", path, strerror(errno));
		return 1;
	}
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || madvise(map, size, adv) < 0) {
		fprintf(stderr, "wl-mmap-stride: mmap/madvise: %s\n", strerror(errno));
		return 1;
	}
	wl_hist_init(lat);
	touched = (size + stride - 1) / stride;

	getrusage(RUSAGE_SELF, &ru0);
	ru_first = ru0;
	t0 = wl_now_ns();
	deadline = duration_ms ? t0 + duration_ms * 1000000 : UINT64_MAX;
	for (uint64_t p = 0; p < passes; p++) {
		for (uint64_t off = 0; off < size; off += stride) {
			uint64_t a = wl_now_ns(), b;

			sink += map[off];
			b = wl_now_ns();
			wl_hist_add(lat, b - a);
			ops++;
			if ((ops & 255) == 0 && b >= deadline)
				goto done;
		}
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
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt), "faults", "lower");
	wl_result("majflt_warm", first_done ? (double)(ru1.ru_majflt - ru_first.ru_majflt) : 0,
		  "faults", "lower");
	wl_result("read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512, "bytes", "lower");
	disk = (double)(ru1.ru_inblock - ru0.ru_inblock) * 512;
	wl_result("read_amp", ops ? disk / ((double)ops * (double)page) : 0, "x", "lower");
	wl_result("touched_pages", (double)touched, "pages", "none");
	munmap(map, size);
	return 0;
}
