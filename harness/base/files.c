// SPDX-License-Identifier: GPL-2.0
/* Files and trees on the host: what a path is, which program, write, copy, remove (files.h). */
#include "files.h"
#include "spawn.h"
#include "util.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

bool files__is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool files__is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *files__which(const char *name)
{
	const char *env = getenv("PATH");
	_cleanup_free_ char *path = xstrdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	char *save = NULL;

	for (char *dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", dir, name);

		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

int files__write(const char *path, const void *buf, size_t len, mode_t mode)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	int r;

	if (fd < 0)
		return -errno;
	r = write_all(fd, buf, len);
	if (r < 0)
		return r;
	return close(TAKE_FD(fd)) < 0 ? -errno : 0;
}

int files__copy(const char *from, const char *to, mode_t mode)
{
	_cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	char buf[65536];
	ssize_t n;
	int r;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0)
		return -errno;
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r = write_all(out, buf, (size_t)n);
		if (r < 0)
			return r;
	}
	if (n < 0)
		return -errno;
	return close(TAKE_FD(out)) < 0 ? -errno : 0;
}

int files__rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", "--", path, NULL };

	return spawn_run(argv, NULL) == 0 ? 0 : -EIO;
}
