/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merging campaign databases: the shards of one plan (lrubench run --shard),
 * or any databases of the same plan, into one new database that compare,
 * report and --resume read as if one campaign had run.
 *
 * Inputs must share the plan (the same plan text, by sha256, and the same
 * repetitions) and define every variant alike (kernel, LRU mode, knobs);
 * otherwise nothing is written and the error names the two files.
 *
 * Rows are copied with INSERT .. SELECT from each input ATTACHed in turn, one
 * transaction per input: variants, metrics and scopes are matched by name
 * (their ids differ between databases), runs get new ids and keep their
 * variant, repetition, place in the order and seed, and every row that hangs
 * off a run follows it (provenance, samples, values, generations, results,
 * events, logs; a retry_of provenance is renumbered).
 *
 * A planned run is a variant and a repetition. Runs present in two inputs
 * are kept once, the most finished copy winning (completed, then a failed
 * workload or kernel, then an infrastructure failure, then pending or
 * running; the first input on a tie):
 *   - the same variant, repetition and place in the order: the same attempt;
 *   - two finished runs (completed or failed-workload/-kernel) of the same
 *     variant and repetition at different places: the same measurement taken
 *     twice (a shard run again after a retry); counting both would count the
 *     repetition twice;
 *   - a pending or running run whose variant and repetition finished
 *     elsewhere is dropped, and dropped when a finished one arrives.
 * Infrastructure failures at other places are attempts and all kept (they
 * are never averaged).
 *
 * OUT is built as OUT.merging (foreign keys checked once, at the end, not
 * per row) and renamed into place only once it passes PRAGMA
 * integrity_check and foreign_key_check: it exists complete or not at
 * all. Its meta says what was merged (merge.inputs, merge.input.K).
 */
#ifndef LRUBENCH_MERGE_H
#define LRUBENCH_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct merge_stats {
	size_t inputs;
	uint64_t runs_in;	/* runs read from the inputs */
	uint64_t runs;		/* runs in OUT */
	uint64_t duplicates;	/* input runs not taken: OUT had that run as finished */
	uint64_t replaced;	/* runs taken out of OUT for a more finished copy */
	uint64_t unfinished;	/* runs in OUT still pending or running */
	uint64_t samples, values;
	size_t host_classes;	/* distinct machines the inputs ran on (history.h's classes) */
};

/*
 * Merge the campaign databases in[0..n) into a new database at out. Returns
 * 0, -EEXIST if out exists, -ENOENT if an input does not, -EINVAL if an
 * input is not a campaign database or the plans differ, -EIO on an SQLite
 * failure; *ret_err (malloc'd) then says what, naming the files.
 */
int merge__run(const char *out, const char *const *in, size_t n, struct merge_stats *ret_stats,
	       char **ret_err);

#endif
