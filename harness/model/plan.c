// SPDX-License-Identifier: GPL-2.0
#include "plan.h"
#include "catalogue.h"
#include "ini.h"
#include "kernel-build.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

enum section { SEC_NONE, SEC_CAMPAIGN, SEC_GUEST, SEC_VARIANT, SEC_MEMCG, SEC_WORKLOAD };

struct parser {
	const char *path;
	int line;
	char *err;
	struct plan *p;
	enum section sec;
	/* The current section's header ("guest", "variant NAME"): the keys each
	 * gave are kept in ini, so that a key given twice is refused, and checks
	 * made later name its line. */
	char *sec_name;
	struct ini ini;
	int bounds_line; /* where min/max_repetitions or max_time was set */
};

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *ps, const char *fmt, ...)
{
	_cleanup_free_ char *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	safe = ini__vmsg(fmt, ap);
	va_end(ap);
	ps->err = xasprintf("%s:%d: %s", ps->path, ps->line, safe);
	return -EINVAL;
}

/* The line where key was given in section sec ("memcg wl"), or 0. */
static int seen_line(const struct parser *ps, const char *sec, const char *key)
{
	return (int)ini__line_of(&ps->ini, sec, key);
}

/*
 * Every key once per section (a [guest] given twice is one section): the
 * same rule, and message, as a recipe's single keys (kbuild-recipe.c).
 */
static int key_once(struct parser *ps, const char *key)
{
	unsigned first = ini__once(&ps->ini, ps->sec_name, key);

	if (first)
		return fail(ps, "'%s' given twice in [%s] (first at line %u)", key, ps->sec_name,
			    first);
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

/* How a key's text becomes the field at its row's offset. */
enum key_type {
	KEY_STR,    /* char *, replaced */
	KEY_INT,    /* int, from min to max */
	KEY_I64,    /* int64_t, from min to max */
	KEY_SIZE,   /* uint64_t bytes: 512M, 2G */
	KEY_MS,     /* uint64_t milliseconds: 500ms, 30s, 2m */
	KEY_ON_OFF, /* int: 1 on, 0 off */
	KEY_BOOL,   /* bool: on or off */
	KEY_FN,     /* the row's set() takes the value */
};

enum {
	KEY_SWEEP = 1 << 0,	 /* [variant]: takes a list, one variant per value */
	KEY_NEEDS_TYPE = 1 << 1, /* [workload]: only after 'type' (else a parameter) */
};

/*
 * One key of a section: adding a key is adding a row. A key ending in '.'
 * is a prefix (sysctl.vm.swappiness). Each hook returns 0 or fail()'s error.
 */
struct key_def {
	const char *key;
	enum key_type type;
	size_t off;	/* of the field, in the section's object */
	int min, max;	/* KEY_INT, KEY_I64 */
	/* Before the value is stored: what the type alone does not check. */
	int (*check)(struct parser *ps, void *obj, const char *k, const char *v);
	/* KEY_FN: takes the value. */
	int (*set)(struct parser *ps, void *obj, const char *k, const char *v);
	/* After: the stored value against what it must be. */
	int (*then)(struct parser *ps, void *obj, const char *v);
	unsigned flags;
	const char *help;
};

static const struct key_def *key_find(const struct key_def *keys, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(keys[i].key);

		if (keys[i].key[len - 1] == '.' ? !strncmp(k, keys[i].key, len)
						: !strcmp(k, keys[i].key))
			return &keys[i];
	}
	return NULL;
}

/* Store v into obj as row d says. */
static int key_set(struct parser *ps, const struct key_def *d, void *obj, const char *k,
		   const char *v)
{
	void *field = (char *)obj + d->off;
	int r = d->check ? d->check(ps, obj, k, v) : 0;

	if (r < 0)
		return r;
	switch (d->type) {
	case KEY_STR:
		r = set_str(ps, field, k, v);
		break;
	case KEY_INT:
		r = set_int(ps, field, k, v, d->min, d->max);
		break;
	case KEY_I64: {
		int x = 0;

		r = set_int(ps, &x, k, v, d->min, d->max);
		*(int64_t *)field = x;
		break;
	}
	case KEY_SIZE:
		r = set_size(ps, field, k, v);
		break;
	case KEY_MS:
		r = set_ms(ps, field, k, v);
		break;
	case KEY_ON_OFF:
		r = set_on_off(ps, field, k, v);
		break;
	case KEY_BOOL: {
		int on = 0;

		r = set_on_off(ps, &on, k, v);
		*(bool *)field = on;
		break;
	}
	case KEY_FN:
		r = d->set(ps, obj, k, v);
		break;
	}
	if (r == 0 && d->then)
		r = d->then(ps, obj, v);
	return r;
}

/* ---- [campaign] ---- */

static int check_name(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return ini__name_ok(v) ? 0 : fail(ps, "bad name '%s' (letters, digits, '.', '_', '-')", v);
}

static int set_repetitions(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan *p = obj;
	int reps = 0;
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

/* min_repetitions, max_repetitions, max_time: checked against repetitions at the end. */
static int then_bounds(struct parser *ps, void *obj, const char *v)
{
	(void)obj;
	(void)v;
	ps->bounds_line = ps->line;
	return 0;
}

static int set_seed(struct parser *ps, void *obj, const char *k, const char *v)
{
	int r = parse_u64(v, &((struct plan *)obj)->seed);

	(void)k;
	return r < 0 ? fail(ps, "bad seed '%s'%s", v, num_why(v, r)) : 0;
}

static int then_interval(struct parser *ps, void *obj, const char *v)
{
	if (((struct plan *)obj)->interval_ms < 10)
		return fail(ps, "interval '%s' is below 10ms", v);
	return 0;
}

static int then_timeout(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->timeout_ms)
		return fail(ps, "timeout '%s' is zero: every run would time out at once", v);
	return 0;
}

#define PLAN_FIELD(f) offsetof(struct plan, f)

static const struct key_def campaign_keys[] = {
	{ "name", KEY_STR, PLAN_FIELD(name), .check = check_name,
	  .help = "the campaign's name (letters, digits, '.', '_', '-')" },
	{ "repetitions", KEY_FN, .set = set_repetitions,
	  .help = "runs of each variant (1 to 1000), or auto: blocks until decided" },
	{ "min_repetitions", KEY_INT, PLAN_FIELD(min_repetitions), 2, 1000, .then = then_bounds,
	  .help = "with repetitions = auto: the first blocks" },
	{ "max_repetitions", KEY_INT, PLAN_FIELD(max_repetitions), 2, 1000, .then = then_bounds,
	  .help = "with repetitions = auto: the most blocks" },
	{ "max_time", KEY_MS, PLAN_FIELD(max_time_ms), .then = then_bounds,
	  .help = "with repetitions = auto: no new block after this long" },
	{ "retries", KEY_INT, PLAN_FIELD(retries), 0, 10,
	  .help = "re-runs of a run whose infrastructure failed" },
	{ "warmup", KEY_INT, PLAN_FIELD(warmup), 0, 999,
	  .help = "first repetitions of each variant, run but not measured" },
	{ "seed", KEY_FN, .set = set_seed, .help = "the seed of the run order and workloads" },
	{ "interval", KEY_MS, PLAN_FIELD(interval_ms), .then = then_interval,
	  .help = "the sampling interval (10ms at least)" },
	{ "timeout", KEY_MS, PLAN_FIELD(timeout_ms), .then = then_timeout,
	  .help = "a run's time limit" },
	{ "baseline", KEY_STR, PLAN_FIELD(baseline), .help = "the variant others are compared to" },
};

static int campaign_key(struct parser *ps, const char *k, const char *v)
{
	const struct key_def *d = key_find(campaign_keys, ARRAY_SIZE(campaign_keys), k);

	if (!d)
		return fail(ps, "unknown key '%s' in [campaign]", k);
	return key_set(ps, d, ps->p, k, v);
}

/* ---- [guest] ---- */

static int then_memory(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->mem_bytes)
		return fail(ps, "memory '%s' is zero: the guest needs some", v);
	return 0;
}

static int check_swap(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	if (strcmp(v, "zram") && strcmp(v, "none"))
		return fail(ps, "bad swap '%s' (zram or none)", v);
	return 0;
}

static int then_swap_size(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->swap_bytes)
		return fail(ps, "swap_size '%s' is zero (swap = none for no swap)", v);
	return 0;
}

static int then_scratch_size(struct parser *ps, void *obj, const char *v)
{
	if (((struct plan *)obj)->scratch_bytes < (64ull << 20))
		return fail(ps, "scratch_size '%s' is below 64M", v);
	return 0;
}

static int check_zram_comp(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return ini__name_ok(v) ? 0 : fail(ps, "bad zram_comp '%s'", v);
}

static int check_thp(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return thp_ok(v) ? 0 : fail(ps, "bad thp '%s' (never, always or madvise)", v);
}

static const struct key_def guest_keys[] = {
	{ "memory", KEY_SIZE, PLAN_FIELD(mem_bytes), .then = then_memory,
	  .help = "the guest's memory" },
	{ "cpus", KEY_INT, PLAN_FIELD(cpus), 1, 256, .help = "the guest's CPUs" },
	{ "swap", KEY_STR, PLAN_FIELD(swap), .check = check_swap, .help = "zram or none" },
	{ "swap_size", KEY_SIZE, PLAN_FIELD(swap_bytes), .then = then_swap_size,
	  .help = "the zram device's size" },
	{ "scratch_size", KEY_SIZE, PLAN_FIELD(scratch_bytes), .then = then_scratch_size,
	  .help = "the scratch disk's size (64M at least; default max(2G, 4 x memory))" },
	{ "zram_comp", KEY_STR, PLAN_FIELD(zram_comp), .check = check_zram_comp,
	  .help = "the zram compressor" },
	{ "thp", KEY_STR, PLAN_FIELD(thp), .check = check_thp,
	  .help = "transparent huge pages: never, always or madvise" },
	{ "cmdline", KEY_STR, PLAN_FIELD(cmdline), .help = "added to the kernel's command line" },
	{ "trace", KEY_BOOL, PLAN_FIELD(trace),
	  .help = "on: reclaim stall histograms from the vmscan tracepoints" },
};

static int guest_key(struct parser *ps, const char *k, const char *v)
{
	const struct key_def *d = key_find(guest_keys, ARRAY_SIZE(guest_keys), k);

	if (!d)
		return fail(ps, "unknown key '%s' in [guest]", k);
	return key_set(ps, d, ps->p, k, v);
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

/* ---- [variant NAME] ---- */

static int check_kernel(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	if (kernel_spec_kind(v) == KERNEL_SPEC_BAD)
		return fail(ps, "bad kernel '%s' (debian, a recipe: NAME for kernels/NAME.ini "
				"or a FILE.ini, or a bzImage path holding a '/')", v);
	return 0;
}

static int check_lru(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_variant *var = obj;

	(void)k;
	if (lru_mode_parse(v, &var->lru_enabled) < 0)
		return fail(ps, "bad lru '%s' (classic, mglru, or a value 0x0..0x7 for "
				"/sys/kernel/mm/lru_gen/enabled)", v);
	return 0;
}

static int then_read_ahead(struct parser *ps, void *obj, const char *v)
{
	(void)v;
	((struct plan_variant *)obj)->read_ahead_line = ps->line;
	return 0;
}

static int set_sysctl(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_variant *var = obj;
	_cleanup_free_ char *path = NULL;

	if (!k[7])
		return fail(ps, "unknown key '%s' in [variant %s]", k, var->name);
	path = xstrdup(k + 7);
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

/* memcg.NAME.FILE: a memcg name may hold dots, a file starts "memory." */
static int set_variant_memcg(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_variant *var = obj;
	const char *file = strstr(k + 6, ".memory.");
	_cleanup_free_ char *val = NULL, *name = NULL;
	int r;

	if (!file || file == k + 6)
		return fail(ps, "bad key '%s' (memcg.NAME.memory.FILE)", k);
	name = strndup(k + 6, (size_t)(file - (k + 6)));
	if (!ini__name_ok(name))
		return fail(ps, "bad memcg name in '%s'", k);
	r = memcg_file(ps, file + 1, v, &val);
	if (r == -ENOENT)
		return fail(ps, "unknown memcg file '%s' in '%s'", file + 1, k);
	if (r < 0)
		return r;
	kv_add(&var->memcg_files, &var->nmemcg_files, k + 6, val);
	return 0;
}

#define VARIANT_FIELD(f) offsetof(struct plan_variant, f)

static const struct key_def variant_keys[] = {
	{ "kernel", KEY_STR, VARIANT_FIELD(kernel), .check = check_kernel,
	  .help = "debian, a recipe (NAME or FILE.ini) or a bzImage path" },
	{ "config", KEY_STR, VARIANT_FIELD(config), .help = "the kernel's config file" },
	{ "modules", KEY_STR, VARIANT_FIELD(modules), .help = "the kernel's modules directory" },
	{ "lru", KEY_STR, VARIANT_FIELD(lru), .check = check_lru,
	  .help = "classic, mglru, or a value 0x0..0x7 for /sys/kernel/mm/lru_gen/enabled" },
	{ "min_ttl_ms", KEY_I64, VARIANT_FIELD(min_ttl_ms), 0, 1000000000, .flags = KEY_SWEEP,
	  .help = "/sys/kernel/mm/lru_gen/min_ttl_ms" },
	{ "thp", KEY_STR, VARIANT_FIELD(thp), .check = check_thp, .flags = KEY_SWEEP,
	  .help = "transparent huge pages, instead of the guest's" },
	{ "read_ahead_kb", KEY_I64, VARIANT_FIELD(read_ahead_kb), 0, 1 << 20,
	  .then = then_read_ahead, .flags = KEY_SWEEP, .help = "the scratch disk's read-ahead" },
	{ "trace", KEY_ON_OFF, VARIANT_FIELD(trace), .help = "on or off, instead of the guest's" },
	{ "sysctl.", KEY_FN, .set = set_sysctl, .flags = KEY_SWEEP,
	  .help = "sysctl.vm.swappiness = 60: a sysctl's value" },
	{ "memcg.", KEY_FN, .set = set_variant_memcg,
	  .help = "memcg.NAME.memory.FILE: this variant's value of a [memcg NAME] file" },
};

/* One knob of one variant, a single value. */
static int variant_knob(struct parser *ps, struct plan_variant *var, const char *k, const char *v)
{
	const struct key_def *d = key_find(variant_keys, ARRAY_SIZE(variant_keys), k);

	if (!d)
		return fail(ps, "unknown key '%s' in [variant %s]", k, var->name);
	return key_set(ps, d, var, k, v);
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

static bool sweepable(const char *k)
{
	const struct key_def *d = key_find(variant_keys, ARRAY_SIZE(variant_keys), k);

	return d && d->flags & KEY_SWEEP;
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

static int set_type(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;

	(void)k;
	w->def = workload_find(v);
	if (!w->def)
		return fail(ps, "unknown workload type '%s' (see 'lrubench list')", v);
	return 0;
}

static int check_memcg_name(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return ini__name_ok(v) ? 0 : fail(ps, "bad memcg name '%s'", v);
}

static int set_after(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;

	(void)k;
	return name_list(ps, w, v, ",", check_after, "'after'", &w->after);
}

static int set_key(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;

	(void)k;
	return name_list(ps, w, v, " ", check_key, "key", &w->key);
}

#define WORKLOAD_FIELD(f) offsetof(struct plan_workload, f)

/* The keys of every [workload]; the rest are its type's parameters (catalogue.h). */
static const struct key_def workload_keys[] = {
	{ "type", KEY_FN, .set = set_type, .help = "a catalogue workload (lrubench list)" },
	{ "memcg", KEY_STR, WORKLOAD_FIELD(memcg), .check = check_memcg_name,
	  .help = "the [memcg NAME] it runs in" },
	{ "start", KEY_MS, WORKLOAD_FIELD(start_ms), .help = "its start, after the run's" },
	{ "after", KEY_FN, .set = set_after,
	  .help = "workloads declared above that exit before it starts" },
	{ "key", KEY_FN, .set = set_key, .flags = KEY_NEEDS_TYPE,
	  .help = "the results that decide its comparison, instead of the catalogue's" },
};

static int workload_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_workload *w = &ps->p->workloads[ps->p->nworkloads - 1];
	const struct key_def *d = key_find(workload_keys, ARRAY_SIZE(workload_keys), k);
	const struct wl_param *prm;

	if (d && (w->def || !(d->flags & KEY_NEEDS_TYPE)))
		return key_set(ps, d, w, k, v);
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

/* A key of the current section. */
static int section_key(struct parser *ps, const char *k, const char *v)
{
	switch (ps->sec) {
	case SEC_CAMPAIGN:
		return campaign_key(ps, k, v);
	case SEC_GUEST:
		return guest_key(ps, k, v);
	case SEC_VARIANT:
		return variant_key(ps, k, v);
	case SEC_MEMCG:
		return memcg_key(ps, k, v);
	case SEC_WORKLOAD:
		return workload_key(ps, k, v);
	case SEC_NONE:
		break;
	}
	return fail(ps, "'%s' outside any section", k);
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
	if (!name || !ini__name_ok(name))
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
		if (!ini__name_ok(name)) {
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
		uint64_t disk = w->def && w->def->scratch ? plan__scratch_bytes(p) : 0;
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

const char *plan__variant_thp(const struct plan *p, const struct plan_variant *v)
{
	return v->thp ? v->thp : p->thp;
}

bool plan__variant_trace(const struct plan *p, const struct plan_variant *v)
{
	return v->trace >= 0 ? v->trace : p->trace;
}

uint64_t plan__scratch_bytes(const struct plan *p)
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
	_cleanup_free_ char *msg = NULL;
	struct ini_item it;
	int r;

	*p = (struct plan){
		.path = xstrdup(path), .text = xstrdup(text), .name = xstrdup("campaign"),
		.repetitions = 2, .retries = 1, .seed = 1, .interval_ms = 1000, .timeout_ms = 600000,
		.mem_bytes = 1ull << 30, .cpus = 2, .swap = xstrdup("zram"),
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
			r = fail(&ps, "'%s' outside any section", it.key);
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
		r = fail(&ps, "%s", msg);
	}
	if (r == 0)
		r = plan_finish(&ps);
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
