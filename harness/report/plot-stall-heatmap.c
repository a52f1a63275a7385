// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim stalls over time: one heat map per variant. x is the time since
 * the first workload started (bins of one second, or wider for long runs),
 * y the stall's duration by octave (2^k ns: 2^10 about 1 us, 2^20 about
 * 1 ms), the colour the number of stalls (direct, memcg and soft-limit
 * reclaim of every task in the guest: stall.h) that ended in the cell, per
 * run of the variant, on a log scale. Empty cells stay white.
 */
#include "escape.h"
#include "plot-kinds.h"
#include "stall.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

#define OCTAVES 64

struct grid {
	double *cell; /* [bin][octave] */
	size_t nbins;
	double bin_s;
	int64_t origin;
};

static void grid_point(void *arg, int64_t t_ns, unsigned bucket, int64_t count)
{
	struct grid *g = arg;
	double x = (double)(t_ns - g->origin) / 1e9;
	unsigned oct = 63u - (unsigned)__builtin_clzll(loghist_lower(bucket) | 1);
	size_t bin;

	if (x < 0)
		x = 0;
	bin = (size_t)(x / g->bin_s);
	if (bin >= g->nbins) {
		g->cell = xrealloc(g->cell, (bin + 1) * OCTAVES, sizeof(double));
		memset(g->cell + g->nbins * OCTAVES, 0, (bin + 1 - g->nbins) * OCTAVES * sizeof(double));
		g->nbins = bin + 1;
	}
	g->cell[bin * OCTAVES + oct] += (double)count;
}

/* "1 us", "512 us", "2 ms": 2^k ns in binary units (2^10 ns read as 1 us). */
static void octave_label(char *buf, size_t len, unsigned k)
{
	static const char *const unit[] = { "ns", "us", "ms", "s", "ks", "Ms", "Gs" };

	snprintf(buf, len, "%u %s", 1u << (k % 10), unit[k / 10]);
}

static int heat_image(struct plot_ctx *pc, size_t v, double bin_s)
{
	const struct dataset *ds = pc->an->ds;
	const struct ds_variant *var = &ds->v[v];
	_cleanup_free_ char *vname = escape_filename(var->name);
	_cleanup_free_ char *name = xasprintf("stall-heatmap-%s", vname);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *title = NULL;
	struct grid g = { .bin_s = bin_s };
	unsigned lo = OCTAVES, hi = 0;
	size_t blen = 0, cells = 0;
	FILE *f, *b;

	for (int i = 0; i < var->measured; i++) {
		const struct report_run_data *r = report_data__run(pc->data, var->runs[i]);

		g.origin = plot_run_origin(pc, var->runs[i]);
		for (size_t k = 0; r && k < r->nstall_pts; k++)
			grid_point(&g, r->stall_pts[k].t_ns, r->stall_pts[k].bucket,
				   r->stall_pts[k].count);
	}
	f = plot_data(pc, dat);
	if (!f) {
		free(g.cell);
		return -errno;
	}
	fprintf(f, "# seconds octave stalls-per-run\n");
	for (size_t bin = 0; bin < g.nbins; bin++)
		for (unsigned k = 0; k < OCTAVES; k++) {
			double c = g.cell[bin * OCTAVES + k] / (var->measured ? var->measured : 1);

			if (c <= 0)
				continue;
			fprintf(f, "%.3f %u %.6g\n", ((double)bin + 0.5) * bin_s, k, c);
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
			cells++;
		}
	free(g.cell);
	if (fclose(f) != 0)
		return -EIO;
	if (!cells)
		return 0;
	title = xasprintf("Reclaim stalls over time, %s (%d run%s): stalls per run and cell",
			  var->name, var->measured, var->measured == 1 ? "" : "s");
	b = open_memstream(&body, &blen);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel \"seconds since the first workload started (bins of %g s)\"\n"
		   "set ylabel \"stall duration (octave)\"\n"
		   "set yrange [%g:%g]\nset xrange [0:*]\nunset grid\n"
		   "set logscale cb\nset cblabel \"stalls per run\"\n"
		   "set palette defined (0 '#fff5eb', 1 '#fdae6b', 2 '#e6550d', 3 '#7f2704')\n"
		   "set ytics (",
		bin_s, lo - 0.5, hi + 0.5);
	for (unsigned k = lo; k <= hi; k++) {
		char l[32];

		octave_label(l, sizeof(l), k);
		fprintf(b, "%s\"%s\" %u", k > lo ? ", " : "", l, k);
	}
	fprintf(b, ")\nplot \"%s\" using 1:2:(%g):(0.5):3 with boxxyerror fs solid 1.0 noborder "
		   "fc palette notitle\n",
		dat, bin_s / 2);
	fclose(b);
	return plot_render(pc, name, "", title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;
	double longest = 0, bin_s = 1;

	/* about 120 columns at most */
	for (size_t v = 0; v < ds->nv; v++)
		for (int i = 0; i < ds->v[v].measured; i++) {
			const struct report_run_data *r =
				report_data__run(pc->data, ds->v[v].runs[i]);

			if (r && r->span_rc == 0 && r->span_s > longest)
				longest = r->span_s;
		}
	if (longest > 120)
		bin_s = ceil(longest / 120);
	for (size_t v = 0; v < ds->nv && !pc->gnuplot_missing; v++)
		heat_image(pc, v, bin_s);
	return 0;
}

PLOT_KIND(stall_heatmap) = {
	.name = "stall-heatmap",
	.what = "per variant: reclaim stalls over time by duration (octaves), "
		"stalls per run in each cell",
	.render = render,
};
