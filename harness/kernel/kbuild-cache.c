// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel cache (kbuild-priv.h, kernel-build.h): the keys that name a
 * build (inputs before the config is resolved, then source, patches, .config
 * and compiler), the build directories CACHE/build-KEY/ and their manifests,
 * the index from inputs to builds (CACHE/kbuild-index/), and the lock that
 * keeps to one build per cache.
 */
#include "kbuild-priv.h"
#include "files.h"
#include "kernel.h"
#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>

const char *const kbuild_prov_keys[] = {
	"recipe",     "recipe_sha256", "source_id", "source_version", "patches",
	"fragments", "compiler",      "build_key", "git_url",	     "git_branch", NULL,
};

/* Everything that determines the resolved config and the build, hashed. */
void kb__prekey(struct kb *b)
{
	_cleanup_free_ char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	fprintf(f, "%s\narch %s\nsource %s\ncompiler %s\n", INPUTS_VERSION, ARCH, b->source_id,
		b->compiler);
	for (size_t i = 0; i < b->r->npatches; i++)
		fprintf(f, "patch %s\n", b->patch_sha[i]);
	/* Contents, not names: a moved recipe is the same recipe. */
	fprintf(f, "base %s\n", b->r->base == KBUILD_BASE_FILE ? b->base_sha : b->base_desc);
	for (size_t i = 0; i < b->r->nfragments; i++)
		fprintf(f, "fragment %s\n", b->frag_sha[i]);
	fclose(f);
	sha256_buf(doc, len, b->prekey);
}

char *kb__build_key(const struct kb *b, const char *config)
{
	_cleanup_free_ char *doc = NULL;
	size_t len = 0;
	char csha[65], *key = xcalloc(1, 65);
	FILE *f = open_memstream(&doc, &len);

	sha256_buf(config, strlen(config), csha);
	fprintf(f, "%s\narch %s\nsource %s\n", INPUTS_VERSION, ARCH, b->source_id);
	for (size_t i = 0; i < b->r->npatches; i++)
		fprintf(f, "patch %s\n", b->patch_sha[i]);
	fprintf(f, "config %s\ncompiler %s\n", csha, b->compiler);
	fclose(f);
	sha256_buf(doc, len, key);
	return key;
}

static char *index_path(const struct kb *b)
{
	return xasprintf("%s/kbuild-index/%s", b->cache, b->prekey);
}

static void kv_set(struct kbuild *k, const char *key, const char *value)
{
	for (size_t i = 0; i < k->nmanifest; i++) {
		if (!strcmp(k->manifest[i].key, key)) {
			free(k->manifest[i].value);
			k->manifest[i].value = xstrdup(value);
			return;
		}
	}
	k->manifest = xrealloc(k->manifest, k->nmanifest + 1, sizeof(*k->manifest));
	k->manifest[k->nmanifest++] = (struct kbuild_kv){ xstrdup(key), xstrdup(value) };
}

const char *kbuild__get(const struct kbuild *k, const char *key)
{
	for (size_t i = 0; i < k->nmanifest; i++)
		if (!strcmp(k->manifest[i].key, key))
			return k->manifest[i].value;
	return NULL;
}

void kbuild__free(struct kbuild *k)
{
	if (!k)
		return;
	free(k->dir);
	free(k->image);
	free(k->config);
	free(k->key);
	for (size_t i = 0; i < k->nmanifest; i++) {
		free(k->manifest[i].key);
		free(k->manifest[i].value);
	}
	free(k->manifest);
	free(k);
}

void kbuild__freep(struct kbuild **k)
{
	kbuild__free(*k);
}

int kbuild__open(const char *dir, struct kbuild **ret, char **ret_err)
{
	_cleanup_(kbuild__freep) struct kbuild *k = xcalloc(1, sizeof(*k));
	_cleanup_free_ char *mpath = xasprintf("%s/manifest", dir), *text = NULL;
	const char *key;
	int r;

	r = read_file(mpath, 1u << 20, &text, NULL);
	if (r < 0) {
		*ret_err = xasprintf("%s: not a kernel build directory (%s: %s)", dir, mpath,
				     strerror(-r));
		return r;
	}
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char *eq, *line;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line = strstrip(p);
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		kv_set(k, strstrip(line), strstrip(eq + 1));
	}
	key = kbuild__get(k, "build_key");
	k->dir = realpath(dir, NULL);
	if (!key || !k->dir) {
		*ret_err = xasprintf("%s: manifest without build_key", dir);
		return -EINVAL;
	}
	k->key = xstrdup(key);
	k->image = xasprintf("%s/bzImage", k->dir);
	k->config = xasprintf("%s/config", k->dir);
	if (!files__is_file(k->image)) {
		*ret_err = xasprintf("%s: no bzImage", dir);
		return -ENOENT;
	}
	k->cached = true;
	*ret = TAKE_PTR(k);
	return 0;
}

/* The recipe's own fields win over those of whichever recipe built it first. */
void kb__manifest_recipe(struct kbuild *k, const struct kbuild_recipe *r)
{
	_cleanup_free_ char *real = realpath(r->path, NULL);
	char sha[65];

	sha256_buf(r->text, strlen(r->text), sha);
	kv_set(k, "recipe", r->name);
	kv_set(k, "recipe_path", real ? real : r->path);
	kv_set(k, "recipe_sha256", sha);
	kv_set(k, "description", r->description ? r->description : "");
}

int kb__write_manifest(struct kb *b, const char *dir, const char *key, const char *config,
			  const char *release, double seconds)
{
	_cleanup_free_ char *path = xasprintf("%s/manifest", dir), *text = NULL;
	_cleanup_free_ char *version = kb__source_version(b->src),
			    *real = realpath(b->r->path, NULL);
	_cleanup_free_ char *img = xasprintf("%s/bzImage", dir);
	char csha[65], rsha[65], isha[65], stamp[32];
	time_t now = time(NULL);
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	sha256_buf(config, strlen(config), csha);
	sha256_buf(b->r->text, strlen(b->r->text), rsha);
	if (sha256_file(img, isha) < 0)
		strcpy(isha, "?");
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# lrubench kernel build: what went in, what came out (hashes are sha256)\n");
	fprintf(f, "build_key = %s\n", key);
	fprintf(f, "recipe = %s\n", b->r->name);
	fprintf(f, "recipe_path = %s\n", real ? real : b->r->path);
	fprintf(f, "recipe_sha256 = %s\n", rsha);
	fprintf(f, "description = %s\n", b->r->description ? b->r->description : "");
	fprintf(f, "source = %s\n", b->source_desc);
	fprintf(f, "source_id = %s\n", b->source_id);
	if (b->git_url)
		fprintf(f, "git_url = %s\n", b->git_url);
	if (b->git_branch)
		fprintf(f, "git_branch = %s\n", b->git_branch);
	fprintf(f, "source_version = %s\n", version);
	fprintf(f, "patches = %s\n", b->patches_desc);
	fprintf(f, "base = %s\n", b->base_desc);
	fprintf(f, "fragments = %s\n", b->fragments_desc);
	fprintf(f, "config_sha256 = %s\n", csha);
	fprintf(f, "compiler = %s\n", b->compiler);
	fprintf(f, "ccache = %s\n", b->ccache ? "yes" : "no");
	fprintf(f, "workspace = %s\n", b->ws_desc ? b->ws_desc : "none");
	fprintf(f, "release = %s\n", release);
	fprintf(f, "bzimage_sha256 = %s\n", isha);
	fprintf(f, "build_seconds = %.0f\n", seconds);
	fprintf(f, "compiled_files = %u\n", b->compiled);
	fprintf(f, "built_at = %s\n", stamp);
	fprintf(f, "lrubench_version = %s\n", LRUBENCH_VERSION);
	fclose(f);
	return files__write(path, text, len, 0644);
}

/* One build at a time per cache; say so when waiting. */
int kb__lock(struct kb *b, int *ret_fd)
{
	_cleanup_free_ char *path = xasprintf("%s/kbuild.lock", b->cache);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return kb__fail(b, -errno, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		kb__say(b, KBUILD_STAGE_INFO, "waiting for another kernel build (%s)", path);
		if (flock(fd, LOCK_EX) < 0) {
			int rc = -errno;

			close(fd);
			return kb__fail(b, rc, "%s: %s", path, strerror(-rc));
		}
	}
	*ret_fd = fd;
	return 0;
}

/* The build the index maps these inputs to, if it is still there. */
int kb__lookup(struct kb *b, struct kbuild **ret)
{
	_cleanup_free_ char *idx = index_path(b), *key = NULL, *dir = NULL, *err = NULL;
	struct kbuild *k = NULL;

	if (read_file(idx, 256, &key, NULL) < 0)
		return -ENOENT;
	dir = xasprintf("%s/build-%s", b->cache, strstrip(key));
	if (kbuild__open(dir, &k, &err) < 0)
		return -ENOENT;
	kb__manifest_recipe(k, b->r);
	*ret = k;
	return 0;
}

void kb__index_write(struct kb *b, const char *key)
{
	_cleanup_free_ char *dir = xasprintf("%s/kbuild-index", b->cache);
	_cleanup_free_ char *idx = index_path(b);
	_cleanup_free_ char *tmp = xasprintf("%s.%d", idx, (int)getpid());
	_cleanup_free_ char *line = xasprintf("%s\n", key);

	mkdir_p(dir);
	if (files__write(tmp, line, strlen(line), 0644) == 0)
		rename(tmp, idx);
	unlink(tmp);
}
