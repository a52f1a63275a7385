// SPDX-License-Identifier: GPL-2.0
/*
 * A finished campaign appended to the history as a night, compared with
 * the nights before and plotted (history-record.h).
 */
#include "history-plot.h"
#include "history-record.h"
#include "history.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int history_open_logged(const char *path, struct history **ret)
{
	_cleanup_free_ char *err = NULL;
	int r = history__open(path, ret, &err);

	if (r < 0)
		log_err("%s: cannot open the history: %s", path, err);
	return r;
}

/* The comparison on stdout, then history.md and the plots in reports_dir/history/PLAN/. */
static int night_report(struct history *h, const char *hist, int64_t night,
			const char *reports_dir, bool any_host)
{
	_cleanup_free_ char *plan = NULL, *dir = NULL, *md = NULL, *err = NULL, *text = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	size_t plots = 0, len = 0;
	FILE *mem;
	int r;

	mem = open_memstream(&text, &len);
	r = history__compare_print(h, night, any_host, mem);
	fclose(mem);
	if (r < 0) {
		log_err("%s: %s", hist, history__errmsg(h));
		return r;
	}
	fputs(text, stdout);
	fflush(stdout);
	r = history__night_plan(h, night, &plan);
	if (r < 0)
		return r;
	dir = xasprintf("%s/history/%s", reports_dir, plan);
	r = mkdir_p(dir);
	if (r < 0) {
		log_err("%s: %s", dir, strerror(-r));
		return r;
	}
	md = xasprintf("%s/history.md", dir);
	f = fopen(md, "we");
	if (!f) {
		log_err("%s: %s", md, strerror(errno));
		return -errno;
	}
	fprintf(f, "# lrubench history of plan %s\n\nHistory database: `%s`. Produced by lrubench "
		   "%s.\n\n```\n%s```\n\n## Trends of the key metrics\n\n",
		plan, hist, LRUBENCH_VERSION, text);
	r = history__plot(h, plan, dir, f, &plots, &err);
	if (r == -ENOENT) {
		log_warn("gnuplot not found: no trend plots (install gnuplot-nox)");
		fprintf(f, "No plots: gnuplot was not found.\n");
		r = 0;
	} else if (r < 0) {
		log_err("trend plots in %s: %s", dir, err ? err : strerror(-r));
	}
	if (fflush(f) != 0 && r == 0)
		r = -errno;
	if (r == 0)
		log_info("history: %s (%zu trend plots)", md, plots);
	return r;
}

int history_record(struct store *st, const char *db, const char *hist, const char *reports_dir,
		   bool any_host)
{
	_cleanup_(history__closep) struct history *h = NULL;
	int64_t night;
	int r;

	r = history_open_logged(hist, &h);
	if (r < 0)
		return r;
	r = history__append(h, st, db, &night);
	if (r < 0) {
		log_err("%s: appending %s: %s", hist, db, history__errmsg(h));
		return r;
	}
	return night_report(h, hist, night, reports_dir, any_host);
}
