// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands that run a campaign (run, noise, wss, ab) share: their
 * default options, and the options each of them takes the same way.
 */
#include "campaign.h"
#include "cmd.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
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

int cmd_campaign_opt(struct campaign_opts *o, int c, const char *arg)
{
	int64_t n;

	switch (c) {
	case 'k':
		o->kernel = arg;
		return 1;
	case 'c':
		o->config = arg;
		return 1;
	case 'm':
		o->modules = arg;
		return 1;
	case 'd':
		o->db_path = arg;
		return 1;
	case 'j':
		if (parse_i64(arg, &n) < 0 || n < 1 || n > 64) {
			log_err("--jobs: bad value '%s' (an integer from 1 to 64)", arg);
			return -EINVAL;
		}
		o->jobs = (int)n;
		return 1;
	case 'a':
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") && strcmp(arg, "tcg")) {
			log_err("--accel: bad value '%s' (auto, kvm or tcg)", arg);
			return -EINVAL;
		}
		o->accel = arg;
		return 1;
	case 't':
		if (parse_duration_ms(arg, &o->timeout_ms) < 0) {
			log_err("--timeout: bad duration '%s'", arg);
			return -EINVAL;
		}
		return 1;
	default:
		return 0;
	}
}
