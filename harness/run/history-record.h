/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A finished campaign appended to the history (store/history.h) as a night:
 * what 'lrubench run --history' does once its campaign is done
 * (campaign-finish.h) and what 'lrubench history add' does; the comparison
 * on stdout, history.md and the trend plots (report/history-plot.h) under
 * REPORTS/history/PLAN/.
 */
#ifndef LRUBENCH_HISTORY_RECORD_H
#define LRUBENCH_HISTORY_RECORD_H

#include <stdbool.h>

struct history;
struct store;

/* Open the history at path; a failure is logged ("PATH: cannot open the
 * history: WHY"). 0 or -errno. */
int history_open_logged(const char *path, struct history **ret);
/*
 * Append the campaign in st (database db) to the history at hist, print it
 * against the previous night and the pinned one (of its host class, or of
 * any with any_host: history__compare_print()), and plot the trends under
 * reports_dir/history/. Logs its own errors; returns 0 or -errno.
 */
int history_record(struct store *st, const char *db, const char *hist, const char *reports_dir,
		   bool any_host);

#endif
