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
#include "wl-def.h"

struct opts {
	uint64_t anon_size;
	uint64_t file_size;
	double anon_ratio;
	double theta;
	double write_ratio;
	const char *file_access;
	uint64_t accesses;
	uint64_t duration_ms;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(anon_file_mix) = {
	WL_NAME("anon-file-mix"),
	.claims = "C1 C2",
	.decides = "anon_steal_pct majflt file_read_bytes",
	.description = "anon and file working sets in one memcg, Zipf accesses to each, zram "
		       "swap; the reclaim balance between them; one op = one page access",
	.params = (const struct wl_param[]){
		PARAM_SIZE("anon-size", anon_size, NULL, "anonymous set (bytes, or Nx memory.max)"),
		PARAM_SIZE("file-size", file_size, NULL, "file set"),
		PARAM_FRACTION("anon-ratio", anon_ratio, "0.5", 0, 1,
			       "fraction of accesses to the anon set"),
		PARAM_FRACTION("theta", theta, "0.9", 0, 0.9999, "Zipf skew within each set"),
		PARAM_FRACTION("write-ratio", write_ratio, "0.2", 0, 1,
			       "fraction of anon accesses that write"),
		PARAM_CHOICE("file-access", file_access, "read", "read|mmap",
			     "file pages through pread() or mmap"),
		PARAM_U64("accesses", accesses, NULL, "accesses in the measured phase"),
		PARAM_DURATION("duration", duration_ms, NULL, "or a time limit for it"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("majflt", "faults", "lower",
		       "major faults (swap-ins; file misses too with mmap)"),
		METRIC("file_read_bytes", "bytes", "lower", "bytes read from the scratch disk"),
		METRIC("pgsteal_anon", "pages", "none",
		       "anon pages reclaimed (/proc/vmstat delta)"),
		METRIC("pgsteal_file", "pages", "none",
		       "file pages reclaimed (/proc/vmstat delta)"),
		METRIC("anon_steal_pct", "pct", "none", "anon share of the pages reclaimed"),
		METRIC("steal_attributed", "ratio", "none",
		       "memcg pgsteal / vmstat pgsteal: 1 = the vmstat split is this "
		       "memcg's alone"),
		METRIC("active_anon_pct", "pct", "none",
		       "anon on the active list at the end (memory.stat)"),
		METRIC("active_file_pct", "pct", "none",
		       "file on the active list at the end (memory.stat)"),
		METRIC_ONLY("gen_anon_young_pct", "pct", "none",
		            "anon pages in the youngest generation (lru_gen)", "mglru"),
		METRIC_ONLY("gen_file_young_pct", "pct", "none",
		            "file pages in the youngest generation (lru_gen)", "mglru"),
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
	struct opts o = { 0 };
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

	r = wl_opts_parse(&wl_def_anon_file_mix, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	use_mmap = !strcmp(o.file_access, "mmap");
	anon_pages = o.anon_size / (uint64_t)page;
	file_pages = o.file_size / (uint64_t)page;
	if (wl_zipf_init(&zanon, anon_pages, o.theta) < 0 ||
	    wl_zipf_init(&zfile, file_pages, o.theta) < 0 || (!o.accesses && !o.duration_ms) ||
	    page > (long)sizeof(buf)) {
		fprintf(stderr, "wl-anon-file-mix: need sets of 2 pages or more, and accesses or "
				"a duration\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-anon-file-mix: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/mix.dat", o.dir);
	r = wl_file_create(path, file_pages * (uint64_t)page, o.seed + 1);
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
	wl_rng_seed(&rng, o.seed);
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
	deadline = o.duration_ms ? t0 + o.duration_ms * 1000000 : UINT64_MAX;
	for (;;) {
		bool is_anon = wl_rng_double(&rng) < o.anon_ratio;
		uint64_t a, b;

		if (is_anon) {
			uint64_t p = scatter(wl_zipf_next(&zanon, &rng), anon_pages);
			uint64_t *w = (uint64_t *)(anon + p * (uint64_t)page);
			bool write = wl_rng_double(&rng) < o.write_ratio;

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
		if (o.accesses && ops >= o.accesses)
			break;
		if ((ops & 1023) == 0 && b >= deadline)
			break;
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	counters_read(&c1);
	(void)sink;

	wl_result_common(ops, t1 - t0, lat);
	wl_result("majflt", (double)(ru1.ru_majflt - ru0.ru_majflt));
	wl_result("file_read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512);
	{
		double sa = (double)(c1.steal_anon - c0.steal_anon);
		double sf = (double)(c1.steal_file - c0.steal_file);
		double sm = (double)(c1.memcg_steal - c0.memcg_steal);

		wl_result("pgsteal_anon", sa);
		wl_result("pgsteal_file", sf);
		wl_result("anon_steal_pct", pct(sa, sa + sf));
		wl_result("steal_attributed", sa + sf > 0 ? sm / (sa + sf) : 0);
	}
	{
		int64_t aa = 0, ia = 0, af = 0, inf = 0;

		wl_memcg_read("memory.stat", "active_anon", &aa);
		wl_memcg_read("memory.stat", "inactive_anon", &ia);
		wl_memcg_read("memory.stat", "active_file", &af);
		wl_memcg_read("memory.stat", "inactive_file", &inf);
		wl_result("active_anon_pct", pct((double)aa, (double)(aa + ia)));
		wl_result("active_file_pct", pct((double)af, (double)(af + inf)));
	}
	if (wl_mglru_on() && wl_memcg_self(memcg_dir, sizeof(memcg_dir), memcg_rel,
					   sizeof(memcg_rel)) == 0) {
		struct wl_gen_sizes g;

		if (wl_lru_gen_read(memcg_rel, &g) == 0) {
			wl_result("gen_anon_young_pct", pct((double)g.young_anon, (double)g.anon));
			wl_result("gen_file_young_pct", pct((double)g.young_file, (double)g.file));
		} else {
			fprintf(stderr, "wl-anon-file-mix: memcg %s not in lru_gen\n", memcg_rel);
		}
	}
	return 0;
}
#endif /* WL_DEF_ONLY */
