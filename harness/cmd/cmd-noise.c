// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench noise PLAN: the A/A campaign of a plan (noise.h). It runs like
 * 'lrubench run' on the plan's A/A form, its report carries the noise
 * figures, and they are printed at the end.
 */
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "compare.h"
#include "noise.h"
#include "paths.h"
#include "plan.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <getopt.h>
#include <stddef.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lrubench noise PLAN [options]\n"
		"  runs one variant of PLAN against itself (A/A), interleaved, at the plan's\n"
		"  repetitions, and reports each metric's noise floor and minimum detectable effect\n"
		"  --variant NAME       the variant (default: the plan's baseline)\n"
		"  --reps N             repetitions per side (overrides the plan)\n"
		"  -j, --jobs N         guests at once (default: what cores and memory allow)\n"
		"  --kernel BZIMAGE     run on this kernel instead of the plan's\n"
		"  --config FILE, --modules DIR, --accel auto|kvm|tcg, --timeout DURATION\n"
		"  --clock real|instructions the guests' clock (as for 'lrubench run')\n"
		"  --db FILE            the campaign database (default results/NAME-noise-TIME.db)\n"
		"  Reports of other campaigns quote the figures with: lrubench report DB --noise "
		"AA.db\n");
}

#define OPT(f) offsetof(struct campaign_opts, f)
/* The options of 'lrubench noise' beside the ones every campaign command takes. */
static const struct cmd_opt noise_opts[] = {
	{ .code = 'r', .name = "reps", .kind = CMD_OPT_RANGE, .off = OPT(repetitions),
	  .min = 2, .max = 1000 },
	{ .code = 0 },
};

int cmd_noise(int argc, char **argv)
{
	static const struct option own[] = {
		{ "variant", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	static const struct cmd_opt *const tables[] = { cmd_campaign_opts, cmd_campaign_kernel_opts, noise_opts, NULL };
	_cleanup_free_ struct option *longopts = cmd_opt__longopts(tables, own);
	struct campaign_opts o;
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	_cleanup_free_ char *err = NULL, *db = NULL, *variant = NULL;
	const char *want = NULL;
	int c, r;

	cmd_campaign_defaults(&o);
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		r = cmd_campaign_opt(&o, c, optarg);
		if (r == 0)
			r = cmd_opt__parse(noise_opts, &o, c, optarg);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		switch (c) {
		case 'V':
			want = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	if (plan__load(argv[optind], &plan, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	variant = xstrdup(want ? want : plan->baseline);
	if (noise__plan(plan, variant, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	o.aa_variant = variant;
	if (!o.db_path) {
		mkdir_p(o.results_dir);
		o.db_path = db = path_stamped(o.results_dir, plan->name, ".db");
	}
	log_info("noise: %s against itself, %d repetitions a side", variant,
		 o.repetitions ? o.repetitions : plan->repetitions);
	r = cmd_campaign_run(plan, &o);
	/* a false verdict of the A/A (exit 1) or a failed run (3) still leaves figures */
	if (r != EXIT_NO_REGRESSION && r != EXIT_REGRESSION && r != EXIT_INCOMPLETE)
		return r;
	/* the campaign stored the figures when it ended (noise__update) */
	if (store__open_readonly(o.db_path, &st) < 0 || noise__load(st, &nz) < 0) {
		log_err("%s: no noise figures: too few completed runs?", o.db_path);
		return 2;
	}
	printf("\n");
	compare__noise(nz, stdout);
	log_info("noise figures stored in %s; quote them in another campaign's report with "
		 "'lrubench report DB --noise %s'",
		 o.db_path, o.db_path);
	return r;
}
