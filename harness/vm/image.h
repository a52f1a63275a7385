/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest image: a base initramfs (the agent as /init, the workload
 * binaries in /bin, the kernel modules the agent loads, resolved through the
 * kernel's modules.dep) cached by content hash, plus a tiny per-run archive
 * holding /lrubench/run.conf appended to it (the kernel unpacks concatenated
 * cpio archives in order). Archives are made by GNU cpio, not by hand.
 */
#ifndef LRUBENCH_IMAGE_H
#define LRUBENCH_IMAGE_H

#include <stddef.h>

struct kernel;

struct guest_image {
	char *base;	  /* the cached base initramfs */
	char hash[65];	  /* its content hash (the cache key) */
	char **modules;	  /* guest paths of the modules, in load order */
	size_t nmodules;
};

/*
 * Build (or find in cache_dir) the base initramfs for kernel k from the
 * static binaries in bin_dir (lrubench-agent and wl-*). zram_comp (may be
 * NULL) is the compressor zram will use: its module goes in when the kernel
 * has it as one (a crypto module before 6.12).
 */
int guest_image__get(const struct kernel *k, const char *zram_comp, const char *bin_dir,
		     const char *cache_dir, struct guest_image **ret, char **ret_err);
void guest_image__free(struct guest_image *img);
void guest_image__freep(struct guest_image **img);

/* Write out_path = base initramfs + an archive holding run_conf as /lrubench/run.conf. */
int guest_image__run_initrd(const struct guest_image *img, const char *run_conf,
			    const char *out_path, char **ret_err);

/*
 * Resolve module names (e.g. "virtio_console") to their paths relative to
 * modules_dir and all their dependencies, dependencies first, from the
 * text of modules.dep. Names not in modules.dep are skipped (built in).
 * Pure: exposed for tests.
 */
int modules_resolve(const char *modules_dep, const char *const names[], char ***ret_paths,
		    size_t *ret_n);

#endif
