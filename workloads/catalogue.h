/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload catalogue, as the host sees it: every workload of
 * workloads/WORKLOADS.def, in its order, each the definition its
 * workloads/wl-NAME.c declares (workload.h), compiled into the host alone.
 * Adding a workload is one file and one row.
 */
#ifndef LRUBENCH_CATALOGUE_H
#define LRUBENCH_CATALOGUE_H

#include "workload.h"

#include <stdio.h>

extern const struct workload_def *const workload_catalogue[];
const struct workload_def *workload_find(const char *name);
/*
 * The README's table of workloads (between its "workloads table" markers):
 * one Markdown row per workload, name, claims and description.
 */
void workload_catalogue_markdown(FILE *f);

#endif
