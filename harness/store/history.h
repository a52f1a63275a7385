/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The history: one long-lived SQLite file that nightly campaigns append a
 * summary to, so a kernel branch's metrics can be followed across nights,
 * compared with the night before and with a pinned baseline night, and
 * plotted. Schema at the top of history.c.
 *
 * A night keeps, per variant and metric, n, mean, standard deviation and
 * median over the completed runs: every workload result (WORKLOAD:KEY) and
 * the increase over the run of every counter the metric dictionary gives a
 * direction (SOURCE:KEY, per memcg SOURCE:KEY[memcg]). Key metrics, the ones
 * plotted, are the workload results with a direction.
 *
 * Comparisons here are the relative change of the mean, no more: whether a
 * change is significant is for lrubench compare on the campaign databases.
 *
 * Functions return 0 or -errno (-EIO for SQLite, with history__errmsg()).
 */
#ifndef LRUBENCH_HISTORY_H
#define LRUBENCH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct history;
struct store;

/* Open (creating the schema if new) the history at path; on failure *ret_err (malloc'd, if
 * ret_err is not NULL) says why. */
int history__open(const char *path, struct history **ret, char **ret_err);
void history__close(struct history *h);
void history__closep(struct history **h);
const char *history__errmsg(struct history *h);

/*
 * Append the campaign in st (its database at db_path) as a night; a campaign
 * appended again replaces its night. -ENODATA if it has no completed run.
 */
int history__append(struct history *h, struct store *st, const char *db_path,
		    int64_t *ret_night);
/* The night of a campaign, by name; -ENOENT if there is none. */
int history__night(struct history *h, const char *campaign, int64_t *ret_night);
/* The latest night (of any plan); -ENOENT on an empty history. */
int history__latest(struct history *h, int64_t *ret_night);
/* The plan name of a night (malloc'd). */
int history__night_plan(struct history *h, int64_t night, char **ret_plan);
/*
 * Make the campaign's night the baseline of its plan on its host class (one per plan and
 * host class: pinning a night of another class leaves this one's pin); -ENOENT if unknown.
 */
int history__pin(struct history *h, const char *campaign);
/*
 * Print night against the previous night of its plan and the plan's pinned night, both of
 * the night's host class, with a line that says so and how many nights of other classes were
 * left out. any_host: the previous night of any class, the class's own pin else the latest
 * pin of another, and a warning line for each of the two that ran on another class.
 */
int history__compare_print(struct history *h, int64_t night, bool any_host, FILE *out);
/* Print the nights, one line each (and their host class where there are several). */
int history__list_print(struct history *h, FILE *out);

/* What the trend plots read. A plan's key metrics, by name (malloc'd array). */
struct history_metric {
	char *metric, *unit, *better;
};
int history__key_metrics(struct history *h, const char *plan, struct history_metric **ret,
			 size_t *ret_n);
void history_metrics__free(struct history_metric *m, size_t n);
/* The places (from 0) of the plan's pinned nights (one per host class) among its nights by
 * start, apart by ' ' (malloc'd); -ENOENT if none. */
int history__pinned_x(struct history *h, const char *plan, char **ret_xs);
/*
 * A metric's trend: per variant (in the order the nights list them) and
 * host class (by its first night), its nights in order, x the night's place
 * among all the plan's nights, sd NAN when unknown, label the night's start
 * ("12-31 23:59", UTC).
 */
struct history_point {
	char *variant;
	int x;
	double mean, sd;
	char *label;
	char *host_class;
};
int history__trend(struct history *h, const char *plan, const char *metric,
		   struct history_point **ret, size_t *ret_n);
void history_points__free(struct history_point *p, size_t n);

/*
 * A host class: "CPU/Ncpu/MGiB/ACCEL/qemu-VERSION" from the campaign's meta
 * host.cpu_model ("(R)", "(TM)" dropped, blanks collapsed, '/' made '-'),
 * host.cpus, host.mem_bytes (rounded up to the GiB), the accelerator the
 * runs used and qemu.version ("QEMU emulator version 7.2.22 (Debian ...)"
 * gives 7.2.22); a part unknown (NULL, empty, unparsable) is "?". A campaign on
 * the instruction-counted clock (meta guest.clock "instructions shift=N ...")
 * has ACCEL "tcg+icountN": its times are counted instructions, and another
 * shift is another unit; on the real clock (clock NULL or "real") nothing is
 * added, so older nights keep their class. Malloc'd.
 * A history migrated from version 1 gives its nights HISTORY_CLASS_UNRECORDED.
 */
#define HISTORY_CLASS_UNRECORDED "unrecorded"
char *hist_host_class(const char *cpu_model, const char *cpus, const char *mem_bytes,
		      const char *accel, const char *qemu_version, const char *clock);

/* n, mean, sample standard deviation (NAN for n < 2) and median of x[0..n). */
struct hist_summary {
	size_t n;
	double mean, sd, median;
};
void hist_summarize(const double *x, size_t n, struct hist_summary *ret);

#endif
