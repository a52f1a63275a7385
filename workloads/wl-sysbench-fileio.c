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
	uint64_t size = 0, files = 8, bs = 4096, duration_ms = 10000, seed = 1;
	const char *mode = "rndrd", *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("size", WL_OPT_SIZE, &size),
		WL_OPT("files", WL_OPT_U64, &files),
		WL_OPT_CHOICE("mode", &mode, "rndrd|rndrw|rndwr|seqrd"),
		WL_OPT("bs", WL_OPT_SIZE, &bs),
		WL_OPT("duration", WL_OPT_DURATION, &duration_ms),
		WL_OPT("seed", WL_OPT_U64, &seed),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *a_size = NULL, *a_num = NULL, *a_bs = NULL, *a_mode = NULL;
	_cleanup_free_ char *a_time = NULL, *a_seed = NULL, *out = NULL, *err = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	struct sysbench_result sb;
	struct rusage ru_prep, ru_run;
	uint64_t t0, t1, io0 = 0, io1 = 0;
	int r, io;

	if (wl_opts_parse("wl-sysbench-fileio", argc, argv, opts) < 0)
		return 2;
	if (!files || !bs || size / files < bs || duration_ms < 1000) {
		fprintf(stderr, "wl-sysbench-fileio: need files > 0, size >= files x bs, a "
				"duration of at least 1s\n");
		return 2;
	}
	r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-sysbench-fileio: mkdir %s: %s\n", dir, strerror(-r));
		return 1;
	}
	wl_hist_init(lat);
	a_size = xasprintf("--file-total-size=%llu", (unsigned long long)size);
	a_num = xasprintf("--file-num=%llu", (unsigned long long)files);
	a_bs = xasprintf("--file-block-size=%llu", (unsigned long long)bs);
	a_mode = xasprintf("--file-test-mode=%s", mode);
	a_time = xasprintf("--time=%llu", (unsigned long long)(duration_ms / 1000));
	a_seed = xasprintf("--rand-seed=%llu", (unsigned long long)seed);
	{
		const char *common[] = { a_size, a_num, a_bs, a_mode };
		const char *run_args[] = { a_time, a_seed, "--threads=1", "--histogram=on",
					   "--percentile=99", "--events=0", NULL };

		io = wl_io_read_bytes(dir, &io0);
		t0 = wl_now_ns();
		if (sysbench(dir, common, ARRAY_SIZE(common), NULL, "prepare", &out, &ru_prep) < 0)
			return 1;
		drop_cache(dir);
		t1 = wl_now_ns();
		free(TAKE_PTR(out));
		if (sysbench(dir, common, ARRAY_SIZE(common), run_args, "run", &out, &ru_run) < 0)
			return 1;
		if (io == 0)
			io = wl_io_read_bytes(dir, &io1);
	}
	r = sysbench_parse(out, &sb, lat, &err);
	if (r < 0) {
		fprintf(stderr, "wl-sysbench-fileio: %s\n", err);
		return 1;
	}
	wl_result("ops", (double)sb.events, "ops", "higher");
	wl_result("throughput", sb.total_time_s > 0 ? (double)sb.events / sb.total_time_s : 0,
		  "ops/s", "higher");
	wl_result("lat_p50", (double)wl_hist_quantile(lat, 0.50), "ns", "lower");
	wl_result("lat_p90", (double)wl_hist_quantile(lat, 0.90), "ns", "lower");
	wl_result("lat_p99", (double)wl_hist_quantile(lat, 0.99), "ns", "lower");
	wl_result("lat_p999", (double)wl_hist_quantile(lat, 0.999), "ns", "lower");
	wl_result("duration", sb.total_time_s, "s", "none");
	wl_result("reads_per_s", sb.reads_s, "ops/s", "higher");
	wl_result("writes_per_s", sb.writes_s, "ops/s", "higher");
	wl_result("read_mib_s", sb.read_mib_s, "MiB/s", "higher");
	wl_result("written_mib_s", sb.written_mib_s, "MiB/s", "higher");
	wl_result("read_bytes",
		  io == 0 ? (double)(io1 - io0)
			  : (double)(ru_prep.ru_inblock + ru_run.ru_inblock) * 512,
		  "bytes", "lower");
	wl_result("prepare_s", (double)(t1 - t0) / 1e9, "s", "lower");
	return 0;
}
