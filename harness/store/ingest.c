// SPDX-License-Identifier: GPL-2.0
/*
 * Ingest: the stream parser's records into the store, for one run.
 *
 * A "v SOURCE SCOPE KEY VALUE" line becomes a value of metric "SOURCE:KEY";
 * a sample is complete only if its "end" arrived with COUNT equal to the v
 * and g lines received and the store kept all of them. What the agent read
 * back ("conf" lines) goes to the run's provenance as guest.conf.KEY.
 *
 * A row the store refuses because of what the guest sent (a name past the
 * store's limit, a constraint) is counted as a rejected line; any other
 * store failure stops ingest with -EIO.
 */
#include "ingest.h"

#include "store-priv.h"
#include "stream.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

struct ingest {
	struct store *st;
	int64_t run_id;
	struct stream *parser;
	struct ingest_stats stats;
	uint64_t refused; /* rows the store refused: counted as rejected lines */
	uint64_t lost; /* v and g lines of the open sample the store refused */
	int err; /* the store failure that stopped ingest */
};

static void set_first_reject(struct ingest *in, uint64_t lineno, const char *why, const char *line,
			     size_t len)
{
	char excerpt[64];
	size_t n = len < sizeof(excerpt) - 1 ? len : sizeof(excerpt) - 1;

	if (in->stats.first_reject[0])
		return;
	/* the line is untrusted: keep it printable for the log */
	for (size_t i = 0; i < n; i++)
		excerpt[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
	excerpt[n] = '\0';
	snprintf(in->stats.first_reject, sizeof(in->stats.first_reject),
		 "line %" PRIu64 ": %s: '%s%s'", lineno, why, excerpt, len > n ? "..." : "");
}

/*
 * A store call's result: 0 on success; a refusal caused by the data is
 * counted and ingest goes on; anything else stops it.
 */
static int stored(struct ingest *in, int r, bool in_sample, const char *what)
{
	if (r >= 0)
		return 0;
	if (r == -ENOSPC || r == -EINVAL || r == -ENOENT) {
		const struct stream_stats *ps = stream__stats(in->parser);
		char why[128];

		in->refused++;
		if (in_sample)
			in->lost++;
		snprintf(why, sizeof(why), "store refused %s (%s)", what, store__errmsg(in->st));
		/* the line being parsed is the one after those counted */
		set_first_reject(in, ps->lines + ps->rejected + 1, why, "", 0);
		return 0;
	}
	in->err = -EIO;
	return -EIO;
}

static int on_hello(void *ctx, const struct stream_hello *h)
{
	struct ingest *in = ctx;
	char proto[24];
	int r;

	in->stats.hello = 1;
	snprintf(in->stats.kernel_release, sizeof(in->stats.kernel_release), "%s",
		 h->kernel_release);
	snprintf(in->stats.agent_version, sizeof(in->stats.agent_version), "%s", h->agent_version);
	snprintf(proto, sizeof(proto), "%" PRId64, h->proto);
	r = stored(in, store__run_prov(in->st, in->run_id, "guest.proto", proto), false, "hello");
	if (r < 0)
		return r;
	return stored(in, store__run_prov(in->st, in->run_id, "guest.run", h->run), false, "hello");
}

static int on_conf(void *ctx, const char *key, const char *value)
{
	struct ingest *in = ctx;
	char prov[STREAM_LINE_MAX + 16];

	snprintf(prov, sizeof(prov), "guest.conf.%s", key);
	return stored(in, store__run_prov(in->st, in->run_id, prov, value), false, "conf");
}

static int on_event(void *ctx, int64_t t_ns, const char *kind, const char *text)
{
	struct ingest *in = ctx;
	int r = store__event(in->st, in->run_id, t_ns, kind, text);

	if (r < 0)
		return stored(in, r, false, "event");
	in->stats.events++;
	return 0;
}

static int on_sample_begin(void *ctx, int64_t seq, int64_t t_ns)
{
	struct ingest *in = ctx;

	in->lost = 0;
	return stored(in, store__sample_begin(in->st, in->run_id, seq, t_ns), false, "sample");
}

static int on_value(void *ctx, const char *source, const char *scope, const char *key,
		    int64_t value)
{
	struct ingest *in = ctx;
	char metric[2 * STREAM_LINE_MAX];
	int64_t seq = 0;
	uint64_t before = store__stats(in->st)->values;
	int r;

	stream__in_sample(in->parser, &seq);
	snprintf(metric, sizeof(metric), "%s:%s", source, key);
	r = store__value(in->st, in->run_id, seq, metric, scope, value);
	in->stats.values += store__stats(in->st)->values - before;
	return stored(in, r, true, "value");
}

static int on_gen(void *ctx, const struct stream_gen *g)
{
	struct ingest *in = ctx;
	int64_t seq = 0;
	uint64_t before = store__stats(in->st)->gens;
	int r;

	stream__in_sample(in->parser, &seq);
	r = store__lru_gen(in->st, in->run_id, seq, g->memcg_id, g->memcg_path, g->node, g->gen,
			   g->age_ms, g->anon, g->file);
	in->stats.gens += store__stats(in->st)->gens - before;
	return stored(in, r, true, "lru_gen");
}

static int on_sample_end(void *ctx, int64_t seq, bool ended, int64_t count, uint64_t received)
{
	struct ingest *in = ctx;
	bool complete = ended && count >= 0 && (uint64_t)count == received && !in->lost;
	int r;

	in->lost = 0;
	if (complete)
		in->stats.samples++;
	else
		in->stats.incomplete++;
	r = stored(in, store__sample_end(in->st, in->run_id, seq, complete), false, "sample");
	if (r < 0)
		return r;
	/*
	 * Each sample is committed as it ends: what reached the host survives
	 * a crash, and the write lock is held for one sample only, so guests
	 * run in parallel (-j) share one database without waiting on each other.
	 */
	return stored(in, store__commit(in->st), false, "commit");
}

static int on_result(void *ctx, const struct stream_result *res)
{
	struct ingest *in = ctx;
	uint64_t before = store__stats(in->st)->results;
	int r;

	r = store__result(in->st, in->run_id, res->workload, res->key, res->value, res->unit,
			  res->better);
	in->stats.results += store__stats(in->st)->results - before;
	return stored(in, r, false, "result");
}

static int on_bye(void *ctx, const char *reason)
{
	struct ingest *in = ctx;

	in->stats.bye = 1;
	snprintf(in->stats.bye_reason, sizeof(in->stats.bye_reason), "%s", reason);
	return 0;
}

static void on_reject(void *ctx, enum stream_reject why, uint64_t lineno, const char *line,
		      size_t len)
{
	struct ingest *in = ctx;

	if (why != STREAM_REJ_SAMPLE_OPEN)
		set_first_reject(in, lineno, stream_reject_name(why), line, len);
}

static const struct stream_ops ingest_ops = {
	.hello = on_hello,
	.conf = on_conf,
	.event = on_event,
	.sample_begin = on_sample_begin,
	.value = on_value,
	.gen = on_gen,
	.sample_end = on_sample_end,
	.result = on_result,
	.bye = on_bye,
	.reject = on_reject,
};

static void sync_stats(struct ingest *in)
{
	const struct stream_stats *ps = stream__stats(in->parser);

	in->stats.lines = ps->lines;
	in->stats.rejected = ps->rejected + in->refused;
}

/* 0 if the run is in the store, -ENOENT if not, -EIO if it cannot be read. */
static int run_exists(struct store *st, int64_t run_id)
{
	_cleanup_stmt_ sqlite3_stmt *q = NULL;
	int rc;

	if (store__prepare(st, "SELECT 1 FROM run WHERE id = ?", &q) < 0)
		return -EIO;
	sqlite3_bind_int64(q, 1, run_id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	return rc == SQLITE_ROW ? 0 : -EIO;
}

int ingest__new(struct store *st, int64_t run_id, struct ingest **ret)
{
	struct ingest *in;
	int r;

	/* a run that does not exist would make every row fail */
	r = run_exists(st, run_id);
	if (r < 0)
		return r;

	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	in->st = st;
	in->run_id = run_id;
	r = stream__new(&ingest_ops, in, &in->parser);
	if (r < 0) {
		free(in);
		return r;
	}
	*ret = in;
	return 0;
}

int ingest__feed(struct ingest *in, const char *buf, size_t len)
{
	int r;

	if (in->err)
		return in->err;
	r = stream__feed(in->parser, buf, len);
	sync_stats(in);
	return r < 0 ? -EIO : 0;
}

int ingest__finish(struct ingest *in)
{
	int r;

	if (in->err)
		return in->err;
	r = stream__finish(in->parser);
	sync_stats(in);
	if (r < 0)
		return -EIO;
	if (store__commit(in->st) < 0) {
		in->err = -EIO;
		return -EIO;
	}
	return 0;
}

const struct ingest_stats *ingest__stats(const struct ingest *in)
{
	return &in->stats;
}

void ingest__free(struct ingest *in)
{
	if (!in)
		return;
	stream__free(in->parser);
	free(in);
}
