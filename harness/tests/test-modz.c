// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed modules: a small ELF-headed payload compressed by the real
 * xz, zstd and gzip tools, decompressed by modz_decompress; corrupt and
 * truncated inputs fail with the module's name and the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modz.h"
#include "util.h"

static char dir[] = "/tmp/lrubench-modz-XXXXXX";
static char payload[8192];

static int setup(void **state)
{
	_cleanup_free_ char *p = NULL, *cmd = NULL;
	FILE *f;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	memcpy(payload, "\177ELF", 4);
	for (size_t i = 4; i < sizeof(payload); i++)
		payload[i] = (char)(i * 7 % 251);
	p = xasprintf("%s/m.ko", dir);
	f = fopen(p, "w");
	if (!f || fwrite(payload, 1, sizeof(payload), f) != sizeof(payload))
		return -1;
	fclose(f);
	cmd = xasprintf("cd %s && xz -k m.ko && zstd -q -k m.ko && gzip -k m.ko && "
			"head -c 100 m.ko.xz > t.ko.xz && head -c 300 m.ko > n.ko.gz && "
			"echo junk | xz > junk.ko.xz",
			dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf %s", dir);

	(void)state;
	return system(cmd) == 0 ? 0 : -1;
}

static void check_ok(const char *name)
{
	_cleanup_free_ char *src = xasprintf("%s/%s", dir, name);
	_cleanup_free_ char *dst = xasprintf("%s/out.ko", dir);
	_cleanup_free_ char *buf = NULL, *err = NULL;
	size_t n = 0;

	assert_int_equal(modz_decompress(src, dst, 0644, &err), 0);
	assert_null(err);
	assert_int_equal(read_file(dst, 1u << 20, &buf, &n), 0);
	assert_int_equal(n, sizeof(payload));
	assert_memory_equal(buf, payload, sizeof(payload));
	unlink(dst);
}

static void test_formats(void **state)
{
	(void)state;
	check_ok("m.ko.xz");
	check_ok("m.ko.zst");
	check_ok("m.ko.gz");
}

static void check_fails(const char *name, const char *reason)
{
	_cleanup_free_ char *src = xasprintf("%s/%s", dir, name);
	_cleanup_free_ char *dst = xasprintf("%s/bad.ko", dir);
	_cleanup_free_ char *err = NULL;

	assert_true(modz_decompress(src, dst, 0644, &err) < 0);
	assert_non_null(err);
	assert_non_null(strstr(err, name));
	if (!strstr(err, reason))
		fail_msg("%s: expected '%s' in '%s'", name, reason, err);
}

static void test_errors(void **state)
{
	(void)state;
	check_fails("t.ko.xz", "truncated xz");
	check_fails("n.ko.gz", "gzip");
	check_fails("junk.ko.xz", "not an ELF");
	check_fails("missing.ko.zst", "No such file");
	check_fails("m.ko", "not a compressed module");
}

static void test_suffix(void **state)
{
	(void)state;
	assert_int_equal(modz_suffix("kernel/drivers/block/zram/zram.ko.xz"), 3);
	assert_int_equal(modz_suffix("zram.ko.zst"), 4);
	assert_int_equal(modz_suffix("zram.ko.gz"), 3);
	assert_int_equal(modz_suffix("zram.ko"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_suffix),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
