// SPDX-License-Identifier: GPL-2.0
/*
 * The table of plot kinds (plot.h): one row per kind, each a descriptor at
 * the end of its own plot-KIND.c, drawn in this order.
 */
#include "plot-kinds.h"
#include "util.h"

#include <errno.h>
#include <string.h>

/* The plot kinds: one file each (plot-NAME.c, ending with PLOT_KIND(NAME)), one row here. */
#define PLOT_KIND_TABLE(X) \
	X(heatmap)         \
	X(bars)            \
	X(timeseries)      \
	X(generations)     \
	X(balance)         \
	X(stall_cdf)       \
	X(stall_heatmap)   \
	X(nodes)           \
	X(marks)

#define PLOT_KIND_DECLARE(NAME) extern const struct plot_kind plot_kind_##NAME;
PLOT_KIND_TABLE(PLOT_KIND_DECLARE)
#define PLOT_KIND_ROW(NAME) &plot_kind_##NAME,

#define PLOT_KINDS_MAX 32

static const struct plot_kind *kinds[PLOT_KINDS_MAX] = { PLOT_KIND_TABLE(PLOT_KIND_ROW) };
#define PLOT_KIND_ONE(NAME) +1
static size_t nkinds = 0 PLOT_KIND_TABLE(PLOT_KIND_ONE);
static const char *series[PLOT_KINDS_MAX * 8 + 1];

const struct plot_kind *const *plot__kinds(size_t *ret_n)
{
	*ret_n = nkinds;
	return kinds;
}

int plot__register(const struct plot_kind *k)
{
	if (nkinds == ARRAY_SIZE(kinds))
		return -ENOSPC;
	kinds[nkinds++] = k;
	return 0;
}

const char *const *plot__series(void)
{
	size_t n = 0;

	for (size_t i = 0; i < nkinds; i++)
		for (size_t j = 0; kinds[i]->series && kinds[i]->series[j]; j++) {
			const char *m = kinds[i]->series[j];
			size_t k = 0;

			while (k < n && strcmp(series[k], m))
				k++;
			if (k == n && n + 1 < ARRAY_SIZE(series))
				series[n++] = m;
		}
	series[n] = NULL;
	return series;
}

int plot__all(const struct report_data *data, const struct analysis *an, const char *dir,
	      struct plot_set *ret)
{
	struct plot_ctx pc = { .data = data, .an = an, .set = ret };
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->dir = xstrdup(dir);
	r = plot_dir_prepare(dir);
	if (r < 0)
		return r;
	for (size_t i = 0; i < nkinds && !pc.gnuplot_missing; i++) {
		pc.kind = kinds[i]->name;
		kinds[i]->render(&pc);
	}
	return pc.gnuplot_missing ? -ENOENT : 0;
}
