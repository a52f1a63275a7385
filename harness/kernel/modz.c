// SPDX-License-Identifier: GPL-2.0
#include "modz.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define MODZ_MAX_IN (256u << 20)
#define MODZ_MAX_OUT (1024ull << 20)

enum modz_kind { MODZ_NONE, MODZ_XZ, MODZ_ZST, MODZ_GZ };

static const struct {
	const char *suffix;
	enum modz_kind kind;
} modz_kinds[] = {
	{ ".xz", MODZ_XZ },
	{ ".zst", MODZ_ZST },
	{ ".gz", MODZ_GZ },
};

static enum modz_kind modz_kind(const char *path, size_t *ret_len)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < ARRAY_SIZE(modz_kinds); i++) {
		size_t s = strlen(modz_kinds[i].suffix);

		if (n > s && !strcmp(path + n - s, modz_kinds[i].suffix)) {
			*ret_len = s;
			return modz_kinds[i].kind;
		}
	}
	*ret_len = 0;
	return MODZ_NONE;
}

size_t modz_suffix(const char *path)
{
	size_t s;

	modz_kind(path, &s);
	return s;
}

/* Grow *out so that at least want more bytes fit after *len. */
static int modz_grow(unsigned char **out, size_t *cap, size_t len, size_t want)
{
	if (len + want <= *cap)
		return 0;
	if (*cap >= MODZ_MAX_OUT)
		return -EFBIG;
	*cap = *cap ? *cap * 2 : 1u << 20;
	*out = xrealloc(*out, *cap, 1);
	return 0;
}

static int modz_xz(const unsigned char *in, size_t n, unsigned char **out, size_t *len,
		   const char **why)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = 0;
	lzma_ret lr = lzma_stream_decoder(&s, UINT64_MAX, 0);

	if (lr != LZMA_OK) {
		*why = "lzma_stream_decoder failed";
		return -ENOMEM;
	}
	s.next_in = in;
	s.avail_in = n;
	for (;;) {
		if (modz_grow(out, &cap, *len, 1 << 16) < 0) {
			lzma_end(&s);
			*why = "decompressed size over 1 GiB";
			return -EFBIG;
		}
		s.next_out = *out + *len;
		s.avail_out = cap - *len;
		lr = lzma_code(&s, LZMA_FINISH);
		*len = cap - s.avail_out;
		if (lr == LZMA_STREAM_END)
			break;
		if (lr != LZMA_OK) {
			lzma_end(&s);
			*why = lr == LZMA_FORMAT_ERROR ? "not xz data" :
			       lr == LZMA_DATA_ERROR	? "corrupt xz data" :
			       lr == LZMA_BUF_ERROR	? "truncated xz data" :
							  "xz decoder error";
			return -EBADMSG;
		}
	}
	lzma_end(&s);
	return 0;
}

static int modz_zst(const unsigned char *in, size_t n, unsigned char **out, size_t *len,
		    const char **why)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t cap = 0, ret = 1;

	if (!d) {
		*why = "ZSTD_createDStream failed";
		return -ENOMEM;
	}
	while (ret != 0) {
		ZSTD_outBuffer ob;

		if (modz_grow(out, &cap, *len, 1 << 16) < 0) {
			ZSTD_freeDStream(d);
			*why = "decompressed size over 1 GiB";
			return -EFBIG;
		}
		ob = (ZSTD_outBuffer){ *out, cap, *len };
		ret = ZSTD_decompressStream(d, &ob, &ib);
		*len = ob.pos;
		if (ZSTD_isError(ret)) {
			*why = ZSTD_getErrorName(ret);
			ZSTD_freeDStream(d);
			return -EBADMSG;
		}
		if (ret != 0 && ib.pos == ib.size && ob.pos < ob.size) {
			ZSTD_freeDStream(d);
			*why = "truncated zstd data";
			return -EBADMSG;
		}
	}
	ZSTD_freeDStream(d);
	return 0;
}

static int modz_gz(const unsigned char *in, size_t n, unsigned char **out, size_t *len,
		   const char **why)
{
	z_stream z = { 0 };
	size_t cap = 0;
	int zr;

	/* 16 + MAX_WBITS: a gzip header, not a raw zlib one. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		*why = "inflateInit2 failed";
		return -ENOMEM;
	}
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	for (;;) {
		if (modz_grow(out, &cap, *len, 1 << 16) < 0) {
			inflateEnd(&z);
			*why = "decompressed size over 1 GiB";
			return -EFBIG;
		}
		z.next_out = *out + *len;
		z.avail_out = (uInt)(cap - *len);
		zr = inflate(&z, Z_NO_FLUSH);
		*len = cap - z.avail_out;
		if (zr == Z_STREAM_END)
			break;
		if (zr != Z_OK || (z.avail_in == 0 && z.avail_out > 0)) {
			*why = zr == Z_DATA_ERROR ? "corrupt or not gzip data" :
			       zr == Z_OK || zr == Z_BUF_ERROR ? "truncated gzip data" :
								  "zlib error";
			inflateEnd(&z);
			return -EBADMSG;
		}
	}
	inflateEnd(&z);
	return 0;
}

int modz_decompress(const char *src, const char *dst, unsigned mode, char **ret_err)
{
	_cleanup_free_ char *in = NULL;
	_cleanup_free_ unsigned char *out = NULL;
	const char *why = NULL;
	size_t n = 0, len = 0, s;
	enum modz_kind kind = modz_kind(src, &s);
	int r, fd;

	if (kind == MODZ_NONE) {
		*ret_err = xasprintf("module %s: not a compressed module (.xz, .zst, .gz)", src);
		return -EINVAL;
	}
	r = read_file(src, MODZ_MAX_IN, &in, &n);
	if (r < 0) {
		*ret_err = xasprintf("module %s: %s", src, strerror(-r));
		return r;
	}
	r = kind == MODZ_XZ  ? modz_xz((unsigned char *)in, n, &out, &len, &why) :
	    kind == MODZ_ZST ? modz_zst((unsigned char *)in, n, &out, &len, &why) :
			       modz_gz((unsigned char *)in, n, &out, &len, &why);
	if (r < 0) {
		*ret_err = xasprintf("module %s: cannot decompress: %s", src, why);
		return r;
	}
	if (len < 4 || memcmp(out, "\177ELF", 4)) {
		*ret_err = xasprintf("module %s: decompressed data is not an ELF object", src);
		return -ENOEXEC;
	}
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0) {
		r = -errno;
		*ret_err = xasprintf("module %s: open %s: %s", src, dst, strerror(errno));
		return r;
	}
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, out + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			*ret_err = xasprintf("module %s: write %s: %s", src, dst, strerror(errno));
			close(fd);
			return r;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		r = -errno;
		*ret_err = xasprintf("module %s: close %s: %s", src, dst, strerror(errno));
		return r;
	}
	return 0;
}
