// SPDX-License-Identifier: GPL-2.0
/*
 * sysbench-fileio: sysbench 1.0's fileio test on a file set on the scratch
 * disk, larger than the memcg: "prepare" writes the files (timed), their
 * cache is dropped, "run" does random reads (or read-writes) for the
 * duration with one thread. sysbench prints text only; its latency
 * histogram (--histogram=on, milliseconds) gives the percentiles, the
 * "File operations" and "Throughput" blocks the rest. Bytes read from the
 * scratch disk come from the memcg's io.stat (sysbench's rusage without the
 * io controller).
 */
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t files;
	const char *mode;
	uint64_t bs;
	uint64_t duration_ms;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(sysbench_fileio) = {
	WL_NAME("sysbench-fileio"),
	.claims = "C7",
	.decides = "throughput read_bytes",
	.description = "sysbench fileio, random read or read-write, on a file set larger than the "
		       "memcg; one op = one sysbench event",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "file set (bytes, or Nx memory.max)"),
		PARAM_U64("files", files, "8", "files in the set"),
		PARAM_CHOICE("mode", mode, "rndrd", "rndrd|rndrw|rndwr|seqrd",
			     "sysbench --file-test-mode"),
		PARAM_SIZE("bs", bs, "4K", "block size"),
		PARAM_DURATION("duration", duration_ms, "10s", "measured phase"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("reads_per_s", "ops/s", "higher", "reads per second"),
		METRIC("writes_per_s", "ops/s", "higher", "writes per second"),
		METRIC("read_mib_s", "MiB/s", "higher", "read throughput"),
		METRIC("written_mib_s", "MiB/s", "higher", "write throughput"),
		METRIC("read_bytes", "bytes", "lower",
		       "memcg's reads from the scratch disk, prepare and run (io.stat)"),
		METRIC("prepare_s", "s", "lower", "time to write the file set"),
		{},
	},
	WL_SCRATCH(dir),
	.tools = WL_TOOLS("sysbench"),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl-parse.h"
#include "wl-sys.h"
#include "wl-tool.h"
#include "wl.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>

/* Drop the cache of every file sysbench prepared (test_file.N). */
static void drop_cache(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL;
		_cleanup_close_ int fd = -1;

		if (strncmp(de->d_name, "test_file.", 10))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			wl_file_drop(fd);
	}
	closedir(d);
}

static int sysbench(const char *dir, const char *const *common, size_t ncommon,
		    const char *const *extra, const char *cmd, char **ret_out, struct rusage *ru)
{
	const char *args[24];
	size_t n = 0;
	int status, r;

	args[n++] = "fileio";
	for (size_t i = 0; i < ncommon; i++)
		args[n++] = common[i];
	for (size_t i = 0; extra && extra[i]; i++)
		args[n++] = extra[i];
	args[n++] = cmd;
	args[n] = NULL;
	r = wl_tool_run("sysbench", args, dir, ret_out, &status, ru);
	if (r < 0) {
		fprintf(stderr,
			"wl-sysbench-fileio: cannot run sysbench from " WL_TOOLS_DIR ": %s\n",
			strerror(-r));
		return r;
	}
	if (status != 0) {
		fprintf(stderr, "wl-sysbench-fileio: sysbench %s exited with %d:\n%s\n", cmd,
			status, *ret_out);
		return -EIO;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ char *a_size = NULL, *a_num = NULL, *a_bs = NULL, *a_mode = NULL;
	_cleanup_free_ char *a_time = NULL, *a_seed = NULL, *out = NULL, *err = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	struct sysbench_result sb;
	struct rusage ru_prep, ru_run;
	uint64_t t0, t1, io0 = 0, io1 = 0;
	int r, io;

	r = wl_opts_parse(&wl_def_sysbench_fileio, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (!o.files || !o.bs || o.size / o.files < o.bs || o.duration_ms < 1000) {
		fprintf(stderr, "wl-sysbench-fileio: need files > 0, size >= files x bs, a "
				"duration of at least 1s\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-sysbench-fileio: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	wl_hist_init(lat);
	a_size = xasprintf("--file-total-size=%llu", (unsigned long long)o.size);
	a_num = xasprintf("--file-num=%llu", (unsigned long long)o.files);
	a_bs = xasprintf("--file-block-size=%llu", (unsigned long long)o.bs);
	a_mode = xasprintf("--file-test-mode=%s", o.mode);
	a_time = xasprintf("--time=%llu", (unsigned long long)(o.duration_ms / 1000));
	a_seed = xasprintf("--rand-seed=%llu", (unsigned long long)o.seed);
	{
		const char *common[] = { a_size, a_num, a_bs, a_mode };
		const char *run_args[] = { a_time, a_seed, "--threads=1", "--histogram=on",
					   "--percentile=99", "--events=0", NULL };

		io = wl_io_read_bytes(o.dir, &io0);
		t0 = wl_now_ns();
		if (sysbench(o.dir, common, ARRAY_SIZE(common), NULL, "prepare", &out,
			     &ru_prep) < 0)
			return 1;
		drop_cache(o.dir);
		t1 = wl_now_ns();
		free(TAKE_PTR(out));
		if (sysbench(o.dir, common, ARRAY_SIZE(common), run_args, "run", &out, &ru_run) < 0)
			return 1;
		if (io == 0)
			io = wl_io_read_bytes(o.dir, &io1);
	}
	r = sysbench_parse(out, &sb, lat, &err);
	if (r < 0) {
		fprintf(stderr, "wl-sysbench-fileio: %s\n", err);
		return 1;
	}
	wl_result("ops", (double)sb.events);
	wl_result("throughput", sb.total_time_s > 0 ? (double)sb.events / sb.total_time_s : 0);
	wl_result("lat_p50", (double)wl_hist_quantile(lat, 0.50));
	wl_result("lat_p90", (double)wl_hist_quantile(lat, 0.90));
	wl_result("lat_p99", (double)wl_hist_quantile(lat, 0.99));
	wl_result("lat_p999", (double)wl_hist_quantile(lat, 0.999));
	wl_result("duration", sb.total_time_s);
	wl_result("reads_per_s", sb.reads_s);
	wl_result("writes_per_s", sb.writes_s);
	wl_result("read_mib_s", sb.read_mib_s);
	wl_result("written_mib_s", sb.written_mib_s);
	wl_result("read_bytes",
		  io == 0 ? (double)(io1 - io0)
			  : (double)(ru_prep.ru_inblock + ru_run.ru_inblock) * 512);
	wl_result("prepare_s", (double)(t1 - t0) / 1e9);
	return 0;
}
#endif /* WL_DEF_ONLY */
