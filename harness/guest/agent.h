/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest agent: PID 1 of the benchmark VM. It applies run.conf, runs the
 * workloads in their memcgs and streams samples to the host (PROTOCOL.md).
 *
 * One concern per file; this header is their shared vocabulary:
 *   agent.c           the main sequence and the event loop
 *   agent-setup.c     mounts, console, modules, knobs, power off
 *   agent-host.c      cgroup2 as systemd mounts it, loopback, /etc/hosts
 *   agent-swap.c      zram and the swap header
 *   agent-disk.c      the tools and scratch disks
 *   agent-channel.c   the virtio-serial port and the line writer
 *   agent-memcg.c     memcgs through libcgroup
 *   agent-workload.c  fork/exec into a memcg, output, reaping
 *   agent-perf.c      per-workload counters through libperf
 *   agent-fault.c     fault injection for the host's tests
 *   agent-trace.c     reclaim latency from the vmscan tracepoints
 *   agent-wss.c       the working-set probe (lrubench wss)
 *   sampler.c         samples the sources of harness/common/sources.c
 * and the pure parts the unit tests reach: agent-conf.c, perf-ring.c (perf
 * ring records), stall-pair.c (pairing, histograms), trace-events.c
 * (tracepoint ids); the sources and their parsers (harness/common/source*.c,
 * procfs-parse.c) are shared with the host.
 */
#ifndef LRUBENCH_AGENT_H
#define LRUBENCH_AGENT_H

#include "agent-conf.h"

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define AGENT_PROTO "1"
#define AGENT_PORT_NAME "lrubench.0"
#define AGENT_CONF_PATH "/lrubench/run.conf"
#define CGROUP_ROOT "/sys/fs/cgroup"
#define LRU_GEN_DEBUGFS "/sys/kernel/debug/lru_gen" /* source_lru_gen.file */
#define LINE_MAX_BYTES 1024 /* protocol limit, '\n' included */

struct channel;
struct sampler;
struct perf_counters;
struct tracer;
struct pollfd;
struct wss_probe;

struct memcg {
	const struct conf_memcg *conf;
	const char *name;
	char *path; /* CGROUP_ROOT "/" name */
};

struct workload {
	const struct conf_workload *conf;
	const char *name;
	struct memcg *memcg; /* NULL: the root cgroup */
	pid_t pid;
	bool started, exited;
	int out_fd;	/* read end of its stdout; -1 once closed */
	char line[LINE_MAX_BYTES];
	size_t line_len;
	bool line_overlong;
	unsigned console_lines;	/* other lines copied to the console */
	unsigned marks;		/* "mark" lines forwarded as events */
	struct perf_counters *perf;
};

struct agent {
	struct agent_conf *conf;
	struct channel *ch;
	struct memcg *memcgs;
	size_t n_memcgs;
	struct workload *wls;
	size_t n_wls;
	struct sampler *sampler;
	struct tracer *tracer;	/* NULL: reclaim not traced */
	struct wss_probe *wss;	/* NULL unless run.conf asks for the probe */
	bool sample_lru_gen;	/* lru_gen g lines: debugfs file present, lru_enabled != 0 */
	uint64_t numa_nodes;	/* online NUMA nodes (bit N: node N); per-node sources need two */
	char kernel_release[65];
};

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

/* agent-channel.c: the stream. Lines are buffered and sent by
 * channel_flush(); the record helpers below flush at once. A new channel has
 * no port yet: records made then are held (and shown on the console) and
 * sent right after the first record made once the port is open, the hello.
 * Without a port records still reach the console. */
struct channel *channel_new(void);
/* Find the port named port_name (waiting up to timeout_ms) and open it. */
int channel_open_port(struct channel *ch, const char *port_name, int timeout_ms);
/* No port will come: drop held records. */
void channel_give_up(struct channel *ch);
void channel_free(struct channel *ch);
/* Append one line; '\n' is added, the line cut at LINE_MAX_BYTES. */
void channel_printf(struct channel *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append "v SOURCE SCOPE KEY VALUE" without printf; key need not be
 * terminated. false (nothing appended) if the line would be too long. */
bool channel_value(struct channel *ch, const char *source, const char *scope, const char *key,
		   size_t key_len, int64_t value);
/* Write all buffered lines in one write(); 0 or -errno (the buffer is dropped). */
int channel_flush(struct channel *ch);
/* Raw bytes, no framing: fault=garbage only. */
int channel_write_raw(struct channel *ch, const void *buf, size_t len);
/* Records mirrored on the console and flushed at once. */
void channel_record(struct channel *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void channel_event(struct channel *ch, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Replace what the protocol does not allow in a line (control bytes). */
void channel_sanitize(char *s);

/* agent-setup.c */
int setup_mounts(void);
void setup_console(void);
int setup_modules(struct agent *a);
int setup_knobs(struct agent *a);
/* bye REASON, sync, power off; never returns (sleeps if reboot fails). */
void agent_poweroff(struct agent *a, const char *reason) __attribute__((noreturn));
/* agent-clock.c: the calibration loop of calibrate_ms (PROTOCOL.md), then power off. */
void agent_calibrate(struct agent *a) __attribute__((noreturn));
/* Read a small sysfs or procfs file into buf, one line, blanks collapsed. */
int read_knob(const char *path, char *buf, size_t size);

/* agent-host.c: cgroup2 with run.conf's options; then lo, /etc/hosts, the host name. */
int setup_cgroup2(struct agent *a);
void setup_host(struct agent *a);
/* Record the NUMA nodes online, their memory and CPUs; -ENODEV when not the plan's count. */
int setup_numa(struct agent *a);

/* agent-swap.c */
int setup_swap(struct agent *a);
/* Fill page (page_size bytes) with a version-1 swap header for a device of
 * size bytes; -EINVAL if the device is too small or too large. */
int swap_header_fill(void *page, size_t page_size, uint64_t size);

/* agent-disk.c: mount the disks run.conf names (/tools, /scratch). */
int setup_disks(struct agent *a);

/* agent-memcg.c */
int memcgs_create(struct agent *a);
/* oom_kill from the memcg's memory.events; 0 or -errno. */
int memcg_oom_kills(const struct memcg *m, int64_t *ret);

/* agent-workload.c */
int workload_start(struct agent *a, struct workload *w);
/* Reap every exited child; events for workloads. Returns how many workloads exited. */
int workloads_reap(struct agent *a);
/* Read what the workload printed; on EOF the fd is closed. */
void workload_read_output(struct agent *a, struct workload *w);

/* agent-perf.c: task-clock, page-faults, major-faults, context-switches of
 * a task and its children, counted from its exec. */
int perf_counters_open(pid_t pid, struct perf_counters **ret);
typedef void (*perf_counter_fn)(void *arg, const char *name, uint64_t value);
int perf_counters_read(struct perf_counters *pc, perf_counter_fn fn, void *arg);
void perf_counters_free(struct perf_counters *pc);
void perf_setup_logging(void);

/* agent-trace.c: stall histograms from the vmscan tracepoints. A kernel
 * without them gets a skip event and *ret = NULL; 0 either way. */
int tracer_start(struct agent *a, struct tracer **ret);
void tracer_free(struct tracer *t);
/* The fds that poll readable when a ring fills (t may be NULL: none). */
size_t tracer_nfds(const struct tracer *t);
size_t tracer_pollfds(const struct tracer *t, struct pollfd *pfd);
bool tracer_owns_fd(const struct tracer *t, int fd);
/* A ring's fd polled POLLERR, POLLHUP or POLLNVAL: its fds leave the poll set. */
void tracer_poll_error(struct tracer *t, short revents);
/* Read every ring and pair what was read. */
void tracer_drain(struct tracer *t);
/* Drain, then every cumulative value of the reclaim source (PROTOCOL.md). */
typedef void (*tracer_value_fn)(void *arg, const char *scope, const char *key, int64_t value);
void tracer_emit(struct tracer *t, tracer_value_fn fn, void *arg);

/* sampler.c */
int sampler_new(struct agent *a, struct sampler **ret);
/* Take one sample and send it; returns 0 or -errno. */
int sampler_take(struct sampler *s);
/* The raw /proc/vmstat text of the last sample (final_dump). */
const char *sampler_last_vmstat(const struct sampler *s, size_t *ret_len);
void sampler_free(struct sampler *s);

/* agent-wss.c: the working-set probe. NULL in *ret (and 0) when run.conf
 * asks for none; -ENOTSUP (an event said why) when it cannot run here.
 * Boundary 0 is at t0 + wss_start_ms. */
int wss_probe_new(struct agent *a, int64_t t0, struct wss_probe **ret);
/* The next boundary in CLOCK_MONOTONIC ns, or -1 when done (or p is NULL). */
int64_t wss_probe_deadline(const struct wss_probe *p);
/* Take the boundary if it is due; true if it did (a sample should follow). */
bool wss_probe_step(struct wss_probe *p, int64_t now);
/* Hand the last finished window of memcg (once) to fn, as "wss" values. */
void wss_probe_emit(struct wss_probe *p, const char *memcg,
		    void (*fn)(void *arg, const char *key, int64_t value), void *arg);
void wss_probe_free(struct wss_probe *p);

/* agent-fault.c: does not return for hang, panic and crash. */
void fault_inject(struct agent *a);

#endif
