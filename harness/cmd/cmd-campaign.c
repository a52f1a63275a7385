// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands that run a campaign (run, noise, wss, ab) share: their
 * default options, the options each of them takes the same way, and the
 * campaign run or resumed then finished (run/campaign-finish.h: the
 * comparison on stdout, the report directory, the history with --history).
 */
#include "campaign-finish.h"
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "plan.h"

#include <stddef.h>

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

const char *const cmd_accel_words[] = { "auto", "kvm", "tcg", NULL };
static const char *const clock_words[] = { PLAN_CLOCK_REAL, PLAN_CLOCK_INSTRUCTIONS, NULL };

#define OPT(f) offsetof(struct campaign_opts, f)
/* The options every campaign command takes alike. */
const struct cmd_opt cmd_campaign_opts[] = {
	{ .code = 'd', .name = "db", .kind = CMD_OPT_TEXT, .off = OPT(db_path) },
	{ .code = 'a', .name = "accel", .kind = CMD_OPT_WORD, .off = OPT(accel),
	  .words = cmd_accel_words },
	{ .code = 'C', .name = "clock", .kind = CMD_OPT_WORD, .off = OPT(clock),
	  .words = clock_words },
	{ .code = 't', .name = "timeout", .kind = CMD_OPT_DURATION, .off = OPT(timeout_ms) },
	{ .code = 0 },
};

/* And those of the commands that run a plan on a kernel they are given (not ab). */
const struct cmd_opt cmd_campaign_kernel_opts[] = {
	{ .code = 'k', .name = "kernel", .kind = CMD_OPT_TEXT, .off = OPT(kernel) },
	{ .code = 'c', .name = "config", .kind = CMD_OPT_TEXT, .off = OPT(config) },
	{ .code = 'm', .name = "modules", .kind = CMD_OPT_TEXT, .off = OPT(modules) },
	{ .code = 'j', .name = "jobs", .kind = CMD_OPT_INT, .off = OPT(jobs), .min = 1, .max = 64 },
	{ .code = 0 },
};

int cmd_campaign_opt(struct campaign_opts *o, int c, const char *arg)
{
	int r = cmd_opt__parse(cmd_campaign_opts, o, c, arg);

	return r ? r : cmd_opt__parse(cmd_campaign_kernel_opts, o, c, arg);
}

int cmd_campaign_run(struct plan *plan, const struct campaign_opts *o)
{
	struct campaign_done d = { 0 };

	return campaign__finish(campaign__run(plan, o, &d), &d, o);
}

int cmd_campaign_resume(const char *db, const struct campaign_opts *o)
{
	struct campaign_done d = { 0 };

	return campaign__finish(campaign__resume(db, o, &d), &d, o);
}
