// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled sources (harness/common/source.h): a toy source, defined only in
 * this file as a new source is in its harness/common/source-NAME.c, is read
 * and parsed the way the agent's sampler does, its v lines go through the
 * host's stream parser, and the host's dictionary knows its metrics from the
 * same descriptor, with no other file changed: adding its row to
 * sources_table() is all the agent and the host need. Then the real list:
 * every file source parses its file captured in a real guest (fixtures/guest/)
 * into keys the dictionary knows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "metrics.h"
#include "source.h"
#include "stream.h"
#include "util.h"

#define FIX "harness/tests/fixtures/guest/6.1.0-57-cloud-amd64/mglru-memcg/"

/* The toy: "name=value" lines in each memcg's toy.stat, a format of its own. */
static unsigned parse_toy(const char *buf, size_t len, source_value_fn fn, void *arg)
{
	const char *p = buf, *end = buf + len;
	unsigned bad = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq;
		const char *eol = nl ? nl : end;
		int64_t v;
		char num[24];

		eq = memchr(p, '=', (size_t)(eol - p));
		if (!eq || eq == p || (size_t)(eol - eq - 1) >= sizeof(num)) {
			bad++;
		} else {
			memcpy(num, eq + 1, (size_t)(eol - eq - 1));
			num[eol - eq - 1] = '\0';
			if (parse_i64(num, &v) < 0)
				bad++;
			else
				fn(arg, p, (size_t)(eq - p), v);
		}
		p = eol + 1;
	}
	return bad;
}

static const struct metric_info toy_metrics[] = {
	METRIC("toy:apples", "events", COUNTER, LOWER, "apples the memcg dropped"),
	METRIC("toy:pears_*", "bytes", GAUGE, HIGHER, "pears the memcg holds, by kind"),
};

static const struct source source_toy = {
	.name = "toy",
	.scope = SOURCE_MEMCG,
	.file = "toy.stat",
	.parse = parse_toy,
	.metrics = toy_metrics,
	.n_metrics = ARRAY_SIZE(toy_metrics),
	.fallback = METRIC("toy", "pages", GAUGE, NONE, "toy value"),
};

/* The built-in list and the toy after it, as its row in sources.c would make it. */
static const struct source *const *list_with_toy(size_t *ret_n)
{
	static const struct source *list[64];
	size_t n;
	const struct source *const *builtin = sources_table(&n);

	assert_true(n + 1 <= ARRAY_SIZE(list));
	memcpy(list, builtin, n * sizeof(*list));
	list[n] = &source_toy;
	*ret_n = n + 1;
	return list;
}

/* What the sampler's channel does with a value: one v line. */
struct lines {
	const char *scope;
	char text[4096];
	size_t len;
	unsigned count;
};

static void toy_value(void *arg, const char *key, size_t key_len, int64_t value)
{
	struct lines *l = arg;
	int n = snprintf(l->text + l->len, sizeof(l->text) - l->len, "v %s %s %.*s %lld\n",
			 source_toy.name, l->scope, (int)key_len, key, (long long)value);

	assert_true(n > 0 && (size_t)n < sizeof(l->text) - l->len);
	l->len += (size_t)n;
	l->count++;
}

/* What the host parsed. */
struct got {
	unsigned n;
	char metric[8][64];
	char scope[8][16];
	int64_t value[8];
};

static int got_value(void *ctx, const char *source, const char *scope, const char *key,
		     int64_t value)
{
	struct got *g = ctx;

	assert_true(g->n < ARRAY_SIZE(g->value));
	snprintf(g->metric[g->n], sizeof(g->metric[0]), "%s:%s", source, key);
	snprintf(g->scope[g->n], sizeof(g->scope[0]), "%s", scope);
	g->value[g->n++] = value;
	return 0;
}

static void feed(struct stream *parser, const char *text)
{
	assert_int_equal(stream__feed(parser, text, strlen(text)), 0);
}

static void expect(const struct source *const *list, size_t n, const char *name,
		   const char *unit, enum metric_kind kind, enum metric_better better)
{
	struct metric_info mi;

	assert_int_equal(metric__lookup_in(list, n, name, &mi), 0);
	assert_string_equal(mi.unit, unit);
	assert_int_equal(mi.kind, kind);
	assert_int_equal(mi.better, better);
}

static void test_toy_source(void **state)
{
	char dir[] = "/tmp/test-source.XXXXXX";
	_cleanup_free_ char *path = NULL, *cmd = NULL, *buf = NULL;
	_cleanup_close_ int fd = -1;
	FILE *f;
	size_t cap = 0, n;
	ssize_t len;
	unsigned bad;
	struct lines l = { .scope = "wl" };
	struct got got = { 0 };
	struct stream_ops ops = { .value = got_value };
	_cleanup_(stream__freep) struct stream *parser = NULL;
	const struct source *const *list = list_with_toy(&n);
	struct metric_info mi;

	(void)state;
	/* the memcg's directory, with the toy's file in it */
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/%s", dir, source_toy.file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("apples=7\npears_green=4096\nplums=-3\nnot a line\n", f);
	assert_int_equal(fclose(f), 0);

	/* sampled: the file opened once and read whole at offset 0, twice */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (int i = 0; i < 2; i++) {
		len = read_source_file(fd, &buf, &cap);
		assert_int_equal(len, 46);
		l.len = 0;
		l.count = 0;
		bad = source_toy.parse(buf, (size_t)len, toy_value, &l);
		assert_int_equal(bad, 1);
		assert_int_equal(l.count, 3);
	}
	assert_string_equal(l.text, "v toy wl apples 7\nv toy wl pears_green 4096\nv toy wl plums -3\n");

	/* parsed: the host's stream parser, in one sample */
	assert_int_equal(stream__new(&ops, &got, &parser), 0);
	feed(parser, "hello 1 test 6.1.0 r\nsample 0 100\n");
	feed(parser, l.text);
	feed(parser, "end 0 3\n");
	assert_int_equal(stream__finish(parser), 0);
	assert_int_equal(stream__stats(parser)->rejected, 0);
	assert_int_equal(got.n, 3);
	assert_string_equal(got.metric[0], "toy:apples");
	assert_string_equal(got.scope[0], "wl");
	assert_int_equal(got.value[0], 7);
	assert_string_equal(got.metric[1], "toy:pears_green");
	assert_int_equal(got.value[1], 4096);
	assert_string_equal(got.metric[2], "toy:plums");
	assert_int_equal(got.value[2], -3);

	/* known: the dictionary reads the toy's rows and fallback from its descriptor */
	expect(list, n, got.metric[0], "events", METRIC_COUNTER, BETTER_LOWER);
	expect(list, n, got.metric[1], "bytes", METRIC_GAUGE, BETTER_HIGHER);
	expect(list, n, got.metric[2], "pages", METRIC_GAUGE, BETTER_NONE);
	assert_int_equal(metric__lookup_in(list, n, "toy:apples", &mi), 0);
	assert_string_equal(mi.description, "apples the memcg dropped");
	/* without its row the host knows nothing of it */
	assert_int_equal(metric__lookup("toy:apples", &mi), 0);
	assert_string_equal(mi.unit, "value");
	assert_string_equal(mi.description, "value of an unknown source");
	/* and the row changes nothing for the sources already there */
	for (size_t i = 0; i + 1 < n; i++) {
		struct metric_info a, b;

		for (size_t j = 0; j < list[i]->n_metrics; j++) {
			assert_int_equal(metric__lookup(list[i]->metrics[j].name, &a), 0);
			assert_int_equal(metric__lookup_in(list, n, list[i]->metrics[j].name, &b), 0);
			assert_string_equal(a.unit, b.unit);
			assert_string_equal(a.description, b.description);
		}
	}

	cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The captured file of a source read from a file (NULL: none captured). */
static const char *fixture_of(const char *source)
{
	static const struct {
		const char *source, *file;
	} files[] = {
		{ "vmstat", "vmstat" },
		{ "memory.stat", "memory.stat" },
		{ "memory.events", "memory.events" },
		{ "memory.current", "memory.current" },
		{ "memory.pressure", "memory.pressure" },
		{ "psi.memory", "pressure-memory" },
		{ "psi.io", "pressure-io" },
		{ "psi.cpu", "pressure-cpu" },
		{ "memory.numa_stat", "../numa/memory.numa_stat" },
		{ "node.vmstat", "../numa/node0-vmstat" },
		{ "node.numastat", "../numa/node1-numastat" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(files[i].source, source))
			return files[i].file;
	return NULL;
}

struct known {
	const struct source *src;
	unsigned n;
};

static void known_value(void *arg, const char *key, size_t key_len, int64_t value)
{
	struct known *k = arg;
	_cleanup_free_ char *name = xasprintf("%s:%.*s", k->src->name, (int)key_len, key);
	struct metric_info mi;

	(void)value;
	assert_int_equal(metric__lookup(name, &mi), 0);
	if (!strcmp(mi.description, "value of an unknown source"))
		fail_msg("%s: not in the dictionary", name);
	k->n++;
}

static void test_file_sources_on_fixtures(void **state)
{
	size_t n, parsed = 0;
	const struct source *const *list = sources_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const char *file = fixture_of(list[i]->name);
		_cleanup_free_ char *path = NULL, *buf = NULL;
		struct known k = { list[i], 0 };
		size_t len;

		/* a source whose file was not captured yet is checked by its own test */
		if (!list[i]->parse || !file)
			continue;
		path = xasprintf(FIX "%s", file);
		if (read_file(path, 1 << 20, &buf, &len) < 0)
			fail_msg("cannot read fixture %s", path);
		assert_int_equal(list[i]->parse(buf, len, known_value, &k), 0);
		assert_true(k.n > 0);
		parsed++;
	}
	assert_true(parsed >= 11);
}

struct kv_seen {
	unsigned n;
	int64_t anon_n0, anon_n1, refault_n0;
	bool key_ok;
};

static void numa_value(void *arg, const char *key, size_t key_len, int64_t value)
{
	struct kv_seen *s = arg;
	_cleanup_free_ char *k = xasprintf("%.*s", (int)key_len, key);

	s->n++;
	s->key_ok &= strlen(k) == key_len && strchr(k, '.') && !strchr(k, ' ');
	if (!strcmp(k, "anon.N0"))
		s->anon_n0 = value;
	else if (!strcmp(k, "anon.N1"))
		s->anon_n1 = value;
	else if (!strcmp(k, "workingset_refault_anon.N0"))
		s->refault_n0 = value;
}

/* memory.numa_stat: "KEY N0=V N1=V" into KEY.N0, KEY.N1; a malformed line is counted. */
static void test_numa_stat_parse(void **state)
{
	size_t n;
	const struct source *const *list = sources_table(&n), *src = NULL;
	_cleanup_free_ char *buf = NULL;
	struct kv_seen s = { .key_ok = true };
	static const char bad[] = "anon N0=1 N1=2\nfile X0=3\nshmem N0=4 N1=x\nnoline\n";
	size_t len;

	(void)state;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i]->name, "memory.numa_stat"))
			src = list[i];
	assert_non_null(src);
	assert_true(src->multi_node);
	if (read_file(FIX "../numa/memory.numa_stat", 1 << 20, &buf, &len) < 0)
		fail_msg("cannot read the numa fixture");
	assert_int_equal(src->parse(buf, len, numa_value, &s), 0);
	assert_int_equal(s.n, 27 * 2);
	assert_true(s.key_ok);
	assert_int_equal(s.anon_n0, 354570240);
	assert_int_equal(s.anon_n1, 0);
	assert_true(s.refault_n0 > 0);
	s = (struct kv_seen){ .key_ok = true };
	assert_int_equal(src->parse(bad, sizeof(bad) - 1, numa_value, &s), 3);
	assert_int_equal(s.anon_n0, 1);
	assert_int_equal(s.anon_n1, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toy_source),
		cmocka_unit_test(test_file_sources_on_fixtures),
		cmocka_unit_test(test_numa_stat_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
