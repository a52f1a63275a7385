// SPDX-License-Identifier: GPL-2.0
/* The comparison as fixed-width text (compare.h): number formats, the summary, the tables. */
#include "compare.h"
#include "guest-clock.h"
#include "noise.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

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

/* "n/c = ... on 6.1.0-57-cloud-amd64:", naming every kernel when variants differ in it. */
static void print_reasons_head(const struct dataset *ds, FILE *out)
{
	bool several = false;

	fprintf(out, "\nn/c = not comparable across classic LRU and MGLRU on %s",
		*ds->release ? ds->release : "this kernel");
	for (size_t i = 0; i < ds->nv; i++) {
		bool seen = !*ds->v[i].release || !strcmp(ds->v[i].release, ds->release);

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(ds->v[j].release, ds->v[i].release);
		if (!seen)
			fprintf(out, " or %s", ds->v[i].release);
		several |= !seen;
	}
	fprintf(out, "%s:\n", several ? " (a reason's source names its kernel)" : "");
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
			print_reasons_head(ds, out);
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

/* "  runs measured: classic 6, mglru 6 (failed, not averaged: 0, 1); 6 blocks" */
static void runs_line(const struct analysis *an, size_t cand, FILE *out)
{
	const struct dataset *ds = an->ds;
	const struct ds_variant *b = &ds->v[ds->base], *c = &ds->v[cand];

	fprintf(out, "  runs measured: %s %d, %s %d; %zu blocks with both", b->name, b->measured,
		c->name, c->measured, analysis__blocks(an, cand));
	if (b->warmup || c->warmup)
		fprintf(out, " (warm-up excluded: %d, %d)", b->warmup, c->warmup);
	if (b->failed || c->failed)
		fprintf(out, " (failed, not averaged: %d, %d)", b->failed, c->failed);
	if (ds->adaptive)
		fprintf(out, "; adaptive, %d to %d blocks", ds->min_reps, ds->max_reps);
	fprintf(out, "\n");
	if (ds->stop)
		fprintf(out, "  stopped: %.*s\n", (int)strcspn(ds->stop, ":"), ds->stop);
	{
		_cleanup_free_ char *clock = guest_clock_describe(ds->clock);

		fprintf(out, "  guest clock: %s\n", clock);
	}
}

/* A signed number of the row's unit: "+1905", "-0.012", "+12.3M". */
static void fmt_signed(char *buf, size_t len, double x)
{
	char num[24];

	fmt_num(num, sizeof(num), x);
	snprintf(buf, len, "%s%s", x >= 0 && !isnan(x) ? "+" : "", num);
}

/* The change cell: "+12.3%", or on the absolute scale "-1905 pages". */
void fmt_change(char *buf, size_t len, const struct comparison *c, const char *unit)
{
	char num[32];

	if (c->scale != CHANGE_ABSOLUTE || isnan(c->diff)) {
		fmt_pct(buf, len, c->change);
		return;
	}
	fmt_signed(num, sizeof(num), c->diff);
	snprintf(buf, len, "%s %s", num, unit);
}

/* "[-12.1%, +3.0%]", on the absolute scale "[-1942, -1868]", "unbounded", "-" */
void fmt_change_ci(char *buf, size_t len, const struct comparison *c)
{
	char lo[32], hi[32];

	if (c->scale == CHANGE_ABSOLUTE && !isnan(c->diff_lo)) {
		fmt_signed(lo, sizeof(lo), c->diff_lo);
		fmt_signed(hi, sizeof(hi), c->diff_hi);
		snprintf(buf, len, "[%s, %s]", lo, hi);
		return;
	}
	if (isnan(c->ci_lo)) {
		snprintf(buf, len, "%s", isnan(c->paired.p) ? "-" : "unbounded");
		return;
	}
	fmt_pct(lo, sizeof(lo), c->ci_lo);
	fmt_pct(hi, sizeof(hi), c->ci_hi);
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

/* Whether any row of cand (every candidate: SIZE_MAX) is on the absolute scale. */
static bool any_absolute(const struct analysis *an, size_t cand, bool keys_only)
{
	for (size_t i = 0; i < an->nc; i++)
		if ((cand == SIZE_MAX || an->c[i].cand == cand) && (an->c[i].key || !keys_only) &&
		    an->c[i].scale == CHANGE_ABSOLUTE && !isnan(an->c[i].diff))
			return true;
	return false;
}

/* Whether any row is on the log-ratio scale. */
static bool any_log(const struct analysis *an)
{
	for (size_t i = 0; i < an->nc; i++)
		if (an->c[i].scale == CHANGE_LOG)
			return true;
	return false;
}

/* The footnote of the log-ratio scale (--log-ratio). */
static void log_note(FILE *out)
{
	fprintf(out, "--log-ratio: rows in units of times, rates and counts (ns, ops/s, pages, "
		     "events, ...) with\n"
		     "every value positive compare geometric means: change is their ratio - 1, the "
		     "test and the\n"
		     "interval the paired t on log ratios (JSON \"scale\": \"log-ratio\").\n");
}

/* The footnote of the absolute scale, when a table has such a row. */
static void absolute_note(FILE *out)
{
	fprintf(out,
		"Near zero (a paired mean within %d resolution steps of 0, or a side all zero) the "
		"change is\n"
		"the difference of the paired means in the row's unit, with its t interval; the "
		"minimum\n"
		"effect is then relative to the larger mean.\n",
		VERDICT_NEAR_ZERO);
}

/* Rounded to 2 decimals a first look's level (alpha spent 2.5e-05) would read "100.00%". */
void fmt_level(char *buf, size_t len, double level)
{
	double p = 100 * level;
	int d = p >= 99.9 ? 2 : p == floor(p) ? 0 : 1;

	while (p < 100 && d < 6 && round(p * pow(10, d)) >= 100 * pow(10, d))
		d++;
	snprintf(buf, len, "%.*f%%", d, p);
}

/* Why an open key metric is open: "straddles ±5%", "is still unbounded". */
static const char *straddle(const struct comparison *c, const char *pct, char *buf, size_t len)
{
	if (c->scale == CHANGE_ABSOLUTE)
		snprintf(buf, len, "straddles ±%s of the larger mean", pct);
	else if (isnan(c->ci_lo))
		snprintf(buf, len, "is still unbounded (the baseline's mean is not yet known "
				   "to be nonzero)");
	else
		snprintf(buf, len, "straddles ±%s", pct);
	return buf;
}

/*
 * Whether a key metric is undecided: its interval is open and it has no
 * verdict. A verdict whose ratio interval is still unbounded (the paired test
 * decided, the baseline's mean is not yet known to be nonzero) is counted
 * with its verdict, once.
 */
static bool undecided(const struct comparison *c)
{
	return c->decision == DECISION_OPEN &&
	       (c->verdict == VERDICT_NO_CHANGE || c->verdict == VERDICT_TOO_FEW);
}

/* A key metric's mark in the summary: its verdict, "same" when decided within, "open". */
static const char *decision_mark(const struct comparison *c)
{
	if (c->verdict == VERDICT_NO_CHANGE)
		return c->decision == DECISION_WITHIN ? "same" : "open";
	if (c->verdict == VERDICT_TOO_FEW)
		return "n<2";
	return verdict_mark(c->verdict);
}

static void verdict_header(const struct analysis *an, size_t cand, FILE *out)
{
	const struct dataset *ds = an->ds;
	const struct ds_variant *b = &ds->v[ds->base], *c = &ds->v[cand];
	size_t nreg = 0, nimp = 0, nchg = 0, nsame = 0, nnc = 0, nfew = 0;

	for (size_t i = 0; i < an->nc; i++) {
		if (an->c[i].cand != cand)
			continue;
		nreg += an->c[i].verdict == VERDICT_REGRESSION;
		nimp += an->c[i].verdict == VERDICT_IMPROVEMENT;
		nchg += an->c[i].verdict == VERDICT_CHANGED;
		nsame += an->c[i].verdict == VERDICT_NO_CHANGE;
		nnc += an->c[i].verdict == VERDICT_NOT_COMPARABLE;
		nfew += an->c[i].verdict == VERDICT_TOO_FEW;
	}
	fprintf(out,
		"%s against %s (baseline), every row: %zu worse, %zu better, %zu changed, %zu "
		"without significant change",
		c->name, b->name, nreg, nimp, nchg, nsame);
	if (nnc)
		fprintf(out, ", %zu not comparable", nnc);
	if (nfew)
		fprintf(out, ", %zu with too few blocks", nfew);
	fprintf(out, "\n");
	runs_line(an, cand, out);
}

void compare__verdicts(const struct analysis *an, const struct noise *nz, FILE *out)
{
	const struct dataset *ds = an->ds;
	struct tbl t = { .ncol = nz ? 11 : 10, .align = "lllrrrrlrlr" };
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

			tbl_row(&t, "metric", "key", "better", "n", hb, ds->v[cand].name, "change",
				"interval", "q", "verdict", "MDE");
		}
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			const struct ds_row *r = &ds->rows[c->row];
			const struct noise_row *nr = noise__find(nz, r->label);
			char n[32], mb[40], mc[40], ch[64], ci[64], q[16], mde[16];

			if (c->cand != cand || (r->better == BETTER_NONE && !c->key))
				continue;
			snprintf(n, sizeof(n), "%zu", c->pairs);
			fmt_mean(mb, sizeof(mb), &c->base);
			fmt_mean(mc, sizeof(mc), &c->cur);
			fmt_change(ch, sizeof(ch), c, r->unit);
			fmt_change_ci(ci, sizeof(ci), c);
			fmt_p(q, sizeof(q), c->q);
			fmt_pct(mde, sizeof(mde),
				nr ? noise__mde_paired_at(nr, c->pairs, c->level) : NAN);
			if (mde[0] == '+')
				memmove(mde, mde + 1, strlen(mde));
			tbl_row(&t, r->label, c->key ? "key" : "", metric_better_name(r->better), n,
				mb, mc, c->verdict == VERDICT_NOT_COMPARABLE ? "n/c" : ch, ci, q,
				verdict_mark_of(c, an->o.min_effect), mde);
		}
		tbl_print(&t, out);
		fprintf(out, "\n");
	}
	snprintf(pct, sizeof(pct), "%.0f%%", 100 * an->o.min_effect);
	{
		_cleanup_free_ char *lv = analysis__key_level_text(an);

		fprintf(out,
			"* baseline. Means ±coefficient of variation over every measured run; n = "
			"blocks with both\n"
			"sides. change: relative change of the paired means, with Fieller's interval "
			"of their ratio.\n"
			"key rows: the paired t test at %s,\n"
			"the interval at that level, q = p scaled to it; verdict when q <= %g and "
			"|change| >= %s.\n"
			"Other rows are exploratory: 95%% intervals, q by Benjamini-Hochberg over the "
			"%zu\n"
			"exploratory tests, marked worse?/better?, not in the verdict.\n",
			lv, analysis__far(an), pct, an->tests);
	}
	if (any_absolute(an, SIZE_MAX, false))
		absolute_note(out);
	if (any_log(an))
		log_note(out);
	if (nz)
		fprintf(out,
			"MDE: the change an A/A campaign (%s) says the paired rule could detect "
			"here (at the row's level, power 0.8).\n",
			nz->source);
	print_reasons(an, out);
}

/* A family's one-word standing for one candidate: worse, better, mixed, changed, ~, open. */
static const char *family_word(const struct analysis *an, size_t cand, const char *fam)
{
	size_t reg = 0, imp = 0, chg = 0, open = 0, tested = 0;

	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];

		if (c->cand != cand || !c->key || strcmp(an->ds->rows[c->row].family, fam))
			continue;
		reg += c->verdict == VERDICT_REGRESSION;
		imp += c->verdict == VERDICT_IMPROVEMENT;
		chg += c->verdict == VERDICT_CHANGED;
		open += c->decision == DECISION_OPEN;
		tested += verdict_decided(c->verdict);
	}
	if (reg && imp)
		return "mixed";
	if (reg)
		return "WORSE";
	if (imp)
		return "better";
	if (chg)
		return "changed";
	if (open || !tested)
		return "undecided";
	return "same";
}

void compare__summary(const struct analysis *an, FILE *out)
{
	const struct dataset *ds = an->ds;
	struct tbl t = { .ncol = 9, .align = "llrrrrlrl" };
	_cleanup_free_ char *buf = NULL;
	const char *why = analysis__incomplete(an, &buf);
	char pct[8];

	snprintf(pct, sizeof(pct), "%.0f%%", 100 * an->o.min_effect);
	if (why)
		fprintf(out, "INCOMPLETE: %s\n\n", why);
	if (ds->nv < 2) {
		fprintf(out, "one variant only: nothing to compare\n");
		return;
	}
	for (size_t cand = 0; cand < ds->nv; cand++) {
		size_t reg = 0, imp = 0, chg = 0, same = 0, open = 0, keys = 0, nfam = 0;
		const char **fams = xcalloc(an->nc + 1, sizeof(char *));

		if (cand == ds->base) {
			free(fams);
			continue;
		}
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			const char *fam = ds->rows[c->row].family;
			bool seen = false;

			if (c->cand != cand || !c->key || c->decision == DECISION_NONE)
				continue;
			keys++;
			reg += c->verdict == VERDICT_REGRESSION;
			imp += c->verdict == VERDICT_IMPROVEMENT;
			chg += c->verdict == VERDICT_CHANGED;
			same += c->verdict == VERDICT_NO_CHANGE && c->decision == DECISION_WITHIN;
			open += undecided(c);
			for (size_t k = 0; k < nfam; k++)
				seen |= !strcmp(fams[k], fam);
			if (!seen)
				fams[nfam++] = fam;
		}
		fprintf(out,
			"%s against %s (baseline): %zu worse, %zu better, %zu changed, %zu the same "
			"(within ±%s), %zu undecided, of %zu key metrics\n",
			ds->v[cand].name, ds->v[ds->base].name, reg, imp, chg, same, pct, open,
			keys);
		runs_line(an, cand, out);
		if (nfam) {
			fprintf(out, "  by workload:");
			for (size_t k = 0; k < nfam; k++)
				fprintf(out, "%s %s %s", k ? "," : "", fams[k],
					family_word(an, cand, fams[k]));
			fprintf(out, "\n");
		}
		fprintf(out, "\n");
		{
			_cleanup_free_ char *hb = xasprintf("%s*", ds->v[ds->base].name);

			tbl_row(&t, "workload", "metric", "n", hb, ds->v[cand].name, "change",
				"interval", "at", "verdict");
		}
		for (size_t k = 0; k < nfam; k++)
			for (size_t i = 0; i < an->nc; i++) {
				const struct comparison *c = &an->c[i];
				const struct ds_row *r = &ds->rows[c->row];
				char n[16], mb[40], mc[40], ch[64], ci[64], lvl[16];
				const char *metric = r->label;

				if (c->cand != cand || !c->key || c->decision == DECISION_NONE ||
				    strcmp(r->family, fams[k]))
					continue;
				if (r->result)
					metric += strlen(r->scope) + 1;
				snprintf(n, sizeof(n), "%zu", c->pairs);
				fmt_mean(mb, sizeof(mb), &c->base);
				fmt_mean(mc, sizeof(mc), &c->cur);
				fmt_change(ch, sizeof(ch), c, r->unit);
				fmt_change_ci(ci, sizeof(ci), c);
				fmt_level(lvl, sizeof(lvl), c->level);
				tbl_row(&t, fams[k], metric, n, mb, mc, ch, ci,
					c->family_size ? lvl : "", decision_mark(c));
			}
		tbl_print(&t, out);
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			char why_buf[128];

			if (c->cand != cand || !c->key || !undecided(c))
				continue;
			if (c->verdict == VERDICT_TOO_FEW)
				fprintf(out, "  undecided: %s: %zu block%s with both sides\n",
					ds->rows[c->row].label, c->pairs, c->pairs == 1 ? "" : "s");
			else if (c->more_blocks)
				fprintf(out,
					"  undecided: %s: its interval %s; about %zu more block%s would "
					"likely decide it\n",
					ds->rows[c->row].label, straddle(c, pct, why_buf, sizeof(why_buf)),
					c->more_blocks, c->more_blocks == 1 ? "" : "s");
			else
				fprintf(out,
					"  undecided: %s: its interval %s; more than 200 blocks, or a "
					"quieter machine, would be needed\n",
					ds->rows[c->row].label,
					straddle(c, pct, why_buf, sizeof(why_buf)));
		}
		free(fams);
		fprintf(out, "\n");
	}
	{
		_cleanup_free_ char *lv = analysis__key_level_text(an);

		fprintf(out,
			"n = blocks (each variant once, interleaved). change: relative change of the "
			"paired means;\n"
			"interval: Fieller's, at the level shown: the paired t test at %s\n"
			"(at most %g chance of any false verdict over the campaign's key metrics).\n"
			"A verdict needs that test and |change| >= %s; \"same\": the interval lies "
			"within ±%s.\n",
			lv, analysis__far(an), pct, pct);
	}
	if (any_absolute(an, SIZE_MAX, true))
		absolute_note(out);
	if (any_log(an))
		log_note(out);
	if (an->x_worse || an->x_better)
		fprintf(out,
			"Exploratory rows (not in the verdict): %zu worse?, %zu better? beyond "
			"±%s at q <= %g; every row: --all.\n",
			an->x_worse, an->x_better, pct, an->o.alpha);
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
			char ch[64];

			if (c->row != ri)
				continue;
			fmt_change(ch, sizeof(ch), c, row->unit);
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
		"cv = run-to-run coefficient of variation; pair cv = spread of the block "
		"differences;\n"
		"MDE = the smallest true change found with power %g: Welch n=2 the unpaired "
		"test at alpha %g\n"
		"with 2 runs a side (the rule before blocks); paired, the verdicts' rule over "
		"these blocks\n"
		"at a key metric's level among 3 key tests at its last look (%.2f%%).\n\n",
		nz->source, NOISE_POWER, NOISE_ALPHA, 100 * NOISE_KEY_LEVEL);
	fprintf(out, "%-44s %6s %7s %8s %10s %12s %8s\n", "metric", "blocks", "cv", "pair cv",
		"A/A change", "MDE Welch n=2", "paired");
	for (size_t i = 0; i < nz->nrows; i++) {
		const struct noise_row *r = &nz->rows[i];
		char ch[16], mde[16], cv[16], pcv[16], mp[16];

		fmt_pct(ch, sizeof(ch), r->change);
		fmt_pct(mde, sizeof(mde), noise__mde_at(r, 2));
		fmt_pct(cv, sizeof(cv), r->cv);
		fmt_pct(pcv, sizeof(pcv), r->pair_sd);
		fmt_pct(mp, sizeof(mp), r->mde_paired);
		fprintf(out, "%-44s %6zu %7s %8s %10s %12s %8s\n", r->label, r->blocks,
			cv[0] == '+' ? cv + 1 : cv, pcv[0] == '+' ? pcv + 1 : pcv, ch,
			mde[0] == '+' ? mde + 1 : mde, mp[0] == '+' ? mp + 1 : mp);
	}
}
