// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"
#include "compare.h"
#include "report.h"
#include "store.h"
#include "util.h"

#include <getopt.h>
#include <string.h>

static int open_db(const char *path, struct store **ret)
{
	int r;

	if (access(path, R_OK) < 0) {
		log_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	r = store__open(path, ret);
	if (r < 0)
		log_err("%s: not a campaign database (%s)", path, strerror(-r));
	return r;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	_cleanup_(store__closep) struct store *st = NULL;
	const char *baseline = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "hb:", longopts, NULL)) != -1) {
		if (c == 'b') {
			baseline = optarg;
		} else {
			fprintf(c == 'h' ? stdout : stderr,
				"usage: lrubench compare DB [--baseline VARIANT]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: lrubench compare DB [--baseline VARIANT]\n");
		return 2;
	}
	if (open_db(argv[optind], &st) < 0)
		return 2;
	return compare_print(st, stdout, baseline) < 0 ? 2 : 0;
}

int cmd_report(int argc, char **argv)
{
	_cleanup_(store__closep) struct store *st = NULL;
	_cleanup_free_ char *campaign = NULL, *dir = NULL;
	int r;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: lrubench report DB\n");
		return 2;
	}
	if (open_db(argv[1], &st) < 0)
		return 2;
	if (store__meta_get(st, "campaign", &campaign) < 0)
		campaign = xstrdup("campaign");
	dir = xasprintf("%s/%s", path_reports(), campaign);
	r = report_write(st, argv[1], dir);
	if (r < 0) {
		log_err("%s: %s", dir, strerror(-r));
		return 2;
	}
	printf("%s/report.md\n", dir);
	return 0;
}
