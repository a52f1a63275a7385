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
#include "wl-def.h"

struct opts {
	uint64_t hot_size;
	uint64_t stream_size;
	uint64_t stream_files;
	uint64_t passes;
	uint64_t chunk;
	double theta;
	uint64_t hot_rate;
	uint64_t duration_ms;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(stream_hot) = {
	WL_NAME("stream-hot"),
	.claims = "C6",
	.decides = "hot_majflt stream_throughput",
	.description = "a sequential read() stream over a file set larger than the memcg beside a "
		       "hot file read at random through mmap; one op = one hot page access",
	.params = (const struct wl_param[]){
		PARAM_SIZE("hot-size", hot_size, NULL,
			   "hot file, mmap'd (bytes, or Nx memory.max)"),
		PARAM_SIZE("stream-size", stream_size, NULL, "streamed file set"),
		PARAM_U64("stream-files", stream_files, "4", "files in the streamed set"),
		PARAM_U64("passes", passes, "2", "passes over the streamed set"),
		PARAM_SIZE("chunk", chunk, "256K", "read() size of the stream"),
		PARAM_FRACTION("theta", theta, "0", 0, 0.9999,
			       "Zipf skew of hot accesses, 0 = uniform"),
		PARAM_U64("hot-rate", hot_rate, "0",
			  "hot accesses per second, 0 = as fast as it goes"),
		PARAM_DURATION("duration", duration_ms, NULL, "time limit of the measured phase"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("hot_majflt", "faults", "lower",
		       "major faults of the hot set (evicted, read back)"),
		METRIC("hot_read_bytes", "bytes", "lower", "disk bytes read for the hot set"),
		METRIC("hot_resident_pct", "pct", "higher",
		       "hot pages resident at the end (mincore)"),
		METRIC("stream_bytes", "bytes", "none", "bytes streamed"),
		METRIC("stream_throughput", "bytes/s", "higher", "stream read rate"),
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
	struct opts o = { 0 };
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

	r = wl_opts_parse(&wl_def_stream_hot, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	/* cppcheck reads the test below as "page may be 0"; sysconf's page size is not */
	npages = o.hot_size / (uint64_t)page; // cppcheck-suppress zerodivcond
	if (!o.stream_files || !o.passes || !o.chunk ||
	    o.stream_size / o.stream_files < (uint64_t)page ||
	    wl_zipf_init(&zipf, npages, o.theta) < 0) {
		fprintf(stderr, "wl-stream-hot: need a hot set of 2 pages or more, stream files of "
				"a page or more\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-stream-hot: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	/* The files, cold. */
	hot_path = xasprintf("%s/hot.dat", o.dir);
	r = wl_file_create(hot_path, npages * (uint64_t)page, o.seed);
	for (uint64_t i = 0; i < o.stream_files && r == 0; i++) {
		_cleanup_free_ char *p = xasprintf("%s/stream.%llu", o.dir, (unsigned long long)i);

		r = wl_file_create(p, o.stream_size / o.stream_files, o.seed + 1 + i);
	}
	if (r < 0) {
		fprintf(stderr, "wl-stream-hot: creating files in %s: %s\n", o.dir, strerror(-r));
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
	wl_rng_seed(&rng, o.seed);
	st = (struct stream){
		.dir = o.dir, .files = o.stream_files, .passes = o.passes, .chunk = o.chunk
	};
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = wl_now_ns();
	st.deadline = o.duration_ms ? t0 + o.duration_ms * 1000000 : UINT64_MAX;
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
		if (o.hot_rate && (ops & 15) == 0) {
			uint64_t due = t0 + (uint64_t)((double)ops * 1e9 / (double)o.hot_rate);

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
	wl_result("hot_majflt", (double)(ru1.ru_majflt - ru0.ru_majflt));
	wl_result("hot_read_bytes", (double)(ru1.ru_inblock - ru0.ru_inblock) * 512);
	wl_result("hot_resident_pct", 100.0 * (double)resident / (double)npages);
	wl_result("stream_bytes", (double)st.bytes);
	wl_result("stream_throughput",
		  st.t1 > st.t0 ? (double)st.bytes / ((double)(st.t1 - st.t0) / 1e9) : 0);
	munmap(hot, npages * (uint64_t)page);
	return 0;
}
#endif /* WL_DEF_ONLY */
