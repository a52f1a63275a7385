/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compressed kernel modules (.ko.xz, .ko.zst, .ko.gz), as distribution
 * kernels ship them (Debian 6.12: xz). The guest image holds them
 * decompressed, so the agent's finit_module needs no in-kernel decompressor.
 * Decompression uses liblzma, libzstd and zlib.
 */
#ifndef LRUBENCH_MODZ_H
#define LRUBENCH_MODZ_H

#include <stddef.h>

/* Length of path's compression suffix (".xz", ".zst", ".gz") or 0 if none. */
size_t modz_suffix(const char *path);

/*
 * Decompress the module src (format chosen by its suffix) into dst with
 * mode. On failure *ret_err names the module and the reason.
 */
int modz_decompress(const char *src, const char *dst, unsigned mode, char **ret_err);

#endif
