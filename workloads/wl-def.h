/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a workloads/wl-NAME.c declares its definition (workload.h), once, at
 * its top, before its program:
 *
 *	struct opts {			// what the program's parser fills
 *		uint64_t size, duration_ms;
 *		double theta;
 *		const char *dir;
 *	};
 *
 *	WORKLOAD_DEF(my_thing) = {
 *		WL_NAME("my-thing"),
 *		.claims = "C7",
 *		.decides = "throughput",
 *		.description = "...; one op = one ...",
 *		.params = (const struct wl_param[]){
 *			PARAM_SIZE("size", size, NULL, "working set (bytes, or Nx memory.max)"),
 *			PARAM_FRACTION("theta", theta, "0.9", 0, 0.9999, "Zipf skew"),
 *			PARAM_DURATION("duration", duration_ms, "10s", "measured phase"),
 *			{},
 *		},
 *		.metrics = (const struct wl_metric[]){
 *			COMMON_METRICS,
 *			METRIC("majflt", "faults", "lower", "major faults"),
 *			{},
 *		},
 *		WL_SCRATCH(dir),
 *	};
 *
 *	#ifndef WL_DEF_ONLY
 *	... the program: wl_opts_parse(&wl_def_my_thing, argc, argv, &o), wl_result() ...
 *	#endif
 *
 * and adds WORKLOAD(my_thing) to workloads/WORKLOADS.def. The host compiles
 * the file with -DWL_DEF_ONLY: the definition alone, into its catalogue.
 * Each parameter names the field of struct opts its value goes to; the
 * field's type is checked at compile time (size, count: uint64_t; duration:
 * uint64_t ms; fraction: double; choice: const char *).
 */
#ifndef LRUBENCH_WL_DEF_H
#define LRUBENCH_WL_DEF_H

#include "workload.h"

#include <stddef.h>
#include <stdint.h>

#define WORKLOAD_DEF(id) const struct workload_def wl_def_##id

/* The plan type and the guest binary, /bin/wl-NAME. */
#define WL_NAME(n) .name = n, .binary = "/bin/wl-" n

/* offsetof(struct opts, field), which must be of type T: else "size of array is negative". */
#define WL_FIELD(field, T)                                                                    \
	(offsetof(struct opts, field) +                                                        \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((struct opts *)0)->field), T) \
				 ? 1                                                           \
				 : -1]))

#define PARAM_SIZE(n, field, d, h)                                                            \
	{ .name = n, .type = WLP_SIZE, .def = d, .help = h, .off = WL_FIELD(field, uint64_t) }
#define PARAM_U64(n, field, d, h)                                                             \
	{ .name = n, .type = WLP_U64, .def = d, .help = h, .off = WL_FIELD(field, uint64_t) }
/* Its field holds milliseconds. */
#define PARAM_DURATION(n, field, d, h)                                                        \
	{ .name = n, .type = WLP_DURATION, .def = d, .help = h, .off = WL_FIELD(field, uint64_t) }
#define PARAM_FRACTION(n, field, d, lo, hi, h)                                                \
	{ .name = n, .type = WLP_FRACTION, .def = d, .min = lo, .max = hi, .help = h,         \
	  .off = WL_FIELD(field, double) }
#define PARAM_CHOICE(n, field, d, c, h)                                                       \
	{ .name = n, .type = WLP_CHOICE, .def = d, .choices = c, .help = h,                   \
	  .off = WL_FIELD(field, const char *) }
/* lrubench gives every run's seed; run by hand, the binary's is 1. */
#define PARAM_SEED(field)                                                                     \
	{ .name = "seed", .type = WLP_U64, .guest_def = "1",                                  \
	  .help = "PRNG seed (default: the run's seed)", .off = WL_FIELD(field, uint64_t) }

#define METRIC(k, u, b, h) { .key = k, .unit = u, .better = b, .help = h }
#define METRIC_ONLY(k, u, b, h, o) { .key = k, .unit = u, .better = b, .help = h, .only = o }

/*
 * The result shape every workload reports first (workloads/lib/wl.h,
 * wl_result_common()). What one operation is differs per workload; its
 * description says.
 */
#define COMMON_METRICS                                                                        \
	METRIC("ops", "ops", "higher", "operations completed"),                               \
	METRIC("throughput", "ops/s", "higher", "operations per second"),                     \
	METRIC("lat_p50", "ns", "lower", "median operation latency"),                         \
	METRIC("lat_p90", "ns", "lower", "90th percentile latency"),                          \
	METRIC("lat_p99", "ns", "lower", "99th percentile latency"),                          \
	METRIC("lat_p999", "ns", "lower", "99.9th percentile latency"),                       \
	METRIC("duration", "s", "none", "measured phase wall time")

/* Files on the scratch disk: the binary's required --dir goes to field (a const char *). */
#define WL_SCRATCH(field) .scratch = true, .dir_off = WL_FIELD(field, const char *)

/* Host programs from the tools disk: WL_TOOLS("fio"). */
#define WL_TOOLS(...) (const char *const[]){ __VA_ARGS__, NULL }

#endif
