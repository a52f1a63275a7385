/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: reports/<campaign>/ with
 *   report.md    fixed-width text for a mailing list: the summary of key
 *                metrics first, then every row, the full comparison, noise
 *                floor, working sets (each memcg's limit against its working
 *                set, from 'lrubench wss'), runs and provenance;
 *   index.html   self-contained XHTML (inline CSS and SVG, no network):
 *                verdicts, heatmap, one section per workload with its
 *                plots, time series, generations, balance, runs and the
 *                provenance of every variant;
 *   plots/       every plot as PNG, SVG and PDF, with its data and script;
 * and on request JUnit XML (failed runs as errors, one test case per metric) and JSON
 * (the verdict table) for CI.
 */
#ifndef LRUBENCH_REPORT_H
#define LRUBENCH_REPORT_H

#include "verdict.h"

#include <stdbool.h>
#include <stddef.h>

struct store;

struct report_opts {
	const char *db_path; /* the database, as the reports name it */
	const char *dir; /* reports/<campaign> */
	const char *baseline; /* NULL: the plan's */
	struct verdict_opts vo;
	const char *junit; /* JUnit XML to write, or NULL */
	const char *json; /* JSON verdict table to write, or NULL */
	const char *noise_db; /* an A/A campaign whose noise figures to copy in first, or NULL */
	const char *wss_db; /* a measuring pass ('lrubench wss') whose working sets to copy in */
	bool no_plots;
};

/*
 * Write everything o asks for. *ret_status (may be NULL) is the campaign's
 * exit status (EXIT_* of verdict.h). Missing gnuplot is not an error: the
 * reports say so. Returns 0 or -errno (the first file that could not be
 * written).
 */
int report__write(struct store *st, const struct report_opts *o, int *ret_status);

/* report__write() with the default options, into dir. */
int report_write(struct store *st, const char *db_path, const char *dir);

#endif
