// SPDX-License-Identifier: GPL-2.0
/*
 * lowmem-cost: what reclaim costs on a small machine with little
 * reclaimable memory (C4). Most of the guest's memory is made
 * unreclaimable: `locked` of MemTotal mlocked, `shmem` of it in a memfd
 * (pinned when the guest has no swap). A file set of `churn` x MemTotal on
 * the scratch disk is then read in random chunks for the duration, so the
 * little memory left churns through global reclaim (kswapd, and direct
 * reclaim when kswapd falls behind). The plan's memcg needs no limit.
 *
 * MGLRU's page-table walk skips mlocked VMAs, so mlocked memory alone never
 * makes it work: `hot-anon` of MemTotal is mapped anonymous memory, not
 * locked, that the read loop keeps touching (hot-touch pages after each
 * read, round-robin), so that aging has mapped, young anon to find
 * (claims.c reads hot_anon_bytes as C4's precondition).
 *
 * Costs over the measured phase: kswapd's CPU time, per page kswapd
 * reclaimed; (kswapd CPU + this workload's system time) per page reclaimed
 * in all, an upper bound of reclaim CPU per page since system time also
 * holds the reads themselves; the share of direct reclaim; memory PSI.
 * The counters are system-wide: run it alone.
 */
#include "wl-def.h"

struct opts {
	double f_locked;
	double f_shmem;
	double f_churn;
	double f_hot;
	uint64_t hot_touch;
	uint64_t chunk;
	uint64_t duration_ms;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(lowmem_cost) = {
	WL_NAME("lowmem-cost"),
	.claims = "C4",
	.decides = "reclaim_ns_per_page kswapd_cpu_ms",
	.description = "a small machine mostly full of mlocked (and shmem) memory and hot mapped "
		       "anon, a file set churning through the rest: what global reclaim costs; "
		       "one op = one read",
	.params = (const struct wl_param[]){
		PARAM_FRACTION("locked", f_locked, "0.6", 0, 0.95, "share of MemTotal mlocked"),
		PARAM_FRACTION("shmem", f_shmem, "0", 0, 0.95,
			       "share of MemTotal in shmem (no swap: pinned)"),
		PARAM_FRACTION("churn", f_churn, "0.4", 0.01, 8, "file set as a share of MemTotal"),
		PARAM_FRACTION("hot-anon", f_hot, "0", 0, 0.95,
			       "share of MemTotal mapped anonymous, not locked, kept hot"),
		PARAM_U64("hot-touch", hot_touch, "16", "hot-anon pages written after each read"),
		PARAM_SIZE("chunk", chunk, "64K", "pread() size over the file set"),
		PARAM_DURATION("duration", duration_ms, "20s", "measured phase"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("kswapd_cpu_ms", "ms", "lower", "CPU time of kswapd over the phase"),
		METRIC("pgsteal", "pages", "none", "pages reclaimed system-wide (kswapd + direct)"),
		METRIC("kswapd_ns_per_page", "ns", "lower", "kswapd CPU per page kswapd reclaimed"),
		METRIC("reclaim_ns_per_page", "ns", "lower",
		       "(kswapd CPU + the workload's system time) per page reclaimed: "
		       "an upper bound"),
		METRIC("direct_pct", "pct", "lower",
		       "share of pages reclaimed directly (allocation stalls)"),
		METRIC("psi_some_ms", "ms", "lower",
		       "memory pressure stall (PSI some) over the phase"),
		METRIC("locked_bytes", "bytes", "none", "bytes mlocked"),
		METRIC("hot_anon_bytes", "bytes", "none",
		       "mapped anonymous bytes, not locked, touched through the phase"),
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

struct sys_counters {
	uint64_t kswapd_ns, psi_us;
	int64_t steal_kswapd, steal_direct;
};

static void sys_read(struct sys_counters *c)
{
	*c = (struct sys_counters){ 0 };
	wl_kswapd_cpu_ns(&c->kswapd_ns);
	wl_psi_some_us("/proc/pressure/memory", &c->psi_us);
	wl_flat_read("/proc/vmstat", "pgsteal_kswapd", &c->steal_kswapd);
	wl_flat_read("/proc/vmstat", "pgsteal_direct", &c->steal_direct);
}

static int fill(unsigned char *p, uint64_t bytes, long page)
{
	struct wl_rng rng;

	wl_rng_seed(&rng, 5);
	for (uint64_t off = 0; off < bytes; off += (uint64_t)page)
		*(uint64_t *)(p + off) = wl_rng_next(&rng);
	return 0;
}

static double tv_ns(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e9 + (double)tv->tv_usec * 1e3;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint64_t total, locked, shmem, churn, hot, hot_pages = 0, hot_next = 0;
	struct opts o = { 0 };
	_cleanup_free_ char *path = NULL, *buf = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_close_ int fd = -1, mfd = -1;
	struct sys_counters c0, c1;
	struct rusage ru0, ru1;
	struct wl_rng rng;
	uint64_t nchunks, ops = 0, t0, t1, deadline;
	unsigned char *lk, *hm = NULL;
	int r;

	r = wl_opts_parse(&wl_def_lowmem_cost, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (o.f_locked + o.f_shmem + o.f_hot > 0.95 || !o.chunk || o.chunk % (uint64_t)page ||
	    !o.duration_ms) {
		fprintf(stderr, "wl-lowmem-cost: need locked + shmem + hot-anon <= 0.95, a chunk "
				"that is a multiple of the page size, a duration\n");
		return 2;
	}
	r = wl_mem_total(&total);
	if (r == 0)
		r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-lowmem-cost: MemTotal or %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	locked = (uint64_t)(o.f_locked * (double)total) / (uint64_t)page * (uint64_t)page;
	shmem = (uint64_t)(o.f_shmem * (double)total) / (uint64_t)page * (uint64_t)page;
	churn = (uint64_t)(o.f_churn * (double)total) / o.chunk * o.chunk;
	hot = (uint64_t)(o.f_hot * (double)total) / (uint64_t)page * (uint64_t)page;
	if (churn < 2 * o.chunk) {
		fprintf(stderr, "wl-lowmem-cost: file set of %llu bytes is under two chunks\n",
			(unsigned long long)churn);
		return 2;
	}
	/* The file set first, while memory is free. */
	path = xasprintf("%s/churn.dat", o.dir);
	r = wl_file_create(path, churn, o.seed);
	fd = r < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-lowmem-cost: %s: %s\n", path, strerror(r < 0 ? -r : errno));
		return 1;
	}
	/* Then the unreclaimable memory. */
	if (locked) {
		lk = mmap(NULL, locked, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (lk == MAP_FAILED || mlock(lk, locked) < 0) {
			fprintf(stderr, "wl-lowmem-cost: mlock %llu bytes: %s\n",
				(unsigned long long)locked, strerror(errno));
			return 1;
		}
		fill(lk, locked, page);
	}
	if (shmem) {
		unsigned char *sm;

		mfd = memfd_create("lowmem-shmem", MFD_CLOEXEC);
		sm = mfd < 0 || ftruncate(mfd, (off_t)shmem) < 0
			     ? MAP_FAILED
			     : mmap(NULL, shmem, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
		if (sm == MAP_FAILED) {
			fprintf(stderr, "wl-lowmem-cost: shmem %llu bytes: %s\n",
				(unsigned long long)shmem, strerror(errno));
			return 1;
		}
		fill(sm, shmem, page);
		munmap(sm, shmem);
	}

	if (hot) {
		hm = mmap(NULL, hot, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (hm == MAP_FAILED) {
			fprintf(stderr, "wl-lowmem-cost: hot anon %llu bytes: %s\n",
				(unsigned long long)hot, strerror(errno));
			return 1;
		}
		fill(hm, hot, page);
		hot_pages = hot / (uint64_t)page;
	}

	buf = xcalloc(1, o.chunk);
	nchunks = churn / o.chunk;
	wl_rng_seed(&rng, o.seed);
	wl_hist_init(lat);
	sys_read(&c0);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = wl_now_ns();
	deadline = t0 + o.duration_ms * 1000000;
	for (;;) {
		uint64_t i = wl_rng_next(&rng) % nchunks, a, b;

		a = wl_now_ns();
		if (pread(fd, buf, o.chunk, (off_t)(i * o.chunk)) < 0) {
			perror("wl-lowmem-cost: pread");
			return 1;
		}
		b = wl_now_ns();
		wl_hist_add(lat, b - a);
		/* keep the mapped anon young: the walker's work (not timed with the read) */
		for (uint64_t k = 0; hot_pages && k < o.hot_touch; k++) {
			hm[hot_next * (uint64_t)page] ^= 1;
			hot_next = (hot_next + 1) % hot_pages;
		}
		ops++;
		if (b >= deadline)
			break;
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	sys_read(&c1);

	{
		double kswapd_ns = (double)(c1.kswapd_ns - c0.kswapd_ns);
		double sk = (double)(c1.steal_kswapd - c0.steal_kswapd);
		double sd = (double)(c1.steal_direct - c0.steal_direct);
		double sys_ns = tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime);

		wl_result_common(ops, t1 - t0, lat);
		wl_result("kswapd_cpu_ms", kswapd_ns / 1e6);
		wl_result("pgsteal", sk + sd);
		/* per page reclaimed: undefined (no value), not 0, when nothing was (a
		 * kswapd spinning without reclaiming is no cheap reclaim) */
		if (sk > 0)
			wl_result("kswapd_ns_per_page", kswapd_ns / sk);
		if (sk + sd > 0) {
			wl_result("reclaim_ns_per_page", (kswapd_ns + sys_ns) / (sk + sd));
			wl_result("direct_pct", 100.0 * sd / (sk + sd));
		}
		wl_result("psi_some_ms", (double)(c1.psi_us - c0.psi_us) / 1e3);
		wl_result("locked_bytes", (double)locked);
		wl_result("hot_anon_bytes", (double)hot);
	}
	return 0;
}
#endif /* WL_DEF_ONLY */
