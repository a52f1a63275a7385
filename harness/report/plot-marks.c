// SPDX-License-Identifier: GPL-2.0
/*
 * A workload's marks (PROTOCOL.md: "mark NAME VALUE UNIT", stored as events
 * "WORKLOAD NAME VALUE UNIT"): for every workload and mark name seen,
 * - marks in ns (a launch's latency): the CDF of their values per variant,
 *   every measured run's marks pooled, on a log scale in ms;
 * - any other mark (a kill): how many so far against the time since the
 *   run's first workload started, a step line per measured run, coloured by
 *   variant.
 */
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mark_key {
	char *wl, *name, *unit;
};

/* Split a mark's text; false when it is not "WORKLOAD NAME VALUE UNIT". */
static bool mark_parse(const char *text, struct mark_key *k, double *value)
{
	char wl[128], name[128], unit[64], tail;

	if (sscanf(text, "%127s %127s %lf %63s %c", wl, name, value, unit, &tail) != 4 ||
	    !isfinite(*value))
		return false;
	if (k) {
		k->wl = xstrdup(wl);
		k->name = xstrdup(name);
		k->unit = xstrdup(unit);
	}
	return true;
}

static bool mark_is(const char *text, const struct mark_key *k, double *value)
{
	struct mark_key m = { 0 };
	bool same;

	if (!mark_parse(text, &m, value))
		return false;
	same = !strcmp(m.wl, k->wl) && !strcmp(m.name, k->name) && !strcmp(m.unit, k->unit);
	free(m.wl);
	free(m.name);
	free(m.unit);
	return same;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One variant's values of mark k, pooled over its measured runs; *ret_n of them. */
static double *variant_values(const struct plot_ctx *pc, size_t v, const struct mark_key *k,
			      size_t *ret_n)
{
	const struct ds_variant *var = &pc->an->ds->v[v];
	double *val = NULL, x;
	size_t n = 0;

	for (int i = 0; i < var->measured; i++) {
		const struct report_run_data *r = report_data__run(pc->data, var->runs[i]);

		for (size_t m = 0; r && m < r->nmarks; m++)
			if (mark_is(r->marks[m].text, k, &x)) {
				val = xrealloc(val, n + 1, sizeof(*val));
				val[n++] = x;
			}
	}
	if (n)
		qsort(val, n, sizeof(*val), cmp_double);
	*ret_n = n;
	return val;
}

static int cdf_image(struct plot_ctx *pc, const struct mark_key *k, const char *fname)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *dat = xasprintf("%s.dat", fname);
	_cleanup_free_ char *body = NULL, *plot = NULL, *title = NULL;
	size_t blen = 0, plen = 0, block = 0;
	FILE *f, *b, *p;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	p = open_memstream(&plot, &plen);
	for (size_t v = 0; v < ds->nv; v++) {
		size_t n;
		_cleanup_free_ double *val = variant_values(pc, v, k, &n);
		_cleanup_free_ char *t = NULL;

		if (!n)
			continue;
		fprintf(f, "%.6g 0\n", val[0] / 1e6);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%.6g %.6g\n", val[i] / 1e6, (double)(i + 1) / (double)n);
		fprintf(f, "\n\n");
		t = xasprintf("%s%s (%zu)", ds->v[v].name, v == ds->base ? "*" : "", n);
		fprintf(p, "%s\"%s\" index %zu using 1:2 with steps lw 2.5 lc rgb '%s' title ",
			block ? ", \\\n  " : "", dat, block, plot_color(v));
		escape_gnuplot(p, t);
		block++;
	}
	fclose(p);
	if (fclose(f) != 0)
		return -EIO;
	if (!block)
		return 0;
	title = xasprintf("%s: %s, distribution per variant", k->wl, k->name);
	b = open_memstream(&body, &blen);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel ");
	escape_gnuplot(b, "value (ms, log scale; marks of all measured runs in the key)");
	fprintf(b, "\nset ylabel \"share at most this\"\n"
		   "set logscale x\nset yrange [0:1.02]\nset ytics 0.1\n"
		   "set arrow from graph 0, first 0.95 to graph 1, first 0.95 nohead dt 3 lw 1.5 "
		   "lc rgb '#555555' back\n"
		   "set label \"p95\" at graph 0.01, first 0.935 font ',12' tc rgb '#555555'\n"
		   "set format x \"%%g\"\nset key outside right top vertical samplen 4\n");
	fprintf(b, "plot %s\n", plot);
	fclose(b);
	return plot_render(pc, fname, k->wl, title, body, 1280, 720);
}

static int count_image(struct plot_ctx *pc, const struct mark_key *k, const char *fname)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *dat = xasprintf("%s.dat", fname);
	_cleanup_free_ char *body = NULL, *plot = NULL, *title = NULL;
	size_t blen = 0, plen = 0, block = 0;
	FILE *f, *b, *p;
	double x, end;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	p = open_memstream(&plot, &plen);
	for (size_t v = 0; v < ds->nv; v++) {
		const struct ds_variant *var = &ds->v[v];
		bool titled = false;

		for (int i = 0; i < var->measured; i++) {
			const struct report_run_data *r = report_data__run(pc->data, var->runs[i]);
			uint64_t n = 0;

			if (!r)
				continue;
			/* the line runs on to the run's end (its sampled span), or its last mark */
			end = r->span_rc == 0 ? r->span_s : 0;
			fprintf(f, "0 0\n");
			for (size_t m = 0; m < r->nmarks; m++)
				if (mark_is(r->marks[m].text, k, &x)) {
					double t = (double)(r->marks[m].t_ns - r->origin) / 1e9;

					fprintf(f, "%.3f %llu\n", t, (unsigned long long)++n);
					end = t > end ? t : end;
				}
			fprintf(f, "%.3f %llu\n\n\n", end, (unsigned long long)n);
			fprintf(p, "%s\"%s\" index %zu using 1:2 with steps lw 2 lc rgb '%s' ",
				block ? ", \\\n  " : "", dat, block, plot_color(v));
			if (titled) {
				fprintf(p, "notitle");
			} else {
				_cleanup_free_ char *t = xasprintf("%s%s", var->name,
								   v == ds->base ? "*" : "");

				fprintf(p, "title ");
				escape_gnuplot(p, t);
				titled = true;
			}
			block++;
		}
	}
	fclose(p);
	if (fclose(f) != 0)
		return -EIO;
	if (!block)
		return 0;
	title = xasprintf("%s: %s marks over time, a line per run", k->wl, k->name);
	b = open_memstream(&body, &blen);
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel \"time since the first workload started (s)\"\n"
		   "set ylabel ");
	escape_gnuplot(b, "so far");
	fprintf(b, "\nset yrange [0:*]\n"
		   "set key outside right top vertical samplen 4\n");
	fprintf(b, "plot %s\n", plot);
	fclose(b);
	return plot_render(pc, fname, k->wl, title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	struct mark_key *keys = NULL;
	size_t nkeys = 0;
	double x;

	for (size_t i = 0; i < pc->data->nrd; i++) {
		const struct report_run_data *r = &pc->data->rd[i];

		for (size_t m = 0; m < r->nmarks; m++) {
			struct mark_key k;
			bool seen = false;

			for (size_t j = 0; j < nkeys && !seen; j++)
				seen = mark_is(r->marks[m].text, &keys[j], &x);
			if (seen || !mark_parse(r->marks[m].text, &k, &x))
				continue;
			keys = xrealloc(keys, nkeys + 1, sizeof(*keys));
			keys[nkeys++] = k;
		}
	}
	for (size_t j = 0; j < nkeys; j++) {
		_cleanup_free_ char *wl = escape_filename(keys[j].wl);
		_cleanup_free_ char *name = escape_filename(keys[j].name);
		bool ns = !strcmp(keys[j].unit, "ns");
		_cleanup_free_ char *fname = xasprintf("marks-%s-%s%s", wl, name, ns ? "-cdf" : "");

		if (!pc->gnuplot_missing)
			(ns ? cdf_image : count_image)(pc, &keys[j], fname);
		free(keys[j].wl);
		free(keys[j].name);
		free(keys[j].unit);
	}
	free(keys);
	return 0;
}

PLOT_KIND(marks) = {
	.name = "marks",
	.what = "a workload's marks: the CDF of those in ns (launch latency) per variant, "
		"and the count of the others (kills) over time per run",
	.render = render,
};
