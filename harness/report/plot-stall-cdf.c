// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim stall latency CDF: for every scope with reclaim periods (the whole
 * guest, then each memcg), the share of periods at most x long against x on
 * a log scale, one line per variant (its measured runs' histograms merged)
 * and reclaim path: colour the variant, dash the path. Points are bucket
 * edges (stall.h: 8 buckets per octave). A dotted line marks 0.99, so each
 * curve's p99 is where it crosses it.
 */
#include "escape.h"
#include "plot-kinds.h"
#include "reclaim-paths.h"
#include "stall.h"
#include "util.h"
#include "verdict.h"

#include <string.h>

/* Every measured run of variant v, merged. */
static void variant_stalls(struct plot_ctx *pc, size_t v, struct stall_run *ret)
{
	const struct ds_variant *var = &pc->an->ds->v[v];

	memset(ret, 0, sizeof(*ret));
	for (int i = 0; i < var->measured; i++) {
		const struct report_run_data *r = report_data__run(pc->data, var->runs[i]);

		if (!r || r->stall_rc < 0)
			continue;
		stall_run__merge(ret, &r->stall);
	}
}

/* One curve as a data block; false when the histogram is empty. */
static bool cdf_block(FILE *f, const struct loghist *h)
{
	uint64_t total = 0, cum = 0;
	bool first = true;

	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++)
		total += h->count[i];
	if (!total)
		return false;
	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		if (first)
			fprintf(f, "%.6g 0\n", (double)loghist_lower(i) / 1e3);
		first = false;
		cum += h->count[i];
		fprintf(f, "%.6g %.6g\n", (double)loghist_upper(i) / 1e3, (double)cum / (double)total);
	}
	fprintf(f, "\n\n");
	return true;
}

/* Dash type per path (reclaim_paths[] order): memcg solid, direct dashed, the rest dotted. */
static const unsigned path_dash[RECLAIM_PATHS] = { 2, 1, 3, 4 };

static int cdf_image(struct plot_ctx *pc, const struct stall_run *vs, const char *scope)
{
	const struct dataset *ds = pc->an->ds;
	bool sys = !strcmp(scope, "-");
	_cleanup_free_ char *sname = escape_filename(scope);
	_cleanup_free_ char *name = sys ? xstrdup("stall-cdf-system") :
					  xasprintf("stall-cdf-memcg-%s", sname);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *plot = NULL, *title = NULL, *group = NULL;
	size_t blen = 0, plen = 0, block = 0;
	FILE *f, *b, *p;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	p = open_memstream(&plot, &plen);
	for (size_t v = 0; v < ds->nv; v++)
		for (unsigned path = 0; path < RECLAIM_PATHS; path++) {
			const struct loghist *h = stall_run__find(&vs[v], scope, path);
			_cleanup_free_ char *t = NULL;

			if (!h || !cdf_block(f, h))
				continue;
			t = xasprintf("%s%s %s (%llu)", ds->v[v].name, v == ds->base ? "*" : "",
				      reclaim_paths[path].label, (unsigned long long)h->n);
			fprintf(p, "%s\"%s\" index %zu using 1:2 with lines lw 2.5 dt %u lc rgb '%s' title ",
				block ? ", \\\n  " : "", dat, block, path_dash[path], plot_color(v));
			escape_gnuplot(p, t);
			block++;
		}
	fclose(p);
	if (fclose(f) != 0)
		return -EIO;
	if (!block)
		return 0;
	title = sys ? xstrdup("Reclaim stall latency CDF, every task in the guest") :
		      xasprintf("Reclaim stall latency CDF, memcg %s", scope);
	group = sys ? xstrdup("system") : xasprintf("memcg %s", scope);
	b = open_memstream(&body, &blen);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel \"duration of a reclaim period (us, log scale; periods in the key)\"\n"
		   "set ylabel \"share of periods at most this long\"\n"
		   "set logscale x\nset yrange [0:1.02]\nset ytics 0.1\n"
		   "set arrow from graph 0, first 0.99 to graph 1, first 0.99 nohead dt 3 lw 1.5 "
		   "lc rgb '#555555' back\n"
		   "set label \"p99\" at graph 0.01, first 0.975 font ',12' tc rgb '#555555'\n"
		   "set format x \"%%g\"\nset key outside right top vertical samplen 4\n");
	fprintf(b, "plot %s\n", plot);
	fclose(b);
	return plot_render(pc, name, group, title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	const struct dataset *ds = pc->an->ds;
	struct stall_run *vs = xcalloc(ds->nv, sizeof(*vs));
	const char **scopes = NULL;
	size_t nscopes = 0;

	for (size_t v = 0; v < ds->nv; v++)
		variant_stalls(pc, v, &vs[v]);
	/* the whole guest first, then the memcgs in the order first seen */
	for (int memcgs = 0; memcgs < 2; memcgs++)
		for (size_t v = 0; v < ds->nv; v++)
			for (size_t i = 0; i < vs[v].n; i++) {
				const char *s = vs[v].h[i].scope;
				bool seen = (strcmp(s, "-") == 0) == memcgs;

				for (size_t k = 0; k < nscopes; k++)
					seen |= !strcmp(scopes[k], s);
				if (seen)
					continue;
				scopes = xrealloc(scopes, nscopes + 1, sizeof(*scopes));
				scopes[nscopes++] = s;
			}
	for (size_t k = 0; k < nscopes && !pc->gnuplot_missing; k++)
		cdf_image(pc, vs, scopes[k]);
	free(scopes);
	for (size_t v = 0; v < ds->nv; v++)
		stall_run__clear(&vs[v]);
	free(vs);
	return 0;
}

PLOT_KIND(stall_cdf) = {
	.name = "stall-cdf",
	.what = "reclaim stall latency CDF per variant and reclaim path, for the whole "
		"guest and each memcg (vmscan tracepoints)",
	.render = render,
};
