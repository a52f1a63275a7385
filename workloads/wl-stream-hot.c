// SPDX-License-Identifier: GPL-2.0
/*
 * stream-hot: scan resistance. A hot file that fits the memcg is mmap'd,
 * read once (so it is resident), then read at random page by page while a
 * second thread streams read() through a file set several times the memcg,
 * pass after pass. Streamed pages are used once; an LRU that resists scans
 * evicts them before the hot pages.
 *
 * The hot set's major faults, disk bytes and latency are its own (per
 * thread rusage), apart from the stream's; hot_resident_pct is the share of
 * hot pages resident at the end (mincore). The common result shape is the
 * hot set's: one op is one hot page access.
 *
 * Unthrottled, the hot thread touches every hot page many times a second and
 * no LRU evicts them; hot-rate paces it (accesses per second) so that a hot
 * page is touched every few seconds, while the stream turns the memcg over,
 * which is where the LRUs' scan resistance differs.
 */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

struct stream {
	const char *dir;
	uint64_t files, passes, chunk, deadline;
	uint64_t bytes, t0, t1;
	struct rusage ru0, ru1;
	atomic_bool done;
	int err;
};

static void *stream_run(void *arg)
{
	struct stream *s = arg;
	_cleanup_free_ char *buf = xcalloc(1, s->chunk);

	getrusage(RUSAGE_THREAD, &s->ru0);
	s->t0 = wl_now_ns();
	for (uint64_t p = 0; p < s->passes && !s->err; p++) {
		for (uint64_t i = 0; i < s->files && !s->err; i++) {
			_cleanup_free_ char *path = xasprintf("%s/stream.%llu", s->dir,
							      (unsigned long long)i);
			_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
			ssize_t n;

			if (fd < 0) {
				s->err = errno;
				break;
			}
			while ((n = read(fd, buf, s->chunk)) > 0)
				s->bytes += (uint64_t)n;
			if (n < 0)
				s->err = errno;
			if (wl_now_ns() >= s->deadline)
				goto out;
		}
	}
out:
	s->t1 = wl_now_ns();
	getrusage(RUSAGE_THREAD, &s->ru1);
	atomic_store(&s->done, true);
	return NULL;
}

/* A multiplicative permutation of [0, n): rank -> page, scattering hot ranks. */
static uint64_t scatter(uint64_t rank, uint64_t n)
{
	return (rank * 0x9e3779b97f4a7c15ULL % n + n / 3) % n;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint64_t hot_size = 0, stream_size = 0, stream_files = 4, passes = 2, chunk = 256 << 10;
	uint64_t duration_ms = 0, seed = 1, hot_rate = 0;
	double theta = 0;
	const char *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("hot-size", WL_OPT_SIZE, &hot_size),
		WL_OPT_REQ("stream-size", WL_OPT_SIZE, &stream_size),
		WL_OPT("stream-files", WL_OPT_U64, &stream_files),
		WL_OPT("passes", WL_OPT_U64, &passes),
		WL_OPT("chunk", WL_OPT_SIZE, &chunk),
		WL_OPT_RANGE("theta", &theta, 0, 0.9999),
		WL_OPT("hot-rate", WL_OPT_U64, &hot_rate),
		WL_OPT("duration", WL_OPT_DURATION, &duration_ms),
		WL_OPT("seed", WL_OPT_U64, &seed),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *hot_path = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_free_ unsigned char *vec = NULL;
	_cleanup_close_ int fd = -1;
	struct stream st = { 0 };
	struct rusage ru0, ru1;
	struct wl_zipf zipf;
	struct wl_rng rng;
	uint64_t npages, ops = 0, t0, t1, resident = 0;
	volatile unsigned char sink = 0;
	unsigned char *hot;
	pthread_t th;
	int r;

	if (wl_opts_parse("wl-stream-hot", argc, argv, opts) < 0)
		return 2;
	/* cppcheck reads the test below as "page may be 0"; sysconf's page size is not */
	npages = hot_size / (uint64_t)page; // cppcheck-suppress zerodivcond
	if (!stream_files || !passes || !chunk || stream_size / stream_files < (uint64_t)page ||
	    wl_zipf_init(&zipf, npages, theta) < 0) {
		fprintf(stderr, "wl-stream-hot: need a hot set of 2 pages or more, stream files of "
				"a page or more\n");
		return 2;
	}
	r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-stream-hot: mkdir %s: %s\n", dir, strerror(-r));
		return 1;
	}
	/* The files, cold. */
	hot_path = xasprintf("%s/hot.dat", dir);
	r = wl_file_create(hot_path, npages * (uint64_t)page, seed);
	for (uint64_t i = 0; i < stream_files && r == 0; i++) {
		_cleanup_free_ char *p = xasprintf("%s/stream.%llu", dir, (unsigned long long)i);

		r = wl_file_create(p, stream_size / stream_files, seed + 1 + i);
	}
	if (r < 0) {
		fprintf(stderr, "wl-stream-hot: creating files in %s: %s\n", dir, strerror(-r));
		return 1;
	}
	fd = open(hot_path, O_RDONLY | O_CLOEXEC);
	hot = fd < 0 ? MAP_FAILED
		     : mmap(NULL, npages * (uint64_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (hot == MAP_FAILED) {
		fprintf(stderr, "wl-stream-hot: %s: %s\n", hot_path, strerror(errno));
		return 1;
	}
	/* The hot set, resident before the stream starts. */
	for (uint64_t p = 0; p < npages; p++)
		sink += hot[p * (uint64_t)page];

	wl_hist_init(lat);
	wl_rng_seed(&rng, seed);
	st = (struct stream){ .dir = dir, .files = stream_files, .passes = passes, .chunk = chunk };
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = wl_now_ns();
	st.deadline = duration_ms ? t0 + duration_ms * 1000000 : UINT64_MAX;
	r = pthread_create(&th, NULL, stream_run, &st);
	if (r) {
		fprintf(stderr, "wl-stream-hot: pthread_create: %s\n", strerror(r));
		return 1;
	}
	while (!atomic_load(&st.done)) {
		uint64_t p = scatter(wl_zipf_next(&zipf, &rng), npages);
		uint64_t a = wl_now_ns(), b;

		sink += hot[p * (uint64_t)page + (ops & 63)];
		b = wl_now_ns();
		wl_hist_add(lat, b - a);
		ops++;
		if (hot_rate && (ops & 15) == 0) {
			uint64_t due = t0 + (uint64_t)((double)ops * 1e9 / (double)hot_rate);

			if (due > b) {
				struct timespec ts = { (time_t)((due - b) / 1000000000),
						       (long)((due - b) % 1000000000) };

				nanosleep(&ts, NULL);
			}
		}
	}
	t1 = wl_now_ns();
	getrusage(RUSAGE_THREAD, &ru1);
	pthread_join(th, NULL);
	if (st.err) {
		fprintf(stderr, "wl-stream-hot: stream: %s\n", strerror(st.err));
		return 1;
	}
	vec = xcalloc(npages, 1);
	if (mincore(hot, npages * (uint64_t)page, vec) == 0)
		for (uint64_t p = 0; p < npages; p++)
			resident += vec[p] & 1;
	(void)sink;

	wl_result_common(ops, t1 - t0, lat);
	wl_result("hot_majflt", (double)(ru1.ru_majflt - ru0.ru_majflt), "faults", "lower");
	wl_result("hot_read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512, "bytes",
		  "lower");
	wl_result("hot_resident_pct", 100.0 * (double)resident / (double)npages, "pct", "higher");
	wl_result("stream_bytes", (double)st.bytes, "bytes", "none");
	wl_result("stream_throughput",
		  st.t1 > st.t0 ? (double)st.bytes / ((double)(st.t1 - st.t0) / 1e9) : 0,
		  "bytes/s", "higher");
	munmap(hot, npages * (uint64_t)page);
	return 0;
}
