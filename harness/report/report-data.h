/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign as its report, plots and deck read it: loaded from the store
 * once, before anything is analysed or drawn, so that renderers take this
 * and the analysis, never the store. Per measured run of the analysis's
 * dataset it holds what the plots draw over time (phases, generations, the
 * series the plot kinds ask for, reclaim stalls); for the campaign, its meta
 * values, runs, provenance, working sets and why runs were not traced.
 */
#ifndef LRUBENCH_REPORT_DATA_H
#define LRUBENCH_REPORT_DATA_H

#include "stall.h"
#include "store-report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct analysis;
struct store;
struct wss;

/* One series of a run: a metric in a scope. */
struct report_series {
	const char *metric; /* the caller's string (report_data__load's metrics) */
	char *scope;
	struct store_point *p;
	size_t n;
};

/* One memcg's generations in a run (store__report_gens). */
struct report_gens {
	char *memcg;
	struct store_gen_row *rows;
	size_t n;
	int rc; /* the read's: rows are empty when it failed */
};

/* A stall period over time (stall__series of the whole guest). */
struct report_stall_point {
	int64_t t_ns;
	unsigned bucket;
	int64_t count;
};

/* What is drawn of a measured run. */
struct report_run_data {
	int64_t id;
	int64_t origin; /* ns: the first workload start, else the first sample */
	int64_t page_size;
	struct store_event_row *phases;
	size_t nphases;
	struct store_event_row *marks; /* the workloads' marks (text "WORKLOAD NAME VALUE UNIT") */
	size_t nmarks;
	struct report_gens *gens; /* per memcg sampled in lru_gen, in the store's order */
	size_t ngens;
	int gens_rc; /* the memcg list's read */
	struct report_series *series;
	size_t nseries;
	struct stall_run stall; /* every reclaim histogram of the run */
	int stall_rc;
	struct report_stall_point *stall_pts;
	size_t nstall_pts;
	double span_s; /* the sampled time span */
	int span_rc;
};

/* A run's console log. */
struct report_console {
	int64_t run_id;
	char *text;
	size_t len;
};

/* The scopes a requested metric was sampled in (any run), by name. */
struct report_scopes {
	const char *metric;
	char **scope;
	size_t n;
};

struct report_data {
	struct store_kv *meta; /* (key, value or NULL when absent) */
	size_t nmeta;
	struct store_run_row *runs;
	size_t nruns;
	struct store_kv *prov; /* (variant, key, value): each variant's first run with any */
	size_t nprov;
	struct store_kv *prov_values; /* distinct (key, value) of every run */
	size_t nprov_values;
	struct store_text_count *trace_skips;
	size_t ntrace_skips;
	int trace_skips_rc;
	struct report_console *consoles; /* of the dataset's failed runs */
	size_t nconsoles;
	struct wss *wss; /* NULL without working sets (lrubench wss) */
	struct report_scopes *scopes;
	size_t nscopes;
	struct report_run_data *rd; /* the dataset's measured runs */
	size_t nrd;
};

/*
 * Read everything of st that the report of analysis an draws, with the runs'
 * series of each of metrics (NULL-terminated; NULL for none). Returns 0, or
 * -errno when the runs or the provenance cannot be read.
 */
int report_data__load(struct store *st, const struct analysis *an, const char *const *metrics,
		      struct report_data **ret);
void report_data__free(struct report_data *d);
void report_data__freep(struct report_data **d);

/* A meta value, NULL when the store has none. */
const char *report_data__meta(const struct report_data *d, const char *key);
/* A variant's provenance value, or NULL. */
const char *report_data__prov(const struct report_data *d, const char *variant, const char *key);
/* A failed run's console (the whole log), or NULL; *ret_len its bytes. */
const char *report_data__console(const struct report_data *d, int64_t run_id, size_t *ret_len);
/* A measured run's data, or NULL. */
const struct report_run_data *report_data__run(const struct report_data *d, int64_t run_id);
/* A run's series of metric in scope, or NULL when none was read. */
const struct report_series *report_data__series(const struct report_run_data *r,
						const char *metric, const char *scope);
/* The scopes metric was sampled in; NULL with none. */
char *const *report_data__scopes(const struct report_data *d, const char *metric, size_t *ret_n);

/* The provenance keys shown per variant, in order, with what they mean. */
struct prov_key {
	const char *key, *what;
};
extern const struct prov_key report_prov_keys[];
extern const size_t report_prov_nkeys;

#endif
