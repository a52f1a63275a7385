// SPDX-License-Identifier: GPL-2.0
/*
 * What is checked once the whole plan is read: sizes against the guest (memcg
 * limits, each variant's, absolute workload sizes), the sweeps expanded, the
 * cross-references (baseline, memcgs), required keys and relative
 * sizes resolved; and the scratch disk's size, which bounds a file set.
 */
#include "plan-priv.h"
#include "catalogue.h"
#include "mempolicy.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* bytes as a plan would write them: 1G, 384M, 4K, or a plain number. */
static const char *size_str(char buf[static 32], uint64_t bytes)
{
	static const char units[] = "TGMK";

	for (int i = 0; i < 4; i++) {
		unsigned shift = 10 * (4 - (unsigned)i);

		if (bytes && !(bytes & ((1ull << shift) - 1))) {
			snprintf(buf, 32, "%llu%c", (unsigned long long)(bytes >> shift), units[i]);
			return buf;
		}
	}
	snprintf(buf, 32, "%llu", (unsigned long long)bytes);
	return buf;
}

/*
 * A memcg file's value (in bytes, or "max") against the guest: memory.* limits
 * above its memory, swap ones above its zram, are never reached and say the
 * plan means another size (64G for 64M). what names the key for the message.
 */
static int memcg_fits(struct parser *ps, const char *what, const char *file, const char *value)
{
	const struct plan *p = ps->p;
	bool swap = !strncmp(file, "memory.swap.", 12);
	uint64_t bytes, room = swap ? p->swap_bytes : p->mem_bytes;
	char b1[32], b2[32];

	if (!strcmp(value, "max") || parse_u64(value, &bytes) < 0)
		return 0;
	if (strcmp(file, "memory.max") && strcmp(file, "memory.high") &&
	    strcmp(file, "memory.low") && strcmp(file, "memory.min") &&
	    (!swap || strcmp(p->swap, "zram")))
		return 0;
	if (bytes <= room)
		return 0;
	return parser__fail(ps, "%s = %s is more than the guest's %s (%s)", what,
			    size_str(b1, bytes), swap ? "swap, swap_size" : "memory",
			    size_str(b2, room));
}

/*
 * Sizes against the guest, once [guest] is known: memcg limits (and each
 * variant's), absolute workload sizes (a relative one follows its memcg),
 * each error at the key's line.
 */
static int plan_fits(struct parser *ps)
{
	struct plan *p = ps->p;
	char b1[32], b2[32], b3[32];
	int r;

	for (size_t i = 0; i < p->nmemcgs; i++) {
		const struct plan_memcg *m = &p->memcgs[i];
		_cleanup_free_ char *sec = xasprintf("memcg %s", m->name);

		for (size_t j = 0; j < m->nfiles; j++) {
			_cleanup_free_ char *what = xasprintf("[memcg %s] %s", m->name,
							      m->files[j].key);

			ps->line = parser__seen_line(ps, sec, m->files[j].key);
			r = memcg_fits(ps, what, m->files[j].key, m->files[j].value);
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < p->nvariants; i++) {
		const struct plan_variant *v = &p->variants[i];
		_cleanup_free_ char *sec = xasprintf("variant %s", v->name);

		for (size_t j = 0; j < v->nmemcg_files; j++) {
			const char *file = strstr(v->memcg_files[j].key, ".memory.");
			_cleanup_free_ char *key = xasprintf("memcg.%s", v->memcg_files[j].key);
			_cleanup_free_ char *what = xasprintf("[variant %s] %s", v->name, key);

			if (!file)
				continue;
			ps->line = parser__seen_line(ps, sec, key);
			r = memcg_fits(ps, what, file + 1, v->memcg_files[j].value);
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		_cleanup_free_ char *sec = xasprintf("workload %s", w->name);
		/* A file set may outgrow memory (page cache): a scratch disk bounds it. */
		uint64_t disk = w->def && w->def->scratch ? plan__scratch_bytes(p) : 0;
		uint64_t room = disk > p->mem_bytes ? disk : p->mem_bytes;

		for (size_t j = 0; w->def && j < w->nparams; j++) {
			const struct wl_param *prm = workload_param(w->def, w->params[j].key);
			const char *v = w->params[j].value;
			uint64_t bytes;

			if (!prm || prm->type != WLP_SIZE || v[strlen(v) - 1] == 'x' ||
			    parse_size(v, &bytes) < 0 || bytes <= room)
				continue;
			ps->line = parser__seen_line(ps, sec, w->params[j].key);
			if (disk > p->mem_bytes)
				return parser__fail(
				    ps,
				    "[workload %s] %s = %s is more than the guest's memory "
				    "(%s) and its scratch disk (%s)",
				    w->name, prm->name, v, size_str(b1, p->mem_bytes),
				    size_str(b2, disk));
			return parser__fail(
			    ps, "[workload %s] %s = %s is more than the guest's memory (%s)",
			    w->name, prm->name, v, size_str(b3, p->mem_bytes));
		}
	}
	return 0;
}

/* Each workload's cpu_affinity and numa_policy name only vCPUs and nodes the guest has. */
static int placements_fit(struct parser *ps)
{
	const struct plan *p = ps->p;

	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		struct mempolicy m = { 0 };
		uint64_t cpus = 0;
		const char *why;
		int top;

		/* both parsed when set (plan-keys.c): here only their highest number counts */
		if (w->cpu_affinity && mempolicy_node_list(w->cpu_affinity, &cpus) == 0 &&
		    (top = 63 - __builtin_clzll(cpus)) >= p->cpus) {
			ps->line = w->cpu_affinity_line;
			return parser__fail(ps,
					    "cpu_affinity '%s' of [workload %s] names vCPU %d; the "
					    "guest has %d ([guest] cpus, or the clock's default)",
					    w->cpu_affinity, w->name, top, p->cpus);
		}
		if (w->numa_policy && mempolicy_parse(w->numa_policy, &m, &why) == 0 &&
		    (top = mempolicy__max_node(&m)) >= p->numa) {
			ps->line = w->numa_policy_line;
			return parser__fail(ps,
					    "numa_policy '%s' of [workload %s] names node %d; the "
					    "guest has %d node%s ([guest] numa = %d)",
					    w->numa_policy, w->name, top, p->numa,
					    p->numa == 1 ? "" : "s", p->numa);
		}
	}
	return 0;
}

int plan__placements_check(const struct plan *p, char **ret_err)
{
	struct parser ps = { .path = p->path, .p = (struct plan *)p };
	int r = placements_fit(&ps);

	*ret_err = ps.err;
	return r;
}

/* After parsing: sweeps, cross-references, required keys, relative sizes. */
int parser__finish(struct parser *ps)
{
	struct plan *p = ps->p;
	int r;

	ps->line = 0;
	if (!p->nvariants)
		return parser__fail(ps, "no [variant NAME] section");
	plan__set_clock(p, p->clock); /* the vCPUs the clock gives where the plan says none */
	if (p->numa > 1 && p->mem_bytes / (uint64_t)p->numa < PLAN_NUMA_NODE_MIN) {
		char b1[32], b2[32];

		ps->line = ps->numa_line;
		return parser__fail(ps,
				    "numa = %d with memory = %s leaves %s a node; a node needs %s "
				    "at least (raise memory or lower numa)",
				    p->numa, size_str(b1, p->mem_bytes),
				    size_str(b2, p->mem_bytes / (uint64_t)p->numa), "128M");
	}
	r = placements_fit(ps);
	if (r < 0)
		return r;
	ps->line = 0;
	/* Before sweeps rename the variants: errors name the line of the key. */
	r = plan_fits(ps);
	if (r < 0)
		return r;
	r = parser__variants_expand(ps);
	if (r < 0)
		return r;
	ps->line = 0;
	if (!p->nworkloads)
		return parser__fail(ps, "no [workload NAME] section");
	if (p->baseline) {
		bool found = false;

		for (size_t i = 0; i < p->nvariants; i++)
			found |= !strcmp(p->variants[i].name, p->baseline);
		if (!found)
			return parser__fail(
			    ps,
			    "baseline '%s' is not a variant (a swept variant is named "
			    "NAME-KNOBVALUE, e.g. %s)",
			    p->baseline, p->variants[0].name);
	} else {
		p->baseline = xstrdup(p->variants[0].name);
	}
	if (p->adaptive) {
		if (!p->min_repetitions)
			p->min_repetitions = 3;
		if (!p->max_repetitions)
			p->max_repetitions = p->min_repetitions > 8 ? p->min_repetitions : 8;
		if (p->max_repetitions < p->min_repetitions) {
			ps->line = ps->bounds_line;
			return parser__fail(ps, "max_repetitions %d is below min_repetitions %d",
					    p->max_repetitions, p->min_repetitions);
		}
		p->repetitions = p->min_repetitions;
	} else if (p->min_repetitions || p->max_repetitions || p->max_time_ms) {
		ps->line = ps->bounds_line;
		return parser__fail(ps,
				    "min_repetitions, max_repetitions and max_time apply only with "
				    "repetitions = auto");
	}
	if (p->warmup >= p->repetitions)
		return parser__fail(ps, "warmup %d leaves none of the %d repetitions measured",
				    p->warmup, p->repetitions);
	for (size_t i = 0; i < p->nvariants; i++) {
		const struct plan_variant *v = &p->variants[i];

		for (size_t j = 0; j < v->nmemcg_files; j++) {
			bool found = false;

			for (size_t k = 0; k < p->nmemcgs; k++) {
				size_t len = strlen(p->memcgs[k].name);

				found |= !strncmp(v->memcg_files[j].key, p->memcgs[k].name, len) &&
					 !strncmp(v->memcg_files[j].key + len, ".memory.", 8);
			}
			if (!found)
				return parser__fail(ps, "[variant %s] memcg.%s: no such [memcg]",
						    v->name, v->memcg_files[j].key);
		}
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		struct plan_workload *w = &p->workloads[i];
		struct plan_memcg *m = NULL;

		if (!w->def)
			return parser__fail(ps, "[workload %s] has no type", w->name);
		if (!w->memcg)
			return parser__fail(ps, "[workload %s] has no memcg", w->name);
		for (size_t j = 0; j < p->nmemcgs; j++)
			if (!strcmp(p->memcgs[j].name, w->memcg))
				m = &p->memcgs[j];
		if (!m)
			return parser__fail(
			    ps, "[workload %s] names memcg '%s', which has no [memcg] section",
			    w->name, w->memcg);
		for (const struct wl_param *prm = w->def->params; prm->name; prm++) {
			bool set = false;

			for (size_t j = 0; j < w->nparams; j++)
				set |= !strcmp(w->params[j].key, prm->name);
			if (!set && wl_param__required(prm))
				return parser__fail(ps, "[workload %s] needs '%s' (%s)", w->name,
						    prm->name, prm->help);
		}
		for (size_t j = 0; j < w->nparams; j++) {
			const struct wl_param *prm = workload_param(w->def, w->params[j].key);
			char *v = w->params[j].value;
			size_t len = strlen(v);

			if (prm->type == WLP_SIZE && v[len - 1] == 'x') {
				double f = strtod(v, NULL);

				if (!m->max_bytes)
					return parser__fail(
					    ps,
					    "[workload %s] %s = %s is relative, but memcg "
					    "'%s' has no memory.max",
					    w->name, prm->name, v, m->name);
				w->params[j].value = xasprintf(
					"%llu", (unsigned long long)llround(f * (double)m->max_bytes));
				free(v);
			}
		}
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		p->needs_scratch |= p->workloads[i].def->scratch;
		p->needs_tools |= p->workloads[i].def->tools != NULL;
	}
	for (size_t i = 0; i < p->nvariants; i++) {
		if (p->variants[i].read_ahead_kb >= 0 && !p->needs_scratch) {
			ps->line = p->variants[i].read_ahead_line;
			return parser__fail(ps,
					    "read_ahead_kb applies to the scratch disk, which no "
					    "workload of this plan uses");
		}
	}
	return 0;
}

uint64_t plan__scratch_bytes(const struct plan *p)
{
	uint64_t auto_bytes = 4 * p->mem_bytes;

	if (p->scratch_bytes)
		return p->scratch_bytes;
	return auto_bytes > (2ull << 30) ? auto_bytes : 2ull << 30;
}
