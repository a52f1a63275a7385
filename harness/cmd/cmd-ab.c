// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench ab: a patched kernel against its baseline. Both kernels are built
 * (or found in the cache) before any run; every variant of the plan (one per
 * LRU mode and knob set) runs on each kernel, interleaved
 * (A.classic B.classic A.mglru B.mglru, repeated); then one comparison per
 * plan variant: the patched kernel against the baseline under that mode.
 */
#include "campaign.h"
#include "cmd-opt.h"
#include "cmd.h"
#include "paths.h"
#include "compare.h"
#include "kernel-build.h"
#include "plan.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <ctype.h>
#include <getopt.h>
#include <libgen.h>
#include <stddef.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lrubench ab --baseline KERNEL --patched KERNEL [options]\n"
		"  --baseline KERNEL    what the patched kernel is compared against: a recipe\n"
		"                       (NAME for %s/NAME.ini, or FILE.ini), debian or a bzImage\n"
		"  --patched KERNEL     the kernel under test, likewise\n"
		"  --plan PLAN          workloads, guest and LRU modes (default %s);\n"
		"                       each of its variants runs on both kernels\n"
		"  --reps N             repetitions per variant (overrides the plan)\n"
		"  --accel auto|kvm|tcg accelerator\n"
		"  --clock real|instructions the guests' clock (as for 'lrubench run')\n"
		"  --db FILE            the campaign database (default results/ab-A-B-TIME.db)\n"
		"  --timeout DURATION   per-run limit (overrides the plan)\n",
		path_recipes(), path_default_plan());
}

/* A short name for a kernel value, for variant names: the recipe's name. */
static char *kernel_label(const char *spec, const char *fallback)
{
	_cleanup_free_ char *copy = xstrdup(spec);
	char *base;

	switch (kernel_spec_kind(spec)) {
	case KERNEL_SPEC_DEBIAN:
		return xstrdup("debian");
	case KERNEL_SPEC_RECIPE:
		base = basename(copy);
		if (strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".ini"))
			base[strlen(base) - 4] = '\0';
		for (char *c = base; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
				*c = '_';
		return xstrdup(*base ? base : fallback);
	default:
		return xstrdup(fallback);
	}
}

/* Replace the plan's variants with each one on A, then on B. */
static int plan_ab(struct plan *p, const char *a, const char *b, const char *la, const char *lb)
{
	_cleanup_free_ char *remap = NULL, *err = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&remap, &len);
	char *text;

	for (size_t i = 0; i < p->nvariants; i++) {
		const char *v = p->variants[i].name;

		fprintf(f, "%s.%s\t%s\t%s\n%s.%s\t%s\t%s\n", la, v, v, a, lb, v, v, b);
	}
	fprintf(f, "baseline\t%s.%s\n", la, p->baseline);
	fclose(f);
	if (plan__remap(p, remap, &err) < 0) {
		log_err("ab: %s", err);
		return -EINVAL;
	}
	text = xasprintf("%s\n# lrubench ab --baseline %s --patched %s: every variant above ran "
			 "on both kernels, as %s.VARIANT and %s.VARIANT\n",
			 p->text, a, b, la, lb);
	free(p->text);
	p->text = text;
	free(p->name);
	p->name = xasprintf("ab-%s-%s", la, lb);
	return 0;
}

#define OPT(f) offsetof(struct campaign_opts, f)
/* The options of 'lrubench ab' beside the ones every campaign command takes. */
static const struct cmd_opt ab_opts[] = {
	{ .code = 'r', .name = "reps", .kind = CMD_OPT_RANGE, .off = OPT(repetitions),
	  .min = 1, .max = 1000 },
	{ .code = 0 },
};

int cmd_ab(int argc, char **argv)
{
	static const struct option own[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "patched", required_argument, NULL, 'p' },
		{ "plan", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	static const struct cmd_opt *const tables[] = { cmd_campaign_opts, ab_opts, NULL };
	_cleanup_free_ struct option *longopts = cmd_opt__longopts(tables, own);
	struct campaign_opts o;
	_cleanup_(plan__freep) struct plan *plan = NULL;
	_cleanup_free_ char *err = NULL, *la = NULL, *lb = NULL, *db = NULL;
	const char *a = NULL, *b = NULL, *plan_path = path_default_plan();
	size_t norig;
	int c, r;

	optind = 1;
	cmd_campaign_defaults(&o);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		r = cmd_campaign_opt(&o, c, optarg);
		if (r == 0)
			r = cmd_opt__parse(ab_opts, &o, c, optarg);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		switch (c) {
		case 'b':
			a = optarg;
			break;
		case 'p':
			b = optarg;
			break;
		case 'P':
			plan_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!a || !b || optind != argc) {
		usage(stderr);
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		const char *k = i ? b : a;

		if (kernel_spec_kind(k) == KERNEL_SPEC_BAD) {
			log_err("--%s: bad kernel '%s' (a recipe NAME or FILE.ini, debian, or a "
				"bzImage path holding a '/')",
				i ? "patched" : "baseline", k);
			return 2;
		}
	}
	if (plan__load(plan_path, &plan, &err) < 0) {
		log_err("%s", err);
		return 2;
	}
	la = kernel_label(a, "baseline");
	lb = kernel_label(b, "patched");
	if (!strcmp(la, lb)) {
		free(la);
		free(lb);
		la = xstrdup("baseline");
		lb = xstrdup("patched");
	}
	norig = plan->nvariants;
	if (strpbrk(a, "\t\n") || strpbrk(b, "\t\n")) {
		log_err("ab: a kernel path with a tab or a newline: rename it");
		return 2;
	}
	if (plan_ab(plan, a, b, la, lb) < 0)
		return 2;
	if (!o.db_path) {
		mkdir_p(o.results_dir);
		o.db_path = db = path_stamped(o.results_dir, plan->name, ".db");
	}
	log_info("ab: %s (%s) against %s (%s), %zu variant%s of %s on each", lb, b, la, a, norig,
		 norig == 1 ? "" : "s", plan_path);
	r = cmd_campaign_run(plan, &o);
	if (r != EXIT_NO_REGRESSION && r != EXIT_REGRESSION && r != EXIT_INCOMPLETE)
		return r;

	/* The campaign compared everything against A under the baseline's mode; the
	 * other modes get their own table: B against A under that mode. */
	if (norig > 1) {
		_cleanup_(store__closep) struct store *st = NULL;

		if (store__open_readonly(o.db_path, &st) < 0) {
			log_err("%s: cannot reopen the store", o.db_path);
			return 2;
		}
		for (size_t i = 0; i < plan->nvariants; i += 2) {
			int k;

			if (!strcmp(plan->variants[i].name, plan->baseline))
				continue;
			printf("\n== %s against %s, lru %s (baseline %s)\n", lb, la,
			       plan->variants[i].lru, plan->variants[i].name);
			k = compare_print(st, stdout, plan->variants[i].name, false);
			if (k < 0) {
				log_err("compare against %s failed", plan->variants[i].name);
				return EXIT_ERROR;
			}
			/* a regression under any mode is the answer, unless runs are missing */
			if (r == EXIT_NO_REGRESSION || (r == EXIT_REGRESSION && k == EXIT_INCOMPLETE))
				r = k;
		}
	}
	return r;
}
