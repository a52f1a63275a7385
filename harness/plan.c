// SPDX-License-Identifier: GPL-2.0
#include "plan.h"
#include "catalogue.h"
#include "kernel-build.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum section { SEC_NONE, SEC_CAMPAIGN, SEC_GUEST, SEC_VARIANT, SEC_MEMCG, SEC_WORKLOAD };

/* A key given in a section: a key given twice is refused, and checks made later name its line. */
struct seen_key {
	char *sec; /* "guest", "variant NAME": what the section header says */
	char *key;
	int line;
};

struct parser {
	const char *path;
	int line;
	char *err;
	struct plan *p;
	enum section sec;
	char *sec_name; /* the current section's header, for seen keys */
	struct seen_key *seen;
	size_t nseen;
	int bounds_line; /* where min/max_repetitions or max_time was set */
};

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *ps, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL, *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	/* What the message echoes from the file never puts raw bytes on a terminal. */
	safe = str_escape(msg);
	ps->err = xasprintf("%s:%d: %s", ps->path, ps->line, safe);
	return -EINVAL;
}

/* The line where key was given in section sec ("memcg wl"), or 0. */
static int seen_line(const struct parser *ps, const char *sec, const char *key)
{
	for (size_t i = 0; i < ps->nseen; i++)
		if (!strcmp(ps->seen[i].sec, sec) && !strcmp(ps->seen[i].key, key))
			return ps->seen[i].line;
	return 0;
}

/*
 * Every key once per section (a [guest] given twice is one section): the
 * same rule, and message, as a recipe's single keys (kernel-build.c).
 */
static int key_once(struct parser *ps, const char *key)
{
	int first = seen_line(ps, ps->sec_name, key);

	if (first)
		return fail(ps, "'%s' given twice in [%s] (first at line %d)", key, ps->sec_name,
			    first);
	ps->seen = xrealloc(ps->seen, ps->nseen + 1, sizeof(*ps->seen));
	ps->seen[ps->nseen++] = (struct seen_key){
		.sec = xstrdup(ps->sec_name), .key = xstrdup(key), .line = ps->line,
	};
	return 0;
}

static void kv_add(struct kv **kv, size_t *n, const char *k, const char *v)
{
	*kv = xrealloc(*kv, *n + 1, sizeof(**kv));
	(*kv)[*n].key = xstrdup(k);
	(*kv)[*n].value = xstrdup(v);
	(*n)++;
}

static void kv_free(struct kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

static bool name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

int lru_mode_parse(const char *s, unsigned *ret)
{
	uint64_t v;

	if (!strcmp(s, "classic")) {
		*ret = 0;
		return 0;
	}
	if (!strcmp(s, "mglru")) {
		*ret = 7;
		return 0;
	}
	/* A bit mask: hexadecimal as the kernel prints it (0x0007), or decimal. */
	if (parse_u64_c(s, &v) < 0 || v > 7)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

/*
 * Why a number was refused, for the message: "" when it is plainly not one
 * (the message's example says what is), else what is wrong with it.
 */
static const char *num_why(const char *v, int r)
{
	if (r == -ERANGE)
		return ": too large";
	if (v[0] == '+')
		return ": a number without a '+' sign";
	if (v[0] == '-')
		v++;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		return ": numbers are base 10, no 0x";
	if (v[0] == '0' && isdigit((unsigned char)v[1]))
		return ": a number in base 10 without leading zeros";
	if (isdigit((unsigned char)v[0]) && strpbrk(v, " \t"))
		return ": a number without blanks";
	return "";
}

/* Typed setters: one per value type; each names the key and value on error. */
static int set_str(struct parser *ps, char **dst, const char *k, const char *v)
{
	(void)ps;
	(void)k;
	free(*dst);
	*dst = xstrdup(v);
	return 0;
}

static int set_size(struct parser *ps, uint64_t *dst, const char *k, const char *v)
{
	int r = parse_size(v, dst);

	if (r < 0)
		return fail(ps, "bad size '%s' for '%s'%s (use e.g. 512M, 2G)", v, k, num_why(v, r));
	return 0;
}

static int set_ms(struct parser *ps, uint64_t *dst, const char *k, const char *v)
{
	int r = parse_duration_ms(v, dst);

	if (r < 0)
		return fail(ps, "bad duration '%s' for '%s'%s (use e.g. 500ms, 30s, 2m)", v, k,
			    num_why(v, r));
	return 0;
}

static int set_int(struct parser *ps, int *dst, const char *k, const char *v, int min, int max)
{
	int64_t x;
	int r = parse_i64(v, &x);

	if (r < 0 || x < min || x > max)
		return fail(ps, "bad value '%s' for '%s'%s (an integer from %d to %d)", v, k,
			    r < 0 ? num_why(v, r) : "", min, max);
	*dst = (int)x;
	return 0;
}

/* "on" or "off" into *dst (1, 0). */
static int set_on_off(struct parser *ps, int *dst, const char *k, const char *v)
{
	if (strcmp(v, "on") && strcmp(v, "off"))
		return fail(ps, "bad value '%s' for '%s' (on or off)", v, k);
	*dst = !strcmp(v, "on");
	return 0;
}

static bool thp_ok(const char *v)
{
	return !strcmp(v, "never") || !strcmp(v, "always") || !strcmp(v, "madvise");
}

static int campaign_key(struct parser *ps, const char *k, const char *v)
{
	struct plan *p = ps->p;
	int reps = 0;

	if (!strcmp(k, "name")) {
		if (!name_ok(v))
			return fail(ps, "bad name '%s' (letters, digits, '.', '_', '-')", v);
		return set_str(ps, &p->name, k, v);
	}
	if (!strcmp(k, "repetitions")) {
		int r;

		if (!strcmp(v, "auto")) {
			p->adaptive = true;
			return 0;
		}
		r = set_int(ps, &reps, k, v, 1, 1000);
		p->adaptive = false;
		p->repetitions = reps;
		return r;
	}
	if (!strcmp(k, "min_repetitions")) {
		ps->bounds_line = ps->line;
		return set_int(ps, &p->min_repetitions, k, v, 2, 1000);
	}
	if (!strcmp(k, "max_repetitions")) {
		ps->bounds_line = ps->line;
		return set_int(ps, &p->max_repetitions, k, v, 2, 1000);
	}
	if (!strcmp(k, "max_time")) {
		ps->bounds_line = ps->line;
		return set_ms(ps, &p->max_time_ms, k, v);
	}
	if (!strcmp(k, "retries"))
		return set_int(ps, &p->retries, k, v, 0, 10);
	if (!strcmp(k, "warmup"))
		return set_int(ps, &p->warmup, k, v, 0, 999);
	if (!strcmp(k, "seed"))
	{
		int r = parse_u64(v, &p->seed);

		return r < 0 ? fail(ps, "bad seed '%s'%s", v, num_why(v, r)) : 0;
	}
	if (!strcmp(k, "interval")) {
		int r = set_ms(ps, &p->interval_ms, k, v);

		if (r == 0 && p->interval_ms < 10)
			return fail(ps, "interval '%s' is below 10ms", v);
		return r;
	}
	if (!strcmp(k, "timeout")) {
		int r = set_ms(ps, &p->timeout_ms, k, v);

		if (r == 0 && !p->timeout_ms)
			return fail(ps, "timeout '%s' is zero: every run would time out at once", v);
		return r;
	}
	if (!strcmp(k, "baseline"))
		return set_str(ps, &p->baseline, k, v);
	return fail(ps, "unknown key '%s' in [campaign]", k);
}

static int guest_key(struct parser *ps, const char *k, const char *v)
{
	struct plan *p = ps->p;

	if (!strcmp(k, "memory")) {
		int r = set_size(ps, &p->mem_bytes, k, v);

		if (r == 0 && !p->mem_bytes)
			return fail(ps, "memory '%s' is zero: the guest needs some", v);
		return r;
	}
	if (!strcmp(k, "cpus"))
		return set_int(ps, &p->cpus, k, v, 1, 256);
	if (!strcmp(k, "swap")) {
		if (strcmp(v, "zram") && strcmp(v, "none"))
			return fail(ps, "bad swap '%s' (zram or none)", v);
		return set_str(ps, &p->swap, k, v);
	}
	if (!strcmp(k, "swap_size")) {
		int r = set_size(ps, &p->swap_bytes, k, v);

		if (r == 0 && !p->swap_bytes)
			return fail(ps, "swap_size '%s' is zero (swap = none for no swap)", v);
		return r;
	}
	if (!strcmp(k, "scratch_size")) {
		int r = set_size(ps, &p->scratch_bytes, k, v);

		if (r == 0 && p->scratch_bytes < (64ull << 20))
			return fail(ps, "scratch_size '%s' is below 64M", v);
		return r;
	}
	if (!strcmp(k, "zram_comp")) {
		if (!name_ok(v))
			return fail(ps, "bad zram_comp '%s'", v);
		return set_str(ps, &p->zram_comp, k, v);
	}
	if (!strcmp(k, "thp")) {
		if (!thp_ok(v))
			return fail(ps, "bad thp '%s' (never, always or madvise)", v);
		return set_str(ps, &p->thp, k, v);
	}
	if (!strcmp(k, "cmdline"))
		return set_str(ps, &p->cmdline, k, v);
	if (!strcmp(k, "trace")) {
		int on = 0;
		int r = set_on_off(ps, &on, k, v);

		p->trace = on;
		return r;
	}
	return fail(ps, "unknown key '%s' in [guest]", k);
}

/* A memcg control file and its value; *ret is what is written to the file (sizes in bytes). */
static int memcg_file(struct parser *ps, const char *k, const char *v, char **ret)
{
	static const char *const sizes[] = { "memory.max", "memory.high", "memory.low",
					     "memory.min", "memory.swap.max", "memory.swap.high",
					     NULL };
	uint64_t bytes;
	int r;

	for (size_t i = 0; sizes[i]; i++) {
		if (strcmp(k, sizes[i]))
			continue;
		if (!strcmp(v, "max")) {
			*ret = xstrdup("max");
			return 0;
		}
		r = parse_size(v, &bytes);
		if (r < 0)
			return fail(ps, "bad size '%s' for '%s'%s (e.g. 256M, or max)", v, k,
				    num_why(v, r));
		*ret = xasprintf("%llu", (unsigned long long)bytes);
		return 0;
	}
	if (!strcmp(k, "memory.oom.group")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return fail(ps, "bad value '%s' for '%s' (0 or 1)", v, k);
		*ret = xstrdup(v);
		return 0;
	}
	/* cgroup v1 only: v2 has no per-memcg swappiness, and the agent would fail at boot */
	if (!strcmp(k, "memory.swappiness"))
		return fail(ps, "'%s' is a cgroup v1 file; cgroup v2 has none (use "
			    "sysctl.vm.swappiness in a [variant])", k);
	return -ENOENT;
}

/* One knob of one variant, a single value. */
static int variant_knob(struct parser *ps, struct plan_variant *var, const char *k, const char *v)
{
	if (!strcmp(k, "kernel")) {
		if (kernel_spec_kind(v) == KERNEL_SPEC_BAD)
			return fail(ps, "bad kernel '%s' (debian, a recipe: NAME for kernels/NAME.ini "
					"or a FILE.ini, or a bzImage path holding a '/')", v);
		return set_str(ps, &var->kernel, k, v);
	}
	if (!strcmp(k, "config"))
		return set_str(ps, &var->config, k, v);
	if (!strcmp(k, "modules"))
		return set_str(ps, &var->modules, k, v);
	if (!strcmp(k, "lru")) {
		if (lru_mode_parse(v, &var->lru_enabled) < 0)
			return fail(ps, "bad lru '%s' (classic, mglru, or a value 0x0..0x7 for "
					"/sys/kernel/mm/lru_gen/enabled)", v);
		return set_str(ps, &var->lru, k, v);
	}
	if (!strcmp(k, "min_ttl_ms")) {
		int x = 0;
		int r = set_int(ps, &x, k, v, 0, 1000000000);

		var->min_ttl_ms = x;
		return r;
	}
	if (!strcmp(k, "thp")) {
		if (!thp_ok(v))
			return fail(ps, "bad thp '%s' (never, always or madvise)", v);
		return set_str(ps, &var->thp, k, v);
	}
	if (!strcmp(k, "read_ahead_kb")) {
		int x = 0;
		int r = set_int(ps, &x, k, v, 0, 1 << 20);

		var->read_ahead_kb = x;
		var->read_ahead_line = ps->line;
		return r;
	}
	if (!strcmp(k, "trace"))
		return set_on_off(ps, &var->trace, k, v);
	if (!strncmp(k, "sysctl.", 7) && k[7]) {
		_cleanup_free_ char *path = xstrdup(k + 7);

		for (char *c = path; *c; c++) {
			if (*c == '.')
				*c = '/';
			else if (!isalnum((unsigned char)*c) && *c != '_')
				return fail(ps, "bad sysctl name '%s'", k);
		}
		for (const char *c = v; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr(" _-.", *c))
				return fail(ps, "bad value '%s' for '%s'", v, k);
		kv_add(&var->sysctls, &var->nsysctls, path, v);
		return 0;
	}
	if (!strncmp(k, "memcg.", 6)) {
		/* memcg.NAME.FILE: a memcg name may hold dots, a file starts "memory." */
		const char *file = strstr(k + 6, ".memory.");
		_cleanup_free_ char *val = NULL, *name = NULL;
		int r;

		if (!file || file == k + 6)
			return fail(ps, "bad key '%s' (memcg.NAME.memory.FILE)", k);
		name = strndup(k + 6, (size_t)(file - (k + 6)));
		if (!name_ok(name))
			return fail(ps, "bad memcg name in '%s'", k);
		r = memcg_file(ps, file + 1, v, &val);
		if (r == -ENOENT)
			return fail(ps, "unknown memcg file '%s' in '%s'", file + 1, k);
		if (r < 0)
			return r;
		kv_add(&var->memcg_files, &var->nmemcg_files, k + 6, val);
		return 0;
	}
	return fail(ps, "unknown key '%s' in [variant %s]", k, var->name);
}

const char *plan_variant_memcg(const struct plan_variant *v, const char *memcg, const char *file)
{
	size_t len = strlen(memcg);

	for (size_t i = v->nmemcg_files; i-- > 0;) {
		const char *k = v->memcg_files[i].key;

		if (!strncmp(k, memcg, len) && k[len] == '.' && !strcmp(k + len + 1, file))
			return v->memcg_files[i].value;
	}
	return NULL;
}

static bool sweepable(const char *k)
{
	return !strcmp(k, "min_ttl_ms") || !strcmp(k, "thp") || !strcmp(k, "read_ahead_kb") ||
	       !strncmp(k, "sysctl.", 7);
}

/*
 * "a, b, c": a sweep. Each value is checked now, against a scratch variant,
 * so an error names this line; the variant is expanded at the end.
 */
static int variant_sweep(struct parser *ps, struct plan_variant *var, const char *k, const char *v)
{
	_cleanup_free_ char *copy = xstrdup(v);
	struct plan_sweep *sw;
	char *save = NULL;

	if (!sweepable(k))
		return fail(ps, "'%s' takes one value, not a list (sweeps: min_ttl_ms, thp, "
				"read_ahead_kb, sysctl.*)", k);
	var->sweeps = xrealloc(var->sweeps, var->nsweeps + 1, sizeof(*var->sweeps));
	sw = &var->sweeps[var->nsweeps++];
	*sw = (struct plan_sweep){ .key = xstrdup(k), .line = ps->line };
	for (const char *c = v;; c++) {
		if (*c == ',' && (c[1] == ',' || !c[1]))
			return fail(ps, "empty value in the list '%s' for '%s'", v, k);
		if (!*c)
			break;
	}
	if (*strstrip(copy) == ',')
		return fail(ps, "empty value in the list '%s' for '%s'", v, k);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct plan_variant tmp = { .name = var->name, .min_ttl_ms = -1,
					    .read_ahead_kb = -1, .trace = -1 };
		char *val = strstrip(tok);
		int r;

		if (!*val)
			return fail(ps, "empty value in the list '%s' for '%s'", v, k);
		r = variant_knob(ps, &tmp, k, val);
		tmp.name = NULL;
		plan_variant__clear(&tmp);
		if (r < 0)
			return r;
		for (size_t i = 0; i < sw->nvalues; i++)
			if (!strcmp(sw->values[i], val))
				return fail(ps, "'%s' listed twice for '%s'", val, k);
		sw->values = xrealloc(sw->values, sw->nvalues + 1, sizeof(char *));
		sw->values[sw->nvalues++] = xstrdup(val);
	}
	return 0;
}

static int variant_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_variant *var = &ps->p->variants[ps->p->nvariants - 1];

	if (strchr(v, ','))
		return variant_sweep(ps, var, k, v);
	return variant_knob(ps, var, k, v);
}

static int memcg_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_memcg *m = &ps->p->memcgs[ps->p->nmemcgs - 1];
	_cleanup_free_ char *val = NULL;
	int r = memcg_file(ps, k, v, &val);

	if (r == -ENOENT)
		return fail(ps, "unknown key '%s' in [memcg %s]", k, m->name);
	if (r < 0)
		return r;
	kv_add(&m->files, &m->nfiles, k, val);
	if (!strcmp(k, "memory.max") && strcmp(val, "max"))
		parse_u64(val, &m->max_bytes);
	return 0;
}

/*
 * A list of names ("a, b c") checked one by one (check returns 0 or fail()'s
 * error) and joined by sep into *ret (malloc'd); what names the list in the
 * error for an empty one.
 */
static int name_list(struct parser *ps, struct plan_workload *w, const char *v, const char *sep,
		     int (*check)(struct parser *ps, struct plan_workload *w, const char *name),
		     const char *what, char **ret)
{
	_cleanup_free_ char *copy = xstrdup(v);
	_cleanup_free_ char *list = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&list, &len);
	char *save = NULL;

	for (char *k = strtok_r(copy, ", \t", &save); k; k = strtok_r(NULL, ", \t", &save)) {
		int r = check(ps, w, k);

		if (r < 0) {
			fclose(f);
			return r;
		}
		fprintf(f, "%s%s", n++ ? sep : "", k);
	}
	fclose(f);
	if (!n)
		return fail(ps, "empty %s list in [workload %s]", what, w->name);
	free(*ret);
	*ret = TAKE_PTR(list);
	return 0;
}

/*
 * "key = majflt, throughput": the results that decide this workload's
 * comparison (its verdict family) instead of the catalogue's; kept
 * space-separated, as the catalogue's .decides.
 */
static int check_key(struct parser *ps, struct plan_workload *w, const char *k)
{
	const struct wl_metric *m = w->def->metrics;

	while (m->key && strcmp(m->key, k))
		m++;
	if (!m->key || m->only)
		return fail(ps, "key '%s' is not a result %s reports on every run (see "
				"'lrubench list')",
			    k, w->def->name);
	return 0;
}

/* "after = mix, kv": workloads declared above this one, which must exit before it starts. */
static int check_after(struct parser *ps, struct plan_workload *w, const char *k)
{
	for (size_t i = 0; i + 1 < ps->p->nworkloads; i++)
		if (!strcmp(ps->p->workloads[i].name, k))
			return 0;
	return fail(ps, "after '%s': not a workload declared above [workload %s]", k, w->name);
}

static int workload_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_workload *w = &ps->p->workloads[ps->p->nworkloads - 1];
	const struct wl_param *prm;

	if (!strcmp(k, "type")) {
		w->def = workload_find(v);
		if (!w->def)
			return fail(ps, "unknown workload type '%s' (see 'lrubench list')", v);
		return 0;
	}
	if (!strcmp(k, "memcg")) {
		if (!name_ok(v))
			return fail(ps, "bad memcg name '%s'", v);
		return set_str(ps, &w->memcg, k, v);
	}
	if (!strcmp(k, "start"))
		return set_ms(ps, &w->start_ms, k, v);
	if (!strcmp(k, "after"))
		return name_list(ps, w, v, ",", check_after, "'after'", &w->after);
	if (!strcmp(k, "key") && w->def)
		return name_list(ps, w, v, " ", check_key, "key", &w->key);
	if (!strcmp(k, "dir") && w->def && w->def->scratch)
		return fail(ps, "'dir' is given by lrubench (/scratch/%s)", w->name);
	if (!w->def)
		return fail(ps, "'type' must come before '%s' in [workload %s]", k, w->name);
	prm = workload_param(w->def, k);
	if (!prm)
		return fail(ps, "unknown key '%s' for workload type '%s'", k, w->def->name);
	/* Values are checked here; relative sizes are resolved once memcgs are known. */
	switch (prm->type) {
	case WLP_SIZE: {
		uint64_t b;
		size_t len = strlen(v);
		int r;

		if (len > 1 && v[len - 1] == 'x') {
			_cleanup_free_ char *num = strndup(v, len - 1);
			double f = 0;

			if (!num || parse_double(num, &f) < 0 || !(f > 0) || f > 1000)
				return fail(ps, "bad relative size '%s' for '%s'", v, k);
		} else if ((r = parse_size(v, &b)) < 0) {
			return fail(ps, "bad size '%s' for '%s'%s (e.g. 512M or 2.5x)", v, k,
				    num_why(v, r));
		}
		break;
	}
	case WLP_U64: {
		uint64_t x;

		int r = parse_u64(v, &x);

		if (r < 0)
			return fail(ps, "bad value '%s' for '%s'%s (an unsigned integer)", v, k,
				    num_why(v, r));
		break;
	}
	case WLP_FRACTION: {
		double f = 0;

		if (parse_double(v, &f) < 0 || !(f >= prm->min && f <= prm->max))
			return fail(ps, "bad value '%s' for '%s' (a number from %g to %g)", v, k,
				    prm->min, prm->max);
		break;
	}
	case WLP_DURATION: {
		uint64_t ms;

		int r = parse_duration_ms(v, &ms);

		if (r < 0)
			return fail(ps, "bad duration '%s' for '%s'%s", v, k, num_why(v, r));
		break;
	}
	case WLP_CHOICE:
		if (!wl_param__choice_ok(prm, v))
			return fail(ps, "bad value '%s' for '%s' (%s)", v, k, prm->choices);
		break;
	}
	kv_add(&w->params, &w->nparams, k, v);
	return 0;
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
			return fail(ps, "[%s] takes no name", hdr);
		ps->sec = hdr[0] == 'c' ? SEC_CAMPAIGN : SEC_GUEST;
		return 0;
	}
	if (strcmp(hdr, "variant") && strcmp(hdr, "memcg") && strcmp(hdr, "workload"))
		return fail(ps, "unknown section [%s] (campaign, guest, variant, memcg, workload)",
			    hdr);
	if (!name || !name_ok(name))
		return fail(ps, "[%s] needs a name of letters, digits, '.', '_' or '-', got '%s'",
			    hdr, name ? name : "");
	if (!strcmp(hdr, "variant")) {
		for (size_t i = 0; i < p->nvariants; i++)
			if (!strcmp(p->variants[i].name, name))
				return fail(ps, "duplicate [variant %s]", name);
		p->variants = xrealloc(p->variants, p->nvariants + 1, sizeof(*p->variants));
		p->variants[p->nvariants++] = (struct plan_variant){
			.name = xstrdup(name), .min_ttl_ms = -1, .read_ahead_kb = -1, .trace = -1,
			.kernel = xstrdup("debian"), .lru = xstrdup("classic"),
		};
		ps->sec = SEC_VARIANT;
	} else if (!strcmp(hdr, "memcg")) {
		for (size_t i = 0; i < p->nmemcgs; i++)
			if (!strcmp(p->memcgs[i].name, name))
				return fail(ps, "duplicate [memcg %s]", name);
		p->memcgs = xrealloc(p->memcgs, p->nmemcgs + 1, sizeof(*p->memcgs));
		p->memcgs[p->nmemcgs++] = (struct plan_memcg){ .name = xstrdup(name) };
		ps->sec = SEC_MEMCG;
	} else {
		for (size_t i = 0; i < p->nworkloads; i++)
			if (!strcmp(p->workloads[i].name, name))
				return fail(ps, "duplicate [workload %s]", name);
		p->workloads = xrealloc(p->workloads, p->nworkloads + 1, sizeof(*p->workloads));
		p->workloads[p->nworkloads++] = (struct plan_workload){ .name = xstrdup(name) };
		ps->sec = SEC_WORKLOAD;
	}
	return 0;
}

void plan_variant__clear(struct plan_variant *v)
{
	free(v->name);
	free(v->kernel);
	free(v->config);
	free(v->modules);
	free(v->lru);
	free(v->thp);
	kv_free(v->sysctls, v->nsysctls);
	kv_free(v->memcg_files, v->nmemcg_files);
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
		kv_add(&c.sysctls, &c.nsysctls, v->sysctls[i].key, v->sysctls[i].value);
	c.memcg_files = NULL;
	c.nmemcg_files = 0;
	for (size_t i = 0; i < v->nmemcg_files; i++)
		kv_add(&c.memcg_files, &c.nmemcg_files, v->memcg_files[i].key,
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
		if (!name_ok(name)) {
			r = fail(ps, "swept variant name '%s' is longer than 64 characters", name);
			break;
		}
		c = plan_variant__copy(v, name);
		for (size_t i = 0; i < v->nsweeps && r == 0; i++) {
			ps->line = v->sweeps[i].line;
			r = variant_knob(ps, &c, v->sweeps[i].key, v->sweeps[i].values[idx[i]]);
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

static int variants_expand(struct parser *ps)
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
				return fail(ps, "two variants named '%s' once sweeps are expanded",
					    out[i].name);
			}
	return 0;
}

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
	return fail(ps, "%s = %s is more than the guest's %s (%s)", what, size_str(b1, bytes),
		    swap ? "swap, swap_size" : "memory", size_str(b2, room));
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

			ps->line = seen_line(ps, sec, m->files[j].key);
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
			ps->line = seen_line(ps, sec, key);
			r = memcg_fits(ps, what, file + 1, v->memcg_files[j].value);
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		_cleanup_free_ char *sec = xasprintf("workload %s", w->name);
		/* A file set may outgrow memory (page cache): a scratch disk bounds it. */
		uint64_t disk = w->def && w->def->scratch ? plan_scratch_bytes(p) : 0;
		uint64_t room = disk > p->mem_bytes ? disk : p->mem_bytes;

		for (size_t j = 0; w->def && j < w->nparams; j++) {
			const struct wl_param *prm = workload_param(w->def, w->params[j].key);
			const char *v = w->params[j].value;
			uint64_t bytes;

			if (!prm || prm->type != WLP_SIZE || v[strlen(v) - 1] == 'x' ||
			    parse_size(v, &bytes) < 0 || bytes <= room)
				continue;
			ps->line = seen_line(ps, sec, w->params[j].key);
			if (disk > p->mem_bytes)
				return fail(ps, "[workload %s] %s = %s is more than the guest's memory "
						"(%s) and its scratch disk (%s)",
					    w->name, prm->name, v, size_str(b1, p->mem_bytes),
					    size_str(b2, disk));
			return fail(ps, "[workload %s] %s = %s is more than the guest's memory (%s)",
				    w->name, prm->name, v, size_str(b3, p->mem_bytes));
		}
	}
	return 0;
}

/* After parsing: sweeps, cross-references, required keys, relative sizes. */
static int plan_finish(struct parser *ps)
{
	struct plan *p = ps->p;
	int r;

	ps->line = 0;
	if (!p->nvariants)
		return fail(ps, "no [variant NAME] section");
	/* Before sweeps rename the variants: errors name the line of the key. */
	r = plan_fits(ps);
	if (r < 0)
		return r;
	r = variants_expand(ps);
	if (r < 0)
		return r;
	ps->line = 0;
	if (!p->nworkloads)
		return fail(ps, "no [workload NAME] section");
	if (p->baseline) {
		bool found = false;

		for (size_t i = 0; i < p->nvariants; i++)
			found |= !strcmp(p->variants[i].name, p->baseline);
		if (!found)
			return fail(ps, "baseline '%s' is not a variant (a swept variant is named "
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
			return fail(ps, "max_repetitions %d is below min_repetitions %d",
				    p->max_repetitions, p->min_repetitions);
		}
		p->repetitions = p->min_repetitions;
	} else if (p->min_repetitions || p->max_repetitions || p->max_time_ms) {
		ps->line = ps->bounds_line;
		return fail(ps, "min_repetitions, max_repetitions and max_time apply only with "
				"repetitions = auto");
	}
	if (p->warmup >= p->repetitions)
		return fail(ps, "warmup %d leaves none of the %d repetitions measured", p->warmup,
			    p->repetitions);
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
				return fail(ps, "[variant %s] memcg.%s: no such [memcg]", v->name,
					    v->memcg_files[j].key);
		}
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		struct plan_workload *w = &p->workloads[i];
		struct plan_memcg *m = NULL;

		if (!w->def)
			return fail(ps, "[workload %s] has no type", w->name);
		if (!w->memcg)
			return fail(ps, "[workload %s] has no memcg", w->name);
		for (size_t j = 0; j < p->nmemcgs; j++)
			if (!strcmp(p->memcgs[j].name, w->memcg))
				m = &p->memcgs[j];
		if (!m)
			return fail(ps, "[workload %s] names memcg '%s', which has no [memcg] section",
				    w->name, w->memcg);
		for (const struct wl_param *prm = w->def->params; prm->name; prm++) {
			bool set = false;

			for (size_t j = 0; j < w->nparams; j++)
				set |= !strcmp(w->params[j].key, prm->name);
			if (!set && wl_param__required(prm))
				return fail(ps, "[workload %s] needs '%s' (%s)", w->name, prm->name,
					    prm->help);
		}
		for (size_t j = 0; j < w->nparams; j++) {
			const struct wl_param *prm = workload_param(w->def, w->params[j].key);
			char *v = w->params[j].value;
			size_t len = strlen(v);

			if (prm->type == WLP_SIZE && v[len - 1] == 'x') {
				double f = strtod(v, NULL);

				if (!m->max_bytes)
					return fail(ps, "[workload %s] %s = %s is relative, but memcg "
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
			return fail(ps, "read_ahead_kb applies to the scratch disk, which no "
					"workload of this plan uses");
		}
	}
	return 0;
}

const char *plan_variant_thp(const struct plan *p, const struct plan_variant *v)
{
	return v->thp ? v->thp : p->thp;
}

bool plan_variant_trace(const struct plan *p, const struct plan_variant *v)
{
	return v->trace >= 0 ? v->trace : p->trace;
}

uint64_t plan_scratch_bytes(const struct plan *p)
{
	uint64_t auto_bytes = 4 * p->mem_bytes;

	if (p->scratch_bytes)
		return p->scratch_bytes;
	return auto_bytes > (2ull << 30) ? auto_bytes : 2ull << 30;
}

int plan__parse(const char *path, const char *text, struct plan **ret, char **ret_err)
{
	_cleanup_(plan__freep) struct plan *p = xcalloc(1, sizeof(*p));
	struct parser ps = { .path = path, .p = p };
	_cleanup_free_ char *copy = xstrdup(text);
	char *line, *next;
	int r = 0;

	*p = (struct plan){
		.path = xstrdup(path), .text = xstrdup(text), .name = xstrdup("campaign"),
		.repetitions = 2, .retries = 1, .seed = 1, .interval_ms = 1000, .timeout_ms = 600000,
		.mem_bytes = 1ull << 30, .cpus = 2, .swap = xstrdup("zram"),
		.swap_bytes = 1ull << 30, .thp = xstrdup("never"), .cmdline = xstrdup(""),
		.trace = true,
	};
	for (line = copy; line && r == 0; line = next) {
		char *eq, *k, *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ps.line++;
		if (strlen(line) > 4096) {
			r = fail(&ps, "line longer than 4096 bytes");
			break;
		}
		line = strstrip(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *close = strchr(line, ']');

			if (!close || close[1]) {
				r = fail(&ps, "bad section header '%s'", line);
				break;
			}
			*close = '\0';
			r = section_start(&ps, strstrip(line + 1));
			continue;
		}
		eq = strchr(line, '=');
		if (!eq) {
			r = fail(&ps, "expected 'key = value', got '%s'", line);
			break;
		}
		*eq = '\0';
		k = strstrip(line);
		v = strstrip(eq + 1);
		if (!*k) {
			r = fail(&ps, "empty key");
			break;
		}
		if (ps.sec != SEC_NONE) {
			r = key_once(&ps, k);
			if (r < 0)
				break;
		}
		switch (ps.sec) {
		case SEC_NONE:
			r = fail(&ps, "'%s' outside any section", k);
			break;
		case SEC_CAMPAIGN:
			r = campaign_key(&ps, k, v);
			break;
		case SEC_GUEST:
			r = guest_key(&ps, k, v);
			break;
		case SEC_VARIANT:
			r = variant_key(&ps, k, v);
			break;
		case SEC_MEMCG:
			r = memcg_key(&ps, k, v);
			break;
		case SEC_WORKLOAD:
			r = workload_key(&ps, k, v);
			break;
		}
	}
	if (r == 0)
		r = plan_finish(&ps);
	for (size_t i = 0; i < ps.nseen; i++) {
		free(ps.seen[i].sec);
		free(ps.seen[i].key);
	}
	free(ps.seen);
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
	size_t len = 0;
	unsigned nul;
	int r = read_regular_file(path, 1u << 20, &text, &len);

	if (r == -EINVAL) {
		*ret_err = xasprintf("%s: %s, not a regular file", path, path_kind(path));
		return r;
	}
	if (r < 0) {
		*ret_err = xasprintf("%s: %s", path, strerror(-r));
		return r;
	}
	/* A NUL would end the text early: "no [variant NAME] section", about a file that has some. */
	nul = text_nul_line(text, len);
	if (nul) {
		*ret_err = xasprintf("%s:%u: a NUL byte: a plan is text", path, nul);
		return -EINVAL;
	}
	return plan__parse(path, text, ret, ret_err);
}

void plan__free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant__clear(&p->variants[i]);
	for (size_t i = 0; i < p->nmemcgs; i++) {
		free(p->memcgs[i].name);
		kv_free(p->memcgs[i].files, p->memcgs[i].nfiles);
	}
	for (size_t i = 0; i < p->nworkloads; i++) {
		free(p->workloads[i].name);
		free(p->workloads[i].memcg);
		free(p->workloads[i].key);
		free(p->workloads[i].after);
		kv_free(p->workloads[i].params, p->workloads[i].nparams);
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
	free(p->thp);
	free(p->cmdline);
	free(p->remap);
	free(p->agent_conf);
	free(p);
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

void plan__freep(struct plan **p)
{
	plan__free(*p);
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
