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
	double theta;
	uint64_t seed;
	const char *dir;
};

WORKLOAD_DEF(app_switch) = {
	WL_NAME("app-switch"),
	.claims = "C5",
	.decides = "switch_p50 fg_majflt",
	.description = "K apps, each in its own child memcg (MEMCG/app0..) with anon and file "
		       "sets; the foreground rotates every period; one op = one foreground page "
		       "access",
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
		PARAM_FRACTION("theta", theta, "0.9", 0, 0.9999,
			       "Zipf skew of foreground accesses"),
		PARAM_SEED(seed),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("switches", "switches", "none", "foreground switches measured"),
		METRIC("switch_p50", "ns", "lower",
		       "median time to re-touch the new foreground's set"),
		METRIC("switch_p90", "ns", "lower", "90th percentile of it"),
		METRIC("switch_p95", "ns", "lower", "95th percentile of it"),
		METRIC("switch_max", "ns", "lower", "longest switch"),
		METRIC("fg_majflt", "faults", "lower",
		       "major faults of apps while in the foreground"),
		METRIC("retouch_majflt", "faults", "lower",
		       "of which during the re-touch after a switch"),
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
	pid_t pid;
	int cmd, reply; /* parent's ends */
};

struct cfg {
	uint64_t anon_pages, file_pages, seed;
	double theta;
	const char *dir;
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
	int fd, r;
	char ch;

	wl_rng_seed(&rng, c->seed + idx);
	if (wl_zipf_init(&z, npages, c->theta) < 0)
		return 2;
	r = wl_file_create(path, c->file_pages * (uint64_t)page, c->seed + 100 + idx);
	fd = r < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wl-app-switch: app%u: %s: %s\n", idx, path,
			strerror(r < 0 ? -r : errno));
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
	_cleanup_free_ struct app *app = NULL;
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_free_ struct wl_hist *sw = xcalloc(1, sizeof(*sw));
	struct app_stats *stats;
	struct cfg c;
	char memcg[512];
	uint64_t fg_majflt = 0, retouch_majflt = 0, ops = 0, t0, t1;
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
	if (!o.switches)
		o.switches = 2 * o.apps;
	if (o.warmup >= o.switches) {
		fprintf(stderr, "wl-app-switch: warmup %llu leaves none of %llu switches measured\n",
			(unsigned long long)o.warmup, (unsigned long long)o.switches);
		return 2;
	}
	c = (struct cfg){ o.app_anon / (uint64_t)page, o.app_file / (uint64_t)page, o.seed, o.theta,
			  o.dir };
	r = wl_memcg_self(memcg, sizeof(memcg), NULL, 0);
	if (r == 0)
		r = wl_dir_make(o.dir);
	if (r == 0)
		r = memcgs_make(memcg, (unsigned)o.apps);
	if (r < 0) {
		fprintf(stderr, "wl-app-switch: child memcgs of %s: %s\n", memcg, strerror(-r));
		return 1;
	}
	stats = mmap(NULL, o.apps * sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED) {
		perror("wl-app-switch: mmap");
		return 1;
	}
	for (uint64_t i = 0; i < o.apps; i++)
		wl_hist_init(&stats[i].lat);
	app = xcalloc(o.apps, sizeof(*app));

	/* Launch the apps one after another, each in its memcg. */
	for (unsigned i = 0; i < o.apps; i++) {
		_cleanup_free_ char *procs = xasprintf("%s/app%u/cgroup.procs", memcg, i);
		int cmd[2], rep[2];
		struct reply rp;

		if (pipe2(cmd, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0)
			return 1;
		app[i].pid = fork();
		if (app[i].pid < 0)
			return 1;
		if (app[i].pid == 0) {
			close(cmd[1]);
			close(rep[0]);
			if (write_file(procs, "0") < 0)
				_exit(1);
			_exit(app_main(i, &c, &stats[i], cmd[0], rep[1]));
		}
		close(cmd[0]);
		close(rep[1]);
		app[i].cmd = cmd[1];
		app[i].reply = rep[0];
		if (read_reply(&app[i], i, 'L', &rp) < 0)
			return 1;
	}

	/* Rotate the foreground, oldest app first. */
	wl_hist_init(lat);
	wl_hist_init(sw);
	t0 = wl_now_ns();
	for (uint64_t s = 0; s < o.switches && !failed; s++) {
		unsigned fg = (unsigned)(s % o.apps);
		uint64_t start = wl_now_ns(), end = start + o.period_ms * 1000000, now;
		_cleanup_free_ char *fg_dir = xasprintf("%s/app%u", memcg, fg);
		bool protect = !strcmp(o.protect, "fg"), measured = s >= o.warmup;
		struct reply rp;
		char ch = CMD_FG;

		if (protect && protect_set(fg_dir, o.app_anon + o.app_file) < 0) {
			failed = 1;
			break;
		}
		if (write(app[fg].cmd, &ch, 1) != 1 || read_reply(&app[fg], fg, 'R', &rp) < 0) {
			failed = 1;
			break;
		}
		if (measured) {
			wl_hist_add(sw, rp.ns);
			retouch_majflt += rp.majflt;
		}
		while ((now = wl_now_ns()) < end) {
			struct timespec ts = { (time_t)((end - now) / 1000000000),
					       (long)((end - now) % 1000000000) };

			nanosleep(&ts, NULL);
		}
		ch = CMD_BG;
		if (write(app[fg].cmd, &ch, 1) != 1 || read_reply(&app[fg], fg, 'B', &rp) < 0 ||
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

		if (write(app[i].cmd, &ch, 1) < 0)
			kill(app[i].pid, SIGKILL);
		close(app[i].cmd);
		while (waitpid(app[i].pid, &status, 0) < 0 && errno == EINTR)
			;
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
		close(app[i].reply);
	}
	if (failed)
		return 1;
	for (unsigned i = 0; i < o.apps; i++) {
		wl_hist_merge(lat, &stats[i].lat);
		ops += stats[i].ops;
	}
	wl_result_common(ops, t1 - t0, lat);
	wl_result("switches", (double)(o.switches - o.warmup));
	wl_result("switch_p50", (double)wl_hist_quantile(sw, 0.5));
	wl_result("switch_p90", (double)wl_hist_quantile(sw, 0.9));
	wl_result("switch_p95", (double)wl_hist_quantile(sw, 0.95));
	wl_result("switch_max", (double)sw->max);
	wl_result("fg_majflt", (double)fg_majflt);
	wl_result("retouch_majflt", (double)retouch_majflt);
	return 0;
}
#endif /* WL_DEF_ONLY */
