// SPDX-License-Identifier: GPL-2.0
/*
 * file-zipf: buffered random reads over a file set on the scratch disk,
 * Zipf-skewed, through fio (random_distribution=zipf:THETA, psync, one
 * job). fio lays the files out and drops their cache before the measured
 * phase; its JSON output becomes the common result shape (completion
 * latency percentiles from fio's own histogram).
 *
 * fio cannot say which reads missed the page cache; the kernel can: the
 * bytes the memcg read from the scratch disk over fio's run (io.stat, bios
 * issued, so readahead is included; fio's own text faults go to the tools
 * disk and do not count), and hit_ratio = 1 - those bytes / the bytes fio
 * read. Without the io controller, fio's rusage (blocks in) stands in.
 *
 * rate > 0 paces fio (--rate_iops): the reads in any window are then known
 * from the parameters (lrubench wss, harness/analysis/wss-model.c).
 */
#include "util.h"
#include "wl-opts.h"
#include "wl-parse.h"
#include "wl-sys.h"
#include "wl-tool.h"
#include "wl.h"

#include <math.h>
#include <string.h>

int main(int argc, char **argv)
{
	uint64_t size = 0, files = 4, bs = 4096, duration_ms = 10000, seed = 1, rate = 0;
	double theta = 1.2;
	const char *dir = NULL;
	const struct wl_opt opts[] = {
		WL_OPT_REQ("size", WL_OPT_SIZE, &size),
		WL_OPT("files", WL_OPT_U64, &files),
		WL_OPT_RANGE("theta", &theta, 0.01, 10),
		WL_OPT("bs", WL_OPT_SIZE, &bs),
		WL_OPT("duration", WL_OPT_DURATION, &duration_ms),
		WL_OPT("rate", WL_OPT_U64, &rate),
		WL_OPT("seed", WL_OPT_U64, &seed),
		WL_OPT_REQ("dir", WL_OPT_STRING, &dir),
		{},
	};
	_cleanup_free_ char *a_dir = NULL, *a_size = NULL, *a_nr = NULL, *a_bs = NULL;
	_cleanup_free_ char *a_dist = NULL, *a_rt = NULL, *a_seed = NULL, *out = NULL, *err = NULL;
	_cleanup_free_ char *a_rate = NULL;
	struct fio_result f;
	struct rusage ru;
	uint64_t io0 = 0, io1 = 0;
	int status, r, io;

	if (wl_opts_parse("wl-file-zipf", argc, argv, opts) < 0)
		return 2;
	if (fabs(theta - 1.0) < 1e-9 || !files || !bs || size / files < bs || !duration_ms) {
		fprintf(stderr, "wl-file-zipf: need theta != 1, files > 0, size >= files x bs, "
				"a duration\n");
		return 2;
	}
	r = wl_dir_make(dir);
	if (r < 0) {
		fprintf(stderr, "wl-file-zipf: mkdir %s: %s\n", dir, strerror(-r));
		return 1;
	}
	a_dir = xasprintf("--directory=%s", dir);
	a_size = xasprintf("--size=%llu", (unsigned long long)(size / files / bs * bs * files));
	a_nr = xasprintf("--nrfiles=%llu", (unsigned long long)files);
	a_bs = xasprintf("--bs=%llu", (unsigned long long)bs);
	a_dist = xasprintf("--random_distribution=zipf:%g", theta);
	a_rt = xasprintf("--runtime=%llums", (unsigned long long)duration_ms);
	a_seed = xasprintf("--randseed=%llu", (unsigned long long)seed);
	/* last: without a rate, its NULL ends the arguments */
	a_rate = rate ? xasprintf("--rate_iops=%llu", (unsigned long long)rate) : NULL;
	{
		const char *args[] = {
			"--name=file-zipf", a_dir, a_size, a_nr, a_bs, "--rw=randread", a_dist,
			"--ioengine=psync", "--direct=0", "--invalidate=1", "--time_based=1", a_rt,
			a_seed, "--thread", "--eta=never", "--output-format=json",
			"--percentile_list=50:90:99:99.9", a_rate, NULL,
		};

		io = wl_io_read_bytes(dir, &io0);
		r = wl_tool_run("fio", args, dir, &out, &status, &ru);
		if (io == 0)
			io = wl_io_read_bytes(dir, &io1);
	}
	if (r < 0) {
		fprintf(stderr, "wl-file-zipf: cannot run fio from " WL_TOOLS_DIR ": %s\n",
			strerror(-r));
		return 1;
	}
	if (status != 0) {
		fprintf(stderr, "wl-file-zipf: fio exited with %d\n", status);
		return 1;
	}
	r = fio_json_parse(out, &f, &err);
	if (r < 0 || f.error) {
		fprintf(stderr, "wl-file-zipf: %s\n", r < 0 ? err : "fio reports a job error");
		return 1;
	}
	{
		/* The common shape from fio's numbers. */
		double read_bytes = io == 0 ? (double)(io1 - io0) : (double)ru.ru_inblock * 512;

		wl_result("ops", (double)f.ios, "ops", "higher");
		wl_result("throughput", f.iops, "ops/s", "higher");
		wl_result("lat_p50", f.clat_ns[0], "ns", "lower");
		wl_result("lat_p90", f.clat_ns[1], "ns", "lower");
		wl_result("lat_p99", f.clat_ns[2], "ns", "lower");
		wl_result("lat_p999", f.clat_ns[3], "ns", "lower");
		wl_result("duration", f.runtime_s, "s", "none");
		wl_result("bandwidth", f.bw_bytes, "bytes/s", "higher");
		wl_result("read_bytes", read_bytes, "bytes", "lower");
		wl_result("hit_ratio",
			  f.io_bytes ? fmax(0, 1.0 - read_bytes / (double)f.io_bytes) : 0, "ratio",
			  "higher");
	}
	return 0;
}
