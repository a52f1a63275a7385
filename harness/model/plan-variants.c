// SPDX-License-Identifier: GPL-2.0
/*
 * A plan's variants: a [variant]'s keys, a single value or a list (a sweep),
 * the sweeps' expansion into one variant per combination once the file is
 * read, and what re-makes the variants of a parsed plan (copy, clear, keep
 * one, remap onto other kernels).
 */
#include "plan-priv.h"
#include "ini.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

/*
 * "a, b, c": a sweep. Each value is checked now, against a scratch variant,
 * so an error names this line; the variant is expanded at the end.
 */
static int variant_sweep(struct parser *ps, struct plan_variant *var, const char *k, const char *v)
{
	_cleanup_free_ char *copy = xstrdup(v);
	struct plan_sweep *sw;
	char *save = NULL;

	if (!variant_key_sweeps(k))
		return parser__fail(ps,
				    "'%s' takes one value, not a list (sweeps: min_ttl_ms, thp, "
				    "read_ahead_kb, fault_around_bytes, sysctl.*)",
				    k);
	var->sweeps = xrealloc(var->sweeps, var->nsweeps + 1, sizeof(*var->sweeps));
	sw = &var->sweeps[var->nsweeps++];
	*sw = (struct plan_sweep){ .key = xstrdup(k), .line = ps->line };
	for (const char *c = v;; c++) {
		if (*c == ',' && (c[1] == ',' || !c[1]))
			return parser__fail(ps, "empty value in the list '%s' for '%s'", v, k);
		if (!*c)
			break;
	}
	if (*strstrip(copy) == ',')
		return parser__fail(ps, "empty value in the list '%s' for '%s'", v, k);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct plan_variant tmp = { .name = var->name, .min_ttl_ms = -1,
					    .read_ahead_kb = -1, .fault_around_bytes = -1,
					    .trace = -1 };
		char *val = strstrip(tok);
		int r;

		if (!*val)
			return parser__fail(ps, "empty value in the list '%s' for '%s'", v, k);
		r = parser__variant_knob(ps, &tmp, k, val);
		tmp.name = NULL;
		plan_variant__clear(&tmp);
		if (r < 0)
			return r;
		for (size_t i = 0; i < sw->nvalues; i++)
			if (!strcmp(sw->values[i], val))
				return parser__fail(ps, "'%s' listed twice for '%s'", val, k);
		sw->values = xrealloc(sw->values, sw->nvalues + 1, sizeof(char *));
		sw->values[sw->nvalues++] = xstrdup(val);
	}
	return 0;
}

int parser__variant_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_variant *var = &ps->p->variants[ps->p->nvariants - 1];

	if (strchr(v, ','))
		return variant_sweep(ps, var, k, v);
	return parser__variant_knob(ps, var, k, v);
}

void plan_variant__clear(struct plan_variant *v)
{
	free(v->name);
	free(v->kernel);
	free(v->config);
	free(v->modules);
	free(v->lru);
	free(v->thp);
	kv__free(v->sysctls, v->nsysctls);
	kv__free(v->memcg_files, v->nmemcg_files);
	for (size_t i = 0; i < v->nsweeps; i++) {
		free(v->sweeps[i].key);
		for (size_t j = 0; j < v->sweeps[i].nvalues; j++)
			free(v->sweeps[i].values[j]);
		free(v->sweeps[i].values);
	}
	free(v->sweeps);
	memset(v, 0, sizeof(*v));
}

static char *strdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A copy of v without its sweeps, named name. */
struct plan_variant plan_variant__copy(const struct plan_variant *v, const char *name)
{
	struct plan_variant c = *v;

	c.name = xstrdup(name);
	c.kernel = strdup_or_null(v->kernel);
	c.config = strdup_or_null(v->config);
	c.modules = strdup_or_null(v->modules);
	c.lru = strdup_or_null(v->lru);
	c.thp = strdup_or_null(v->thp);
	c.sysctls = NULL;
	c.nsysctls = 0;
	for (size_t i = 0; i < v->nsysctls; i++)
		kv__add(&c.sysctls, &c.nsysctls, v->sysctls[i].key, v->sysctls[i].value);
	c.memcg_files = NULL;
	c.nmemcg_files = 0;
	for (size_t i = 0; i < v->nmemcg_files; i++)
		kv__add(&c.memcg_files, &c.nmemcg_files, v->memcg_files[i].key,
			v->memcg_files[i].value);
	c.sweeps = NULL;
	c.nsweeps = 0;
	return c;
}

/* "sysctl.vm.swappiness" -> "swappiness": the knob's word in a swept variant's name. */
static const char *sweep_word(const char *key)
{
	const char *dot = strrchr(key, '.');

	return dot ? dot + 1 : key;
}

/* Every combination of v's sweeps, appended to *out in order (the last sweep varies fastest). */
static int variant_expand(struct parser *ps, const struct plan_variant *v,
			  struct plan_variant **out, size_t *nout)
{
	size_t *idx = xcalloc(v->nsweeps, sizeof(size_t));
	int r = 0;

	for (;;) {
		_cleanup_free_ char *name = xstrdup(v->name);
		struct plan_variant c;

		for (size_t i = 0; i < v->nsweeps; i++) {
			char *n = xasprintf("%s-%s%s", name, sweep_word(v->sweeps[i].key),
					    v->sweeps[i].values[idx[i]]);

			free(name);
			name = n;
		}
		for (char *ch = name; *ch; ch++)
			if (!isalnum((unsigned char)*ch) && !strchr("._-", *ch))
				*ch = '_';
		ps->line = v->sweeps[0].line;
		if (!ini__name_ok(name)) {
			r = parser__fail(ps, "swept variant name '%s' is longer than 64 characters",
					 name);
			break;
		}
		c = plan_variant__copy(v, name);
		for (size_t i = 0; i < v->nsweeps && r == 0; i++) {
			ps->line = v->sweeps[i].line;
			r = parser__variant_knob(ps, &c, v->sweeps[i].key,
						 v->sweeps[i].values[idx[i]]);
		}
		*out = xrealloc(*out, *nout + 1, sizeof(**out));
		(*out)[(*nout)++] = c;
		if (r < 0)
			break;
		/* Next combination: an odometer over the sweeps. */
		size_t i = v->nsweeps;

		while (i > 0 && ++idx[i - 1] == v->sweeps[i - 1].nvalues)
			idx[--i] = 0;
		if (i == 0)
			break;
	}
	free(idx);
	return r;
}

int parser__variants_expand(struct parser *ps)
{
	struct plan *p = ps->p;
	struct plan_variant *out = NULL;
	size_t nout = 0;
	int r = 0;

	for (size_t i = 0; i < p->nvariants && r == 0; i++) {
		if (!p->variants[i].nsweeps) {
			out = xrealloc(out, nout + 1, sizeof(*out));
			out[nout++] = p->variants[i];
			memset(&p->variants[i], 0, sizeof(p->variants[i]));
			continue;
		}
		r = variant_expand(ps, &p->variants[i], &out, &nout);
	}
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant__clear(&p->variants[i]);
	free(p->variants);
	p->variants = out;
	p->nvariants = nout;
	if (r < 0)
		return r;
	for (size_t i = 0; i < nout; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(out[i].name, out[j].name)) {
				ps->line = 0;
				return parser__fail(
				    ps, "two variants named '%s' once sweeps are expanded",
				    out[i].name);
			}
	return 0;
}

int plan__keep_variant(struct plan *p, const char *name, const char *new_name, char **ret_err)
{
	size_t vi;

	if (!name)
		name = p->baseline;
	for (vi = 0; vi < p->nvariants; vi++)
		if (!strcmp(p->variants[vi].name, name))
			break;
	if (vi == p->nvariants) {
		*ret_err = xasprintf("%s: no [variant %s]", p->path, name);
		return -ENOENT;
	}
	for (size_t i = 0; i < p->nvariants; i++)
		if (i != vi)
			plan_variant__clear(&p->variants[i]);
	if (vi)
		p->variants[0] = p->variants[vi];
	p->nvariants = 1;
	free(p->variants[0].name);
	p->variants[0].name = xstrdup(new_name);
	free(p->baseline);
	p->baseline = xstrdup(new_name);
	return 0;
}

int plan__remap(struct plan *p, const char *text, char **ret_err)
{
	_cleanup_free_ char *copy = xstrdup(text), *baseline = NULL;
	struct plan_variant *vs = NULL;
	size_t n = 0;
	unsigned line = 0;
	char *save = NULL;
	bool based = false;

	/* Once per plan: the stored text re-makes the variants from the parsed ones. */
	if (p->remap) {
		*ret_err = xstrdup("variant remap: the plan's variants were re-made already");
		return -EINVAL;
	}
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { 0 }, *fsave = NULL;
		size_t nf = 0, from;

		line++;
		for (char *t = strtok_r(l, "\t", &fsave); t && nf < 4; t = strtok_r(NULL, "\t", &fsave))
			f[nf++] = t;
		if (nf == 2 && !strcmp(f[0], "baseline")) {
			free(baseline);
			baseline = xstrdup(f[1]);
			continue;
		}
		if (nf != 3)
			goto bad;
		for (from = 0; from < p->nvariants; from++)
			if (!strcmp(p->variants[from].name, f[1]))
				break;
		if (from == p->nvariants) {
			*ret_err = xasprintf("variant remap, line %u: the plan has no variant '%s'",
					     line, f[1]);
			goto fail;
		}
		for (size_t k = 0; k < n; k++)
			if (!strcmp(vs[k].name, f[0])) {
				*ret_err = xasprintf("variant remap, line %u: variant '%s' twice",
						     line, f[0]);
				goto fail;
			}
		vs = xrealloc(vs, n + 1, sizeof(*vs));
		vs[n] = plan_variant__copy(&p->variants[from], f[0]);
		free(vs[n].kernel);
		free(vs[n].config);
		free(vs[n].modules);
		vs[n].kernel = xstrdup(f[2]);
		vs[n].config = vs[n].modules = NULL; /* the kernel's own */
		n++;
	}
	for (size_t k = 0; baseline && k < n; k++)
		based = based || !strcmp(vs[k].name, baseline);
	if (!n || !based) {
		line = 0;
		goto bad;
	}
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant__clear(&p->variants[i]);
	free(p->variants);
	p->variants = vs;
	p->nvariants = n;
	free(p->baseline);
	p->baseline = TAKE_PTR(baseline);
	p->remap = xstrdup(text);
	return 0;
bad:
	*ret_err = line ? xasprintf("variant remap, line %u: expected NAME<tab>FROM<tab>KERNEL "
				    "or baseline<tab>NAME", line)
			: xasprintf("variant remap: no variants, or no baseline among them");
fail:
	for (size_t k = 0; k < n; k++)
		plan_variant__clear(&vs[k]);
	free(vs);
	return -EINVAL;
}
