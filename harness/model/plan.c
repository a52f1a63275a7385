// SPDX-License-Identifier: GPL-2.0
/*
 * The plan parser's driver: the INI text cut by ini.h into sections and keys,
 * each key handed to its section's table (plan-keys.c, plan-variants.c), the
 * whole checked at the end (plan-check.c); loading, freeing and the plan's
 * accessors.
 */
#include "plan-priv.h"
#include "ini.h"
#include "util.h"

#include <string.h>

/*
 * Every key once per section (a [guest] given twice is one section): the
 * same rule, and message, as a recipe's single keys (kbuild-recipe.c).
 */
static int key_once(struct parser *ps, const char *key)
{
	unsigned first = ini__once(&ps->ini, ps->sec_name, key);

	if (first)
		return parser__fail(ps, "'%s' given twice in [%s] (first at line %u)", key,
				    ps->sec_name, first);
	return 0;
}

/* A key of the current section. */
static int section_key(struct parser *ps, const char *k, const char *v)
{
	switch (ps->sec) {
	case SEC_CAMPAIGN:
		return parser__campaign_key(ps, k, v);
	case SEC_GUEST:
		return parser__guest_key(ps, k, v);
	case SEC_VARIANT:
		return parser__variant_key(ps, k, v);
	case SEC_MEMCG:
		return parser__memcg_key(ps, k, v);
	case SEC_WORKLOAD:
		return parser__workload_key(ps, k, v);
	case SEC_NONE:
		break;
	}
	return parser__fail(ps, "'%s' outside any section", k);
}

static int section_start(struct parser *ps, char *hdr)
{
	struct plan *p = ps->p;
	char *name = strchr(hdr, ' ');

	if (name) {
		*name++ = '\0';
		name = strstrip(name);
	}
	free(ps->sec_name);
	ps->sec_name = name ? xasprintf("%s %s", hdr, name) : xstrdup(hdr);
	if (!strcmp(hdr, "campaign") || !strcmp(hdr, "guest")) {
		if (name)
			return parser__fail(ps, "[%s] takes no name", hdr);
		ps->sec = hdr[0] == 'c' ? SEC_CAMPAIGN : SEC_GUEST;
		return 0;
	}
	if (strcmp(hdr, "variant") && strcmp(hdr, "memcg") && strcmp(hdr, "workload"))
		return parser__fail(
		    ps, "unknown section [%s] (campaign, guest, variant, memcg, workload)", hdr);
	if (!name || !ini__name_ok(name))
		return parser__fail(
		    ps, "[%s] needs a name of letters, digits, '.', '_' or '-', got '%s'", hdr,
		    name ? name : "");
	if (!strcmp(hdr, "variant")) {
		for (size_t i = 0; i < p->nvariants; i++)
			if (!strcmp(p->variants[i].name, name))
				return parser__fail(ps, "duplicate [variant %s]", name);
		p->variants = xrealloc(p->variants, p->nvariants + 1, sizeof(*p->variants));
		p->variants[p->nvariants++] = (struct plan_variant){
			.name = xstrdup(name), .min_ttl_ms = -1, .read_ahead_kb = -1,
			.fault_around_bytes = -1, .trace = -1,
			.kernel = xstrdup("debian"), .lru = xstrdup("classic"),
		};
		ps->sec = SEC_VARIANT;
	} else if (!strcmp(hdr, "memcg")) {
		for (size_t i = 0; i < p->nmemcgs; i++)
			if (!strcmp(p->memcgs[i].name, name))
				return parser__fail(ps, "duplicate [memcg %s]", name);
		p->memcgs = xrealloc(p->memcgs, p->nmemcgs + 1, sizeof(*p->memcgs));
		p->memcgs[p->nmemcgs++] = (struct plan_memcg){ .name = xstrdup(name) };
		ps->sec = SEC_MEMCG;
	} else {
		for (size_t i = 0; i < p->nworkloads; i++)
			if (!strcmp(p->workloads[i].name, name))
				return parser__fail(ps, "duplicate [workload %s]", name);
		p->workloads = xrealloc(p->workloads, p->nworkloads + 1, sizeof(*p->workloads));
		p->workloads[p->nworkloads++] = (struct plan_workload){ .name = xstrdup(name) };
		ps->sec = SEC_WORKLOAD;
	}
	return 0;
}

const char *plan_variant__memcg(const struct plan_variant *v, const char *memcg, const char *file)
{
	size_t len = strlen(memcg);

	for (size_t i = v->nmemcg_files; i-- > 0;) {
		const char *k = v->memcg_files[i].key;

		if (!strncmp(k, memcg, len) && k[len] == '.' && !strcmp(k + len + 1, file))
			return v->memcg_files[i].value;
	}
	return NULL;
}

const char *plan__variant_thp(const struct plan *p, const struct plan_variant *v)
{
	return v->thp ? v->thp : p->thp;
}

bool plan__variant_trace(const struct plan *p, const struct plan_variant *v)
{
	return v->trace >= 0 ? v->trace : p->trace;
}

int plan__parse(const char *path, const char *text, struct plan **ret, char **ret_err)
{
	_cleanup_(plan__freep) struct plan *p = xcalloc(1, sizeof(*p));
	struct parser ps = { .path = path, .p = p };
	_cleanup_free_ char *msg = NULL;
	struct ini_item it;
	int r;

	*p = (struct plan){
		.path = xstrdup(path), .text = xstrdup(text), .name = xstrdup("campaign"),
		.repetitions = 2, .retries = 1, .seed = 1, .interval_ms = 1000, .timeout_ms = 600000,
		.mem_bytes = 1ull << 30, .swap = xstrdup("zram"),
		.cgroup2_options = xstrdup(PLAN_CGROUP2_OPTIONS_DEFAULT), .clock = xstrdup(PLAN_CLOCK_REAL),
		.clock_sleep = true, .numa = 1,
		.swap_bytes = 1ull << 30, .thp = xstrdup("never"), .cmdline = xstrdup(""),
		.trace = true,
	};
	ini__init(&ps.ini, text);
	while ((r = ini__next(&ps.ini, &it, &msg)) > 0) {
		_cleanup_free_ char *hdr = NULL;

		ps.line = (int)ps.ini.line;
		if (it.section) {
			hdr = xstrdup(it.section);
			r = section_start(&ps, hdr);
		} else if (ps.sec == SEC_NONE) {
			r = parser__fail(&ps, "'%s' outside any section", it.key);
		} else {
			r = key_once(&ps, it.key);
			if (r == 0)
				r = section_key(&ps, it.key, it.value);
		}
		if (r < 0)
			break;
	}
	if (msg) {
		/* The tokenizer's message, prefixed and escaped as the parser's own. */
		ps.line = (int)ps.ini.line;
		r = parser__fail(&ps, "%s", msg);
	}
	if (r == 0)
		r = parser__finish(&ps);
	ini__clear(&ps.ini);
	free(ps.sec_name);
	if (r < 0) {
		*ret_err = ps.err ? ps.err : xasprintf("%s: invalid plan", path);
		return r;
	}
	*ret = TAKE_PTR(p);
	return 0;
}

int plan__load(const char *path, struct plan **ret, char **ret_err)
{
	_cleanup_free_ char *text = NULL;
	int r = ini__read(path, NULL, "a plan", &text, ret_err);

	return r < 0 ? r : plan__parse(path, text, ret, ret_err);
}

void plan__free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant__clear(&p->variants[i]);
	for (size_t i = 0; i < p->nmemcgs; i++) {
		free(p->memcgs[i].name);
		kv__free(p->memcgs[i].files, p->memcgs[i].nfiles);
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		free(p->workloads[i].name);
		free(p->workloads[i].memcg);
		free(p->workloads[i].key);
		free(p->workloads[i].after);
		free(p->workloads[i].numa_policy);
		free(p->workloads[i].cpu_affinity);
		kv__free(p->workloads[i].params, p->workloads[i].nparams);
	}
	free(p->variants);
	free(p->memcgs);
	free(p->workloads);
	free(p->path);
	free(p->text);
	free(p->name);
	free(p->baseline);
	free(p->swap);
	free(p->zram_comp);
	free(p->cgroup2_options);
	free(p->thp);
	free(p->cmdline);
	free(p->clock);
	free(p->remap);
	free(p->agent_conf);
	free(p);
}

void plan__freep(struct plan **p)
{
	plan__free(*p);
}
