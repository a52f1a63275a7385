/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What report.c hands the report writers (report-html.c, report-ci.c): the
 * campaign loaded once, its analysis, and what was rendered; never the
 * store.
 */
#ifndef LRUBENCH_REPORT_PRIV_H
#define LRUBENCH_REPORT_PRIV_H

#include "noise.h"
#include "plot.h"
#include "report-data.h"
#include "report.h"

#include <stdio.h>

struct report {
	const struct report_opts *o;
	const struct report_data *data; /* the campaign, loaded */
	const struct analysis *an;
	const struct noise *nz; /* NULL without noise figures */
	char *wss_text; /* the working sets and each memcg's limit against its working set */
	struct plot_set plots;
	int plots_rc; /* plot__all(): -ENOENT without gnuplot */
	int deck_rc;  /* deck__write(): 0 written, -ENOENT a tool missing, -ECANCELED not tried */
	/* meta values, with their defaults */
	const char *campaign, *version, *created, *plan_path, *plan_text, *qemu_version;
	const char *clock; /* meta guest.clock: "real", "instructions shift=N sleep=on" */
	char *grid; /* the kernel x LRU table (compare-grid.c), or NULL when not a grid */
};

int report__html(const struct report *rp, FILE *f);
int report__junit(const struct report *rp, FILE *f);
int report__json(const struct report *rp, FILE *f);

#endif
