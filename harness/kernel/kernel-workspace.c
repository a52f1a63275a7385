// SPDX-License-Identifier: GPL-2.0
/*
 * The build tree of a kernel series, kept between builds (see
 * kernel-workspace.h). make decides what to recompile by file times, so the
 * one rule that keeps an incremental build right is: a file of src/ whose
 * content changes gets a time later than every object built before, and a
 * file whose content does not change keeps its time. The sync below writes
 * every changed file anew (never in place: src/ shares inodes with the
 * pristine trees through hard links) and leaves every other file alone.
 */
#include "kernel-workspace.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#define BUSY_MARK ".lrubench-busy"
#define CMP_CHUNK (64u << 10)

struct sync {
	bool link_new; /* a fresh tree: new files are hard links, everything compiles anyway */
	unsigned same, written, removed;
	char *err;
};

static int sync_fail(struct sync *s, int rc, const char *what, const char *path)
{
	if (!s->err)
		s->err = xasprintf("workspace: %s %s: %s", what, path, strerror(-rc));
	return rc;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int rm_tree(const char *path)
{
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT ? -errno : 0;
}

/* 1 when the two files (of the same size) hold the same bytes, 0 when not, -errno. */
static int same_bytes(const char *a, const char *b)
{
	_cleanup_close_ int fa = open(a, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int fb = open(b, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *ba = NULL, *bb = NULL;

	if (fa < 0 || fb < 0)
		return -errno;
	ba = xcalloc(1, CMP_CHUNK);
	bb = xcalloc(1, CMP_CHUNK);
	for (;;) {
		ssize_t na = read(fa, ba, CMP_CHUNK), nb;

		if (na < 0)
			return -errno;
		for (ssize_t got = 0; got < na; got += nb) {
			nb = read(fb, bb + got, (size_t)(na - got));
			if (nb < 0)
				return -errno;
			if (nb == 0)
				return 0;
		}
		if (na == 0)
			return read(fb, bb, 1) == 0;
		if (memcmp(ba, bb, (size_t)na))
			return 0;
	}
}

/* to := a new file with from's bytes and permissions (written beside, renamed over). */
static int write_anew(const char *from, const char *to, mode_t mode)
{
	_cleanup_free_ char *tmp = xasprintf("%s.lrubench-new", to), *buf = NULL;
	size_t len = 0;
	int rc = read_file(from, SIZE_MAX / 2, &buf, &len);
	int fd;

	if (rc < 0)
		return rc;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 07777);
	if (fd < 0)
		return -errno;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			close(fd);
			unlink(tmp);
			return rc;
		}
		off += (size_t)n;
	}
	/* open() applied the umask */
	if (fchmod(fd, mode & 07777) < 0 || close(fd) < 0 || rename(tmp, to) < 0) {
		rc = -errno;
		unlink(tmp);
		return rc;
	}
	return 0;
}

static int sync_file(struct sync *s, const char *from, const char *to, const struct stat *fs,
		     int have, const struct stat *ts)
{
	int rc;

	if (have == 0 && S_ISREG(ts->st_mode)) {
		if (ts->st_dev == fs->st_dev && ts->st_ino == fs->st_ino) {
			s->same++;
			return 0;
		}
		/*
		 * Only the execute bits matter to a build (make runs scripts).
		 * git archive writes 0664 where Debian's tarball has 0644: a
		 * bisection's first commit must not rewrite every file for that.
		 */
		if (ts->st_size == fs->st_size && (ts->st_mode & 0111) == (fs->st_mode & 0111)) {
			rc = same_bytes(from, to);
			if (rc < 0)
				return sync_fail(s, rc, "comparing", to);
			if (rc == 1) {
				s->same++;
				return 0;
			}
		}
	}
	if (have == 0 && S_ISDIR(ts->st_mode)) {
		rc = rm_tree(to);
		if (rc < 0)
			return sync_fail(s, rc, "removing", to);
		have = -1;
	}
	if (have < 0 && s->link_new && link(from, to) == 0) {
		s->written++;
		return 0;
	}
	rc = write_anew(from, to, fs->st_mode);
	if (rc < 0)
		return sync_fail(s, rc, "writing", to);
	s->written++;
	return 0;
}

static int sync_link(struct sync *s, const char *from, const char *to, int have,
		     const struct stat *ts)
{
	char want[PATH_MAX], got[PATH_MAX];
	ssize_t nw = readlink(from, want, sizeof(want) - 1), ng = -1;

	if (nw < 0)
		return sync_fail(s, -errno, "reading the link", from);
	want[nw] = '\0';
	if (have == 0 && S_ISLNK(ts->st_mode)) {
		ng = readlink(to, got, sizeof(got) - 1);
		if (ng == nw && !memcmp(want, got, (size_t)nw)) {
			s->same++;
			return 0;
		}
	}
	if (have == 0) {
		int rc = rm_tree(to);

		if (rc < 0)
			return sync_fail(s, rc, "removing", to);
	}
	if (symlink(want, to) < 0)
		return sync_fail(s, -errno, "linking", to);
	s->written++;
	return 0;
}

static int sync_dir(struct sync *s, const char *from, const char *to);

static int sync_entry(struct sync *s, const char *from, const char *to)
{
	struct stat fs, ts;
	int have;

	if (lstat(from, &fs) < 0)
		return sync_fail(s, -errno, "reading", from);
	have = lstat(to, &ts) == 0 ? 0 : -1;
	if (have < 0 && errno != ENOENT)
		return sync_fail(s, -errno, "reading", to);
	if (S_ISDIR(fs.st_mode)) {
		if (have == 0 && !S_ISDIR(ts.st_mode)) {
			if (unlink(to) < 0)
				return sync_fail(s, -errno, "removing", to);
			have = -1;
		}
		if (have < 0 && mkdir(to, fs.st_mode & 07777) < 0)
			return sync_fail(s, -errno, "creating", to);
		return sync_dir(s, from, to);
	}
	if (S_ISREG(fs.st_mode))
		return sync_file(s, from, to, &fs, have, &ts);
	if (S_ISLNK(fs.st_mode))
		return sync_link(s, from, to, have, &ts);
	return 0; /* sockets, fifos, devices: a source tree has none, and none is copied */
}

/* to := from: entries of from synced one by one, then what from lacks removed from to. */
static int sync_dir(struct sync *s, const char *from, const char *to)
{
	DIR *d = opendir(from);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return sync_fail(s, -errno, "reading", from);
	while (rc == 0 && (e = readdir(d))) {
		_cleanup_free_ char *f = NULL, *t = NULL;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		f = xasprintf("%s/%s", from, e->d_name);
		t = xasprintf("%s/%s", to, e->d_name);
		rc = sync_entry(s, f, t);
	}
	closedir(d);
	if (rc < 0)
		return rc;
	d = opendir(to);
	if (!d)
		return sync_fail(s, -errno, "reading", to);
	while (rc == 0 && (e = readdir(d))) {
		_cleanup_free_ char *f = NULL, *t = NULL;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		f = xasprintf("%s/%s", from, e->d_name);
		if (lstat(f, &st) == 0 || errno != ENOENT)
			continue;
		t = xasprintf("%s/%s", to, e->d_name);
		rc = rm_tree(t);
		if (rc < 0)
			rc = sync_fail(s, rc, "removing", t);
		s->removed++;
	}
	closedir(d);
	return rc;
}

/* obj/.config := config, unless it already holds those bytes (its time then stays). */
static int put_config(struct kws *w, const char *config)
{
	_cleanup_free_ char *dst = xasprintf("%s/.config", w->obj);
	struct stat a, b;

	if (stat(config, &a) == 0 && stat(dst, &b) == 0 && a.st_size == b.st_size &&
	    same_bytes(config, dst) == 1)
		return 0;
	return write_anew(config, dst, 0644);
}

char *kws_series(const char *version)
{
	const char *dot = strchr(version, '.');
	size_t n;

	if (!dot)
		return xstrdup("unknown");
	n = (size_t)(dot - version) + 1 + strspn(dot + 1, "0123456789");
	return strndup(version, n);
}

int kws__prepare(const char *cache, const char *series, const char *tree, const char *config,
		 bool fresh, struct kws **ret, char **ret_err)
{
	_cleanup_(kws__freep) struct kws *w = xcalloc(1, sizeof(*w));
	_cleanup_free_ char *busy = NULL;
	struct sync s = { 0 };
	struct stat st;
	int rc;

	w->dir = xasprintf("%s/ws-%s", cache, series);
	w->src = xasprintf("%s/src", w->dir);
	w->obj = xasprintf("%s/obj", w->dir);
	busy = xasprintf("%s/" BUSY_MARK, w->dir);
	/* A build that never finished left it busy: its objects may be half written. */
	if (fresh || stat(busy, &st) == 0 || stat(w->src, &st) < 0 || stat(w->obj, &st) < 0) {
		rc = rm_tree(w->dir);
		if (rc < 0) {
			*ret_err = xasprintf("workspace %s: removing it: %s", w->dir, strerror(-rc));
			return rc;
		}
		w->fresh = true;
	}
	rc = mkdir_p(w->obj);
	if (rc == 0) {
		int fd = open(busy, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0)
			rc = -errno;
		else
			close(fd);
	}
	if (rc < 0) {
		*ret_err = xasprintf("workspace %s: %s", w->dir, strerror(-rc));
		return rc;
	}
	if (w->fresh && mkdir(w->src, 0755) < 0) {
		rc = -errno;
		*ret_err = xasprintf("workspace %s: %s", w->src, strerror(-rc));
		return rc;
	}
	s.link_new = w->fresh;
	rc = sync_dir(&s, tree, w->src);
	if (rc == 0) {
		rc = put_config(w, config);
		if (rc < 0)
			s.err = xasprintf("workspace: %s/.config: %s", w->obj, strerror(-rc));
	}
	if (rc < 0) {
		*ret_err = s.err ? s.err : xasprintf("workspace %s: %s", w->dir, strerror(-rc));
		return rc;
	}
	free(s.err);
	w->same = s.same;
	w->written = s.written;
	w->removed = s.removed;
	*ret = TAKE_PTR(w);
	return 0;
}

void kws__done(struct kws *w, int status)
{
	_cleanup_free_ char *busy = xasprintf("%s/" BUSY_MARK, w->dir);

	if (status >= 0 && status < 128)
		unlink(busy);
}

void kws__free(struct kws *w)
{
	if (!w)
		return;
	free(w->dir);
	free(w->src);
	free(w->obj);
	free(w);
}

void kws__freep(struct kws **w)
{
	kws__free(*w);
}
