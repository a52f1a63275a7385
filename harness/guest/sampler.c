// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: every source of the shared list (harness/common/sources.c,
 * PROTOCOL.md section 2), each sample.
 *
 * A source names its SOURCE, its scope (system-wide, per memcg, per
 * workload), the file it reads and the function that parses that file into
 * v lines (harness/common/source.h): such a source needs nothing here. The
 * sources whose values the agent's own code makes (its perf counters, its
 * tracer, its working-set probe, kswapd's threads, its own cost), that emit
 * g lines (lru_gen) or that are sampled only sometimes have a row in
 * feeds[] below.
 *
 * At start the sampler makes one instance per source and scope and opens
 * each file once: the kernel regenerates these seq files on every read at
 * offset 0, so each sample is pread()s into one reused buffer, parsed in
 * place and appended to the channel's buffer, which one write() sends when
 * the sample ends.
 */
#include "agent.h"
#include "procfs-parse.h"
#include "source.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

struct instance;

/* What the agent's code adds to a source of the list. */
struct feed {
	const char *name;	/* the source's */
	bool (*wanted)(const struct agent *a); /* NULL: always sampled */
	/* Append the lines of one instance instead of the source's parse;
	 * buf/len hold its file's text (nothing if it has no file). */
	void (*emit)(struct sampler *s, struct instance *in, const char *buf, size_t len);
};

struct instance {
	const struct source *src;
	const struct feed *feed; /* NULL: src->parse makes the v lines */
	const char *scope;	/* "-", a memcg or a workload name, or node_scope */
	char *node_scope;	/* SOURCE_NODE: "nodeN", owned */
	struct workload *w;	/* SOURCE_WORKLOAD */
	int fd;			/* the file, -1 if none */
	bool warned;		/* a failure was logged once */
};

struct sampler {
	struct agent *a;
	struct instance *in;
	size_t n_in;
	char *buf;		/* read buffer, reused by every file */
	size_t cap;
	int *kswapd_fds;	/* /proc/PID/stat of each kswapd thread */
	int *kswapd_sched_fds;	/* its /proc/PID/schedstat, -1 where the kernel has none */
	size_t n_kswapd;
	long clk_tck;
	uint64_t seq;
	uint64_t count;		/* v and g lines of the current sample */
	int64_t t_start;
	char *vmstat;		/* last /proc/vmstat text, for final_dump */
	size_t vmstat_len;
};

static void value(struct sampler *s, struct instance *in, const char *key, size_t key_len,
		  int64_t v)
{
	if (channel_value(s->a->ch, in->src->name, in->scope, key, key_len, v))
		s->count++;
}

static void parsed_value(void *arg, const char *key, size_t key_len, int64_t v)
{
	void **ctx = arg;

	value(ctx[0], ctx[1], key, key_len, v);
}

/* A source of the list without a feed: its parse makes the v lines. */
static void emit_parsed(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	void *ctx[2] = { s, in };
	unsigned bad;

	if (!in->src->parse)
		return;
	bad = in->src->parse(buf, len, parsed_value, ctx);
	if (bad && !in->warned) {
		in->warned = true;
		log_warn("sampler: %s: %u malformed lines skipped", in->src->name, bad);
	}
}

static void emit_vmstat(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	if (s->a->conf->final_dump) {
		s->vmstat = xrealloc(s->vmstat, len + 1, 1);
		memcpy(s->vmstat, buf, len);
		s->vmstat[len] = '\0';
		s->vmstat_len = len;
	}
	emit_parsed(s, in, buf, len);
}

static int lru_gen_row(void *arg, const struct procfs_lru_gen_row *row)
{
	struct sampler *s = arg;
	int path_len = row->path_len > 512 ? 512 : (int)row->path_len;
	const char *path = row->path;

	/* Without memcg the kernel prints no path; the stream needs one. */
	if (!path_len) {
		path = "-";
		path_len = 1;
	}
	channel_printf(s->a->ch, "g %u %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.*s",
		       row->memcg_id, row->node, row->seq, row->age_ms, row->anon, row->file,
		       path_len, path);
	s->count++;
	return 0;
}

static void emit_lru_gen(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	(void)in;
	procfs_parse_lru_gen(buf, len, lru_gen_row, s, NULL);
}

static bool want_lru_gen(const struct agent *a)
{
	return a->sample_lru_gen;
}

/*
 * The CPU time of every kswapd thread (found once at start): its schedstat
 * run time in ns where every thread has one, else utime + stime in clock
 * ticks (10 ms steps at USER_HZ 100), never a mix of the two.
 */
static void emit_kswapd(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	uint64_t ticks = 0, ns = 0;
	bool sched = s->n_kswapd > 0;

	(void)buf;
	(void)len;
	for (size_t i = 0; i < s->n_kswapd; i++)
		sched &= s->kswapd_sched_fds[i] >= 0;
	for (size_t i = 0; i < s->n_kswapd; i++) {
		struct procfs_pid_stat st;
		uint64_t run;
		ssize_t n;

		if (sched) {
			n = pread(s->kswapd_sched_fds[i], s->buf, s->cap - 1, 0);
			if (n > 0 && procfs_parse_schedstat(s->buf, (size_t)n, &run) == 0)
				ns += run;
			continue;
		}
		n = pread(s->kswapd_fds[i], s->buf, s->cap - 1, 0);
		if (n > 0 && procfs_parse_pid_stat(s->buf, (size_t)n, &st) == 0)
			ticks += st.utime + st.stime;
	}
	if (!sched)
		ns = ticks * (1000000000 / (uint64_t)s->clk_tck);
	value(s, in, "cpu_ns", 6, (int64_t)ns);
}

static void perf_value(void *arg, const char *name, uint64_t v)
{
	void **ctx = arg;

	value(ctx[0], ctx[1], name, strlen(name), v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static void emit_perf(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	void *ctx[2] = { s, in };

	(void)buf;
	(void)len;
	if (in->w->perf)
		perf_counters_read(in->w->perf, perf_value, ctx);
}

static void reclaim_value(void *arg, const char *scope, const char *key, int64_t v)
{
	struct sampler *s = arg;

	if (channel_value(s->a->ch, "reclaim", scope, key, strlen(key), v))
		s->count++;
}

/* Stall histograms per memcg and path, from the tracer's rings (agent-trace.c). */
static void emit_reclaim(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	(void)in;
	(void)buf;
	(void)len;
	tracer_emit(s->a->tracer, reclaim_value, s);
}

static bool want_reclaim(const struct agent *a)
{
	return a->tracer;
}

static void wss_value(void *arg, const char *key, int64_t v)
{
	void **ctx = arg;

	value(ctx[0], ctx[1], key, strlen(key), v);
}

/* The working-set probe's last window of this memcg, once (agent-wss.c). */
static void emit_wss(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	void *ctx[2] = { s, in };

	(void)buf;
	(void)len;
	wss_probe_emit(s->a->wss, in->scope, wss_value, ctx);
}

static bool want_wss(const struct agent *a)
{
	return a->conf->wss_methods != 0;
}

/* Last row: the agent's own cost, this sample's included. */
static void emit_agent(struct sampler *s, struct instance *in, const char *buf, size_t len)
{
	struct timespec ts;

	(void)buf;
	(void)len;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	value(s, in, "cpu_ns", 6, (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
	value(s, in, "sample_ns", 9, now_mono_ns() - s->t_start);
}

/* The sources of the list (by name) that need the agent's code. */
static const struct feed feeds[] = {
	{ "vmstat", NULL, emit_vmstat },
	{ "kswapd", NULL, emit_kswapd },
	{ "lru_gen", want_lru_gen, emit_lru_gen },
	{ "perf", NULL, emit_perf },
	{ "reclaim", want_reclaim, emit_reclaim },
	{ "wss", want_wss, emit_wss },
	{ "agent", NULL, emit_agent },
};

static const struct feed *feed_of(const struct source *src)
{
	for (size_t i = 0; i < ARRAY_SIZE(feeds); i++)
		if (!strcmp(feeds[i].name, src->name))
			return &feeds[i];
	return NULL;
}

static void add_instance(struct sampler *s, const struct source *src, const struct feed *feed,
			 const char *scope, const char *path, struct workload *w)
{
	struct instance *in;

	s->in = xrealloc(s->in, s->n_in + 1, sizeof(*s->in));
	in = &s->in[s->n_in++];
	*in = (struct instance){ .src = src, .feed = feed, .scope = scope, .w = w, .fd = -1 };
	if (!path)
		return;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		log_warn("sampler: %s: %m; source %s not sampled", path, src->name);
		s->n_in--;
	}
}

/* Threads whose comm starts with "kswapd" (one per node). */
static void find_kswapd(struct sampler *s)
{
	_cleanup_(closedirp) DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL;
		struct procfs_pid_stat st;
		int fd;
		ssize_t n;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		path = xasprintf("/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = pread(fd, s->buf, s->cap - 1, 0);
		if (n <= 0 || procfs_parse_pid_stat(s->buf, (size_t)n, &st) < 0 ||
		    strncmp(st.comm, "kswapd", 6)) {
			close(fd);
			continue;
		}
		s->kswapd_fds = xrealloc(s->kswapd_fds, s->n_kswapd + 1, sizeof(int));
		s->kswapd_sched_fds = xrealloc(s->kswapd_sched_fds, s->n_kswapd + 1, sizeof(int));
		free(path);
		path = xasprintf("/proc/%s/schedstat", de->d_name);
		s->kswapd_sched_fds[s->n_kswapd] = open(path, O_RDONLY | O_CLOEXEC);
		s->kswapd_fds[s->n_kswapd++] = fd;
	}
	log_info("sampler: %zu kswapd thread(s)", s->n_kswapd);
}

int sampler_new(struct agent *a, struct sampler **ret)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	size_t n_sources;
	const struct source *const *sources = sources_table(&n_sources);

	s->a = a;
	s->cap = 64 * 1024;
	s->buf = xcalloc(1, s->cap);
	s->clk_tck = sysconf(_SC_CLK_TCK);
	if (s->clk_tck <= 0)
		s->clk_tck = 100;
	find_kswapd(s);
	for (size_t i = 0; i < n_sources; i++) {
		const struct source *src = sources[i];
		const struct feed *feed = feed_of(src);

		if (feed && feed->wanted && !feed->wanted(a))
			continue;
		if ((src->multi_node || src->scope == SOURCE_NODE) &&
		    __builtin_popcountll(a->numa_nodes) < 2)
			continue;
		switch (src->scope) {
		case SOURCE_SYSTEM:
			add_instance(s, src, feed, "-", src->file, NULL);
			break;
		case SOURCE_MEMCG:
			for (size_t j = 0; j < a->n_memcgs; j++) {
				_cleanup_free_ char *path =
					src->file ? xasprintf("%s/%s", a->memcgs[j].path,
							      src->file) :
						    NULL;

				add_instance(s, src, feed, a->memcgs[j].name, path, NULL);
			}
			break;
		case SOURCE_WORKLOAD:
			for (size_t j = 0; j < a->n_wls; j++)
				add_instance(s, src, feed, a->wls[j].name, NULL, &a->wls[j]);
			break;
		case SOURCE_NODE:
			for (int j = 0; j < 64; j++) {
				_cleanup_free_ char *path = NULL;
				char *scope;

				if (!(a->numa_nodes & (1ull << j)))
					continue;
				scope = xasprintf("node%d", j);
				path = xasprintf("/sys/devices/system/node/node%d/%s", j,
						 src->file);
				add_instance(s, src, feed, scope, path, NULL);
				s->in[s->n_in - 1].node_scope = scope;
			}
			break;
		}
	}
	*ret = s;
	return 0;
}

int sampler_take(struct sampler *s)
{
	s->t_start = now_mono_ns();
	s->count = 0;
	channel_printf(s->a->ch, "sample %" PRIu64 " %" PRId64, s->seq, s->t_start);
	for (size_t i = 0; i < s->n_in; i++) {
		struct instance *in = &s->in[i];
		ssize_t n = 0;

		if (in->fd >= 0) {
			n = read_source_file(in->fd, &s->buf, &s->cap);
			if (n < 0) {
				if (!in->warned)
					log_warn("sampler: %s %s: read: %s", in->src->name,
						 in->scope, strerror((int)-n));
				in->warned = true;
				continue;
			}
		}
		if (in->feed)
			in->feed->emit(s, in, s->buf, (size_t)n);
		else
			emit_parsed(s, in, s->buf, (size_t)n);
	}
	channel_printf(s->a->ch, "end %" PRIu64 " %" PRIu64, s->seq, s->count);
	s->seq++;
	return channel_flush(s->a->ch);
}

const char *sampler_last_vmstat(const struct sampler *s, size_t *ret_len)
{
	*ret_len = s->vmstat_len;
	return s->vmstat;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_in; i++) {
		if (s->in[i].fd >= 0)
			close(s->in[i].fd);
		free(s->in[i].node_scope);
	}
	for (size_t i = 0; i < s->n_kswapd; i++) {
		close(s->kswapd_fds[i]);
		if (s->kswapd_sched_fds[i] >= 0)
			close(s->kswapd_sched_fds[i]);
	}
	free(s->kswapd_fds);
	free(s->kswapd_sched_fds);
	free(s->in);
	free(s->buf);
	free(s->vmstat);
	free(s);
}
