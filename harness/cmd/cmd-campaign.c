// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands that run a campaign (run, noise, wss, ab, bisect's
 * steps) share: their default options, the options each of them takes the
 * same way, and what follows the runs: the comparison on stdout, the report
 * directory, and the history with --history.
 */
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "compare.h"
#include "noise.h"
#include "paths.h"
#include "report.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

void cmd_campaign_defaults(struct campaign_opts *o)
{
	*o = (struct campaign_opts){
		.accel = "auto",
		.results_dir = path_results(),
		.reports_dir = path_reports(),
		.build_dir = path_build(),
		.kernel_cache = path_kernel_cache(),
		.recipes_dir = path_recipes(),
	};
}

#define OPT(f) offsetof(struct campaign_opts, f)
/* The options every campaign command takes alike. */
static const struct cmd_opt campaign_opts[] = {
	{ .code = 'k', .name = "kernel", .kind = CMD_OPT_TEXT, .off = OPT(kernel) },
	{ .code = 'c', .name = "config", .kind = CMD_OPT_TEXT, .off = OPT(config) },
	{ .code = 'm', .name = "modules", .kind = CMD_OPT_TEXT, .off = OPT(modules) },
	{ .code = 'd', .name = "db", .kind = CMD_OPT_TEXT, .off = OPT(db_path) },
	{ .code = 'j', .name = "jobs", .kind = CMD_OPT_INT, .off = OPT(jobs), .min = 1, .max = 64 },
	{ .code = 'a', .name = "accel", .kind = CMD_OPT_ACCEL, .off = OPT(accel) },
	{ .code = 't', .name = "timeout", .kind = CMD_OPT_DURATION, .off = OPT(timeout_ms) },
	{ .code = 0 },
};

int cmd_campaign_opt(struct campaign_opts *o, int c, const char *arg)
{
	return cmd_opt__parse(campaign_opts, o, c, arg);
}

/* The campaign's runs are done (r == 0) or not: compare, report, record; an exit code. */
static int campaign_finish(int r, struct campaign_done *d, const struct campaign_opts *o)
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
	if (d->history && history_record(d->st, d->db, d->history, o->reports_dir) != 0)
		r = -EIO;
	else if (r >= 0)
		r = verdict_status;
out:
	campaign_done__clear(d);
	return r == -EINTR ? 130 : r < 0 ? EXIT_ERROR : r;
}

int cmd_campaign_run(struct plan *plan, const struct campaign_opts *o)
{
	struct campaign_done d = { 0 };

	return campaign_finish(campaign__run(plan, o, &d), &d, o);
}

int cmd_campaign_resume(const char *db, const struct campaign_opts *o)
{
	struct campaign_done d = { 0 };

	return campaign_finish(campaign__resume(db, o, &d), &d, o);
}
