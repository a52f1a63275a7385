// SPDX-License-Identifier: GPL-2.0
/*
 * Host pieces on real captures: kernel config checks on Debian's config,
 * module resolution on Debian's modules.dep, console scanning and run
 * classification, QEMU argv (no shell: values with spaces stay one argument).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "classify.h"
#include "image.h"
#include "ingest.h"
#include "kernel.h"
#include "store.h"
#include "util.h"
#include "vm-qemu.h"

#define FIX "harness/tests/fixtures/"

static char *fixture(const char *name)
{
	_cleanup_free_ char *path = xasprintf(FIX "%s", name);
	char *buf = NULL;

	if (read_file(path, 16u << 20, &buf, NULL) < 0)
		fail_msg("cannot read fixture %s", path);
	return buf;
}

static void test_debian_config_passes(void **state)
{
	struct kernel k = { .config = fixture("kernel/config-6.1.0-57-cloud-amd64"),
			    .modules_dir = (char *)"/nonexistent" };
	char *missing = NULL;
	char buf[32];

	(void)state;
	assert_string_equal(kernel__config(&k, "LRU_GEN", buf, sizeof(buf)), "y");
	assert_string_equal(kernel__config(&k, "ZRAM", buf, sizeof(buf)), "m");
	assert_string_equal(kernel__config(&k, "ZRAM_DEF_COMP", buf, sizeof(buf)), "lzo-rle");
	assert_null(kernel__config(&k, "LRU_GEN_ENABLED", buf, sizeof(buf)));
	assert_int_equal(kernel__check(&k, &missing), 0);
	assert_null(missing);
	free(k.config);
}

static void test_missing_options_named(void **state)
{
	_cleanup_free_ char *cfg = fixture("kernel/config-6.1.0-57-cloud-amd64");
	struct kernel k = { 0 };
	char *missing = NULL;

	(void)state;
	/* Drop LRU_GEN and PSI the way a config without them reads. */
	k.config = xstrdup(cfg);
	char *p = strstr(k.config, "CONFIG_LRU_GEN=y\n");
	assert_non_null(p);
	memcpy(p, "# CONFIG_LRU_GEN  \n", 17);
	p = strstr(k.config, "\nCONFIG_PSI=y\n");
	assert_non_null(p);
	memcpy(p + 1, "#CONFIG_PSI=", 12);
	k.modules_dir = NULL; /* and no modules tree for the =m drivers */
	assert_int_equal(kernel__check(&k, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_LRU_GEN (not set"));
	assert_non_null(strstr(missing, "CONFIG_PSI (not set"));
	assert_non_null(strstr(missing, "CONFIG_ZRAM=m but no modules tree"));
	assert_null(strstr(missing, "CONFIG_MEMCG"));
	free(missing);
	free(k.config);
}

static void test_modules_resolve(void **state)
{
	_cleanup_free_ char *dep = fixture("kernel/modules.dep.debian-6.1.0-57");
	const char *names[] = { "lzo-rle", "virtio_console", "zram", "nonexistent_builtin", NULL };
	char **paths = NULL;
	size_t n = 0;
	const char *want[] = {
		"kernel/crypto/lzo-rle.ko",
		"kernel/drivers/virtio/virtio_ring.ko",
		"kernel/drivers/virtio/virtio.ko",
		"kernel/drivers/char/virtio_console.ko",
		"kernel/mm/zsmalloc.ko",
		"kernel/drivers/block/zram/zram.ko",
	};

	(void)state;
	assert_int_equal(modules_resolve(dep, names, &paths, &n), 0);
	assert_int_equal(n, ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(paths[i], want[i]);
		free(paths[i]);
	}
	free(paths);
}

static void test_console_scan(void **state)
{
	static const char log[] = "[    1.0] Linux version 6.1.0\n"
				  "[    5.1] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 foo\n"
				  "[    6.2] Kernel panic - not syncing: sysrq triggered crash\r\n"
				  "[    6.3] Call Trace:\n";
	struct console_scan s;

	(void)state;
	console_scan(log, strlen(log), &s);
	assert_true(s.panic);
	assert_string_equal(s.panic_line, "[    6.2] Kernel panic - not syncing: sysrq triggered crash");
	assert_int_equal(s.nfindings, 3);
	assert_string_equal(s.findings[0].kind, "warning");
	assert_string_equal(s.findings[2].kind, "call-trace");
	console_scan_free(&s);
}

static void test_classify(void **state)
{
	struct vm_result vm = { .end = VM_EXITED };
	struct ingest_stats st = { .bye = 1, .samples = 12 };
	struct console_scan con = { 0 };
	struct run_outcome out;

	(void)state;
	strcpy(st.bye_reason, "done");
	classify_run(&vm, &st, &con, false, "", &out);
	assert_string_equal(out.status, RUN_COMPLETED);

	classify_run(&vm, &st, &con, true, "oom: wl oom_kill=1", &out);
	assert_string_equal(out.status, RUN_FAILED_WORKLOAD);
	assert_string_equal(out.reason, "oom: wl oom_kill=1");

	vm.end = VM_SILENCE_TIMEOUT;
	vm.wall_ns = 61000000000;
	st.bye = 0;
	classify_run(&vm, &st, &con, false, "", &out);
	assert_string_equal(out.status, RUN_FAILED_INFRA);
	assert_string_equal(out.reason, "channel silent with no kernel message: killed after 61 s");

	vm.end = VM_EXITED;
	vm.signal = 0;
	vm.exit_code = 1;
	vm.error = (char *)"QEMU exited with status 1: qemu-system-x86_64: cannot set up guest "
			   "memory 'pc.ram': Cannot allocate memory";
	classify_run(&vm, &st, &con, false, "", &out);
	assert_string_equal(out.status, RUN_FAILED_INFRA);
	assert_true(out.host_trouble);
	vm.error = NULL;
	vm.exit_code = 0;

	con.panic = true;
	strcpy(con.panic_line, "Kernel panic - not syncing: sysrq triggered crash");
	vm.end = VM_EXITED;
	classify_run(&vm, &st, &con, false, "", &out);
	assert_string_equal(out.status, RUN_FAILED_KERNEL);
	assert_string_equal(out.reason, "Kernel panic - not syncing: sysrq triggered crash");
}

static void test_workload_events(void **state)
{
	(void)state;
	assert_false(workload_event_failed("workload-exit", "anon status 0"));
	assert_true(workload_event_failed("workload-exit", "anon status 1"));
	assert_true(workload_event_failed("workload-exit", "anon signal 9"));
	assert_true(workload_event_failed("workload-exit", "garbled"));
	assert_true(workload_event_failed("oom", "anon memcg wl oom_kill 1"));
	assert_false(workload_event_failed("workload-start", "anon pid 88 memcg wl"));
}

static void test_qemu_argv_no_shell(void **state)
{
	struct vm_spec s = {
		.kernel = "/k/a b;c", .initrd = "/i/it's", .cmdline = "console=ttyS0 quiet",
		.accel = "tcg", .mem_mb = 1024, .cpus = 2, .run_dir = "/r",
	};
	char **argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	bool seen_kernel = false, seen_append = false;

	(void)state;
	for (size_t i = 0; argv[i]; i++) {
		if (!strcmp(argv[i], "-kernel")) {
			assert_string_equal(argv[i + 1], "/k/a b;c");
			seen_kernel = true;
		}
		if (!strcmp(argv[i], "-append")) {
			assert_string_equal(argv[i + 1], "console=ttyS0 quiet");
			seen_append = true;
		}
		if (!strcmp(argv[i], "-accel"))
			assert_string_equal(argv[i + 1], "tcg");
	}
	assert_true(seen_kernel && seen_append);
	vm_argv_free(argv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_config_passes),
		cmocka_unit_test(test_missing_options_named),
		cmocka_unit_test(test_modules_resolve),
		cmocka_unit_test(test_console_scan),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_workload_events),
		cmocka_unit_test(test_qemu_argv_no_shell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
