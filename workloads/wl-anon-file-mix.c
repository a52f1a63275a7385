// SPDX-License-Identifier: GPL-2.0
/*
 * anon-file-mix: an anonymous set and a file set in one memcg, together
 * larger than it, with swap on zram. Each access picks a set (anon-ratio),
 * then a page by Zipf rank within it; anon accesses read or write a word,
 * file accesses pread() a page (or read it through mmap). Which pages the
 * LRU reclaims, anon or file, is the question (C1); sweeping swappiness
 * asks whether the knob moves it (C2).
 *
 * Reclaim balance. 6.1's memory.stat has no pgsteal_anon/pgsteal_file, so
 * the split comes from /proc/vmstat deltas over the measured phase; that is
 * this memcg's only when it is the only thing reclaiming, and
 * steal_attributed (memcg pgsteal / vmstat pgsteal_anon + pgsteal_file over
 * the same phase) says how far that holds: 1 means the split is all ours.
 * The per-type residency at the end comes from memory.stat (active share of
 * each type) and, under MGLRU, from lru_gen (each type's share in the
 * youngest generation).
 */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

/* A multiplicative permutation of [0, n): rank -> page, scattering hot ranks. */
static uint64_t scatter(uint64_t rank, uint64_t n)
{
	return (rank * 0x9e3779b97f4a7c15ULL % n + n / 3) % n;
}

struct counters {
	int64_t steal_anon, steal_file, memcg_steal;
};

static void counters_read(struct counters *c)
{
	*c = (struct counters){ 0 };
	wl_flat_read("/proc/vmstat", "pgsteal_anon", &c->steal_anon);
	wl_flat_read("/proc/vmstat", "pgsteal_file", &c->steal_file);
	wl_memcg_read("memory.stat", "pgsteal", &c->memcg_steal);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint64_t anon_size = 0, file_size = 0, accesses = 0, duration_ms = 0, seed = 1;
	double anon_ratio = 0.5, theta = 0.9, write_ratio = 0.2;
	const char *file_access = "read", *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("anon-size", WL_OPT_SIZE, &anon_size),
		WL_OPT_REQ("file-size", WL_OPT_SIZE, &file_size),
		WL_OPT_RANGE("anon-ratio", &anon_ratio, 0, 1),
		WL_OPT_RANGE("theta", &theta, 0, 0.9999),
		WL_OPT_RANGE("write-ratio", &write_ratio, 0, 1),
		WL_OPT_CHOICE("file-access", &file_access, "read|mmap"),
		WL_OPT("accesses", WL_OPT_U64, &accesses),
		WL_OPT("duration", WL_OPT_DURATION, &duration_ms),
		WL_OPT("seed", WL_OPT_U64, &seed),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_close_ int fd = -1;
	bool use_mmap;
	struct wl_zipf zanon, zfile;
	struct wl_rng rng;
	struct counters c0, c1;
	struct rusage ru0, ru1;
	uint64_t anon_pages, file_pages, ops = 0, t0, t1, deadline;
	volatile uint64_t sink = 0;
	unsigned char *anon, *fmap = NULL;
	char buf[4096], memcg_rel[512], memcg_dir[512];
	int r;

	if (wl_opts_parse("wl-anon-file-mix", argc, argv, opts) < 0)
		return 2;
	use_mmap = !strcmp(file_access, "mmap");
	anon_pages = anon_size / (uint64_t)page;
	file_pages = file_size / (uint64_t)page;
	if (wl_zipf_init(&zanon, anon_pages, theta) < 0 ||
	    wl_zipf_init(&zfile, file_pages, theta) < 0 || (!accesses && !duration_ms) ||
	    page > (long)sizeof(buf)) {
		fprintf(stderr, "wl-anon-file-mix: need sets of 2 pages or more, and accesses or "
				"a duration\n");
		return 2;
	}
	r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-anon-file-mix: mkdir %s: %s\n", dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/mix.dat", dir);
	r = wl_file_create(path, file_pages * (uint64_t)page, seed + 1);
	fd = r < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-anon-file-mix: %s: %s\n", path, strerror(r < 0 ? -r : errno));
		return 1;
	}
	if (use_mmap) {
		fmap = mmap(NULL, file_pages * (uint64_t)page, PROT_READ, MAP_SHARED, fd, 0);
		if (fmap == MAP_FAILED) {
			perror("wl-anon-file-mix: mmap file");
			return 1;
		}
	}
	anon = mmap(NULL, anon_pages * (uint64_t)page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		perror("wl-anon-file-mix: mmap anon");
		return 1;
	}
	wl_rng_seed(&rng, seed);
	/* Populate both: anon written (distinct content), the file read once. */
	for (uint64_t p = 0; p < anon_pages; p++) {
		uint64_t *w = (uint64_t *)(anon + p * (uint64_t)page);

		for (size_t i = 0; i < (size_t)page / sizeof(*w); i += 8)
			w[i] = wl_rng_next(&rng);
	}
	for (uint64_t p = 0; p < file_pages; p++) {
		if (use_mmap)
			sink += fmap[p * (uint64_t)page];
		else if (pread(fd, buf, (size_t)page, (off_t)(p * (uint64_t)page)) < 0)
			return 1;
	}

	wl_hist_init(lat);
	counters_read(&c0);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = wl_now_ns();
	deadline = duration_ms ? t0 + duration_ms * 1000000 : UINT64_MAX;
	for (;;) {
		bool is_anon = wl_rng_double(&rng) < anon_ratio;
		uint64_t a, b;

		if (is_anon) {
			uint64_t p = scatter(wl_zipf_next(&zanon, &rng), anon_pages);
			uint64_t *w = (uint64_t *)(anon + p * (uint64_t)page);
			bool write = wl_rng_double(&rng) < write_ratio;

			a = wl_now_ns();
			if (write)
				w[ops & 63] += 1;
			else
				sink += w[ops & 63];
			b = wl_now_ns();
		} else {
			uint64_t p = scatter(wl_zipf_next(&zfile, &rng), file_pages);

			a = wl_now_ns();
			if (use_mmap)
				sink += fmap[p * (uint64_t)page + (ops & 63)];
			else if (pread(fd, buf, (size_t)page, (off_t)(p * (uint64_t)page)) < 0)
				return 1;
			b = wl_now_ns();
		}
		wl_hist_add(lat, b - a);
		ops++;
		if (accesses && ops >= accesses)
			break;
		if ((ops & 1023) == 0 && b >= deadline)
			break;
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	counters_read(&c1);
	(void)sink;

	wl_result_common(ops, t1 - t0, lat);
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt), "faults", "lower");
	wl_result("file_read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512, "bytes",
		  "lower");
	{
		double sa = (double)(c1.steal_anon - c0.steal_anon);
		double sf = (double)(c1.steal_file - c0.steal_file);
		double sm = (double)(c1.memcg_steal - c0.memcg_steal);

		wl_result("pgsteal_anon", sa, "pages", "none");
		wl_result("pgsteal_file", sf, "pages", "none");
		wl_result("anon_steal_pct", pct(sa, sa + sf), "pct", "none");
		wl_result("steal_attributed", sa + sf > 0 ? sm / (sa + sf) : 0, "ratio", "none");
	}
	{
		int64_t aa = 0, ia = 0, af = 0, inf = 0;

		wl_memcg_read("memory.stat", "active_anon", &aa);
		wl_memcg_read("memory.stat", "inactive_anon", &ia);
		wl_memcg_read("memory.stat", "active_file", &af);
		wl_memcg_read("memory.stat", "inactive_file", &inf);
		wl_result("active_anon_pct", pct((double)aa, (double)(aa + ia)), "pct", "none");
		wl_result("active_file_pct", pct((double)af, (double)(af + inf)), "pct", "none");
	}
	if (wl_mglru_on() && wl_memcg_self(memcg_dir, sizeof(memcg_dir), memcg_rel,
					   sizeof(memcg_rel)) == 0) {
		struct wl_gen_sizes g;

		if (wl_lru_gen_read(memcg_rel, &g) == 0) {
			wl_result("gen_anon_young_pct", pct((double)g.young_anon, (double)g.anon),
				  "pct", "none");
			wl_result("gen_file_young_pct", pct((double)g.young_file, (double)g.file),
				  "pct", "none");
		} else {
			fprintf(stderr, "wl-anon-file-mix: memcg %s not in lru_gen\n", memcg_rel);
		}
	}
	return 0;
}
