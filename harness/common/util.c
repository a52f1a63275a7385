// SPDX-License-Identifier: GPL-2.0
#include "util.h"

#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *log_prefix = "lrubench";
static enum log_level log_level = LOG_INFO;

void log_set_prefix(const char *prefix)
{
	log_prefix = prefix;
}

void log_set_level(enum log_level level)
{
	log_level = level;
}

enum log_level log_get_level(void)
{
	return log_level;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	va_list ap;

	if (level > log_level)
		return;
	fprintf(stderr, "%s: ", log_prefix);
	if (level <= LOG_WARN)
		fprintf(stderr, "%s: ", names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

char *xstrdup(const char *s)
{
	char *r = strdup(s);

	if (!r)
		abort();
	return r;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		abort();
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	void *r;

	if (size && n > SIZE_MAX / size)
		abort();
	r = realloc(p, n * size != 0 ? n * size : 1);
	if (!r)
		abort();
	return r;
}

/*
 * The decimal digits at *s into *ret, *s moved past them: one digit at least,
 * no sign, no blanks, no leading zero but for "0" itself (a C reader takes
 * "010" for octal 8). -EINVAL on none or a leading zero, -ERANGE past UINT64_MAX.
 */
static int parse_digits(const char **s, uint64_t *ret)
{
	const char *p = *s;
	uint64_t acc = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	if (p[0] == '0' && isdigit((unsigned char)p[1]))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (acc > (UINT64_MAX - d) / 10)
			return -ERANGE;
		acc = acc * 10 + d;
	}
	*s = p;
	*ret = acc;
	return 0;
}

int parse_i64(const char *s, int64_t *ret)
{
	bool neg;
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	neg = *s == '-';
	s += neg;
	r = parse_digits(&s, &v);
	if (r < 0)
		return r;
	if (*s || (neg && v == 0))
		return -EINVAL;
	if (v > (uint64_t)INT64_MAX + neg)
		return -ERANGE;
	*ret = !neg ? (int64_t)v : v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	return 0;
}

int parse_u64(const char *s, uint64_t *ret)
{
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(&s, &v);
	if (r < 0)
		return r;
	if (*s)
		return -EINVAL;
	*ret = v;
	return 0;
}

int parse_u64_c(const char *s, uint64_t *ret)
{
	uint64_t acc = 0;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return parse_u64(s, ret);
	s += 2;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
		if (acc >> 60)
			return -ERANGE;
		acc = acc << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
								      : tolower((unsigned char)*s) - 'a' + 10);
	}
	*ret = acc;
	return 0;
}

int parse_double(const char *s, double *ret)
{
	const char *p = s;
	char *end;
	double v;

	/* Decimal only: strtod alone would take hex floats, "inf", "nan" and blanks. */
	if (!s)
		return -EINVAL;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p) && !strchr(".eE+-", *p))
			return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_size(const char *s, uint64_t *ret)
{
	const char *end = s;
	uint64_t v;
	unsigned shift = 0;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(&end, &v);
	if (r < 0)
		return r;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	case 'B':
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		end++;
		if (*end == 'i')
			end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
	} else if (toupper((unsigned char)*end) == 'B') {
		end++;
	}
	if (*end)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*ret = v << shift;
	return 0;
}

int parse_duration_ms(const char *s, uint64_t *ret)
{
	const char *end = s;
	uint64_t v, mult;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(&end, &v);
	if (r < 0)
		return r;
	if (!strcmp(end, "ms"))
		mult = 1;
	else if (!strcmp(end, "s") || !*end)
		mult = 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60000;
	else
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*ret = v * mult;
	return 0;
}

/* Read all of fd (read_file's contract). */
static int read_fd(int fd, size_t limit, char **ret_buf, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 4096;

	buf = xcalloc(1, cap + 1);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			if (cap >= limit)
				return -EFBIG;
			cap = cap * 2 > limit ? limit : cap * 2;
			buf = xrealloc(buf, cap + 1, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (ret_len)
		*ret_len = len;
	*ret_buf = TAKE_PTR(buf);
	return 0;
}

int read_file(const char *path, size_t limit, char **ret_buf, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return read_fd(fd, limit, ret_buf, ret_len);
}

int read_regular_file(const char *path, size_t limit, char **ret_buf, size_t *ret_len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	/* Before open: opening a FIFO for reading blocks until a writer comes. */
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	/* The path may have been replaced since: O_NONBLOCK, and the opened file checked. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return read_fd(fd, limit, ret_buf, ret_len);
}

const char *path_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return "missing";
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	default:
		return "not a regular file";
	}
}

unsigned text_nul_line(const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len);
	unsigned line = 1;

	if (!nul)
		return 0;
	for (const char *c = buf; c < nul; c++)
		line += *c == '\n';
	return line;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file(const char *path, const char *s)
{
	_cleanup_close_ int fd = -1;
	int r;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write_all(fd, s, strlen(s));
	if (r < 0)
		return r;
	if (close(TAKE_FD(fd)) < 0)
		return -errno;
	return 0;
}

int mkdir_p(const char *path)
{
	_cleanup_free_ char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t now_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t now_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

char *strstrip(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The length of the valid UTF-8 sequence of 2 to 4 bytes at s, or 0 (no overlongs, surrogates). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	/* U+0080..U+009F are C1 controls: a terminal acts on them too. */
	if (s[0] == 0xc2 && s[1] <= 0x9f)
		return 0;
	return n;
}

char *str_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xcalloc(4 * strlen(s) + 1, 1), *o = out;

	while (*p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 0;

		if (n) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else if (*p == '\t') {
			o = stpcpy(o, "\\t");
			p++;
		} else if (*p == '\n') {
			o = stpcpy(o, "\\n");
			p++;
		} else if (*p < 0x20 || *p >= 0x7f) {
			o += sprintf(o, "\\x%02x", *p++);
		} else {
			*o++ = (char)*p++;
		}
	}
	*o = '\0';
	return out;
}
