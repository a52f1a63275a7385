// SPDX-License-Identifier: GPL-2.0
/*
 * The working-set probe ('lrubench wss'): at each window boundary, for each
 * memcg running a workload, what the memcg touched since the last boundary,
 * by the methods run.conf's wss_methods names (drop or reclaim, not both):
 *
 *   gen      MGLRU aging. Writing "+ ID NODE MAX_SEQ 1 1" to lru_gen walks
 *            the memcg's page tables (force_scan 1: every PMD, no Bloom
 *            filter; can_swap 1: anon pages too with swap off), clears each
 *            accessed bit it finds and moves those folios into generation
 *            MAX_SEQ, then opens MAX_SEQ+1 (mm/vmscan.c walk_pte_range(),
 *            inc_max_seq()). Pages faulted in add to the youngest generation
 *            as well (folio_add_lru() in a fault sets active). So after the
 *            aging that ends a window, the generations opened since the
 *            aging that began it, but the new youngest, hold what was touched
 *            through page tables in the window. Not what read() touched: under
 *            MGLRU folio_mark_accessed() only counts references in the tiers,
 *            and new page-cache folios go to the oldest generations
 *            (lru_gen_add_folio()). MGLRU only.
 *   ref      clear_refs: "1" to /proc/PID/clear_refs of each process of the
 *            memcg clears the accessed bits (and PG_referenced) of its
 *            mapped pages; Referenced in /proc/PID/smaps at the end of the
 *            window counts what was touched since through page tables, by
 *            process (shared pages once per process). Any LRU.
 *   drop     "1" to /proc/sys/vm/drop_caches at the start of a window drops
 *            every clean page-cache page that is not mapped (fs/drop_caches.c,
 *            mm/truncate.c mapping_evict_folio()); the memcg's file pages at
 *            the end less those left after the drop are the file pages brought
 *            into the cache in the window: read() and its readahead, and pages
 *            faulted in for the first time. Mapped pages stay (a program's
 *            text is not evicted and read again), so what they touch is the
 *            gen or ref methods' file-mapped count. Global: one drop for
 *            every memcg. Any LRU.
 *   reclaim  instead of drop: with swap off memory.reclaim can only evict
 *            file pages; asking it for all of them at the start of a window
 *            leaves only the ones in use, and the memcg's file pages at the
 *            end are every file page touched in the window, mapped or not,
 *            plus those survivors, plus what faulting the evicted text back
 *            read around it. Per memcg. Any LRU; the campaign turns swap off
 *            (harness/analysis/wss.c).
 * File pages are counted from lru_gen (exact) under MGLRU, else from
 * memory.stat active_file + inactive_file (flushed lazily: off by up to a few
 * hundred pages). Beside them, the read() calls of the memcg's processes in
 * the file window (syscr of /proc/PID/io): a workload's own count of its
 * accesses when each is one read() (fio's psync), for the host's models.
 *
 * Order at a boundary: every memcg's file pages and read() calls counted
 * (the end of the file window), the drop, every memcg's memory.reclaim (for
 * reclaim) and its file pages counted again (the start of the next); then
 * per memcg smaps read, aging, clear_refs, lru_gen read. memory.reclaim ages
 * too, and with swap off inc_max_seq() bumps the anon min_seq without moving
 * its folios, so old anon pages reappear in the youngest generation: the
 * host never asks for gen with reclaim (harness/analysis/wss.c). Each method's window
 * runs from its own start mark to its own end mark; the results of a window
 * wait for the next sample, which agent.c takes at once.
 */
#include "agent.h"
#include "procfs-parse.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <string.h>

#define NS_PER_MS 1000000LL

struct wss_result {
	uint64_t window;
	int64_t gen_window_ns, ref_window_ns, file_window_ns;
	uint64_t gen_anon, gen_file;
	uint64_t ref_anon, ref_file, ref_procs;
	uint64_t file, file_left; /* the drop or reclaim method's pages */
	int64_t file_ns, step_ns;
	int64_t reads;		/* read() calls of the memcg's processes (syscr), -1 unknown */
};

struct wss_memcg {
	const struct memcg *m;
	char *lru_path;		/* "/NAME", as lru_gen prints it */
	struct procfs_lru_gen_memcg gen_prev;
	int64_t gen_t, ref_t, file_t; /* each method's window start */
	uint64_t file_left;	/* file pages right after the last drop or reclaim */
	int64_t file_ns;	/* how long it took */
	uint64_t file_end;	/* file pages at this boundary, before the drop */
	int64_t syscr;		/* read() calls at the file window's start, -1 unknown */
	bool pending;		/* out holds a window not yet sent */
	struct wss_result out;
	bool warned;
};

struct wss_probe {
	struct agent *a;
	unsigned methods;
	int64_t first;		/* boundary 0 */
	uint64_t next_k;	/* the next boundary's number */
	struct wss_memcg *mc;
	size_t n;
	uint64_t page;
};

static void probe_warn(struct wss_probe *p, struct wss_memcg *w, const char *what, int err)
{
	if (w->warned)
		return;
	w->warned = true;
	channel_event(p->a->ch, "error", "wss %s: %s: %s", w->m->name, what, strerror(-err));
}

/* Read a (pseudo) file of any length; 0 or -errno. */
static int slurp(const char *path, char **ret, size_t *ret_len)
{
	return read_file(path, 64u << 20, ret, ret_len);
}

static int lru_gen_read(const struct wss_memcg *w, struct procfs_lru_gen_memcg *ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = slurp(LRU_GEN_DEBUGFS, &buf, &len);

	if (r < 0)
		return r;
	return procfs_lru_gen_memcg(buf, len, w->lru_path, ret, NULL);
}

/* Pages on the memcg's file LRU: lru_gen's (exact) under MGLRU, else memory.stat's. */
struct file_kv {
	uint64_t bytes;
	bool seen;
};

static int file_kv(void *arg, const char *key, size_t key_len, int64_t v)
{
	struct file_kv *f = arg;

	if ((key_len == 11 && !memcmp(key, "active_file", 11)) ||
	    (key_len == 13 && !memcmp(key, "inactive_file", 13))) {
		f->bytes += v > 0 ? (uint64_t)v : 0;
		f->seen = true;
	}
	return 0;
}

static int file_pages(struct wss_probe *p, const struct wss_memcg *w, uint64_t *ret)
{
	_cleanup_free_ char *buf = NULL, *path = NULL;
	struct file_kv f = { 0 };
	size_t len;
	int r;

	if (p->a->sample_lru_gen) {
		struct procfs_lru_gen_memcg m;
		uint64_t anon;

		r = lru_gen_read(w, &m);
		if (r < 0)
			return r;
		procfs_lru_gen_total(&m, &anon, ret);
		return 0;
	}
	path = xasprintf("%s/memory.stat", w->m->path);
	r = slurp(path, &buf, &len);
	if (r < 0)
		return r;
	procfs_parse_flat(buf, len, file_kv, &f, NULL);
	if (!f.seen)
		return -EINVAL;
	*ret = f.bytes / p->page;
	return 0;
}

/* The pids of the memcg (cgroup.procs); *ret_n 0 if none. */
static int memcg_pids(const struct wss_memcg *w, pid_t **ret, size_t *ret_n)
{
	_cleanup_free_ char *buf = NULL, *path = xasprintf("%s/cgroup.procs", w->m->path);
	pid_t *pids = NULL;
	size_t len, n = 0;
	char *save = NULL;
	int r = slurp(path, &buf, &len);

	if (r < 0)
		return r;
	for (char *t = strtok_r(buf, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
		int64_t v;

		if (parse_i64(t, &v) < 0 || v <= 0 || v > INT32_MAX)
			continue;
		pids = xrealloc(pids, n + 1, sizeof(*pids));
		pids[n++] = (pid_t)v;
	}
	*ret = pids;
	*ret_n = n;
	return 0;
}

/* fn for every process of the memcg (one gone meanwhile is its own business). */
static void each_pid(struct wss_probe *p, struct wss_memcg *w,
		     void (*fn)(struct wss_probe *p, struct wss_memcg *w, pid_t pid, void *arg),
		     void *arg)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r = memcg_pids(w, &pids, &n);

	if (r < 0) {
		probe_warn(p, w, "cgroup.procs", r);
		return;
	}
	for (size_t i = 0; i < n; i++)
		fn(p, w, pids[i], arg);
}

/* Referenced pages of a process, added to the window's result. */
static void ref_read(struct wss_probe *p, struct wss_memcg *w, pid_t pid, void *arg)
{
	_cleanup_free_ char *path = xasprintf("/proc/%d/smaps", (int)pid), *buf = NULL;
	struct wss_result *o = arg;
	struct procfs_smaps_ref s;
	size_t len;

	(void)w;
	if (slurp(path, &buf, &len) < 0 || procfs_parse_smaps_ref(buf, len, &s, NULL) < 0)
		return;
	o->ref_anon += s.anon_kb * 1024 / p->page;
	o->ref_file += s.file_kb * 1024 / p->page;
	o->ref_procs++;
}

static void ref_clear(struct wss_probe *p, struct wss_memcg *w, pid_t pid, void *arg)
{
	_cleanup_free_ char *path = xasprintf("/proc/%d/clear_refs", (int)pid);
	int r = write_file(path, "1");

	(void)arg;
	if (r < 0 && r != -ENOENT && r != -ESRCH)
		probe_warn(p, w, "clear_refs", r);
}

/* One aging per node, at the max_seq lru_gen shows now; a race (EINVAL) is tried again. */
static int age(const struct wss_memcg *w)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		struct procfs_lru_gen_memcg m;
		int r = lru_gen_read(w, &m);

		if (r < 0)
			return r;
		for (size_t i = 0; i < m.n_nodes; i++) {
			_cleanup_free_ char *cmd = xasprintf(
				"+ %u %d %" PRIu64 " 1 1", m.memcg_id, m.node[i].node,
				procfs_lru_gen_max_seq(&m.node[i]));

			r = write_file(LRU_GEN_DEBUGFS, cmd);
			if (r < 0)
				break;
		}
		if (r != -EINVAL)
			return r;
	}
	return -EINVAL;
}

/* The memcg's read() calls so far: syscr of /proc/PID/io summed; -1 if unknown. */
static int64_t memcg_syscr(const struct wss_memcg *w)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int64_t sum = 0;

	if (memcg_pids(w, &pids, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = xasprintf("/proc/%d/io", (int)pids[i]), *buf = NULL;
		char *at, *end;

		if (read_file(path, 4096, &buf, NULL) < 0)
			continue; /* gone meanwhile */
		at = strstr(buf, "syscr: ");
		if (!at)
			return -1;
		sum += strtoll(at + 7, &end, 10);
		if (end == at + 7)
			return -1;
	}
	return sum;
}

/* The start of a file window: memory.reclaim of every file page (method reclaim; the drop
 * is global, before this), then what is left. */
static void file_window_start(struct wss_probe *p, struct wss_memcg *w)
{
	bool file = p->methods & (WSS_RECLAIM | WSS_DROP);

	if (p->methods & WSS_RECLAIM) {
		_cleanup_free_ char *path = xasprintf("%s/memory.reclaim", w->m->path);
		_cleanup_free_ char *amount = xasprintf("%" PRIu64, (w->file_end + 1) * p->page);
		int64_t t = now_mono_ns();
		int r = write_file(path, amount);

		/* EAGAIN: it could not evict all of it (pages in use): what is left is counted */
		if (r < 0 && r != -EAGAIN)
			probe_warn(p, w, "memory.reclaim", r);
		w->file_ns = now_mono_ns() - t;
	}
	if (file && file_pages(p, w, &w->file_left) < 0)
		w->file_left = 0;
	w->syscr = memcg_syscr(w);
	w->file_t = now_mono_ns();
}

/* The end of the file window (every memcg first, before the drop). */
static void file_window_end(struct wss_probe *p, struct wss_memcg *w, struct wss_result *o)
{
	int64_t syscr = memcg_syscr(w);
	uint64_t end = 0;
	int r = p->methods & (WSS_RECLAIM | WSS_DROP) ? file_pages(p, w, &end) : 0;

	if (r < 0)
		probe_warn(p, w, "file pages", r);
	o->file_window_ns = now_mono_ns() - w->file_t;
	/* reclaim: every page counted; drop: those brought in since the drop */
	o->file = !(p->methods & WSS_DROP) ? end : end > w->file_left ? end - w->file_left : 0;
	o->file_left = w->file_left;
	o->file_ns = w->file_ns;
	w->file_end = end;
	o->reads = syscr >= 0 && w->syscr >= 0 && syscr >= w->syscr ? syscr - w->syscr : -1;
}

/* The page-table methods (after the file window started). */
static void boundary(struct wss_probe *p, struct wss_memcg *w, uint64_t k, struct wss_result *o)
{
	int64_t t0 = now_mono_ns(), t;
	int r;

	if (p->methods & WSS_REF) {
		t = now_mono_ns();
		if (k)
			each_pid(p, w, ref_read, o);
		o->ref_window_ns = t - w->ref_t;
	}
	if (p->methods & WSS_GEN) {
		struct procfs_lru_gen_memcg cur;

		t = now_mono_ns();
		r = age(w);
		if (r == 0)
			r = lru_gen_read(w, &cur);
		if (r < 0) {
			probe_warn(p, w, "lru_gen aging", r);
		} else {
			if (k)
				procfs_lru_gen_window(&w->gen_prev, &cur, &o->gen_anon, &o->gen_file);
			w->gen_prev = cur;
		}
		o->gen_window_ns = t - w->gen_t;
		w->gen_t = t;
	}
	if (p->methods & WSS_REF) {
		each_pid(p, w, ref_clear, NULL);
		w->ref_t = now_mono_ns();
	}
	o->step_ns += now_mono_ns() - t0;
}

int wss_probe_new(struct agent *a, int64_t t0, struct wss_probe **ret)
{
	const struct agent_conf *c = a->conf;
	struct wss_probe *p;

	*ret = NULL;
	if (!c->wss_methods)
		return 0;
	if ((c->wss_methods & WSS_GEN) && !a->sample_lru_gen) {
		channel_event(a->ch, "error", "wss: method gen needs MGLRU (lru_gen) on: not run");
		return -ENOTSUP;
	}
	p = xcalloc(1, sizeof(*p));
	p->a = a;
	p->methods = c->wss_methods;
	p->first = t0 + (int64_t)c->wss_start_ms * NS_PER_MS;
	p->page = (uint64_t)sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < a->n_memcgs; i++) {
		bool used = false;

		for (size_t j = 0; j < a->n_wls; j++)
			used |= a->wls[j].memcg == &a->memcgs[i];
		if (!used)
			continue;
		p->mc = xrealloc(p->mc, p->n + 1, sizeof(*p->mc));
		p->mc[p->n++] = (struct wss_memcg){
			.m = &a->memcgs[i],
			.lru_path = xasprintf("/%s", a->memcgs[i].name),
			.syscr = -1,
		};
	}
	channel_event(a->ch, "phase",
		      "wss methods 0x%x start_ms %" PRIu64 " window_ms %" PRIu64 " windows %" PRIu64
		      " memcgs %zu",
		      p->methods, c->wss_start_ms, c->wss_window_ms, c->wss_windows, p->n);
	*ret = p;
	return 0;
}

int64_t wss_probe_deadline(const struct wss_probe *p)
{
	const struct agent_conf *c;

	if (!p)
		return -1;
	c = p->a->conf;
	if (p->next_k > c->wss_windows)
		return -1;
	return p->first + (int64_t)(p->next_k * c->wss_window_ms) * NS_PER_MS;
}

bool wss_probe_step(struct wss_probe *p, int64_t now)
{
	int64_t due = wss_probe_deadline(p), drop_ns = 0;
	_cleanup_free_ struct wss_result *o = NULL;
	uint64_t k = p->next_k;

	if (due < 0 || now < due)
		return false;
	o = xcalloc(p->n ? p->n : 1, sizeof(*o));
	/* every memcg's file window ends, the drop, every next one starts: close together */
	for (size_t i = 0; i < p->n; i++) {
		int64_t t = now_mono_ns();

		o[i].window = k;
		file_window_end(p, &p->mc[i], &o[i]);
		o[i].step_ns = now_mono_ns() - t;
	}
	if (p->methods & WSS_DROP) {
		int64_t t = now_mono_ns();
		int r = write_file("/proc/sys/vm/drop_caches", "1");

		if (r < 0 && p->n)
			probe_warn(p, &p->mc[0], "drop_caches", r);
		drop_ns = now_mono_ns() - t;
	}
	for (size_t i = 0; i < p->n; i++) {
		p->mc[i].file_ns = drop_ns;
		file_window_start(p, &p->mc[i]);
	}
	for (size_t i = 0; i < p->n; i++) {
		boundary(p, &p->mc[i], k, &o[i]);
		if (k) {
			p->mc[i].out = o[i];
			p->mc[i].pending = true;
		}
	}
	if (k == 0 || k == p->a->conf->wss_windows)
		channel_event(p->a->ch, "phase", "wss boundary %" PRIu64 " of %" PRIu64, k,
			      p->a->conf->wss_windows);
	p->next_k++;
	return true;
}

void wss_probe_emit(struct wss_probe *p, const char *memcg,
		    void (*fn)(void *arg, const char *key, int64_t value), void *arg)
{
	struct wss_memcg *w = NULL;
	const struct wss_result *o;

	for (size_t i = 0; p && i < p->n && !w; i++)
		if (!strcmp(p->mc[i].m->name, memcg))
			w = &p->mc[i];
	if (!w || !w->pending)
		return;
	o = &w->out;
	w->pending = false;
	fn(arg, "window", (int64_t)o->window);
	fn(arg, "step_ns", o->step_ns);
	if (p->methods & WSS_GEN) {
		fn(arg, "gen.window_ns", o->gen_window_ns);
		fn(arg, "gen.anon", (int64_t)o->gen_anon);
		fn(arg, "gen.file", (int64_t)o->gen_file);
	}
	if (p->methods & WSS_REF) {
		fn(arg, "ref.window_ns", o->ref_window_ns);
		fn(arg, "ref.anon", (int64_t)o->ref_anon);
		fn(arg, "ref.file", (int64_t)o->ref_file);
		fn(arg, "ref.procs", (int64_t)o->ref_procs);
	}
	if (p->methods & (WSS_RECLAIM | WSS_DROP)) {
		const char *m = p->methods & WSS_DROP ? "drop" : "reclaim";
		char key[32];

		snprintf(key, sizeof(key), "%s.window_ns", m);
		fn(arg, key, o->file_window_ns);
		snprintf(key, sizeof(key), "%s.file", m);
		fn(arg, key, (int64_t)o->file);
		snprintf(key, sizeof(key), "%s.left", m);
		fn(arg, key, (int64_t)o->file_left);
		snprintf(key, sizeof(key), "%s.ns", m);
		fn(arg, key, o->file_ns);
	}
	if (o->reads >= 0) {
		fn(arg, "reads", o->reads);
		fn(arg, "reads.window_ns", o->file_window_ns);
	}
}

void wss_probe_free(struct wss_probe *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->mc[i].lru_path);
	free(p->mc);
	free(p);
}
