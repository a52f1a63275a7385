// SPDX-License-Identifier: GPL-2.0
/*
 * The stream parser: exact records for a valid stream, identical records
 * whatever the chunking, and every kind of hostile input counted, never fatal,
 * in bounded memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <malloc.h>
#include <string.h>

#include "stream.h"
#include "util.h"

#ifdef __SANITIZE_ADDRESS__
/* from <sanitizer/allocator_interface.h>, which gcc does not ship */
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_in_use(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}
#endif

/* Every callback appends one text line to a growing log. */
struct rec_log {
	char *buf;
	size_t len, cap;
	int fail_at; /* make the Nth record's callback fail with -EIO (0: never) */
	int nrec;
};

static int logf_(struct rec_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int logf_(struct rec_log *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(l->buf + l->len, l->cap - l->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < l->cap - l->len)
			break;
		l->cap = (l->cap + (size_t)n + 1) * 2;
		l->buf = xrealloc(l->buf, l->cap, 1);
	}
	l->len += (size_t)n;
	l->nrec++;
	return l->fail_at && l->nrec == l->fail_at ? -EIO : 0;
}

static int cb_hello(void *ctx, const struct stream_hello *h)
{
	return logf_(ctx, "hello %" PRId64 "|%s|%s|%s\n", h->proto, h->agent_version,
		     h->kernel_release, h->run);
}

static int cb_conf(void *ctx, const char *key, const char *value)
{
	return logf_(ctx, "conf %s|%s\n", key, value);
}

static int cb_event(void *ctx, int64_t t, const char *kind, const char *text)
{
	return logf_(ctx, "event %" PRId64 "|%s|%s\n", t, kind, text);
}

static int cb_begin(void *ctx, int64_t seq, int64_t t)
{
	return logf_(ctx, "begin %" PRId64 "|%" PRId64 "\n", seq, t);
}

static int cb_value(void *ctx, const char *src, const char *scope, const char *key, int64_t v)
{
	return logf_(ctx, "v %s|%s|%s|%" PRId64 "\n", src, scope, key, v);
}

static int cb_gen(void *ctx, const struct stream_gen *g)
{
	return logf_(ctx, "g %" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64
			  "|%s\n",
		     g->memcg_id, g->node, g->gen, g->age_ms, g->anon, g->file, g->memcg_path);
}

static int cb_end(void *ctx, int64_t seq, bool ended, int64_t count, uint64_t received)
{
	return logf_(ctx, "end %" PRId64 "|%d|%" PRId64 "|%" PRIu64 "\n", seq, ended, count,
		     received);
}

static int cb_result(void *ctx, const struct stream_result *r)
{
	return logf_(ctx, "result %s|%s|%.17g|%s|%s\n", r->workload, r->key, r->value, r->unit,
		     r->better);
}

static int cb_bye(void *ctx, const char *reason)
{
	return logf_(ctx, "bye %s\n", reason);
}

static void cb_reject(void *ctx, enum stream_reject why, uint64_t lineno, const char *line,
		      size_t len)
{
	size_t shown = len < 20 ? len : 20;
	char head[21];

	for (size_t i = 0; i < shown; i++)
		head[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
	head[shown] = '\0';
	logf_(ctx, "reject %d|%" PRIu64 "|%zu|%s\n", (int)why, lineno, len, head);
}

static const struct stream_ops log_ops = {
	.hello = cb_hello,
	.conf = cb_conf,
	.event = cb_event,
	.sample_begin = cb_begin,
	.value = cb_value,
	.gen = cb_gen,
	.sample_end = cb_end,
	.result = cb_result,
	.bye = cb_bye,
	.reject = cb_reject,
};

struct parsed {
	char *log;
	struct stream_stats stats;
	int ret;
};

/* Parse input cut at the given offsets (sorted, within len). */
static struct parsed parse_cuts(const char *in, size_t len, const size_t *cuts, size_t ncuts,
				int fail_at)
{
	struct rec_log l = { .fail_at = fail_at };
	struct stream *s = NULL;
	struct parsed p = { 0 };
	size_t prev = 0;
	int r = 0;

	l.cap = 256;
	l.buf = xcalloc(1, l.cap);
	assert_int_equal(stream__new(&log_ops, &l, &s), 0);
	for (size_t i = 0; i <= ncuts && !r; i++) {
		size_t end = i < ncuts ? cuts[i] : len;

		r = stream__feed(s, in + prev, end - prev);
		prev = end;
	}
	if (!r)
		r = stream__finish(s);
	p.ret = r;
	p.stats = *stream__stats(s);
	p.log = l.buf;
	stream__free(s);
	return p;
}

static struct parsed parse(const char *in, size_t len)
{
	return parse_cuts(in, len, NULL, 0, 0);
}

static struct parsed parse_str(const char *in)
{
	return parse(in, strlen(in));
}

static const char valid_stream[] =
	"hello 1 0.1.0 6.1.0-57-cloud-amd64 r0001\n"
	"conf lru_gen/enabled 0x0007\n"
	"conf sysctl vm/swappiness=60 extra words\n"
	"event 1200000 boot agent up, 2 cpus\n"
	"event 1300000 phase\n"
	"sample 0 1000000000\n"
	"v vmstat - pgscan_anon 12345\n"
	"v memory.stat wl pgsteal_file 9223372036854775807\n"
	"v psi.memory - some.total -9223372036854775808\n"
	"g 1 0 7 1500 2048 4096 /wl\n"
	"g 1 0 8 20 10 0 /wl with space\n"
	"end 0 5\n"
	"sample 1 2000000000\n"
	"v agent - cpu_ns 0\n"
	"end 1 1\n"
	"result wl ops_per_s 1234.5 ops/s higher\n"
	"result wl p99 -2e-3 ms lower\n"
	"bye done\n";

static const char valid_log[] = "hello 1|0.1.0|6.1.0-57-cloud-amd64|r0001\n"
				"conf lru_gen/enabled|0x0007\n"
				"conf sysctl|vm/swappiness=60 extra words\n"
				"event 1200000|boot|agent up, 2 cpus\n"
				"event 1300000|phase|\n"
				"begin 0|1000000000\n"
				"v vmstat|-|pgscan_anon|12345\n"
				"v memory.stat|wl|pgsteal_file|9223372036854775807\n"
				"v psi.memory|-|some.total|-9223372036854775808\n"
				"g 1|0|7|1500|2048|4096|/wl\n"
				"g 1|0|8|20|10|0|/wl with space\n"
				"end 0|1|5|5\n"
				"begin 1|2000000000\n"
				"v agent|-|cpu_ns|0\n"
				"end 1|1|1|1\n"
				"result wl|ops_per_s|1234.5|ops/s|higher\n"
				"result wl|p99|-0.002|ms|lower\n"
				"bye done\n";

static void test_valid_stream(void **state)
{
	struct parsed p = parse_str(valid_stream);

	(void)state;
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.log, valid_log);
	assert_int_equal(p.stats.lines, 18);
	assert_int_equal(p.stats.rejected, 0);
	assert_int_equal(p.stats.bytes, strlen(valid_stream));
	free(p.log);
}

static void test_every_split(void **state)
{
	size_t len = strlen(valid_stream);

	(void)state;
	/* one cut at every byte boundary */
	for (size_t i = 0; i <= len; i++) {
		struct parsed p = parse_cuts(valid_stream, len, &i, 1, 0);

		assert_int_equal(p.ret, 0);
		assert_string_equal(p.log, valid_log);
		assert_int_equal(p.stats.lines, 18);
		free(p.log);
	}
	/* one byte at a time, with a few empty feeds in between */
	{
		size_t *cuts = xcalloc(2 * len, sizeof(*cuts));
		struct parsed p;

		for (size_t i = 0; i < len; i++) {
			cuts[2 * i] = i;
			cuts[2 * i + 1] = i;
		}
		p = parse_cuts(valid_stream, len, cuts, 2 * len, 0);
		assert_string_equal(p.log, valid_log);
		free(p.log);
		free(cuts);
	}
}

static void test_every_split_of_rejects(void **state)
{
	/* a stream full of rejects: identical records whatever the cut */
	static const char in[] = "bogus line\n"
				 "v vmstat - x 1\n"
				 "sample 3 10\n"
				 "v vmstat - x 0x10\n"
				 "v vm$tat - x 1\n"
				 "end 4 0\n"
				 "sample 3 11\n"
				 "v a b c 1\n"
				 "sample 5 12\n"
				 "end 5 0\n"
				 "partial";
	size_t len = sizeof(in) - 1;
	struct parsed ref = parse(in, len);

	(void)state;
	assert_int_equal(ref.stats.rejected, 7);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_TYPE], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_OUTSIDE], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_INTEGER], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_NAME], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_END_SEQ], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_SEQ_ORDER], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_TRUNCATED], 1);
	assert_int_equal(ref.stats.reasons[STREAM_REJ_SAMPLE_OPEN], 1);
	assert_int_equal(ref.stats.lines, 4);
	assert_string_equal(ref.log, "reject 3|1|10|bogus line\n"
				     "reject 8|2|14|v vmstat - x 1\n"
				     "begin 3|10\n"
				     "reject 6|4|17|v vmstat - x 0x10\n"
				     "reject 5|5|14|v vm$tat - x 1\n"
				     "reject 9|6|7|end 4 0\n"
				     "reject 10|7|11|sample 3 11\n"
				     "v a|b|c|1\n"
				     "reject 12|9|11|sample 5 12\n"
				     "end 3|0|-1|1\n"
				     "begin 5|12\n"
				     "end 5|1|0|0\n"
				     "reject 11|11|7|partial\n");
	for (size_t i = 0; i <= len; i++) {
		struct parsed p = parse_cuts(in, len, &i, 1, 0);

		assert_string_equal(p.log, ref.log);
		assert_memory_equal(&p.stats, &ref.stats, sizeof(p.stats));
		free(p.log);
	}
	free(ref.log);
}

static void test_integers(void **state)
{
	static const struct {
		const char *s;
		int ret;
		int64_t v;
	} cases[] = {
		{ "0", 0, 0 },
		{ "-0", 0, 0 },
		{ "42", 0, 42 },
		{ "0007", 0, 7 },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "-9223372036854775808", 0, INT64_MIN },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "-9223372036854775809", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },
		{ "+5", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "1e3", -EINVAL, 0 },
		{ " 5", -EINVAL, 0 },
		{ "5 ", -EINVAL, 0 },
		{ "1.0", -EINVAL, 0 },
		{ "--1", -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t v = 12345;
		int r = stream_parse_i64(cases[i].s, &v);

		assert_int_equal(r, cases[i].ret);
		assert_true(v == (r ? 12345 : cases[i].v));
	}
}

static void test_names(void **state)
{
	(void)state;
	assert_true(stream_name_valid("memory.stat"));
	assert_true(stream_name_valid("a-Z_0.9:/+"));
	assert_true(stream_name_valid("-"));
	assert_false(stream_name_valid(""));
	assert_false(stream_name_valid("a b"));
	assert_false(stream_name_valid("a$b"));
	assert_false(stream_name_valid("a,b"));
	assert_false(stream_name_valid("caf\xc3\xa9"));
	assert_false(stream_name_valid("a'b"));
}

/* One line each, with its reason; -1 means accepted. */
static void test_line_checks(void **state)
{
	static const struct {
		const char *line;
		int why;
	} cases[] = {
		{ "hello 1 v 6.1.0 r1", -1 },
		{ "hello 1 v 6.1.0", STREAM_REJ_FIELDS },
		{ "hello 1 v 6.1.0 r1 x", STREAM_REJ_FIELDS },
		{ "hello x v 6.1.0 r1", STREAM_REJ_INTEGER },
		{ "hello 1 v 6.1.0 r$1", STREAM_REJ_NAME },
		{ "hello 1 v 12345678901234567890123456789012345678901234567890123456789012345 r",
		  STREAM_REJ_NAME },
		{ "conf k v", -1 },
		{ "conf k ", -1 },
		{ "conf k", STREAM_REJ_FIELDS },
		{ "conf", STREAM_REJ_FIELDS },
		{ "conf k=v x", STREAM_REJ_NAME },
		{ "event 1 boot", -1 },
		{ "event 1", STREAM_REJ_FIELDS },
		{ "event -1 boot", STREAM_REJ_INTEGER },
		{ "event 1 bo!ot x", STREAM_REJ_NAME },
		{ "sample -1 0", STREAM_REJ_INTEGER },
		{ "sample 1", STREAM_REJ_FIELDS },
		{ "sample 1 2 3", STREAM_REJ_FIELDS },
		{ "sample 1 2 ", STREAM_REJ_FIELDS },
		{ "sample  1 2", STREAM_REJ_FIELDS },
		{ "v vmstat - x 1", STREAM_REJ_OUTSIDE },
		{ "v vmstat - x", STREAM_REJ_FIELDS },
		{ "v vmstat - x 1 2", STREAM_REJ_FIELDS },
		{ "v vmstat  x 1", STREAM_REJ_FIELDS },
		{ "v vmstat - x 9223372036854775808", STREAM_REJ_INTEGER },
		{ "g 1 0 0 0 0 0 /", STREAM_REJ_OUTSIDE },
		{ "g 1 0 0 0 0 /", STREAM_REJ_FIELDS },
		{ "g 1 -1 0 0 0 0 /", STREAM_REJ_INTEGER },
		{ "g 1 0 0 0 0 0 ", STREAM_REJ_FIELDS },
		{ "end 0 0", STREAM_REJ_OUTSIDE },
		{ "end 0", STREAM_REJ_FIELDS },
		{ "result w k 1 u higher", -1 },
		{ "result w k 1.25 u none", -1 },
		{ "result w k -1e10 u lower", -1 },
		{ "result w k 1. u none", STREAM_REJ_NUMBER },
		{ "result w k .5 u none", STREAM_REJ_NUMBER },
		{ "result w k nan u none", STREAM_REJ_NUMBER },
		{ "result w k inf u none", STREAM_REJ_NUMBER },
		{ "result w k 1e999 u none", STREAM_REJ_NUMBER },
		{ "result w k 0x1p3 u none", STREAM_REJ_NUMBER },
		{ "result w k 1 u better", STREAM_REJ_NUMBER },
		{ "result w k 1 u", STREAM_REJ_FIELDS },
		{ "result w k 1 u none x", STREAM_REJ_FIELDS },
		{ "result w k$ 1 u none", STREAM_REJ_NAME },
		{ "bye done", -1 },
		{ "bye timeout after 30 s", -1 },
		{ "bye", STREAM_REJ_FIELDS },
		{ "bye ", STREAM_REJ_FIELDS },
		{ "", STREAM_REJ_TYPE },
		{ " v vmstat - x 1", STREAM_REJ_TYPE },
		{ "V vmstat - x 1", STREAM_REJ_TYPE },
		{ "value vmstat - x 1", STREAM_REJ_TYPE },
		{ "hello\t1 v k r", STREAM_REJ_BYTE },
		{ "event 1 boot caf\xc3\xa9", STREAM_REJ_BYTE },
		{ "event 1 boot \x1b[2J", STREAM_REJ_BYTE },
		{ "event 1 boot\r", STREAM_REJ_BYTE },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *in = xasprintf("%s\n", cases[i].line);
		struct parsed p = parse_str(in);

		if (cases[i].why < 0) {
			assert_int_equal(p.stats.lines, 1);
			assert_int_equal(p.stats.rejected, 0);
		} else {
			assert_int_equal(p.stats.lines, 0);
			assert_int_equal(p.stats.rejected, 1);
			if (p.stats.reasons[cases[i].why] != 1)
				fail_msg("'%s': expected reason %d, log %s", cases[i].line,
					 cases[i].why, p.log);
		}
		free(p.log);
		free(in);
	}
}

static void test_nul_bytes(void **state)
{
	static const char in[] = "v vm\0stat - x 1\nsample 0 1\nv a - k\0 1\nv a - k 2\nend 0 2\n"
				 "\0\0\0\n";
	struct parsed p = parse(in, sizeof(in) - 1);

	(void)state;
	assert_int_equal(p.stats.reasons[STREAM_REJ_NUL], 3);
	assert_int_equal(p.stats.rejected, 3);
	assert_int_equal(p.stats.lines, 3);
	assert_string_equal(p.log, "reject 1|1|15|v vm?stat - x 1\n"
				   "begin 0|1\n"
				   "reject 1|3|10|v a - k? 1\n"
				   "v a|-|k|2\n"
				   "end 0|1|2|1\n"
				   "reject 1|6|3|???\n");
	free(p.log);
}

static void test_line_limit(void **state)
{
	char *in;
	struct parsed p;
	size_t maxlen = STREAM_LINE_MAX - 1; /* content bytes, newline excluded */

	(void)state;
	/* exactly STREAM_LINE_MAX bytes with the newline: accepted */
	in = xcalloc(1, 4 * STREAM_LINE_MAX);
	strcpy(in, "event 1 x ");
	memset(in + strlen(in), 'a', maxlen - strlen(in));
	strcat(in, "\n");
	assert_int_equal(strlen(in), STREAM_LINE_MAX);
	p = parse_str(in);
	assert_int_equal(p.stats.lines, 1);
	assert_int_equal(p.stats.rejected, 0);
	free(p.log);

	/* one more: rejected, and the next line is parsed normally */
	in[maxlen] = 'a';
	strcpy(in + maxlen + 1, "\nbye ok\n");
	p = parse_str(in);
	assert_int_equal(p.stats.lines, 1);
	assert_int_equal(p.stats.reasons[STREAM_REJ_TOO_LONG], 1);
	assert_string_equal(p.log, "reject 0|1|1023|event 1 x aaaaaaaaaa\nbye ok\n");
	free(p.log);
	free(in);
}

static void test_megabyte_line(void **state)
{
	size_t big = 1 << 20;
	char *in = xcalloc(1, big + 64);
	size_t before, cuts[3] = { 1, big / 2, big + 1 };
	struct parsed p;

	(void)state;
	memset(in, 'v', big);
	strcpy(in + big, "\nbye ok\nevent 1 tail");
	before = heap_in_use();
	p = parse_cuts(in, strlen(in), cuts, 3, 0);
	/* the log holds two short lines: nothing near the line's size was kept */
	assert_true(heap_in_use() - before < 4096);
	assert_int_equal(p.stats.reasons[STREAM_REJ_TOO_LONG], 1);
	assert_int_equal(p.stats.reasons[STREAM_REJ_TRUNCATED], 1);
	assert_int_equal(p.stats.rejected, 2);
	assert_int_equal(p.stats.lines, 1);
	assert_int_equal(p.stats.bytes, big + 20);
	assert_string_equal(p.log, "reject 0|1|1023|vvvvvvvvvvvvvvvvvvvv\n"
				   "bye ok\n"
				   "reject 11|3|12|event 1 tail\n");
	free(p.log);
	/* an endless line at finish is too long, not truncated */
	p = parse(in, big);
	assert_int_equal(p.stats.reasons[STREAM_REJ_TOO_LONG], 1);
	assert_int_equal(p.stats.reasons[STREAM_REJ_TRUNCATED], 0);
	free(p.log);
	free(in);
}

static void test_truncated_and_duplicated(void **state)
{
	static const char in[] = "hello 1 a k r\n"
				 "sample 0 5\n"
				 "v vmstat - x 1\n"
				 "v vmstat - x 1\n" /* duplicated value: accepted, counted */
				 "end 0 1\n"
				 "end 0 1\n" /* duplicated end: no sample open */
				 "sample 0 5\n" /* duplicated sample: SEQ does not grow */
				 "v vmstat - x 1\n"
				 "sample 1 6\n"
				 "v vmstat - y 2\n"
				 "v vmstat - z"; /* cut in the middle of a record */
	struct parsed p = parse(in, sizeof(in) - 1);

	(void)state;
	assert_string_equal(p.log, "hello 1|a|k|r\n"
				   "begin 0|5\n"
				   "v vmstat|-|x|1\n"
				   "v vmstat|-|x|1\n"
				   "end 0|1|1|2\n"
				   "reject 8|6|7|end 0 1\n"
				   "reject 10|7|10|sample 0 5\n"
				   "reject 8|8|14|v vmstat - x 1\n"
				   "begin 1|6\n"
				   "v vmstat|-|y|2\n"
				   "reject 11|11|12|v vmstat - z\n"
				   "end 1|0|-1|1\n");
	assert_int_equal(p.stats.lines, 7);
	assert_int_equal(p.stats.rejected, 4);
	free(p.log);
}

static void test_callback_error_stops(void **state)
{
	struct rec_log l = { .fail_at = 3 };
	struct stream *s = NULL;

	(void)state;
	l.cap = 64;
	l.buf = xcalloc(1, l.cap);
	assert_int_equal(stream__new(&log_ops, &l, &s), 0);
	assert_int_equal(stream__feed(s, valid_stream, strlen(valid_stream)), -EIO);
	/* the parser stopped right after the failing record */
	assert_int_equal(l.nrec, 3);
	assert_int_equal(stream__feed(s, "bye x\n", 6), -EIO);
	assert_int_equal(stream__finish(s), -EIO);
	assert_int_equal(l.nrec, 3);
	stream__free(s);
	free(l.buf);
}

static void test_no_callbacks(void **state)
{
	static const struct stream_ops none = { 0 };
	struct stream *s = NULL;
	int64_t seq = -1;

	(void)state;
	assert_int_equal(stream__new(&none, NULL, &s), 0);
	assert_int_equal(stream__feed(s, valid_stream, strlen(valid_stream)), 0);
	assert_int_equal(stream__feed(s, "sample 9 1\nbad\n", 15), 0);
	assert_true(stream__in_sample(s, &seq));
	assert_int_equal(seq, 9);
	assert_int_equal(stream__finish(s), 0);
	assert_false(stream__in_sample(s, NULL));
	assert_int_equal(stream__stats(s)->lines, 19);
	assert_int_equal(stream__stats(s)->rejected, 1);
	stream__free(s);
	stream__free(NULL);
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_random_bytes(void **state)
{
	size_t len = 8 << 20, off = 0;
	char *in = xcalloc(1, len);
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	struct stream *s = NULL;
	struct rec_log l = { 0 };
	const struct stream_stats *st;
	size_t before;
	uint64_t newlines = 0, sum = 0;

	(void)state;
	/* random bytes, with runs of stream-like text so some lines parse */
	for (size_t i = 0; i < len;) {
		uint64_t r = xorshift(&seed);

		if (r % 5003 == 0 && len - i > 4096) {
			/* now and then a line past the limit */
			memset(in + i, 'x', 2048 + (r >> 40) % 2048);
			i += 2048 + (r >> 40) % 2048;
		} else if (r % 7 == 0 && len - i > 64) {
			static const char *const frags[] = { "sample ", "v vmstat - k ", "end ",
							     "g 1 0 ", "\n", "9223372036854775808",
							     "-", "12 " };
			const char *f = frags[(r >> 8) % ARRAY_SIZE(frags)];

			memcpy(in + i, f, strlen(f));
			i += strlen(f);
		} else {
			in[i++] = (char)(r >> 16);
		}
	}
	for (size_t i = 0; i < len; i++)
		newlines += in[i] == '\n';

	l.cap = 1 << 16;
	l.buf = xcalloc(1, l.cap);
	assert_int_equal(stream__new(&log_ops, &l, &s), 0);
	before = heap_in_use();
	while (off < len) {
		size_t n = xorshift(&seed) % 4096;

		if (n > len - off)
			n = len - off;
		assert_int_equal(stream__feed(s, in + off, n), 0);
		off += n;
		/* keep the log from growing: only the parser's memory is measured */
		l.len = 0;
	}
	assert_int_equal(stream__finish(s), 0);
	assert_true(heap_in_use() <= before);
	st = stream__stats(s);
	/* every line is accepted or rejected, once */
	assert_true(st->lines + st->rejected == newlines + (in[len - 1] != '\n'));
	for (int i = 0; i < STREAM_REJ__MAX; i++)
		if (i != STREAM_REJ_SAMPLE_OPEN)
			sum += st->reasons[i];
	assert_int_equal(sum, st->rejected);
	assert_true(st->rejected > 1000);
	assert_true(st->reasons[STREAM_REJ_BYTE] > 0);
	assert_true(st->reasons[STREAM_REJ_NUL] > 0);
	assert_true(st->reasons[STREAM_REJ_TOO_LONG] > 0);
	assert_int_equal(st->bytes, len);
	stream__free(s);
	free(l.buf);
	free(in);
}

static void test_reject_names(void **state)
{
	(void)state;
	for (int i = 0; i < STREAM_REJ__MAX; i++)
		assert_non_null(stream_reject_name((enum stream_reject)i));
	assert_string_equal(stream_reject_name(STREAM_REJ_TOO_LONG), "line too long");
	assert_string_equal(stream_reject_name(STREAM_REJ__MAX), "unknown reason");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_stream),
		cmocka_unit_test(test_every_split),
		cmocka_unit_test(test_every_split_of_rejects),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_line_checks),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_megabyte_line),
		cmocka_unit_test(test_truncated_and_duplicated),
		cmocka_unit_test(test_callback_error_stops),
		cmocka_unit_test(test_no_callbacks),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_reject_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
