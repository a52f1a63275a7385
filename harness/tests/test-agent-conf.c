// SPDX-License-Identifier: GPL-2.0
/* The agent's run.conf parser (PROTOCOL.md section 1): the disk keys, errors with their line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "guest/agent-conf.h"
#include "util.h"

static struct agent_conf *parse(const char *text)
{
	struct agent_conf *c = NULL;

	agent_conf_parse(text, strlen(text), &c);
	assert_non_null(c);
	return c;
}

static void test_disks(void **state)
{
	struct agent_conf *c = parse("run=3\n"
				     "tools_disk=lrubench-tools\n"
				     "scratch_disk=lrubench-scratch\n"
				     "scratch_read_ahead_kb=0\n"
				     "memcg=wl\n"
				     "workload=w\n"
				     "workload.w.memcg=wl\n"
				     "workload.w.arg=/bin/wl-mmap-stride\n"
				     "workload.w.arg=--dir=/scratch/w\n");

	(void)state;
	assert_int_equal(c->n_errors, 0);
	assert_string_equal(c->tools_disk, "lrubench-tools");
	assert_string_equal(c->scratch_disk, "lrubench-scratch");
	assert_true(c->has_scratch_read_ahead_kb);
	assert_int_equal(c->scratch_read_ahead_kb, 0);
	assert_string_equal(c->workloads[0].argv[1], "--dir=/scratch/w");
	agent_conf_free(c);

	/* No disk keys: nothing to mount. */
	c = parse("run=1\n");
	assert_null(c->tools_disk);
	assert_null(c->scratch_disk);
	assert_false(c->has_scratch_read_ahead_kb);
	agent_conf_free(c);
}

/* workload.NAME.after: indices of the workloads that exit first; unknown names are errors. */
static void test_after(void **state)
{
	struct agent_conf *c = parse("run=1\n"
				     "workload=c\nworkload.c.arg=/bin/true\nworkload.c.after=a,b\n"
				     "workload=a\nworkload.a.arg=/bin/true\n"
				     "workload=b\nworkload.b.arg=/bin/true\n");

	(void)state;
	assert_int_equal(c->n_errors, 0);
	assert_int_equal(c->workloads[0].n_after, 2);
	assert_int_equal(c->workloads[0].after[0], 1);
	assert_int_equal(c->workloads[0].after[1], 2);
	assert_int_equal(c->workloads[1].n_after, 0);
	agent_conf_free(c);

	c = parse("run=1\nworkload=a\nworkload.a.arg=/bin/true\nworkload.a.after=z\n"
		  "workload.a.after=a\n");
	assert_int_equal(c->n_errors, 2);
	assert_string_equal(c->errors[0], "run.conf:4: workload 'a': after 'z': no such workload");
	assert_string_equal(c->errors[1], "run.conf:5: workload 'a': after 'a': itself");
	agent_conf_free(c);
}

static void test_disk_errors(void **state)
{
	struct agent_conf *c = parse("tools_disk=../etc\n"
				     "scratch_read_ahead_kb=lots\n"
				     "scratch_read_ahead_kb=2000000\n");

	(void)state;
	assert_int_equal(c->n_errors, 3);
	assert_string_equal(c->errors[0], "run.conf:1: bad value for 'tools_disk': '../etc'");
	assert_string_equal(c->errors[1],
			    "run.conf:2: bad value for 'scratch_read_ahead_kb': 'lots'");
	assert_string_equal(c->errors[2],
			    "run.conf:3: bad value for 'scratch_read_ahead_kb': '2000000'");
	agent_conf_free(c);

	c = parse("scratch_read_ahead_kb=128\n");
	assert_int_equal(c->n_errors, 1);
	assert_string_equal(c->errors[0], "run.conf: scratch_read_ahead_kb without a scratch_disk");
	agent_conf_free(c);
}

/* cgroup2_options: mount data passed as is (names and commas), or none; absent: no options. */
static void test_cgroup2_options(void **state)
{
	struct agent_conf *c = parse("cgroup2_options=nsdelegate,memory_recursiveprot\n");

	(void)state;
	assert_int_equal(c->n_errors, 0);
	assert_string_equal(c->cgroup2_options, "nsdelegate,memory_recursiveprot");
	agent_conf_free(c);
	c = parse("run=1\n");
	assert_null(c->cgroup2_options);
	agent_conf_free(c);
	c = parse("cgroup2_options=nsdelegate,\ncgroup2_options=a b\ncgroup2_options=x,,y\n"
		  "cgroup2_options=\n");
	assert_int_equal(c->n_errors, 4);
	assert_string_equal(c->errors[0], "run.conf:1: bad value for 'cgroup2_options': 'nsdelegate,'");
	assert_string_equal(c->errors[1], "run.conf:2: bad value for 'cgroup2_options': 'a b'");
	agent_conf_free(c);
}

static void test_readback(void **state)
{
	static const char text[] = "run=1\n"
				   "readback=vm/swappiness\n"
				   "sysctl=vm/swappiness=100\n"
				   "readback=vm/page-cluster\n"
				   "readback=../etc/shadow\n"
				   "readback=/proc/sys/vm/x\n";
	struct agent_conf *c = NULL;

	(void)state;
	agent_conf_parse(text, strlen(text), &c);
	assert_int_equal(c->n_readbacks, 2);
	assert_string_equal(c->readbacks[0], "vm/swappiness");
	assert_string_equal(c->readbacks[1], "vm/page-cluster");
	assert_int_equal(c->n_sysctls, 1);
	assert_int_equal(c->n_errors, 2);
	assert_string_equal(c->errors[0], "run.conf:5: bad value for 'readback': '../etc/shadow'");
	assert_string_equal(c->errors[1], "run.conf:6: bad value for 'readback': '/proc/sys/vm/x'");
	agent_conf_free(c);
}

static void test_trace(void **state)
{
	struct agent_conf *c = parse("run=1\ntrace=reclaim\n");

	(void)state;
	assert_int_equal(c->n_errors, 0);
	assert_true(c->trace_reclaim);
	agent_conf_free(c);
	c = parse("run=1\n");
	assert_false(c->trace_reclaim);
	agent_conf_free(c);
	c = parse("trace=everything\n");
	assert_int_equal(c->n_errors, 1);
	assert_string_equal(c->errors[0], "run.conf:1: bad value for 'trace': 'everything'");
	assert_false(c->trace_reclaim);
	agent_conf_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disks),
		cmocka_unit_test(test_disk_errors), cmocka_unit_test(test_after),
		cmocka_unit_test(test_readback),
		cmocka_unit_test(test_cgroup2_options),
		cmocka_unit_test(test_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
