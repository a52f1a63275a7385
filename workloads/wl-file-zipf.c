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
#include "wl-def.h"

struct opts {
	uint64_t size;
	uint64_t files;
	double theta;
	uint64_t bs;
	uint64_t duration_ms;
	uint64_t rate;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(file_zipf) = {
	WL_NAME("file-zipf"),
	.claims = "C7",
	.decides = "throughput hit_ratio",
	.description = "fio: buffered 4K random reads over a file set on the scratch disk, "
		       "random_distribution=zipf; one op = one read",
	.params = (const struct wl_param[]){
		PARAM_SIZE("size", size, NULL, "file set (bytes, or Nx memory.max)"),
		PARAM_U64("files", files, "4", "files in the set (fio nrfiles)"),
		PARAM_FRACTION("theta", theta, "1.2", 0.01, 10, "fio's Zipf theta (not 1.0)"),
		PARAM_SIZE("bs", bs, "4K", "read size"),
		PARAM_DURATION("duration", duration_ms, "10s", "measured phase (fio runtime)"),
		PARAM_U64("rate", rate, "0", "reads per second (fio rate_iops), 0 = unpaced"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("bandwidth", "bytes/s", "higher", "bytes read per second"),
		METRIC("read_bytes", "bytes", "lower",
		       "memcg's reads from the scratch disk (io.stat): misses and readahead"),
		METRIC("hit_ratio", "ratio", "higher",
		       "1 - disk bytes / bytes read: page cache hits"),
		{},
	},
	WL_SCRATCH(dir),
	.tools = WL_TOOLS("fio"),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
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
	struct opts o = { 0 };
	_cleanup_free_ char *a_dir = NULL, *a_size = NULL, *a_nr = NULL, *a_bs = NULL;
	_cleanup_free_ char *a_dist = NULL, *a_rt = NULL, *a_seed = NULL, *out = NULL, *err = NULL;
	_cleanup_free_ char *a_rate = NULL;
	struct fio_result f;
	struct rusage ru;
	uint64_t io0 = 0, io1 = 0;
	int status, r, io;

	r = wl_opts_parse(&wl_def_file_zipf, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (fabs(o.theta - 1.0) < 1e-9 || !o.files || !o.bs || o.size / o.files < o.bs ||
	    !o.duration_ms) {
		fprintf(stderr, "wl-file-zipf: need theta != 1, files > 0, size >= files x bs, "
				"a duration\n");
		return 2;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, "wl-file-zipf: mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	a_dir = xasprintf("--directory=%s", o.dir);
	a_size = xasprintf("--size=%llu",
			   (unsigned long long)(o.size / o.files / o.bs * o.bs * o.files));
	a_nr = xasprintf("--nrfiles=%llu", (unsigned long long)o.files);
	a_bs = xasprintf("--bs=%llu", (unsigned long long)o.bs);
	a_dist = xasprintf("--random_distribution=zipf:%g", o.theta);
	a_rt = xasprintf("--runtime=%llums", (unsigned long long)o.duration_ms);
	a_seed = xasprintf("--randseed=%llu", (unsigned long long)o.seed);
	/* last: without a rate, its NULL ends the arguments */
	a_rate = o.rate ? xasprintf("--rate_iops=%llu", (unsigned long long)o.rate) : NULL;
	{
		const char *args[] = {
			"--name=file-zipf", a_dir, a_size, a_nr, a_bs, "--rw=randread", a_dist,
			"--ioengine=psync", "--direct=0", "--invalidate=1", "--time_based=1", a_rt,
			a_seed, "--thread", "--eta=never", "--output-format=json",
			"--percentile_list=50:90:99:99.9", a_rate, NULL,
		};

		io = wl_io_read_bytes(o.dir, &io0);
		r = wl_tool_run("fio", args, o.dir, &out, &status, &ru);
		if (io == 0)
			io = wl_io_read_bytes(o.dir, &io1);
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

		wl_result("ops", (double)f.ios);
		wl_result("throughput", f.iops);
		wl_result("lat_p50", f.clat_ns[0]);
		wl_result("lat_p90", f.clat_ns[1]);
		wl_result("lat_p99", f.clat_ns[2]);
		wl_result("lat_p999", f.clat_ns[3]);
		wl_result("duration", f.runtime_s);
		wl_result("bandwidth", f.bw_bytes);
		wl_result("read_bytes", read_bytes);
		wl_result("hit_ratio",
			  f.io_bytes ? fmax(0, 1.0 - read_bytes / (double)f.io_bytes) : 0);
	}
	return 0;
}
#endif /* WL_DEF_ONLY */
