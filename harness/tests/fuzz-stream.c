// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the stream parser (stream.c). The input is split into
 * chunks at places taken from its first bytes, so splits are fuzzed too; the
 * callbacks check what the parser promises (NUL-terminated names of the
 * protocol's alphabet, a line never longer than the limit, samples that nest
 * correctly) and abort if it breaks a promise.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address -D_GNU_SOURCE -Iharness/common -Iharness \
 *	harness/tests/fuzz-stream.c harness/store/stream.c harness/common/util.c -o /tmp/fuzz-stream
 *   /tmp/fuzz-stream -max_total_time=60 harness/tests/fuzz/stream/
 */
#include "stream.h"

#include <stdlib.h>
#include <string.h>

struct state {
	int in_sample;
	int64_t seq;
	uint64_t values;
};

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c))                                                                          \
			abort();                                                                   \
	} while (0)

static void check_name(const char *s)
{
	CHECK(s && strlen(s) < STREAM_LINE_MAX && stream_name_valid(s));
}

static int on_hello(void *ctx, const struct stream_hello *h)
{
	(void)ctx;
	check_name(h->agent_version);
	check_name(h->kernel_release);
	check_name(h->run);
	CHECK(strlen(h->kernel_release) <= STREAM_HELLO_FIELD_MAX);
	return 0;
}

static int on_conf(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	check_name(key);
	CHECK(strlen(value) < STREAM_LINE_MAX);
	return 0;
}

static int on_event(void *ctx, int64_t t, const char *kind, const char *text)
{
	(void)ctx;
	CHECK(t >= 0);
	check_name(kind);
	CHECK(strlen(text) < STREAM_LINE_MAX);
	return 0;
}

static int on_begin(void *ctx, int64_t seq, int64_t t)
{
	struct state *st = ctx;

	CHECK(!st->in_sample && seq >= 0 && t >= 0);
	st->in_sample = 1;
	st->seq = seq;
	return 0;
}

static int on_value(void *ctx, const char *src, const char *scope, const char *key, int64_t v)
{
	struct state *st = ctx;

	(void)v;
	CHECK(st->in_sample);
	check_name(src);
	check_name(scope);
	check_name(key);
	st->values++;
	return 0;
}

static int on_gen(void *ctx, const struct stream_gen *g)
{
	struct state *st = ctx;

	CHECK(st->in_sample && g->memcg_id >= 0 && g->node >= 0 && g->gen >= 0);
	CHECK(*g->memcg_path);
	return 0;
}

static int on_end(void *ctx, int64_t seq, bool ended, int64_t count, uint64_t received)
{
	struct state *st = ctx;

	(void)received;
	CHECK(st->in_sample && seq == st->seq);
	CHECK(ended ? count >= 0 : count == -1);
	st->in_sample = 0;
	return 0;
}

static int on_result(void *ctx, const struct stream_result *r)
{
	(void)ctx;
	check_name(r->workload);
	check_name(r->key);
	check_name(r->unit);
	CHECK(r->value == r->value); /* not NaN */
	return 0;
}

static int on_bye(void *ctx, const char *reason)
{
	(void)ctx;
	CHECK(*reason);
	return 0;
}

static void on_reject(void *ctx, enum stream_reject why, uint64_t lineno, const char *line,
		      size_t len)
{
	(void)ctx;
	(void)line;
	CHECK(why < STREAM_REJ__MAX && lineno > 0 && len < STREAM_LINE_MAX);
}

static const struct stream_ops ops = {
	.hello = on_hello,
	.conf = on_conf,
	.event = on_event,
	.sample_begin = on_begin,
	.value = on_value,
	.gen = on_gen,
	.sample_end = on_end,
	.result = on_result,
	.bye = on_bye,
	.reject = on_reject,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st = { 0 };
	struct stream *s = NULL;
	const struct stream_stats *ss;
	size_t off = 0, step = 1;

	if (stream__new(&ops, &st, &s) < 0)
		return 0;
	/* the first byte picks a chunk size: whole input, or pieces of 1..255 bytes */
	if (size > 0) {
		step = data[0] ? data[0] : size;
		data++;
		size--;
	}
	while (off < size) {
		size_t n = step < size - off ? step : size - off;

		CHECK(stream__feed(s, (const char *)data + off, n) == 0);
		off += n;
	}
	CHECK(stream__finish(s) == 0);
	CHECK(!st.in_sample);
	ss = stream__stats(s);
	CHECK(ss->bytes == size);
	stream__free(s);
	return 0;
}
