/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: reports/<campaign>/ with report.md (runs, provenance, the
 * comparison table) and plots rendered by gnuplot.
 */
#ifndef LRUBENCH_REPORT_H
#define LRUBENCH_REPORT_H

struct store;

int report_write(struct store *st, const char *db_path, const char *dir);

#endif
