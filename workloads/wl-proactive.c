// SPDX-License-Identifier: GPL-2.0
/*
 * proactive: proactive reclaim from userspace, as a memory manager does
 * it. The memcg is filled with cold page cache (a file read once) and cold
 * anon, then asked to give back `request` bytes at a time:
 *
 *   1. `requests` writes of the request to memory.reclaim, each timed (the
 *      common latency shape is the write's); EAGAIN when the kernel could
 *      not reclaim that much;
 *   2. the cache read in again, then `high-steps` steps of memory.high,
 *      each `request` below the usage of the moment, then memory.high=max.
 *
 * What was reclaimed is the drop of memory.current around each request (an
 * exact page counter; memory.stat's pgsteal is flushed lazily and can lag
 * by a batch per CPU). reclaim_ratio is reclaimed / requested: 1 is exact,
 * above 1 over-reclaim (C3); over_reclaim_pct sums only the excess.
 */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

static char memcg[512];

static int current_bytes(uint64_t *ret)
{
	_cleanup_free_ char *path = xasprintf("%s/memory.current", memcg);
	_cleanup_free_ char *text = NULL;
	int r = read_file(path, 64, &text, NULL);

	return r < 0 ? r : parse_u64(strstrip(text), ret);
}

static int memcg_write(const char *file, uint64_t v, bool max)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", memcg, file);
	_cleanup_free_ char *val = max ? xstrdup("max") : xasprintf("%llu", (unsigned long long)v);

	return write_file(path, val);
}

static int read_through(const char *path, uint64_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[65536];

	if (fd < 0)
		return -errno;
	for (uint64_t off = 0; off < size;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (uint64_t)n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint64_t size = 0, anon_size = 0, request = 0, requests = 8, high_steps = 4;
	const char *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("size", WL_OPT_SIZE, &size),
		WL_OPT("anon-size", WL_OPT_SIZE, &anon_size),
		WL_OPT_REQ("request", WL_OPT_SIZE, &request),
		WL_OPT("requests", WL_OPT_U64, &requests),
		WL_OPT("high-steps", WL_OPT_U64, &high_steps),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	uint64_t requested = 0, reclaimed = 0, over = 0, eagain = 0, ops = 0, t0, t1;
	uint64_t high_req = 0, high_recl = 0;
	int r;

	if (wl_opts_parse("wl-proactive", argc, argv, opts) < 0)
		return 2;
	if (!size || !request || !requests) {
		fprintf(stderr, "wl-proactive: need size, request and requests\n");
		return 2;
	}
	r = wl_memcg_self(memcg, sizeof(memcg), NULL, 0);
	if (r == 0)
		r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-proactive: memcg or %s: %s\n", dir, strerror(-r));
		return 1;
	}
	/* Cold memory: the file read once, the anon written once. */
	path = xasprintf("%s/cold.dat", dir);
	r = wl_file_create(path, size, 11);
	if (r == 0)
		r = read_through(path, size);
	if (r < 0) {
		fprintf(stderr, "wl-proactive: %s: %s\n", path, strerror(-r));
		return 1;
	}
	if (anon_size) {
		unsigned char *anon = mmap(NULL, anon_size, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct wl_rng rng;

		if (anon == MAP_FAILED) {
			perror("wl-proactive: mmap");
			return 1;
		}
		wl_rng_seed(&rng, 3);
		for (uint64_t off = 0; off < anon_size; off += (uint64_t)page)
			*(uint64_t *)(anon + off) = wl_rng_next(&rng);
	}

	wl_hist_init(lat);
	t0 = wl_now_ns();
	for (uint64_t i = 0; i < requests; i++) {
		uint64_t before, after, a, b;

		if (current_bytes(&before) < 0)
			return 1;
		a = wl_now_ns();
		r = memcg_write("memory.reclaim", request, false);
		b = wl_now_ns();
		if (r < 0 && r != -EAGAIN) {
			fprintf(stderr, "wl-proactive: memory.reclaim: %s\n", strerror(-r));
			return 1;
		}
		eagain += r == -EAGAIN;
		if (current_bytes(&after) < 0)
			return 1;
		wl_hist_add(lat, b - a);
		ops++;
		requested += request;
		if (before > after) {
			reclaimed += before - after;
			if (before - after > request)
				over += before - after - request;
		}
	}
	t1 = wl_now_ns();

	/* memory.high steps, on the cache read in again. */
	r = read_through(path, size);
	for (uint64_t i = 0; i < high_steps && r == 0; i++) {
		uint64_t before, after;

		r = current_bytes(&before);
		if (r < 0 || before <= request)
			break;
		r = memcg_write("memory.high", before - request, false);
		if (r == 0)
			r = current_bytes(&after);
		if (r == 0) {
			high_req += request;
			high_recl += before > after ? before - after : 0;
		}
	}
	if (r < 0 || memcg_write("memory.high", 0, true) < 0) {
		fprintf(stderr, "wl-proactive: memory.high steps: %s\n", strerror(-r));
		return 1;
	}

	wl_result_common(ops, t1 - t0, lat);
	wl_result("requested_bytes", (double)requested, "bytes", "none");
	wl_result("reclaimed_bytes", (double)reclaimed, "bytes", "none");
	wl_result("reclaim_ratio", requested ? (double)reclaimed / (double)requested : 0, "ratio",
		  "none");
	wl_result("over_reclaim_pct", requested ? 100.0 * (double)over / (double)requested : 0,
		  "pct", "lower");
	wl_result("eagain", (double)eagain, "requests", "lower");
	wl_result("high_ratio", high_req ? (double)high_recl / (double)high_req : 0, "ratio",
		  "none");
	return 0;
}
