// SPDX-License-Identifier: GPL-2.0
/*
 * The report directory, in three steps: load the campaign once (its
 * analysis, and report-data.h: runs, provenance, what the plots draw),
 * analyse it once (noise figures, the kernel x LRU grid), then render the
 * plots and the deck and let each writer format the result; report.md is
 * written here. Nothing is written to the store while it is read: an A/A
 * campaign's noise figures are computed here in memory (the campaign stored
 * them when it ended), and --noise/--wss copy theirs in before the load.
 */
#include "claims.h"
#include "compare.h"
#include "guest-clock.h"
#include "plan.h"
#include "report-deck.h"
#include "report-priv.h"
#include "store.h"
#include "util.h"
#include "wss.h"

#include <math.h>
#include <string.h>

static void md_noise(const struct report *rp, FILE *f)
{
	fprintf(f, "## Noise floor\n\n```\n");
	compare__noise(rp->nz, f);
	fprintf(f, "```\n\n");
}

/* Claim c per MGLRU mode or knob pair on kernel (claims__mechanisms), where several ran. */
static void md_mechanisms(const struct claim *c, const struct analysis *an, const char *kernel,
			  bool name_kernel, double level, FILE *f)
{
	struct claim_part m[8];
	size_t nm = claims__mechanisms(c, an, kernel, level, m, ARRAY_SIZE(m));

	for (size_t i = 0; i < nm; i++) {
		fprintf(f, "| %s%s%.*s, lru 0x%04x (%s%s%s; descriptive) | %s | %s | |\n", c->id,
			name_kernel ? " on " : "", name_kernel ? (int)strcspn(kernel, " ") : 0,
			kernel, m[i].enabled, lru_mode_mechanisms(m[i].enabled),
			*m[i].knobs ? ", " : "", m[i].knobs, claim_state_name(m[i].r.state),
			m[i].r.why);
	}
}

/* Claim c's curve over vm.swappiness on kernel (claims__curve): a row, where it has one. */
static void md_curve(const struct claim *c, const struct analysis *an, const char *kernel,
		     bool name_kernel, double level, FILE *f)
{
	static const char *const side[2] = { "classic", "MGLRU" };
	struct claim_curve cv;

	if (claims__curve(c, an, kernel, level, &cv) < 0)
		return;
	fprintf(f, "| %s%s%.*s, curve (descriptive) | | %s by vm.swappiness, %zu blocks:", c->id,
		name_kernel ? " on " : "", name_kernel ? (int)strcspn(kernel, " ") : 0, kernel,
		cv.row->label, cv.blocks);
	for (size_t l = 0; l < 2; l++) {
		fprintf(f, "%s %s", l ? ";" : "", side[l]);
		for (size_t p = 0; p < cv.np; p++)
			fprintf(f, " %.3g@%d", cv.mean[l][p], cv.swappiness[p]);
		fprintf(f, ", slope per 100 %+.3g [%+.3g, %+.3g]", cv.slope[l], cv.lo[l], cv.hi[l]);
	}
	fprintf(f, " | |\n");
}

/* The claims scoreboard, each claim linking to its key plot; per MGLRU mode where several ran. */
static void md_claims(const struct report *rp, FILE *f)
{
	size_t n;
	const struct claim *tab = claims__table(&n);
	const struct analysis *an = rp->an;
	struct claims_board b;

	claims__board(&an, 1, &b);
	fprintf(f, "## Claims\n\n| claim | verdict | deciding numbers | key plot |\n|---|---|---|---|\n");
	for (size_t c = 0; c < n; c++) {
		const struct claim_result r = b.merged[c];
		const char *plot = plot_set__find(&rp->plots, tab[c].plot);

		fprintf(f, "| %s: %s | **%s** | %s | ", tab[c].id, tab[c].sentence,
			claim_state_name(r.state), r.why);
		if (plot)
			fprintf(f, "[%s](plots/%s.svg) |\n", plot, plot);
		else
			fprintf(f, "none (%s) |\n", tab[c].plans);
		for (size_t k = 0; b.nk > 1 && k < b.nk; k++) /* claim x kernel */
			fprintf(f, "| %s on %s | %s | %s | |\n", tab[c].id, b.kernel[k],
				claim_state_name(b.by_kernel[k * n + c].state),
				b.by_kernel[k * n + c].why);
		for (size_t k = 0; k < b.nk; k++) {
			md_mechanisms(&tab[c], an, b.kernel[k], b.nk > 1, b.level, f);
			md_curve(&tab[c], an, b.kernel[k], b.nk > 1, b.level, f);
		}
	}
	fprintf(f, "\n");
	claims_board__clear(&b);
}

/* A duration in ns as "850 us", "4.42 ms", "1.20 s"; "-" for NAN. */
static void fmt_ns(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
}

/* The mean of a dataset row for variant v, NAN without the row or values. */
static double row_mean(const struct dataset *ds, const char *label, size_t v)
{
	for (size_t i = 0; i < ds->nrows; i++) {
		const struct ds_row *r = &ds->rows[i];
		double sum = 0;

		if (strcmp(r->label, label))
			continue;
		for (size_t k = 0; k < r->n[v]; k++)
			sum += ds_vals(ds, r, v)[k];
		return r->n[v] ? sum / (double)r->n[v] : NAN;
	}
	return NAN;
}

/*
 * Reclaim stalls: each variant's mean quantiles and rate per scope and
 * path, the CDF plots inline, and why runs were not traced.
 */
static void md_stalls(const struct report *rp, FILE *f)
{
	const struct dataset *ds = rp->an->ds;
	bool any = false;

	fprintf(f, "## Reclaim stalls\n\n");
	for (size_t i = 0; i < ds->nrows; i++) {
		const struct ds_row *r = &ds->rows[i];
		const char *path;

		if (strncmp(r->metric, "reclaim:p99_ns.", 15))
			continue;
		path = r->metric + 15;
		if (!any)
			fprintf(f, "Periods between each reclaim path's begin and end tracepoints (means "
				   "over the measured runs; `-` is every task of the guest):\n\n"
				   "| scope | path | variant | p50 | p99 | p99.9 | per second |\n"
				   "|---|---|---|---|---|---|---|\n");
		any = true;
		for (size_t v = 0; v < ds->nv; v++) {
			_cleanup_free_ char *suffix = strcmp(r->scope, "-") ?
								xasprintf("[%s]", r->scope) :
								xstrdup("");
			_cleanup_free_ char *l50 = xasprintf("reclaim:p50_ns.%s%s", path, suffix);
			_cleanup_free_ char *l999 = xasprintf("reclaim:p999_ns.%s%s", path, suffix);
			_cleanup_free_ char *lps = xasprintf("reclaim:per_s.%s%s", path, suffix);
			char p50[24], p99[24], p999[24], ps[24];

			fmt_ns(p50, sizeof(p50), row_mean(ds, l50, v));
			fmt_ns(p99, sizeof(p99), row_mean(ds, r->label, v));
			fmt_ns(p999, sizeof(p999), row_mean(ds, l999, v));
			fmt_num(ps, sizeof(ps), row_mean(ds, lps, v));
			fprintf(f, "| %s | %s | %s%s | %s | %s | %s | %s |\n", r->scope, path,
				ds->v[v].name, v == ds->base ? "*" : "", p50, p99, p999, ps);
		}
	}
	if (!any)
		fprintf(f, "No reclaim period was traced in this campaign.\n");
	fprintf(f, "\n");
	for (size_t i = 0; i < rp->plots.n; i++)
		if (!strcmp(rp->plots.img[i].kind, "stall-cdf") ||
		    !strcmp(rp->plots.img[i].kind, "stall-heatmap"))
			fprintf(f, "![%s](plots/%s.svg)\n\n", rp->plots.img[i].title,
				rp->plots.img[i].name);
	for (size_t i = 0; i < rp->data->ntrace_skips; i++)
		fprintf(f, "- skipped in %lld run(s): %s\n", (long long)rp->data->trace_skips[i].n,
			rp->data->trace_skips[i].text);
}

static int write_md(const struct report *rp, const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	_cleanup_free_ char *clock = guest_clock_describe(rp->clock);
	const struct dataset *ds = rp->an->ds;

	if (!f)
		return -errno;
	fprintf(f, "# lrubench campaign %s\n\n", rp->campaign);
	fprintf(f, "Database `%s`; report by lrubench %s (campaign run by %s).\n\n", rp->o->db_path,
		LRUBENCH_VERSION, rp->version);
	md_claims(rp, f);
	fprintf(f, "## Verdicts\n\n```\n");
	compare__summary(rp->an, f);
	if (rp->grid)
		fprintf(f, "```\n\n## Kernel x LRU\n\n```\n%s", rp->grid);
	fprintf(f, "```\n\n## Every row\n\n```\n");
	compare__verdicts(rp->an, rp->nz, f);
	fprintf(f, "```\n\n## Comparison\n\n```\n");
	compare__table(rp->an, f);
	fprintf(f, "```\n\n");
	if (rp->nz)
		md_noise(rp, f);
	md_stalls(rp, f);
	if (rp->wss_text)
		fprintf(f, "\n## Working sets\n\n```\n%s```\n", rp->wss_text);
	fprintf(f, "\n## Deck\n\n");
	if (!rp->deck_rc)
		fprintf(f, "`deck.pdf`: %zu pages, 16:9, for a projector (title, scoreboard, one page "
			   "per claim, provenance; the pages' gnuplot scripts in `deck/`).\n\n",
			deck__pages());
	else if (rp->deck_rc == -ECANCELED)
		fprintf(f, "No deck: plots were not asked for or gnuplot was not found.\n\n");
	else
		fprintf(f, "**deck.pdf was not written**: %s.\n\n",
			rp->deck_rc == -ENOENT ? "pdfunite (poppler-utils) or gnuplot not found" :
						 "a page or the assembly failed (lrubench said why)");
	fprintf(f, "## Plots\n\n");
	if (rp->plots_rc == -ENOENT)
		fprintf(f, "gnuplot was not found: no plots.\n\n");
	for (size_t i = 0; i < rp->plots.n; i++)
		fprintf(f, "- `plots/%s.{png,svg,pdf}`: %s\n", rp->plots.img[i].name,
			rp->plots.img[i].title);
	if (rp->plots.failed)
		fprintf(f, "- %zu plot(s) failed; the first: %s\n", rp->plots.failed,
			rp->plots.first_error);
	fprintf(f, "\n## Runs\n\n```\n%-5s %-16s %-4s %-16s %7s %8s %-5s %s\n", "run", "variant",
		"rep", "status", "samples", "wall s", "accel", "note");
	for (size_t i = 0; i < rp->data->nruns; i++) {
		const struct store_run_row *r = &rp->data->runs[i];

		fprintf(f, "%-5lld %-16s %-4d %-16s %7lld %8.1f %-5s %s%s", (long long)r->id,
			r->variant, r->rep + 1, r->status, (long long)r->samples, r->wall_s,
			r->accel, r->rep < ds->warmup ? "warm-up (not measured) " : "", r->reason);
		if (r->kernel_warnings)
			fprintf(f, " [KERNEL WARNED x%lld: %s]", (long long)r->kernel_warnings,
				r->first_warning);
		fputc('\n', f);
	}
	fprintf(f, "```\n\n## Provenance (first run of each variant)\n\n");
	for (size_t v = 0; v < ds->nv; v++) {
		fprintf(f, "### %s\n\n- variant: kernel `%s`, LRU `%s`, knobs `%s`\n",
			ds->v[v].name, ds->v[v].kernel, ds->v[v].lru, ds->v[v].knobs);
		for (size_t k = 0; k < report_prov_nkeys; k++) {
			const char *val =
				report_data__prov(rp->data, ds->v[v].name, report_prov_keys[k].key);

			if (val && *val)
				fprintf(f, "- %s (`%s`): `%s`\n", report_prov_keys[k].what,
					report_prov_keys[k].key, val);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "QEMU: %s. Guest clock: %s. Plan: `%s`.\n", rp->qemu_version, clock,
		rp->plan_path);
	return fflush(f) != 0 ? -errno : 0;
}

static int write_file_with(const struct report *rp, const char *path,
			   int (*fn)(const struct report *, FILE *))
{
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	int r;

	if (!f)
		return -errno;
	r = fn(rp, f);
	if (r < 0)
		return r;
	return fflush(f) != 0 ? -errno : 0;
}

/* A meta value, or def when the store has none. */
static const char *meta_or(const struct report_data *d, const char *key, const char *def)
{
	const char *v = report_data__meta(d, key);

	return v ? v : def;
}

/* The clock mode a campaign ran on (meta guest.clock; older campaigns: real). */
static const char *clock_mode_of(struct store *st)
{
	_cleanup_free_ char *clock = NULL;

	if (store__meta_get(st, "guest.clock", &clock) < 0)
		return PLAN_CLOCK_REAL;
	return guest_clock_mode(clock); /* a static string */
}

/* An A/A's figures; -EXDEV when it ran on another clock: its noise is another machine's. */
static int copy_noise(struct store *from, struct store *to)
{
	_cleanup_(noise__freep) struct noise *nz = NULL;
	int r;

	if (strcmp(clock_mode_of(from), clock_mode_of(to)))
		return -EXDEV;
	r = noise__load(from, &nz);
	return r < 0 ? r : noise__store(to, nz);
}

static int copy_wss(struct store *from, struct store *to)
{
	_cleanup_(wss__freep) struct wss *w = NULL;
	int r = wss__load(from, &w);

	return r < 0 ? r : wss__store(to, w);
}

/* Copy a table of the database at path into st. */
static int import_table(struct store *st, const char *path,
			int (*copy)(struct store *from, struct store *to))
{
	_cleanup_(store__closep) struct store *src = NULL;
	int r;

	if (access(path, R_OK) < 0)
		return -errno;
	r = store__open_readonly(path, &src);
	if (r < 0)
		return r;
	return copy(src, st);
}

/* The working sets and the plan's limits against them, as text (NULL without working sets). */
static char *wss_text(const struct report *rp)
{
	const struct plan *p = rp->an->ds->plan;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!rp->data->wss)
		return NULL;
	f = open_memstream(&text, &len);
	wss__print(rp->data->wss, f);
	if (p) {
		fputc('\n', f);
		wss__print_limits(rp->data->wss, p, f);
	}
	fclose(f);
	return text;
}

/* deck.pdf of this campaign alone; a failure is logged there and noted in the reports. */
static int write_deck(struct report *rp)
{
	const struct analysis *an = rp->an;
	struct deck_source src = { .db_path = rp->o->db_path, .an = an, .data = rp->data };
	struct claims_board b;
	int r;

	claims__board(&an, 1, &b);
	r = deck__write(&src, 1, &b, rp->o->dir);
	claims_board__clear(&b);
	return r;
}

/* The kernel x LRU table into *ret, NULL when the campaign is not a grid. */
static int grid_text(const struct analysis *an, const struct verdict_opts *vo, char **ret)
{
	size_t len = 0;
	FILE *g = open_memstream(ret, &len);
	int r = compare__grid(an->ds, vo, g);

	fclose(g);
	if (r < 0 || !len) {
		free(*ret);
		*ret = NULL;
	}
	return r;
}

/* Copy in what o asks for (--noise, --wss): before the campaign is read. */
static int import(struct store *st, const struct report_opts *o)
{
	int r;

	if (o->noise_db) {
		r = import_table(st, o->noise_db, copy_noise);
		if (r == -EXDEV) {
			_cleanup_(store__closep) struct store *aa = NULL;

			store__open_readonly(o->noise_db, &aa);
			log_err("--noise %s: its A/A ran on the %s clock and this campaign on the %s "
				"clock: the noise of one says nothing of the other (clock = in [guest], "
				"or --clock)",
				o->noise_db, aa ? clock_mode_of(aa) : "?", clock_mode_of(st));
			return r;
		}
		if (r < 0) {
			log_err("--noise %s: no noise figures (%s)", o->noise_db, strerror(-r));
			return r;
		}
	}
	if (o->wss_db) {
		r = import_table(st, o->wss_db, copy_wss);
		if (r < 0) {
			log_err("--wss %s: no working sets (%s): run 'lrubench wss' first",
				o->wss_db, strerror(-r));
			return r;
		}
	}
	return 0;
}

/* The plots, the deck, then each file o asks for. */
static int render(struct report *rp)
{
	const struct report_opts *o = rp->o;
	_cleanup_free_ char *md = xasprintf("%s/report.md", o->dir);
	_cleanup_free_ char *html = xasprintf("%s/index.html", o->dir);
	_cleanup_free_ char *plots = xasprintf("%s/plots", o->dir);
	int r;

	if (!o->no_plots)
		rp->plots_rc = plot__all(rp->data, rp->an, plots, &rp->plots);
	else
		rp->plots_rc = -ECANCELED;
	if (rp->plots.failed)
		log_warn("%zu plot(s) failed, the first: %s", rp->plots.failed,
			 rp->plots.first_error);
	if (rp->plots_rc == -ENOENT)
		log_warn("gnuplot not found: the report has no plots");
	rp->deck_rc = rp->plots_rc < 0 ? -ECANCELED : write_deck(rp);
	r = write_md(rp, md);
	if (r == 0)
		r = write_file_with(rp, html, report__html);
	if (r == 0 && o->junit)
		r = write_file_with(rp, o->junit, report__junit);
	if (r == 0 && o->json)
		r = write_file_with(rp, o->json, report__json);
	return r;
}

int report__write(struct store *st, const struct report_opts *o, int *ret_status)
{
	_cleanup_(analysis__freep) struct analysis *an = NULL;
	_cleanup_(report_data__freep) struct report_data *data = NULL;
	_cleanup_(noise__freep) struct noise *nz = NULL;
	_cleanup_free_ char *wss = NULL, *grid = NULL;
	struct report rp;
	bool aa;
	int r;

	r = mkdir_p(o->dir);
	if (r == 0)
		r = import(st, o);
	/* load */
	if (r == 0)
		r = analysis__run(st, o->baseline, &o->vo, &an);
	if (r == 0)
		r = report_data__load(st, an, plot__series(), &data);
	if (r < 0)
		return r;
	aa = noise__is_aa(st) && an->ds->nv == 2;
	if (!aa)
		noise__load(st, &nz);
	/* analyse: nothing below reads the store */
	if (aa)
		noise__aa(an, &nz);
	rp = (struct report){
		.o = o,
		.data = data,
		.an = an,
		.nz = nz,
		.campaign = meta_or(data, "campaign", "campaign"),
		.version = meta_or(data, "lrubench.version", "unknown"),
		.created = meta_or(data, "created", ""),
		.plan_path = meta_or(data, "plan.path", ""),
		.plan_text = meta_or(data, "plan.text", ""),
		.qemu_version = meta_or(data, "qemu.version", "unknown"),
		.clock = meta_or(data, "guest.clock", "real"),
	};
	rp.wss_text = wss = wss_text(&rp);
	r = grid_text(an, &o->vo, &grid);
	rp.grid = grid;
	/* render */
	if (r == 0)
		r = render(&rp);
	plot_set__clear(&rp.plots);
	if (r == 0 && ret_status)
		*ret_status = analysis__exit_status(an);
	return r;
}

int report_write(struct store *st, const char *db_path, const char *dir)
{
	struct report_opts o = { .db_path = db_path, .dir = dir, .vo = VERDICT_OPTS_DEFAULT };

	return report__write(st, &o, NULL);
}
