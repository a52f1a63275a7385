// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA nodes over time ([guest] numa > 1; node.vmstat, one scope per node):
 * one image per quantity, a line per measured run and node, coloured by
 * variant and dashed by node (node0 solid, node1 dashed, ...), so that a
 * node reclaiming while another has room shows as two lines apart. A
 * quantity is the sum of its metrics at each sample: pages as MiB, counters
 * as rates per second.
 */
#include "escape.h"
#include "plot-kinds.h"
#include "util.h"
#include "verdict.h"

#include <string.h>

enum node_unit { NODE_MIB, NODE_RATE };

static const struct node_kind {
	const char *name, *title, *ylabel;
	enum node_unit unit;
	const char *metric[2]; /* summed; the second may be NULL */
} node_kinds[] = {
	{ "free", "Free memory per NUMA node", "MiB", NODE_MIB, { "node.vmstat:nr_free_pages" } },
	{ "anon", "Anon pages on the LRUs per NUMA node", "MiB", NODE_MIB,
	  { "node.vmstat:nr_active_anon", "node.vmstat:nr_inactive_anon" } },
	{ "file", "File pages on the LRUs per NUMA node", "MiB", NODE_MIB,
	  { "node.vmstat:nr_active_file", "node.vmstat:nr_inactive_file" } },
	{ "refault", "Workingset refaults per second per NUMA node (anon + file)", "pages/s",
	  NODE_RATE, { "node.vmstat:workingset_refault_anon", "node.vmstat:workingset_refault_file" } },
};

static const char *const node_metrics[] = {
	"node.vmstat:nr_free_pages",	   "node.vmstat:nr_active_anon",
	"node.vmstat:nr_inactive_anon",	   "node.vmstat:nr_active_file",
	"node.vmstat:nr_inactive_file",	   "node.vmstat:workingset_refault_anon",
	"node.vmstat:workingset_refault_file", NULL,
};

/* One run's quantity on one node as a data block; the number of points. */
static size_t node_block(struct plot_ctx *pc, FILE *f, int64_t run, const struct node_kind *k,
			 const char *node)
{
	const struct report_run_data *r = report_data__run(pc->data, run);
	const struct report_series *a = report_data__series(r, k->metric[0], node);
	const struct report_series *b = k->metric[1] ? report_data__series(r, k->metric[1], node)
						     : NULL;
	int64_t origin = plot_run_origin(pc, run), pt = 0, pv = 0;
	double page = r && r->page_size > 0 ? (double)r->page_size : 4096;
	size_t n = 0;

	for (size_t i = 0; a && i < a->n; i++) {
		int64_t t = a->p[i].t_ns, v = a->p[i].v;
		double x = (double)(t - origin) / 1e9;

		if (k->metric[1]) {
			if (!b || i >= b->n || b->p[i].t_ns != t)
				break; /* the two series must come from the same samples */
			v += b->p[i].v;
		}
		if (k->unit == NODE_MIB) {
			fprintf(f, "%.3f %.6g\n", x, (double)v * page / (1 << 20));
			n++;
		} else if (i && t > pt) {
			if (v >= pv)
				fprintf(f, "%.3f %.6g\n", x, (double)(v - pv) / ((double)(t - pt) / 1e9));
			else
				fprintf(f, "\n"); /* a reset: break the line */
			n += v >= pv;
		}
		pt = t;
		pv = v;
	}
	fprintf(f, "\n\n");
	return n;
}

static int node_image(struct plot_ctx *pc, const struct node_kind *k, char *const *nodes,
		      size_t nnodes)
{
	const struct dataset *ds = pc->an->ds;
	_cleanup_free_ char *name = xasprintf("nodes-%s", k->name);
	_cleanup_free_ char *dat = xasprintf("%s.dat", name);
	_cleanup_free_ char *body = NULL, *plot = NULL;
	size_t blen = 0, plen = 0, block = 0, points = 0;
	FILE *f, *b, *p;

	f = plot_data(pc, dat);
	if (!f)
		return -errno;
	p = open_memstream(&plot, &plen);
	for (size_t v = 0; v < ds->nv; v++)
		for (int ri = 0; ri < ds->v[v].measured; ri++)
			for (size_t j = 0; j < nnodes; j++) {
				size_t pts = node_block(pc, f, ds->v[v].runs[ri], k, nodes[j]);
				_cleanup_free_ char *t = NULL;

				points += pts;
				fprintf(p,
					"%s\"%s\" index %zu using 1:2 with lines lw 2.5 dt %zu "
					"lc rgb '%s' ",
					block ? ", \\\n  " : "", dat, block, j + 1, plot_color(v));
				if (ri == 0 && pts) {
					t = xasprintf("%s%s %s", ds->v[v].name,
						      v == ds->base ? "*" : "", nodes[j]);
					fprintf(p, "title ");
					escape_gnuplot(p, t);
				} else {
					fprintf(p, "notitle");
				}
				block++;
			}
	fclose(p);
	if (fclose(f) != 0)
		return -EIO;
	if (!points)
		return 0;
	b = open_memstream(&body, &blen);
	fprintf(b, "set title ");
	escape_gnuplot(b, k->title);
	fprintf(b, "\nset xlabel \"seconds since the first workload started\"\nset ylabel ");
	escape_gnuplot(b, k->ylabel);
	fprintf(b, "\nset yrange [0:*]\nset autoscale xfix\nset key outside top center horizontal\n"
		   "plot %s\n",
		plot);
	fclose(b);
	return plot_render(pc, name, "NUMA nodes", k->title, body, 1280, 720);
}

static int render(struct plot_ctx *pc)
{
	size_t n = 0;
	char *const *nodes = report_data__scopes(pc->data, node_metrics[0], &n);

	for (size_t i = 0; n && i < ARRAY_SIZE(node_kinds) && !pc->gnuplot_missing; i++)
		node_image(pc, &node_kinds[i], nodes, n);
	return 0;
}

PLOT_KIND(nodes) = {
	.name = "nodes",
	.what = "per NUMA node over time (guests of more than one node): free memory, anon and "
		"file on the LRUs, refaults; a line per run and node",
	.render = render,
	.series = node_metrics,
};
