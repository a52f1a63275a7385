/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command options as tables: one row per option (its getopt code, its name,
 * what its value is and where in the command's options it goes), parsed and
 * range-checked in one place, with the one message each kind of mistake
 * gets. The rows the campaign commands share are cmd-campaign.c's; a
 * command adds its own (its --reps and its range, ...).
 */
#ifndef LRUBENCH_CMD_OPT_H
#define LRUBENCH_CMD_OPT_H

#include <getopt.h>
#include <stddef.h>

enum cmd_opt_kind {
	CMD_OPT_TEXT,	   /* const char *, as given */
	CMD_OPT_INT,	   /* int in [min, max]: "(an integer from MIN to MAX)" */
	CMD_OPT_RANGE,	   /* int in [min, max]: "(MIN..MAX)" */
	CMD_OPT_RANGE_U64, /* uint64_t in [min, max]: "(MIN..MAX)" */
	CMD_OPT_DURATION,  /* uint64_t milliseconds (util.h's durations), at least min */
	CMD_OPT_WORD,	   /* const char *: one of words, "(A, B or C)" */
};

struct cmd_opt {
	int code;	  /* getopt_long's value for it */
	const char *name; /* the long option, without "--" */
	enum cmd_opt_kind kind;
	size_t off;	  /* offsetof its field in the options */
	int min, max;
	const char *const *words; /* CMD_OPT_WORD: the values it takes, NULL-ended */
};

/*
 * Apply option code with value arg to opts by table (ended by a row of code
 * 0): 1 applied, 0 not in the table, -EINVAL a bad value (logged, "--NAME:
 * bad value 'ARG' (...)"; the command then exits 2).
 */
int cmd_opt__parse(const struct cmd_opt *table, void *opts, int code, const char *arg);

/*
 * getopt_long's array for a command: a row per row of tables (a NULL-ended
 * list, each table ended by a row of code 0; every row takes a value), then
 * the options the command handles itself (extra, ended by a zero row).
 * malloc'd, ended by a zero row. The names are written once, in the tables.
 */
struct option *cmd_opt__longopts(const struct cmd_opt *const *tables, const struct option *extra);

#endif
