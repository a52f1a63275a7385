// SPDX-License-Identifier: GPL-2.0
#include "kernel.h"
#include "files.h"
#include "kernel-version.h"
#include "spawn.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * What a kernel must have for lrubench, and why, by the kernels a row holds for
 * (from, until exclusive; ANY: every kernel). "ym" accepts a module (the guest
 * image carries it); "y" must be built in. One row per option and range.
 *
 * A row with zram_comp (names separated by spaces) is needed only when zram
 * compresses with one of those: through the crypto API before 6.12 (6.1.192
 * drivers/block/zram/zcomp.c zcomp_available_algorithm(): any compressor
 * crypto has), through zram's own backends from 6.12 (6.12.118 zcomp.c
 * backends[], CONFIG_ZRAM_BACKEND_* in drivers/block/zram/Kconfig), which are
 * bool: part of zram itself.
 */
#define KV(a, b) { .major = (a), .minor = (b), .sub = 0 }
#define ANY KV(0, 0), KV(0, 0)
#define UNTIL_612 KV(0, 0), KV(6, 12)
#define FROM_612 KV(6, 12), KV(0, 0)

static const char why_crypto[] = "before 6.12 zram compresses through the crypto API";
static const char why_backend[] = "since 6.12 zram compresses through its own backends, "
				  "CONFIG_ZRAM_BACKEND_* (CRYPTO_* options give it nothing)";

static const struct kconfig_need {
	const char *name;
	const char *accept; /* "y" or "ym" */
	struct kernel_version from, until;
	const char *zram_comp; /* NULL: needed whatever the compressor */
	const char *why;
} kconfig_needs[] = {
	{ "MEMCG", "y", ANY, NULL, "workloads run in memory cgroups" },
	{ "PSI", "y", ANY, NULL, "pressure stall information is sampled" },
	{ "LRU_GEN", "y", ANY, NULL, "the multi-gen LRU is one side of every comparison" },
	{ "SWAP", "y", ANY, NULL, "anon reclaim needs swap" },
	{ "VM_EVENT_COUNTERS", "y", ANY, NULL,
	  "/proc/vmstat event counters are the reclaim signals" },
	{ "CGROUPS", "y", ANY, NULL, "cgroup v2 hierarchy" },
	{ "BLK_DEV_INITRD", "y", ANY, NULL, "the guest agent lives in an initramfs" },
	{ "DEVTMPFS", "y", ANY, NULL, "device nodes for the channel and zram" },
	{ "SERIAL_8250_CONSOLE", "y", ANY, NULL, "the console log" },
	{ "BINFMT_ELF", "y", ANY, NULL, "the agent and the workloads are ELF binaries" },
	{ "PROC_SYSCTL", "y", ANY, NULL, "sysctls are set and read back through /proc/sys" },
	{ "ADVISE_SYSCALLS", "y", ANY, NULL,
	  "file workloads drop their files from the cache (posix_fadvise), mmap-stride "
	  "advises its mapping (madvise)" },
	{ "TRANSPARENT_HUGEPAGE", "y", ANY, NULL,
	  "every run sets transparent_hugepage/enabled" },
	{ "ACPI", "y", ANY, NULL, "the guest powers off through ACPI at the end of a run" },
	{ "ZRAM", "ym", ANY, NULL, "swap on zram" },
	{ "VIRTIO_CONSOLE", "ym", ANY, NULL, "the agent's channel is a virtio-serial port" },
	{ "VIRTIO_PCI", "ym", ANY, NULL, "virtio devices" },
	/* zram's compressor, the plan's zram_comp (default lzo-rle) */
	{ "CRYPTO_LZO", "ym", UNTIL_612, "lzo-rle lzo", why_crypto },
	{ "CRYPTO_LZ4", "ym", UNTIL_612, "lz4", why_crypto },
	{ "CRYPTO_LZ4HC", "ym", UNTIL_612, "lz4hc", why_crypto },
	{ "CRYPTO_ZSTD", "ym", UNTIL_612, "zstd", why_crypto },
	{ "CRYPTO_DEFLATE", "ym", UNTIL_612, "deflate", why_crypto },
	{ "CRYPTO_842", "ym", UNTIL_612, "842", why_crypto },
	{ "ZRAM_BACKEND_LZO", "y", FROM_612, "lzo-rle lzo", why_backend },
	{ "ZRAM_BACKEND_LZ4", "y", FROM_612, "lz4", why_backend },
	{ "ZRAM_BACKEND_LZ4HC", "y", FROM_612, "lz4hc", why_backend },
	{ "ZRAM_BACKEND_ZSTD", "y", FROM_612, "zstd", why_backend },
	{ "ZRAM_BACKEND_DEFLATE", "y", FROM_612, "deflate", why_backend },
	{ "ZRAM_BACKEND_842", "y", FROM_612, "842", why_backend },
};

/* What a guest with NUMA nodes ([guest] numa > 1) needs besides. */
static const struct kconfig_need kconfig_needs_numa[] = {
	{ "NUMA", "y", ANY, NULL, "the plan's guest has NUMA nodes ([guest] numa)" },
	{ "ACPI_NUMA", "y", ANY, NULL, "QEMU describes the nodes in ACPI's SRAT" },
};

const char *kernel__config(const struct kernel *k, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *p = k->config;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

		if (llen > 7 + nlen && !strncmp(p, "CONFIG_", 7) && !strncmp(p + 7, name, nlen) &&
		    p[7 + nlen] == '=') {
			size_t vlen = llen - 8 - nlen;
			const char *v = p + 8 + nlen;

			if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
				v++;
				vlen -= 2;
			}
			if (vlen >= len)
				vlen = len - 1;
			memcpy(buf, v, vlen);
			buf[vlen] = '\0';
			return buf;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

int kernel__version(const struct kernel *k, struct kernel_version *ret, const char **ret_from)
{
	/* kconfig heads every .config with "# Linux/x86 6.12.118 Kernel Configuration". */
	const char *p = k->config ? strstr(k->config, "\n# Linux/") : NULL;

	if (p && p - k->config < 512) {
		p = strchr(p + 1, ' ');
		p = p ? strchr(p + 1, ' ') : NULL;
		if (p && kernel_version_parse(p + 1, ret) == 0) {
			if (ret_from)
				*ret_from = "its config";
			return 0;
		}
	}
	if (k->release && kernel_version_parse(k->release, ret) == 0) {
		if (ret_from)
			*ret_from = "its release";
		return 0;
	}
	return -EINVAL;
}

/* Whether row n holds for the kernel v (NULL: unknown, so no ranged row does). */
static bool need_applies(const struct kconfig_need *n, const struct kernel_version *v)
{
	if (!n->from.major && !n->until.major)
		return true;
	return v && kernel_version_in_range(*v, n->from, n->until);
}

/* Whether the space-separated list names comp. */
static bool names_comp(const char *list, const char *comp)
{
	size_t len = strlen(comp);

	for (const char *p = list; *p; p += strcspn(p, " "), p += *p == ' ')
		if (strcspn(p, " ") == len && !strncmp(p, comp, len))
			return true;
	return false;
}

/* Whether row n is satisfied: its value accepted, a module only with a modules tree. */
static bool need_met(const struct kernel *k, const struct kconfig_need *n, char *buf, size_t len,
		     const char **ret_value)
{
	const char *v = kernel__config(k, n->name, buf, len);

	*ret_value = v;
	return v && strlen(v) == 1 && strchr(n->accept, v[0]) && (v[0] != 'm' || k->modules_dir);
}

static void append(char **list, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char **list, const char *sep, const char *fmt, ...)
{
	_cleanup_free_ char *item = NULL;
	va_list ap;
	char *tmp;

	va_start(ap, fmt);
	if (vasprintf(&item, fmt, ap) < 0)
		abort();
	va_end(ap);
	tmp = xasprintf("%s%s%s", *list ? *list : "", *list ? sep : "", item);
	free(*list);
	*list = tmp;
}

char *kernel__zram_comps(const struct kernel *k, const char **ret_how)
{
	struct kernel_version v;
	bool known = kernel__version(k, &v, NULL) == 0;
	char *list = NULL;

	if (ret_how)
		*ret_how = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(kconfig_needs); i++) {
		const struct kconfig_need *n = &kconfig_needs[i];
		_cleanup_free_ char *names = NULL;
		const char *val;
		char buf[64], *save = NULL;

		if (!n->zram_comp || !need_applies(n, known ? &v : NULL))
			continue;
		if (ret_how)
			*ret_how = n->why;
		if (!need_met(k, n, buf, sizeof(buf), &val))
			continue;
		names = xstrdup(n->zram_comp);
		for (char *c = strtok_r(names, " ", &save); c; c = strtok_r(NULL, " ", &save))
			if (!list || !names_comp(list, c))
				append(&list, " ", "%s", c);
	}
	return list ? list : xstrdup("");
}

/* What row n lacks, appended to *missing. */
static void need_missing(const struct kernel *k, const struct kconfig_need *n, const char *val,
			 const char *zram_comp, char **missing)
{
	_cleanup_free_ char *have = NULL;

	if (val && val[0] == 'm' && strchr(n->accept, 'm')) {
		append(missing, ", ", "CONFIG_%s=m but no modules tree was found (%s)", n->name,
		       n->why);
		return;
	}
	if (!n->zram_comp) {
		append(missing, ", ", "CONFIG_%s (%s%s; %s)", n->name, val ? "is " : "not set",
		       val ? val : "", n->why);
		return;
	}
	have = kernel__zram_comps(k, NULL);
	append(missing, ", ", "CONFIG_%s (%s%s; zram_comp %s: %s; this kernel's zram has %s%s)",
	       n->name, val ? "is " : "not set", val ? val : "", zram_comp, n->why,
	       *have ? have : "no compressor", *have ? ": set zram_comp in the plan's [guest]" : "");
}

int kernel__check(const struct kernel *k, const char *zram_comp, int numa, char **ret_missing)
{
	struct kernel_version v;
	bool known = kernel__version(k, &v, NULL) == 0, comp_row = false;
	char *missing = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(kconfig_needs); i++) {
		const struct kconfig_need *n = &kconfig_needs[i];
		const char *val;
		char buf[64];

		if (n->zram_comp && (!zram_comp || !names_comp(n->zram_comp, zram_comp)))
			continue;
		if (!need_applies(n, known ? &v : NULL))
			continue;
		comp_row |= n->zram_comp != NULL;
		if (!need_met(k, n, buf, sizeof(buf), &val))
			need_missing(k, n, val, zram_comp, &missing);
	}
	for (size_t i = 0; numa > 1 && i < ARRAY_SIZE(kconfig_needs_numa); i++) {
		const struct kconfig_need *n = &kconfig_needs_numa[i];
		const char *val;
		char buf[64];

		if (!need_met(k, n, buf, sizeof(buf), &val))
			need_missing(k, n, val, zram_comp, &missing);
	}
	/* Compressor rows are keyed by series: an unknown version or name matches none. */
	if (zram_comp && !comp_row && !known)
		append(&missing, ", ",
		       "the kernel's version, on which zram_comp %s's option depends (no "
		       "'# Linux/ARCH X.Y.Z' line in its config, release '%s')",
		       zram_comp, k->release ? k->release : "unknown");
	else if (zram_comp && !comp_row)
		append(&missing, ", ",
		       "zram_comp %s: no zram compressor of that name on %d.%d (known: lzo-rle, "
		       "lzo, lz4, lz4hc, zstd, deflate, 842)",
		       zram_comp, v.major, v.minor);
	if (missing) {
		*ret_missing = missing;
		return -ENOTSUP;
	}
	return 0;
}

void sha256_buf(const void *buf, size_t len, char out[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;

	EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL);
	for (unsigned i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[64] = '\0';
}

int sha256_file(const char *path, char out[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	EVP_MD_CTX *ctx;
	unsigned char md[32];
	unsigned int mdlen = 0;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return -errno;
	ctx = EVP_MD_CTX_new();
	if (!ctx)
		return -ENOMEM;
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		EVP_DigestUpdate(ctx, buf, (size_t)n);
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (n < 0)
		return -errno;
	for (unsigned i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[64] = '\0';
	return 0;
}

/*
 * The x86 boot protocol (Documentation/arch/x86/boot.rst): the setup header
 * at 0x1f1 has "HdrS" at 0x202; setup_sects (0x1f1, 0 meaning 4) sectors of
 * real-mode setup follow the boot sector, then syssize (0x1f4) 16-byte
 * paragraphs of protected-mode code: the whole image, whose end a truncated
 * copy lacks (bzImages built here and Debian's are exactly that long; a
 * signed one is longer). At 0x20e, a pointer (minus 0x200) to the version.
 */
static int bzimage_version(const char *path, char **ret_version, char **ret_err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char hdr[0x210];
	char ver[256];
	uint16_t off;
	uint64_t want;
	struct stat st;
	ssize_t n;

	if (fd < 0) {
		*ret_err = xasprintf("%s: %s", path, strerror(errno));
		return -errno;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		*ret_err = xasprintf("%s: not an x86 bzImage (no HdrS boot header)", path);
		return -EINVAL;
	}
	want = ((uint64_t)(hdr[0x1f1] ? hdr[0x1f1] : 4) + 1) * 512 +
	       16 * (uint64_t)(hdr[0x1f4] | hdr[0x1f5] << 8 | hdr[0x1f6] << 16 |
			       (uint32_t)hdr[0x1f7] << 24);
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size < want) {
		*ret_err = xasprintf("%s: truncated: its boot header says %llu bytes, the file has "
				     "%lld",
				     path, (unsigned long long)want, (long long)st.st_size);
		return -EINVAL;
	}
	off = (uint16_t)(hdr[0x20e] | hdr[0x20f] << 8);
	n = pread(fd, ver, sizeof(ver) - 1, (off_t)off + 0x200);
	if (n <= 0) {
		*ret_err = xasprintf("%s: cannot read the version string at 0x%x", path, off + 0x200);
		return -EINVAL;
	}
	ver[n] = '\0';
	/* a version string is printable text: anything else is no kernel's */
	for (ssize_t i = 0; ver[i]; i++) {
		if ((unsigned char)ver[i] < 0x20 || (unsigned char)ver[i] > 0x7e) {
			_cleanup_free_ char *shown = NULL;

			ver[i < 64 ? i + 1 : 64] = '\0';
			shown = str_escape(ver);
			*ret_err = xasprintf("%s: not a kernel: the version string at 0x%x is not "
					     "text ('%s')",
					     path, off + 0x200, shown);
			return -EINVAL;
		}
	}
	*ret_version = xstrdup(ver);
	return 0;
}

/* build/tools/extract-ikconfig, beside the lrubench binary. */
static char *tool_path(const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	return xasprintf("%s/tools/%s", dirname(self), name);
}

static int ikconfig_extract(const char *image, char **ret_config)
{
	_cleanup_free_ char *tool = tool_path("extract-ikconfig");
	_cleanup_free_ char *out = NULL;
	const char *argv[] = { tool, image, NULL };
	struct spawn_opts o = { .ret_stdout = &out, .stdout_limit = 4u << 20 };
	_cleanup_free_ char *err = NULL;

	if (!tool || !files__is_file(tool))
		return -ENOENT;
	o.ret_stderr = &err;
	if (spawn_run(argv, &o) != 0 || !out || !strstr(out, "CONFIG_"))
		return -ENOENT;
	*ret_config = TAKE_PTR(out);
	return 0;
}

void kernel__free(struct kernel *k)
{
	if (!k)
		return;
	free(k->image);
	free(k->config_path);
	free(k->config);
	free(k->modules_dir);
	free(k->release);
	free(k->version);
	free(k->source);
	free(k);
}

void kernel__freep(struct kernel **k)
{
	kernel__free(*k);
}

int kernel__open(const char *image, const char *config_path, const char *modules_dir,
		 struct kernel **ret, char **ret_err)
{
	_cleanup_(kernel__freep) struct kernel *k = xcalloc(1, sizeof(*k));
	_cleanup_free_ char *dir_buf = xstrdup(image);
	const char *dir = dirname(dir_buf);
	char *sp;
	int r;

	k->image = realpath(image, NULL);
	if (!k->image) {
		*ret_err = xasprintf("kernel %s: %s", image, strerror(errno));
		return -ENOENT;
	}
	r = bzimage_version(k->image, &k->version, ret_err);
	if (r < 0)
		return r;
	sp = strchr(k->version, ' ');
	k->release = sp ? strndup(k->version, (size_t)(sp - k->version)) : xstrdup(k->version);
	r = sha256_file(k->image, k->sha256);
	if (r < 0) {
		*ret_err = xasprintf("kernel %s: %s", image, strerror(-r));
		return r;
	}

	/* The config: given, beside the image, or IKCONFIG inside it. */
	if (config_path) {
		k->config_path = xstrdup(config_path);
	} else {
		const char *names[] = { "config", ".config", NULL };

		for (size_t i = 0; names[i] && !k->config_path; i++) {
			char *p = xasprintf("%s/%s", dir, names[i]);

			if (files__is_file(p))
				k->config_path = p;
			else
				free(p);
		}
		if (!k->config_path) {
			char *p = xasprintf("%s/config-%s", dir, k->release);

			if (files__is_file(p))
				k->config_path = p;
			else
				free(p);
		}
	}
	if (k->config_path) {
		r = read_file(k->config_path, 16u << 20, &k->config, NULL);
		if (r < 0) {
			*ret_err = xasprintf("kernel config %s: %s", k->config_path, strerror(-r));
			return r;
		}
	} else if (ikconfig_extract(k->image, &k->config) == 0) {
		k->config_path = xasprintf("%s (IKCONFIG)", k->image);
	} else {
		*ret_err = xasprintf("kernel %s: no config found: looked for config, .config and "
				     "config-%s beside it and for IKCONFIG inside it; pass --config",
				     image, k->release);
		return -ENOENT;
	}
	sha256_buf(k->config, strlen(k->config), k->config_sha256);

	/* Modules: given, or lib/modules/RELEASE beside the image or its parent. */
	if (modules_dir) {
		if (!files__is_dir(modules_dir)) {
			*ret_err = xasprintf("modules directory %s: not a directory", modules_dir);
			return -ENOENT;
		}
		k->modules_dir = realpath(modules_dir, NULL);
	} else {
		const char *ups[] = { "", "/..", NULL };

		for (size_t i = 0; ups[i] && !k->modules_dir; i++) {
			char *p = xasprintf("%s%s/lib/modules/%s", dir, ups[i], k->release);

			if (files__is_dir(p))
				k->modules_dir = realpath(p, NULL);
			free(p);
		}
	}
	k->source = xasprintf("file:%s", k->image);
	*ret = TAKE_PTR(k);
	return 0;
}

/* Run a helper, turning failure into a message with its stderr tail. */
static int run_tool(const char *const argv[], const char *cwd, char **ret_out, char **ret_err)
{
	_cleanup_free_ char *err = NULL, *out = NULL;
	/* Helpers' chatter (apt-get's progress) never reaches our stdout. */
	struct spawn_opts o = { .cwd = cwd, .ret_stdout = ret_out ? ret_out : &out,
				.ret_stderr = &err };
	int r = spawn_run(argv, &o);

	if (r != 0) {
		_cleanup_free_ char *cmd = argv_join(argv);

		*ret_err = xasprintf("'%s' failed (%s %d): %s", cmd, r < 0 ? "error" : "exit",
				     r < 0 ? -r : r, err ? strstrip(err) : "");
		return r < 0 ? r : -EIO;
	}
	return 0;
}

/* The newest cached kernel of the series (prefix "debian-6.1."), for offline use. */
static char *newest_cached(const char *cache_dir, const char *prefix)
{
	DIR *d = opendir(cache_dir);
	struct dirent *e;
	char *best = NULL;

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *marker;

		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		marker = xasprintf("%s/%s/complete", cache_dir, e->d_name);
		if (files__is_file(marker) && (!best || strverscmp(e->d_name, best) > 0)) {
			free(best);
			best = xstrdup(e->d_name);
		}
		free(marker);
	}
	closedir(d);
	return best;
}

/* Debian 12's cloud kernel series: "6.1" through its meta package, the others
 * (bookworm-backports/updates) by the newest unsigned image package's name. */
static const struct {
	const char *series;
	const char *meta;     /* resolved by apt-cache depends, or NULL */
	const char *suffix;   /* linux-image-SERIES.*SUFFIX from apt-cache pkgnames */
} debian_series[] = {
	{ "6.1", "linux-image-cloud-amd64", NULL },
	{ "6.12", NULL, "+deb12-cloud-amd64-unsigned" },
};

bool kernel__debian_series_known(const char *series)
{
	for (size_t i = 0; i < ARRAY_SIZE(debian_series); i++)
		if (!strcmp(debian_series[i].series, series))
			return true;
	return false;
}

/* The newest linux-image-SERIES.*SUFFIX package, without "-unsigned". */
static char *newest_pkg(const char *series, const char *suffix, char **ret_err)
{
	_cleanup_free_ char *prefix = xasprintf("linux-image-%s.", series);
	_cleanup_free_ char *out = NULL;
	const char *argv[] = { "apt-cache", "pkgnames", prefix, NULL };
	char *best = NULL, *line, *save = NULL;
	size_t sl = strlen(suffix);

	if (run_tool(argv, NULL, &out, ret_err) != 0 || !out)
		return NULL;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (n <= sl || strcmp(line + n - sl, suffix))
			continue;
		if (!best || strverscmp(line, best) > 0) {
			free(best);
			best = xstrdup(line);
		}
	}
	if (best)
		best[strlen(best) - strlen("-unsigned")] = '\0';
	return best;
}

const char *kernel__debian_spec_series(const char *spec)
{
	if (!strcmp(spec, "debian"))
		return "6.1";
	if (!strncmp(spec, "debian-", 7) && kernel__debian_series_known(spec + 7))
		return spec + 7;
	return NULL;
}

int kernel__debian_default(const char *cache_dir, char **ret_image, char **ret_err)
{
	return kernel__debian(cache_dir, "6.1", ret_image, ret_err);
}

int kernel__debian(const char *cache_dir, const char *series, char **ret_image, char **ret_err)
{
	const char *meta = NULL, *suffix = NULL;
	_cleanup_free_ char *deps = NULL, *abi_pkg = NULL, *dir = NULL, *tmp = NULL;
	_cleanup_free_ char *err = NULL, *name = NULL, *marker = NULL, *pkg = NULL;
	_cleanup_free_ char *cprefix = xasprintf("debian-%s.", series);
	const char *p, *release;
	size_t si;
	int r = 0;

	for (si = 0; si < ARRAY_SIZE(debian_series); si++)
		if (!strcmp(debian_series[si].series, series))
			break;
	if (si == ARRAY_SIZE(debian_series)) {
		*ret_err = xasprintf("unknown Debian kernel series '%s' (known: 6.1, 6.12)", series);
		return -EINVAL;
	}
	meta = debian_series[si].meta;
	suffix = debian_series[si].suffix;
	r = mkdir_p(cache_dir);
	if (r < 0) {
		*ret_err = xasprintf("kernel cache %s: %s", cache_dir, strerror(-r));
		return r;
	}
	if (meta) {
		const char *argv[] = { "apt-cache", "depends", meta, NULL };

		r = run_tool(argv, NULL, &deps, &err);
		p = deps ? strstr(deps, "Depends: linux-image-") : NULL;
		if (r == 0 && p) {
			p += strlen("Depends: ");
			abi_pkg = strndup(p, strcspn(p, " \n"));
		}
	} else {
		abi_pkg = newest_pkg(series, suffix, &err);
	}
	if (!abi_pkg) {
		/* No apt metadata (offline, no apt-get update): use what is cached. */
		if (!meta)
			meta = "linux-image-6.12.*+deb12-cloud-amd64-unsigned";
		name = newest_cached(cache_dir, cprefix);
		if (!name) {
			*ret_err = xasprintf("cannot resolve %s (%s) and no kernel is cached in %s; "
					     "run 'apt-get update'",
					     meta, err ? err : "no Depends line", cache_dir);
			return -ENOENT;
		}
	} else {
		name = xasprintf("debian-%s", abi_pkg + strlen("linux-image-"));
	}
	dir = xasprintf("%s/%s", cache_dir, name);
	release = name + strlen("debian-");
	marker = xasprintf("%s/complete", dir);
	if (!files__is_file(marker)) {
		_cleanup_free_ char *deb = NULL, *listing = NULL;
		const char *dl[] = { "apt-get", "download", NULL, NULL };
		const char *ls[] = { "ls", NULL };

		log_info("fetching Debian's %s (unsigned) into %s", abi_pkg, dir);
		tmp = xasprintf("%s/.download-%s", cache_dir, release);
		{
			const char *rm[] = { "rm", "-rf", tmp, dir, NULL };

			run_tool(rm, NULL, NULL, ret_err);
		}
		if (mkdir(tmp, 0755) < 0) {
			*ret_err = xasprintf("mkdir %s: %s", tmp, strerror(errno));
			return -errno;
		}
		pkg = xasprintf("%s-unsigned", abi_pkg);
		dl[2] = pkg;
		r = run_tool(dl, tmp, NULL, ret_err);
		if (r < 0)
			return r;
		r = run_tool(ls, tmp, &listing, ret_err);
		if (r < 0)
			return r;
		deb = strndup(listing, strcspn(listing, "\n"));
		{
			const char *x[] = { "dpkg-deb", "-x", deb, "root", NULL };

			r = run_tool(x, tmp, NULL, ret_err);
			if (r < 0)
				return r;
		}
		{
			_cleanup_free_ char *root = xasprintf("%s/root", tmp);
			const char *dm[] = { "depmod", "-b", root, release, NULL };

			r = run_tool(dm, NULL, NULL, ret_err);
			if (r < 0)
				return r;
		}
		{
			_cleanup_free_ char *root = xasprintf("%s/root", tmp);

			if (rename(root, dir) < 0) {
				*ret_err = xasprintf("rename %s -> %s: %s", root, dir, strerror(errno));
				return -errno;
			}
			/* The .deb's identity is the kernel's source identity. */
			char *src = xasprintf("debian:%s", deb);
			_cleanup_free_ char *srcfile = xasprintf("%s/source", dir);
			int fd = open(srcfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0) {
				if (write(fd, src, strlen(src)) < 0)
					log_warn("%s: %s", srcfile, strerror(errno));
				close(fd);
			}
			free(src);
		}
		{
			const char *rm[] = { "rm", "-rf", tmp, NULL };

			run_tool(rm, NULL, NULL, ret_err);
		}
		close(open(marker, O_WRONLY | O_CREAT, 0644));
	}
	*ret_image = xasprintf("%s/boot/vmlinuz-%s", dir, release);
	if (!files__is_file(*ret_image)) {
		*ret_err = xasprintf("%s: missing from the cached package", *ret_image);
		free(*ret_image);
		return -ENOENT;
	}
	return 0;
}
