// SPDX-License-Identifier: GPL-2.0
#include "adaptive.h"
#include "compare.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>

/* "kv:throughput [-20%, +30%] (~9 more blocks), mix:majflt n<2" */
static void open_list(const struct analysis *an, FILE *f)
{
	const struct dataset *ds = an->ds;
	size_t n = 0;

	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];
		char lo[16], hi[16];

		if (!c->key || c->decision != DECISION_OPEN)
			continue;
		if (n++ == 6) {
			fprintf(f, ", ...");
			break;
		}
		fprintf(f, "%s%s", n > 1 ? ", " : "", ds->rows[c->row].label);
		if (ds->nv > 2)
			fprintf(f, " (%s)", ds->v[c->cand].name);
		if (c->scale == CHANGE_ABSOLUTE && !isnan(c->diff_lo)) {
			char num[24];

			fmt_num(num, sizeof(num), c->diff_lo);
			fprintf(f, " [%s%s, ", c->diff_lo >= 0 ? "+" : "", num);
			fmt_num(num, sizeof(num), c->diff_hi);
			fprintf(f, "%s%s] %s", c->diff_hi >= 0 ? "+" : "", num,
				ds->rows[c->row].unit);
			if (c->more_blocks)
				fprintf(f, " (~%zu more)", c->more_blocks);
			continue;
		}
		if (isnan(c->ci_lo)) {
			fprintf(f, " %s", c->verdict == VERDICT_TOO_FEW ? "n<2" : "unbounded");
			continue;
		}
		fmt_pct(lo, sizeof(lo), c->ci_lo);
		fmt_pct(hi, sizeof(hi), c->ci_hi);
		fprintf(f, " [%s, %s]", lo, hi);
		if (c->more_blocks)
			fprintf(f, " (~%zu more)", c->more_blocks);
	}
}

enum adaptive_step adaptive__next(const struct analysis *an, const struct adaptive_state *s,
				  char **ret_why)
{
	size_t keys = 0, len = 0;
	char *why = NULL;
	FILE *f = open_memstream(&why, &len);
	enum adaptive_step step;
	double per_block;

	for (size_t i = 0; i < an->nc; i++)
		keys += an->c[i].key && an->c[i].decision != DECISION_NONE;
	per_block = s->blocks > 0 ? (double)s->elapsed_ms / s->blocks : 0;
	if (!keys) {
		step = ADAPTIVE_NO_KEYS;
		fprintf(f, "no key metric could be tested (not comparable, or no data)");
	} else if (!an->open) {
		step = ADAPTIVE_DECIDED;
		fprintf(f, "every key metric decided after %d blocks", s->blocks);
	} else if (s->blocks >= s->max_blocks) {
		step = ADAPTIVE_MAX_BLOCKS;
		fprintf(f, "max_repetitions (%d) reached with %zu key metric%s undecided: ",
			s->max_blocks, an->open, an->open == 1 ? "" : "s");
		open_list(an, f);
	} else if (s->max_time_ms &&
		   (double)s->elapsed_ms + per_block > (double)s->max_time_ms) {
		step = ADAPTIVE_MAX_TIME;
		fprintf(f,
			"max_time (%.0f s) would be passed by another block (%.0f s each) with %zu "
			"key metric%s undecided: ",
			(double)s->max_time_ms / 1e3, per_block / 1e3, an->open,
			an->open == 1 ? "" : "s");
		open_list(an, f);
	} else {
		step = ADAPTIVE_CONTINUE;
		fprintf(f, "%zu key metric%s undecided after %d blocks: ", an->open,
			an->open == 1 ? "" : "s", s->blocks);
		open_list(an, f);
	}
	fclose(f);
	*ret_why = why;
	return step;
}
