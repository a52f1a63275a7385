/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's definition: its name and guest binary, the claim it tests,
 * its parameters with types and defaults, the results it reports with unit
 * and better direction. Each workloads/wl-NAME.c declares its own, once, at
 * its top (wl-def.h has the macros): the binary parses its command line
 * with it (workloads/lib/wl-opts.h) and prints its results through it; the
 * host compiles the same declaration alone into its catalogue (catalogue.h),
 * which plan validation, 'lrubench list' and the README's table read.
 */
#ifndef LRUBENCH_WORKLOAD_H
#define LRUBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
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
	/*
	 * Default, or NULL: then required (wl_param__required()), except a count
	 * or a duration, which is unset (0) unless given.
	 */
	const char *def;
	double min, max;  /* for WLP_FRACTION */
	const char *help;
	const char *choices; /* for WLP_CHOICE: the words allowed, '|' between them */
	/*
	 * The binary's default where the plan's is NULL because lrubench always
	 * gives a value (the seed: the run's); matters only when run by hand.
	 */
	const char *guest_def;
	/* Where the binary's parser stores the value in its struct opts (wl-def.h). */
	size_t off;
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
	 * /scratch and the workload --dir=/scratch/NAME (NAME: the plan's),
	 * which its parser stores at dir_off of its struct opts.
	 */
	bool scratch;
	size_t dir_off;
	/* Host programs it runs from the read-only tools disk (/tools), or NULL. */
	const char *const *tools;
};

/* A parameter's value, by its type: u (size, count, duration in ms), d (fraction), s (choice). */
union wl_value {
	uint64_t u;
	double d;
	const char *s;
};

const struct wl_param *workload_param(const struct workload_def *w, const char *name);
const struct wl_metric *workload_metric(const struct workload_def *w, const char *key);
/* Whether word is one of p's choices (WLP_CHOICE). */
bool wl_param__choice_ok(const struct wl_param *p, const char *word);
/* Whether a plan and the binary's command line must give p (it has no default). */
bool wl_param__required(const struct wl_param *p);
/*
 * Parse v as p's type into *ret (a choice points into v). Pure. -EINVAL if
 * it is not one (a fraction outside [min, max], a word not among the choices).
 * Relative sizes ("2.5x") are the plan's: the binary gets bytes.
 */
int wl_param__parse(const struct wl_param *p, const char *v, union wl_value *ret);

#endif
