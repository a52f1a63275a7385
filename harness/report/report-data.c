// SPDX-License-Identifier: GPL-2.0
/* A campaign loaded once for its report, plots and deck: see report-data.h. */
#include "report-data.h"
#include "dataset.h"
#include "store.h"
#include "util.h"
#include "verdict.h"
#include "wss.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const struct prov_key report_prov_keys[] = {
	{ "kernel.release", "kernel release" },
	{ "kernel.version", "kernel version string" },
	{ "kernel.sha256", "kernel image sha256" },
	{ "kernel.source", "where the kernel came from" },
	{ "kernel.config_sha256", "kernel .config sha256" },
	{ "guest.kernel_release", "release the guest reported" },
	{ "guest.image_sha256", "guest image (initramfs) sha256" },
	{ "cmdline", "kernel command line" },
	{ "lru.mode", "LRU mode" },
	{ "lru.enabled", "/sys/kernel/mm/lru_gen/enabled" },
	{ "guest.conf.lru_gen/enabled", "lru_gen/enabled read back in the guest" },
	{ "guest.conf.lru_gen/min_ttl_ms", "min_ttl_ms read back in the guest" },
	{ "accel", "accelerator" },
	{ "accel.why", "why this accelerator" },
	{ "clock", "guest clock (QEMU -icount where instructions)" },
	{ "guest.cpus", "vCPUs" },
	{ "host", "host" },
	{ "host.kernel", "host kernel" },
	{ "lrubench.version", "lrubench version" },
	{ "agent.version", "guest agent version" },
	{ "qemu.argv", "QEMU command" },
};
const size_t report_prov_nkeys = ARRAY_SIZE(report_prov_keys);

/* The meta keys the report and the deck show. */
static const char *const meta_keys[] = {
	"campaign", "lrubench.version", "created",  "plan.path",	"plan.text",
	"qemu.version", "host",		"campaign.wall_ms", "guest.clock",
};


static void stall_point(void *arg, int64_t t_ns, unsigned bucket, int64_t count)
{
	struct report_run_data *r = arg;

	r->stall_pts = xrealloc(r->stall_pts, r->nstall_pts + 1, sizeof(*r->stall_pts));
	r->stall_pts[r->nstall_pts++] =
		(struct report_stall_point){ .t_ns = t_ns, .bucket = bucket, .count = count };
}

static void load_gens(struct store *st, struct report_run_data *r)
{
	char **memcg = NULL;
	size_t n = 0;

	r->gens_rc = store__report_gen_memcgs(st, r->id, &memcg, &n);
	if (r->gens_rc < 0)
		return;
	r->gens = xcalloc(n + 1, sizeof(*r->gens));
	r->ngens = n;
	for (size_t i = 0; i < n; i++) {
		struct report_gens *g = &r->gens[i];

		g->memcg = memcg[i];
		g->rc = store__report_gens(st, r->id, g->memcg, &g->rows, &g->n);
	}
	free(memcg);
}

static void load_run(struct store *st, const struct report_data *d, const char *const *metrics,
		     struct report_run_data *r)
{
	store__report_run_origin(st, r->id, &r->origin);
	store__report_run_page_size(st, r->id, &r->page_size);
	store__report_phases(st, r->id, &r->phases, &r->nphases);
	store__report_marks(st, r->id, &r->marks, &r->nmarks);
	load_gens(st, r);
	for (size_t m = 0; metrics && metrics[m]; m++) {
		size_t ns = 0;
		char *const *scope = report_data__scopes(d, metrics[m], &ns);

		for (size_t k = 0; k < ns; k++) {
			struct report_series s = { .metric = metrics[m] };

			if (store__report_series(st, r->id, metrics[m], scope[k], &s.p, &s.n) < 0)
				continue;
			s.scope = xstrdup(scope[k]);
			r->series = xrealloc(r->series, r->nseries + 1, sizeof(*r->series));
			r->series[r->nseries++] = s;
		}
	}
	r->stall_rc = stall_run__load(st, r->id, &r->stall);
	stall__series(st, r->id, "-", stall_point, r);
	r->span_rc = stall_run__span(st, r->id, &r->span_s);
}

int report_data__load(struct store *st, const struct analysis *an, const char *const *metrics,
		      struct report_data **ret)
{
	_cleanup_(report_data__freep) struct report_data *d = xcalloc(1, sizeof(*d));
	const struct dataset *ds = an->ds;
	int r;

	d->meta = xcalloc(ARRAY_SIZE(meta_keys), sizeof(*d->meta));
	for (size_t i = 0; i < ARRAY_SIZE(meta_keys); i++) {
		d->meta[d->nmeta].a = xstrdup(meta_keys[i]);
		if (store__meta_get(st, meta_keys[i], &d->meta[d->nmeta].b) < 0)
			d->meta[d->nmeta].b = NULL;
		d->nmeta++;
	}
	r = store__report_runs(st, &d->runs, &d->nruns);
	if (r == 0)
		r = store__report_prov(st, &d->prov, &d->nprov);
	if (r < 0)
		return -EIO;
	if (store__report_prov_values(st, &d->prov_values, &d->nprov_values) < 0)
		d->nprov_values = 0;
	d->trace_skips_rc = store__report_trace_skips(st, &d->trace_skips, &d->ntrace_skips);
	for (size_t i = 0; i < ds->nfailures; i++) {
		struct report_console c = { .run_id = ds->failures[i].run_id };

		if (report_data__console(d, c.run_id, &c.len) ||
		    store__report_console(st, c.run_id, &c.text, &c.len) < 0)
			continue;
		d->consoles = xrealloc(d->consoles, d->nconsoles + 1, sizeof(*d->consoles));
		d->consoles[d->nconsoles++] = c;
	}
	if (wss__load(st, &d->wss) < 0)
		d->wss = NULL;
	for (size_t m = 0; metrics && metrics[m]; m++) {
		struct report_scopes s = { .metric = metrics[m] };

		if (report_data__scopes(d, metrics[m], &s.n))
			continue; /* asked twice */
		if (store__report_scopes(st, metrics[m], &s.scope, &s.n) < 0)
			continue;
		d->scopes = xrealloc(d->scopes, d->nscopes + 1, sizeof(*d->scopes));
		d->scopes[d->nscopes++] = s;
	}
	for (size_t v = 0; v < ds->nv; v++)
		for (int i = 0; i < ds->v[v].measured; i++) {
			struct report_run_data *rd;

			if (report_data__run(d, ds->v[v].runs[i]))
				continue;
			d->rd = xrealloc(d->rd, d->nrd + 1, sizeof(*d->rd));
			rd = &d->rd[d->nrd++];
			*rd = (struct report_run_data){ .id = ds->v[v].runs[i] };
			load_run(st, d, metrics, rd);
		}
	*ret = TAKE_PTR(d);
	return 0;
}

static void run_data_clear(struct report_run_data *r)
{
	store_event_rows__free(r->phases, r->nphases);
	store_event_rows__free(r->marks, r->nmarks);
	for (size_t i = 0; i < r->ngens; i++) {
		free(r->gens[i].memcg);
		free(r->gens[i].rows);
	}
	free(r->gens);
	for (size_t i = 0; i < r->nseries; i++) {
		free(r->series[i].scope);
		free(r->series[i].p);
	}
	free(r->series);
	stall_run__clear(&r->stall);
	free(r->stall_pts);
}

void report_data__free(struct report_data *d)
{
	if (!d)
		return;
	store_kvs__free(d->meta, d->nmeta);
	store_run_rows__free(d->runs, d->nruns);
	store_kvs__free(d->prov, d->nprov);
	store_kvs__free(d->prov_values, d->nprov_values);
	store_text_counts__free(d->trace_skips, d->ntrace_skips);
	for (size_t i = 0; i < d->nconsoles; i++)
		free(d->consoles[i].text);
	free(d->consoles);
	wss__free(d->wss);
	for (size_t i = 0; i < d->nscopes; i++)
		store_strv__free(d->scopes[i].scope, d->scopes[i].n);
	free(d->scopes);
	for (size_t i = 0; i < d->nrd; i++)
		run_data_clear(&d->rd[i]);
	free(d->rd);
	free(d);
}

void report_data__freep(struct report_data **d)
{
	report_data__free(*d);
}

const char *report_data__meta(const struct report_data *d, const char *key)
{
	for (size_t i = 0; i < d->nmeta; i++)
		if (!strcmp(d->meta[i].a, key))
			return d->meta[i].b;
	return NULL;
}

const char *report_data__prov(const struct report_data *d, const char *variant, const char *key)
{
	for (size_t i = 0; i < d->nprov; i++)
		if (!strcmp(d->prov[i].a, variant) && !strcmp(d->prov[i].b, key))
			return d->prov[i].c;
	return NULL;
}

const char *report_data__console(const struct report_data *d, int64_t run_id, size_t *ret_len)
{
	for (size_t i = 0; i < d->nconsoles; i++)
		if (d->consoles[i].run_id == run_id) {
			*ret_len = d->consoles[i].len;
			return d->consoles[i].text;
		}
	return NULL;
}

const struct report_run_data *report_data__run(const struct report_data *d, int64_t run_id)
{
	for (size_t i = 0; i < d->nrd; i++)
		if (d->rd[i].id == run_id)
			return &d->rd[i];
	return NULL;
}

const struct report_series *report_data__series(const struct report_run_data *r,
						const char *metric, const char *scope)
{
	for (size_t i = 0; r && i < r->nseries; i++)
		if (!strcmp(r->series[i].metric, metric) && !strcmp(r->series[i].scope, scope))
			return &r->series[i];
	return NULL;
}

char *const *report_data__scopes(const struct report_data *d, const char *metric, size_t *ret_n)
{
	for (size_t i = 0; i < d->nscopes; i++)
		if (!strcmp(d->scopes[i].metric, metric)) {
			*ret_n = d->scopes[i].n;
			return d->scopes[i].scope;
		}
	*ret_n = 0;
	return NULL;
}
