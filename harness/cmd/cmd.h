/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sub-commands, in the style of git and perf: one cmd-NAME.c each, one row
 * in the table in lrubench.c. Each returns the process exit status:
 * 0 success, 1 a finding (e.g. a kernel refused), 2 an error.
 */
#ifndef LRUBENCH_CMD_H
#define LRUBENCH_CMD_H

#include "cmd-opt.h"

int cmd_run(int argc, char **argv);
int cmd_run_one(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_claims(int argc, char **argv);
int cmd_wss(int argc, char **argv);
int cmd_export(int argc, char **argv);

int cmd_ab(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_bisect_step(int argc, char **argv);

struct campaign_opts;
/* cmd-campaign.c: the defaults of the commands that run a campaign, and the
 * options they all take alike: -k/--kernel, -c/--config, -m/--modules, -d/--db,
 * -j/--jobs, -a/--accel, -C/--clock, -t/--timeout (their getopt codes). 1: c was one of
 * them and is applied; 0: it is not one; -EINVAL: a bad value, said why. */
void cmd_campaign_defaults(struct campaign_opts *o);
/* Their rows (cmd-opt.h), for the commands' getopt arrays (cmd_opt__longopts):
 * db, accel, clock, timeout; and kernel, config, modules, jobs (not ab's). */
extern const struct cmd_opt cmd_campaign_opts[];
/* --accel's values: auto, kvm, tcg (bisect takes it too). */
extern const char *const cmd_accel_words[];
extern const struct cmd_opt cmd_campaign_kernel_opts[];
int cmd_campaign_opt(struct campaign_opts *o, int c, const char *arg);
struct plan;
/*
 * Run plan's campaign (or resume the one in db), then finish it
 * (campaign__finish(): compare, report, history); its exit code.
 */
int cmd_campaign_run(struct plan *plan, const struct campaign_opts *o);
int cmd_campaign_resume(const char *db, const struct campaign_opts *o);

#endif
