// SPDX-License-Identifier: GPL-2.0
/*
 * The plan's keys, one table per section ([campaign], [guest], [variant NAME],
 * [workload NAME]; a [memcg NAME]'s memory.* files): each key is a row (key,
 * type, field, checks, help) with the setters and checks its rows name, and a
 * new plan key is one row here. A [workload]'s other keys are its catalogue
 * type's parameters, checked here too. What can only be checked once the
 * whole file is read is in plan-check.c; a [variant]'s lists (sweeps) are in
 * plan-variants.c, which sets each value through parser__variant_knob().
 */
#include "plan-priv.h"
#include "catalogue.h"
#include "ini.h"
#include "kernel-build.h"
#include "mempolicy.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

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

const char *lru_mode_mechanisms(unsigned enabled)
{
	static const char *const name[4] = {
		"core",
		"core + page-table walk",
		"core + non-leaf young",
		"core + page-table walk + non-leaf young",
	};

	return enabled & 1 ? name[(enabled >> 1) & 3] : "classic";
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
		return parser__fail(ps, "bad size '%s' for '%s'%s (use e.g. 512M, 2G)", v, k,
				    num_why(v, r));
	return 0;
}

static int set_ms(struct parser *ps, uint64_t *dst, const char *k, const char *v)
{
	int r = parse_duration_ms(v, dst);

	if (r < 0)
		return parser__fail(ps, "bad duration '%s' for '%s'%s (use e.g. 500ms, 30s, 2m)", v,
				    k, num_why(v, r));
	return 0;
}

static int set_int(struct parser *ps, int *dst, const char *k, const char *v, int min, int max)
{
	int64_t x;
	int r = parse_i64(v, &x);

	if (r < 0 || x < min || x > max)
		return parser__fail(ps, "bad value '%s' for '%s'%s (an integer from %d to %d)", v,
				    k, r < 0 ? num_why(v, r) : "", min, max);
	*dst = (int)x;
	return 0;
}

/* "on" or "off" into *dst (1, 0). */
static int set_on_off(struct parser *ps, int *dst, const char *k, const char *v)
{
	if (strcmp(v, "on") && strcmp(v, "off"))
		return parser__fail(ps, "bad value '%s' for '%s' (on or off)", v, k);
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
 * is a prefix (sysctl.vm.swappiness). Each hook returns 0 or parser__fail()'s error.
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
	if (!ini__name_ok(v))
		return parser__fail(ps, "bad name '%s' (letters, digits, '.', '_', '-')", v);
	return 0;
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
	return r < 0 ? parser__fail(ps, "bad seed '%s'%s", v, num_why(v, r)) : 0;
}

static int then_interval(struct parser *ps, void *obj, const char *v)
{
	if (((struct plan *)obj)->interval_ms < 10)
		return parser__fail(ps, "interval '%s' is below 10ms", v);
	return 0;
}

static int then_timeout(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->timeout_ms)
		return parser__fail(ps, "timeout '%s' is zero: every run would time out at once",
				    v);
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

int parser__campaign_key(struct parser *ps, const char *k, const char *v)
{
	const struct key_def *d = key_find(campaign_keys, ARRAY_SIZE(campaign_keys), k);

	if (!d)
		return parser__fail(ps, "unknown key '%s' in [campaign]", k);
	return key_set(ps, d, ps->p, k, v);
}

/* ---- [guest] ---- */

static int then_memory(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->mem_bytes)
		return parser__fail(ps, "memory '%s' is zero: the guest needs some", v);
	return 0;
}

static int then_numa(struct parser *ps, void *obj, const char *v)
{
	(void)obj;
	(void)v;
	ps->numa_line = ps->line;
	return 0;
}

static int check_swap(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	if (strcmp(v, "zram") && strcmp(v, "none"))
		return parser__fail(ps, "bad swap '%s' (zram or none)", v);
	return 0;
}

static int then_swap_size(struct parser *ps, void *obj, const char *v)
{
	if (!((struct plan *)obj)->swap_bytes)
		return parser__fail(ps, "swap_size '%s' is zero (swap = none for no swap)", v);
	return 0;
}

static int then_scratch_size(struct parser *ps, void *obj, const char *v)
{
	if (((struct plan *)obj)->scratch_bytes < (64ull << 20))
		return parser__fail(ps, "scratch_size '%s' is below 64M", v);
	return 0;
}

static int check_zram_comp(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return ini__name_ok(v) ? 0 : parser__fail(ps, "bad zram_comp '%s'", v);
}

/* cgroup2's mount options that change what a memcg's files mean (Documentation/admin-guide/cgroup-v2.rst). */
static const char *const cgroup2_options[] = { "nsdelegate", "memory_recursiveprot",
					       "memory_localevents", "favordynmods",
					       "memory_hugetlb_accounting", "pids_localevents" };

static int check_cgroup2_options(struct parser *ps, void *obj, const char *k, const char *v)
{
	_cleanup_free_ char *copy = xstrdup(v);
	char *rest = copy, *o;

	(void)obj;
	(void)k;
	if (!strcmp(v, "none"))
		return 0;
	while ((o = strsep(&rest, ","))) {
		bool known = false;

		if (!*o)
			return parser__fail(ps, "bad cgroup2_options '%s' (names separated by "
						"commas, or none)", v);

		for (size_t i = 0; i < ARRAY_SIZE(cgroup2_options); i++)
			known |= !strcmp(o, cgroup2_options[i]);
		if (!known)
			return parser__fail(ps,
					    "unknown cgroup2 mount option '%s' in '%s' (nsdelegate, "
					    "memory_recursiveprot, memory_localevents, favordynmods, "
					    "memory_hugetlb_accounting, pids_localevents, or none)",
					    o, v);
	}
	return 0;
}

static int check_thp(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return thp_ok(v) ? 0 : parser__fail(ps, "bad thp '%s' (never, always or madvise)", v);
}

bool plan_clock_ok(const char *s)
{
	return !strcmp(s, PLAN_CLOCK_REAL) || !strcmp(s, PLAN_CLOCK_INSTRUCTIONS);
}

int plan_clock_default_cpus(const char *clock)
{
	return !strcmp(clock, PLAN_CLOCK_INSTRUCTIONS) ? 1 : 2;
}

void plan__set_clock(struct plan *p, const char *clock)
{
	char *c = xstrdup(clock); /* clock may be p->clock itself */

	free(p->clock);
	p->clock = c;
	p->cpus = p->cpus_asked ? p->cpus_asked : plan_clock_default_cpus(c);
}

static int check_clock(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return plan_clock_ok(v) ? 0
				: parser__fail(ps, "bad clock '%s' (real or instructions)", v);
}

static const struct key_def guest_keys[] = {
	{ "memory", KEY_SIZE, PLAN_FIELD(mem_bytes), .then = then_memory,
	  .help = "the guest's memory" },
	{ "cpus", KEY_INT, PLAN_FIELD(cpus_asked), 1, 256,
	  .help = "the guest's CPUs (default 2; 1 with clock = instructions)" },
	{ "numa", KEY_INT, PLAN_FIELD(numa), 1, PLAN_NUMA_MAX, .then = then_numa,
	  .help = "NUMA nodes (default 1): memory split evenly, CPU i on node i mod N (a node "
		  "beyond the CPUs has memory only)" },
	{ "clock", KEY_STR, PLAN_FIELD(clock), .check = check_clock,
	  .help = "real (guest time follows the host's) or instructions (QEMU -icount: "
		  "guest time advances per executed instruction, whatever the host's load)" },
	{ "clock_sleep", KEY_BOOL, PLAN_FIELD(clock_sleep),
	  .help = "with clock = instructions, -icount's sleep: on (default), an idle guest's "
		  "time follows the host's; off, it jumps to the next timer" },
	{ "swap", KEY_STR, PLAN_FIELD(swap), .check = check_swap, .help = "zram or none" },
	{ "swap_size", KEY_SIZE, PLAN_FIELD(swap_bytes), .then = then_swap_size,
	  .help = "the zram device's size" },
	{ "scratch_size", KEY_SIZE, PLAN_FIELD(scratch_bytes), .then = then_scratch_size,
	  .help = "the scratch disk's size (64M at least; default max(2G, 4 x memory))" },
	{ "zram_comp", KEY_STR, PLAN_FIELD(zram_comp), .check = check_zram_comp,
	  .help = "the zram compressor" },
	{ "cgroup2_options", KEY_STR, PLAN_FIELD(cgroup2_options), .check = check_cgroup2_options,
	  .help = "cgroup2's mount options (default nsdelegate,memory_recursiveprot, as systemd "
		  "mounts it; none for none)" },
	{ "thp", KEY_STR, PLAN_FIELD(thp), .check = check_thp,
	  .help = "transparent huge pages: never, always or madvise" },
	{ "cmdline", KEY_STR, PLAN_FIELD(cmdline), .help = "added to the kernel's command line" },
	{ "trace", KEY_BOOL, PLAN_FIELD(trace),
	  .help = "on: reclaim stall histograms from the vmscan tracepoints" },
};

int parser__guest_key(struct parser *ps, const char *k, const char *v)
{
	const struct key_def *d = key_find(guest_keys, ARRAY_SIZE(guest_keys), k);

	if (!d)
		return parser__fail(ps, "unknown key '%s' in [guest]", k);
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
			return parser__fail(ps, "bad size '%s' for '%s'%s (e.g. 256M, or max)", v,
					    k, num_why(v, r));
		*ret = xasprintf("%llu", (unsigned long long)bytes);
		return 0;
	}
	if (!strcmp(k, "memory.oom.group")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return parser__fail(ps, "bad value '%s' for '%s' (0 or 1)", v, k);
		*ret = xstrdup(v);
		return 0;
	}
	/* cgroup v1 only: v2 has no per-memcg swappiness, and the agent would fail at boot */
	if (!strcmp(k, "memory.swappiness"))
		return parser__fail(ps,
				    "'%s' is a cgroup v1 file; cgroup v2 has none (use "
				    "sysctl.vm.swappiness in a [variant])",
				    k);
	return -ENOENT;
}

/* ---- [variant NAME] ---- */

static int check_kernel(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	if (kernel_spec_kind(v) == KERNEL_SPEC_BAD)
		return parser__fail(ps,
				    "bad kernel '%s' (debian, a recipe: NAME for kernels/NAME.ini "
				    "or a FILE.ini, or a bzImage path holding a '/')",
				    v);
	return 0;
}

static int check_lru(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_variant *var = obj;

	(void)k;
	if (lru_mode_parse(v, &var->lru_enabled) < 0)
		return parser__fail(ps,
				    "bad lru '%s' (classic, mglru, or a value 0x0..0x7 for "
				    "/sys/kernel/mm/lru_gen/enabled)",
				    v);
	return 0;
}

/* The kernel takes a power of two of pages up to a PMD's worth (mm/memory.c
 * fault_around_bytes_set) and rounds anything else down: refused here instead. */
static int then_fault_around(struct parser *ps, void *obj, const char *v)
{
	int64_t b = ((struct plan_variant *)obj)->fault_around_bytes;

	if (b & (b - 1))
		return parser__fail(ps,
				    "bad fault_around_bytes '%s' (a power of two from 4096, no "
				    "fault-around, to 2M)",
				    v);
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
		return parser__fail(ps, "unknown key '%s' in [variant %s]", k, var->name);
	path = xstrdup(k + 7);
	for (char *c = path; *c; c++) {
		if (*c == '.')
			*c = '/';
		else if (!isalnum((unsigned char)*c) && *c != '_')
			return parser__fail(ps, "bad sysctl name '%s'", k);
	}
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(" _-.", *c))
			return parser__fail(ps, "bad value '%s' for '%s'", v, k);
	kv__add(&var->sysctls, &var->nsysctls, path, v);
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
		return parser__fail(ps, "bad key '%s' (memcg.NAME.memory.FILE)", k);
	name = strndup(k + 6, (size_t)(file - (k + 6)));
	if (!ini__name_ok(name))
		return parser__fail(ps, "bad memcg name in '%s'", k);
	r = memcg_file(ps, file + 1, v, &val);
	if (r == -ENOENT)
		return parser__fail(ps, "unknown memcg file '%s' in '%s'", file + 1, k);
	if (r < 0)
		return r;
	kv__add(&var->memcg_files, &var->nmemcg_files, k + 6, val);
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
	{ "fault_around_bytes", KEY_I64, VARIANT_FIELD(fault_around_bytes), 4096, 2 << 20,
	  .then = then_fault_around, .flags = KEY_SWEEP,
	  .help = "/sys/kernel/debug/fault_around_bytes: 4096 maps no neighbours on a file fault" },
	{ "trace", KEY_ON_OFF, VARIANT_FIELD(trace), .help = "on or off, instead of the guest's" },
	{ "sysctl.", KEY_FN, .set = set_sysctl, .flags = KEY_SWEEP,
	  .help = "sysctl.vm.swappiness = 60: a sysctl's value" },
	{ "memcg.", KEY_FN, .set = set_variant_memcg,
	  .help = "memcg.NAME.memory.FILE: this variant's value of a [memcg NAME] file" },
};

/* One knob of one variant, a single value. */
int parser__variant_knob(struct parser *ps, struct plan_variant *var, const char *k,
			 const char *v)
{
	const struct key_def *d = key_find(variant_keys, ARRAY_SIZE(variant_keys), k);

	if (!d)
		return parser__fail(ps, "unknown key '%s' in [variant %s]", k, var->name);
	return key_set(ps, d, var, k, v);
}

bool variant_key_sweeps(const char *k)
{
	const struct key_def *d = key_find(variant_keys, ARRAY_SIZE(variant_keys), k);

	return d && d->flags & KEY_SWEEP;
}

/* ---- [memcg NAME] ---- */

int parser__memcg_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_memcg *m = &ps->p->memcgs[ps->p->nmemcgs - 1];
	_cleanup_free_ char *val = NULL;
	int r = memcg_file(ps, k, v, &val);

	if (r == -ENOENT)
		return parser__fail(ps, "unknown key '%s' in [memcg %s]", k, m->name);
	if (r < 0)
		return r;
	kv__add(&m->files, &m->nfiles, k, val);
	if (!strcmp(k, "memory.max") && strcmp(val, "max"))
		parse_u64(val, &m->max_bytes);
	return 0;
}

/* ---- [workload NAME] ---- */

/*
 * A list of names ("a, b c") checked one by one (check returns 0 or
 * parser__fail()'s error) and joined by sep into *ret (malloc'd); what names
 * the list in the error for an empty one.
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
		return parser__fail(ps, "empty %s list in [workload %s]", what, w->name);
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
		return parser__fail(ps,
				    "key '%s' is not a result %s reports on every run (see "
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
	return parser__fail(ps, "after '%s': not a workload declared above [workload %s]", k,
			    w->name);
}

static int set_type(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;

	(void)k;
	w->def = workload_find(v);
	if (!w->def)
		return parser__fail(ps, "unknown workload type '%s' (see 'lrubench list')", v);
	return 0;
}

static int check_memcg_name(struct parser *ps, void *obj, const char *k, const char *v)
{
	(void)obj;
	(void)k;
	return ini__name_ok(v) ? 0 : parser__fail(ps, "bad memcg name '%s'", v);
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

static int set_numa_policy(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;
	struct mempolicy m;
	const char *why;

	(void)k;
	if (mempolicy_parse(v, &m, &why) < 0)
		return parser__fail(ps, "bad numa_policy '%s': %s", v, why);
	free(w->numa_policy);
	w->numa_policy = xstrdup(v);
	w->numa_policy_line = ps->line;
	return 0;
}

static int set_cpu_affinity(struct parser *ps, void *obj, const char *k, const char *v)
{
	struct plan_workload *w = obj;
	uint64_t cpus;

	(void)k;
	if (mempolicy_node_list(v, &cpus) < 0)
		return parser__fail(ps,
				    "bad cpu_affinity '%s': a list of vCPUs below 64 and ranges: "
				    "0, 0,2 or 0-3",
				    v);
	free(w->cpu_affinity);
	w->cpu_affinity = xstrdup(v);
	w->cpu_affinity_line = ps->line;
	return 0;
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
	{ "cpu_affinity", KEY_FN, .set = set_cpu_affinity,
	  .help = "the guest's vCPUs it may run on (sched_setaffinity), e.g. 0 or 0-1; "
		  "default any" },
	{ "numa_policy", KEY_FN, .set = set_numa_policy,
	  .help = "its NUMA placement: default, bind:LIST, interleave:LIST or preferred:N "
		  "(nodes of [guest] numa)" },
};

int parser__workload_key(struct parser *ps, const char *k, const char *v)
{
	struct plan_workload *w = &ps->p->workloads[ps->p->nworkloads - 1];
	const struct key_def *d = key_find(workload_keys, ARRAY_SIZE(workload_keys), k);
	const struct wl_param *prm;

	if (d && (w->def || !(d->flags & KEY_NEEDS_TYPE)))
		return key_set(ps, d, w, k, v);
	if (!strcmp(k, "dir") && w->def && w->def->scratch)
		return parser__fail(ps, "'dir' is given by lrubench (/scratch/%s)", w->name);
	if (!w->def)
		return parser__fail(ps, "'type' must come before '%s' in [workload %s]", k,
				    w->name);
	prm = workload_param(w->def, k);
	if (!prm)
		return parser__fail(ps, "unknown key '%s' for workload type '%s'", k, w->def->name);
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
				return parser__fail(ps, "bad relative size '%s' for '%s'", v, k);
		} else if ((r = parse_size(v, &b)) < 0) {
			return parser__fail(ps, "bad size '%s' for '%s'%s (e.g. 512M or 2.5x)", v,
					    k, num_why(v, r));
		}
		break;
	}
	case WLP_U64: {
		uint64_t x;

		int r = parse_u64(v, &x);

		if (r < 0)
			return parser__fail(ps, "bad value '%s' for '%s'%s (an unsigned integer)",
					    v, k, num_why(v, r));
		break;
	}
	case WLP_FRACTION: {
		double f = 0;

		if (parse_double(v, &f) < 0 || !(f >= prm->min && f <= prm->max))
			return parser__fail(ps, "bad value '%s' for '%s' (a number from %g to %g)",
					    v, k, prm->min, prm->max);
		break;
	}
	case WLP_DURATION: {
		uint64_t ms;

		int r = parse_duration_ms(v, &ms);

		if (r < 0)
			return parser__fail(ps, "bad duration '%s' for '%s'%s", v, k,
					    num_why(v, r));
		break;
	}
	case WLP_CHOICE:
		if (!wl_param__choice_ok(prm, v))
			return parser__fail(ps, "bad value '%s' for '%s' (%s)", v, k, prm->choices);
		break;
	}
	kv__add(&w->params, &w->nparams, k, v);
	return 0;
}
