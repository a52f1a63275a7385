// SPDX-License-Identifier: GPL-2.0
/*
 * dirty-write: buffered sequential writes of a file much larger than a
 * small memcg, pass after pass, then one fsync(). The memcg fills with
 * dirty and writeback pages that reclaim cannot free until they are
 * written: dirty throttling shows in the write() latency tail, and an LRU
 * that scans dirty pages badly ends in memcg OOM kills.
 *
 * The writer is a child process, the parent only watches: if the writer is
 * OOM-killed the parent still reports what it did (its counters live in a
 * shared page) and the kills from the memcg's memory.events.
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t bs;
	uint64_t passes;
	uint64_t duration_ms;
	const char *dir;
};

WORKLOAD_DEF(dirty_write) = {
	WL_NAME("dirty-write"),
	.claims = "C7",
	.decides = "bandwidth oom_kill",
	.description = "buffered sequential writes of a file much larger than a small memcg: "
		       "dirty pages and writeback under the limit; one op = one write()",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "file written per pass (bytes, or Nx memory.max)"),
		PARAM_SIZE("bs", bs, "1M", "write() size"),
		PARAM_U64("passes", passes, "1", "passes (later ones overwrite)"),
		PARAM_DURATION("duration", duration_ms, NULL, "time limit of the writes"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("bandwidth", "bytes/s", "higher", "bytes written per second"),
		METRIC("fsync_s", "s", "lower", "the final fsync()"),
		METRIC("oom_kill", "kills", "lower", "memcg OOM kills meanwhile (memory.events)"),
		METRIC("max_events", "events", "none",
		       "times the memcg hit memory.max (memory.events)"),
		METRIC("writer_killed", "count", "lower", "1 if the writer died of a signal"),
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
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

struct shared {
	struct wl_hist lat;
	uint64_t ops, bytes, t_start, t_end, fsync_ns;
	int done;
};

static int writer(struct shared *sh, const char *path, uint64_t size, uint64_t bs,
		  uint64_t passes, uint64_t duration_ms)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	_cleanup_free_ uint64_t *buf = xcalloc(bs / 8 + 1, 8);
	struct wl_rng rng;
	uint64_t deadline, t;

	if (fd < 0) {
		fprintf(stderr, "wl-dirty-write: %s: %s\n", path, strerror(errno));
		return 1;
	}
	wl_rng_seed(&rng, 42);
	sh->t_start = wl_now_ns();
	deadline = duration_ms ? sh->t_start + duration_ms * 1000000 : UINT64_MAX;
	for (uint64_t p = 0; p < passes; p++) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			return 1;
		for (uint64_t off = 0; off < size; off += bs) {
			uint64_t a, b;

			for (size_t i = 0; i < bs / 8; i += 512)
				buf[i] = wl_rng_next(&rng);
			a = wl_now_ns();
			if (write(fd, buf, bs) != (ssize_t)bs) {
				fprintf(stderr, "wl-dirty-write: write: %s\n", strerror(errno));
				return 1;
			}
			b = wl_now_ns();
			wl_hist_add(&sh->lat, b - a);
			sh->ops++;
			sh->bytes += bs;
			sh->t_end = b;
			if (b >= deadline)
				goto sync;
		}
	}
sync:
	t = wl_now_ns();
	if (fsync(fd) < 0) {
		fprintf(stderr, "wl-dirty-write: fsync: %s\n", strerror(errno));
		return 1;
	}
	sh->fsync_ns = wl_now_ns() - t;
	sh->done = 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ char *path = NULL;
	int64_t oom0 = 0, oom1 = 0, max0 = 0, max1 = 0;
	struct shared *sh;
	double secs;
	int status, r;
	pid_t pid;

	r = wl_opts_parse(&wl_def_dirty_write, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (!o.bs || o.bs % 8 || o.size < o.bs || !o.passes) {
		fprintf(stderr,
			"wl-dirty-write: need size >= bs > 0 (bs a multiple of 8), passes\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-dirty-write: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	path = xasprintf("%s/dirty.dat", o.dir);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("wl-dirty-write: mmap");
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	wl_hist_init(&sh->lat);
	wl_memcg_read("memory.events", "oom_kill", &oom0);
	wl_memcg_read("memory.events", "max", &max0);
	pid = fork();
	if (pid < 0) {
		perror("wl-dirty-write: fork");
		return 1;
	}
	if (pid == 0)
		_exit(writer(sh, path, o.size, o.bs, o.passes, o.duration_ms));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	wl_memcg_read("memory.events", "oom_kill", &oom1);
	wl_memcg_read("memory.events", "max", &max1);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return 1;
	wl_result_common(sh->ops, sh->t_end > sh->t_start ? sh->t_end - sh->t_start : 0, &sh->lat);
	secs = sh->t_end > sh->t_start ? (double)(sh->t_end - sh->t_start) / 1e9 : 0;
	wl_result("bandwidth", secs > 0 ? (double)sh->bytes / secs : 0);
	wl_result("fsync_s", (double)sh->fsync_ns / 1e9);
	wl_result("oom_kill", (double)(oom1 - oom0));
	wl_result("max_events", (double)(max1 - max0));
	wl_result("writer_killed", WIFSIGNALED(status) ? 1 : 0);
	return 0;
}
#endif /* WL_DEF_ONLY */
