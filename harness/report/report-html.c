// SPDX-License-Identifier: GPL-2.0
/*
 * index.html: one self-contained page, XHTML-compatible (it parses as XML),
 * with inline CSS and the plots' SVG inlined (their ids prefixed per
 * figure so that the figures do not share clip paths or markers). Nothing
 * is fetched from a network. Every text from the database goes through
 * escape_xml().
 */
#include "claims.h"
#include "compare.h"
#include "escape.h"
#include "guest-clock.h"
#include "report-priv.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;"
	"max-width:1320px;padding:1em 2em;color:#1a1a1a;line-height:1.4}\n"
	"h1{font-size:1.6em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;"
	"margin-top:2em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}\n"
	"th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right;vertical-align:top}\n"
	"th{background:#f0f0f0}td.l,th.l{text-align:left}\n"
	"td.mono,pre,code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}\n"
	"tr.regression td{background:#fbe0d0}tr.improvement td{background:#d6e8f5}\n"
	"tr.nc td,tr.few td{color:#666}\n"
	"td.v{font-weight:bold;text-align:left}tr.regression td.v{color:#a33c00}"
	"tr.improvement td.v{color:#005080}\n"
	"figure{margin:1em 0 2em}figure svg{width:100%;height:auto;max-width:1280px;"
	"display:block}\n"
	"figcaption{font-size:.9em;color:#444}\n"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}\n"
	"p.meta{color:#555}nav a{margin-right:1em}\n"
	".summary{font-size:1.1em}.bad{color:#a33c00;font-weight:bold}"
	".good{color:#005080;font-weight:bold}\n"
	"dl.prov dt{font-weight:bold;margin-top:.4em}dl.prov dd{margin-left:1.5em;"
	"font-family:ui-monospace,monospace;font-size:.88em;word-break:break-all}\n";

static void tag_text(FILE *f, const char *tag, const char *cls, const char *text)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	escape_xml(f, text);
	fprintf(f, "</%s>", tag);
}

static void td(FILE *f, const char *cls, const char *text)
{
	tag_text(f, "td", cls, text);
}

/* The SVG element of a plot, ids prefixed with "p<idx>-". */
static void inline_svg(FILE *f, const char *dir, const char *name, size_t idx)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	_cleanup_free_ char *path = xasprintf("%s/%s.svg", dir, name);
	_cleanup_free_ char *svg = NULL;
	const char *s;

	if (read_file(path, 64u << 20, &svg, NULL) < 0 || !(s = strstr(svg, "<svg"))) {
		fprintf(f, "<p>(no SVG)</p>\n");
		return;
	}
	while (*s) {
		size_t best = strlen(s), which = 0;

		for (size_t i = 0; i < ARRAY_SIZE(refs); i++) {
			const char *m = strstr(s, refs[i]);

			if (m && (size_t)(m - s) < best) {
				best = (size_t)(m - s);
				which = i;
			}
		}
		fwrite(s, 1, best, f);
		s += best;
		if (!*s)
			break;
		fprintf(f, "%sp%zu-", refs[which], idx);
		s += strlen(refs[which]);
	}
	fputc('\n', f);
}

static void figure(FILE *f, const struct report *rp, size_t i)
{
	const struct plot_image *img = &rp->plots.img[i];

	fprintf(f, "<figure id=\"fig-%zu\">\n", i);
	inline_svg(f, rp->plots.dir, img->name, i);
	fprintf(f, "<figcaption>");
	escape_xml(f, img->title);
	fprintf(f, " (");
	for (int k = 0; k < 3; k++) {
		static const char *const ext[] = { "png", "pdf", "svg" };

		fprintf(f, "%s<a href=\"plots/", k ? ", " : "");
		escape_xml(f, img->name);
		fprintf(f, ".%s\">%s</a>", ext[k], ext[k]);
	}
	fprintf(f, ")</figcaption></figure>\n");
}

static void figures_of(FILE *f, const struct report *rp, const char *kind, const char *group)
{
	for (size_t i = 0; i < rp->plots.n; i++)
		if (!strcmp(rp->plots.img[i].kind, kind) &&
		    (!group || !strcmp(rp->plots.img[i].group, group)))
			figure(f, rp, i);
}

static bool has_kind(const struct report *rp, const char *kind)
{
	for (size_t i = 0; i < rp->plots.n; i++)
		if (!strcmp(rp->plots.img[i].kind, kind))
			return true;
	return false;
}

static const char *row_class(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
		return "regression";
	case VERDICT_IMPROVEMENT:
		return "improvement";
	case VERDICT_NOT_COMPARABLE:
		return "nc";
	case VERDICT_TOO_FEW:
	case VERDICT_NO_DATA:
		return "few";
	default:
		return "same";
	}
}

static void mean_cell(FILE *f, const struct stats_summary *s)
{
	char num[24], buf[64];

	fmt_num(num, sizeof(num), s->n ? s->mean : NAN);
	if (s->n > 1 && !isnan(s->cv))
		snprintf(buf, sizeof(buf), "%s ±%.1f%% (n=%zu)", num, 100 * s->cv, s->n);
	else
		snprintf(buf, sizeof(buf), "%s (n=%zu)", num, s->n);
	td(f, NULL, buf);
}

/* One candidate's rows, key (true) or exploratory, as a table. */
static void verdict_table(FILE *f, const struct report *rp, size_t cand, bool key)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;

	fprintf(f, "<table class=\"verdicts\"><thead><tr><th class=\"l\">%s</th>"
		   "<th class=\"l\">metric</th><th class=\"l\">better</th><th>blocks</th><th>",
		key ? "workload" : "group");
	escape_xml(f, ds->v[ds->base].name);
	fprintf(f, " (baseline)</th><th>");
	escape_xml(f, ds->v[cand].name);
	fprintf(f,
		"</th><th>change</th><th>interval</th><th>level</th><th>p paired</th><th>q "
		"(%s)</th><th>p Welch</th><th>Cliff's δ</th>%s<th class=\"l\">verdict</th></tr>"
		"</thead><tbody>\n",
		key ? "Bonferroni" : "BH", rp->nz ? "<th>MDE</th>" : "");
	for (size_t i = 0; i < an->nc; i++) {
		const struct comparison *c = &an->c[i];
		const struct ds_row *r = &ds->rows[c->row];
		char ch[64], buf[64];

		if (c->cand != cand || c->key != key || (!key && r->better == BETTER_NONE))
			continue;
		fprintf(f, "<tr class=\"%s\">",
			c->verdict == VERDICT_CHANGED ? "regression" : row_class(c->verdict));
		td(f, "l", r->family);
		td(f, "l mono", r->label);
		td(f, "l", metric_better_name(r->better));
		snprintf(buf, sizeof(buf), "%zu", c->pairs);
		td(f, NULL, buf);
		mean_cell(f, &c->base);
		mean_cell(f, &c->cur);
		fmt_change(ch, sizeof(ch), c, r->unit);
		td(f, NULL, c->verdict == VERDICT_NOT_COMPARABLE ? "n/c" : ch);
		fmt_change_ci(buf, sizeof(buf), c);
		td(f, NULL, buf);
		snprintf(buf, sizeof(buf), "%.4g%%", 100 * c->level);
		td(f, NULL, isnan(c->paired.p) ? "-" : buf);
		fmt_p(buf, sizeof(buf), c->paired.p);
		td(f, NULL, buf);
		fmt_p(buf, sizeof(buf), c->q);
		td(f, NULL, buf);
		fmt_p(buf, sizeof(buf), c->welch.p);
		td(f, NULL, buf);
		if (isnan(c->cliff))
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "%+.2f", c->cliff);
		td(f, NULL, buf);
		if (rp->nz) {
			const struct noise_row *nr = noise__find(rp->nz, r->label);

			fmt_pct(buf, sizeof(buf),
				nr ? noise__mde_paired_at(nr, c->pairs, c->level) : NAN);
			td(f, NULL, buf[0] == '+' ? buf + 1 : buf);
		}
		fprintf(f, "<td class=\"v\">");
		escape_xml(f, key ? verdict_name(c->verdict) :
				    verdict_mark_of(c, rp->an->o.min_effect));
		if (key && c->decision != DECISION_NONE) {
			fprintf(f, "<br/><small>%s", decision_name(c->decision));
			if (c->more_blocks)
				fprintf(f, ": ~%zu more blocks", c->more_blocks);
			fprintf(f, "</small>");
		}
		if (c->reason) {
			fprintf(f, "<br/><small>");
			escape_xml(f, c->reason);
			fprintf(f, "</small>");
		}
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

/* The claims scoreboard, each claim linking to its key plot. */
static void claims_board(FILE *f, const struct report *rp)
{
	size_t n;
	const struct claim *tab = claims__table(&n);
	const struct analysis *an = rp->an;
	struct claims_board b;

	claims__board(&an, 1, &b);
	fprintf(f, "<section id=\"claims\"><h2>Claims</h2>\n<table><thead><tr><th>claim</th>"
		   "<th>verdict</th><th>deciding numbers</th><th>key plot</th></tr></thead><tbody>\n");
	for (size_t c = 0; c < n; c++) {
		const struct claim_result r = b.merged[c];
		const char *plot = plot_set__find(&rp->plots, tab[c].plot);

		fprintf(f, "<tr><td>%s: ", tab[c].id);
		escape_xml(f, tab[c].sentence);
		fprintf(f, "</td><td><strong>%s</strong></td><td>", claim_state_name(r.state));
		escape_xml(f, r.why);
		fprintf(f, "</td><td>");
		if (plot) {
			fprintf(f, "<a href=\"plots/");
			escape_xml(f, plot);
			fprintf(f, ".svg\">");
			escape_xml(f, plot);
			fprintf(f, "</a>");
		} else {
			escape_xml(f, tab[c].plans);
		}
		fprintf(f, "</td></tr>\n");
		for (size_t k = 0; b.nk > 1 && k < b.nk; k++) { /* claim x kernel */
			fprintf(f, "<tr><td>%s on ", tab[c].id);
			escape_xml(f, b.kernel[k]);
			fprintf(f, "</td><td>%s</td><td>",
				claim_state_name(b.by_kernel[k * n + c].state));
			escape_xml(f, b.by_kernel[k * n + c].why);
			fprintf(f, "</td><td></td></tr>\n");
		}
	}
	fprintf(f, "</tbody></table></section>\n");
	claims_board__clear(&b);
}

static void verdicts(FILE *f, const struct report *rp)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;
	_cleanup_free_ char *buf = NULL;
	const char *why = analysis__incomplete(an, &buf);

	fprintf(f, "<section id=\"verdicts\"><h2>Verdicts</h2>\n");
	if (why) {
		fprintf(f, "<p class=\"summary bad\">INCOMPLETE: ");
		escape_xml(f, why);
		fprintf(f, " (exit %d). The Runs section says which runs failed and why.</p>\n",
			EXIT_INCOMPLETE);
	}
	if (ds->nv < 2)
		fprintf(f, "<p>One variant only: nothing to compare.</p>\n");
	for (size_t cand = 0; cand < ds->nv; cand++) {
		size_t nreg = 0, nimp = 0, nchg = 0, nopen = 0;

		if (cand == ds->base)
			continue;
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];

			if (c->cand != cand || !c->key)
				continue;
			nreg += c->verdict == VERDICT_REGRESSION;
			nimp += c->verdict == VERDICT_IMPROVEMENT;
			nchg += c->verdict == VERDICT_CHANGED;
			nopen += c->decision == DECISION_OPEN;
		}
		fprintf(f, "<h3>");
		escape_xml(f, ds->v[cand].name);
		fprintf(f, " against ");
		escape_xml(f, ds->v[ds->base].name);
		fprintf(f,
			" (baseline)</h3>\n<p class=\"summary\">Key metrics: <span class=\"%s\">%zu "
			"worse</span>, <span class=\"%s\">%zu better</span>, %zu changed, %zu "
			"undecided; %zu blocks measured (runs %d and %d)",
			nreg ? "bad" : "", nreg, nimp ? "good" : "", nimp, nchg, nopen,
			analysis__blocks(an, cand), ds->v[ds->base].measured, ds->v[cand].measured);
		if (ds->warmup)
			fprintf(f,
				" (the first %d repetition%s of each variant excluded as "
				"warm-up)",
				ds->warmup, ds->warmup == 1 ? "" : "s");
		fprintf(f, ".</p>\n");
		verdict_table(f, rp, cand, true);
		fprintf(f, "<details><summary>Exploratory rows (not part of the verdict)</summary>\n");
		verdict_table(f, rp, cand, false);
		fprintf(f, "</details>\n");
	}
	fprintf(f,
		"<p>Runs are interleaved in blocks (every variant once per repetition); each "
		"comparison pairs the two variants' runs of a block. Change: relative change of "
		"the paired means, with Fieller's interval of their ratio. Key metrics (a "
		"workload's few deciding results, and the machine's): the paired t test at ");
	{
		_cleanup_free_ char *lv = analysis__key_level_text(an);

		escape_xml(f, lv);
	}
	fprintf(f,
		" (Bonferroni over every key test of the campaign, and alpha spent over the looks "
		"of an adaptive one), so that any false verdict in the campaign has at most a %g "
		"chance; the "
		"interval at that level. A verdict needs that test and a change of at least "
		"%.0f%%. Exploratory rows: 95%% intervals, q by Benjamini-Hochberg over the %zu "
		"exploratory tests, never part of the verdict or the exit status. n/c: the metric "
		"means different things under classic LRU and MGLRU on this kernel, so no verdict "
		"is given across them.",
		analysis__far(an), 100 * an->o.min_effect, an->tests);
	if (rp->nz) {
		fprintf(f, " MDE: the smallest change these runs detect (alpha 0.05, power 0.8), "
			   "from the A/A campaign ");
		escape_xml(f, rp->nz->source);
		fprintf(f, ".");
	}
	fprintf(f, "</p></section>\n");
	if (rp->grid) {
		fprintf(f, "<section id=\"kernel-lru\"><h2>Kernel × LRU</h2>\n<pre>");
		escape_xml(f, rp->grid);
		fprintf(f, "</pre></section>\n");
	}
}

/* The rows of one group, every variant's mean, for its section. */
static void group_table(FILE *f, const struct report *rp, const char *group)
{
	const struct analysis *an = rp->an;
	const struct dataset *ds = an->ds;

	fprintf(f, "<table><thead><tr><th class=\"l\">metric</th><th class=\"l\">unit</th>"
		   "<th class=\"l\">better</th>");
	for (size_t v = 0; v < ds->nv; v++) {
		fprintf(f, "<th>");
		escape_xml(f, ds->v[v].name);
		fprintf(f, "%s</th>", v == ds->base ? " (baseline)" : "");
	}
	for (size_t v = 0; v < ds->nv; v++) {
		if (v == ds->base)
			continue;
		fprintf(f, "<th>change, ");
		escape_xml(f, ds->v[v].name);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead><tbody>\n");
	for (size_t ri = 0; ri < ds->nrows; ri++) {
		const struct ds_row *r = &ds->rows[ri];

		if (strcmp(r->group, group))
			continue;
		fprintf(f, "<tr>");
		td(f, "l mono", r->label);
		td(f, "l", r->unit);
		td(f, "l", metric_better_name(r->better));
		for (size_t v = 0; v < ds->nv; v++) {
			struct stats_summary s = { 0 };

			if (r->n[v])
				stats__summary(ds_vals(ds, r, v), r->n[v], &s);
			mean_cell(f, &s);
		}
		for (size_t i = 0; i < an->nc; i++) {
			const struct comparison *c = &an->c[i];
			char ch[64];

			if (c->row != ri)
				continue;
			fmt_change(ch, sizeof(ch), c, r->unit);
			td(f, NULL,
			   c->verdict == VERDICT_NOT_COMPARABLE ? "n/c" :
			   c->verdict == VERDICT_TOO_FEW	? "n<2" :
								  ch);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

static void groups(FILE *f, const struct report *rp)
{
	const struct dataset *ds = rp->an->ds;
	_cleanup_free_ const char **seen = xcalloc(ds->nrows + 1, sizeof(char *));
	size_t nseen = 0;

	for (size_t i = 0; i < ds->nrows; i++) {
		const char *g = ds->rows[i].group;
		bool dup = false;

		for (size_t j = 0; j < nseen; j++)
			dup |= !strcmp(seen[j], g);
		if (dup)
			continue;
		seen[nseen] = g;
		fprintf(f, "<section id=\"group-%zu\"><h2>", nseen++);
		if (ds->rows[i].result)
			fprintf(f, "Workload ");
		escape_xml(f, g);
		fprintf(f, "</h2>\n");
		figures_of(f, rp, "bars", g);
		group_table(f, rp, g);
		fprintf(f, "</section>\n");
	}
}

static void runs(FILE *f, const struct report *rp)
{
	fprintf(f, "<section id=\"runs\"><h2>Runs</h2>\n<table><thead><tr><th>run</th>"
		   "<th class=\"l\">variant</th><th>repetition</th><th class=\"l\">status</th>"
		   "<th>samples</th><th>wall s</th><th class=\"l\">accel</th><th class=\"l\">note"
		   "</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < rp->data->nruns; i++) {
		const struct store_run_row *r = &rp->data->runs[i];
		char buf[64];

		fprintf(f, "<tr><td>%lld</td>", (long long)r->id);
		td(f, "l", r->variant);
		fprintf(f, "<td>%d</td>", r->rep + 1);
		td(f, "l", r->status);
		fprintf(f, "<td>%lld</td>", (long long)r->samples);
		snprintf(buf, sizeof(buf), isnan(r->wall_s) ? "-" : "%.1f", r->wall_s);
		td(f, NULL, buf);
		td(f, "l", r->accel);
		fprintf(f, "<td class=\"l\">%s",
			r->rep < rp->an->ds->warmup ? "warm-up, not measured. " : "");
		escape_xml(f, r->reason);
		if (r->kernel_warnings) {
			fprintf(f, " <strong>kernel warned (%lld): </strong>",
				(long long)r->kernel_warnings);
			escape_xml(f, r->first_warning);
		}
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table></section>\n");
}

static void provenance(FILE *f, const struct report *rp)
{
	const struct dataset *ds = rp->an->ds;
	_cleanup_free_ char *clock = guest_clock_describe(rp->clock);

	fprintf(f, "<section id=\"provenance\"><h2>Provenance</h2>\n<p>Per variant, from its "
		   "first run. QEMU: ");
	escape_xml(f, rp->qemu_version);
	fprintf(f, ". Guest clock: ");
	escape_xml(f, clock);
	fprintf(f, ".</p>\n");
	for (size_t v = 0; v < ds->nv; v++) {
		fprintf(f, "<h3>");
		escape_xml(f, ds->v[v].name);
		fprintf(f, "</h3>\n<dl class=\"prov\"><dt>kernel (variant)</dt><dd>");
		escape_xml(f, ds->v[v].kernel);
		fprintf(f, "</dd><dt>LRU mode</dt><dd>");
		escape_xml(f, ds->v[v].lru);
		fprintf(f, "</dd><dt>knobs</dt><dd>");
		escape_xml(f, ds->v[v].knobs);
		fprintf(f, "</dd>\n");
		for (size_t k = 0; k < report_prov_nkeys; k++) {
			const char *val =
				report_data__prov(rp->data, ds->v[v].name, report_prov_keys[k].key);

			if (!val || !*val)
				continue;
			fprintf(f, "<dt>");
			escape_xml(f, report_prov_keys[k].what);
			fprintf(f, " <code>");
			escape_xml(f, report_prov_keys[k].key);
			fprintf(f, "</code></dt><dd>");
			escape_xml(f, val);
			fprintf(f, "</dd>\n");
		}
		fprintf(f, "</dl>\n");
	}
	fprintf(f, "<details><summary>Plan <code>");
	escape_xml(f, rp->plan_path);
	fprintf(f, "</code></summary><pre>");
	escape_xml(f, rp->plan_text);
	fprintf(f, "</pre></details></section>\n");
}

static void noise_section(FILE *f, const struct report *rp)
{
	fprintf(f, "<section id=\"noise\"><h2>Noise floor</h2>\n<p>From the A/A campaign ");
	escape_xml(f, rp->nz->source);
	fprintf(f, " (one variant against itself): run-to-run coefficient of variation, the "
		   "change A/A showed, and the minimum detectable effect (alpha 0.05, power 0.8) "
		   "at its repetitions.</p>\n<table><thead><tr><th class=\"l\">metric</th>"
		   "<th>n</th><th>cv</th><th>A/A change</th><th>MDE</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < rp->nz->nrows; i++) {
		const struct noise_row *r = &rp->nz->rows[i];
		char buf[32];

		fprintf(f, "<tr>");
		td(f, "l mono", r->label);
		fprintf(f, "<td>%zu</td>", r->n);
		snprintf(buf, sizeof(buf), isnan(r->cv) ? "-" : "%.1f%%", 100 * r->cv);
		td(f, NULL, buf);
		fmt_pct(buf, sizeof(buf), r->change);
		td(f, NULL, buf);
		fmt_pct(buf, sizeof(buf), r->mde);
		td(f, NULL, buf[0] == '+' ? buf + 1 : buf);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table></section>\n");
}

static void wss_section(FILE *f, const struct report *rp)
{
	fprintf(f, "<section id=\"working-sets\"><h2>Working sets</h2>\n<p>From the measuring "
		   "pass of <code>lrubench wss</code>: each memcg's pages touched per window, "
		   "beside what its workloads' parameters give, then each memcg's "
		   "<code>memory.max</code> against its working set.</p>\n<pre>");
	escape_xml(f, rp->wss_text);
	fprintf(f, "</pre></section>\n");
}

int report__html(const struct report *rp, FILE *f)
{
	static const struct {
		const char *id, *kind, *title;
	} plot_sections[] = {
		{ "timeseries", "timeseries", "Over time" },
		{ "generations", "generations", "MGLRU generations" },
		{ "balance", "balance", "Reclaim balance, anon and file" },
		{ "stalls", "stall-cdf", "Reclaim stall latency" },
		{ "stalls-over-time", "stall-heatmap", "Reclaim stalls over time" },
	};

	fprintf(f,
		"<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		"<head><meta charset=\"utf-8\"/><meta name=\"generator\" content=\"lrubench %s\"/>"
		"<title>lrubench: ",
		LRUBENCH_VERSION);
	escape_xml(f, rp->campaign);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>lrubench campaign ", css);
	escape_xml(f, rp->campaign);
	fprintf(f, "</h1>\n<p class=\"meta\">Database <code>");
	escape_xml(f, rp->o->db_path);
	fprintf(f, "</code>; report by lrubench %s, campaign run by lrubench ", LRUBENCH_VERSION);
	escape_xml(f, rp->version);
	fprintf(f, ". Kernel ");
	escape_xml(f, *rp->an->ds->release ? rp->an->ds->release : "unknown");
	fprintf(f, ".</p>\n<nav><a href=\"#claims\">claims</a><a href=\"#verdicts\">verdicts</a><a href=\"#heatmap\">heatmap</a>"
		   "<a href=\"#timeseries\">over time</a><a href=\"#generations\">generations</a>"
		   "<a href=\"#balance\">balance</a><a href=\"#stalls\">stalls</a>"
		   "<a href=\"#runs\">runs</a>"
		   "<a href=\"#provenance\">provenance</a></nav>\n");
	if (rp->plots_rc == -ENOENT)
		fprintf(f,
			"<p><strong>gnuplot was not found: this report has no plots.</strong></p>\n");
	else if (rp->plots.failed) {
		fprintf(f, "<p><strong>%zu plot(s) failed; the first: ", rp->plots.failed);
		escape_xml(f, rp->plots.first_error);
		fprintf(f, "</strong></p>\n");
	}
	if (!rp->deck_rc)
		fprintf(f, "<p>Slides: <a href=\"deck.pdf\">deck.pdf</a> (16:9: title, scoreboard, "
			   "one page per claim, provenance).</p>\n");
	else if (rp->deck_rc != -ECANCELED)
		fprintf(f, "<p><strong>deck.pdf was not written</strong> (%s).</p>\n",
			rp->deck_rc == -ENOENT ? "pdfunite or gnuplot not found" :
						 "a page or the assembly failed");
	claims_board(f, rp);
	verdicts(f, rp);
	fprintf(f, "<section id=\"heatmap\"><h2>Heatmap</h2>\n");
	figures_of(f, rp, "heatmap", NULL);
	fprintf(f, "</section>\n");
	groups(f, rp);
	for (size_t i = 0; i < ARRAY_SIZE(plot_sections); i++) {
		fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n", plot_sections[i].id,
			plot_sections[i].title);
		if (!has_kind(rp, plot_sections[i].kind))
			fprintf(f, "<p>Nothing to show in this campaign.</p>\n");
		figures_of(f, rp, plot_sections[i].kind, NULL);
		fprintf(f, "</section>\n");
	}
	if (rp->nz)
		noise_section(f, rp);
	if (rp->wss_text)
		wss_section(f, rp);
	runs(f, rp);
	provenance(f, rp);
	fprintf(f, "</body>\n</html>\n");
	return 0;
}
