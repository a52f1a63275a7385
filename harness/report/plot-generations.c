// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU generations over time: for the first measured run of each variant
 * that sampled /sys/kernel/debug/lru_gen, per memcg, the memory in each
 * generation stacked from the youngest (bottom) to the oldest (top), anon
 * and file in separate panels. Generations are ranked by age at each sample
 * (their sequence numbers move on); MGLRU keeps at most four (MAX_NR_GENS),
 * anything older is added to the oldest band. Nodes are summed.
 */
#include "escape.h"
#include "plot-generations.h"
#include "util.h"
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#define NRANKS PLOT_GENERATIONS

const char *const plot_generation_color[PLOT_GENERATIONS] = { "#0072B2", "#56B4E9", "#E69F00",
								"#D55E00" };
const char *const plot_generation_name[PLOT_GENERATIONS] = { "youngest", "2nd youngest",
							       "3rd youngest",
					       "oldest" };

/* The rows of memcg in a loaded run, or NULL. */
static const struct report_gens *gens_of(const struct report_run_data *r, const char *memcg)
{
	for (size_t i = 0; r && i < r->ngens; i++)
		if (!strcmp(r->gens[i].memcg, memcg))
			return &r->gens[i];
	return NULL;
}

/* A sample's line: t, then cumulative MiB by rank for anon and for file; the peaks kept. */
static void sample_line(FILE *f, double t_s, const double *anon, const double *file, double mib,
			double *peak_a, double *peak_f)
{
	double ca = 0, cf = 0;

	fprintf(f, "%.3f", t_s);
	for (int k = 0; k < NRANKS; k++)
		fprintf(f, " %.6g", ca += anon[k] * mib);
	for (int k = 0; k < NRANKS; k++)
		fprintf(f, " %.6g", cf += file[k] * mib);
	fprintf(f, "\n");
	if (ca > *peak_a)
		*peak_a = ca;
	if (cf > *peak_f)
		*peak_f = cf;
}

/* One line per sample: t, then cumulative MiB by rank for anon and for file. */
int plot_generations_data(struct plot_ctx *pc, FILE *f, int64_t run, const char *memcg,
			  double *ret_anon, double *ret_file)
{
	const struct report_run_data *rd = report_data__run(pc->data, run);
	const struct report_gens *g = gens_of(rd, memcg);
	int64_t origin = plot_run_origin(pc, run), seq = -1, t = 0;
	double mib = (double)(rd ? rd->page_size : 4096) / (1 << 20), peak_a = 0, peak_f = 0;
	double anon[NRANKS] = { 0 }, file[NRANKS] = { 0 };
	int rank = 0;
	int64_t last_gen = -1;

	if (!g || g->rc < 0)
		return -EIO;
	for (size_t i = 0; i < g->n; i++) {
		const struct store_gen_row *row = &g->rows[i];

		if (row->seq != seq) {
			if (seq >= 0)
				sample_line(f, (double)(t - origin) / 1e9, anon, file, mib, &peak_a,
					    &peak_f);
			seq = row->seq;
			t = row->t_ns;
			memset(anon, 0, sizeof(anon));
			memset(file, 0, sizeof(file));
			rank = 0;
			last_gen = -1;
		}
		if (last_gen >= 0 && row->gen != last_gen && rank < NRANKS - 1)
			rank++;
		last_gen = row->gen;
		anon[rank] += (double)row->anon;
		file[rank] += (double)row->file;
	}
	if (seq >= 0)
		sample_line(f, (double)(t - origin) / 1e9, anon, file, mib, &peak_a, &peak_f);
	*ret_anon = peak_a;
	*ret_file = peak_f;
	return 0;
}

void plot_generations_panel(FILE *b, const char *dat, const char *what, int col0, double peak)
{
	fprintf(b, "set title \"%s\"\nset ylabel \"MiB\"\n", what);
	if (peak > 0)
		fprintf(b, "unset label 1\nset yrange [0:*]\n");
	else
		fprintf(b,
			"set yrange [0:1]\nset label 1 \"no %s pages in this memcg\" at graph 0.5, "
			"graph 0.5 center\n",
			what);
	fprintf(b, "plot ");
	/* the whole stack first, then each band below it painted over */
	for (int i = NRANKS - 1; i >= 0; i--)
		fprintf(b,
			"%s\"%s\" using 1:%d with filledcurves x1 fs solid 1.0 noborder "
			"lc rgb '%s' title \"%s\"",
			i < NRANKS - 1 ? ", " : "", dat, col0 + i, plot_generation_color[i], plot_generation_name[i]);
	fprintf(b, "\n");
}

static int gen_image(struct plot_ctx *pc, size_t v, int64_t run, const char *memcg)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *vname = escape_filename(ds->v[v].name);
	_cleanup_free_ char *mname = escape_filename(memcg);
	_cleanup_free_ char *name = xasprintf("gen-%s-%s", vname, mname);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *title = NULL;
	size_t blen = 0;
	double peak_a = 0, peak_f = 0;
	FILE *f, *b;
	int r;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	fprintf(f,
		"# seconds, then MiB stacked by generation (youngest first): anon x4, file x4\n");
	r = plot_generations_data(pc, f, run, memcg, &peak_a, &peak_f);
	if (fclose(f) != 0 || r < 0)
		return r < 0 ? r : -EIO;
	if (peak_a + peak_f < 1) /* less than a MiB ever: not worth a picture */
		return 0;
	title = xasprintf("MGLRU generations of memcg %s, variant %s (run %lld)", memcg,
			  ds->v[v].name, (long long)run);
	b = open_memstream(&body, &blen);
	fprintf(b, "set multiplot layout 2,1 title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset key outside right top\nset xlabel \"seconds since the first workload "
		   "started\"\nset lmargin 12\nset rmargin 22\nset autoscale xfix\n");
	plot_generations_panel(b, dat, "anon", 2, peak_a);
	plot_generations_panel(b, dat, "file", 2 + NRANKS, peak_f);
	fprintf(b, "unset multiplot\n");
	fclose(b);
	return plot_render(pc, name, "", title, body, 1280, 860);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;

	for (size_t v = 0; v < ds->nv; v++) {
		for (int ri = 0; ri < ds->v[v].measured; ri++) {
			int64_t run = ds->v[v].runs[ri];
			const struct report_run_data *rd = report_data__run(pc->data, run);
			_cleanup_free_ const char **memcg = NULL;

			if (!rd || rd->gens_rc < 0)
				return -EIO;
			if (!rd->ngens)
				continue;
			memcg = xcalloc(rd->ngens, sizeof(*memcg));
			for (size_t i = 0; i < rd->ngens; i++)
				memcg[i] = rd->gens[i].memcg;
			qsort(memcg, rd->ngens, sizeof(*memcg), by_name);
			for (size_t i = 0; i < rd->ngens; i++)
				gen_image(pc, v, run, memcg[i]);
			break; /* the first run with generations stands for the variant */
		}
	}
	return 0;
}

PLOT_KIND(generations) = {
	.name = "generations",
	.what = "MGLRU: pages per generation over time, stacked, anon and file, "
		"per memcg",
	.render = render,
};
