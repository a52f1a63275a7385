// SPDX-License-Identifier: GPL-2.0
/*
 * What 'lrubench compare' prints for a campaign: the summary, the kernel x
 * LRU grid when there is one (compare-grid.c), and with --all the verdict
 * table and the table of means (compare.c). Above both, so that neither
 * calls the other back.
 */
#include "compare.h"
#include "noise.h"
#include "util.h"
#include "verdict.h"

int compare_print(struct store *st, FILE *out, const char *baseline, bool all)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	int r;

	r = analysis__run(st, baseline, &o, &an);
	if (r < 0)
		return r;
	noise__load(st, &nz);
	compare__summary(an, out);
	r = compare__grid(an->ds, &o, out);
	if (r < 0)
		return r;
	if (all) {
		fprintf(out, "\n");
		compare__verdicts(an, nz, out);
		fprintf(out, "\n");
		compare__table(an, out);
	}
	return analysis__exit_status(an);
}
