// SPDX-License-Identifier: GPL-2.0
/*
 * app-switch: a phone's or a desktop's app switching (C5). The plan's memcg
 * is the machine's memory; inside it this workload makes one child memcg
 * per app (MEMCG/app0 .. appK-1; itself moves to MEMCG/ctl, since cgroup v2
 * lets a memcg with children hold no processes) and starts the apps one
 * after another, as they are launched. Each app is a process in its memcg
 * with an anon set (written) and a file set on the scratch disk (mmap'd,
 * read), all of it touched at launch. Together they exceed the memcg.
 *
 * Then the foreground rotates, oldest first, every period: the new
 * foreground re-touches its whole set (the switch latency: the time to be
 * usable again; its major faults are retouch_majflt), then accesses it at
 * random (Zipf) until it goes to the background; background apps are idle.
 * An LRU that knows nothing of foreground and background evicts what the
 * next foreground needs. The common shape is the foreground's page accesses.
 *
 * Neither LRU has a notion of foreground; Android and ChromeOS give it one
 * from outside, protecting the foreground's memcg. protect=fg does that:
 * memory.low of the foreground app's memcg is its whole set while it is in
 * the foreground, 0 once it leaves. warmup switches at the start (e.g. the
 * first round, right after the launches) are run but not measured.
 *
 * The client scenario (#26: Android's app launches, ChromeOS's tab
 * switches) adds two things, both off by default:
 * - order=zipf: the next foreground is drawn from a Zipf law over the apps
 *   (app0 the most used), never the current one, from the seed alone, so
 *   both LRUs see the same script of launches.
 * - killer=psi: a low-memory killer as lmkd runs one. A PSI trigger on the
 *   plan's memcg ("some kill-stall per 1 s window", lmkd's partial-stall
 *   default 70 ms) fires; the killer then SIGKILLs the running background
 *   app used least recently (never the foreground, nor the app launching).
 *   A killed app's next foreground turn is a cold launch: a new process
 *   maps its file set again (still on disk, perhaps still in the page
 *   cache: that is what the LRU decides) and writes a new anon set. The
 *   policy is this paragraph, identical under both LRUs.
 * A foreground turn of a running app is a warm launch (switch_*), of a
 * stopped one a cold launch (launch_cold_*, with the refaults of the app's
 * memcg during it). Each launch and kill is also a mark (an event over time).
 */
#include "wl-def.h"

struct opts {
	uint64_t apps;
	uint64_t app_anon;
	uint64_t app_file;
	uint64_t period_ms;
	uint64_t switches;
	uint64_t warmup;
	const char *protect;
	const char *order;
	double order_theta;
	const char *killer;
	uint64_t kill_stall_ms;
	double theta;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(app_switch) = {
	WL_NAME("app-switch"),
	.claims = "C5",
	.decides = "switch_p50 fg_majflt",
	.description = "K apps, each in its own child memcg (MEMCG/app0..) with anon and file "
		       "sets; the foreground moves every period (oldest first, or drawn by use); "
		       "killer=psi adds an lmkd-style low-memory killer and cold launches; one op "
		       "= one foreground page access",
	.params = (const struct wl_param[]){
		PARAM_U64("apps", apps, "4", "apps (child memcgs)"),
		PARAM_SIZE("app-anon", app_anon, NULL,
			   "anon set per app (bytes, or Nx memory.max)"),
		PARAM_SIZE("app-file", app_file, NULL, "file set per app, mmap'd"),
		PARAM_DURATION("period", period_ms, "5s", "time in the foreground"),
		PARAM_U64("switches", switches, NULL, "foreground switches (default 2 x apps)"),
		PARAM_U64("warmup", warmup, "0", "switches at the start run but not measured"),
		PARAM_CHOICE("protect", protect, "none", "none|fg",
			     "memory.low of the foreground app's memcg: its whole set (fg)"),
		PARAM_CHOICE("order", order, "rotate", "rotate|zipf",
			     "next foreground: the oldest (rotate) or drawn by use (zipf)"),
		PARAM_FRACTION("order-theta", order_theta, "0.8", 0, 0.9999,
			       "Zipf skew of the apps' use with order=zipf"),
		PARAM_CHOICE("killer", killer, "none", "none|psi",
			     "low-memory killer: PSI trigger on the memcg, kills the LRU "
			     "background app"),
		PARAM_DURATION("kill-stall", kill_stall_ms, "70ms",
			       "killer=psi trigger: memory stall (some) per 1 s window"),
		PARAM_FRACTION("theta", theta, "0.9", 0, 0.9999,
			       "Zipf skew of foreground accesses"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("switches", "switches", "none", "foreground switches measured"),
		METRIC("switch_p50", "ns", "lower",
		       "median warm launch: time to re-touch a running new foreground's set"),
		METRIC("switch_p90", "ns", "lower", "90th percentile of it"),
		METRIC("switch_p95", "ns", "lower", "95th percentile of it"),
		METRIC("switch_max", "ns", "lower", "longest switch"),
		METRIC("fg_majflt", "faults", "lower",
		       "major faults of apps while in the foreground"),
		METRIC("retouch_majflt", "faults", "lower",
		       "of which during the re-touch after a switch"),
		METRIC("launches_cold", "launches", "lower",
		       "cold launches: every app's first, and each turn of an app not running"),
		METRIC("launch_cold_p50", "ns", "lower",
		       "median cold launch: new process to its whole set touched"),
		METRIC("launch_cold_p90", "ns", "lower", "90th percentile of it"),
		METRIC("launch_cold_p95", "ns", "lower", "95th percentile of it"),
		METRIC("launch_refaults", "pages", "lower",
		       "workingset refaults (anon + file) of the app's memcg during cold launches"),
		METRIC("kills", "kills", "lower", "apps the low-memory killer killed (killer=psi)"),
		METRIC("kills_per_hour", "kills/h", "lower", "kills over the time since the first launch"),
		METRIC("reloads", "launches", "lower", "cold launches of an app that was killed"),
		{},
	},
	WL_SCRATCH(dir),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl-sys.h"
#include "wl.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

/* Parent -> app commands, app -> parent replies: one small write each. */
enum { CMD_FG = 'F', CMD_BG = 'B', CMD_QUIT = 'Q' };
struct reply {
	char kind; /* 'L' launched, 'R' re-touched, 'B' back in the background */
	uint64_t ns, majflt;
};

struct app_stats {
	struct wl_hist lat;
	uint64_t ops;
};

struct app {
	pid_t pid; /* 0: not running (killed; before its launch) */
	int cmd, reply; /* parent's ends */
	uint64_t last_use; /* sequence of its last launch or foreground turn: the killer's order */
	bool killed; /* since its last launch: its next one is a re-load */
};

struct cfg {
	uint64_t anon_pages, file_pages, seed;
	double theta;
	const char *dir;
};

/* The parent's state: the apps, the killer, what is counted. */
struct run {
	const struct opts *o;
	struct cfg c;
	char memcg[512];
	struct app *app;
	struct app_stats *stats;
	int psi_fd; /* the killer's trigger on MEMCG/memory.pressure; -1: no killer */
	uint64_t seq;
	struct wl_hist *cold; /* every cold launch's latency */
	uint64_t launches_cold, reloads, launch_refaults, kills, no_victim;
};

static uint64_t majflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_majflt;
}

static void send_reply(int fd, char kind, uint64_t ns, uint64_t majflt)
{
	struct reply r = { kind, ns, majflt };

	if (write(fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
}

/* Every page of the set, once. */
static uint64_t touch_all(unsigned char *anon, const unsigned char *file, const struct cfg *c,
			  long page)
{
	uint64_t sum = 0;

	for (uint64_t p = 0; p < c->anon_pages; p++)
		sum += anon[p * (uint64_t)page];
	for (uint64_t p = 0; p < c->file_pages; p++)
		sum += file[p * (uint64_t)page];
	return sum;
}

static int app_main(unsigned idx, const struct cfg *c, struct app_stats *st, int cmd, int reply)
{
	const long page = sysconf(_SC_PAGESIZE);
	_cleanup_free_ char *path = xasprintf("%s/app%u.dat", c->dir, idx);
	uint64_t npages = c->anon_pages + c->file_pages;
	volatile uint64_t sink = 0;
	unsigned char *anon, *file;
	struct wl_zipf z;
	struct wl_rng rng;
	int fd;
	char ch;

	wl_rng_seed(&rng, c->seed + idx);
	if (wl_zipf_init(&z, npages, c->theta) < 0)
		return 2;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-app-switch: app%u: %s: %s\n", idx, path, strerror(errno));
		return 1;
	}
	file = mmap(NULL, c->file_pages * (uint64_t)page, PROT_READ, MAP_SHARED, fd, 0);
	anon = mmap(NULL, c->anon_pages * (uint64_t)page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (file == MAP_FAILED || anon == MAP_FAILED) {
		fprintf(stderr, "wl-app-switch: app%u: mmap: %s\n", idx, strerror(errno));
		return 1;
	}
	/* Launch: write the anon set, read the file set. */
	for (uint64_t p = 0; p < c->anon_pages; p++) {
		uint64_t *w = (uint64_t *)(anon + p * (uint64_t)page);

		for (size_t i = 0; i < (size_t)page / sizeof(*w); i += 8)
			w[i] = wl_rng_next(&rng);
	}
	sink += touch_all(anon, file, c, page);
	send_reply(reply, 'L', 0, 0);

	while (read(cmd, &ch, 1) == 1 && ch == CMD_FG) {
		uint64_t m0 = majflt_now(), t0 = wl_now_ns(), ops = 0;

		sink += touch_all(anon, file, c, page);
		send_reply(reply, 'R', wl_now_ns() - t0, majflt_now() - m0);
		for (;;) {
			uint64_t p = wl_zipf_next(&z, &rng), a, b;

			/* Ranks scattered over both sets. */
			p = (p * 0x9e3779b97f4a7c15ULL % npages + npages / 3) % npages;
			a = wl_now_ns();
			if (p < c->anon_pages)
				anon[p * (uint64_t)page + (ops & 63) * 8] += 1;
			else
				sink += file[(p - c->anon_pages) * (uint64_t)page + (ops & 63)];
			b = wl_now_ns();
			wl_hist_add(&st->lat, b - a);
			st->ops++;
			if ((++ops & 255) == 0) {
				struct pollfd pfd = { .fd = cmd, .events = POLLIN };

				if (poll(&pfd, 1, 0) > 0)
					break;
			}
		}
		if (read(cmd, &ch, 1) != 1 || ch != CMD_BG)
			break;
		send_reply(reply, 'B', 0, majflt_now() - m0);
	}
	(void)sink;
	return 0;
}

static int read_reply(const struct app *app, unsigned idx, char want, struct reply *r)
{
	ssize_t n;

	do
		n = read(app->reply, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*r) || r->kind != want) {
		fprintf(stderr, "wl-app-switch: app%u died or misbehaved (waiting for '%c')\n", idx,
			want);
		return -EIO;
	}
	return 0;
}

static void app_close(struct app *app)
{
	close(app->cmd);
	close(app->reply);
	app->pid = 0;
}

/*
 * The killer fired: SIGKILL the running app used least recently, other than
 * keep (the foreground, or the app launching).
 */
static int killer_fire(struct run *rn, unsigned keep)
{
	unsigned victim = UINT32_MAX;
	int status;

	for (unsigned i = 0; i < rn->o->apps; i++)
		if (i != keep && rn->app[i].pid &&
		    (victim == UINT32_MAX || rn->app[i].last_use < rn->app[victim].last_use))
			victim = i;
	if (victim == UINT32_MAX) {
		rn->no_victim++;
		return 0;
	}
	if (kill(rn->app[victim].pid, SIGKILL) < 0) {
		fprintf(stderr, "wl-app-switch: kill app%u: %s\n", victim, strerror(errno));
		return -errno;
	}
	while (waitpid(rn->app[victim].pid, &status, 0) < 0 && errno == EINTR)
		;
	app_close(&rn->app[victim]);
	rn->app[victim].killed = true;
	rn->kills++;
	wl_mark("kill", victim, "app");
	return 0;
}

/*
 * Wait for the killer's trigger until until_ns (0: no limit) or, with app,
 * until app's reply is readable; run the killer each time it fires,
 * sparing keep. 1 when app's reply is readable, 0 at until_ns.
 */
static int wait_killing(struct run *rn, const struct app *app, unsigned keep, uint64_t until_ns)
{
	for (;;) {
		struct pollfd pfd[2] = { { .fd = rn->psi_fd, .events = POLLPRI },
					 { .fd = app ? app->reply : -1, .events = POLLIN } };
		uint64_t now = wl_now_ns();
		int timeout = -1, n;

		if (until_ns) {
			if (now >= until_ns)
				return 0;
			timeout = (int)((until_ns - now + 999999) / 1000000);
		}
		n = poll(pfd, 2, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (pfd[0].revents & (POLLERR | POLLNVAL)) {
			fprintf(stderr, "wl-app-switch: %s/memory.pressure: the trigger is gone\n",
				rn->memcg);
			return -EIO;
		}
		if (pfd[0].revents & POLLPRI) {
			int r = killer_fire(rn, keep);

			if (r < 0)
				return r;
		}
		if (pfd[1].revents)
			return 1;
	}
}

/* As read_reply, with the killer running while it waits. */
static int wait_reply(struct run *rn, unsigned idx, char want, struct reply *r)
{
	int rc = rn->psi_fd >= 0 ? wait_killing(rn, &rn->app[idx], idx, 0) : 1;

	return rc < 0 ? rc : read_reply(&rn->app[idx], idx, want, r);
}

/* lmkd's kind of trigger: "some STALL_US 1000000" on the plan's memcg. */
static int killer_open(struct run *rn)
{
	_cleanup_free_ char *path = xasprintf("%s/memory.pressure", rn->memcg);
	_cleanup_free_ char *trig =
		xasprintf("some %llu 1000000", (unsigned long long)rn->o->kill_stall_ms * 1000);

	rn->psi_fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (rn->psi_fd < 0 || write(rn->psi_fd, trig, strlen(trig) + 1) < 0) {
		fprintf(stderr, "wl-app-switch: killer=psi: %s: '%s': %s (PSI triggers need "
			"CONFIG_PSI and cgroup v2)\n", path, trig, strerror(errno));
		return -errno;
	}
	return 0;
}

/* Workingset refaults (anon + file) of app idx's memcg so far. */
static int app_refaults(const struct run *rn, unsigned idx, uint64_t *ret)
{
	_cleanup_free_ char *path = xasprintf("%s/app%u/memory.stat", rn->memcg, idx);
	int64_t anon = 0, file = 0;
	int r = wl_flat_read(path, "workingset_refault_anon", &anon);

	if (r == 0)
		r = wl_flat_read(path, "workingset_refault_file", &file);
	if (r < 0)
		fprintf(stderr, "wl-app-switch: %s: workingset_refault_*: %s\n", path, strerror(-r));
	*ret = (uint64_t)(anon + file);
	return r;
}

/*
 * Launch app idx: a new process in its memcg that maps its sets and touches
 * them; *ret_ns from the fork to its reply.
 */
static int app_launch(struct run *rn, unsigned idx, uint64_t *ret_ns)
{
	_cleanup_free_ char *procs = xasprintf("%s/app%u/cgroup.procs", rn->memcg, idx);
	struct app *app = &rn->app[idx];
	uint64_t t0 = wl_now_ns();
	int cmd[2], rep[2];
	struct reply rp;

	if (pipe2(cmd, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(rep, O_CLOEXEC) < 0) {
		close(cmd[0]);
		close(cmd[1]);
		return -errno;
	}
	app->pid = fork();
	if (app->pid < 0) {
		int err = errno;

		app->pid = 0;
		close(cmd[0]);
		close(cmd[1]);
		close(rep[0]);
		close(rep[1]);
		return -err;
	}
	if (app->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		if (rn->psi_fd >= 0)
			close(rn->psi_fd);
		if (write_file(procs, "0") < 0)
			_exit(1);
		_exit(app_main(idx, &rn->c, &rn->stats[idx], cmd[0], rep[1]));
	}
	close(cmd[0]);
	close(rep[1]);
	app->cmd = cmd[1];
	app->reply = rep[0];
	app->last_use = ++rn->seq;
	if (wait_reply(rn, idx, 'L', &rp) < 0)
		return -EIO;
	*ret_ns = wl_now_ns() - t0;
	return 0;
}

/* A cold launch of app idx: timed, its memcg's refaults counted, marked. */
static int cold_launch(struct run *rn, unsigned idx)
{
	uint64_t rf0 = 0, rf1 = 0, ns = 0;
	bool reload = rn->app[idx].killed;
	int r = app_refaults(rn, idx, &rf0);

	if (r == 0)
		r = app_launch(rn, idx, &ns);
	if (r == 0)
		r = app_refaults(rn, idx, &rf1);
	if (r < 0) {
		fprintf(stderr, "wl-app-switch: launch app%u: %s\n", idx, strerror(-r));
		return r;
	}
	rn->app[idx].killed = false;
	wl_hist_add(rn->cold, ns);
	rn->launches_cold++;
	rn->reloads += reload;
	rn->launch_refaults += rf1 - rf0;
	wl_mark("launch_cold_ns", (double)ns, "ns");
	return 0;
}

/*
 * Install the apps: each one's file set (its code and resources) written to
 * the scratch disk and dropped from the page cache, so that a first launch
 * reads it as after a boot.
 */
static int apps_install(const struct run *rn)
{
	const long page = sysconf(_SC_PAGESIZE);

	for (unsigned i = 0; i < rn->o->apps; i++) {
		_cleanup_free_ char *path = xasprintf("%s/app%u.dat", rn->c.dir, i);
		_cleanup_close_ int fd = -1;
		int r = wl_file_create(path, rn->c.file_pages * (uint64_t)page, rn->c.seed + 100 + i);

		if (r == 0) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			r = fd < 0 ? -errno : fsync(fd) < 0 ? -errno : wl_file_drop(fd);
		}
		if (r < 0) {
			fprintf(stderr, "wl-app-switch: install app%u: %s: %s\n", i, path,
				strerror(-r));
			return r;
		}
	}
	return 0;
}

/* The foreground of switch s after prev: the oldest, or a Zipf draw that is not prev. */
static unsigned next_fg(const struct run *rn, uint64_t s, unsigned prev, const struct wl_zipf *z,
			struct wl_rng *rng)
{
	unsigned fg;

	if (strcmp(rn->o->order, "zipf"))
		return (unsigned)(s % rn->o->apps);
	do
		fg = (unsigned)wl_zipf_next(z, rng);
	while (fg == prev);
	return fg;
}

static int cg_write(const char *dir, const char *file, const char *v)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, file);

	return write_file(p, v);
}

/* memory.low of an app's memcg: bytes protected from reclaim (0: none). */
static int protect_set(const char *dir, uint64_t bytes)
{
	_cleanup_free_ char *v = xasprintf("%llu", (unsigned long long)bytes);
	int r = cg_write(dir, "memory.low", v);

	if (r < 0)
		fprintf(stderr, "wl-app-switch: %s/memory.low = %s: %s\n", dir, v, strerror(-r));
	return r;
}

/* Move ourselves to MEMCG/ctl and enable the memory controller for the apps. */
static int memcgs_make(const char *memcg, unsigned apps)
{
	_cleanup_free_ char *ctl = xasprintf("%s/ctl", memcg);
	int r;

	if (mkdir(ctl, 0755) < 0 && errno != EEXIST)
		return -errno;
	r = cg_write(ctl, "cgroup.procs", "0");
	if (r == 0)
		r = cg_write(memcg, "cgroup.subtree_control", "+memory");
	for (unsigned i = 0; i < apps && r == 0; i++) {
		_cleanup_free_ char *d = xasprintf("%s/app%u", memcg, i);

		if (mkdir(d, 0755) < 0 && errno != EEXIST)
			r = -errno;
	}
	return r;
}

int main(int argc, char **argv)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct opts o = { 0 };
	struct run rn = { .o = &o, .psi_fd = -1 };
	_cleanup_free_ struct app *app = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_free_ struct wl_hist *sw = xcalloc(1, sizeof(*sw));
	_cleanup_free_ struct wl_hist *cold = xcalloc(1, sizeof(*cold));
	uint64_t fg_majflt = 0, retouch_majflt = 0, ops = 0, t0, t1, tl;
	unsigned fg = UINT32_MAX;
	struct wl_zipf order;
	struct wl_rng order_rng;
	int r, status = 0, failed = 0;

	r = wl_opts_parse(&wl_def_app_switch, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (o.apps < 2 || o.apps > 64 || o.app_anon < 2 * (uint64_t)page ||
	    o.app_file < (uint64_t)page || !o.period_ms) {
		fprintf(stderr,
			"wl-app-switch: need 2..64 apps, sets of a page or more, a period\n");
		return 2;
	}
	if (!o.kill_stall_ms || o.kill_stall_ms >= 1000) {
		fprintf(stderr, "wl-app-switch: kill-stall %llums: want 1ms..999ms of a 1 s window\n",
			(unsigned long long)o.kill_stall_ms);
		return 2;
	}
	if (!o.switches)
		o.switches = 2 * o.apps;
	if (o.warmup >= o.switches) {
		fprintf(stderr, "wl-app-switch: warmup %llu leaves none of %llu switches measured\n",
			(unsigned long long)o.warmup, (unsigned long long)o.switches);
		return 2;
	}
	wl_rng_seed(&order_rng, o.seed + 7);
	if (wl_zipf_init(&order, o.apps, o.order_theta) < 0)
		return 2;
	rn.c = (struct cfg){ o.app_anon / (uint64_t)page, o.app_file / (uint64_t)page, o.seed,
			     o.theta, o.dir };
	r = wl_memcg_self(rn.memcg, sizeof(rn.memcg), NULL, 0);
	if (r == 0)
		r = wl_dir_make(o.dir);
	if (r == 0)
		r = memcgs_make(rn.memcg, (unsigned)o.apps);
	if (r < 0) {
		fprintf(stderr, "wl-app-switch: child memcgs of %s: %s\n", rn.memcg, strerror(-r));
		return 1;
	}
	if (!strcmp(o.killer, "psi") && killer_open(&rn) < 0)
		return 1;
	rn.stats = mmap(NULL, o.apps * sizeof(*rn.stats), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rn.stats == MAP_FAILED) {
		perror("wl-app-switch: mmap");
		return 1;
	}
	for (uint64_t i = 0; i < o.apps; i++)
		wl_hist_init(&rn.stats[i].lat);
	rn.app = app = xcalloc(o.apps, sizeof(*app));
	rn.cold = cold;
	wl_hist_init(cold);
	if (apps_install(&rn) < 0)
		return 1;

	/* Launch the apps one after another, each in its memcg: cold launches, no switch. */
	tl = wl_now_ns();
	for (unsigned i = 0; i < o.apps && !failed; i++)
		failed = cold_launch(&rn, i) < 0;

	/* The foreground moves: the oldest app next, or one drawn by use. */
	wl_hist_init(lat);
	wl_hist_init(sw);
	t0 = wl_now_ns();
	for (uint64_t s = 0; s < o.switches && !failed; s++) {
		uint64_t start, end;
		bool protect = !strcmp(o.protect, "fg"), measured = s >= o.warmup, launch;
		_cleanup_free_ char *fg_dir = NULL;
		struct reply rp;
		char ch = CMD_FG;

		fg = next_fg(&rn, s, fg, &order, &order_rng);
		fg_dir = xasprintf("%s/app%u", rn.memcg, fg);
		start = wl_now_ns();
		end = start + o.period_ms * 1000000;
		if (protect && protect_set(fg_dir, o.app_anon + o.app_file) < 0) {
			failed = 1;
			break;
		}
		launch = !app[fg].pid;
		if (launch && cold_launch(&rn, fg) < 0) {
			failed = 1;
			break;
		}
		app[fg].last_use = ++rn.seq;
		if (write(app[fg].cmd, &ch, 1) != 1 || wait_reply(&rn, fg, 'R', &rp) < 0) {
			failed = 1;
			break;
		}
		if (!launch) {
			wl_mark("launch_warm_ns", (double)rp.ns, "ns");
			if (measured) {
				wl_hist_add(sw, rp.ns);
				retouch_majflt += rp.majflt;
			}
		}
		if (rn.psi_fd >= 0) {
			if (wait_killing(&rn, NULL, fg, end) < 0) {
				failed = 1;
				break;
			}
		} else {
			uint64_t now;

			while ((now = wl_now_ns()) < end) {
				struct timespec ts = { (time_t)((end - now) / 1000000000),
						       (long)((end - now) % 1000000000) };

				nanosleep(&ts, NULL);
			}
		}
		ch = CMD_BG;
		if (write(app[fg].cmd, &ch, 1) != 1 || wait_reply(&rn, fg, 'B', &rp) < 0 ||
		    (protect && protect_set(fg_dir, 0) < 0)) {
			failed = 1;
			break;
		}
		if (measured)
			fg_majflt += rp.majflt;
	}
	t1 = wl_now_ns();
	for (unsigned i = 0; i < o.apps; i++) {
		char ch = CMD_QUIT;

		if (!app[i].pid)
			continue;
		if (write(app[i].cmd, &ch, 1) < 0)
			kill(app[i].pid, SIGKILL);
		while (waitpid(app[i].pid, &status, 0) < 0 && errno == EINTR)
			;
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
		app_close(&app[i]);
	}
	if (rn.psi_fd >= 0)
		close(rn.psi_fd);
	if (failed)
		return 1;
	for (unsigned i = 0; i < o.apps; i++) {
		wl_hist_merge(lat, &rn.stats[i].lat);
		ops += rn.stats[i].ops;
	}
	wl_result_common(ops, t1 - t0, lat);
	wl_result("switches", (double)(o.switches - o.warmup));
	if (sw->count) {
		wl_result("switch_p50", (double)wl_hist_quantile(sw, 0.5));
		wl_result("switch_p90", (double)wl_hist_quantile(sw, 0.9));
		wl_result("switch_p95", (double)wl_hist_quantile(sw, 0.95));
		wl_result("switch_max", (double)sw->max);
	}
	wl_result("fg_majflt", (double)fg_majflt);
	wl_result("retouch_majflt", (double)retouch_majflt);
	wl_result("launches_cold", (double)rn.launches_cold);
	wl_result("launch_cold_p50", (double)wl_hist_quantile(cold, 0.5));
	wl_result("launch_cold_p90", (double)wl_hist_quantile(cold, 0.9));
	wl_result("launch_cold_p95", (double)wl_hist_quantile(cold, 0.95));
	wl_result("launch_refaults", (double)rn.launch_refaults);
	wl_result("kills", (double)rn.kills);
	wl_result("kills_per_hour", (double)rn.kills * 3.6e12 / (double)(t1 - tl));
	wl_result("reloads", (double)rn.reloads);
	return 0;
}
#endif /* WL_DEF_ONLY */
