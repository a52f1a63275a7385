// SPDX-License-Identifier: GPL-2.0
/*
 * The campaign's scheduler: its pending runs, in order, each in a worker
 * process ('lrubench __run-one DB RUN_ID'), as many at once as asked or as
 * cores and memory allow; a run the infrastructure failed queued again; an
 * adaptive campaign given a block more when its queue runs dry; progress on
 * stderr. The store records every step, so an interrupted campaign resumes.
 */
#include "campaign-priv.h"
#include "store-campaign.h"
#include "store.h"
#include "plan.h"
#include "util.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>

int campaign__variant_index(const struct campaign *c, int64_t variant_id)
{
	for (size_t i = 0; i < c->plan->nvariants; i++)
		if (c->variant_id[i] == variant_id)
			return (int)i;
	return -1;
}

int campaign__retry_infra(struct campaign *c, int64_t run_id, int64_t variant, int rep,
			  uint64_t seed, bool budget)
{
	int64_t failures = store__runs_failed_infra(c->st, variant, rep);
	int64_t last = store__run_last_ord(c->st);
	int64_t retry;
	char buf[32];
	int r;

	if (failures < 0 || last < 0)
		return -EIO;
	if (budget && failures > c->plan->retries) {
		log_warn("run %lld: infrastructure failure %lld, no retries left", (long long)run_id,
			 (long long)failures);
		return 0;
	}
	r = store__run_add(c->st, variant, rep, (int)last + 1, seed, &retry);
	if (r < 0)
		return r;
	snprintf(buf, sizeof(buf), "%lld", (long long)run_id);
	store__run_prov(c->st, retry, "retry_of", buf);
	if (budget)
		log_info("run %lld: infrastructure failure, retried as run %lld (%lld of %d "
			 "retries)", (long long)run_id, (long long)retry, (long long)failures,
			 c->plan->retries);
	else
		log_info("run %lld: cut short by the host, queued again as run %lld",
			 (long long)run_id, (long long)retry);
	return 0;
}

/* MemAvailable from /proc/meminfo in bytes (free memory plus what reclaim can
 * give back without swapping), or -1. */
static int64_t mem_available(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long long kb;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			return kb * 1024;
	return -1;
}

/*
 * How many guests at once when not asked: what cores and memory allow. Cores
 * are the ones this process may run on (taskset, a cpuset), memory is
 * MemAvailable: a host whose page cache is full of a kernel build still has room.
 */
static int jobs_auto(const struct plan *p)
{
	cpu_set_t set;
	struct sysinfo si;
	long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
								  : sysconf(_SC_NPROCESSORS_ONLN);
	int64_t avail = mem_available();
	uint64_t guest = p->mem_bytes + (256ull << 20); /* QEMU's own overhead */
	long by_cpu, by_mem;

	if (avail < 0) {
		if (sysinfo(&si) < 0)
			return 1;
		avail = (int64_t)(((uint64_t)si.freeram + si.bufferram) * si.mem_unit);
	}
	by_cpu = cpus / (p->cpus > 0 ? p->cpus : 1);
	by_mem = (long)((uint64_t)avail * 8 / 10 / guest);
	by_cpu = by_cpu < by_mem ? by_cpu : by_mem;
	return by_cpu < 1 ? 1 : by_cpu > 64 ? 64 : (int)by_cpu;
}

struct worker {
	pid_t pid;
	int64_t run_id, variant;
	int rep;
	uint64_t seed;
	int64_t started_ns;
};

static pid_t worker_spawn(const char *db, int64_t run_id)
{
	char self[4096], id[32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	pid = fork();
	if (pid == 0) {
		const char *argv[] = { self, "__run-one", db, id, NULL };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);
		/* The binary this campaign started with, even if it was rebuilt since
		 * (the path then names a new file, or none): scheduler and workers
		 * must speak the same version. */
		execv("/proc/self/exe", (char *const *)argv);
		execv(self, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Progress: runs done/total, what runs now, elapsed, ETA; one updating line on a terminal. */
static void progress(struct campaign *c, int64_t t0, int64_t done_here, const struct worker *w,
		     int nw, bool final)
{
	int64_t total = store__runs_total(c->st);
	int64_t done = store__runs_done(c->st);
	double el = (double)(now_mono_ns() - t0) / 1e9;
	double eta = done_here > 0 ? el / (double)done_here * (double)(total - done) : -1;
	bool tty = isatty(2);
	char now_running[128] = "";
	size_t off = 0;

	for (int i = 0; i < nw && off < sizeof(now_running) - 16; i++)
		if (w[i].pid > 0)
			off += (size_t)snprintf(now_running + off, sizeof(now_running) - off, "%s%lld",
						off ? "," : " running ", (long long)w[i].run_id);
	char eta_s[32] = "?";

	if (eta >= 0)
		snprintf(eta_s, sizeof(eta_s), "%.0f s", eta);
	fprintf(stderr, "%s[%lld/%lld runs]%s  elapsed %.0f s  ETA %s%s", tty ? "\r\033[K" : "",
		(long long)done, (long long)total, now_running, el, eta_s,
		tty && !final ? "" : "\n");
	fflush(stderr);
}


/* The campaign's wall time in earlier invocations (interrupted, resumed). */
static int64_t wall_before_ms(struct campaign *c)
{
	_cleanup_free_ char *v = NULL;
	int64_t ms;

	if (store__meta_get(c->st, "campaign.wall_ms", &v) < 0 || parse_i64(v, &ms) < 0)
		return 0;
	return ms;
}

int campaign__execute(struct campaign *c, const char *db, int *ret_failed_runs)
{
	int jobs = c->o->jobs > 0 ? c->o->jobs : jobs_auto(c->plan);
	struct worker *w = xcalloc((size_t)jobs, sizeof(*w));
	int64_t t0 = now_mono_ns(), done_here = 0, wall0 = wall_before_ms(c);
	int failed_runs = 0, running = 0, r = 0, stop = 0;

	campaign__signals_install();
	log_info("running up to %d guest%s at once", jobs, jobs > 1 ? "s" : "");
	for (;;) {
		/* Start runs while there is room and work. */
		while (!stop && !campaign_interrupted && running < jobs) {
			struct store_run run;
			int64_t run_id, variant;
			int slot = 0, k;

			k = store__run_next_pending(c->st, &run);
			if (k < 0) {
				r = k;
				stop = 1;
			}
			if (k <= 0)
				break;
			run_id = run.id;
			variant = run.variant_id;
			if (campaign__variant_index(c, variant) < 0) {
				log_err("%s: run %lld names variant %lld, which the plan lacks", db,
					(long long)run_id, (long long)variant);
				r = -EINVAL;
				stop = 1;
				break;
			}
			while (w[slot].pid > 0)
				slot++;
			/* Claimed before the worker starts: a resume sees it was begun. */
			store__run_start(c->st, run_id, now_real_ns());
			if (store__commit(c->st) < 0) {
				r = -EIO;
				stop = 1;
				break;
			}
			w[slot] = (struct worker){ .run_id = run_id, .variant = variant, .rep = run.rep,
						   .seed = run.seed, .started_ns = now_mono_ns() };
			w[slot].pid = worker_spawn(db, run_id);
			if (w[slot].pid < 0) {
				log_err("cannot start a worker: %s", strerror(errno));
				store__run_finish(c->st, run_id, RUN_PENDING, "", 0);
				w[slot].pid = 0;
				r = -errno;
				stop = 1;
				break;
			}
			running++;
			progress(c, t0, done_here, w, jobs, false);
		}
		if (!running) {
			if (c->adaptive && !stop && !campaign_interrupted && r == 0) {
				int k = campaign__adaptive_more(c, db,
								wall0 + (now_mono_ns() - t0) / 1000000);

				if (k > 0)
					continue;
				r = k;
			}
			break;
		}

		/* Wait for one to end. */
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR) {
				/* Pass a SIGINT/SIGTERM on: workers stop their guests and record. */
				for (int i = 0; i < jobs; i++)
					if (w[i].pid > 0)
						kill(w[i].pid, SIGTERM);
				continue;
			}
			break;
		}
		for (int i = 0; i < jobs; i++) {
			_cleanup_free_ char *st = NULL;
			int code;

			if (w[i].pid != pid)
				continue;
			w[i].pid = 0;
			running--;
			done_here++;
			code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			store__run_status(c->st, w[i].run_id, &st);
			if (!st || !strcmp(st, RUN_RUNNING)) {
				/* The worker died before recording an outcome. */
				_cleanup_free_ char *why = xasprintf(
					campaign_interrupted ? "interrupted: lrubench was asked to stop"
						    : "worker died (exit %d) before recording the run",
					code);

				free(st);
				st = xstrdup(RUN_FAILED_INFRA);
				store__run_finish(c->st, w[i].run_id, RUN_FAILED_INFRA, why,
						  now_real_ns());
			}
			failed_runs += strcmp(st, RUN_COMPLETED) != 0;
			if (code == WORKER_STORE_FAILED) {
				log_err("campaign stopped: the store failed; %s keeps every run so far "
					"(lrubench run --resume %s)", db, db);
				r = -EIO;
				stop = 1;
			} else if (code == WORKER_HOST_TROUBLE) {
				log_err("campaign stopped: the host cannot run the guest now; %s keeps "
					"every run so far (lrubench run --resume %s once it can)", db, db);
				r = -ENOMEM;
				stop = 1;
			} else if (!strcmp(st, RUN_FAILED_INFRA)) {
				/* Interrupted runs are queued again for --resume, outside the budget. */
				int k = campaign__retry_infra(c, w[i].run_id, w[i].variant, w[i].rep,
							      w[i].seed, !campaign_interrupted);

				if (k < 0) {
					r = k;
					stop = 1;
				}
			}
			store__commit(c->st);
			progress(c, t0, done_here, w, jobs, false);
		}
	}
	free(w);
	store__meta_set_int(c->st, "campaign.wall_ms", wall0 + (now_mono_ns() - t0) / 1000000);
	store__commit(c->st);
	if (campaign_interrupted) {
		log_err("interrupted by signal %d: %s keeps every run so far; continue with "
			"'lrubench run --resume %s'", campaign_interrupted, db, db);
		return -EINTR;
	}
	if (r < 0)
		return r;
	progress(c, t0, done_here, NULL, 0, true);
	store__commit(c->st);
	*ret_failed_runs = failed_runs;
	return 0;
}
