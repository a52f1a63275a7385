// SPDX-License-Identifier: GPL-2.0
/*
 * What sources share: the parsers of the common formats (flat "key value"
 * files, PSI files) as a source's parse, and reading a source's file whole.
 */
#include "source.h"

#include "procfs-parse.h"
#include "util.h"

#include <errno.h>
#include <unistd.h>

struct flat_ctx {
	source_value_fn fn;
	void *arg;
};

static int flat_kv(void *arg, const char *key, size_t key_len, int64_t v)
{
	struct flat_ctx *c = arg;

	c->fn(c->arg, key, key_len, v);
	return 0;
}

unsigned parse_flat_source(const char *buf, size_t len, source_value_fn fn, void *arg)
{
	struct flat_ctx c = {fn, arg};
	unsigned bad = 0;

	procfs_parse_flat(buf, len, flat_kv, &c, &bad);
	return bad;
}

/* Cumulative stall time in us; a file without "some" gives nothing. */
unsigned parse_psi_source(const char *buf, size_t len, source_value_fn fn, void *arg)
{
	struct procfs_psi psi;

	if (procfs_parse_psi(buf, len, &psi) < 0)
		return 0;
	fn(arg, "some.total", 10, psi.some_total);
	if (psi.has_full)
		fn(arg, "full.total", 10, psi.full_total);
	return 0;
}

ssize_t read_source_file(int fd, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (*cap - len < 4096) {
			*cap = *cap ? *cap * 2 : 64 * 1024;
			*buf = xrealloc(*buf, *cap, 1);
		}
		n = pread(fd, *buf + len, *cap - len - 1, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(*buf)[len] = '\0';
	return (ssize_t)len;
}
