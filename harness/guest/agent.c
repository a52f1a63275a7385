// SPDX-License-Identifier: GPL-2.0
/*
 * lrubench-agent: /init of the benchmark guest (PID 1).
 *
 * The main sequence: mounts and console, run.conf, modules, the channel and
 * hello, knobs, swap, memcgs, then the run: a first sample, the workloads,
 * a sample every interval until they have all exited (and a fault= was
 * injected, if any), one last sample, bye and power off. The run is one poll() loop over a timerfd armed on absolute
 * CLOCK_MONOTONIC deadlines (so the interval does not drift), a signalfd for
 * SIGCHLD (PID 1 reaps every child) and the workloads' stdout pipes.
 */
#include "agent.h"
#include "util.h"

#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>

#ifndef LRUBENCH_VERSION
#define LRUBENCH_VERSION "unknown"
#endif

#define PORT_TIMEOUT_MS 10000
#define NS_PER_MS 1000000LL

static void load_conf(struct agent *a)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_file(AGENT_CONF_PATH, 1024 * 1024, &text, &len);

	agent_conf_parse(r < 0 ? "" : text, r < 0 ? 0 : len, &a->conf);
	if (r < 0) {
		struct agent_conf *c = a->conf;

		c->errors = xrealloc(c->errors, c->n_errors + 1, sizeof(*c->errors));
		c->error_lines = xrealloc(c->error_lines, c->n_errors + 1, sizeof(*c->error_lines));
		c->errors[c->n_errors] = xasprintf("%s: cannot read: %s", AGENT_CONF_PATH, strerror(-r));
		c->error_lines[c->n_errors++] = 0;
	}
	a->n_memcgs = a->conf->n_memcgs;
	a->memcgs = xcalloc(a->n_memcgs, sizeof(*a->memcgs));
	for (size_t i = 0; i < a->n_memcgs; i++) {
		a->memcgs[i].conf = &a->conf->memcgs[i];
		a->memcgs[i].name = a->conf->memcgs[i].name;
		a->memcgs[i].path = xasprintf(CGROUP_ROOT "/%s", a->memcgs[i].name);
	}
	a->n_wls = a->conf->n_workloads;
	a->wls = xcalloc(a->n_wls, sizeof(*a->wls));
	for (size_t i = 0; i < a->n_wls; i++) {
		const struct conf_workload *cw = &a->conf->workloads[i];
		struct workload *w = &a->wls[i];
		int m = cw->memcg ? agent_conf_memcg_index(a->conf, cw->memcg) : -1;

		w->conf = cw;
		w->name = cw->name;
		w->memcg = m >= 0 ? &a->memcgs[m] : NULL;
		w->out_fd = -1;
	}
}

/* hello's fields are names of at most 64 characters ([A-Za-z0-9._:/+-]). */
static void hello_field(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n < size - 1 && n < 64; src++)
		dst[n++] = (('a' <= *src && *src <= 'z') || ('A' <= *src && *src <= 'Z') ||
			    ('0' <= *src && *src <= '9') || strchr("._:/+-", *src)) ?
				   *src :
				   '_';
	if (!n)
		dst[n++] = '-';
	dst[n] = '\0';
}

static bool all_done(const struct agent *a)
{
	for (size_t i = 0; i < a->n_wls; i++)
		if (!a->wls[i].started || !a->wls[i].exited)
			return false;
	return true;
}

struct run_state {
	int64_t t0;		/* the first sample */
	int64_t fault_at;	/* 0: no fault pending */
	uint64_t overruns;	/* timer ticks missed because a sample ran late */
};

/* Start due workloads, inject a due fault; the next deadline in ns or -1. */
static int64_t run_deadlines(struct agent *a, struct run_state *rs, int64_t now)
{
	int64_t next = -1;

	for (size_t i = 0; i < a->n_wls; i++) {
		struct workload *w = &a->wls[i];
		int64_t at = rs->t0 + (int64_t)w->conf->start_ms * NS_PER_MS;

		bool waiting = false;

		if (w->started)
			continue;
		/* after = ...: its predecessors' exits wake the loop (SIGCHLD) */
		for (size_t j = 0; j < w->conf->n_after; j++)
			waiting |= !a->wls[w->conf->after[j]].exited;
		if (waiting)
			continue;
		if (at <= now) {
			workload_start(a, w);
			continue;
		}
		if (next < 0 || at < next)
			next = at;
	}
	if (wss_probe_step(a->wss, now))
		sampler_take(a->sampler); /* the window's results, at once */
	if (wss_probe_deadline(a->wss) >= 0 &&
	    (next < 0 || wss_probe_deadline(a->wss) < next))
		next = wss_probe_deadline(a->wss);
	if (rs->fault_at) {
		if (rs->fault_at <= now) {
			rs->fault_at = 0;
			fault_inject(a);
		} else if (next < 0 || rs->fault_at < next) {
			next = rs->fault_at;
		}
	}
	return next;
}

static int run(struct agent *a)
{
	const struct agent_conf *c = a->conf;
	int64_t interval = (int64_t)c->interval_ms * NS_PER_MS;
	_cleanup_close_ int tfd = -1, sfd = -1;
	_cleanup_free_ struct pollfd *pfd =
		xcalloc(2 + a->n_wls + tracer_nfds(a->tracer), sizeof(*pfd));
	struct run_state rs = { 0 };
	struct itimerspec its;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (sfd < 0 || tfd < 0) {
		int r = -errno;

		channel_event(a->ch, "error", "signalfd/timerfd: %s", strerror(-r));
		return r;
	}

	channel_event(a->ch, "phase", "sampling interval_ms %" PRIu64, c->interval_ms);
	sampler_take(a->sampler);
	rs.t0 = now_mono_ns();
	its.it_interval = (struct timespec){ interval / 1000000000, interval % 1000000000 };
	its.it_value = (struct timespec){ (rs.t0 + interval) / 1000000000,
					  (rs.t0 + interval) % 1000000000 };
	if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		int r = -errno;

		channel_event(a->ch, "error", "timerfd_settime: %s", strerror(-r));
		return r;
	}
	channel_event(a->ch, "phase", "workloads %zu", a->n_wls);
	if (wss_probe_new(a, rs.t0, &a->wss) < 0)
		return -ENOTSUP;
	if (c->fault != FAULT_NONE)
		rs.fault_at = now_mono_ns() + (int64_t)c->fault_at_ms * NS_PER_MS;

	for (;;) {
		int64_t now = now_mono_ns();
		int64_t next = run_deadlines(a, &rs, now);
		int64_t wait_ms = next < 0 ? -1 : (next - now + NS_PER_MS - 1) / NS_PER_MS;
		int timeout = wait_ms > 3600 * 1000 ? 3600 * 1000 : (int)wait_ms;
		size_t n = 2;

		/* A pending fault is still injected if the workloads end first:
		 * the host's tests count on it. */
		if (all_done(a) && !rs.fault_at)
			break;
		pfd[0] = (struct pollfd){ .fd = tfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (size_t i = 0; i < a->n_wls; i++)
			if (a->wls[i].out_fd >= 0)
				pfd[n++] = (struct pollfd){ .fd = a->wls[i].out_fd, .events = POLLIN };
		n += tracer_pollfds(a->tracer, pfd + n);
		if (poll(pfd, n, timeout) < 0) {
			int r = -errno;

			if (r == -EINTR)
				continue;
			channel_event(a->ch, "error", "poll: %s", strerror(-r));
			return r;
		}
		for (size_t i = 2; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			/* a ring a quarter full: drain it before it overflows */
			if (tracer_owns_fd(a->tracer, pfd[i].fd)) {
				if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL))
					tracer_poll_error(a->tracer, pfd[i].revents);
				tracer_drain(a->tracer);
				continue;
			}
			for (size_t j = 0; j < a->n_wls; j++)
				if (a->wls[j].out_fd == pfd[i].fd)
					workload_read_output(a, &a->wls[j]);
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				;
			workloads_reap(a);
		}
		if (pfd[0].revents) {
			uint64_t ticks = 0;

			if (read(tfd, &ticks, sizeof(ticks)) == sizeof(ticks) && ticks > 1)
				rs.overruns += ticks - 1;
			sampler_take(a->sampler);
		}
	}
	/* One last sample once every workload is gone. */
	sampler_take(a->sampler);
	/* What the workloads printed last (up to 4 MiB each: a grandchild
	 * holding the pipe open must not keep us here). */
	for (size_t i = 0; i < a->n_wls; i++)
		for (int k = 0; k < 64 && a->wls[i].out_fd >= 0; k++)
			workload_read_output(a, &a->wls[i]);
	channel_event(a->ch, "phase", "done overruns %" PRIu64, rs.overruns);
	return 0;
}

static void final_dump(struct agent *a)
{
	size_t len;
	const char *vmstat = sampler_last_vmstat(a->sampler, &len);

	fflush(stderr);
	fputs("LRUBENCH-VMSTAT-BEGIN\n", stdout);
	if (vmstat)
		fwrite(vmstat, 1, len, stdout);
	fputs("LRUBENCH-VMSTAT-END\n", stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct agent a = { 0 };
	char version[65], release[65], run_id[65];
	struct utsname uts;
	sigset_t chld;
	int mounted, r;

	(void)argc;
	(void)argv;
	log_set_prefix("lrubench-agent");
	mounted = setup_mounts();
	setup_console();
	/* SIGCHLD is read from a signalfd; a pipe's closed end is an error, not a signal. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	signal(SIGPIPE, SIG_IGN);

	a.ch = channel_new();
	channel_event(a.ch, "boot", "agent %s pid %d", LRUBENCH_VERSION, (int)getpid());
	if (uname(&uts) == 0)
		snprintf(a.kernel_release, sizeof(a.kernel_release), "%s", uts.release);
	else
		strcpy(a.kernel_release, "unknown");
	load_conf(&a);
	perf_setup_logging();
	if (mounted < 0)
		channel_event(a.ch, "error", "mounting file systems: %s", strerror(-mounted));

	r = setup_modules(&a);
	if (channel_open_port(a.ch, AGENT_PORT_NAME, PORT_TIMEOUT_MS) < 0) {
		log_err("no virtio-serial port named %s: the host gets nothing but this console",
			AGENT_PORT_NAME);
		channel_give_up(a.ch);
	}
	hello_field(version, sizeof(version), LRUBENCH_VERSION);
	hello_field(release, sizeof(release), a.kernel_release);
	hello_field(run_id, sizeof(run_id), a.conf->run ? a.conf->run : "-");
	channel_record(a.ch, "hello %s %s %s %s", AGENT_PROTO, version, release, run_id);

	if (a.conf->n_errors) {
		for (size_t i = 0; i < a.conf->n_errors; i++)
			channel_event(a.ch, "error", "%s", a.conf->errors[i]);
		agent_poweroff(&a, "config-error");
	}
	if (a.conf->calibrate_ms)
		agent_calibrate(&a);
	if (mounted < 0 || r < 0)
		agent_poweroff(&a, "setup-error");
	if (setup_cgroup2(&a) < 0)
		agent_poweroff(&a, "setup-error");
	setup_host(&a);
	if (setup_numa(&a) < 0)
		agent_poweroff(&a, "setup-error");
	if (setup_knobs(&a) < 0 || setup_swap(&a) < 0 || setup_disks(&a) < 0 ||
	    memcgs_create(&a) < 0)
		agent_poweroff(&a, "setup-error");

	a.sample_lru_gen = a.conf->lru_enabled && access(LRU_GEN_DEBUGFS, R_OK) == 0;
	if (a.conf->trace_reclaim)
		tracer_start(&a, &a.tracer);
	r = sampler_new(&a, &a.sampler);
	if (r < 0) {
		channel_event(a.ch, "error", "sampler: %s", strerror(-r));
		agent_poweroff(&a, "setup-error");
	}
	if (run(&a) < 0)
		agent_poweroff(&a, "error");
	if (a.conf->final_dump)
		final_dump(&a);
	agent_poweroff(&a, "done");
}
