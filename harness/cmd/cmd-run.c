// SPDX-License-Identifier: GPL-2.0
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "history.h"
#include "plan.h"
#include "util.h"

#include <getopt.h>
#include <stddef.h>
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
		"  -j, --jobs N         guests at once (default: what cores and memory allow)\n"
		"  --accel auto|kvm|tcg accelerator; auto probes KVM and falls back to TCG\n"
		"  --clock real|instructions\n"
		"                       the guests' clock (overrides the plan's [guest] clock):\n"
		"                       instructions counts executed instructions (QEMU -icount,\n"
		"                       TCG), so the host's load does not reach the figures\n"
		"  --db FILE            the campaign database (default results/NAME-TIME.db)\n"
		"  --timeout DURATION   per-run limit (overrides the plan)\n"
		"  --silence DURATION   kill a guest whose channel is silent this long\n"
		"  --fault KIND[@MS]    inject a fault in the guest (tests): panic, hang, crash, garbage\n"
		"  --fault-run N        only in the N-th run of the campaign (default: every run)\n"
		"  --resume DB          continue an interrupted campaign: only the runs not done\n"
		"  --shard I/N          run only shard I of N: repetitions r with r %% N == I-1\n"
		"                       (merge the shards' databases with lrubench merge)\n"
		"  --history HIST.db    when done, append the campaign to this long-lived history,\n"
		"                       compare it with the previous night and the pinned one, plot trends\n"
		"  exit 0: no key metric regressed, 1: one did, 2: error, 3: incomplete (runs failed\n"
		"  after their retries, a variant with fewer than 2 blocks), 130: interrupted\n",
		path_default_plan());
}

#define OPT(f) offsetof(struct campaign_opts, f)
/* The options of 'lrubench run' beside the ones every campaign command takes. */
static const struct cmd_opt run_opts[] = {
	{ .code = 'r', .name = "reps", .kind = CMD_OPT_INT, .off = OPT(repetitions),
	  .min = 1, .max = 1000 },
	{ .code = 's', .name = "silence", .kind = CMD_OPT_DURATION, .off = OPT(silence_timeout_ms) },
	{ .code = 'F', .name = "fault-run", .kind = CMD_OPT_INT, .off = OPT(fault_run),
	  .min = 1, .max = 100000 },
	{ .code = 'H', .name = "history", .kind = CMD_OPT_TEXT, .off = OPT(history) },
	{ .code = 0 },
};

int cmd_run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "fault", required_argument, NULL, 'f' },
		{ "resume", required_argument, NULL, 'R' },
		{ "shard", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	static const struct cmd_opt *const tables[] = { cmd_campaign_opts, cmd_campaign_kernel_opts, run_opts, NULL };
	_cleanup_free_ struct option *longopts = cmd_opt__longopts(tables, own);
	struct campaign_opts o;
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_free_ char *err = NULL;
	const char *plan_path, *resume = NULL;
	int c;

	cmd_campaign_defaults(&o);
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		int r = cmd_campaign_opt(&o, c, optarg);

		if (r == 0)
			r = cmd_opt__parse(run_opts, &o, c, optarg);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		switch (c) {
		case 'f':
			if (!*optarg || strspn(optarg, "abcdefghijklmnopqrstuvwxyz@0123456789") !=
						strlen(optarg)) {
				log_err("--fault: bad value '%s' (KIND or KIND@MS)", optarg);
				return 2;
			}
			o.fault = optarg;
			break;
		case 'R':
			resume = optarg;
			break;
		case 'S':
			if (shard__parse(optarg, &o.shard) < 0) {
				log_err("--shard: bad value '%s' (I/N, 1 <= I <= N <= %d)", optarg,
					SHARD_MAX);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1 || (resume && argc - optind > 0)) {
		usage(stderr);
		return 2;
	}
	if (resume && o.shard.count) {
		log_err("--shard with --resume: a resumed campaign keeps the runs it was given");
		return 2;
	}
	if (o.history && o.shard.count) {
		log_err("--history with --shard: a shard is not a night; merge the shards, then "
			"'lrubench history add HIST.db MERGED.db'");
		return 2;
	}
	if (o.history) {
		/* Fail now rather than after the campaign. */
		struct history *h = NULL;
		_cleanup_free_ char *herr = NULL;

		if (history__open(o.history, &h, &herr) < 0) {
			log_err("--history %s: %s", o.history, herr);
			return 2;
		}
		history__close(h);
	}
	if (resume)
		return cmd_campaign_resume(resume, &o);
	plan_path = optind < argc ? argv[optind] : path_default_plan();
	if (plan__load(plan_path, &plan, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	return cmd_campaign_run(plan, &o);
}

/* The scheduler's worker: 'lrubench __run-one DB RUN_ID' (not for users). */
int cmd_run_one(int argc, char **argv)
{
	struct campaign_opts o;
	int64_t id;

	cmd_campaign_defaults(&o);
	if (argc != 3 || parse_i64(argv[2], &id) < 0) {
		fprintf(stderr, "usage: lrubench __run-one DB RUN_ID\n");
		return 2;
	}
	return campaign__worker(argv[1], id, &o);
}
