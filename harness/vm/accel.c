// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the accelerator: KVM when a guest actually boots under it, TCG
 * otherwise. /dev/kvm existing proves nothing (here it exists and guests
 * hang silently), so "auto" boots the real guest image under KVM with no
 * workload and waits for the agent's first byte. The answer is cached per
 * host boot, QEMU version and kernel, so a campaign pays for it once.
 */
#include "accel.h"
#include "image.h"
#include "kernel.h"
#include "run-conf.h"
#include "util.h"
#include "vm-qemu.h"

#include <string.h>

#define PROBE_TIMEOUT_MS 30000

static int probe_data(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return -1; /* the agent spoke: KVM works; stop here */
}

static char *probe_key(const struct kernel *k)
{
	_cleanup_free_ char *boot_id = NULL, *qv = vm_qemu_version();
	char key[65];
	_cleanup_free_ char *s = NULL;

	read_file("/proc/sys/kernel/random/boot_id", 256, &boot_id, NULL);
	s = xasprintf("%s|%s|%s", boot_id ? strstrip(boot_id) : "", qv ? qv : "", k->sha256);
	sha256_buf(s, strlen(s), key);
	return xasprintf("%.16s", key);
}

int accel_choose(const char *want, const struct kernel *k, const struct guest_image *img,
		 const char *build_dir, bool use_cache, char **ret_accel, char **ret_why)
{
	_cleanup_free_ char *key = NULL, *cache = NULL, *cached = NULL, *dir = NULL;
	_cleanup_free_ char *initrd = NULL, *conf = NULL, *err = NULL;
	struct vm_spec spec;
	struct vm_result res;
	bool ok;

	if (!strcmp(want, "tcg") || !strcmp(want, "kvm")) {
		*ret_accel = xstrdup(want);
		*ret_why = xasprintf("asked for %s", want);
		return 0;
	}
	if (strcmp(want, "auto"))
		return -EINVAL;
	if (!vm_kvm_openable()) {
		*ret_accel = xstrdup("tcg");
		*ret_why = xstrdup("/dev/kvm cannot be opened");
		return 0;
	}
	key = probe_key(k);
	cache = xasprintf("%s/accel-probe-%s", build_dir, key);
	if (use_cache && read_file(cache, 256, &cached, NULL) == 0) {
		char *nl = strchr(cached, '\n');

		if (nl) {
			*nl = '\0';
			*ret_accel = xstrdup(cached);
			*ret_why = xasprintf("%s (cached probe)", nl + 1);
			return 0;
		}
	}

	log_info("probing KVM: booting the guest under it (up to %d s)", PROBE_TIMEOUT_MS / 1000);
	dir = xasprintf("%s/probe-XXXXXX", build_dir);
	mkdir_p(build_dir);
	if (!mkdtemp(dir))
		return -errno;
	initrd = xasprintf("%s/initrd.cpio", dir);
	conf = run_conf__hello(img, "kvm-probe");
	if (guest_image__run_initrd(img, conf, initrd, &err) < 0) {
		*ret_accel = xstrdup("tcg");
		*ret_why = xasprintf("probe image failed: %s", err);
		return 0;
	}
	spec = (struct vm_spec){
		.kernel = k->image,
		.initrd = initrd,
		.cmdline = "console=ttyS0 panic=-1 rdinit=/init quiet",
		.accel = "kvm",
		.mem_mb = 512,
		.cpus = 1,
		.run_dir = dir,
		.hello_timeout_ms = PROBE_TIMEOUT_MS,
	};
	vm_run(&spec, probe_data, NULL, &res);
	ok = res.first_byte_ns >= 0;
	if (res.error) /* QEMU's first complaint is enough here */
		res.error[strcspn(res.error, "\n")] = '\0';
	*ret_accel = xstrdup(ok ? "kvm" : "tcg");
	if (ok)
		*ret_why = xasprintf("KVM guest reached the agent in %.1f s",
				     (double)res.first_byte_ns / 1e9);
	else
		*ret_why = xasprintf("a KVM guest did not reach the agent (%s after %.1f s%s%s): "
				     "using TCG",
				     vm_end_name(res.end), (double)res.wall_ns / 1e9,
				     res.error ? ": " : "", res.error ? res.error : "");
	vm_result__clear(&res);
	{
		FILE *f = fopen(cache, "w");

		if (f) {
			fprintf(f, "%s\n%s", *ret_accel, *ret_why);
			fclose(f);
		}
	}
	unlink(initrd);
	vm_run_dir_remove(dir);
	return 0;
}
