// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench wss PLAN: the working set of each memcg of a plan (wss.h). Runs
 * the plan's measuring form as a campaign, then prints and stores the
 * estimates beside the known values. 'lrubench wss DB' prints them again
 * from a measuring campaign's database (analysing it anew).
 */
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "escape.h"
#include "plan.h"
#include "report.h"
#include "store.h"
#include "util.h"
#include "verdict.h"
#include "wss.h"

#include <getopt.h>
#include <stddef.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lrubench wss PLAN [options]   measure, store and print the working sets\n"
		"       lrubench wss DB                print them again from a measuring campaign\n"
		"  runs PLAN's workloads once without memcg limits and without swap, and from\n"
		"  --start on takes --windows windows of --window each: per memcg the pages\n"
		"  touched through page tables (MGLRU aging 'gen', clear_refs 'ref') and the file\n"
		"  pages brought into the cache ('drop': drop_caches at each window's start; or\n"
		"  'reclaim': every file page touched, all reclaimed at each window's start),\n"
		"  beside the working set the workloads' own parameters give (anon-zipf, file-zipf)\n"
		"  --start DURATION     first window's start after the run's first sample (10s)\n"
		"  --window DURATION    window length (5s)\n"
		"  --windows N          windows (4)\n"
		"  --methods LIST       of gen, ref, drop, reclaim (default gen,ref,drop; classic ref,drop)\n"
		"  --lru mglru|classic  the LRU of the pass (mglru; classic has no 'gen')\n"
		"  --variant NAME       kernel and knobs of this variant (default: the baseline)\n"
		"  --reps N             measuring runs (1)\n"
		"  -j, --jobs N, --kernel BZIMAGE, --config FILE, --modules DIR,\n"
		"  --accel auto|kvm|tcg, --clock real|instructions, --timeout DURATION: as for 'lrubench run'\n"
		"  --db FILE            the campaign database (default results/NAME-wss-TIME.db)\n"
		"  exit 0: measured; 2: error; 3: nothing measured (runs failed, no window)\n"
		"  Other campaigns' reports quote the working sets with: lrubench report DB --wss WSS.db\n");
}

/* Analyse the measuring campaign in db, store and print; an exit status. */
static int analyse(const char *db, bool reanalyse_only)
{
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(wss__freep) struct wss *w = NULL;
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_free_ char *text = NULL, *path = NULL, *wo = NULL, *err = NULL;
	int r;

	if (access(db, R_OK) < 0 || store__open(db, &st) < 0) {
		log_err("%s: cannot open the database", db);
		return 2;
	}
	if (store__meta_get(st, "wss.opts", &wo) < 0) {
		log_err("%s: not a measuring campaign of 'lrubench wss'", db);
		return 2;
	}
	r = wss__analyse(st, &w);
	if (r == -ENODATA) {
		log_err("%s: no window measured: did a run complete, and did its workloads last "
			"past --start + --windows x --window?",
			db);
		return EXIT_INCOMPLETE;
	}
	if (r < 0) {
		log_err("%s: working sets: %s", db, strerror(-r));
		return 2;
	}
	r = wss__store(st, w);
	if (r < 0) {
		log_err("%s: storing the working sets: %s", db, store__errmsg(st));
		return 2;
	}
	wss__print(w, stdout);
	if (store__meta_get(st, "plan.text", &text) == 0 &&
	    store__meta_get(st, "plan.path", &path) == 0 &&
	    plan__parse(path, text, &plan, &err) == 0) {
		printf("\n");
		wss__print_limits(w, plan, stdout);
	}
	if (!reanalyse_only) {
		_cleanup_free_ char *campaign = NULL, *safe = NULL, *dir = NULL;

		/* the pass's report again, now with its working sets */
		if (store__meta_get(st, "campaign", &campaign) < 0)
			campaign = xstrdup("campaign");
		safe = escape_filename(campaign);
		dir = xasprintf("%s/%s", path_reports(), safe);
		r = report_write(st, db, dir);
		if (r < 0)
			log_warn("report %s: %s", dir, strerror(-r));
		log_info("working sets stored in %s; quote them in another campaign's report with "
			 "'lrubench report DB --wss %s'",
			 db, db);
	}
	return 0;
}

#define OPT(f) offsetof(struct campaign_opts, f)
#define WSS(f) offsetof(struct wss_opts, f)
/* The options of 'lrubench wss' beside the ones every campaign command takes: its
 * campaign's, and the measuring form's (wss.h). */
static const struct cmd_opt wss_campaign_opts[] = {
	{ .code = 'r', .name = "reps", .kind = CMD_OPT_RANGE, .off = OPT(repetitions),
	  .min = 1, .max = 100 },
	{ .code = 0 },
};
static const struct cmd_opt wss_form_opts[] = {
	{ .code = 's', .name = "start", .kind = CMD_OPT_DURATION, .off = WSS(start_ms) },
	{ .code = 'w', .name = "window", .kind = CMD_OPT_DURATION, .off = WSS(window_ms),
	  .min = 100 },
	{ .code = 'n', .name = "windows", .kind = CMD_OPT_RANGE_U64, .off = WSS(windows),
	  .min = 1, .max = 1000 },
	{ .code = 0 },
};

int cmd_wss(int argc, char **argv)
{
	static const struct option own[] = {
		{ "methods", required_argument, NULL, 'M' },
		{ "lru", required_argument, NULL, 'l' },
		{ "variant", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	static const struct cmd_opt *const tables[] = { cmd_campaign_opts, cmd_campaign_kernel_opts, wss_campaign_opts, wss_form_opts, NULL };
	_cleanup_free_ struct option *longopts = cmd_opt__longopts(tables, own);
	struct campaign_opts o;
	struct wss_opts wo = { .start_ms = 10000, .window_ms = 5000, .windows = 4 };
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_free_ char *err = NULL, *db = NULL, *text = NULL;
	int c, r;

	cmd_campaign_defaults(&o);
	o.repetitions = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		r = cmd_campaign_opt(&o, c, optarg);
		if (r == 0)
			r = cmd_opt__parse(wss_campaign_opts, &o, c, optarg);
		if (r == 0)
			r = cmd_opt__parse(wss_form_opts, &wo, c, optarg);
		if (r < 0)
			goto bad;
		if (r > 0)
			continue;
		switch (c) {
		case 'M':
			free(wo.methods);
			wo.methods = xstrdup(optarg);
			break;
		case 'l':
			if (strcmp(optarg, "mglru") && strcmp(optarg, "classic")) {
				log_err("--lru: bad value '%s' (mglru or classic)", optarg);
				goto bad;
			}
			free(wo.lru);
			wo.lru = xstrdup(optarg);
			break;
		case 'V':
			free(wo.variant);
			wo.variant = xstrdup(optarg);
			break;
		case 'h':
			usage(stdout);
			wss_opts__clear(&wo);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind + 1 != argc)
		goto bad;
	{
		size_t len = strlen(argv[optind]);

		if (len > 3 && !strcmp(argv[optind] + len - 3, ".db")) {
			wss_opts__clear(&wo);
			return analyse(argv[optind], true);
		}
	}
	if (wo.methods) {
		/* checked as the agent will: each of gen, ref, reclaim at most once */
		_cleanup_free_ char *copy = xstrdup(wo.methods);
		char *save = NULL;
		unsigned seen = 0;

		for (char *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
			static const char *const names[] = { "gen", "ref", "reclaim", "drop" };
			unsigned bit = 0;

			for (size_t i = 0; i < ARRAY_SIZE(names); i++)
				if (!strcmp(m, names[i]))
					bit = 1u << i;
			if (!bit || (seen & bit)) {
				log_err("--methods: bad list '%s' (gen, ref, drop or reclaim, each once)",
					wo.methods);
				goto bad_quiet;
			}
			seen |= bit;
		}
		if ((seen & 12) == 12) {
			log_err("--methods: drop and reclaim both start the file window: one of them");
			goto bad_quiet;
		}
	}
	if (plan__load(argv[optind], &plan, &err) < 0) {
		log_err("%s", err);
		goto bad_quiet;
	}
	r = wss__plan(plan, &wo, &err);
	if (r < 0) {
		log_err("%s", err);
		goto bad_quiet;
	}
	text = wss_opts__format(&wo);
	o.wss_opts = text;
	if (!o.db_path) {
		mkdir_p(o.results_dir);
		o.db_path = db = path_stamped(o.results_dir, plan->name, ".db");
	}
	log_info("wss: %s, %llu windows of %llu ms from %llu ms, %d run(s), memcg limits and swap "
		 "off",
		 plan->variants[0].name, (unsigned long long)wo.windows,
		 (unsigned long long)wo.window_ms, (unsigned long long)wo.start_ms,
		 o.repetitions);
	wss_opts__clear(&wo);
	r = cmd_campaign_run(plan, &o);
	/* one variant: its verdicts mean nothing, a failed run is seen below */
	if (r != EXIT_NO_REGRESSION && r != EXIT_REGRESSION && r != EXIT_INCOMPLETE)
		return r;
	printf("\n");
	return analyse(o.db_path, false);
bad:
	usage(stderr);
bad_quiet:
	wss_opts__clear(&wo);
	return 2;
}
