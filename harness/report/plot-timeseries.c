// SPDX-License-Identifier: GPL-2.0
/*
 * Time series: each measured run of each variant over time since its first
 * workload started, in the variant's colour, with the run's phases (workload
 * start and exit, OOM kills) as dotted verticals. Counters are drawn as
 * rates between samples (a counter going backwards is a reset: no point),
 * PSI totals as the share of time stalled, memory.current in MiB. One image
 * per quantity, registered in the table below.
 */
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <string.h>

enum ts_unit { TS_RATE, TS_PSI_PCT, TS_MIB };

struct ts_series {
	const char *metric;
	const char *label; /* in the key, after the variant */
	int dash; /* gnuplot dash type */
};

/* The time series images: one row each; up to two series per image. */
static const struct ts_kind {
	const char *name, *title, *ylabel;
	enum ts_unit unit;
	bool per_memcg; /* one image per memcg (scope), else system-wide */
	struct ts_series s[2];
} ts_kinds[] = {
	{ "pgscan",
	  "Pages scanned per second (anon solid, file dashed)",
	  "pages/s",
	  TS_RATE,
	  false,
	  { { "vmstat:pgscan_anon", "anon", 1 }, { "vmstat:pgscan_file", "file", 2 } } },
	{ "pgsteal",
	  "Pages reclaimed per second (anon solid, file dashed)",
	  "pages/s",
	  TS_RATE,
	  false,
	  { { "vmstat:pgsteal_anon", "anon", 1 }, { "vmstat:pgsteal_file", "file", 2 } } },
	{ "majfault",
	  "Major faults per second",
	  "faults/s",
	  TS_RATE,
	  false,
	  { { "vmstat:pgmajfault", "", 1 } } },
	{ "swap",
	  "Swap per second (in solid, out dashed)",
	  "pages/s",
	  TS_RATE,
	  false,
	  { { "vmstat:pswpin", "in", 1 }, { "vmstat:pswpout", "out", 2 } } },
	{ "psi",
	  "Memory pressure (PSI some solid, full dashed)",
	  "% of time stalled",
	  TS_PSI_PCT,
	  false,
	  { { "psi.memory:some.total", "some", 1 }, { "psi.memory:full.total", "full", 2 } } },
	{ "memory-current",
	  "memory.current",
	  "MiB",
	  TS_MIB,
	  true,
	  { { "memory.current:bytes", "", 1 } } },
};

/* Every metric of ts_kinds: their series are loaded for the kind (plot.h). */
static const char *const ts_metrics[] = {
	"vmstat:pgscan_anon",	 "vmstat:pgscan_file",	  "vmstat:pgsteal_anon",
	"vmstat:pgsteal_file",	 "vmstat:pgmajfault",	  "vmstat:pswpin",
	"vmstat:pswpout",	 "psi.memory:some.total", "psi.memory:full.total",
	"memory.current:bytes", NULL,
};

/* Write one run's series as a data block; returns the number of points. */
static size_t series_block(struct plot_ctx *pc, FILE *f, int64_t run, int64_t origin,
			   const char *metric, const char *scope, enum ts_unit unit)
{
	const struct report_series *s =
		report_data__series(report_data__run(pc->data, run), metric, scope);
	int64_t pt = 0, pv = 0;
	bool have = false;
	size_t n = 0;

	for (size_t i = 0; s && i < s->n; i++) {
		int64_t t = s->p[i].t_ns, v = s->p[i].v;
		double x = (double)(t - origin) / 1e9;

		if (unit == TS_MIB) {
			fprintf(f, "%.3f %.6g\n", x, (double)v / (1 << 20));
			n++;
		} else if (have && t > pt) {
			double dt = (double)(t - pt) / 1e9;

			if (v >= pv) {
				double rate = (double)(v - pv) / dt;

				/* PSI totals are microseconds stalled */
				fprintf(f, "%.3f %.6g\n", x,
					unit == TS_PSI_PCT ? rate / 1e4 : rate);
				n++;
			} else {
				fprintf(f, "\n"); /* a reset: break the line */
			}
		}
		pt = t;
		pv = v;
		have = true;
	}
	fprintf(f, "\n\n");
	return n;
}

static int ts_image(struct plot_ctx *pc, const struct ts_kind *k, const char *scope)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *sname = escape_filename(scope);
	_cleanup_free_ char *name = k->per_memcg ? xasprintf("ts-%s-%s", k->name, sname) :
						   xasprintf("ts-%s", k->name);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *plot = NULL, *title = NULL;
	size_t blen = 0, plen = 0, block = 0, points = 0;
	bool cross = false, labelled = false;
	FILE *f, *b, *p;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	b = open_memstream(&body, &blen);
	p = open_memstream(&plot, &plen);
	for (size_t v = 0; v < ds->nv; v++)
		cross |= ds_cross_lru(ds, ds->base, v);
	for (size_t v = 0; v < ds->nv; v++) {
		for (int ri = 0; ri < ds->v[v].measured; ri++) {
			int64_t run = ds->v[v].runs[ri];
			int64_t origin = plot_run_origin(pc, run);

			/* every run's phase lines; the names once, from the first run */
			plot_phase_marks(pc, b, run, origin, plot_color(v), !labelled);
			labelled = true;
			for (size_t si = 0; si < ARRAY_SIZE(k->s) && k->s[si].metric; si++) {
				size_t n = series_block(pc, f, run, origin, k->s[si].metric, scope,
							k->unit);
				_cleanup_free_ char *t = NULL;

				points += n;
				fprintf(p,
					"%s\"%s\" index %zu using 1:2 with lines lw 2.5 dt %d "
					"lc rgb '%s' ",
					block ? ", \\\n  " : "", dat, block, k->s[si].dash,
					plot_color(v));
				if (ri == 0 && n) {
					t = xasprintf("%s%s%s%s", ds->v[v].name,
						      v == ds->base ? "*" : "",
						      *k->s[si].label ? " " : "", k->s[si].label);
					fprintf(p, "title ");
					escape_gnuplot(p, t);
				} else {
					fprintf(p, "notitle");
				}
				block++;
			}
		}
	}
	fclose(p);
	if (fclose(f) != 0) {
		fclose(b);
		return -EIO;
	}
	if (!points) {
		fclose(b);
		return 0;
	}
	title = k->per_memcg ? xasprintf("%s of memcg %s", k->title, scope) : xstrdup(k->title);
	if (cross && !strcmp(k->name, "pgscan")) {
		char *t = xasprintf("%s: not comparable across LRUs, shape only", title);

		free(title);
		title = t;
	}
	fprintf(b, "set title ");
	escape_gnuplot(b, title);
	fprintf(b, "\nset xlabel \"seconds since the first workload started\"\nset ylabel ");
	escape_gnuplot(b, k->ylabel);
	fprintf(b, "\nset yrange [0:*]\nset autoscale xfix\nset key outside top center horizontal\n");
	if (block)
		fprintf(b, "plot %s\n", plot);
	fclose(b);
	return plot_render(pc, name, "", title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	for (size_t i = 0; i < ARRAY_SIZE(ts_kinds); i++) {
		const struct ts_kind *k = &ts_kinds[i];

		if (k->per_memcg) {
			size_t n = 0;
			char *const *scopes = report_data__scopes(pc->data, k->s[0].metric, &n);

			for (size_t j = 0; j < n; j++)
				ts_image(pc, k, scopes[j]);
		} else {
			ts_image(pc, k, "-");
		}
	}
	return 0;
}

PLOT_KIND(timeseries) = {
	.name = "timeseries",
	.what = "per variant and run, with phase markers: reclaim rates (scan, "
		"steal; anon, file), major faults, swap in/out, PSI, memory.current",
	.render = render,
	.series = ts_metrics,
};
