/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by report.c and the report writers (report-html.c, report-ci.c). */
#ifndef LRUBENCH_REPORT_PRIV_H
#define LRUBENCH_REPORT_PRIV_H

#include "noise.h"
#include "plot.h"
#include "report.h"
#include "wss.h"

#include <stdint.h>
#include <stdio.h>

struct report_run {
	int64_t id;
	char *variant, *status, *reason, *accel;
	int rep;
	int64_t samples;
	double wall_s;
	bool warmup;
	int64_t kernel_warnings; /* console lines the kernel complained on (events 'kernel') */
	char *first_warning;
};

struct report_kv {
	char *variant, *key, *value;
};

struct report {
	struct store *st;
	const struct report_opts *o;
	struct analysis *an;
	struct noise *nz; /* NULL without noise figures */
	struct wss *wss; /* NULL without working sets (lrubench wss) */
	char *wss_text; /* their table and each memcg's limit against its working set */
	struct plot_set plots;
	int plots_rc; /* plot__all(): -ENOENT without gnuplot */
	int deck_rc;  /* deck__write(): 0 written, -ENOENT a tool missing, -ECANCELED not tried */
	char *campaign, *version, *created, *plan_path, *plan_text, *qemu_version;
	char *grid; /* the kernel x LRU table (compare-grid.c), or NULL when not a grid */
	struct report_run *runs;
	size_t nruns;
	struct report_kv *prov; /* per variant, from its first run */
	size_t nprov;
};

/* The provenance keys shown per variant, in order, with what they mean. */
struct prov_key {
	const char *key, *what;
};
extern const struct prov_key report_prov_keys[];
extern const size_t report_prov_nkeys;

/* A variant's provenance value, or NULL. */
const char *report_prov(const struct report *rp, const char *variant, const char *key);

int report_html(const struct report *rp, FILE *f);
int report_junit(const struct report *rp, FILE *f);
int report_json(const struct report *rp, FILE *f);

#endif
