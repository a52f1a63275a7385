// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's disks: ldd output (captured for Debian 12's fio) to the
 * tools image's file list, the scratch disk as mkfs.ext4 makes it, and
 * the QEMU arguments that attach both.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disks.h"
#include "files.h"
#include "util.h"
#include "vm-qemu.h"
#include "wl-def.h"

#define FIX "harness/tests/fixtures/"

static void test_ldd_parse(void **state)
{
	_cleanup_free_ char *text = NULL;
	struct ldd_lib *libs = NULL;
	size_t n = 0;
	char *err = NULL;
	bool loader = false;

	(void)state;
	assert_int_equal(read_file(FIX "tools/ldd-fio-3.33.txt", 1 << 20, &text, NULL), 0);
	assert_int_equal(ldd_parse(text, &libs, &n, &err), 0);
	/* 64 lines: the vDSO has no file. */
	assert_int_equal(n, 63);
	assert_string_equal(libs[0].name, "libnuma.so.1");
	assert_string_equal(libs[0].path, "/lib/x86_64-linux-gnu/libnuma.so.1");
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(libs[i].name, "vdso"));
		assert_true(libs[i].path[0] == '/');
		if (!strcmp(libs[i].name, "ld-linux-x86-64.so.2")) {
			assert_string_equal(libs[i].path, "/lib64/ld-linux-x86-64.so.2");
			loader = true;
		}
		if (!strcmp(libs[i].name, "libceph-common.so.2"))
			assert_string_equal(libs[i].path,
					    "/usr/lib/x86_64-linux-gnu/ceph/libceph-common.so.2");
	}
	assert_true(loader);
	ldd_libs_free(libs, n);

	assert_int_equal(ldd_parse("\tlibz.so.1 => /lib/libz.so.1 (0x1)\n"
				   "\tlibgone.so.3 => not found\n",
				   &libs, &n, &err),
			 -ENOENT);
	assert_string_equal(err, "ldd: libgone.so.3 not found");
	free(err);
	assert_int_equal(ldd_parse("\tnot a dynamic executable\n", &libs, &n, &err), 0);
	assert_int_equal(n, 0);
	ldd_libs_free(libs, n);
}

static void test_scratch_disk(void **state)
{
	char dir[] = "/tmp/lrubench-test-XXXXXX";
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	unsigned char magic[2];
	struct stat st;
	char *err = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/scratch,1.ext4", dir);
	assert_int_equal(scratch_disk__create(path, 256ull << 20, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 256ll << 20);
	/* Sparse: what mkfs wrote, not 256 MiB. */
	assert_true(st.st_blocks * 512 < (64ll << 20));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	/* The ext4 superblock's magic 0xEF53 at byte 1024 + 56. */
	assert_int_equal(pread(fd, magic, 2, 1024 + 56), 2);
	assert_int_equal(magic[0], 0x53);
	assert_int_equal(magic[1], 0xef);
	unlink(path);
	rmdir(dir);
}

/*
 * The tools image holds the programs of the workloads given, not of the
 * whole catalogue: a plan that runs bash needs no fio installed. The image's
 * name is its content hash, so bash alone and bash with cat differ; a tool
 * missing from PATH is named with its workload, before any image is built.
 */
static void test_tools_of_the_plan(void **state)
{
	const struct workload_def sh = { .name = "w-sh", .tools = WL_TOOLS("bash") },
				  sh_cat = { .name = "w-cat", .tools = WL_TOOLS("bash", "cat") },
				  none = { .name = "w-none" },
				  missing = { .name = "w-missing",
					      .tools = WL_TOOLS("no-such-tool-lrubench") };
	const struct workload_def *bash_only[] = { &sh, &none }, *both[] = { &sh, &sh_cat },
				  *bad[] = { &sh, &missing };
	char dir[] = "/tmp/lrubench-test-XXXXXX";
	struct tools_image *a = NULL, *b = NULL, *c = NULL;
	char *err = NULL;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	if (tools_image__get(dir, bash_only, 2, &a, &err) < 0)
		fail_msg("%s", err);
	/* bin/bash, its libraries and the loader: no cat, no fio. */
	assert_true(a->nfiles >= 2 && a->nfiles < 8);
	assert_int_equal(stat(a->path, &st), 0);
	if (tools_image__get(dir, both, 2, &b, &err) < 0)
		fail_msg("%s", err);
	assert_int_equal(b->nfiles, a->nfiles + 1); /* cat's libraries are bash's */
	assert_string_not_equal(a->hash, b->hash);
	assert_int_equal(tools_image__get(dir, bad, 2, &c, &err), -ENOENT);
	assert_null(c);
	assert_string_equal(err, "no-such-tool-lrubench (for workload w-missing) is not in PATH: "
				  "install it (scripts/install-deps.sh)");
	free(err);
	unlink(a->path);
	unlink(b->path);
	tools_image__free(a);
	tools_image__free(b);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * A static program (a per-workload tool built for the guest) is no error:
 * ldd says "not a dynamic executable"; the image holds it and the loader
 * the guest runs every tool through, and no library.
 */
static void test_static_tool(void **state)
{
	static const char prog[] = "int main(void) { return 0; }\n";
	char dir[] = "/tmp/lrubench-test-XXXXXX";
	_cleanup_free_ char *src = NULL, *bin = NULL, *path = NULL, *cmd = NULL;
	const char *old_path = getenv("PATH");
	_cleanup_free_ char *saved = xstrdup(old_path ? old_path : "/usr/bin:/bin");
	const struct workload_def st = { .name = "w-static", .tools = WL_TOOLS("lrb-static-tool") };
	const struct workload_def *defs[] = { &st };
	struct tools_image *t = NULL;
	char *err = NULL;
	int r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	src = xasprintf("%s/t.c", dir);
	bin = xasprintf("%s/lrb-static-tool", dir);
	assert_int_equal(files__write(src, prog, sizeof(prog) - 1, 0644), 0);
	cmd = xasprintf("cc -static -o %s %s", bin, src);
	assert_int_equal(system(cmd), 0);
	path = xasprintf("%s:%s", dir, saved);
	setenv("PATH", path, 1);
	r = tools_image__get(dir, defs, 1, &t, &err);
	setenv("PATH", saved, 1);
	if (r < 0)
		fail_msg("%s", err);
	assert_int_equal(t->nfiles, 2); /* bin/lrb-static-tool, lib/ld-linux-x86-64.so.2 */
	unlink(t->path);
	tools_image__free(t);
	unlink(src);
	unlink(bin);
	assert_int_equal(rmdir(dir), 0);
}

static void test_qemu_disks(void **state)
{
	const struct vm_disk disks[] = {
		{ "/c/tools-1.ext4", DISK_SERIAL_TOOLS, true },
		{ "/r/a,b/scratch.ext4", DISK_SERIAL_SCRATCH, false },
	};
	struct vm_spec s = {
		.kernel = "/k", .initrd = "/i", .cmdline = "quiet", .accel = "tcg", .mem_mb = 512,
		.cpus = 1, .run_dir = "/r", .disks = disks, .ndisks = 2,
	};
	char **argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	const char *want[] = {
		"-drive", "file=/c/tools-1.ext4,if=none,id=disk0,format=raw,readonly=on",
		"-device", "virtio-blk-pci,drive=disk0,serial=lrubench-tools",
		"-drive", "file=/r/a,,b/scratch.ext4,if=none,id=disk1,format=raw,cache=unsafe",
		"-device", "virtio-blk-pci,drive=disk1,serial=lrubench-scratch",
	};
	size_t n = 0, at = 0;

	(void)state;
	while (argv[n])
		n++;
	for (at = 0; at < n && strcmp(argv[at], "-drive"); at++)
		;
	assert_true(at + ARRAY_SIZE(want) <= n);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(argv[at + i], want[i]);
	vm_argv_free(argv);

	/* No disk asked, none attached. */
	s.ndisks = 0;
	argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	for (size_t i = 0; argv[i]; i++)
		assert_string_not_equal(argv[i], "-drive");
	vm_argv_free(argv);
}

/* NUMA nodes: memory split (the last node the rest), CPU j on node j mod N, none when 1. */
static void test_qemu_numa(void **state)
{
	struct vm_spec s = {
		.kernel = "/k", .initrd = "/i", .cmdline = "quiet", .accel = "tcg", .mem_mb = 1025,
		.cpus = 3, .numa = 2, .run_dir = "/r",
	};
	char **argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	const char *want[] = {
		"-object", "memory-backend-ram,id=ram0,size=512M",
		"-numa", "node,nodeid=0,memdev=ram0,cpus=0,cpus=2",
		"-object", "memory-backend-ram,id=ram1,size=513M",
		"-numa", "node,nodeid=1,memdev=ram1,cpus=1",
	};
	size_t at = 0;

	(void)state;
	while (argv[at] && strcmp(argv[at], "-object"))
		at++;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_non_null(argv[at + i]);
		assert_string_equal(argv[at + i], want[i]);
	}
	vm_argv_free(argv);
	/* One vCPU, two nodes: the second has memory only. */
	s.cpus = 1;
	argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	while (argv[at] && strcmp(argv[at], "node,nodeid=1,memdev=ram1"))
		at++;
	assert_non_null(argv[at]);
	vm_argv_free(argv);
	s.numa = 1;
	argv = vm_argv(&s, "/r/chan.sock", "/r/console.log");
	for (size_t i = 0; argv[i]; i++)
		assert_string_not_equal(argv[i], "-numa");
	vm_argv_free(argv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ldd_parse),
		cmocka_unit_test(test_scratch_disk),
		cmocka_unit_test(test_qemu_disks),
		cmocka_unit_test(test_qemu_numa),
		cmocka_unit_test(test_tools_of_the_plan),
		cmocka_unit_test(test_static_tool),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
