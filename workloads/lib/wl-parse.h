/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output of the tools the wrapper workloads run, turned into the
 * common result shape. Pure: text in, numbers out; tested on output
 * captured from the versions Debian 12 ships (harness/tests/fixtures/tools/).
 */
#ifndef LRUBENCH_WL_PARSE_H
#define LRUBENCH_WL_PARSE_H

#include <stdint.h>

struct wl_hist;

/* fio --output-format=json (fio 3.x), the first job. */
struct fio_result {
	uint64_t ios;	    /* reads + writes completed */
	double iops;	    /* reads + writes per second */
	uint64_t io_bytes;
	double bw_bytes;    /* bytes per second */
	double runtime_s;   /* the longer of the read and write phases */
	double clat_ns[4];  /* completion latency p50, p90, p99, p99.9 of the reads (of the
			     * writes when there are none) */
	uint64_t majf;	    /* fio's major faults */
	int error;	    /* the job's error, 0 = none */
};
/* -EINVAL with *ret_err saying what is missing. */
int fio_json_parse(const char *text, struct fio_result *ret, char **ret_err);

/* sysbench 1.0 fileio run, text output with --histogram=on. */
struct sysbench_result {
	double reads_s, writes_s, fsyncs_s;
	double read_mib_s, written_mib_s;
	double total_time_s;
	uint64_t events;
	uint64_t hist_count; /* operations in the latency histogram */
};
/* The histogram's rows (milliseconds) are added to hist in ns. */
int sysbench_parse(const char *text, struct sysbench_result *ret, struct wl_hist *hist,
		   char **ret_err);

#endif
