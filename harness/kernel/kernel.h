/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels as inputs: a bzImage with its .config and (when it has modular
 * drivers) its modules tree; identity by sha256; the checks that refuse a
 * kernel that cannot run a campaign before anything boots.
 */
#ifndef LRUBENCH_KERNEL_H
#define LRUBENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

struct kernel {
	char *image;	   /* bzImage path */
	char *config_path; /* the .config it was built with */
	char *config;	   /* its text */
	char *modules_dir; /* lib/modules/RELEASE, or NULL when nothing needed is modular */
	char *release;	   /* from the bzImage header, e.g. 6.1.0-57-cloud-amd64 */
	char *version;	   /* the whole version string from the header */
	char *source;	   /* where it came from: "debian:linux-image-...", "path" */
	char sha256[65];
	char config_sha256[65];
};

/*
 * Open a kernel: read the release from the bzImage header, find its config
 * (config_path if given, else "config", ".config" or "config-RELEASE" beside
 * the image, else the IKCONFIG blob inside it) and its modules (modules_dir
 * if given, else lib/modules/RELEASE beside or above the image). Errors are
 * reported through *ret_err (malloc'd) and -errno.
 */
int kernel__open(const char *image, const char *config_path, const char *modules_dir,
		 struct kernel **ret, char **ret_err);
void kernel__free(struct kernel *k);
void kernel__freep(struct kernel **k);

/* The value of CONFIG_name ("y", "m", a string, or NULL when unset). */
const char *kernel__config(const struct kernel *k, const char *name, char *buf, size_t len);

/* The agent's zram compressor when a plan names none (guest/agent-conf.c). */
#define KERNEL_ZRAM_COMP_DEFAULT "lzo-rle"

struct kernel_version;

/*
 * The kernel's version, from its config's "# Linux/x86 6.12.118 Kernel
 * Configuration" line (kconfig writes it), else from its release. *ret_from
 * (may be NULL) says which. -EINVAL when neither tells.
 */
int kernel__version(const struct kernel *k, struct kernel_version *ret, const char **ret_from);

/*
 * Check the kernel can run lrubench's campaigns, by the needs of its series
 * (the table in kernel.c is keyed by kernel range where they differ).
 * zram_comp is the compressor zram will use (KERNEL_ZRAM_COMP_DEFAULT when a
 * plan names none), NULL when swap is not on zram; numa the guest's NUMA
 * nodes (more than 1 needs CONFIG_NUMA). Returns 0 when it can;
 * else -ENOTSUP and *ret_missing lists what is missing ("CONFIG_LRU_GEN (not
 * set; ...), CONFIG_ZRAM_BACKEND_LZO (...)").
 */
int kernel__check(const struct kernel *k, const char *zram_comp, int numa, char **ret_missing);

/*
 * The zram compressors this kernel provides ("lzo-rle lzo lz4", "" for none)
 * and, through *ret_how (may be NULL; static), how its series provides them
 * (the crypto API before 6.12, zram's own backends from 6.12).
 */
char *kernel__zram_comps(const struct kernel *k, const char **ret_how);

/*
 * The embedded default: Debian's current 6.1 cloud kernel. Fetched with
 * apt-get download and unpacked under cache_dir the first time; later calls
 * reuse the cache (and work offline). Returns the bzImage path.
 */
int kernel__debian_default(const char *cache_dir, char **ret_image, char **ret_err);

/*
 * The same for a series: "6.1" (kernel = debian, debian-6.1) or "6.12"
 * (kernel = debian-6.12: the newest linux-image-6.12.*+deb12-cloud-amd64).
 * Each series is cached apart; offline, the newest cached one of the series.
 */
int kernel__debian(const char *cache_dir, const char *series, char **ret_image, char **ret_err);
bool kernel__debian_series_known(const char *series);

/* "debian" -> "6.1", "debian-6.12" -> "6.12"; NULL if spec is no Debian kernel. */
const char *kernel__debian_spec_series(const char *spec);

/* sha256 of a file as lowercase hex. */
int sha256_file(const char *path, char out[65]);
void sha256_buf(const void *buf, size_t len, char out[65]);

#endif
