// SPDX-License-Identifier: GPL-2.0
/*
 * What follows a campaign's runs (campaign-finish.h): compare, report,
 * record; an exit status.
 */
#include "campaign-finish.h"
#include "campaign.h"
#include "compare.h"
#include "history-record.h"
#include "noise.h"
#include "report.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The campaign's runs are done (r == 0) or not: compare, report, record; an exit code. */
int campaign__finish(int r, struct campaign_done *d, const struct campaign_opts *o)
{
	_cleanup_free_ char *report_dir = NULL;
	int verdict_status;

	if (r < 0)
		goto out;
	/* The summary on stdout, and a report directory. */
	verdict_status = compare_print(d->st, stdout, NULL, false);
	fflush(stdout);
	if (verdict_status < 0) {
		log_err("compare: %s", strerror(-verdict_status));
		r = verdict_status;
		goto out;
	}
	/* an A/A campaign's noise figures, stored once it ends; its report quotes them */
	r = noise__update(d->st);
	if (r < 0)
		log_warn("noise figures not stored: %s", strerror(-r));
	report_dir = xasprintf("%s/%s", o->reports_dir, d->name);
	r = report_write(d->st, d->db, report_dir);
	if (r < 0)
		log_err("report %s: %s", report_dir, strerror(-r));
	else
		log_info("report: %s/report.md (every row: lrubench compare --all %s)", report_dir,
			 d->db);
	log_info("database: %s (%d runs failed in this invocation)", d->db, d->failed_runs);
	if (verdict_status == EXIT_INCOMPLETE)
		log_err("%s: incomplete: runs failed or a variant has too few blocks (exit %d)",
			d->db, verdict_status);
	if (d->history && history_record(d->st, d->db, d->history, o->reports_dir, false) != 0)
		r = -EIO;
	else if (r >= 0)
		r = verdict_status;
out:
	campaign_done__clear(d);
	return r == -EINTR ? 130 : r < 0 ? EXIT_ERROR : r;
}
