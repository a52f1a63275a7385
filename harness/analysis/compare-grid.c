// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel x LRU table: when a campaign's variants are several kernels,
 * each under the classic LRU and under MGLRU with the same knobs otherwise
 * (workloads/plans/kernels.ini), one row per workload key metric and
 * kernel: the two LRUs' means, the change MGLRU brings on that kernel, and
 * the change that kernel brings against the first one under each LRU, each
 * with its verdict. Each change is its own comparison through the verdict
 * layer (paired blocks, the key metric's family), with the baseline it
 * names: which workloads regress under which kernel and which LRU.
 */
#include "compare.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* The kernel part of a variant's kernel column ("6.1.0-57-cloud-amd64 fe69a84e207e"). */
static size_t release_len(const char *kernel)
{
	return strcspn(kernel, " ");
}

/* Kernel k's name in the table: its release, and its image's hash when another shares it. */
static void kernel_label(const struct compare_grid *g, size_t k, char *buf, size_t len)
{
	size_t rl = release_len(g->kernel[k]);
	bool dup = false;

	for (size_t j = 0; j < g->nk; j++)
		dup |= j != k && release_len(g->kernel[j]) == rl &&
		       !strncmp(g->kernel[j], g->kernel[k], rl);
	if (dup)
		snprintf(buf, len, "%s", g->kernel[k]);
	else
		snprintf(buf, len, "%.*s", (int)rl, g->kernel[k]);
}

int compare__grid_find(const struct dataset *ds, struct compare_grid *ret)
{
	struct compare_grid g = { 0 };

	for (size_t i = 0; i < ds->nv; i++) {
		const struct ds_variant *v = &ds->v[i];
		size_t k;

		if (strcmp(ds_knobs_but_lru(v), ds_knobs_but_lru(&ds->v[0])))
			return -ENOENT;
		for (k = 0; k < g.nk; k++)
			if (!strcmp(g.kernel[k], v->kernel))
				break;
		if (k == g.nk) {
			if (g.nk == COMPARE_GRID_MAX)
				return -ENOENT;
			g.kernel[k] = v->kernel;
			g.cell[k][0] = g.cell[k][1] = SIZE_MAX;
			g.nk++;
		}
		if (g.cell[k][ds_lru_mglru(v)] != SIZE_MAX)
			return -ENOENT; /* two variants in one cell: not a grid */
		g.cell[k][ds_lru_mglru(v)] = i;
	}
	if (g.nk < 2)
		return -ENOENT;
	for (size_t k = 0; k < g.nk; k++)
		if (g.cell[k][0] == SIZE_MAX || g.cell[k][1] == SIZE_MAX)
			return -ENOENT;
	*ret = g;
	return 0;
}

/* One line of the table, without trailing blanks (mail keeps them as noise). */
static void line_out(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_out(FILE *out, const char *fmt, ...)
{
	char line[512];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	len = strlen(line);
	while (len && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* The comparison of row label for candidate cand in an, or NULL. */
static const struct comparison *find(const struct analysis *an, const char *label, size_t cand)
{
	for (size_t i = 0; i < an->nc; i++)
		if (an->c[i].cand == cand && !strcmp(an->ds->rows[an->c[i].row].label, label))
			return &an->c[i];
	return NULL;
}

/* "-12.3% REGRESSION", "+1.0% ~", "n/c", "-" */
static void cell(char *buf, size_t len, const struct comparison *c)
{
	char ch[16];

	if (!c || c->verdict == VERDICT_NO_DATA) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->verdict == VERDICT_NOT_COMPARABLE) {
		snprintf(buf, len, "n/c");
		return;
	}
	fmt_pct(ch, sizeof(ch), c->change);
	snprintf(buf, len, "%s %s", ch,
		 c->verdict == VERDICT_NO_CHANGE ?
			 (c->decision == DECISION_WITHIN ? "same" : "~") :
			 verdict_mark(c->verdict));
}

int compare__grid(const struct dataset *ds, const struct verdict_opts *o, FILE *out)
{
	struct analysis *lru[COMPARE_GRID_MAX] = { 0 }, *ker[2] = { 0 };
	struct compare_grid g;
	int r = 0;

	if (compare__grid_find(ds, &g) < 0)
		return 0;
	/* MGLRU against classic on each kernel; each kernel against the first under each LRU */
	for (size_t k = 0; k < g.nk && r == 0; k++)
		r = analysis__against(ds, g.cell[k][0], o, &lru[k]);
	for (int m = 0; m < 2 && r == 0; m++)
		r = analysis__against(ds, g.cell[0][m], o, &ker[m]);
	if (r == 0) {
		char k0[96];

		kernel_label(&g, 0, k0, sizeof(k0));
		fprintf(out,
			"kernel x LRU: each workload's key metrics per kernel; MGLRU against classic "
			"on that kernel,\nand that kernel against %s under each LRU\n\n",
			k0);
		line_out(out, "%-8s %-22s %-22s %13s %13s  %-18s  %-18s  %-18s", "workload",
			 "metric", "kernel", "classic", "mglru", "mglru vs classic",
			 "vs first, classic", "vs first, mglru");
		for (size_t ri = 0; ri < ds->nrows; ri++) {
			const struct ds_row *row = &ds->rows[ri];
			const char *metric = row->result ? row->label + strlen(row->scope) + 1 :
							   row->label;

			if (!row->key)
				continue;
			for (size_t k = 0; k < g.nk; k++) {
				const struct comparison *cl = find(lru[k], row->label, g.cell[k][1]);
				const struct comparison *kc =
					k ? find(ker[0], row->label, g.cell[k][0]) : NULL;
				const struct comparison *km =
					k ? find(ker[1], row->label, g.cell[k][1]) : NULL;
				char mc[24] = "-", mm[24] = "-", a[40], b[40] = "", c[40] = "";
				char rel[96];

				if (cl && cl->base.n)
					fmt_num(mc, sizeof(mc), cl->base.mean);
				if (cl && cl->cur.n)
					fmt_num(mm, sizeof(mm), cl->cur.mean);
				cell(a, sizeof(a), cl);
				if (k) {
					cell(b, sizeof(b), kc);
					cell(c, sizeof(c), km);
				}
				kernel_label(&g, k, rel, sizeof(rel));
				line_out(out, "%-8s %-22s %-22s %13s %13s  %-18s  %-18s  %-18s",
					 k ? "" : row->family, k ? "" : metric, rel, mc, mm, a, b, c);
			}
		}
		fprintf(out,
			"\nEach change is the verdict layer's comparison of those two variants "
			"(paired blocks, the\nkey metric's family); REGRESSION/improved/changed/same/~ "
			"as in the summary.\n");
	}
	for (size_t k = 0; k < COMPARE_GRID_MAX; k++)
		analysis__free(lru[k]);
	analysis__free(ker[0]);
	analysis__free(ker[1]);
	return r;
}
