// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench compare DB, lrubench report DB: exit 0 when no key metric
 * regressed, 1 when one did, 2 on an error, 3 when the campaign is
 * incomplete (runs lost to failures, a variant short of blocks, nothing
 * measured), so that CI can gate on either (verdict.h).
 */
#include "cmd.h"
#include "paths.h"
#include "compare.h"
#include "escape.h"
#include "noise.h"
#include "report.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <getopt.h>
#include <math.h>
#include <string.h>

/* Open a campaign to read it, or to write into it (report --noise, --wss: their tables). */
static int open_db(const char *path, bool write, struct store **ret)
{
	_cleanup_free_ char *err = NULL;
	int r;

	if (access(path, R_OK) < 0) {
		log_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	/* before anything is opened for writing, or a report directory made */
	r = store__check_campaign(path, &err);
	if (r < 0) {
		log_err("%s", err);
		return r;
	}
	r = write ? store__open(path, ret) : store__open_readonly(path, ret);
	if (r < 0)
		log_err("%s: not a campaign database (%s)", path, strerror(-r));
	return r;
}

/* "5", "5%" or "2.5" percent, as a fraction. */
static int parse_pct(const char *s, double *ret)
{
	char *end;
	double x = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !(x >= 0 && x < 1000))
		return -EINVAL;
	*ret = x / 100;
	return 0;
}

/* Options shared by compare and report; returns 0, or the exit status to leave with. */
static int verdict_opt(int c, const char *arg, struct verdict_opts *vo, const char **baseline)
{
	char *end;

	switch (c) {
	case 'b':
		*baseline = arg;
		return 0;
	case 'm':
		if (parse_pct(arg, &vo->min_effect) < 0) {
			log_err("--min-effect: bad value '%s' (a percentage, e.g. 5)", arg);
			return 2;
		}
		return 0;
	case 'L':
		vo->log_ratio = true;
		return 0;
	case 'a':
		vo->alpha = strtod(arg, &end);
		if (end == arg || *end || !(vo->alpha > 0 && vo->alpha < 1)) {
			log_err("--alpha: bad value '%s' (between 0 and 1, e.g. 0.05)", arg);
			return 2;
		}
		return 0;
	case 'F':
		vo->far = strtod(arg, &end);
		if (end == arg || *end || !(vo->far > 0 && vo->far < 1)) {
			log_err("--far: bad value '%s' (between 0 and 1, e.g. 0.05)", arg);
			return 2;
		}
		return 0;
	}
	return 2;
}

static void load_error(const char *db, const char *baseline, int r)
{
	if (r == -ENOENT)
		log_err("%s: no variant named '%s'", db, baseline ? baseline : "?");
	else if (r == -ENODATA)
		log_err("%s: the campaign has no variant", db);
	else
		log_err("%s: %s", db, strerror(-r));
}

static const char compare_usage[] =
	"usage: lrubench compare DB [--all] [--baseline VARIANT] [--min-effect PCT] [--alpha A]\n"
	"                           [--log-ratio] [--far F]\n"
	"  the summary: each workload's key metrics, change, interval, verdict\n"
	"  --all  then every row: key and exploratory metrics, and the table of means\n"
	"  --log-ratio  times, rates and counts by the paired t on log ratios (geometric means)\n"
	"  --far F  the chance of exit 1 under no change, over every key test (default: alpha)\n"
	"  exit 0: no key metric regressed, 1: one did, 2: error,\n"
	"       3: incomplete (failed runs, a variant short of blocks, nothing measured)\n";

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "min-effect", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "far", required_argument, NULL, 'F' },
		{ "log-ratio", no_argument, NULL, 'L' },
		{ "all", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_free_ char *buf = NULL;
	const char *why;
	bool all = false;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	struct verdict_opts vo = VERDICT_OPTS_DEFAULT;
	const char *baseline = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(compare_usage, stdout);
			return 0;
		}
		if (c == 'A') {
			all = true;
			continue;
		}
		if (c == '?' || verdict_opt(c, optarg, &vo, &baseline)) {
			fputs(compare_usage, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(compare_usage, stderr);
		return 2;
	}
	if (open_db(argv[optind], false, &st) < 0)
		return 2;
	r = analysis__run(st, baseline, &vo, &an);
	if (r < 0) {
		load_error(argv[optind], baseline, r);
		return 2;
	}
	noise__load(st, &nz);
	compare__summary(an, stdout);
	if (compare__grid(an->ds, &vo, stdout) < 0)
		log_warn("%s: the kernel x LRU table failed", argv[optind]);
	if (all) {
		printf("\n");
		compare__verdicts(an, nz, stdout);
		printf("\n");
		compare__table(an, stdout);
	}
	why = analysis__incomplete(an, &buf);
	if (why) {
		log_err("%s: incomplete: %s (exit %d)", argv[optind], why, EXIT_INCOMPLETE);
		return EXIT_INCOMPLETE;
	}
	return an->regressions ? EXIT_REGRESSION : EXIT_NO_REGRESSION;
}

static const char report_usage[] =
	"usage: lrubench report DB [--junit FILE] [--json FILE] [--min-effect PCT] [--alpha A]\n"
	"                          [--baseline VARIANT] [--noise AA.db] [--wss WSS.db] [--no-plots]\n"
	"                          [--log-ratio] [--far F]\n"
	"  writes reports/<campaign>/ (report.md, index.html, plots/)\n"
	"  --noise AA.db  copy the noise figures of an A/A campaign ('lrubench noise') in first\n"
	"  --wss WSS.db   copy the working sets of a measuring pass ('lrubench wss') in first:\n"
	"                 the report shows each memcg's memory.max against its working set\n"
	"  exit 0: no key metric regressed, 1: one did, 2: error,\n"
	"       3: incomplete (failed runs, a variant short of blocks, nothing measured)\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "junit", required_argument, NULL, 'j' },
		{ "json", required_argument, NULL, 'J' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "min-effect", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "far", required_argument, NULL, 'F' },
		{ "log-ratio", no_argument, NULL, 'L' },
		{ "noise", required_argument, NULL, 'n' },
		{ "wss", required_argument, NULL, 'W' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_free_ char *campaign = NULL, *dir = NULL;
	struct report_opts o = { .vo = VERDICT_OPTS_DEFAULT };
	int status = EXIT_NO_REGRESSION;
	int c, r;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		case 'j':
			o.junit = optarg;
			break;
		case 'J':
			o.json = optarg;
			break;
		case 'n':
			o.noise_db = optarg;
			break;
		case 'W':
			o.wss_db = optarg;
			break;
		case 'P':
			o.no_plots = true;
			break;
		default:
			if (c == '?' || verdict_opt(c, optarg, &o.vo, &o.baseline)) {
				fputs(report_usage, stderr);
				return 2;
			}
		}
	}
	if (optind + 1 != argc) {
		fputs(report_usage, stderr);
		return 2;
	}
	o.db_path = argv[optind];
	if (open_db(o.db_path, o.noise_db || o.wss_db, &st) < 0)
		return 2;
	if (store__meta_get(st, "campaign", &campaign) < 0)
		campaign = xstrdup("campaign");
	{
		/* the name comes from the database: keep it one path component */
		_cleanup_free_ char *safe = escape_filename(campaign);

		dir = xasprintf("%s/%s", path_reports(), safe);
	}
	o.dir = dir;
	r = report__write(st, &o, &status);
	if (r < 0) {
		load_error(o.db_path, o.baseline, r);
		return 2;
	}
	printf("%s/report.md\n%s/index.html\n", dir, dir);
	if (o.junit)
		printf("%s\n", o.junit);
	if (o.json)
		printf("%s\n", o.json);
	if (status == EXIT_REGRESSION)
		log_info("a key metric regressed (exit %d)", status);
	else if (status == EXIT_INCOMPLETE)
		log_err("%s: the campaign is incomplete: runs failed or a variant has too few "
			"blocks (exit %d; the report's Runs section says which)",
			o.db_path, status);
	return status;
}
