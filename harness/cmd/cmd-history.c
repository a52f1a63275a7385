// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench history add|pin|show|plot (a night recorded: run/history-record.c).
 */
#include "cmd.h"
#include "paths.h"
#include "history-plot.h"
#include "history-record.h"
#include "history.h"
#include "store.h"
#include "util.h"

#include <string.h>

static const char usage_text[] =
	"usage: lrubench history COMMAND HIST.db ...\n"
	"  add HIST.db CAMPAIGN.db [--any-host]\n"
	"                            append a finished campaign (e.g. merged shards) as a night,\n"
	"                            compare it and plot the trends\n"
	"  pin HIST.db CAMPAIGN      make CAMPAIGN's night the baseline of its plan on its host\n"
	"                            class\n"
	"  show HIST.db [CAMPAIGN [--any-host]]\n"
	"                            the nights; with CAMPAIGN, its comparison\n"
	"  plot HIST.db [PLAN]       trend plots (default: the latest night's plan)\n"
	"A night is compared with nights of its host class (CPU, cores, memory, accelerator,\n"
	"QEMU version) only; --any-host compares across classes, with a warning.\n"
	"Plots and history.md go to REPORTS/history/PLAN/ (REPORTS: $LRUBENCH_REPORTS or reports).\n";

static int history_add(const char *hist, const char *db, bool any_host)
{
	_cleanup_(store__closep) struct store *st = NULL;
	int r;

	if (access(db, R_OK) < 0) {
		log_err("%s: %s", db, strerror(errno));
		return 2;
	}
	r = store__open_readonly(db, &st);
	if (r < 0) {
		log_err("%s: not a campaign database (%s)", db, strerror(-r));
		return 2;
	}
	return history_record(st, db, hist, path_reports(), any_host) < 0 ? 2 : 0;
}

int cmd_history(int argc, char **argv)
{
	_cleanup_(history__closep) struct history *h = NULL;
	_cleanup_free_ char *plan = NULL, *err = NULL;
	const char *sub = argc > 1 ? argv[1] : "";
	bool any_host = false;
	int64_t night;
	size_t plots = 0;
	int r;

	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	/* --any-host, last, after add's or show's campaign */
	if ((!strcmp(sub, "add") || !strcmp(sub, "show")) && argc == 5 &&
	    !strcmp(argv[4], "--any-host")) {
		any_host = true;
		argc--;
	}
	if (!strcmp(sub, "add") && argc == 4)
		return history_add(argv[2], argv[3], any_host);
	if (!((!strcmp(sub, "pin") && argc == 4) || (!strcmp(sub, "show") && (argc == 3 || argc == 4)) ||
	      (!strcmp(sub, "plot") && (argc == 3 || argc == 4)))) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (access(argv[2], R_OK | W_OK) < 0) {
		log_err("%s: %s", argv[2], strerror(errno));
		return 2;
	}
	if (history_open_logged(argv[2], &h) < 0)
		return 2;
	if (!strcmp(sub, "pin")) {
		r = history__pin(h, argv[3]);
		if (r == -ENOENT)
			log_err("%s: no night of campaign '%s' ('lrubench history show %s' lists them)",
				argv[2], argv[3], argv[2]);
		else if (r < 0)
			log_err("%s: %s", argv[2], history__errmsg(h));
		else
			printf("pinned %s as the baseline of its plan\n", argv[3]);
		return r < 0 ? 2 : 0;
	}
	if (!strcmp(sub, "show") && argc == 3)
		return history__list_print(h, stdout) < 0 ? 2 : 0;
	if (!strcmp(sub, "show")) {
		r = history__night(h, argv[3], &night);
		if (r < 0) {
			log_err("%s: no night of campaign '%s'", argv[2], argv[3]);
			return 2;
		}
		return history__compare_print(h, night, any_host, stdout) < 0 ? 2 : 0;
	}
	/* plot */
	if (argc == 4) {
		plan = xstrdup(argv[3]);
	} else if (history__latest(h, &night) < 0 || history__night_plan(h, night, &plan) < 0) {
		log_err("%s: no night yet", argv[2]);
		return 2;
	}
	{
		_cleanup_free_ char *dir = xasprintf("%s/history/%s", path_reports(), plan);

		r = history__plot(h, plan, dir, NULL, &plots, &err);
		if (r < 0) {
			log_err("trend plots in %s: %s", dir, err ? err : strerror(-r));
			return 2;
		}
		printf("%zu trend plots in %s\n", plots, dir);
	}
	return 0;
}
