// SPDX-License-Identifier: GPL-2.0
/*
 * Working-set size (wss.h): the measuring form of a plan, the estimates
 * from the probe's windows, the known values beside them, their table.
 */
#include "wss.h"
#include "catalogue.h"
#include "plan.h"
#include "store-dataset.h"
#include "store-wss.h"
#include "store.h"
#include "util.h"
#include "wss-model.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define WSS_PAGE 4096.0

/* ---- options ------------------------------------------------------------ */

char *wss_opts__format(const struct wss_opts *o)
{
	return xasprintf("variant=%s;lru=%s;methods=%s;start_ms=%" PRIu64 ";window_ms=%" PRIu64
			 ";windows=%" PRIu64,
			 o->variant ? o->variant : "", o->lru ? o->lru : "mglru",
			 o->methods ? o->methods : "", o->start_ms, o->window_ms, o->windows);
}

void wss_opts__clear(struct wss_opts *o)
{
	free(o->variant);
	free(o->lru);
	free(o->methods);
	*o = (struct wss_opts){ 0 };
}

int wss_opts__parse(const char *text, struct wss_opts *ret, char **ret_err)
{
	_cleanup_free_ char *copy = xstrdup(text);
	struct wss_opts o = { 0 };
	char *save = NULL;

	for (char *kv = strtok_r(copy, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
		char *v = strchr(kv, '=');
		uint64_t *num = NULL;
		char **str = NULL;

		if (!v)
			goto bad;
		*v++ = '\0';
		if (!strcmp(kv, "variant"))
			str = &o.variant;
		else if (!strcmp(kv, "lru"))
			str = &o.lru;
		else if (!strcmp(kv, "methods"))
			str = &o.methods;
		else if (!strcmp(kv, "start_ms"))
			num = &o.start_ms;
		else if (!strcmp(kv, "window_ms"))
			num = &o.window_ms;
		else if (!strcmp(kv, "windows"))
			num = &o.windows;
		else
			goto bad;
		if (str) {
			free(*str);
			*str = *v ? xstrdup(v) : NULL;
		} else if (parse_u64(v, num) < 0) {
			goto bad;
		}
	}
	if (o.lru && strcmp(o.lru, "mglru") && strcmp(o.lru, "classic")) {
		*ret_err = xasprintf("wss options: lru '%s' (mglru or classic)", o.lru);
		wss_opts__clear(&o);
		return -EINVAL;
	}
	if (!o.window_ms || !o.windows) {
		*ret_err = xstrdup("wss options: no window_ms or windows");
		wss_opts__clear(&o);
		return -EINVAL;
	}
	*ret = o;
	return 0;
bad:
	*ret_err = xasprintf("wss options: bad '%s'", text);
	wss_opts__clear(&o);
	return -EINVAL;
}

/* ---- the measuring form of a plan ---------------------------------------- */

/* The memcg limits a working set is measured without. */
static bool is_limit(const char *file)
{
	return !strcmp(file, "memory.max") || !strcmp(file, "memory.high") ||
	       !strcmp(file, "memory.swap.max");
}

static void drop_limits(struct kv *kv, size_t *n, size_t skip)
{
	size_t out = 0;

	for (size_t i = 0; i < *n; i++) {
		if (is_limit(kv[i].key + skip)) {
			free(kv[i].key);
			free(kv[i].value);
			continue;
		}
		kv[out++] = kv[i];
	}
	*n = out;
}

int wss__plan(struct plan *p, const struct wss_opts *o, char **ret_err)
{
	bool classic = o->lru && !strcmp(o->lru, "classic");
	const char *methods = o->methods ? o->methods : classic ? "ref,drop" : "gen,ref,drop";
	struct plan_variant *v;
	int r;

	if (classic && strstr(methods, "gen")) {
		*ret_err = xstrdup("wss: method gen (MGLRU aging) needs lru mglru");
		return -EINVAL;
	}
	/*
	 * memory.reclaim ages too, and with swap off without anon: inc_max_seq() then
	 * bumps the anon min_seq without moving its folios, and the oldest anon pages
	 * reappear in the youngest generation (measured: 1923 idle pages of fio a window)
	 */
	if (strstr(methods, "gen") && strstr(methods, "reclaim")) {
		*ret_err = xstrdup("wss: methods gen and reclaim do not mix: memory.reclaim's own "
				   "aging (swap off) puts the oldest anon pages in the youngest "
				   "generation; use drop, or ref with reclaim");
		return -EINVAL;
	}
	r = plan__keep_variant(p, o->variant, classic ? "wss-classic" : "wss-mglru", ret_err);
	if (r < 0)
		return r;
	v = &p->variants[0];
	free(v->lru);
	v->lru = xstrdup(classic ? "classic" : "mglru");
	v->lru_enabled = classic ? 0 : 0x0007;
	/* a variant's memcg.NAME.memory.max and the [memcg] limits */
	for (size_t i = 0; i < v->nmemcg_files; i++) {
		const char *dot = strstr(v->memcg_files[i].key, ".memory.");

		if (dot && is_limit(dot + 1)) {
			free(v->memcg_files[i].key);
			free(v->memcg_files[i].value);
			v->memcg_files[i--] = v->memcg_files[--v->nmemcg_files];
		}
	}
	for (size_t i = 0; i < p->nmemcgs; i++)
		drop_limits(p->memcgs[i].files, &p->memcgs[i].nfiles, 0);
	free(p->swap);
	p->swap = xstrdup("none");
	p->adaptive = false;
	free(p->agent_conf);
	p->agent_conf = xasprintf("wss_methods=%s\nwss_start_ms=%" PRIu64 "\nwss_window_ms=%" PRIu64
				  "\nwss_windows=%" PRIu64 "\n",
				  methods, o->start_ms, o->window_ms, o->windows);
	{
		char *name = xasprintf("%s-wss", p->name);

		free(p->name);
		p->name = name;
	}
	return 0;
}

/* ---- the windows ---------------------------------------------------------- */

enum {
	K_GEN_NS,
	K_GEN_ANON,
	K_GEN_FILE,
	K_REF_NS,
	K_REF_ANON,
	K_REF_FILE,
	K_RECLAIM_NS,
	K_RECLAIM_FILE,
	K_DROP_NS,
	K_DROP_FILE,
	K_READS,
	K_READS_NS,
	NKEYS,
};

static const char *const key_names[NKEYS] = {
	"wss:gen.window_ns", "wss:gen.anon",	     "wss:gen.file",	     "wss:ref.window_ns",
	"wss:ref.anon",	     "wss:ref.file",	     "wss:reclaim.window_ns", "wss:reclaim.file",
	"wss:drop.window_ns", "wss:drop.file",	     "wss:reads",	     "wss:reads.window_ns",
};

struct window {
	int64_t run, seq;
	int64_t t_end; /* the sample right after the window (guest monotonic ns) */
	char *memcg;
	double v[NKEYS];
	bool has[NKEYS];
};

/*
 * One estimate: the sum of up to three parts of a window, the first one's
 * window its length. Only single-part rows have a known value (a total's
 * parts are the rows above it).
 */
#define PARTS 3
struct spec {
	const char *quantity, *method;
	int key[PARTS], ns;
	const char *kind; /* the models standing beside it; NULL: none */
};

static const struct spec specs[] = {
	{ "anon", "gen", { K_GEN_ANON, -1, -1 }, K_GEN_NS, "anon" },
	{ "anon", "ref", { K_REF_ANON, -1, -1 }, K_REF_NS, "anon" },
	{ "file", "drop", { K_DROP_FILE, -1, -1 }, K_DROP_NS, "file" },
	{ "file", "reclaim", { K_RECLAIM_FILE, -1, -1 }, K_RECLAIM_NS, "file" },
	{ "file-mapped", "gen", { K_GEN_FILE, -1, -1 }, K_GEN_NS, NULL },
	{ "file-mapped", "ref", { K_REF_FILE, -1, -1 }, K_REF_NS, NULL },
	/* total: the first that the windows have. drop leaves out the mapped pages that
	 * stayed; reclaim counts every file page touched */
	{ "total", "gen+drop", { K_GEN_ANON, K_GEN_FILE, K_DROP_FILE }, K_GEN_NS, NULL },
	{ "total", "ref+drop", { K_REF_ANON, K_REF_FILE, K_DROP_FILE }, K_REF_NS, NULL },
	{ "total", "gen+reclaim", { K_GEN_ANON, K_RECLAIM_FILE, -1 }, K_GEN_NS, NULL },
	{ "total", "ref+reclaim", { K_REF_ANON, K_RECLAIM_FILE, -1 }, K_REF_NS, NULL },
	{ "total", "gen", { K_GEN_ANON, K_GEN_FILE, -1 }, K_GEN_NS, NULL },
	{ "total", "ref", { K_REF_ANON, K_REF_FILE, -1 }, K_REF_NS, NULL },
};

struct analysis_ctx {
	struct store *st;
	struct plan *plan;
	struct window *win;
	size_t nwin;
	char *source;
};

static int load_windows(struct analysis_ctx *c)
{
	struct store_value *vals = NULL;
	struct window *cur = NULL;
	size_t n = 0;

	if (store__completed_values(c->st, "wss:%", &vals, &n) < 0)
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		const struct store_value *v = &vals[i];

		if (!cur || cur->run != v->run_id || cur->seq != v->seq ||
		    strcmp(cur->memcg, v->scope)) {
			c->win = xrealloc(c->win, c->nwin + 1, sizeof(*c->win));
			cur = &c->win[c->nwin++];
			*cur = (struct window){ .run = v->run_id,
						.seq = v->seq,
						.t_end = v->t_ns,
						.memcg = xstrdup(v->scope) };
		}
		for (int k = 0; k < NKEYS; k++) {
			if (!strcmp(v->metric, key_names[k])) {
				cur->v[k] = (double)v->v;
				cur->has[k] = true;
			}
		}
	}
	store_values__free(vals, n);
	return 0;
}

/*
 * Whether every workload of the window's memcg ran through the whole window:
 * started before its earliest start mark, still running at its end (the
 * agent's workload-start and workload-exit events).
 */
static bool window_whole(struct analysis_ctx *c, const struct window *win)
{
	static const int ns_keys[] = { K_GEN_NS, K_REF_NS, K_RECLAIM_NS, K_DROP_NS, K_READS_NS };
	static const char *const workload_events[] = { "workload-start", "workload-exit" };
	double longest = 0;
	bool whole = true;

	for (size_t k = 0; k < ARRAY_SIZE(ns_keys); k++)
		if (win->has[ns_keys[k]])
			longest = fmax(longest, win->v[ns_keys[k]]);
	for (size_t i = 0; i < c->plan->nworkloads && whole; i++) {
		const struct plan_workload *w = &c->plan->workloads[i];
		struct store_event *ev = NULL;
		bool started = false;
		size_t nev = 0;

		if (strcmp(w->memcg, win->memcg))
			continue;
		if (store__run_events(c->st, win->run, workload_events,
				      ARRAY_SIZE(workload_events), &ev, &nev) < 0)
			return true;
		for (size_t e = 0; e < nev; e++) {
			const char *text = ev[e].text;
			size_t n = strlen(w->name);
			int64_t t = ev[e].t_ns;

			if (strncmp(text, w->name, n) || text[n] != ' ')
				continue;
			if (!strcmp(ev[e].kind, "workload-start")) {
				started = true;
				whole &= (double)t <= (double)win->t_end - longest;
			} else {
				whole &= t >= win->t_end;
			}
		}
		store_events__free(ev, nev);
		whole &= started;
	}
	return whole;
}

/* A workload's own throughput in a run (NAN if it reported none). */
static double throughput(struct store *st, int64_t run, const char *workload)
{
	double v;

	return store__result_get(st, run, workload, "throughput", &v) == 0 ? v : NAN;
}

enum known_state { KNOWN_OK, KNOWN_NONE_OF_KIND, KNOWN_UNKNOWN };

/*
 * The known pages of a memcg's workloads of one kind over a window: the sum
 * of their models (*how: how each was found). KNOWN_UNKNOWN if a workload of
 * the memcg has no model or its model cannot say; KNOWN_NONE_OF_KIND if no
 * workload there is of this kind.
 */
static enum known_state known_kind(struct analysis_ctx *c, const struct window *win,
				   const char *kind, double window_s, double *ret, char **how)
{
	enum known_state state = KNOWN_NONE_OF_KIND;
	const char *memcg = win->memcg;
	double sum = 0;
	size_t len = 0, here = 0;
	FILE *f = open_memstream(how, &len);

	/* the memcg's read() count is one workload's only when it runs alone there */
	for (size_t i = 0; i < c->plan->nworkloads; i++)
		here += !strcmp(c->plan->workloads[i].memcg, memcg);

	for (size_t i = 0; i < c->plan->nworkloads; i++) {
		const struct plan_workload *w = &c->plan->workloads[i];
		const struct wss_model *m = wss_model_find(w->def->name);
		struct wss_model_in in = { .w = w, .window_s = window_s };
		_cleanup_free_ char *why = NULL;
		double pages = 0;

		if (strcmp(w->memcg, memcg))
			continue;
		if (!m) {
			fprintf(f, "%s%s (%s) has no model", len ? "; " : "", w->name, w->def->name);
			fflush(f);
			state = KNOWN_UNKNOWN;
			continue;
		}
		if (strcmp(m->kind, kind))
			continue;
		in.throughput = throughput(c->st, win->run, w->name);
		in.reads = here == 1 && win->has[K_READS] ? win->v[K_READS] : NAN;
		in.reads_window_s = win->v[K_READS_NS] / 1e9;
		if (m->known(&in, &pages, &why) < 0)
			state = KNOWN_UNKNOWN;
		else if (state == KNOWN_NONE_OF_KIND)
			state = KNOWN_OK;
		fprintf(f, "%s%s: %s", len ? "; " : "", w->name, why);
		fflush(f);
		sum += pages;
	}
	fclose(f);
	*ret = sum;
	return state;
}

static void row_add(struct wss *w, const struct wss_row *r)
{
	w->rows = xrealloc(w->rows, w->nrows + 1, sizeof(*w->rows));
	w->rows[w->nrows++] = *r;
}

/* The row of one memcg for one spec, if its windows have every part. */
static bool spec_rows(struct analysis_ctx *c, struct wss *out, const char *memcg,
		      const struct spec *sp)
{
	double sum = 0, sum2 = 0, ksum = 0, wsum = 0;
	size_t n = 0;
	char *model = NULL;

	for (size_t i = 0; i < c->nwin; i++) {
		const struct window *win = &c->win[i];
		double pages = 0;
		bool all = !strcmp(win->memcg, memcg) && win->has[sp->ns];

		for (int part = 0; part < PARTS && all && sp->key[part] >= 0; part++) {
			all = win->has[sp->key[part]];
			pages += win->v[sp->key[part]];
		}
		if (!all)
			continue;
		sum += pages;
		sum2 += pages * pages;
		wsum += win->v[sp->ns] / 1e9;
		if (sp->kind) {
			char *how = NULL;
			double k = 0;

			if (known_kind(c, win, sp->kind, win->v[sp->ns] / 1e9, &k, &how) !=
			    KNOWN_OK)
				k = NAN;
			ksum += k;
			if (!model)
				model = how;
			else
				free(how);
		}
		n++;
	}
	if (!n) {
		free(model);
		return false;
	}
	{
		double mean = sum / (double)n;
		struct wss_row r = {
			.memcg = xstrdup(memcg),
			.quantity = xstrdup(sp->quantity),
			.method = xstrdup(sp->method),
			.pages = mean,
			.sd = n > 1 ? sqrt(fmax(0, (sum2 - (double)n * mean * mean) / (double)(n - 1))) :
				      NAN,
			.windows = n,
			.window_s = wsum / (double)n,
			.known = sp->kind ? ksum / (double)n : NAN,
			.source = xstrdup(c->source),
		};

		if (model && *model)
			r.model = model;
		else {
			free(model);
			r.model = xstrdup(!sp->kind ? "no model for this quantity" :
				  "no workload here has a model of it");
		}
		row_add(out, &r);
	}
	return true;
}

static uint64_t global_reclaim(struct store *st)
{
	static const char *const steals[] = { "vmstat:pgsteal_kswapd", "vmstat:pgsteal_direct" };
	uint64_t pages = 0;

	if (store__completed_span_sum(st, steals, ARRAY_SIZE(steals), &pages) < 0)
		return 0;
	return pages;
}

static char *source_text(struct store *st)
{
	_cleanup_free_ char *campaign = NULL;
	struct store_variant *v = NULL;
	size_t n = 0;
	char *s = NULL;

	if (store__meta_get(st, "campaign", &campaign) < 0)
		campaign = xstrdup("?");
	if (store__variants(st, &v, &n) == 0 && n)
		s = xasprintf("%s (kernel %s, %s)", campaign, v[0].kernel, v[0].lru_mode);
	store_variants__free(v, n);
	return s ? s : xstrdup(campaign);
}

int wss__analyse(struct store *st, struct wss **ret)
{
	_cleanup_free_ char *text = NULL, *path = NULL, *err = NULL;
	struct analysis_ctx c = { .st = st };
	struct wss *w = xcalloc(1, sizeof(*w));
	int r;

	if (store__meta_get(st, "plan.text", &text) < 0 ||
	    store__meta_get(st, "plan.path", &path) < 0) {
		r = -EINVAL;
		goto out;
	}
	/* the plan as written: its workloads (unchanged by the measuring form), its limits */
	r = plan__parse(path, text, &c.plan, &err);
	if (r < 0) {
		log_err("%s", err);
		goto out;
	}
	store__commit(st);
	r = load_windows(&c);
	if (r < 0)
		goto out;
	/* windows a workload of the memcg did not run through are left out */
	for (size_t i = 0, kept = 0; i < c.nwin; i++) {
		if (window_whole(&c, &c.win[i])) {
			c.win[kept++] = c.win[i];
		} else {
			free(c.win[i].memcg);
			w->windows_partial++;
		}
		if (i + 1 == c.nwin)
			c.nwin = kept;
	}
	if (!c.nwin) {
		r = -ENODATA;
		goto out;
	}
	c.source = source_text(st);
	for (size_t m = 0; m < c.plan->nmemcgs; m++) {
		const char *memcg = c.plan->memcgs[m].name;
		bool total = false;

		for (size_t s = 0; s < ARRAY_SIZE(specs); s++) {
			if (!strcmp(specs[s].quantity, "total") && total)
				continue;
			if (spec_rows(&c, w, memcg, &specs[s]) && !strcmp(specs[s].quantity, "total"))
				total = true;
		}
	}
	w->global_reclaim = global_reclaim(st);
	*ret = TAKE_PTR(w);
	r = 0;
out:
	for (size_t i = 0; i < c.nwin; i++)
		free(c.win[i].memcg);
	free(c.win);
	free(c.source);
	plan__free(c.plan);
	wss__free(w);
	return r;
}

/* ---- the table ------------------------------------------------------------ */

int wss__store(struct store *st, const struct wss *w)
{
	return store__wss_write(st, w->rows, w->nrows);
}

int wss__load(struct store *st, struct wss **ret)
{
	struct wss *w = xcalloc(1, sizeof(*w));
	int r = store__wss_read(st, &w->rows, &w->nrows);

	if (r < 0) {
		free(w);
		return r;
	}
	*ret = w;
	return 0;
}

const struct wss_row *wss__find(const struct wss *w, const char *memcg, const char *quantity)
{
	for (size_t i = 0; w && i < w->nrows; i++)
		if (!strcmp(w->rows[i].memcg, memcg) && !strcmp(w->rows[i].quantity, quantity))
			return &w->rows[i];
	return NULL;
}

/* ---- printing ------------------------------------------------------------- */

void wss__print(const struct wss *w, FILE *f)
{
	fprintf(f, "%-10s %-11s %-11s %9s %7s %8s %7s %9s %7s  %s\n", "memcg", "quantity",
		"method", "pages", "sd", "MiB", "window", "known", "error",
		"model (its first window)");
	for (size_t i = 0; i < w->nrows; i++) {
		const struct wss_row *r = &w->rows[i];
		char sd[16], known[16], err[16];

		snprintf(sd, sizeof(sd), isfinite(r->sd) ? "%.0f" : "-", r->sd);
		snprintf(known, sizeof(known), isfinite(r->known) ? "%.0f" : "-", r->known);
		snprintf(err, sizeof(err), isfinite(r->known) && r->known > 0 ? "%+.1f%%" : "-",
			 100.0 * (r->pages / r->known - 1));
		fprintf(f, "%-10s %-11s %-11s %9.0f %7s %8.1f %5.1f s %9s %7s  %s\n", r->memcg,
			r->quantity, r->method, r->pages, sd, r->pages * WSS_PAGE / 1048576.0,
			r->window_s, known, err, r->model);
	}
	if (w->nrows)
		fprintf(f, "  %zu window(s) a row; %s\n", w->rows[0].windows, w->rows[0].source);
	if (w->windows_partial)
		fprintf(f, "  %zu window(s) left out: a workload of the memcg started or ended in them\n",
			w->windows_partial);
	for (size_t i = 0; i < w->nrows; i++)
		if (!strcmp(w->rows[i].quantity, "total") && w->rows[i].sd > 0.25 * w->rows[i].pages)
			fprintf(f, "  %s: its windows disagree (sd %.0f%% of the mean): its workloads were "
				   "not in a steady state; start later or take longer windows\n",
				w->rows[i].memcg, 100 * w->rows[i].sd / w->rows[i].pages);
	if (w->global_reclaim)
		fprintf(f, "  WARNING: %" PRIu64 " pages were reclaimed by kswapd or direct reclaim "
			   "during the runs: the guest was short of memory and the estimates are low\n",
			w->global_reclaim);
}

static void limit_line(FILE *f, const char *memcg, const char *who, const char *limit,
		       const struct wss_row *t)
{
	uint64_t bytes;
	double ws = t->pages * WSS_PAGE;

	if (!limit || parse_size(limit, &bytes) < 0) {
		fprintf(f, "%-10s %-14s %12s %10.1f MiB %10s\n", memcg, who, limit ? limit : "max",
			ws / 1048576.0, "-");
		return;
	}
	fprintf(f, "%-10s %-14s %8.1f MiB %10.1f MiB %10.2f\n", memcg, who, (double)bytes / 1048576.0,
		ws / 1048576.0, ws > 0 ? (double)bytes / ws : NAN);
}

void wss__print_limits(const struct wss *w, const struct plan *p, FILE *f)
{
	const struct wss_row *any = NULL;

	for (size_t m = 0; m < p->nmemcgs; m++) {
		const struct plan_memcg *pm = &p->memcgs[m];
		const struct wss_row *t = wss__find(w, pm->name, "total");
		const char *limit = NULL;

		if (!t)
			continue;
		if (!any)
			fprintf(f, "%-10s %-14s %12s %14s %10s\n", "memcg", "limit of", "memory.max",
				"working set", "limit / ws");
		any = t;
		for (size_t i = 0; i < pm->nfiles; i++)
			if (!strcmp(pm->files[i].key, "memory.max"))
				limit = pm->files[i].value;
		limit_line(f, pm->name, "[memcg]", limit, t);
		for (size_t v = 0; v < p->nvariants; v++) {
			const char *own = plan_variant__memcg(&p->variants[v], pm->name, "memory.max");

			if (own)
				limit_line(f, pm->name, p->variants[v].name, own, t);
		}
	}
	if (any)
		fprintf(f, "  working set: the total of 'lrubench wss' (%s, %.1f s windows), %s\n",
			any->method, any->window_s, any->source);
}

void wss__free(struct wss *w)
{
	if (!w)
		return;
	wss_rows__free(w->rows, w->nrows);
	free(w);
}

void wss__freep(struct wss **w)
{
	wss__free(*w);
}
