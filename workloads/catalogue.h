/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload catalogue, as the host sees it: one row per workload (its
 * guest binary, the claim it tests, its parameters with types and defaults,
 * the results it reports with unit and better direction). The rows live in
 * catalogue.c; the binaries are workloads/wl-NAME.c. Adding a workload is
 * one file and one row.
 */
#ifndef LRUBENCH_CATALOGUE_H
#define LRUBENCH_CATALOGUE_H

#include <stdbool.h>
#include <stdint.h>

enum wl_param_type {
	WLP_SIZE,     /* bytes with K/M/G suffix, or "2.5x" = times the memcg's memory.max */
	WLP_U64,      /* unsigned integer */
	WLP_FRACTION, /* decimal in [min, max] */
	WLP_DURATION, /* 500ms, 30s, 2m */
	WLP_CHOICE,   /* one word of choices, e.g. "normal|random|sequential" */
};

struct wl_param {
	const char *name; /* plan key and --name of the binary */
	enum wl_param_type type;
	const char *def;  /* default, or NULL if required */
	double min, max;  /* for WLP_FRACTION */
	const char *help;
	const char *choices; /* for WLP_CHOICE: the words allowed, '|' between them */
};

struct wl_metric {
	const char *key;    /* the result key the binary prints */
	const char *unit;
	const char *better; /* higher, lower, none */
	const char *help;
	const char *only;   /* NULL: always reported; "mglru": only when MGLRU is on */
};

struct workload_def {
	const char *name;   /* plan "type =" */
	const char *binary; /* path in the guest */
	const char *claims; /* DESIGN.md scenario ids */
	/*
	 * Its key results, space-separated: the few that decide a comparison of
	 * this workload (one verdict family, verdict.h); the rest are exploratory.
	 * A plan's [workload] "key =" replaces them.
	 */
	const char *decides;
	const char *description;
	const struct wl_param *params; /* terminated by a NULL name */
	const struct wl_metric *metrics;
	/*
	 * Files on the scratch disk: the run gets a fresh ext4 disk mounted at
	 * /scratch and the workload --dir=/scratch/NAME (NAME: the plan's).
	 */
	bool scratch;
	/* Host programs it runs from the read-only tools disk (/tools), or NULL. */
	const char *const *tools;
};

extern const struct workload_def *const workload_catalogue[];
const struct workload_def *workload_find(const char *name);
const struct wl_param *workload_param(const struct workload_def *w, const char *name);
/* Whether word is one of p's choices (WLP_CHOICE). */
bool wl_param_choice_ok(const struct wl_param *p, const char *word);

#endif
