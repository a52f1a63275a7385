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
#include "guest-clock.h"
#include "image.h"
#include "ingest.h"
#include "kernel.h"
#include "metrics.h"
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
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), 0);
	assert_null(missing);
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 2, &missing), 0);
	assert_null(missing);
	free(k.config);
}

/* A NUMA guest needs CONFIG_NUMA; a guest of one node does not. */
static void test_numa_needs_config(void **state)
{
	struct kernel k = { .config = fixture("kernel/config-6.1.0-57-cloud-amd64"),
			    .modules_dir = (char *)"/nonexistent" };
	char *p = strstr(k.config, "\nCONFIG_NUMA=y\n"), *missing = NULL;

	(void)state;
	assert_non_null(p);
	memcpy(p + 1, "#CONFIG_NUMA=", 13);
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), 0);
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 2, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_NUMA (not set; the plan's guest has NUMA nodes"));
	free(missing);
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
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_LRU_GEN (not set"));
	assert_non_null(strstr(missing, "CONFIG_PSI (not set"));
	assert_non_null(strstr(missing, "CONFIG_ZRAM=m but no modules tree"));
	assert_null(strstr(missing, "CONFIG_MEMCG"));
	free(missing);
	free(k.config);
}

/* Debian's 6.12: zram's compressors are CONFIG_ZRAM_BACKEND_*, and LZO is not one. */
static void test_debian612_zram_backends(void **state)
{
	struct kernel k = { .config = fixture("kernel/config-6.12.118+deb12-cloud-amd64"),
			    .release = (char *)"6.12.118+deb12-cloud-amd64",
			    .modules_dir = (char *)"/nonexistent" };
	_cleanup_free_ char *comps = kernel__zram_comps(&k, NULL);
	struct kernel_version v;
	const char *from = NULL;
	char *missing = NULL;

	(void)state;
	assert_int_equal(kernel__version(&k, &v, &from), 0);
	assert_int_equal(v.major, 6);
	assert_int_equal(v.minor, 12);
	assert_int_equal(v.sub, 118);
	assert_string_equal(from, "its config");
	/* CRYPTO_LZO=y and CRYPTO_LZ4=m are there, but zram does not use them on 6.12. */
	assert_string_equal(comps, "lz4 lz4hc zstd deflate");
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_ZRAM_BACKEND_LZO (not set; zram_comp lzo-rle"));
	assert_non_null(strstr(missing, "zram has lz4 lz4hc zstd deflate: set zram_comp"));
	assert_null(strstr(missing, "CONFIG_CRYPTO"));
	free(missing);
	missing = NULL;
	assert_int_equal(kernel__check(&k, "lz4", 1, &missing), 0);
	assert_int_equal(kernel__check(&k, NULL, 1, &missing), 0); /* no zram swap */
	assert_int_equal(kernel__check(&k, "842", 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_ZRAM_BACKEND_842 (not set"));
	free(missing);
	free(k.config);
}

/* Replace the "# Linux/x86 X Kernel Configuration" line's version. */
static char *config_as_version(const char *config, const char *version)
{
	const char *p = strstr(config, "# Linux/x86 "), *e;

	assert_non_null(p);
	p += strlen("# Linux/x86 ");
	e = strchr(p, ' ');
	return xasprintf("%.*s%s%s", (int)(p - config), config, version, e);
}

/* The same options read as another series' config: the rows that hold change. */
static void test_zram_needs_keyed_by_series(void **state)
{
	_cleanup_free_ char *cfg612 = fixture("kernel/config-6.12.118+deb12-cloud-amd64");
	_cleanup_free_ char *cfg61 = fixture("kernel/config-6.1.0-57-cloud-amd64");
	struct kernel k = { .modules_dir = (char *)"/nonexistent" };
	struct kernel_version v;
	char *missing = NULL, *comps;

	(void)state;
	/* 6.12's options read as 6.1: CRYPTO_LZO=y gives lzo-rle, CRYPTO_LZ4=m lz4. */
	k.config = config_as_version(cfg612, "6.1.192");
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), 0);
	assert_int_equal(kernel__check(&k, "lz4", 1, &missing), 0);
	comps = kernel__zram_comps(&k, NULL);
	assert_string_equal(comps, "lzo-rle lzo lz4 lz4hc zstd deflate");
	free(comps);
	/* A crypto module needs a modules tree to go in the guest image. */
	k.modules_dir = NULL;
	assert_int_equal(kernel__check(&k, "lz4", 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_CRYPTO_LZ4=m but no modules tree"));
	free(missing);
	missing = NULL;
	free(k.config);

	/* 6.1's options read as 6.13: no ZRAM_BACKEND_* at all, so no compressor. */
	k.modules_dir = (char *)"/nonexistent";
	k.config = config_as_version(cfg61, "6.13.2");
	assert_int_equal(kernel__version(&k, &v, NULL), 0);
	assert_int_equal(v.minor, 13);
	assert_int_equal(kernel__check(&k, KERNEL_ZRAM_COMP_DEFAULT, 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_ZRAM_BACKEND_LZO (not set"));
	assert_non_null(strstr(missing, "zram has no compressor)"));
	free(missing);
	missing = NULL;
	assert_int_equal(kernel__check(&k, NULL, 1, &missing), 0);
	free(k.config);
}

/* Without the config's version line the release tells; without either, no compressor row holds. */
static void test_kernel_version_sources(void **state)
{
	struct kernel k = { .config = (char *)"CONFIG_ZRAM=y\nCONFIG_ZRAM_BACKEND_LZ4=y\n",
			    .release = (char *)"6.12.5-lrb-0123abcd" };
	struct kernel_version v;
	const char *from = NULL;
	char *missing = NULL;

	(void)state;
	assert_int_equal(kernel__version(&k, &v, &from), 0);
	assert_int_equal(v.minor, 12);
	assert_int_equal(v.sub, 5);
	assert_string_equal(from, "its release");
	k.release = (char *)"mykernel";
	assert_int_equal(kernel__version(&k, &v, &from), -EINVAL);
	assert_int_equal(kernel__check(&k, "lz4", 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "the kernel's version, on which zram_comp lz4's option "
					"depends"));
	free(missing);
	missing = NULL;
	k.release = (char *)"6.12.5";
	assert_int_equal(kernel__check(&k, "zstd", 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "CONFIG_ZRAM_BACKEND_ZSTD (not set"));
	assert_non_null(strstr(missing, "zram has lz4: set zram_comp"));
	free(missing);
	missing = NULL;
	assert_int_equal(kernel__check(&k, "foo", 1, &missing), -ENOTSUP);
	assert_non_null(strstr(missing, "zram_comp foo: no zram compressor of that name on 6.12"));
	free(missing);
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
	console_scan__free(&s);
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

	/* the agent died: the kernel's panic is its consequence, not a kernel failure */
	strcpy(con.panic_line, "Kernel panic - not syncing: Attempted to kill init! exitcode=0x86");
	classify_run(&vm, &st, &con, false, "", &out);
	assert_string_equal(out.status, RUN_FAILED_INFRA);
	assert_string_equal(out.reason, "the agent (PID 1) died: Kernel panic - not syncing: "
					"Attempted to kill init! exitcode=0x86");
	/* ... unless the kernel oopsed first: then it is the kernel's */
	{
		struct console_finding oops = { .kind = "oops" };

		strcpy(oops.line, "Oops: general protection fault");
		con.findings = &oops;
		con.nfindings = 1;
		classify_run(&vm, &st, &con, false, "", &out);
		assert_string_equal(out.status, RUN_FAILED_KERNEL);
		con.findings = NULL;
		con.nfindings = 0;
	}
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

/* -icount on TCG as the clock says; never on KVM, which counts no instructions. */
static void test_qemu_argv_icount(void **state)
{
	const struct vm_icount ic = { .shift = 3, .sleep = true };
	struct vm_spec s = {
		.kernel = "/k", .initrd = "/i", .cmdline = "quiet", .accel = "tcg",
		.icount = &ic, .mem_mb = 512, .cpus = 1, .run_dir = "/r",
	};
	const char *accels[] = { "tcg", "kvm", "tcg" };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(accels); k++) {
		char **argv;
		int seen = 0;

		s.accel = accels[k];
		s.icount = k == 2 ? NULL : &ic;
		argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
		for (size_t i = 0; argv[i]; i++) {
			if (strcmp(argv[i], "-icount"))
				continue;
			assert_string_equal(argv[i + 1], "shift=3,sleep=on");
			seen++;
		}
		assert_int_equal(seen, k == 0 ? 1 : 0);
		vm_argv_free(argv);
	}
}

/* The clock's record, its parse, the calibration's arithmetic, the SMP gate. */
static void test_guest_clock(void **state)
{
	static const char *const bad[] = {
		"", "instructions", "instructions shift=3", "instructions shift=11 sleep=on",
		"instructions shift=-1 sleep=on", "instructions shift=3 sleep=maybe",
		"instructions shift=3 sleep=on trailing", "wall",
	};
	struct guest_clock gc = { 0 }, back;
	_cleanup_free_ char *f = NULL, *d = NULL, *r = NULL, *err = NULL;

	(void)state;
	gc.instructions = true;
	gc.icount = (struct vm_icount){ .shift = 3, .sleep = true };
	f = guest_clock__format(&gc);
	assert_string_equal(f, "instructions shift=3 sleep=on");
	assert_int_equal(guest_clock__parse(&back, f), 0);
	assert_true(back.instructions && back.icount.shift == 3 && back.icount.sleep);
	assert_int_equal(guest_clock__parse(&back, "instructions shift=0 sleep=off"), 0);
	assert_true(back.instructions && back.icount.shift == 0 && !back.icount.sleep);
	assert_int_equal(guest_clock__parse(&back, "real"), 0);
	assert_false(back.instructions);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(guest_clock__parse(&back, bad[i]), -EINVAL);
	assert_string_equal(guest_clock_mode(f), "instructions");
	assert_string_equal(guest_clock_mode("real"), "real");
	assert_string_equal(guest_clock_mode(NULL), "real"); /* a campaign from before clocks */
	d = guest_clock_describe(f);
	assert_non_null(strstr(d, "8 ns per executed instruction, sleep on"));
	r = guest_clock_describe(NULL);
	assert_string_equal(r, "real (guest time follows the host's)");

	/* measured here: 403 ms of guest time at shift 0 took 3035 ms (133 M/s): 2^3 ns */
	assert_int_equal(guest_clock_shift_for(0, 403e6, 3035e6), 3);
	assert_int_equal(guest_clock_shift_for(0, 1e9, 1e9), 0);	 /* 1 G/s: 1 ns */
	assert_int_equal(guest_clock_shift_for(0, 1e9, 0.5e9), 0);	 /* faster: clamped */
	assert_int_equal(guest_clock_shift_for(0, 1e6, 1e9), 10);	 /* 1 M/s: 2^10 at most */
	assert_int_equal(guest_clock_shift_for(2, 100e6, 100e6), 2); /* from another shift */
	assert_int_equal(guest_clock_shift_for(0, 0, 1e9), 0);	 /* nothing measured */

	assert_int_equal(guest_clock_cpus_ok(1, "QEMU emulator version 7.2.22 (Debian)", &err), 0);
	assert_int_equal(guest_clock_cpus_ok(2, "QEMU emulator version 8.1.0", &err), 0);
	assert_int_equal(guest_clock_cpus_ok(2, "QEMU emulator version 10.0.2 (Debian)", &err), 0);
	assert_null(err);
	assert_int_equal(guest_clock_cpus_ok(2, "QEMU emulator version 7.2.22 (Debian)", &err),
			 -ENOTSUP);
	assert_non_null(strstr(err, "QEMU 8.1"));
	assert_non_null(strstr(err, "version 7.2.22"));
	free(TAKE_PTR(err));
	assert_int_equal(guest_clock_cpus_ok(2, "QEMU emulator version 8.0.5", &err), -ENOTSUP);
	free(TAKE_PTR(err));
	assert_int_equal(guest_clock_cpus_ok(4, NULL, &err), -ENOTSUP);
	assert_non_null(strstr(err, "unknown QEMU"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_config_passes),
		cmocka_unit_test(test_missing_options_named),
		cmocka_unit_test(test_numa_needs_config),
		cmocka_unit_test(test_debian612_zram_backends),
		cmocka_unit_test(test_zram_needs_keyed_by_series),
		cmocka_unit_test(test_kernel_version_sources),
		cmocka_unit_test(test_modules_resolve),
		cmocka_unit_test(test_console_scan),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_workload_events),
		cmocka_unit_test(test_qemu_argv_no_shell),
		cmocka_unit_test(test_qemu_argv_icount),
		cmocka_unit_test(test_guest_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
