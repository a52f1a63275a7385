/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the host program and the guest agent: ownership
 * (cleanup attributes), logging, number and size parsing, whole-file reads.
 *
 * Conventions: functions return 0 or -errno; ret_ out-parameters are written
 * only on success; logging happens where a decision is made, not here.
 */
#ifndef LRUBENCH_UTIL_H
#define LRUBENCH_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Ownership helpers in the style of systemd: the variable is freed when it
 * leaves scope unless TAKE_PTR() moved it out. */
static inline void freep(void *p)
{
	free(*(void **)p);
}
static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		__typeof__(p) _p = (p);                                                            \
		(p) = NULL;                                                                        \
		_p;                                                                                \
	})
#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int _fd = (fd);                                                                    \
		(fd) = -1;                                                                         \
		_fd;                                                                               \
	})

/* Logging goes to stderr with a program prefix; results go to stdout. */
enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };
void log_set_prefix(const char *prefix);
void log_set_level(enum log_level level);
enum log_level log_get_level(void);
void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

/* asprintf that aborts on allocation failure: for small strings only. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xstrdup(const char *s);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);

/*
 * Numbers are base 10 only: digits (a '-' first for parse_i64), no '+', no
 * blanks, no "0x", and no leading zero but for "0" itself ("010" would be 8
 * to a C reader). -EINVAL on anything else, -ERANGE on overflow.
 */
int parse_i64(const char *s, int64_t *ret);
int parse_u64(const char *s, uint64_t *ret);
/* A number as the kernel prints it: base 10, or 0x hexadecimal (lru_gen/enabled's 0x0007). */
int parse_u64_c(const char *s, uint64_t *ret);
/* A decimal real ("0.25", "1e-3"): no hex floats, inf, nan or blanks; -EINVAL, -ERANGE. */
int parse_double(const char *s, double *ret);
/* Parse a size with an optional K/M/G/T suffix (powers of 1024, optional "i"/"B"). */
int parse_size(const char *s, uint64_t *ret);
/* Parse a duration: plain number is in the given default unit; suffixes ms, s, m. */
int parse_duration_ms(const char *s, uint64_t *ret);

/* Read a whole (small) file into a NUL-terminated buffer; max bytes read is limit. */
int read_file(const char *path, size_t limit, char **ret_buf, size_t *ret_len);
/*
 * read_file for a file a user names (a plan, a recipe): -EINVAL unless it is
 * a regular file, checked before open (a FIFO would block it) and after.
 */
int read_regular_file(const char *path, size_t limit, char **ret_buf, size_t *ret_len);
/* What path is, for messages: "a FIFO", "a directory", "a regular file", "missing"... */
const char *path_kind(const char *path);
/* The line (from 1) of the first NUL byte in buf[0..len), or 0 if none: text has none. */
unsigned text_nul_line(const char *buf, size_t len);
/* Write all of buf to fd, through short writes and EINTR: 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);
/* Write a string to an existing file (open, write all, close): sysfs, cgroup files. */
int write_file(const char *path, const char *s);

/* mkdir -p: every missing directory on the way, mode 0755. */
int mkdir_p(const char *path);

/* Monotonic and wall-clock time in ns. */
int64_t now_mono_ns(void);
int64_t now_real_ns(void);

/*
 * s with control characters and bytes that are not valid UTF-8 escaped
 * (\x01, \t), for messages that echo a file's text (malloc'd).
 */
char *str_escape(const char *s);

/* Trim leading/trailing whitespace in place; returns s. */
char *strstrip(char *s);

#endif
