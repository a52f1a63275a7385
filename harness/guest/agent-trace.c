// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim latency from the vmscan tracepoints (run.conf trace=reclaim).
 *
 * Each reclaim path of reclaim-paths.c has a begin and an end tracepoint.
 * For every CPU and tracepoint the tracer opens a perf event counting every
 * hit system-wide (pid -1, raw perf_event_open: libperf's evsel cannot take
 * a cpu-wide tracepoint with the flags needed here), with the task, a
 * CLOCK_MONOTONIC time and, where the kernel can (CONFIG_CGROUP_PERF), the
 * task's cgroup id in each record. The events of a CPU share one mmap'd
 * ring (PERF_EVENT_IOC_SET_OUTPUT); the agent drains every ring when a
 * quarter of it has filled (the ring's fd polls readable) and at each
 * sample. Nothing per event crosses the channel: records are paired per
 * task into durations (stall-pair.c) and the sampler sends cumulative
 * histograms per memcg and path (PROTOCOL.md, source reclaim).
 *
 * A record is the task's memcg's when the task runs in one of the run's
 * memcgs or below it: by the cgroup id in the record (compared with the
 * inode numbers of the memcg directories and their descendants), or else by
 * /proc/TID/cgroup, read once per task. Lost records (a full ring) are
 * counted and sent.
 *
 * A kernel without tracefs or the tracepoints, or where perf refuses them,
 * gets a "skip" event naming why; the run goes on without histograms.
 */
#include "agent.h"
#include "perf-ring.h"
#include "stall-pair.h"
#include "trace-events.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#define RING_PAGES 128 /* data pages per CPU: 512 KiB, about 13000 records */
#define WRAP_BYTES (64 * 1024)
#define TID_CACHE 1024
#define CGROUP_WALK_DEPTH 8
/* An end whose begin has not come within this long lost it. */
#define ORPHAN_TTL_NS (2 * 1000000000LL)
#define BASE_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

struct trace_id {
	uint64_t id; /* PERF_EVENT_IOC_ID */
	uint8_t path;
	bool begin;
};

struct trace_ring {
	int fd; /* the event that owns the mmap; the CPU's others write into it */
	void *base;
	size_t len;
	uint64_t head; /* data_head read at the start of a drain */
};

struct cg_scope {
	uint64_t id; /* cgroup id: the inode number of its directory */
	int scope;
};

struct tid_scope {
	uint32_t tid; /* 0: empty */
	int32_t scope;
};

struct tracer {
	struct agent *a;
	uint64_t sample_type;
	size_t page;
	struct trace_ring *rings;
	size_t nrings;
	int *fds;
	size_t nfds;
	struct trace_id *ids;
	size_t nids;
	bool traced[RECLAIM_PATHS];
	struct cg_scope *cg;
	size_t ncg;
	bool walked; /* the cgroup tree was walked again in this drain */
	struct tid_scope tids[TID_CACHE];
	struct stall_pairs *sp;
	struct stall_event *batch;
	size_t nbatch, cap;
	void *wrap;
	bool no_poll; /* a ring's fd reported an error: drained at samples only */
	uint64_t lost, records, drains, bad_records;
	int64_t cpu_ns;
};

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static int64_t cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void tracer_free(struct tracer *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrings; i++)
		if (t->rings[i].base)
			munmap(t->rings[i].base, t->rings[i].len);
	for (size_t i = 0; i < t->nfds; i++)
		close(t->fds[i]);
	free(t->rings);
	free(t->fds);
	free(t->ids);
	free(t->cg);
	free(t->batch);
	free(t->wrap);
	stall_pairs_free(t->sp);
	free(t);
}

static void tracer_freep(struct tracer **t)
{
	tracer_free(*t);
}

/* The memcg index of a top-level cgroup name, or STALL_SCOPE_NONE. */
static int memcg_scope(const struct agent *a, const char *name, size_t len)
{
	for (size_t i = 0; i < a->n_memcgs; i++)
		if (strlen(a->memcgs[i].name) == len && !memcmp(a->memcgs[i].name, name, len))
			return (int)i;
	return STALL_SCOPE_NONE;
}

static void cg_add(struct tracer *t, uint64_t id, int scope)
{
	for (size_t i = 0; i < t->ncg; i++)
		if (t->cg[i].id == id) {
			t->cg[i].scope = scope;
			return;
		}
	t->cg = xrealloc(t->cg, t->ncg + 1, sizeof(*t->cg));
	t->cg[t->ncg++] = (struct cg_scope){ id, scope };
}

/* Every cgroup directory at and below path as scope's (app-switch makes children). */
static void cg_walk(struct tracer *t, const char *path, int scope, int depth)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	cg_add(t, (uint64_t)st.st_ino, scope);
	if (depth >= CGROUP_WALK_DEPTH || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *sub = NULL;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		cg_walk(t, sub, scope, depth + 1);
	}
}

static void cg_walk_all(struct tracer *t)
{
	for (size_t i = 0; i < t->a->n_memcgs; i++)
		cg_walk(t, t->a->memcgs[i].path, (int)i, 0);
}

static int scope_by_cgroup(struct tracer *t, uint64_t id)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->ncg; i++)
			if (t->cg[i].id == id)
				return t->cg[i].scope;
		/* a cgroup made since the last walk: walk once per drain */
		if (t->walked)
			break;
		t->walked = true;
		cg_walk_all(t);
	}
	cg_add(t, id, STALL_SCOPE_NONE);
	return STALL_SCOPE_NONE;
}

/* /proc/TID/cgroup on cgroup v2 reads "0::/NAME/...": the memcg is NAME's. */
static int scope_by_proc(struct tracer *t, uint32_t tid)
{
	struct tid_scope *c = &t->tids[tid % TID_CACHE];
	_cleanup_free_ char *path = NULL, *text = NULL;
	int scope = STALL_SCOPE_NONE;
	const char *p;

	if (c->tid == tid)
		return c->scope;
	path = xasprintf("/proc/%" PRIu32 "/cgroup", tid);
	if (read_file(path, 4096, &text, NULL) == 0 && (p = strstr(text, "0::/"))) {
		p += 4;
		scope = memcg_scope(t->a, p, strcspn(p, "/\n"));
	}
	*c = (struct tid_scope){ tid, scope };
	return scope;
}

static void on_record(void *arg, const void *rec, size_t len)
{
	struct tracer *t = arg;
	const struct perf_event_header *h = rec;
	struct perf_sample_min s;
	const struct trace_id *id = NULL;
	struct stall_event *ev;
	uint64_t lost;

	if (h->type == PERF_RECORD_LOST) {
		if (perf_lost_decode(rec, len, &lost) == 0)
			t->lost += lost;
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (perf_sample_decode(rec, len, t->sample_type, &s) < 0) {
		t->bad_records++;
		return;
	}
	for (size_t i = 0; i < t->nids && !id; i++)
		if (t->ids[i].id == s.id)
			id = &t->ids[i];
	if (!id) {
		t->bad_records++;
		return;
	}
	t->records++;
	if (t->nbatch == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->batch = xrealloc(t->batch, t->cap, sizeof(*t->batch));
	}
	ev = &t->batch[t->nbatch++];
	*ev = (struct stall_event){ .t = s.time, .tid = s.tid, .path = id->path, .begin = id->begin };
	/* the end decides where a duration counts */
	ev->scope = id->begin			? STALL_SCOPE_NONE :
		    t->sample_type & PERF_SAMPLE_CGROUP ? scope_by_cgroup(t, s.cgroup) :
							  scope_by_proc(t, s.tid);
}

static void drain(struct tracer *t)
{
	uint64_t now = (uint64_t)now_mono_ns();

	t->nbatch = 0;
	t->walked = false;
	/* every ring's head first, so that the rings are read as of one moment */
	for (size_t i = 0; i < t->nrings; i++) {
		struct perf_event_mmap_page *m = t->rings[i].base;

		t->rings[i].head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	}
	for (size_t i = 0; i < t->nrings; i++) {
		struct perf_event_mmap_page *m = t->rings[i].base;
		uint64_t tail = m->data_tail;
		uint64_t head = t->rings[i].head;
		uint64_t end = perf_ring_read((char *)m + t->page, RING_PAGES * t->page, tail, head,
					      t->wrap, on_record, t);

		if (end != head)
			t->bad_records++;
		__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	}
	stall_pairs_feed_batch(t->sp, t->batch, t->nbatch);
	if (now > ORPHAN_TTL_NS)
		stall_pairs_expire(t->sp, now - ORPHAN_TTL_NS);
	t->drains++;
}

void tracer_drain(struct tracer *t)
{
	int64_t c0 = cpu_now();

	drain(t);
	t->cpu_ns += cpu_now() - c0;
}

size_t tracer_nfds(const struct tracer *t)
{
	return t && !t->no_poll ? t->nrings : 0;
}

size_t tracer_pollfds(const struct tracer *t, struct pollfd *pfd)
{
	for (size_t i = 0; i < tracer_nfds(t); i++)
		pfd[i] = (struct pollfd){ .fd = t->rings[i].fd, .events = POLLIN };
	return tracer_nfds(t);
}

bool tracer_owns_fd(const struct tracer *t, int fd)
{
	for (size_t i = 0; i < tracer_nfds(t); i++)
		if (t->rings[i].fd == fd)
			return true;
	return false;
}

void tracer_poll_error(struct tracer *t, short revents)
{
	/* a dead event (its CPU went away) polls ready for ever: stop polling, keep sampling */
	t->no_poll = true;
	channel_event(t->a->ch, "error",
		      "trace reclaim: a ring's fd polled 0x%x; rings are read at each sample only "
		      "from now on",
		      (unsigned)revents);
}

static void emit_hist(const struct loghist *h, const char *scope, const char *path,
		      tracer_value_fn fn, void *arg)
{
	char key[64];

	snprintf(key, sizeof(key), "count.%s", path);
	fn(arg, scope, key, (int64_t)h->n);
	snprintf(key, sizeof(key), "total_ns.%s", path);
	fn(arg, scope, key, h->sum > INT64_MAX ? INT64_MAX : (int64_t)h->sum);
	for (unsigned i = 0; i < LOGHIST_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		snprintf(key, sizeof(key), "hist.%s.%" PRIu64, path, loghist_lower(i));
		fn(arg, scope, key, (int64_t)h->count[i]);
	}
}

void tracer_emit(struct tracer *t, tracer_value_fn fn, void *arg)
{
	int64_t c0 = cpu_now();
	const struct stall_pair_stats *ps;

	drain(t);
	ps = stall_pairs_stats(t->sp);
	for (int scope = STALL_SCOPE_NONE; scope < (int)t->a->n_memcgs; scope++) {
		const char *name = scope < 0 ? "-" : t->a->memcgs[scope].name;

		for (unsigned p = 0; p < RECLAIM_PATHS; p++)
			if (t->traced[p] && (scope < 0 || reclaim_paths[p].per_memcg))
				emit_hist(stall_pairs_hist(t->sp, scope, p), name,
					  reclaim_paths[p].name, fn, arg);
	}
	fn(arg, "-", "records", (int64_t)t->records);
	fn(arg, "-", "lost", (int64_t)t->lost);
	fn(arg, "-", "unpaired", (int64_t)(ps->restarted + ps->orphans + ps->backwards));
	fn(arg, "-", "bad_records", (int64_t)t->bad_records);
	fn(arg, "-", "drains", (int64_t)t->drains);
	fn(arg, "-", "open", (int64_t)stall_pairs_open(t->sp));
	t->cpu_ns += cpu_now() - c0;
	fn(arg, "-", "cpu_ns", t->cpu_ns);
}

/* Open one tracepoint on one CPU; the CPU's first event gets the ring. */
static int open_event(struct tracer *t, uint64_t config, int cpu, struct trace_ring *ring,
		      uint64_t *ret_id)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = config,
		.sample_period = 1,
		.sample_type = t->sample_type,
		.disabled = 1,
		.watermark = 1,
		.wakeup_watermark = (uint32_t)(RING_PAGES * t->page / 4),
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	int fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	t->fds = xrealloc(t->fds, t->nfds + 1, sizeof(int));
	t->fds[t->nfds++] = fd;
	if (ring->fd < 0) {
		ring->len = (RING_PAGES + 1) * t->page;
		ring->base = mmap(NULL, ring->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (ring->base == MAP_FAILED) {
			ring->base = NULL;
			return -errno;
		}
		ring->fd = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) < 0) {
		return -errno;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, ret_id) < 0)
		return -errno;
	return 0;
}

/*
 * Every traced tracepoint on one CPU, into one ring. -ENODEV: an offline
 * CPU (nothing kept); other errors name the tracepoint in why.
 */
static int open_cpu(struct tracer *t, int cpu, uint64_t ids[RECLAIM_PATHS][2], char *why,
		    size_t why_len)
{
	struct trace_ring ring = { .fd = -1 };
	size_t nids = t->nids;

	for (unsigned p = 0; p < RECLAIM_PATHS; p++) {
		for (int b = 0; b < 2 && t->traced[p]; b++) {
			uint64_t id = 0;
			int r = open_event(t, ids[p][b], cpu, &ring, &id);

			if (r < 0) {
				if (ring.base)
					munmap(ring.base, ring.len);
				t->nids = nids;
				if (r == -ENODEV && ring.fd < 0)
					return r;
				snprintf(why, why_len, "perf_event_open(vmscan:%s) on cpu %d: %s",
					 b ? reclaim_paths[p].end_tp : reclaim_paths[p].begin_tp, cpu,
					 strerror(-r));
				return r;
			}
			t->ids = xrealloc(t->ids, t->nids + 1, sizeof(*t->ids));
			t->ids[t->nids++] = (struct trace_id){ id, (uint8_t)p, !b };
		}
	}
	t->rings = xrealloc(t->rings, t->nrings + 1, sizeof(*t->rings));
	t->rings[t->nrings++] = ring;
	return 0;
}

/* Every CPU, then enable; why names the first failure. */
static int open_all(struct tracer *t, uint64_t ids[RECLAIM_PATHS][2], char *why, size_t why_len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (int cpu = 0; cpu < ncpu; cpu++) {
		int r = open_cpu(t, cpu, ids, why, why_len);

		if (r < 0 && r != -ENODEV)
			return r;
	}
	if (!t->nrings) {
		snprintf(why, why_len, "no CPU took a tracepoint event");
		return -ENODEV;
	}
	for (size_t i = 0; i < t->nfds; i++)
		if (ioctl(t->fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0) {
			snprintf(why, why_len, "PERF_EVENT_IOC_ENABLE: %s", strerror(errno));
			return -errno;
		}
	return 0;
}

/* Close what a failed attempt opened, keeping the rest of the tracer. */
static void close_all(struct tracer *t)
{
	for (size_t i = 0; i < t->nrings; i++)
		if (t->rings[i].base)
			munmap(t->rings[i].base, t->rings[i].len);
	for (size_t i = 0; i < t->nfds; i++)
		close(t->fds[i]);
	t->nrings = t->nfds = t->nids = 0;
}

int tracer_start(struct agent *a, struct tracer **ret)
{
	_cleanup_(tracer_freep) struct tracer *t = xcalloc(1, sizeof(*t));
	uint64_t ids[RECLAIM_PATHS][2];
	char why[256] = "";
	char paths[128] = "";
	int n, r;

	*ret = NULL;
	n = trace_reclaim_ids(trace_roots, ARRAY_SIZE(trace_roots), ids, why, sizeof(why));
	if (n <= 0) {
		channel_event(a->ch, "skip", "trace reclaim: %s; the run goes on without stall "
					     "histograms",
			      n < 0 ? why : "the kernel has none of the vmscan reclaim tracepoints");
		return 0;
	}
	t->a = a;
	t->page = (size_t)sysconf(_SC_PAGESIZE);
	for (unsigned p = 0; p < RECLAIM_PATHS; p++) {
		t->traced[p] = ids[p][0] && ids[p][1];
		if (!t->traced[p])
			channel_event(a->ch, "skip", "trace reclaim %s: no tracepoint vmscan:%s",
				      reclaim_paths[p].name,
				      ids[p][0] ? reclaim_paths[p].end_tp : reclaim_paths[p].begin_tp);
		else
			snprintf(paths + strlen(paths), sizeof(paths) - strlen(paths), "%s%s",
				 *paths ? " " : "", reclaim_paths[p].name);
	}
	/* the task's cgroup in each record needs CONFIG_CGROUP_PERF: EINVAL without */
	t->sample_type = BASE_SAMPLE_TYPE | PERF_SAMPLE_CGROUP;
	r = open_all(t, ids, why, sizeof(why));
	if (r == -EINVAL) {
		close_all(t);
		t->sample_type = BASE_SAMPLE_TYPE;
		r = open_all(t, ids, why, sizeof(why));
	}
	if (r < 0) {
		channel_event(a->ch, "skip", "trace reclaim: %s; the run goes on without stall "
					     "histograms",
			      why);
		return 0;
	}
	stall_pairs_new(a->n_memcgs, &t->sp);
	t->wrap = xcalloc(1, WRAP_BYTES);
	if (t->sample_type & PERF_SAMPLE_CGROUP)
		cg_walk_all(t);
	channel_record(a->ch, "conf trace/reclaim %s", paths);
	channel_record(a->ch, "conf trace/attribution %s",
		       t->sample_type & PERF_SAMPLE_CGROUP ? "cgroup-id" : "proc");
	channel_record(a->ch, "conf trace/ring_kb %zu", RING_PAGES * t->page / 1024 * t->nrings);
	*ret = TAKE_PTR(t);
	return 0;
}
