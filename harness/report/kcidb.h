/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign in KernelCI's common reporting format, KCIDB I/O v5.3
 * (kcidb-io's schema; a copy in harness/tests/fixtures/kcidb/), for
 * 'lrubench export --kcidb':
 *   checkouts  one per distinct kernel source of the variants: the recipe's
 *              source identity (git commit, tarball or tree hash) for a
 *              kernel lrubench built, the package for Debian's prebuilt one;
 *   builds     one per kernel image (its sha256), x86_64, with its config;
 *              status PASS when a run of it booted, FAIL when none did and
 *              one failed with the kernel, none when nothing says;
 *   tests      one per candidate variant x key metric of each family, with
 *              the status its verdict gives (kcidb__status; the same
 *              analysis as compare's, so the same verdicts), and one ERROR
 *              per lost repetition (a run that failed and was not made good).
 * The numbers (means, change, interval, p, q, n, baseline) are in each
 * test's misc. Ids are "lrubench:<campaign>:...", stable for a campaign.
 */
#ifndef LRUBENCH_KCIDB_H
#define LRUBENCH_KCIDB_H

#include <stddef.h>
#include <stdio.h>

struct analysis;
struct comparison;
struct store;

/* What an export held. */
struct kcidb_counts {
	size_t checkouts, builds, tests;
	size_t pass, fail, done, skip, miss, error;
};

/*
 * Write the KCIDB document of the campaign st holds, analysed in an (from
 * analysis__run on the same store), to f. 0 or -errno (-EIO from the store).
 * *ret_counts (may be NULL) says what was written.
 */
int kcidb__write(struct store *st, const struct analysis *an, FILE *f,
		 struct kcidb_counts *ret_counts);

/*
 * The KCIDB status of a key comparison: regression FAIL; improvement, and
 * no significant change with its interval within +-min effect, PASS; no
 * significant change whose interval is still open, and changed without a
 * better direction, DONE (measured, no judgement on the code); not
 * comparable across LRUs SKIP; fewer than 2 blocks or no value MISS.
 */
const char *kcidb__status(const struct comparison *c);

#endif
