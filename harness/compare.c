// SPDX-License-Identifier: GPL-2.0
#include "compare.h"
#include "noise.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

void fmt_num(char *buf, size_t len, double x)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, len, "-");
	else if (a >= 1e10)
		snprintf(buf, len, "%.3gG", x / 1e9);
	else if (a >= 1e7)
		snprintf(buf, len, "%.4gM", x / 1e6);
	else if (a >= 100 || x == floor(x))
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.3g", x);
}

void fmt_pct(char *buf, size_t len, double x)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (isinf(x))
		snprintf(buf, len, "%sinf", x > 0 ? "+" : "-");
	else if (fabs(x) >= 1)
		snprintf(buf, len, "%+.0f%%", 100 * x);
	else
		snprintf(buf, len, "%+.1f%%", 100 * x);
}

void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

/* A mean with its coefficient of variation: "57396 ±11%". */
static void fmt_mean(char *buf, size_t len, const struct stats_summary *s)
{
	char num[24];

	fmt_num(num, sizeof(num), s->n ? s->mean : NAN);
	if (s->n > 1 && !isnan(s->cv))
		snprintf(buf, len, "%s ±%.0f%%", num, 100 * s->cv);
	else
		snprintf(buf, len, "%s", num);
}

/* A fixed-width text table: cells are copied; columns sized to their widest cell. */
struct tbl {
	size_t ncol, nrows;
	char **cells;
	const char *align; /* 'l' or 'r' per column */
};

static void tbl_row(struct tbl *t, ...)
{
	va_list ap;

	t->cells = xrealloc(t->cells, (t->nrows + 1) * t->ncol, sizeof(char *));
	va_start(ap, t);
	for (size_t i = 0; i < t->ncol; i++)
		t->cells[t->nrows * t->ncol + i] = xstrdup(va_arg(ap, const char *));
	va_end(ap);
	t->nrows++;
}

/* Display width: the bytes of a UTF-8 string that start a character. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void tbl_print(struct tbl *t, FILE *out)
{
	_cleanup_free_ size_t *w = xcalloc(t->ncol, sizeof(size_t));

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncol; c++) {
			size_t x = width(t->cells[r * t->ncol + c]);

			if (x > w[c])
				w[c] = x;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		_cleanup_free_ char *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);

		for (size_t c = 0; c < t->ncol; c++) {
			const char *s = t->cells[r * t->ncol + c];
			size_t pad = w[c] - width(s);

			if (c)
				fputs("  ", f);
			if (t->align[c] == 'r')
				fprintf(f, "%*s%s", (int)pad, "", s);
			else
				fprintf(f, "%s%*s", s, c + 1 < t->ncol ? (int)pad : 0, "");
		}
		fclose(f);
		/* no trailing blanks in mail */
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(out, "%s\n", line);
	}
	for (size_t i = 0; i < t->nrows * t->ncol; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = 0;
}

/* Text wrapped at width columns, each line indented. */
static void print_wrapped(FILE *out, const char *text, const char *indent, size_t cols)
{
	size_t col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > cols) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%.*s", col ? " " : indent, (int)w, text);
		col += (col ? 1 : strlen(indent)) + w;
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

/* The reasons behind the not-comparable marks: each once, after the metrics it covers. */
static void print_reasons(const struct analysis *an, FILE *out)
{
	const struct dataset *ds = an->ds;
	_cleanup_free_ const char **done = xcalloc(an->nc + 1, sizeof(char *));
	size_t ndone = 0;

	for (size_t i = 0; i < an->nc; i++) {
		const char *reason = an->c[i].reason;
		bool seen = false;

		if (an->c[i].verdict != VERDICT_NOT_COMPARABLE)
			continue;
		for (size_t j = 0; j < ndone; j++)
			seen |= done[j] == reason;
		if (seen)
			continue;
		done[ndone++] = reason;
		if (ndone == 1)
			fprintf(out, "\nn/c = not comparable across classic LRU and MGLRU on %s:\n",
				*ds->release ? ds->release : "this kernel");
		fprintf(out, "  -");
		for (size_t j = i; j < an->nc; j++) {
			bool dup = false;

			if (an->c[j].reason != reason)
				continue;
			for (size_t k = i; k < j; k++)
				dup |= an->c[k].reason == reason &&
				       !strcmp(ds->rows[an->c[k].row].metric,
					       ds->rows[an->c[j].row].metric);
			if (!dup)
				fprintf(out, " %s", ds->rows[an->c[j].row].metric);
		}
		fprintf(out, ":\n");
		print_wrapped(out, reason, "      ", 96);
	}
}

static void verdict_header(const struct analysis *an, size_t cand, FILE *out)
{
	const struct dataset *ds = an->ds;
	const struct ds_variant *b = &ds->v[ds->base], *c = &ds->v[cand];
	size_t nreg = 0, nimp = 0, nsame = 0, nnc = 0, nfew = 0;

	for (size_t i = 0; i < an->nc; i++) {
		if (an->c[i].cand != cand)
			continue;
		nreg += an->c[i].verdict == VERDICT_REGRESSION;
		nimp += an->c[i].verdict == VERDICT_IMPROVEMENT;
		nsame += an->c[i].verdict == VERDICT_NO_CHANGE;
		nnc += an->c[i].verdict == VERDICT_NOT_COMPARABLE;
		nfew += an->c[i].verdict == VERDICT_TOO_FEW;
	}
	fprintf(out,
		"%s against %s (baseline): %zu regression%s, %zu improvement%s, %zu without "
		"significant change",
		c->name, b->name, nreg, nreg == 1 ? "" : "s", nimp, nimp == 1 ? "" : "s", nsame);
	if (nnc)
		fprintf(out, ", %zu not comparable", nnc);
	if (nfew)
		fprintf(out, ", %zu with too few runs", nfew);
	fprintf(out, "\n  runs measured: %s %d, %s %d", b->name, b->measured, c->name, c->measured);
	if (b->warmup || c->warmup)
		fprintf(out, " (warm-up excluded: %d, %d)", b->warmup, c->warmup);
	if (b->failed || c->failed)
		fprintf(out, " (failed, not averaged: %d, %d)", b->failed, c->failed);
	fprintf(out, "\n");
}

void compare__verdicts(const struct analysis *an, const struct noise *nz, FILE *out)
{
	const struct dataset *ds = an->ds;
	struct tbl t = { .ncol = nz ? 10 : 9, .align = "llrrrrlrlr" };
	char pct[8];

	if (ds->nv < 2) {
		fprintf(out, "one variant only: nothing to compare\n");
		return;
	}
	for (size_t cand = 0; cand < ds->nv; cand++) {
		if (cand == ds->base)
			continue;
		verdict_header(an, cand, out);
		fprintf(out, "\n");
		{
			_cleanup_free_ char *hb = xasprintf("%s*", ds->v[ds->base].name);

			tbl_row(&t, "metric", "better", "n", hb, ds->v[cand].name, "change",
				"95% CI", "q", "verdict", "MDE");
		}
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			const struct ds_row *r = &ds->rows[c->row];
			const struct noise_row *nr = noise__find(nz, r->label);
			char n[32], mb[40], mc[40], ch[16], lo[16], hi[16], ci[40], q[16], mde[16];

			if (c->cand != cand || c->verdict == VERDICT_NO_DIRECTION)
				continue;
			snprintf(n, sizeof(n), "%zu/%zu", c->base.n, c->cur.n);
			fmt_mean(mb, sizeof(mb), &c->base);
			fmt_mean(mc, sizeof(mc), &c->cur);
			fmt_pct(ch, sizeof(ch), c->change);
			fmt_pct(lo, sizeof(lo), c->ci_lo);
			fmt_pct(hi, sizeof(hi), c->ci_hi);
			if (isnan(c->ci_lo))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
			fmt_p(q, sizeof(q), c->q);
			fmt_pct(mde, sizeof(mde),
				nr ? noise__mde_at(nr,
						   c->base.n < c->cur.n ? c->base.n : c->cur.n) :
				     NAN);
			if (mde[0] == '+')
				memmove(mde, mde + 1, strlen(mde));
			tbl_row(&t, r->label, metric_better_name(r->better), n, mb, mc,
				c->verdict == VERDICT_NOT_COMPARABLE ? "n/c" : ch, ci, q,
				verdict_mark(c->verdict), mde);
		}
		tbl_print(&t, out);
		fprintf(out, "\n");
	}
	snprintf(pct, sizeof(pct), "%.0f%%", 100 * an->o.min_effect);
	fprintf(out,
		"* baseline. Means ±coefficient of variation; n = measured runs "
		"(baseline/candidate). change: relative\n"
		"change of the mean, 95%% CI by bootstrap (%u resamples, seed %llu). "
		"q: Welch's p adjusted by\n"
		"Benjamini-Hochberg over the %zu tests of this campaign. REGRESSION or "
		"improved: q <= %g\n"
		"and |change| >= %s in the metric's worse or better direction; ~ no "
		"significant change.\n",
		an->o.resamples, (unsigned long long)an->o.seed, an->tests, an->o.alpha, pct);
	if (nz)
		fprintf(out,
			"MDE: the change an A/A campaign (%s) says these runs could detect "
			"(alpha 0.05, power 0.8).\n",
			nz->source);
	print_reasons(an, out);
}

void compare__table(const struct analysis *an, FILE *out)
{
	const struct dataset *ds = an->ds;
	size_t base = ds->base;

	fprintf(out, "%-44s %-7s %-6s", "metric", "unit", "better");
	for (size_t i = 0; i < ds->nv; i++) {
		char head[80];

		snprintf(head, sizeof(head), "%s%s", ds->v[i].name, i == base ? "*" : "");
		fprintf(out, " %20s", head);
	}
	fprintf(out, "  change vs %s\n", ds->v[base].name);
	for (size_t ri = 0; ri < ds->nrows; ri++) {
		const struct ds_row *row = &ds->rows[ri];

		fprintf(out, "%-44s %-7s %-6s", row->label, row->unit,
			metric_better_name(row->better));
		for (size_t i = 0; i < ds->nv; i++) {
			struct stats_summary s = { 0 };
			char cell[64], num[24];

			if (row->n[i])
				stats__summary(ds_vals(ds, row, i), row->n[i], &s);
			fmt_num(num, sizeof(num), row->n[i] ? s.mean : NAN);
			if (row->n[i] > 1 && !isnan(s.cv))
				snprintf(cell, sizeof(cell), "%s ±%.0f%% n=%zu", num, 100 * s.cv,
					 row->n[i]);
			else
				snprintf(cell, sizeof(cell), "%s n=%zu", num, row->n[i]);
			fprintf(out, " %20s", cell);
		}
		fprintf(out, " ");
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			char ch[16];

			if (c->row != ri)
				continue;
			fmt_pct(ch, sizeof(ch), c->change);
			if (c->verdict == VERDICT_NOT_COMPARABLE)
				fprintf(out, " (not comparable)");
			else if (c->verdict == VERDICT_TOO_FEW || c->verdict == VERDICT_NO_DATA)
				fprintf(out, " (n<2)");
			else
				fprintf(out, " %s", ch);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n* baseline. Values: mean ±coefficient of variation over n measured runs; "
		     "counters are increases over the run.\n");
}

void compare__noise(const struct noise *nz, FILE *out)
{
	fprintf(out,
		"Noise floor from the A/A campaign %s (one variant against itself):\n"
		"cv = run-to-run coefficient of variation; MDE = the smallest true change a\n"
		"two-sided test (alpha %g, power %g) detects with n runs a side.\n\n",
		nz->source, NOISE_ALPHA, NOISE_POWER);
	fprintf(out, "%-44s %4s %8s %10s %8s\n", "metric", "n", "cv", "A/A change", "MDE");
	for (size_t i = 0; i < nz->nrows; i++) {
		const struct noise_row *r = &nz->rows[i];
		char ch[16], mde[16], cv[16];

		fmt_pct(ch, sizeof(ch), r->change);
		fmt_pct(mde, sizeof(mde), r->mde);
		fmt_pct(cv, sizeof(cv), r->cv);
		fprintf(out, "%-44s %4zu %8s %10s %8s\n", r->label, r->n,
			cv[0] == '+' ? cv + 1 : cv, ch, mde[0] == '+' ? mde + 1 : mde);
	}
}

int compare_print(struct store *st, FILE *out, const char *baseline)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	struct verdict_opts o = VERDICT_OPTS_DEFAULT;
	int r;

	r = analysis__run(st, baseline, &o, &an);
	if (r < 0)
		return r;
	noise__load(st, &nz);
	compare__verdicts(an, nz, out);
	fprintf(out, "\n");
	compare__table(an, out);
	return (int)an->regressions;
}
