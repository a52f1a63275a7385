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
 * memory.current also drops by the slab that reclaim's shrinkers free, and
 * C3 is about the LRU: lru_reclaim_ratio is the drop of memory.stat's anon
 * + file from before the first request to after the last, over all that
 * was requested. Nothing else runs in the memcg in between, so the stat's
 * flush lag (a charge batch per CPU) enters once, not once per request.
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t anon_size;
	uint64_t request;
	uint64_t requests;
	uint64_t high_steps;
	const char *dir;
};

WORKLOAD_DEF(proactive) = {
	WL_NAME("proactive"),
	.claims = "C3",
	.decides = "over_reclaim_pct lru_reclaim_ratio",
	.description = "cold page cache and anon in a memcg, then reclaim requests through "
		       "memory.reclaim and steps of memory.high; one op = one memory.reclaim write",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "cold page cache: a file read once"),
		PARAM_SIZE("anon-size", anon_size, "0", "cold anonymous memory beside it"),
		PARAM_SIZE("request", request, NULL,
			   "bytes per memory.reclaim write and memory.high step"),
		PARAM_U64("requests", requests, "8", "memory.reclaim writes"),
		PARAM_U64("high-steps", high_steps, "4", "memory.high steps after them"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("requested_bytes", "bytes", "none", "asked of memory.reclaim"),
		METRIC("reclaimed_bytes", "bytes", "none",
		       "drop of memory.current around the writes"),
		METRIC("reclaim_ratio", "ratio", "none", "reclaimed / requested (1 = exact)"),
		METRIC("lru_reclaimed_bytes", "bytes", "none",
		       "drop of memory.stat anon + file over the writes (slab excluded)"),
		METRIC("lru_reclaim_ratio", "ratio", "none",
		       "lru_reclaimed / requested (1 = exact; C3's primary signal)"),
		METRIC("over_reclaim_pct", "pct", "lower",
		       "reclaimed beyond the request, % of requested"),
		METRIC("eagain", "requests", "lower", "memory.reclaim writes refused (EAGAIN)"),
		METRIC("high_ratio", "ratio", "none",
		       "reclaimed / requested by the memory.high steps"),
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

static char memcg[512];

static int current_bytes(uint64_t *ret)
{
	_cleanup_free_ char *path = xasprintf("%s/memory.current", memcg);
	_cleanup_free_ char *text = NULL;
	int r = read_file(path, 64, &text, NULL);

	return r < 0 ? r : parse_u64(strstrip(text), ret);
}

/* memory.stat's anon + file: the memcg's LRU pages, in bytes. */
static int lru_bytes(uint64_t *ret)
{
	int64_t anon = 0, file = 0;
	int r = wl_memcg_read("memory.stat", "anon", &anon);

	if (r == 0)
		r = wl_memcg_read("memory.stat", "file", &file);
	if (r == 0)
		*ret = (uint64_t)(anon + file);
	return r;
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
	struct opts o = { 0 };
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	uint64_t requested = 0, reclaimed = 0, over = 0, eagain = 0, ops = 0, t0, t1;
	uint64_t high_req = 0, high_recl = 0, lru0 = 0, lru1 = 0;
	int r;

	r = wl_opts_parse(&wl_def_proactive, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (!o.size || !o.request || !o.requests) {
		fprintf(stderr, "wl-proactive: need size, request and requests\n");
		return 2;
	}
	r = wl_memcg_self(memcg, sizeof(memcg), NULL, 0);
	if (r == 0)
		r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-proactive: memcg or %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	/* Cold memory: the file read once, the anon written once. */
	path = xasprintf("%s/cold.dat", o.dir);
	r = wl_file_create(path, o.size, 11);
	if (r == 0)
		r = read_through(path, o.size);
	if (r < 0) {
		fprintf(stderr, "wl-proactive: %s: %s\n", path, strerror(-r));
		return 1;
	}
	if (o.anon_size) {
		unsigned char *anon = mmap(NULL, o.anon_size, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct wl_rng rng;

		if (anon == MAP_FAILED) {
			perror("wl-proactive: mmap");
			return 1;
		}
		wl_rng_seed(&rng, 3);
		for (uint64_t off = 0; off < o.anon_size; off += (uint64_t)page)
			*(uint64_t *)(anon + off) = wl_rng_next(&rng);
	}

	wl_hist_init(lat);
	if (lru_bytes(&lru0) < 0) {
		fprintf(stderr, "wl-proactive: memory.stat anon, file: unreadable\n");
		return 1;
	}
	t0 = wl_now_ns();
	for (uint64_t i = 0; i < o.requests; i++) {
		uint64_t before, after, a, b;

		if (current_bytes(&before) < 0)
			return 1;
		a = wl_now_ns();
		r = memcg_write("memory.reclaim", o.request, false);
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
		requested += o.request;
		if (before > after) {
			reclaimed += before - after;
			if (before - after > o.request)
				over += before - after - o.request;
		}
	}
	t1 = wl_now_ns();
	if (lru_bytes(&lru1) < 0)
		return 1;

	/* memory.high steps, on the cache read in again. */
	r = read_through(path, o.size);
	for (uint64_t i = 0; i < o.high_steps && r == 0; i++) {
		uint64_t before, after;

		r = current_bytes(&before);
		if (r < 0 || before <= o.request)
			break;
		r = memcg_write("memory.high", before - o.request, false);
		if (r == 0)
			r = current_bytes(&after);
		if (r == 0) {
			high_req += o.request;
			high_recl += before > after ? before - after : 0;
		}
	}
	if (r < 0 || memcg_write("memory.high", 0, true) < 0) {
		fprintf(stderr, "wl-proactive: memory.high steps: %s\n", strerror(-r));
		return 1;
	}

	wl_result_common(ops, t1 - t0, lat);
	wl_result("requested_bytes", (double)requested);
	wl_result("reclaimed_bytes", (double)reclaimed);
	wl_result("reclaim_ratio", requested ? (double)reclaimed / (double)requested : 0);
	wl_result("over_reclaim_pct", requested ? 100.0 * (double)over / (double)requested : 0);
	wl_result("lru_reclaimed_bytes", lru0 > lru1 ? (double)(lru0 - lru1) : 0);
	if (requested)
		wl_result("lru_reclaim_ratio",
			  lru0 > lru1 ? (double)(lru0 - lru1) / (double)requested : 0);
	wl_result("eagain", (double)eagain);
	wl_result("high_ratio", high_req ? (double)high_recl / (double)high_req : 0);
	return 0;
}
#endif /* WL_DEF_ONLY */
