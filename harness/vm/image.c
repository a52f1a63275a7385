// SPDX-License-Identifier: GPL-2.0
#include "image.h"
#include "files.h"
#include "kernel.h"
#include "modz.h"
#include "spawn.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/* Modules the agent may need, by the option that makes them modular. */
static const struct {
	const char *option;
	const char *module;
} wanted_modules[] = {
	{ "VIRTIO_PCI", "virtio_pci" },
	{ "VIRTIO_CONSOLE", "virtio_console" },
	{ "VIRTIO_BLK", "virtio_blk" },
	{ "ZRAM", "zram" },
};

/* "kernel/crypto/lzo-rle.ko" -> "lzo_rle": module names treat - and _ alike. */
static void module_name(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t i = 0;

	base = base ? base + 1 : path;
	for (; base[i] && i + 1 < len && strncmp(base + i, ".ko", 3); i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[i] = '\0';
}

struct moddep {
	char *path;
	char **deps;
	size_t ndeps;
};

static void add_path(char ***paths, size_t *n, const char *p)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*paths)[i], p))
			return;
	*paths = xrealloc(*paths, *n + 1, sizeof(char *));
	(*paths)[(*n)++] = xstrdup(p);
}

/* Depth-first: dependencies land before the module itself. */
static int resolve_one(const struct moddep *md, size_t nmd, const char *path, char ***paths,
		       size_t *n, int depth)
{
	if (depth > 64)
		return -ELOOP;
	for (size_t i = 0; i < nmd; i++) {
		if (strcmp(md[i].path, path))
			continue;
		/* modules.dep lists the full closure; load from the last (deepest) first. */
		for (size_t j = md[i].ndeps; j-- > 0;) {
			int r = resolve_one(md, nmd, md[i].deps[j], paths, n, depth + 1);

			if (r < 0)
				return r;
		}
		add_path(paths, n, path);
		return 0;
	}
	add_path(paths, n, path);
	return 0;
}

int modules_resolve(const char *modules_dep, const char *const names[], char ***ret_paths,
		    size_t *ret_n)
{
	_cleanup_free_ char *text = xstrdup(modules_dep);
	struct moddep *md = NULL;
	size_t nmd = 0, n = 0;
	char **paths = NULL;
	char *save = NULL;
	int r = 0;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *tok, *s2 = NULL;

		if (!colon)
			continue;
		*colon = '\0';
		md = xrealloc(md, nmd + 1, sizeof(*md));
		md[nmd] = (struct moddep){ .path = line };
		for (tok = strtok_r(colon + 1, " ", &s2); tok; tok = strtok_r(NULL, " ", &s2)) {
			md[nmd].deps = xrealloc(md[nmd].deps, md[nmd].ndeps + 1, sizeof(char *));
			md[nmd].deps[md[nmd].ndeps++] = tok;
		}
		nmd++;
	}
	for (size_t k = 0; names[k] && r == 0; k++) {
		char want[64];

		module_name(names[k], want, sizeof(want));
		for (size_t i = 0; i < nmd; i++) {
			char have[64];

			module_name(md[i].path, have, sizeof(have));
			if (!strcmp(have, want)) {
				r = resolve_one(md, nmd, md[i].path, &paths, &n, 0);
				break;
			}
		}
	}
	for (size_t i = 0; i < nmd; i++)
		free(md[i].deps);
	free(md);
	if (r < 0) {
		for (size_t i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		return r;
	}
	*ret_paths = paths;
	*ret_n = n;
	return 0;
}

void guest_image__free(struct guest_image *img)
{
	if (!img)
		return;
	free(img->base);
	for (size_t i = 0; i < img->nmodules; i++)
		free(img->modules[i]);
	free(img->modules);
	free(img);
}

void guest_image__freep(struct guest_image **img)
{
	guest_image__free(*img);
}

/* The files of the image: (source path, guest path, mode), sorted by guest path. */
struct entry {
	char *src, *dst;
	mode_t mode;
};

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->dst, ((const struct entry *)b)->dst);
}

/* cpio -o -H newc from dir, file list on stdin, archive to out. */
static int cpio_create(const char *dir, const char *list, const char *out, char **ret_err)
{
	const char *argv[] = { "cpio", "--quiet", "-o", "-H", "newc", "-R", "0:0", NULL };
	_cleanup_free_ char *err = NULL;
	struct spawn_opts o = {
		.cwd = dir,
		.stdin_buf = list,
		.stdin_len = strlen(list),
		.stdout_path = out,
		.ret_stderr = &err,
	};
	int r = spawn_run(argv, &o);

	if (r != 0) {
		*ret_err = xasprintf("cpio in %s failed (%d): %s", dir, r, err ? err : "");
		return -EIO;
	}
	return 0;
}

int guest_image__get(const struct kernel *k, const char *zram_comp, const char *bin_dir,
		     const char *cache_dir, struct guest_image **ret, char **ret_err)
{
	_cleanup_(guest_image__freep) struct guest_image *img = xcalloc(1, sizeof(*img));
	struct entry *e = NULL;
	size_t ne = 0;
	_cleanup_free_ char *hashes = NULL, *stage = NULL, *list = NULL, *tmp_out = NULL;
	size_t hlen = 0;
	DIR *d;
	struct dirent *de;
	int r = 0;

	/* Binaries: the agent is /init, workloads go to /bin. */
	d = opendir(bin_dir);
	if (!d) {
		*ret_err = xasprintf("guest binaries %s: %s (run make)", bin_dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		e = xrealloc(e, ne + 1, sizeof(*e));
		e[ne].src = xasprintf("%s/%s", bin_dir, de->d_name);
		e[ne].dst = !strcmp(de->d_name, "lrubench-agent") ? xstrdup("init")
								    : xasprintf("bin/%s", de->d_name);
		e[ne].mode = 0755;
		ne++;
	}
	closedir(d);

	/* Modules that this kernel has as modules, and what they depend on. */
	if (k->modules_dir) {
		_cleanup_free_ char *dep_path = xasprintf("%s/modules.dep", k->modules_dir);
		_cleanup_free_ char *dep = NULL;
		const char *names[ARRAY_SIZE(wanted_modules) + 3] = { 0 };
		char comp[32];
		size_t nn = 0;
		char **paths = NULL;
		size_t np = 0;

		r = read_file(dep_path, 64u << 20, &dep, NULL);
		if (r < 0) {
			*ret_err = xasprintf("%s: %s (run depmod)", dep_path, strerror(-r));
			goto out;
		}
		/*
		 * zram's compressors are found by name at run time (crypto modules
		 * named for them before 6.12; built into zram since): the kernel's
		 * default and the plan's, first. Names modules.dep lacks are built in.
		 */
		if (kernel__config(k, "ZRAM_DEF_COMP", comp, sizeof(comp)))
			names[nn++] = comp;
		if (zram_comp)
			names[nn++] = zram_comp;
		for (size_t i = 0; i < ARRAY_SIZE(wanted_modules); i++) {
			char v[8];

			if (kernel__config(k, wanted_modules[i].option, v, sizeof(v)) &&
			    !strcmp(v, "m"))
				names[nn++] = wanted_modules[i].module;
		}
		r = modules_resolve(dep, names, &paths, &np);
		if (r < 0) {
			*ret_err = xasprintf("%s: dependency loop", dep_path);
			goto out;
		}
		for (size_t i = 0; i < np; i++) {
			/* Compressed modules go in decompressed: "zram.ko.xz" -> "zram.ko". */
			int plain = (int)(strlen(paths[i]) - modz_suffix(paths[i]));

			e = xrealloc(e, ne + 1, sizeof(*e));
			e[ne].src = xasprintf("%s/%s", k->modules_dir, paths[i]);
			e[ne].dst = xasprintf("lib/modules/%.*s", plain, paths[i]);
			e[ne].mode = 0644;
			ne++;
			img->modules = xrealloc(img->modules, img->nmodules + 1, sizeof(char *));
			img->modules[img->nmodules++] =
				xasprintf("/lib/modules/%.*s", plain, paths[i]);
			free(paths[i]);
		}
		free(paths);
	}
	qsort(e, ne, sizeof(*e), entry_cmp);

	/* Cache key: every file's guest path and content hash. */
	for (size_t i = 0; i < ne; i++) {
		char h[65];

		r = sha256_file(e[i].src, h);
		if (r < 0) {
			*ret_err = xasprintf("%s: %s", e[i].src, strerror(-r));
			goto out;
		}
		hashes = xrealloc(hashes, hlen + strlen(e[i].dst) + 80, 1);
		hlen += (size_t)sprintf(hashes + hlen, "%s %s %o\n", e[i].dst, h, e[i].mode);
	}
	sha256_buf(hashes ? hashes : "", hlen, img->hash);
	mkdir_p(cache_dir);
	img->base = xasprintf("%s/initramfs-%.16s.cpio", cache_dir, img->hash);
	if (access(img->base, R_OK) == 0)
		goto done;

	log_info("building guest image %s (%zu files, %zu modules)", img->base, ne, img->nmodules);
	stage = xasprintf("%s/stage-%.16s", cache_dir, img->hash);
	{
		const char *rm[] = { "rm", "-rf", stage, NULL };

		spawn_run(rm, NULL);
	}
	for (size_t i = 0; i < ne; i++) {
		_cleanup_free_ char *dst = xasprintf("%s/%s", stage, e[i].dst);
		char *slash = strrchr(dst, '/');

		*slash = '\0';
		r = mkdir_p(dst);
		*slash = '/';
		if (r == 0 && modz_suffix(e[i].src)) {
			/* The cache key holds the compressed file's hash: same content, same image. */
			r = modz_decompress(e[i].src, dst, e[i].mode, ret_err);
			if (r < 0)
				goto out;
		} else if (r == 0) {
			r = files__copy(e[i].src, dst, e[i].mode);
		}
		if (r < 0) {
			*ret_err = xasprintf("copy %s -> %s: %s", e[i].src, dst, strerror(-r));
			goto out;
		}
	}
	{
		/* Mount points the agent uses, then the archive list from find(1). */
		const char *dirs[] = { "dev", "proc", "sys", "tmp", "mnt", "lrubench", NULL };
		const char *find[] = { "find", ".", NULL };
		struct spawn_opts fo = { .cwd = stage, .ret_stdout = &list };

		for (size_t i = 0; dirs[i]; i++) {
			_cleanup_free_ char *p = xasprintf("%s/%s", stage, dirs[i]);

			mkdir_p(p);
		}
		if (spawn_run(find, &fo) != 0) {
			r = -EIO;
			*ret_err = xasprintf("find in %s failed", stage);
			goto out;
		}
	}
	tmp_out = xasprintf("%s.tmp", img->base);
	r = cpio_create(stage, list, tmp_out, ret_err);
	if (r < 0)
		goto out;
	if (rename(tmp_out, img->base) < 0) {
		r = -errno;
		*ret_err = xasprintf("rename %s: %s", tmp_out, strerror(errno));
		goto out;
	}
	{
		const char *rm[] = { "rm", "-rf", stage, NULL };

		spawn_run(rm, NULL);
	}
done:
	*ret = TAKE_PTR(img);
	r = 0;
out:
	for (size_t i = 0; i < ne; i++) {
		free(e[i].src);
		free(e[i].dst);
	}
	free(e);
	return r;
}

int guest_image__run_initrd(const struct guest_image *img, const char *run_conf,
			    const char *out_path, char **ret_err)
{
	_cleanup_free_ char *dir = xasprintf("%s.d", out_path);
	_cleanup_free_ char *conf_dir = xasprintf("%s/lrubench", dir);
	_cleanup_free_ char *conf = xasprintf("%s/run.conf", conf_dir);
	_cleanup_free_ char *tail = xasprintf("%s.conf.cpio", out_path);
	const char *list = "lrubench\nlrubench/run.conf\n";
	char buf[65536];
	ssize_t n;
	int r;

	r = mkdir_p(conf_dir);
	if (r == 0) {
		_cleanup_close_ int fd = open(conf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || write(fd, run_conf, strlen(run_conf)) != (ssize_t)strlen(run_conf))
			r = -EIO;
	}
	if (r < 0) {
		*ret_err = xasprintf("%s: %s", conf, strerror(-r));
		return r;
	}
	r = cpio_create(dir, list, tail, ret_err);
	if (r < 0)
		return r;
	r = files__copy(img->base, out_path, 0644);
	if (r == 0) {
		_cleanup_close_ int in = open(tail, O_RDONLY | O_CLOEXEC);
		_cleanup_close_ int out = open(out_path, O_WRONLY | O_APPEND | O_CLOEXEC);

		if (in < 0 || out < 0)
			r = -errno;
		while (r == 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				r = -EIO;
	}
	unlink(tail);
	{
		const char *rm[] = { "rm", "-rf", dir, NULL };

		spawn_run(rm, NULL);
	}
	if (r < 0) {
		*ret_err = xasprintf("%s: %s", out_path, strerror(-r));
		return r;
	}
	return 0;
}
