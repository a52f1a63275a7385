// SPDX-License-Identifier: GPL-2.0
#include "disks.h"
#include "files.h"
#include "kernel.h"
#include "spawn.h"
#include "util.h"
#include "workload.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

void ldd_libs_free(struct ldd_lib *libs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(libs[i].name);
		free(libs[i].path);
	}
	free(libs);
}

static void lib_add(struct ldd_lib **libs, size_t *n, const char *name, size_t name_len,
		    const char *path, size_t path_len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*libs)[i].name) == name_len && !memcmp((*libs)[i].name, name, name_len))
			return;
	*libs = xrealloc(*libs, *n + 1, sizeof(**libs));
	(*libs)[*n].name = strndup(name, name_len);
	(*libs)[*n].path = strndup(path, path_len);
	if (!(*libs)[*n].name || !(*libs)[*n].path)
		abort();
	(*n)++;
}

/*
 * Lines of ldd(1):
 *	linux-vdso.so.1 (0x...)				the vDSO: no file
 *	libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)
 *	/lib64/ld-linux-x86-64.so.2 (0x...)		the loader
 *	libfoo.so.1 => not found
 */
int ldd_parse(const char *text, struct ldd_lib **ret, size_t *ret_n, char **ret_err)
{
	struct ldd_lib *libs = NULL;
	size_t n = 0;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *end = line + len, *s = line, *arrow;

		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		arrow = memmem(s, (size_t)(end - s), " => ", 4);
		if (arrow) {
			const char *path = arrow + 4;
			size_t plen = strcspn(path, " \n");

			if (plen > (size_t)(end - path))
				plen = (size_t)(end - path);
			if (!strncmp(path, "not found", 9)) {
				*ret_err = xasprintf("ldd: %.*s not found", (int)(arrow - s), s);
				ldd_libs_free(libs, n);
				return -ENOENT;
			}
			if (*path == '/')
				lib_add(&libs, &n, s, (size_t)(arrow - s), path, plen);
		} else if (*s == '/') {
			size_t plen = strcspn(s, " \n");
			const char *base = s + plen;

			while (base > s && base[-1] != '/')
				base--;
			lib_add(&libs, &n, base, (size_t)(s + plen - base), s, plen);
		}
		line = *end ? end + 1 : end;
	}
	*ret = libs;
	*ret_n = n;
	return 0;
}

void tools_image__free(struct tools_image *t)
{
	if (!t)
		return;
	free(t->path);
	free(t);
}

void tools_image__freep(struct tools_image **t)
{
	tools_image__free(*t);
}

/* One file of the image: host source, path in the image. */
struct tool_file {
	char *src, *dst;
};

static void files_add(struct tool_file **f, size_t *n, const char *src, const char *dst)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*f)[i].dst, dst))
			return;
	*f = xrealloc(*f, *n + 1, sizeof(**f));
	(*f)[*n].src = xstrdup(src);
	(*f)[*n].dst = xstrdup(dst);
	(*n)++;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tool_file *)a)->dst, ((const struct tool_file *)b)->dst);
}

/* The host's dynamic loader, for static tools too (the guest's wl-tool.h runs each through it). */
#define TOOLS_LOADER "/lib64/ld-linux-x86-64.so.2"

/* Whether ldd's failure says the program is static (glibc's ldd: stdout; others: stderr). */
static bool ldd_static(const char *out, const char *err)
{
	return (out && strstr(out, "not a dynamic executable")) ||
	       (err && strstr(err, "not a dynamic executable"));
}

/* Every program the workloads name, with what ldd says it loads. */
static int tools_collect(const struct workload_def *const *defs, size_t ndefs,
			 struct tool_file **ret, size_t *ret_n, char **ret_err)
{
	struct tool_file *f = NULL;
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < ndefs && r == 0; i++) {
		for (const char *const *t = defs[i]->tools; t && *t && r == 0; t++) {
			_cleanup_free_ char *bin = files__which(*t), *out = NULL, *err = NULL;
			_cleanup_free_ char *dst = NULL;
			const char *argv[] = { "ldd", bin, NULL };
			struct spawn_opts o = { .ret_stdout = &out, .ret_stderr = &err };
			struct ldd_lib *libs = NULL;
			size_t nlibs = 0;
			int status;

			if (!bin) {
				*ret_err = xasprintf("%s (for workload %s) is not in PATH: "
						     "install it (scripts/install-deps.sh)",
						     *t, defs[i]->name);
				r = -ENOENT;
				break;
			}
			dst = xasprintf("bin/%s", *t);
			files_add(&f, &n, bin, dst);
			status = spawn_run(argv, &o);
			if (status != 0 && ldd_static(out, err)) {
				/* A static program loads no library; the guest runs every tool
				 * through the loader (wl-tool.h), which runs it as well. */
				files_add(&f, &n, TOOLS_LOADER, "lib/ld-linux-x86-64.so.2");
				continue;
			}
			if (status != 0) {
				*ret_err = xasprintf("ldd %s failed: %s", bin, err ? err : "");
				r = -EIO;
				break;
			}
			r = ldd_parse(out, &libs, &nlibs, ret_err);
			for (size_t j = 0; j < nlibs; j++) {
				_cleanup_free_ char *d = xasprintf("lib/%s", libs[j].name);

				files_add(&f, &n, libs[j].path, d);
			}
			ldd_libs_free(libs, nlibs);
		}
	}
	if (r < 0) {
		for (size_t i = 0; i < n; i++) {
			free(f[i].src);
			free(f[i].dst);
		}
		free(f);
		return r;
	}
	if (n)
		qsort(f, n, sizeof(*f), file_cmp);
	*ret = f;
	*ret_n = n;
	return 0;
}

/* Stage the files in dir and make an ext4 image of them at out. */
static int image_build(const struct tool_file *f, size_t n, const char *stage, const char *out,
		       char **ret_err)
{
	uint64_t total = 0;
	int r;

	files__rm_rf(stage);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *dst = xasprintf("%s/%s", stage, f[i].dst);
		char *slash = strrchr(dst, '/');
		struct stat st;

		*slash = '\0';
		r = mkdir_p(dst);
		*slash = '/';
		if (r == 0)
			r = files__copy(f[i].src, dst, 0755);
		if (r == 0 && stat(dst, &st) < 0)
			r = -errno;
		if (r < 0) {
			*ret_err = xasprintf("copy %s -> %s: %s", f[i].src, dst, strerror(-r));
			return r;
		}
		total += ((uint64_t)st.st_size + 4095) / 4096 * 4096;
	}
	{
		/* Room for the metadata: an eighth more and 8 MiB, in KiB. */
		_cleanup_free_ char *size = xasprintf("%lluk",
			(unsigned long long)((total + total / 8 + (8u << 20)) >> 10));
		_cleanup_free_ char *err = NULL;
		const char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "lrubench-tools",
				       "-O", "^has_journal", "-m", "0", "-N", "1024",
				       "-E", "root_owner=0:0", "-d", stage, out, size, NULL };
		_cleanup_free_ char *mkfs_out = NULL;
		struct spawn_opts o = { .ret_stdout = &mkfs_out, .ret_stderr = &err };

		r = spawn_run(argv, &o);
		if (r != 0) {
			*ret_err = xasprintf("mkfs.ext4 -d %s %s failed (%d): %s", stage, out, r,
					     err ? err : "");
			return -EIO;
		}
	}
	files__rm_rf(stage);
	return 0;
}

int tools_image__get(const char *cache_dir, const struct workload_def *const *defs, size_t ndefs,
		     struct tools_image **ret, char **ret_err)
{
	_cleanup_(tools_image__freep) struct tools_image *t = xcalloc(1, sizeof(*t));
	_cleanup_free_ char *hashes = NULL, *stage = NULL, *tmp = NULL;
	struct tool_file *f = NULL;
	size_t n = 0, hlen = 0;
	int r;

	r = tools_collect(defs, ndefs, &f, &n, ret_err);
	if (r < 0)
		return r;
	/* Cache key: every file's place in the image and content hash. */
	for (size_t i = 0; i < n && r == 0; i++) {
		char h[65];

		r = sha256_file(f[i].src, h);
		if (r < 0) {
			*ret_err = xasprintf("%s: %s", f[i].src, strerror(-r));
			break;
		}
		hashes = xrealloc(hashes, hlen + strlen(f[i].dst) + 80, 1);
		hlen += (size_t)sprintf(hashes + hlen, "%s %s\n", f[i].dst, h);
	}
	if (r == 0) {
		sha256_buf(hashes ? hashes : "", hlen, t->hash);
		t->nfiles = n;
		mkdir_p(cache_dir);
		t->path = xasprintf("%s/tools-%.16s.ext4", cache_dir, t->hash);
		if (access(t->path, R_OK) < 0) {
			log_info("building tools disk %s (%zu files)", t->path, n);
			stage = xasprintf("%s/stage-tools-%.16s", cache_dir, t->hash);
			tmp = xasprintf("%s.tmp", t->path);
			unlink(tmp);
			r = image_build(f, n, stage, tmp, ret_err);
			if (r == 0 && rename(tmp, t->path) < 0) {
				r = -errno;
				*ret_err = xasprintf("rename %s: %s", tmp, strerror(errno));
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(f[i].src);
		free(f[i].dst);
	}
	free(f);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(t);
	return 0;
}

int scratch_disk__create(const char *path, uint64_t bytes, char **ret_err)
{
	_cleanup_free_ char *size = xasprintf("%lluk", (unsigned long long)(bytes >> 10));
	_cleanup_free_ char *err = NULL;
	/*
	 * Inode tables and the journal are written here, on the host, not
	 * lazily by the guest's ext4lazyinit thread in the middle of a
	 * measurement; one inode per MiB keeps them small.
	 */
	const char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "lrubench-scratch", "-i", "1048576",
			       "-m", "0", "-E", "lazy_itable_init=0,lazy_journal_init=0,nodiscard",
			       path, size, NULL };
	_cleanup_free_ char *out = NULL;
	struct spawn_opts o = { .ret_stdout = &out, .ret_stderr = &err };
	_cleanup_close_ int fd = -1;
	int r;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)bytes) < 0) {
		r = -errno;
		*ret_err = xasprintf("%s: %s", path, strerror(errno));
		return r;
	}
	r = spawn_run(argv, &o);
	if (r != 0) {
		*ret_err = xasprintf("mkfs.ext4 %s failed (%d): %s", path, r, err ? err : "");
		unlink(path);
		return -EIO;
	}
	return 0;
}
