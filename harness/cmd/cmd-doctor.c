// SPDX-License-Identifier: GPL-2.0
/*
 * doctor: what works on this host and why not where it does not. KVM is
 * probed (a guest booted under it), not assumed from /dev/kvm.
 */
#include "accel.h"
#include "cmd.h"
#include "paths.h"
#include "image.h"
#include "kernel.h"
#include "util.h"
#include "vm-qemu.h"

#include <dirent.h>
#include <string.h>
#include <sys/sysinfo.h>

static void line(const char *what, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(const char *what, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%-14s %-4s ", what, ok ? "ok" : "--");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int cmd_doctor(int argc, char **argv)
{
	_cleanup_free_ char *qv = vm_qemu_version(), *image = NULL, *err = NULL;
	_cleanup_(kernel__freep) struct kernel *k = NULL;
	_cleanup_(guest_image__freep) struct guest_image *img = NULL;
	struct sysinfo si;
	DIR *d;
	int problems = 0;

	(void)argc;
	(void)argv;
	line("qemu", qv != NULL, "%s", qv ? qv : "qemu-system-x86_64 not found (make deps)");
	problems += !qv;
	line("/dev/kvm", vm_kvm_openable(), "%s",
	     vm_kvm_openable() ? "can be opened (usable is probed below)" : "cannot be opened: TCG only");
	sysinfo(&si);
	line("memory", true, "%.1f GiB free of %.1f GiB; %d CPUs",
	     (double)si.freeram * si.mem_unit / (1u << 30),
	     (double)si.totalram * si.mem_unit / (1u << 30), get_nprocs());

	d = opendir(path_kernel_cache());
	if (d) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				line("kernel cache", true, "%s/%s", path_kernel_cache(), e->d_name);
		closedir(d);
	} else {
		line("kernel cache", false, "%s is empty ('lrubench kernel fetch' fills it)",
		     path_kernel_cache());
	}
	if (kernel__debian_default(path_kernel_cache(), &image, &err) < 0 ||
	    kernel__open(image, NULL, NULL, &k, &err) < 0) {
		line("default kernel", false, "%s", err);
		return 2;
	}
	line("default kernel", true, "%s (%s)", k->release, k->image);
	{
		_cleanup_free_ char *bin = xasprintf("%s/guest/bin", path_build());
		_cleanup_free_ char *cache = xasprintf("%s/images", path_build());

		if (guest_image__get(k, KERNEL_ZRAM_COMP_DEFAULT, bin, cache, &img, &err) < 0) {
			line("guest image", false, "%s", err);
			return 2;
		}
		line("guest image", true, "%s (%zu modules)", img->base, img->nmodules);
	}
	{
		_cleanup_free_ char *accel = NULL, *why = NULL;

		/* Probed afresh: the doctor's answer must not be a memory. */
		accel_choose("auto", k, img, path_build(), false, &accel, &why);
		line("accel", !strcmp(accel, "kvm"), "%s: %s", accel, why);
	}
	return problems ? 1 : 0;
}
