// SPDX-License-Identifier: GPL-2.0
/* run.conf's readback key: paths kept in order, bad paths reported with their line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "guest/agent-conf.h"
#include "util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
