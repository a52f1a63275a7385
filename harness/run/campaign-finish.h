/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What follows a campaign's runs, for every command that runs one (run,
 * noise, wss, ab, bisect's steps): the comparison on stdout, the report
 * directory, an A/A campaign's noise figures, the history with --history,
 * and the exit status they come to.
 */
#ifndef LRUBENCH_CAMPAIGN_FINISH_H
#define LRUBENCH_CAMPAIGN_FINISH_H

struct campaign_done;
struct campaign_opts;

/*
 * After campaign__run() or campaign__resume() returned r (0: every run done,
 * d filled): print the campaign's comparison, write its report
 * (o->reports_dir/NAME) and, with --history, append it to the history;
 * clears d. The exit status: 0 no key metric regressed, 1 one did, 3 the
 * campaign is incomplete (runs failed after their retries, a variant with
 * fewer than 2 blocks: never a pass), 2 error, 130 interrupted (the
 * database is resumable).
 */
int campaign__finish(int r, struct campaign_done *d, const struct campaign_opts *o);

#endif
