// SPDX-License-Identifier: GPL-2.0
/*
 * Incremental parser of the guest's stream (PROTOCOL.md section 2).
 *
 * Bytes are copied into one line buffer of STREAM_LINE_MAX bytes; a line that
 * does not fit is dropped byte by byte until its newline (only its first bytes
 * are kept, for the reject callback). A complete line is checked (no NUL, only
 * printable ASCII), split in place at single spaces and dispatched on its
 * first field through a table of record types.
 */
#include "stream.h"

#include "util.h"

#include <locale.h>
#include <math.h>
#include <string.h>

struct stream {
	const struct stream_ops *ops;
	void *ctx;
	locale_t c_locale;
	int err;

	char line[STREAM_LINE_MAX]; /* content (at most STREAM_LINE_MAX - 1) + NUL */
	size_t len;
	bool skipping; /* the current line is too long: drop until newline */
	uint64_t lineno; /* lines seen, accepted or not */

	bool in_sample;
	int64_t seq; /* of the open sample */
	uint64_t received; /* v and g lines accepted in the open sample */
	bool have_last_seq;
	int64_t last_seq; /* of the last sample that began */

	struct stream_stats stats;
};

static const char *const reject_names[STREAM_REJ__MAX] = {
	[STREAM_REJ_TOO_LONG] = "line too long",
	[STREAM_REJ_NUL] = "NUL byte",
	[STREAM_REJ_BYTE] = "byte not printable ASCII",
	[STREAM_REJ_TYPE] = "unknown record type",
	[STREAM_REJ_FIELDS] = "wrong field count or empty field",
	[STREAM_REJ_NAME] = "invalid name",
	[STREAM_REJ_INTEGER] = "invalid integer",
	[STREAM_REJ_NUMBER] = "invalid result value or direction",
	[STREAM_REJ_OUTSIDE] = "record outside a sample",
	[STREAM_REJ_END_SEQ] = "end SEQ is not the open sample's",
	[STREAM_REJ_SEQ_ORDER] = "sample SEQ does not grow",
	[STREAM_REJ_TRUNCATED] = "truncated last line",
	[STREAM_REJ_SAMPLE_OPEN] = "sample began while one was open",
};

const char *stream_reject_name(enum stream_reject why)
{
	if ((unsigned)why >= STREAM_REJ__MAX)
		return "unknown reason";
	return reject_names[why];
}

bool stream_name_valid(const char *s)
{
	static const char extra[] = "._:/+-";
	const char *p;

	if (!*s)
		return false;
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			continue;
		if (!strchr(extra, c))
			return false;
	}
	return true;
}

int stream_parse_i64(const char *s, int64_t *ret)
{
	const char *p = s;
	bool neg = false;
	uint64_t acc = 0, limit;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!*p)
		return -EINVAL;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *p; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		d = (unsigned)(*p - '0');
		if (acc > (limit - d) / 10)
			return -ERANGE;
		acc = acc * 10 + d;
	}
	if (!neg)
		*ret = (int64_t)acc;
	else if (acc == (uint64_t)INT64_MAX + 1)
		*ret = INT64_MIN;
	else
		*ret = -(int64_t)acc;
	return 0;
}

/* A finite decimal: -?D+(.D+)?([eE][-+]?D+)? parsed in the C locale. */
static int parse_decimal(const struct stream *s, const char *str, double *ret)
{
	const char *p = str;
	char *end;
	double v;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -EINVAL;
	v = strtod_l(str, &end, s->c_locale);
	if (*end || !isfinite(v))
		return -ERANGE;
	*ret = v;
	return 0;
}

/*
 * Split p at single spaces into at most nf fields. With rest, the last field
 * is the remainder of the line (spaces kept, possibly empty). Returns the
 * number of fields, nf + 1 if there are more.
 */
static int split(char *p, char **f, int nf, bool rest)
{
	int n = 0;

	for (;;) {
		char *sp;

		if (n == nf)
			return nf + 1;
		if (rest && n == nf - 1) {
			f[n++] = p;
			return n;
		}
		f[n++] = p;
		sp = strchr(p, ' ');
		if (!sp)
			return n;
		*sp = '\0';
		p = sp + 1;
	}
}

/* Checks shared by the record handlers: each returns a reject reason or -1. */
static int check_names(char **f, int from, int to)
{
	for (int i = from; i < to; i++)
		if (!stream_name_valid(f[i]))
			return STREAM_REJ_NAME;
	return -1;
}

static int check_int(const char *str, bool nonneg, int64_t *ret)
{
	int64_t v;

	if (stream_parse_i64(str, &v) < 0 || (nonneg && v < 0))
		return STREAM_REJ_INTEGER;
	*ret = v;
	return -1;
}

static int nonempty(char **f, int n)
{
	for (int i = 0; i < n; i++)
		if (!*f[i])
			return STREAM_REJ_FIELDS;
	return -1;
}

/*
 * A record handler gets the line after its type and returns a reject reason
 * (>= 0) or -1 when the line was accepted; a callback's error is kept in
 * s->err (see CALL) and stops stream__feed().
 */
typedef int (*record_fn)(struct stream *s, char *rest);

#define CALL(s, name, ...)                                                                         \
	do {                                                                                       \
		if ((s)->ops->name) {                                                              \
			int _r = (s)->ops->name((s)->ctx, __VA_ARGS__);                            \
			if (_r < 0)                                                                \
				(s)->err = _r;                                                     \
		}                                                                                  \
	} while (0)

static int rec_hello(struct stream *s, char *rest)
{
	struct stream_hello h;
	char *f[4] = { 0 };
	int r;

	if (split(rest, f, 4, false) != 4 || (r = nonempty(f, 4)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_int(f[0], true, &h.proto)) >= 0)
		return r;
	if ((r = check_names(f, 1, 4)) >= 0)
		return r;
	for (int i = 1; i < 4; i++)
		if (strlen(f[i]) > STREAM_HELLO_FIELD_MAX)
			return STREAM_REJ_NAME;
	h.agent_version = f[1];
	h.kernel_release = f[2];
	h.run = f[3];
	CALL(s, hello, &h);
	return -1;
}

static int rec_conf(struct stream *s, char *rest)
{
	char *f[2] = { 0 };

	if (split(rest, f, 2, true) != 2)
		return STREAM_REJ_FIELDS;
	if (!stream_name_valid(f[0]))
		return *f[0] ? STREAM_REJ_NAME : STREAM_REJ_FIELDS;
	CALL(s, conf, f[0], f[1]);
	return -1;
}

static int rec_event(struct stream *s, char *rest)
{
	char *f[3] = { 0 };
	int64_t t;
	int n, r;

	n = split(rest, f, 3, true);
	if (n < 2 || (r = nonempty(f, 2)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_int(f[0], true, &t)) >= 0)
		return r;
	if (!stream_name_valid(f[1]))
		return STREAM_REJ_NAME;
	CALL(s, event, t, f[1], n == 3 ? f[2] : "");
	return -1;
}

static int close_sample(struct stream *s, bool ended, int64_t count)
{
	int64_t seq = s->seq;
	uint64_t received = s->received;

	s->in_sample = false;
	s->received = 0;
	CALL(s, sample_end, seq, ended, count, received);
	return s->err;
}

static void note(struct stream *s, enum stream_reject why);

static int rec_sample(struct stream *s, char *rest)
{
	char *f[2] = { 0 };
	int64_t seq, t;
	int r;

	if (split(rest, f, 2, false) != 2 || (r = nonempty(f, 2)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_int(f[0], true, &seq)) >= 0 || (r = check_int(f[1], true, &t)) >= 0)
		return r;
	if (s->have_last_seq && seq <= s->last_seq)
		return STREAM_REJ_SEQ_ORDER;
	if (s->in_sample) {
		note(s, STREAM_REJ_SAMPLE_OPEN);
		if (close_sample(s, false, -1) < 0)
			return -1;
	}
	s->in_sample = true;
	s->seq = seq;
	s->received = 0;
	s->have_last_seq = true;
	s->last_seq = seq;
	CALL(s, sample_begin, seq, t);
	return -1;
}

static int rec_value(struct stream *s, char *rest)
{
	char *f[4] = { 0 };
	int64_t v;
	int r;

	if (split(rest, f, 4, false) != 4 || (r = nonempty(f, 4)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_names(f, 0, 3)) >= 0 || (r = check_int(f[3], false, &v)) >= 0)
		return r;
	if (!s->in_sample)
		return STREAM_REJ_OUTSIDE;
	s->received++;
	CALL(s, value, f[0], f[1], f[2], v);
	return -1;
}

static int rec_gen(struct stream *s, char *rest)
{
	struct stream_gen g;
	char *f[7] = { 0 };
	int r;

	if (split(rest, f, 7, true) != 7 || (r = nonempty(f, 7)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_int(f[0], true, &g.memcg_id)) >= 0 ||
	    (r = check_int(f[1], true, &g.node)) >= 0 || (r = check_int(f[2], true, &g.gen)) >= 0 ||
	    (r = check_int(f[3], false, &g.age_ms)) >= 0 ||
	    (r = check_int(f[4], false, &g.anon)) >= 0 ||
	    (r = check_int(f[5], false, &g.file)) >= 0)
		return r;
	g.memcg_path = f[6];
	if (!s->in_sample)
		return STREAM_REJ_OUTSIDE;
	s->received++;
	CALL(s, gen, &g);
	return -1;
}

static int rec_end(struct stream *s, char *rest)
{
	char *f[2] = { 0 };
	int64_t seq, count;
	int r;

	if (split(rest, f, 2, false) != 2 || (r = nonempty(f, 2)) >= 0)
		return STREAM_REJ_FIELDS;
	if ((r = check_int(f[0], true, &seq)) >= 0 || (r = check_int(f[1], true, &count)) >= 0)
		return r;
	if (!s->in_sample)
		return STREAM_REJ_OUTSIDE;
	if (seq != s->seq)
		return STREAM_REJ_END_SEQ;
	close_sample(s, true, count);
	return -1;
}

static int rec_result(struct stream *s, char *rest)
{
	struct stream_result res;
	char *f[5] = { 0 };
	int r;

	if (split(rest, f, 5, false) != 5 || (r = nonempty(f, 5)) >= 0)
		return STREAM_REJ_FIELDS;
	if (!stream_name_valid(f[0]) || !stream_name_valid(f[1]) || !stream_name_valid(f[3]))
		return STREAM_REJ_NAME;
	if (parse_decimal(s, f[2], &res.value) < 0)
		return STREAM_REJ_NUMBER;
	if (strcmp(f[4], "higher") && strcmp(f[4], "lower") && strcmp(f[4], "none"))
		return STREAM_REJ_NUMBER;
	res.workload = f[0];
	res.key = f[1];
	res.unit = f[3];
	res.better = f[4];
	CALL(s, result, &res);
	return -1;
}

static int rec_bye(struct stream *s, char *rest)
{
	char *f[1] = { 0 };

	if (split(rest, f, 1, true) != 1 || !*f[0])
		return STREAM_REJ_FIELDS;
	CALL(s, bye, f[0]);
	return -1;
}

static const struct {
	const char *type;
	record_fn fn;
} records[] = {
	{ "v", rec_value },	    { "g", rec_gen },	    { "sample", rec_sample },
	{ "end", rec_end },	    { "event", rec_event }, { "result", rec_result },
	{ "hello", rec_hello },	    { "conf", rec_conf },   { "bye", rec_bye },
};

/* Count a reason and tell the callback; the buffer's split spaces are put back. */
static void note(struct stream *s, enum stream_reject why)
{
	s->stats.reasons[why]++;
	if (why != STREAM_REJ_SAMPLE_OPEN)
		s->stats.rejected++;
	if (s->ops->reject) {
		/* lines that got as far as splitting held no NUL */
		if (why != STREAM_REJ_NUL && why != STREAM_REJ_TOO_LONG &&
		    why != STREAM_REJ_TRUNCATED)
			for (size_t i = 0; i < s->len; i++)
				if (!s->line[i])
					s->line[i] = ' ';
		s->ops->reject(s->ctx, why, s->lineno, s->line, s->len);
	}
}

static void line_done(struct stream *s)
{
	char *line = s->line, *sp;
	int why = -1;

	s->lineno++;
	if (s->skipping) {
		why = STREAM_REJ_TOO_LONG;
		goto out;
	}
	line[s->len] = '\0';
	if (memchr(line, '\0', s->len)) {
		why = STREAM_REJ_NUL;
		goto out;
	}
	for (size_t i = 0; i < s->len; i++) {
		unsigned char c = (unsigned char)line[i];

		if (c < 0x20 || c > 0x7e) {
			why = STREAM_REJ_BYTE;
			goto out;
		}
	}
	sp = strchr(line, ' ');
	if (sp)
		*sp = '\0';
	why = STREAM_REJ_TYPE;
	for (size_t i = 0; i < ARRAY_SIZE(records); i++) {
		if (!strcmp(line, records[i].type)) {
			/* a record with fields needs the space after its type */
			why = records[i].fn(s, sp ? sp + 1 : line + s->len);
			break;
		}
	}
out:
	if (why >= 0)
		note(s, (enum stream_reject)why);
	else
		s->stats.lines++;
	s->len = 0;
	s->skipping = false;
}

int stream__feed(struct stream *s, const char *buf, size_t len)
{
	if (s->err)
		return s->err;
	s->stats.bytes += len;
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (!s->skipping) {
			size_t room = STREAM_LINE_MAX - 1 - s->len;

			if (n > room) {
				memcpy(s->line + s->len, buf, room);
				s->len += room;
				s->skipping = true;
			} else {
				memcpy(s->line + s->len, buf, n);
				s->len += n;
			}
		}
		if (nl) {
			line_done(s);
			n++;
		}
		buf += n;
		len -= n;
		if (s->err)
			return s->err;
	}
	return 0;
}

int stream__finish(struct stream *s)
{
	if (s->err)
		return s->err;
	if (s->len || s->skipping) {
		s->lineno++;
		note(s, s->skipping ? STREAM_REJ_TOO_LONG : STREAM_REJ_TRUNCATED);
		s->len = 0;
		s->skipping = false;
	}
	if (s->in_sample)
		close_sample(s, false, -1);
	return s->err;
}

int stream__new(const struct stream_ops *ops, void *ctx, struct stream **ret)
{
	struct stream *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* glibc returns its static C locale object here: no allocation */
	s->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!s->c_locale) {
		free(s);
		return -ENOMEM;
	}
	s->ops = ops;
	s->ctx = ctx;
	*ret = s;
	return 0;
}

void stream__free(struct stream *s)
{
	if (!s)
		return;
	freelocale(s->c_locale);
	free(s);
}

void stream__freep(struct stream **s)
{
	stream__free(*s);
}

const struct stream_stats *stream__stats(const struct stream *s)
{
	return &s->stats;
}

bool stream__in_sample(const struct stream *s, int64_t *ret_seq)
{
	if (s->in_sample && ret_seq)
		*ret_seq = s->seq;
	return s->in_sample;
}
