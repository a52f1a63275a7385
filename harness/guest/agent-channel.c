// SPDX-License-Identifier: GPL-2.0
/*
 * The stream to the host: a virtio-serial port found by name, and a line
 * buffer that a sample fills and one write() sends. Records other than
 * samples (hello, conf, event, result, bye) are mirrored on the console, the
 * run's log, and sent at once.
 */
#include "agent.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#define PORTS_DIR "/sys/class/virtio-ports"

struct channel {
	int fd;		/* -1: no port (yet) */
	char *buf;
	size_t len, cap;
	bool holding;	/* no port yet: flush moves records to held */
	char *held;
	size_t held_len;
	bool failed;	/* a write failed: said once on the console */
};

struct channel *channel_new(void)
{
	struct channel *ch = xcalloc(1, sizeof(*ch));

	ch->fd = -1;
	ch->cap = 64 * 1024;
	ch->buf = xcalloc(1, ch->cap);
	ch->holding = true;
	return ch;
}

/* The /dev node of the port whose name is port_name, or -ENOENT. */
static int find_port(const char *port_name, char *ret_dev, size_t size)
{
	_cleanup_(closedirp) DIR *d = opendir(PORTS_DIR);
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL, *name = NULL;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf(PORTS_DIR "/%s/name", de->d_name);
		if (read_file(path, 256, &name, NULL) < 0)
			continue;
		if (strcmp(strstrip(name), port_name))
			continue;
		snprintf(ret_dev, size, "/dev/%s", de->d_name);
		return 0;
	}
	return -ENOENT;
}

int channel_open_port(struct channel *ch, const char *port_name, int timeout_ms)
{
	int64_t deadline = now_mono_ns() + (int64_t)timeout_ms * 1000000;
	char dev[300];

	/* The port's name arrives from the host by a control message after
	 * virtio_console probes, and its node appears in devtmpfs: poll. */
	for (;;) {
		int r = find_port(port_name, dev, sizeof(dev));
		if (r == 0) {
			int fd = open(dev, O_WRONLY | O_CLOEXEC | O_NOCTTY);

			if (fd >= 0) {
				log_info("channel: %s is %s", port_name, dev);
				ch->fd = fd;
				ch->holding = false;
				return 0;
			}
			r = -errno;
		}
		if (now_mono_ns() > deadline)
			return r;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000000 }, NULL);
	}
}

void channel_give_up(struct channel *ch)
{
	ch->holding = false;
	free(ch->held);
	ch->held = NULL;
	ch->held_len = 0;
}

void channel_free(struct channel *ch)
{
	if (!ch)
		return;
	if (ch->fd >= 0)
		close(ch->fd);
	free(ch->held);
	free(ch->buf);
	free(ch);
}

static void reserve(struct channel *ch, size_t n)
{
	if (ch->len + n <= ch->cap)
		return;
	while (ch->len + n > ch->cap)
		ch->cap *= 2;
	ch->buf = xrealloc(ch->buf, ch->cap, 1);
}

void channel_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* Format a line at the buffer's end; returns its start (NUL-terminated,
 * without the '\n', which is added) so callers can mirror it. */
static char *append_vline(struct channel *ch, const char *fmt, va_list ap)
{
	char *line;
	int n;

	reserve(ch, LINE_MAX_BYTES + 1);
	line = ch->buf + ch->len;
	n = vsnprintf(line, LINE_MAX_BYTES, fmt, ap);
	if (n < 0)
		n = 0;
	if (n > LINE_MAX_BYTES - 1)
		n = LINE_MAX_BYTES - 1;
	line[n] = '\0';
	channel_sanitize(line);
	line[n] = '\n';
	ch->len += (size_t)n + 1;
	line[n + 1] = '\0'; /* room was reserved; not part of the stream */
	return line;
}

void channel_printf(struct channel *ch, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append_vline(ch, fmt, ap);
	va_end(ap);
}

static char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

bool channel_value(struct channel *ch, const char *source, const char *scope, const char *key,
		   size_t key_len, int64_t value)
{
	size_t ls = strlen(source), lc = strlen(scope);
	char digits[24], *p;
	size_t nd = 0;
	uint64_t u = value < 0 ? -(uint64_t)value : (uint64_t)value;

	if (2 + ls + 1 + lc + 1 + key_len + 1 + 21 + 1 > LINE_MAX_BYTES)
		return false; /* never send a cut value */
	do {
		digits[nd++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (value < 0)
		digits[nd++] = '-';
	reserve(ch, LINE_MAX_BYTES);
	p = ch->buf + ch->len;
	p = put_str(p, "v ", 2);
	p = put_str(p, source, ls);
	*p++ = ' ';
	p = put_str(p, scope, lc);
	*p++ = ' ';
	p = put_str(p, key, key_len);
	*p++ = ' ';
	while (nd)
		*p++ = digits[--nd];
	*p++ = '\n';
	ch->len = (size_t)(p - ch->buf);
	return true;
}

int channel_flush(struct channel *ch)
{
	int r = 0;

	if (ch->holding) {
		ch->held = xrealloc(ch->held, ch->held_len + ch->len, 1);
		memcpy(ch->held + ch->held_len, ch->buf, ch->len);
		ch->held_len += ch->len;
		ch->len = 0;
		return 0;
	}
	if (ch->fd >= 0 && ch->len)
		r = write_all(ch->fd, ch->buf, ch->len);
	ch->len = 0;
	if (r == 0 && ch->fd >= 0 && ch->held) {
		r = write_all(ch->fd, ch->held, ch->held_len);
		channel_give_up(ch);
	}
	if (r < 0 && !ch->failed) {
		ch->failed = true;
		log_err("channel: write failed: %s", strerror(-r));
	}
	return r;
}

int channel_write_raw(struct channel *ch, const void *buf, size_t len)
{
	int r = channel_flush(ch);

	if (r < 0 || ch->fd < 0)
		return r;
	return write_all(ch->fd, buf, len);
}

static void record_v(struct channel *ch, const char *fmt, va_list ap)
{
	char *line = append_vline(ch, fmt, ap);

	/* The console is the run's log: every record but samples shows there. */
	fprintf(stderr, "lrubench-agent: > %s", line);
	channel_flush(ch);
}

void channel_record(struct channel *ch, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record_v(ch, fmt, ap);
	va_end(ap);
}

void channel_event(struct channel *ch, const char *kind, const char *fmt, ...)
{
	_cleanup_free_ char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		abort();
	va_end(ap);
	channel_record(ch, "event %" PRId64 " %s %s", now_mono_ns(), kind, text);
}
