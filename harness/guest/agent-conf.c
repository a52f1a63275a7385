// SPDX-License-Identifier: GPL-2.0
/*
 * run.conf parser (PROTOCOL.md section 1). Plain keys are rows of one table;
 * the per-memcg and per-workload keys (memcg.NAME.FILE, workload.NAME.FIELD)
 * are resolved after the whole file is read, against the declared names, so
 * a name holding dots is not ambiguous and declaration order does not matter.
 */
#include "agent-conf.h"

#include "util.h"

#include <stddef.h>
#include <string.h>

struct conf_key {
	const char *key;
	int (*set)(struct agent_conf *c, const struct conf_key *k, const char *value);
	size_t off;		/* field set by the generic setters */
	uint64_t min, max;	/* range for integers */
};

/* A memcg.* or workload.* line, kept until every name is declared. */
struct pending {
	unsigned line;
	char *key;		/* without the "memcg." or "workload." prefix */
	char *value;
	bool memcg;
};

struct parser {
	struct agent_conf *conf;
	unsigned line;
	struct pending *pending;
	size_t n_pending;
};

static void conf_error(struct agent_conf *c, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void conf_error(struct agent_conf *c, unsigned line, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	size_t at = c->n_errors;

	/* Keep line order: memcg.* and workload.* lines are checked last. */
	while (line && at > 0 && (!c->error_lines[at - 1] || c->error_lines[at - 1] > line))
		at--;
	c->errors = xrealloc(c->errors, c->n_errors + 1, sizeof(*c->errors));
	c->error_lines = xrealloc(c->error_lines, c->n_errors + 1, sizeof(*c->error_lines));
	memmove(c->errors + at + 1, c->errors + at, (c->n_errors - at) * sizeof(*c->errors));
	memmove(c->error_lines + at + 1, c->error_lines + at,
		(c->n_errors - at) * sizeof(*c->error_lines));
	c->errors[at] =
		line ? xasprintf("run.conf:%u: %s", line, msg) : xasprintf("run.conf: %s", msg);
	c->error_lines[at] = line;
	c->n_errors++;
}

bool conf_name_valid(const char *s)
{
	if (!*s || strlen(s) >= CONF_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* A relative path below /proc/sys or /sys: no "..", no leading '/'. */
static bool conf_path_valid(const char *s)
{
	if (!*s || *s == '/' || strstr(s, "..") || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '.' || *s == '_' || *s == '-' ||
		      *s == '/' || *s == ':' || *s == '+'))
			return false;
	return true;
}

const char *fault_kind_name(enum fault_kind kind)
{
	static const char *const names[] = { "none", "hang", "panic", "crash", "garbage" };

	return (size_t)kind < ARRAY_SIZE(names) ? names[kind] : "?";
}

static int set_text(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	char **field = (char **)((char *)c + k->off);

	free(*field);
	*field = xstrdup(value);
	return 0;
}

static int set_name(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	if (!conf_name_valid(value))
		return -EINVAL;
	return set_text(c, k, value);
}

/* Mount options: names separated by commas, or "none". */
static int set_mount_options(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	_cleanup_free_ char *copy = xstrdup(value);
	char *rest = copy, *o;

	/* strsep, not strtok: an empty name ("a,,b", "a,") is an error, not skipped. */
	while ((o = strsep(&rest, ",")))
		if (!conf_name_valid(o))
			return -EINVAL;
	return set_text(c, k, value);
}

static int set_u64(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	uint64_t v;
	int r = parse_u64(value, &v);

	if (r < 0)
		return r;
	if (v < k->min || v > k->max)
		return -ERANGE;
	*(uint64_t *)((char *)c + k->off) = v;
	return 0;
}

static int set_size(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	uint64_t v;
	int r = parse_size(value, &v);

	if (r < 0)
		return r;
	*(uint64_t *)((char *)c + k->off) = v;
	return 0;
}

static int set_lru_enabled(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	uint64_t v;
	int r = parse_u64_c(value, &v); /* 0x0007, as the kernel prints it */

	(void)k;
	if (r < 0)
		return r;
	if (v > 0xffff)
		return -ERANGE;
	c->lru_enabled = (unsigned)v;
	c->has_lru_enabled = true;
	return 0;
}

static int set_min_ttl(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	int r = set_u64(c, k, value);

	if (r == 0)
		c->has_min_ttl_ms = true;
	return r;
}

static int set_final_dump(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (strcmp(value, "0") && strcmp(value, "1"))
		return -EINVAL;
	c->final_dump = value[0] == '1';
	return 0;
}

/* trace=NAME, repeatable: the tracers to run (only "reclaim" so far). */
static int add_trace(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (strcmp(value, "reclaim"))
		return -EINVAL;
	c->trace_reclaim = true;
	return 0;
}

static int set_fault(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	for (enum fault_kind f = FAULT_NONE; f <= FAULT_GARBAGE; f++) {
		if (!strcmp(value, fault_kind_name(f))) {
			c->fault = f;
			return 0;
		}
	}
	return -EINVAL;
}

static int set_scratch_ra(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	int r = set_u64(c, k, value);

	if (r == 0)
		c->has_scratch_read_ahead_kb = true;
	return r;
}

/* "gen,ref,drop": the working-set methods (WSS_* bits, in order), each once; reclaim and
 * drop exclude each other. */
static int set_wss_methods(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	static const char *const names[] = { "gen", "ref", "reclaim", "drop" };
	_cleanup_free_ char *copy = xstrdup(value);
	char *save = NULL;
	unsigned bits = 0;

	(void)k;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < ARRAY_SIZE(names) && strcmp(w, names[i]))
			i++;
		if (i == ARRAY_SIZE(names) || bits & (1u << i))
			return -EINVAL;
		bits |= 1u << i;
	}
	if (!bits || ((bits & WSS_RECLAIM) && (bits & WSS_DROP)))
		return -EINVAL;
	c->wss_methods = bits;
	return 0;
}

static int add_module(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (value[0] != '/' || strstr(value, ".."))
		return -EINVAL;
	c->modules = xrealloc(c->modules, c->n_modules + 1, sizeof(*c->modules));
	c->modules[c->n_modules++] = xstrdup(value);
	return 0;
}

/* "path=value" for sysctl and sysfs lines. */
static int add_path_value(struct conf_kv **list, size_t *n, const char *value)
{
	const char *eq = strchr(value, '=');
	_cleanup_free_ char *path = NULL;

	if (!eq)
		return -EINVAL;
	path = strndup(value, (size_t)(eq - value));
	if (!path)
		abort();
	if (!conf_path_valid(path))
		return -EINVAL;
	*list = xrealloc(*list, *n + 1, sizeof(**list));
	(*list)[*n] = (struct conf_kv){ .key = TAKE_PTR(path), .value = xstrdup(eq + 1) };
	(*n)++;
	return 0;
}

static int add_sysctl(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	return add_path_value(&c->sysctls, &c->n_sysctls, value);
}

static int add_sysfs(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	return add_path_value(&c->sysfs, &c->n_sysfs, value);
}

static int add_readback(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (!conf_path_valid(value))
		return -EINVAL;
	c->readbacks = xrealloc(c->readbacks, c->n_readbacks + 1, sizeof(*c->readbacks));
	c->readbacks[c->n_readbacks++] = xstrdup(value);
	return 0;
}

static int add_memcg(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (!conf_name_valid(value))
		return -EINVAL;
	if (agent_conf_memcg_index(c, value) >= 0)
		return -EEXIST;
	c->memcgs = xrealloc(c->memcgs, c->n_memcgs + 1, sizeof(*c->memcgs));
	c->memcgs[c->n_memcgs++] = (struct conf_memcg){ .name = xstrdup(value) };
	return 0;
}

static struct conf_workload *find_workload(struct agent_conf *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->n_workloads; i++)
		if (strlen(c->workloads[i].name) == len && !memcmp(c->workloads[i].name, name, len))
			return &c->workloads[i];
	return NULL;
}

static int add_workload(struct agent_conf *c, const struct conf_key *k, const char *value)
{
	(void)k;
	if (!conf_name_valid(value))
		return -EINVAL;
	if (find_workload(c, value, strlen(value)))
		return -EEXIST;
	c->workloads = xrealloc(c->workloads, c->n_workloads + 1, sizeof(*c->workloads));
	c->workloads[c->n_workloads++] = (struct conf_workload){
		.name = xstrdup(value),
		.argv = xcalloc(1, sizeof(char *)),
	};
	return 0;
}

#define FIELD(f) offsetof(struct agent_conf, f)
static const struct conf_key conf_keys[] = {
	{ "run", set_text, FIELD(run), 0, 0 },
	{ "module", add_module, 0, 0, 0 },
	{ "lru_enabled", set_lru_enabled, 0, 0, 0 },
	{ "min_ttl_ms", set_min_ttl, FIELD(min_ttl_ms), 0, UINT32_MAX },
	{ "sysctl", add_sysctl, 0, 0, 0 },
	{ "sysfs", add_sysfs, 0, 0, 0 },
	{ "readback", add_readback, 0, 0, 0 },
	{ "zram_size", set_size, FIELD(zram_size), 0, 0 },
	{ "zram_comp", set_name, FIELD(zram_comp), 0, 0 },
	{ "cgroup2_options", set_mount_options, FIELD(cgroup2_options), 0, 0 },
	{ "interval_ms", set_u64, FIELD(interval_ms), 10, 3600 * 1000 },
	{ "tools_disk", set_name, FIELD(tools_disk), 0, 0 },
	{ "scratch_disk", set_name, FIELD(scratch_disk), 0, 0 },
	{ "scratch_read_ahead_kb", set_scratch_ra, FIELD(scratch_read_ahead_kb), 0, 1 << 20 },
	{ "memcg", add_memcg, 0, 0, 0 },
	{ "workload", add_workload, 0, 0, 0 },
	{ "fault", set_fault, 0, 0, 0 },
	{ "fault_at_ms", set_u64, FIELD(fault_at_ms), 0, UINT32_MAX },
	{ "final_dump", set_final_dump, 0, 0, 0 },
	{ "calibrate_ms", set_u64, FIELD(calibrate_ms), 10, 60 * 1000 },
	{ "numa_nodes", set_u64, FIELD(numa_nodes), 1, MEMPOLICY_NODES_MAX },
	{ "trace", add_trace, 0, 0, 0 },
	{ "wss_start_ms", set_u64, FIELD(wss_start_ms), 0, UINT32_MAX },
	{ "wss_window_ms", set_u64, FIELD(wss_window_ms), 100, 3600 * 1000 },
	{ "wss_windows", set_u64, FIELD(wss_windows), 1, 1000 },
	{ "wss_methods", set_wss_methods, 0, 0, 0 },
};
#undef FIELD

int agent_conf_memcg_index(const struct agent_conf *conf, const char *name)
{
	for (size_t i = 0; i < conf->n_memcgs; i++)
		if (!strcmp(conf->memcgs[i].name, name))
			return (int)i;
	return -1;
}

static void parse_line(struct parser *p, char *key, char *value)
{
	struct agent_conf *c = p->conf;
	bool memcg = !strncmp(key, "memcg.", 6);

	for (size_t i = 0; i < ARRAY_SIZE(conf_keys); i++) {
		const struct conf_key *k = &conf_keys[i];
		int r;

		if (strcmp(k->key, key))
			continue;
		r = k->set(c, k, value);
		if (r == -EEXIST)
			conf_error(c, p->line, "'%s' declared twice: '%s'", key, value);
		else if (r < 0)
			conf_error(c, p->line, "bad value for '%s': '%s'", key, value);
		return;
	}
	if (memcg || !strncmp(key, "workload.", 9)) {
		p->pending = xrealloc(p->pending, p->n_pending + 1, sizeof(*p->pending));
		p->pending[p->n_pending++] = (struct pending){
			.line = p->line,
			.key = xstrdup(key + (memcg ? 6 : 9)),
			.value = xstrdup(value),
			.memcg = memcg,
		};
		return;
	}
	conf_error(c, p->line, "unknown key '%s'", key);
}

/* memcg.NAME.FILE: NAME is the longest declared memcg name that fits. */
static void resolve_memcg_file(struct agent_conf *c, const struct pending *pd)
{
	struct conf_memcg *best = NULL;
	size_t best_len = 0;
	const char *file;

	for (size_t i = 0; i < c->n_memcgs; i++) {
		size_t n = strlen(c->memcgs[i].name);

		if (n > best_len && !strncmp(pd->key, c->memcgs[i].name, n) && pd->key[n] == '.') {
			best = &c->memcgs[i];
			best_len = n;
		}
	}
	if (!best) {
		conf_error(c, pd->line, "unknown key 'memcg.%s' (no such memcg declared)", pd->key);
		return;
	}
	file = pd->key + best_len + 1;
	if (!conf_name_valid(file) || file[0] == '.') {
		conf_error(c, pd->line, "bad memcg file in 'memcg.%s'", pd->key);
		return;
	}
	best->files = xrealloc(best->files, best->n_files + 1, sizeof(*best->files));
	best->files[best->n_files++] = (struct conf_kv){
		.key = xstrdup(file),
		.value = xstrdup(pd->value),
		.line = pd->line,
	};
}

/* workload.NAME.FIELD: FIELD is a fixed word, so split at the last dot. */
static void resolve_workload_field(struct agent_conf *c, const struct pending *pd)
{
	const char *dot = strrchr(pd->key, '.');
	struct conf_workload *w = dot ? find_workload(c, pd->key, (size_t)(dot - pd->key)) : NULL;
	const char *field = dot ? dot + 1 : "";

	if (!w || (strcmp(field, "memcg") && strcmp(field, "arg") && strcmp(field, "start_ms") &&
		   strcmp(field, "after") && strcmp(field, "mempolicy") && strcmp(field, "cpus"))) {
		conf_error(c, pd->line, "unknown key 'workload.%s'", pd->key);
		return;
	}
	if (!strcmp(field, "memcg")) {
		if (agent_conf_memcg_index(c, pd->value) < 0) {
			conf_error(c, pd->line, "workload '%s': memcg '%s' is not declared", w->name,
				   pd->value);
			return;
		}
		free(w->memcg);
		w->memcg = xstrdup(pd->value);
	} else if (!strcmp(field, "after")) {
		/* comma-separated workload names: each must exit before this one starts */
		for (const char *p = pd->value; *p;) {
			size_t len = strcspn(p, ",");
			struct conf_workload *o = find_workload(c, p, len);

			if (!o || o == w) {
				conf_error(c, pd->line, "workload '%s': after '%.*s': %s", w->name,
					   (int)len, p, o ? "itself" : "no such workload");
				return;
			}
			w->after = xrealloc(w->after, w->n_after + 1, sizeof(*w->after));
			w->after[w->n_after++] = (size_t)(o - c->workloads);
			p += len + (p[len] == ',');
		}
	} else if (!strcmp(field, "cpus")) {
		if (mempolicy_node_list(pd->value, &w->cpus) < 0)
			conf_error(c, pd->line, "bad value for 'workload.%s': '%s'", pd->key,
				   pd->value);
	} else if (!strcmp(field, "mempolicy")) {
		const char *why;

		if (mempolicy_parse(pd->value, &w->mempolicy, &why) < 0)
			conf_error(c, pd->line, "bad value for 'workload.%s': '%s': %s", pd->key,
				   pd->value, why);
	} else if (!strcmp(field, "arg")) {
		w->argv = xrealloc(w->argv, w->argc + 2, sizeof(*w->argv));
		w->argv[w->argc++] = xstrdup(pd->value);
		w->argv[w->argc] = NULL;
	} else if (parse_u64(pd->value, &w->start_ms) < 0 || w->start_ms > UINT32_MAX) {
		conf_error(c, pd->line, "bad value for 'workload.%s': '%s'", pd->key, pd->value);
	}
}

static void finish(struct parser *p)
{
	struct agent_conf *c = p->conf;

	for (size_t i = 0; i < p->n_pending; i++) {
		struct pending *pd = &p->pending[i];

		if (pd->memcg)
			resolve_memcg_file(c, pd);
		else
			resolve_workload_field(c, pd);
		free(pd->key);
		free(pd->value);
	}
	free(p->pending);
	if (c->has_scratch_read_ahead_kb && !c->scratch_disk)
		conf_error(c, 0, "scratch_read_ahead_kb without a scratch_disk");
	if (c->wss_methods && (!c->wss_window_ms || !c->wss_windows))
		conf_error(c, 0, "wss_methods without wss_window_ms and wss_windows");
	for (size_t i = 0; i < c->n_workloads; i++) {
		struct conf_workload *w = &c->workloads[i];

		if (!w->argc)
			conf_error(c, 0, "workload '%s' has no 'workload.%s.arg'", w->name, w->name);
		else if (w->argv[0][0] != '/')
			conf_error(c, 0, "workload '%s': binary '%s' is not an absolute path",
				   w->name, w->argv[0]);
	}
}

void agent_conf_parse(const char *buf, size_t len, struct agent_conf **ret)
{
	struct agent_conf *c = xcalloc(1, sizeof(*c));
	struct parser p = { .conf = c };
	const char *pos = buf, *end = buf + len;

	c->interval_ms = 1000;
	c->zram_comp = xstrdup("lzo-rle");
	while (pos < end) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		size_t n = nl ? (size_t)(nl - pos) : (size_t)(end - pos);
		_cleanup_free_ char *line = strndup(pos, n);
		char *s, *eq;

		if (!line)
			abort();
		pos += n + (nl ? 1 : 0);
		p.line++;
		if (strlen(line) != n) {
			conf_error(c, p.line, "NUL byte in line");
			continue;
		}
		s = strstrip(line);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			conf_error(c, p.line, "expected key=value, got '%s'", s);
			continue;
		}
		*eq = '\0';
		parse_line(&p, strstrip(s), strstrip(eq + 1));
	}
	finish(&p);
	*ret = c;
}

static void free_kvs(struct conf_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void agent_conf_free(struct agent_conf *c)
{
	if (!c)
		return;
	free(c->run);
	for (size_t i = 0; i < c->n_modules; i++)
		free(c->modules[i]);
	free(c->modules);
	free_kvs(c->sysctls, c->n_sysctls);
	free_kvs(c->sysfs, c->n_sysfs);
	for (size_t i = 0; i < c->n_readbacks; i++)
		free(c->readbacks[i]);
	free(c->readbacks);
	free(c->zram_comp);
	free(c->cgroup2_options);
	free(c->tools_disk);
	free(c->scratch_disk);
	for (size_t i = 0; i < c->n_memcgs; i++) {
		free(c->memcgs[i].name);
		free_kvs(c->memcgs[i].files, c->memcgs[i].n_files);
	}
	free(c->memcgs);
	for (size_t i = 0; i < c->n_workloads; i++) {
		struct conf_workload *w = &c->workloads[i];

		free(w->name);
		free(w->memcg);
		free(w->after);
		for (size_t j = 0; j < w->argc; j++)
			free(w->argv[j]);
		free(w->argv);
	}
	free(c->workloads);
	for (size_t i = 0; i < c->n_errors; i++)
		free(c->errors[i]);
	free(c->errors);
	free(c->error_lines);
	free(c);
}
