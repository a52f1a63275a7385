// SPDX-License-Identifier: GPL-2.0
/* The metric dictionary: rows, defaults by source, comparability on 6.1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "metrics.h"
#include "source.h"
#include "util.h"

static void check(const char *name, const char *unit, enum metric_kind kind,
		  enum metric_better better)
{
	struct metric_info mi;

	if (metric__lookup(name, &mi) != 0)
		fail_msg("lookup of '%s' failed", name);
	if (strcmp(mi.unit, unit) || mi.kind != kind || mi.better != better)
		fail_msg("'%s': got %s %s %s, want %s %s %s", name, mi.unit,
			 metric_kind_name(mi.kind), metric_better_name(mi.better), unit,
			 metric_kind_name(kind), metric_better_name(better));
	assert_ptr_equal(mi.name, name);
	assert_non_null(mi.description);
	assert_true(strlen(mi.description) > 0);
}

static void test_lookup_rows(void **state)
{
	(void)state;
	check("vmstat:pgscan_kswapd", "pages", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:pgsteal_anon", "pages", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:pgmajfault", "events", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:pgfault", "events", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:pswpin", "pages", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:pgpgin", "KiB", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:workingset_refault_file", "pages", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:workingset_activate_anon", "pages", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:workingset_nodes", "nodes", METRIC_GAUGE, BETTER_NONE);
	check("vmstat:allocstall_normal", "events", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:allocstall_movable", "events", METRIC_COUNTER, BETTER_LOWER);
	check("vmstat:kswapd_low_wmark_hit_quickly", "events", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:oom_kill", "events", METRIC_COUNTER, BETTER_LOWER);
	/* nr_* are gauges, but the exceptions are counters or in KiB */
	check("vmstat:nr_free_pages", "pages", METRIC_GAUGE, BETTER_NONE);
	check("vmstat:nr_some_future_gauge", "pages", METRIC_GAUGE, BETTER_NONE);
	check("vmstat:nr_dirtied", "pages", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:nr_vmscan_write", "pages", METRIC_COUNTER, BETTER_NONE);
	check("vmstat:nr_kernel_stack", "KiB", METRIC_GAUGE, BETTER_NONE);
	check("memory.stat:anon", "bytes", METRIC_GAUGE, BETTER_NONE);
	check("memory.stat:inactive_file", "bytes", METRIC_GAUGE, BETTER_NONE);
	check("memory.stat:pgscan", "pages", METRIC_COUNTER, BETTER_NONE);
	check("memory.stat:pgsteal_kswapd", "pages", METRIC_COUNTER, BETTER_NONE);
	check("memory.stat:pgmajfault", "events", METRIC_COUNTER, BETTER_LOWER);
	check("memory.stat:workingset_refault_anon", "pages", METRIC_COUNTER, BETTER_LOWER);
	check("memory.stat:thp_fault_alloc", "events", METRIC_COUNTER, BETTER_NONE);
	check("memory.events:oom_kill", "events", METRIC_COUNTER, BETTER_LOWER);
	check("memory.events:oom_group_kill", "events", METRIC_COUNTER, BETTER_LOWER);
	check("memory.events:low", "events", METRIC_COUNTER, BETTER_NONE);
	check("memory.current:bytes", "bytes", METRIC_GAUGE, BETTER_NONE);
	check("memory.pressure:some.total", "us", METRIC_COUNTER, BETTER_LOWER);
	check("psi.memory:full.total", "us", METRIC_COUNTER, BETTER_LOWER);
	check("psi.io:some.total", "us", METRIC_COUNTER, BETTER_LOWER);
	check("kswapd:cpu_ns", "ns", METRIC_COUNTER, BETTER_LOWER);
	check("perf:task-clock", "ns", METRIC_COUNTER, BETTER_NONE);
	check("perf:major-faults", "events", METRIC_COUNTER, BETTER_LOWER);
	check("perf:cycles", "events", METRIC_COUNTER, BETTER_NONE);
	check("agent:sample_ns", "ns", METRIC_GAUGE, BETTER_LOWER);
}

static void test_lookup_defaults(void **state)
{
	(void)state;
	check("vmstat:brand_new_event", "events", METRIC_COUNTER, BETTER_NONE);
	check("memory.stat:brand_new_size", "bytes", METRIC_GAUGE, BETTER_NONE);
	check("memory.events.local:max", "events", METRIC_COUNTER, BETTER_NONE);
	check("psi.irq:full.total", "us", METRIC_COUNTER, BETTER_LOWER);
	check("memory.pressure:some.avg10", "us", METRIC_COUNTER, BETTER_LOWER);
	check("kswapd:other", "ns", METRIC_COUNTER, BETTER_LOWER);
	check("agent:other", "ns", METRIC_COUNTER, BETTER_NONE);
	check("nosuchsource:x", "value", METRIC_GAUGE, BETTER_NONE);
	/* a source that only starts like a known one is not that one */
	check("vmstatx:pgscan_kswapd", "value", METRIC_GAUGE, BETTER_NONE);
}

static void test_lookup_invalid(void **state)
{
	struct metric_info mi = { .name = "untouched" };

	(void)state;
	assert_int_equal(metric__lookup("pgscan_kswapd", &mi), -EINVAL);
	assert_int_equal(metric__lookup(":x", &mi), -EINVAL);
	assert_int_equal(metric__lookup("vmstat:", &mi), -EINVAL);
	assert_int_equal(metric__lookup(NULL, &mi), -EINVAL);
	assert_string_equal(mi.name, "untouched");
}

/* Every source's rows: named for their source, complete, no pattern twice. */
static void test_table_well_formed(void **state)
{
	size_t n_sources, n = 0;
	const struct source *const *sources = sources_table(&n_sources);

	(void)state;
	for (size_t s = 0; s < n_sources; s++) {
		const struct source *src = sources[s];
		size_t len = strlen(src->name);

		/* a source's fallback names it (or its family: psi.*, memory.events*) */
		if (src->fallback.name) {
			const char *f = src->fallback.name;
			size_t flen = strlen(f);

			if (f[flen - 1] == '*')
				assert_int_equal(strncmp(f, src->name, flen - 1), 0);
			else
				assert_string_equal(f, src->name);
			assert_true(strlen(src->fallback.unit) > 0);
			assert_true(strlen(src->fallback.description) > 0);
		}
		for (size_t i = 0; i < src->n_metrics; i++) {
			const struct metric_info *t = &src->metrics[i];

			if (strncmp(t->name, src->name, len) || t->name[len] != ':')
				fail_msg("row %s is not of source %s", t->name, src->name);
			assert_true(strlen(t->unit) > 0);
			assert_true(strlen(t->description) > 0);
			/* no duplicate patterns: two rows for one name would be ambiguous */
			for (size_t j = i + 1; j < src->n_metrics; j++)
				if (!strcmp(t->name, src->metrics[j].name))
					fail_msg("duplicate row %s", t->name);
			n++;
		}
		for (size_t o = s + 1; o < n_sources; o++)
			if (!strcmp(src->name, sources[o]->name))
				fail_msg("source %s listed twice", src->name);
	}
	assert_true(n > 80);
	/* agent measures the sample it ends: the last source */
	assert_string_equal(sources[n_sources - 1]->name, "agent");
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(metric_kind_name(METRIC_COUNTER), "counter");
	assert_string_equal(metric_kind_name(METRIC_GAUGE), "gauge");
	assert_string_equal(metric_better_name(BETTER_HIGHER), "higher");
	assert_string_equal(metric_better_name(BETTER_LOWER), "lower");
	assert_string_equal(metric_better_name(BETTER_NONE), "none");
}

static void test_kernel_version(void **state)
{
	static const struct {
		const char *s;
		int ret, major, minor, sub;
	} cases[] = {
		{ "6.1.192", 0, 6, 1, 192 },
		{ "6.1.0-57-cloud-amd64", 0, 6, 1, -1 },
		{ "6.1.0-57", 0, 6, 1, -1 },
		{ "6.1.0", 0, 6, 1, 0 },
		{ "6.1", 0, 6, 1, 0 },
		{ "6.1.0-rc3", 0, 6, 1, 0 },
		{ "6.1.55-lrubench+", 0, 6, 1, 55 },
		{ "5.15.0-91-generic", 0, 5, 15, -1 },
		{ "6.6.13", 0, 6, 6, 13 },
		{ "6", -EINVAL, 0, 0, 0 },
		{ "", -EINVAL, 0, 0, 0 },
		{ "v6.1", -EINVAL, 0, 0, 0 },
		{ "6.x", -EINVAL, 0, 0, 0 },
		{ "99999999999.1", -ERANGE, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kernel_version v = { 7, 7, 7 };
		int r = kernel_version_parse(cases[i].s, &v);

		if (r != cases[i].ret)
			fail_msg("'%s': %d, want %d", cases[i].s, r, cases[i].ret);
		if (r) {
			assert_int_equal(v.major, 7);
			continue;
		}
		assert_int_equal(v.major, cases[i].major);
		assert_int_equal(v.minor, cases[i].minor);
		assert_int_equal(v.sub, cases[i].sub);
	}
	assert_int_equal(kernel_version_parse(NULL, &(struct kernel_version){ 0 }), -EINVAL);
}

static void not_comparable(const char *name, const char *kernel, const char *reason_has)
{
	const char *reason = NULL;

	if (metric__comparable(name, kernel, &reason))
		fail_msg("%s on %s: comparable, want not", name, kernel ? kernel : "(null)");
	assert_non_null(reason);
	if (!strstr(reason, reason_has))
		fail_msg("%s: reason '%s' lacks '%s'", name, reason, reason_has);
}

static void comparable(const char *name, const char *kernel)
{
	const char *reason = "untouched";

	if (!metric__comparable(name, kernel, &reason))
		fail_msg("%s on %s: not comparable (%s)", name, kernel, reason);
	assert_string_equal(reason, "untouched");
}

static void test_comparable_61(void **state)
{
	static const char *const kernels[] = { "6.1.0-57-cloud-amd64", "6.1.192", "6.1.0" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		const char *k = kernels[i];

		not_comparable("vmstat:workingset_refault_anon", k, "oldest");
		not_comparable("vmstat:workingset_refault_file", k, "min_seq");
		not_comparable("memory.stat:workingset_refault_file", k, "undercounted");
		not_comparable("vmstat:workingset_activate_file", k, "sort_folio()");
		not_comparable("memory.stat:workingset_activate_anon", k, "tier");
		not_comparable("vmstat:workingset_restore_anon", k, "lru_gen_refault()");
		not_comparable("vmstat:pgscan_kswapd", k, "pgrefill");
		not_comparable("vmstat:pgscan_direct", k, "isolate");
		not_comparable("vmstat:pgscan_anon", k, "scan efficiency");
		not_comparable("vmstat:pgscan_file", k, "scan_folios()");
		not_comparable("memory.stat:pgscan", k, "pgsteal/pgscan");
		not_comparable("memory.stat:pgscan_direct", k, "pgsteal/pgscan");
		not_comparable("vmstat:pgrefill", k, "shrink_active_list()");
		not_comparable("memory.stat:pgrefill", k, "re-sorted");
		not_comparable("vmstat:pgactivate", k, "folio_mark_accessed()");
		not_comparable("memory.stat:pgactivate", k, "lru_gen_look_around()");
		not_comparable("vmstat:pgdeactivate", k, "shrink_active_list()");
		not_comparable("memory.stat:pgdeactivate", k, "madvise");
		not_comparable("vmstat:pgrotated", k, "evict_folios()");
		not_comparable("vmstat:nr_active_anon", k, "lru_gen_is_active()");
		not_comparable("vmstat:nr_zone_inactive_file", k, "two youngest");
		not_comparable("memory.stat:active_file", k, "two youngest");

		comparable("vmstat:pgsteal_anon", k);
		comparable("vmstat:pgsteal_kswapd", k);
		comparable("memory.stat:pgsteal", k);
		comparable("vmstat:pgmajfault", k);
		comparable("vmstat:pgpgin", k);
		comparable("vmstat:pswpin", k);
		comparable("vmstat:pgscan_direct_throttle", k);
		comparable("vmstat:nr_free_pages", k);
		comparable("memory.current:bytes", k);
		comparable("psi.memory:some.total", k);
		comparable("kswapd:cpu_ns", k);
		comparable("perf:major-faults", k);
	}
}

static void test_comparable_612(void **state)
{
	static const char *const kernels[] = { "6.12.118+deb12-cloud-amd64", "6.12.118", "6.12" };
	const char *reason = NULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		const char *k = kernels[i];

		/* 6.12 counts every MGLRU refault (6.1 undercounted): comparable */
		comparable("vmstat:workingset_refault_anon", k);
		comparable("memory.stat:workingset_refault_file", k);
		not_comparable("vmstat:workingset_activate_file", k, "lru_gen_test_recent()");
		not_comparable("vmstat:workingset_restore_anon", k, "min_seq");
		not_comparable("vmstat:pgscan_kswapd", k, "6.12.118) mm/vmscan.c scan_folios()");
		not_comparable("memory.stat:pgrefill", k, "linux-source-6.12");
		not_comparable("memory.stat:active_file", k, "lru_gen_is_active()");
		/* not read for 6.12: not known */
		not_comparable("vmstat:pgactivate", k, "not known to be comparable");
		comparable("vmstat:pgmajfault", k);
	}
	assert_false(metric__comparable("vmstat:pgscan_anon", "6.12.118+deb12-cloud-amd64", &reason));
	assert_null(strstr(reason, "6.1.192"));
}

static void test_comparable_other_kernels(void **state)
{
	static const char *const kernels[] = { "5.15.0-91-generic", "6.0.19", "6.6.13", "7.3.1",
					       "6.2", NULL, "garbage" };
	const char *reason = NULL;

	(void)state;
	/* outside every range: "not known", no verdict, for metrics that depend on the LRU */
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		not_comparable("vmstat:pgscan_kswapd", kernels[i], "not known to be comparable");
		not_comparable("vmstat:workingset_refault_anon", kernels[i], "no verdict");
		comparable("vmstat:pgmajfault", kernels[i]);
	}
	assert_true(metric__comparable("vmstat:pgmajfault", "6.1.0", NULL));
	assert_false(metric__comparable("vmstat:pgscan_anon", "6.1.0", NULL));
	/* a known row names its source, and the text is stable for compare's dedup */
	assert_false(metric__comparable("vmstat:pgscan_anon", "6.1.0-57-cloud-amd64", &reason));
	assert_non_null(strstr(reason, "[source: linux-source-6.1 (6.1.192) mm/vmscan.c scan_folios()"));
	const char *again = NULL;
	assert_false(metric__comparable("vmstat:pgscan_file", "6.1.192", &again));
	assert_ptr_equal(reason, again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_rows),
		cmocka_unit_test(test_lookup_defaults),
		cmocka_unit_test(test_lookup_invalid),
		cmocka_unit_test(test_table_well_formed),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_kernel_version),
		cmocka_unit_test(test_comparable_61),
		cmocka_unit_test(test_comparable_612),
		cmocka_unit_test(test_comparable_other_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
