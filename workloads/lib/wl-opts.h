/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload binary's command line, parsed with its definition (the
 * parameters at the top of its wl-NAME.c, wl-def.h): --name=VALUE for each
 * parameter, typed and range-checked in one place (wl_param__parse()), and
 * --dir=PATH for a workload with scratch files. lrubench passes every
 * parameter (the plan's defaults included), so the defaults only matter
 * when a binary is run by hand; --help prints them.
 */
#ifndef LRUBENCH_WL_OPTS_H
#define LRUBENCH_WL_OPTS_H

#include "workload.h"

#include <stdio.h>

/*
 * Fill opts, the program's struct opts, from w's defaults, then from argv.
 * Also makes w the workload whose results wl_result() prints. Returns 0;
 * 1 after printing the usage for --help (on stdout); -EINVAL after printing
 * "wl-NAME: ..." with the option and value to stderr.
 */
int wl_opts_parse(const struct workload_def *w, int argc, char **argv, void *opts);
/* The usage of w's binary: its description, options with types and defaults, results. */
void wl_opts_usage(const struct workload_def *w, FILE *f);

#endif
