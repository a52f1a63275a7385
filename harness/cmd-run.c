// SPDX-License-Identifier: GPL-2.0
#include "campaign.h"
#include "cmd.h"
#include "plan.h"
#include "util.h"

#include <getopt.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lrubench run [PLAN] [options]\n"
		"  PLAN                 an INI plan (default %s: classic vs MGLRU on Debian's kernel)\n"
		"  --kernel KERNEL      run every variant on this kernel instead of the plan's:\n"
		"                       a recipe (NAME for kernels/NAME.ini, or FILE.ini; built\n"
		"                       first, cached) or a bzImage path (with a '/')\n"
		"  --config FILE        its .config when not beside it (else IKCONFIG)\n"
		"  --modules DIR        its lib/modules/RELEASE when not beside it\n"
		"  --reps N             repetitions per variant (overrides the plan)\n"
		"  --accel auto|kvm|tcg accelerator; auto probes KVM and falls back to TCG\n"
		"  --db FILE            the campaign database (default results/NAME-TIME.db)\n"
		"  --timeout DURATION   per-run limit (overrides the plan)\n"
		"  --silence DURATION   kill a guest whose channel is silent this long\n"
		"  --fault KIND[@MS]    inject a fault in the guest (tests): panic, hang, crash, garbage\n",
		path_default_plan());
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "config", required_argument, NULL, 'c' },
		{ "modules", required_argument, NULL, 'm' },
		{ "reps", required_argument, NULL, 'r' },
		{ "accel", required_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "silence", required_argument, NULL, 's' },
		{ "fault", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct campaign_opts o = {
		.accel = "auto",
		.results_dir = path_results(),
		.reports_dir = path_reports(),
		.build_dir = path_build(),
		.kernel_cache = path_kernel_cache(),
		.recipes_dir = path_recipes(),
	};
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_free_ char *err = NULL;
	const char *plan_path;
	int c, idx = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, &idx)) != -1) {
		int64_t n;

		switch (c) {
		case 'k':
			o.kernel = optarg;
			break;
		case 'c':
			o.config = optarg;
			break;
		case 'm':
			o.modules = optarg;
			break;
		case 'r':
			if (parse_i64(optarg, &n) < 0 || n < 1 || n > 1000) {
				log_err("--reps: bad value '%s' (1..1000)", optarg);
				return 2;
			}
			o.repetitions = (int)n;
			break;
		case 'a':
			if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") && strcmp(optarg, "tcg")) {
				log_err("--accel: bad value '%s' (auto, kvm or tcg)", optarg);
				return 2;
			}
			o.accel = optarg;
			break;
		case 'd':
			o.db_path = optarg;
			break;
		case 't':
		case 's':
			if (parse_duration_ms(optarg, c == 't' ? &o.timeout_ms
								: &o.silence_timeout_ms) < 0) {
				log_err("--%s: bad duration '%s'", longopts[idx].name, optarg);
				return 2;
			}
			break;
		case 'f':
			o.fault = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	plan_path = optind < argc ? argv[optind] : path_default_plan();
	if (plan__load(plan_path, &plan, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	return campaign_run(plan, &o);
}
