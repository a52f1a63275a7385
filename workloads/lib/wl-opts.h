/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options of a workload binary as a table: --name=VALUE for
 * each row, typed and range-checked in one place. The host passes every
 * parameter of the catalogue row (its defaults included), so the defaults
 * set in the table only matter when a binary is run by hand.
 */
#ifndef LRUBENCH_WL_OPTS_H
#define LRUBENCH_WL_OPTS_H

#include <stdbool.h>
#include <stdint.h>

enum wl_opt_type {
	WL_OPT_SIZE,	 /* uint64_t bytes, K/M/G suffixes */
	WL_OPT_U64,	 /* uint64_t */
	WL_OPT_DOUBLE,	 /* double in [min, max] */
	WL_OPT_DURATION, /* uint64_t ms */
	WL_OPT_STRING,	 /* const char *; one of choices ("a|b") when set */
};

struct wl_opt {
	const char *name;
	enum wl_opt_type type;
	void *dst;
	bool required;
	double min, max;     /* WL_OPT_DOUBLE */
	const char *choices; /* WL_OPT_STRING */
};

#define WL_OPT(n, t, d) { .name = n, .type = t, .dst = d }
#define WL_OPT_REQ(n, t, d) { .name = n, .type = t, .dst = d, .required = true }
#define WL_OPT_RANGE(n, d, lo, hi)                                                          \
	{ .name = n, .type = WL_OPT_DOUBLE, .dst = d, .min = lo, .max = hi }
#define WL_OPT_CHOICE(n, d, c) { .name = n, .type = WL_OPT_STRING, .dst = d, .choices = c }

/*
 * Parse argv against opts (terminated by a NULL name). On error prints
 * "PROG: ..." with the option and value to stderr and returns -EINVAL.
 */
int wl_opts_parse(const char *prog, int argc, char **argv, const struct wl_opt *opts);

#endif
