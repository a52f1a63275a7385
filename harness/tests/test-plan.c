// SPDX-License-Identifier: GPL-2.0
/* The plan parser: exact values from a valid plan, file:line errors from bad ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "catalogue.h"
#include "plan.h"
#include "util.h"

static const char good[] = "# comment\n"
			   "[campaign]\n"
			   "name = t1\n"
			   "repetitions = 3\n"
			   "interval = 100ms\n"
			   "baseline = mg\n"
			   "[guest]\n"
			   "memory = 2G\n"
			   "swap_size = 512M\n"
			   "[variant cl]\n"
			   "lru = classic\n"
			   "sysctl.vm.swappiness = 100\n"
			   "[variant mg]\n"
			   "lru = mglru\n"
			   "kernel = minimal\n"
			   "min_ttl_ms = 1000\n"
			   "[memcg wl]\n"
			   "memory.max = 256M\n"
			   "memory.high = max\n"
			   "[workload a]\n"
			   "type = anon-zipf\n"
			   "memcg = wl\n"
			   "size = 2.5x\n"
			   "accesses = 1000\n";

static void test_valid_plan(void **state)
{
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("good.ini", good, &p, &err), 0);
	assert_null(err);
	assert_string_equal(p->name, "t1");
	assert_int_equal(p->repetitions, 3);
	assert_int_equal(p->interval_ms, 100);
	assert_string_equal(p->baseline, "mg");
	assert_int_equal(p->mem_bytes, 2ull << 30);
	assert_int_equal(p->swap_bytes, 512ull << 20);
	assert_int_equal(p->nvariants, 2);
	assert_int_equal(p->variants[0].lru_enabled, 0);
	assert_int_equal(p->variants[1].lru_enabled, 7);
	assert_int_equal(p->variants[1].min_ttl_ms, 1000);
	assert_int_equal(p->variants[0].min_ttl_ms, -1);
	assert_int_equal(p->variants[0].nsysctls, 1);
	assert_string_equal(p->variants[0].sysctls[0].key, "vm/swappiness");
	assert_string_equal(p->variants[0].sysctls[0].value, "100");
	assert_string_equal(p->variants[0].kernel, "debian");
	assert_string_equal(p->variants[1].kernel, "minimal");
	assert_int_equal(p->nmemcgs, 1);
	assert_int_equal(p->memcgs[0].max_bytes, 256ull << 20);
	assert_string_equal(p->memcgs[0].files[0].value, "268435456");
	assert_string_equal(p->memcgs[0].files[1].value, "max");
	assert_ptr_equal(p->workloads[0].def, workload_find("anon-zipf"));
	/* 2.5 x 256 MiB, resolved to bytes */
	assert_string_equal(p->workloads[0].params[0].key, "size");
	assert_string_equal(p->workloads[0].params[0].value, "671088640");
	plan__free(p);
}

/* Each bad plan must fail with exactly this message (file:line: what). */
static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "[campaign]\nnmae = x\n", "bad.ini:2: unknown key 'nmae' in [campaign]" },
	{ "[guest]\nmemory = 12Q\n", "bad.ini:2: bad size '12Q' for 'memory' (use e.g. 512M, 2G)" },
	{ "[variant a]\nlru = newest\n",
	  "bad.ini:2: bad lru 'newest' (classic, mglru, or a value 0x0..0x7 for "
	  "/sys/kernel/mm/lru_gen/enabled)" },
	{ "[variant a b]\n", "bad.ini:1: [variant] needs a name of letters, digits, '.', '_' or "
			     "'-', got 'a b'" },
	{ "[variant x;rm]\n", "bad.ini:1: [variant] needs a name of letters, digits, '.', '_' or "
			      "'-', got 'x;rm'" },
	{ "[bogus]\n", "bad.ini:1: unknown section [bogus] (campaign, guest, variant, memcg, "
		       "workload)" },
	{ "x = 1\n", "bad.ini:1: 'x' outside any section" },
	{ "[campaign]\nrepetitions = 0\n",
	  "bad.ini:2: bad value '0' for 'repetitions' (an integer from 1 to 1000)" },
	{ "[campaign]\ninterval = 5ms\n", "bad.ini:2: interval '5ms' is below 10ms" },
	{ "[variant a]\n[workload w]\ntype = nope\n",
	  "bad.ini:3: unknown workload type 'nope' (see 'lrubench list')" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\ntheta = 1.5\n",
	  "bad.ini:4: bad value '1.5' for 'theta' (a number from 0 to 0.9999)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nwat = 1\n",
	  "bad.ini:4: unknown key 'wat' for workload type 'anon-zipf'" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 2x\n"
	  "accesses = 5\n",
	  "bad.ini:0: [workload w] size = 2x is relative, but memcg 'm' has no memory.max" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nmemcg = nope\nsize = 1M\n",
	  "bad.ini:0: [workload w] names memcg 'nope', which has no [memcg] section" },
	{ "[variant a]\nsysctl.vm.swappiness = 1;reboot\n",
	  "bad.ini:2: bad value '1;reboot' for 'sysctl.vm.swappiness'" },
	{ "[campaign]\n", "bad.ini:0: no [variant NAME] section" },
	{ "[variant a]\n[variant a]\n", "bad.ini:2: duplicate [variant a]" },
	{ "[variant a]\nkernel = my kernel\n",
	  "bad.ini:2: bad kernel 'my kernel' (debian, a recipe: NAME for kernels/NAME.ini or a "
	  "FILE.ini, or a bzImage path holding a '/')" },
	{ "[memcg m]\nmemory.max = lots\n",
	  "bad.ini:2: bad size 'lots' for 'memory.max' (e.g. 256M, or max)" },
};

static void test_bad_plans(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct plan *p = NULL;
		char *err = NULL;

		assert_int_equal(plan__parse("bad.ini", bad[i].text, &p, &err), -EINVAL);
		assert_null(p);
		assert_non_null(err);
		assert_string_equal(err, bad[i].msg);
		free(err);
	}
}

static void test_lru_modes(void **state)
{
	unsigned v = 99;

	(void)state;
	assert_int_equal(lru_mode_parse("classic", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(lru_mode_parse("0x0003", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(lru_mode_parse("0x8", &v), -EINVAL);
	assert_int_equal(v, 3);
}

static void test_shipped_plans_parse(void **state)
{
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__load("workloads/plans/default.ini", &p, &err) < 0)
		fail_msg("%s", err);
	assert_string_equal(p->name, "default");
	assert_int_equal(p->nvariants, 2);
	plan__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_plan),
		cmocka_unit_test(test_bad_plans),
		cmocka_unit_test(test_lru_modes),
		cmocka_unit_test(test_shipped_plans_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
