// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads: fork, the child joins its memcg and waits until the agent has
 * opened its perf counters, then execs with stdout on a pipe. The agent
 * forwards "result KEY VALUE UNIT BETTER" lines to the stream and "mark
 * NAME VALUE UNIT" lines (a moment of the workload: a launch, a kill) as
 * events timed by the agent (after checking every field: the workload is as
 * untrusted as the kernel), and copies any other line to the console.
 */
#include "agent.h"
#include "util.h"

#include <fcntl.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/wait.h>

#define CONSOLE_LINES_MAX 1000
#define MARKS_MAX 100000 /* per workload: a stream of marks is a bug, not a measurement */

/* What a child that could not exec tells its parent. */
struct child_failure {
	int stage; /* 1: join the memcg, 2: exec, 3: set its NUMA policy, 4: its CPU affinity */
	int err;
};

static void child_fail(int fd, int stage)
{
	struct child_failure f = { stage, errno };

	if (write(fd, &f, sizeof(f)) < 0) {
		/* nothing left to tell anyone */
	}
	_exit(127);
}

/* Between fork and exec: only async-signal-safe calls. */
static void __attribute__((noreturn))
child_run(const struct workload *w, const char *procs, int out_fd, int sync_fd, int err_fd)
{
	sigset_t all;
	char c;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(out_fd, STDOUT_FILENO) < 0)
		child_fail(err_fd, 2);
	if (procs) {
		int fd = open(procs, O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, "0", 1) != 1)
			child_fail(err_fd, 1);
		close(fd);
	}
	while (read(sync_fd, &c, 1) < 0 && errno == EINTR)
		;
	if (w->conf->cpus) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int cpu = 0; cpu < 64; cpu++)
			if (w->conf->cpus & (1ull << cpu))
				CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(err_fd, 4);
	}
	/* As numactl: the policy outlives exec. maxnode counts bits, plus one (mempolicy(2)). */
	if (w->conf->mempolicy.mode != MPOL_DEFAULT &&
	    syscall(SYS_set_mempolicy, w->conf->mempolicy.mode, &w->conf->mempolicy.nodes,
		    (unsigned long)MEMPOLICY_NODES_MAX + 1) < 0)
		child_fail(err_fd, 3);
	/* The agent's descriptors (other workloads' pipes, perf events) stay here. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(w->conf->argv[0], w->conf->argv);
	child_fail(err_fd, 2);
	_exit(127);
}

int workload_start(struct agent *a, struct workload *w)
{
	_cleanup_free_ char *procs = w->memcg ? xasprintf("%s/cgroup.procs", w->memcg->path) : NULL;
	_cleanup_close_ int out_r = -1, out_w = -1, sync_r = -1, sync_w = -1, err_r = -1, err_w = -1;
	struct child_failure f;
	int p[2], r;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	out_r = p[0];
	out_w = p[1];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	sync_r = p[0];
	sync_w = p[1];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	err_r = p[0];
	err_w = p[1];

	w->started = true;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		channel_event(a->ch, "error", "workload %s: fork: %s", w->name, strerror(-r));
		w->exited = true;
		return r;
	}
	if (pid == 0)
		child_run(w, procs, out_w, sync_r, err_w);
	w->pid = pid;
	close(TAKE_FD(out_w));
	close(TAKE_FD(sync_r));
	close(TAKE_FD(err_w));

	r = perf_counters_open(pid, &w->perf);
	if (r < 0)
		channel_event(a->ch, "error", "workload %s: perf counters: %s", w->name,
			      strerror(-r));
	channel_event(a->ch, "workload-start", "%s pid %d memcg %s", w->name, (int)pid,
		      w->memcg ? w->memcg->name : "/");
	/* Let it go, then learn whether the exec worked (EOF: it did). */
	if (write(sync_w, "x", 1) < 0)
		log_warn("workload %s: release: %m", w->name);
	close(TAKE_FD(sync_w));
	do
		n = read(err_r, &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(f)) {
		static const char *const stages[] = { "?", "join memcg", "exec",
						      "set_mempolicy for", "sched_setaffinity for" };

		channel_event(a->ch, "error", "workload %s: %s %s: %s", w->name,
			      stages[f.stage >= 1 && f.stage <= 4 ? f.stage : 0],
			      f.stage == 1 ? procs : w->conf->argv[0], strerror(f.err));
		/* The child exits; workloads_reap() reports it. */
	}
	if (fcntl(out_r, F_SETFL, O_NONBLOCK) < 0)
		log_warn("workload %s: O_NONBLOCK: %m", w->name);
	w->out_fd = TAKE_FD(out_r);
	return 0;
}

int workloads_reap(struct agent *a)
{
	int exited = 0;
	int status;
	pid_t pid;

	/* PID 1 reaps every orphan too; only workloads are reported. */
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (size_t i = 0; i < a->n_wls; i++) {
			struct workload *w = &a->wls[i];
			int64_t ooms;

			if (w->pid != pid || w->exited)
				continue;
			w->exited = true;
			exited++;
			if (w->out_fd >= 0)
				workload_read_output(a, w);
			if (WIFSIGNALED(status))
				channel_event(a->ch, "workload-exit", "%s signal %d%s", w->name,
					      WTERMSIG(status), WCOREDUMP(status) ? " core" : "");
			else
				channel_event(a->ch, "workload-exit", "%s status %d", w->name,
					      WEXITSTATUS(status));
			if (w->memcg && memcg_oom_kills(w->memcg, &ooms) == 0 && ooms > 0)
				channel_event(a->ch, "oom", "%s memcg %s oom_kill %lld", w->name,
					      w->memcg->name, (long long)ooms);
		}
	}
	return exited;
}

/* PROTOCOL.md names: [A-Za-z0-9._:/+-]+ */
static bool proto_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || strchr("._:/+-", *s)))
			return false;
	return true;
}

static bool skip_digits(const char **s)
{
	const char *p = *s;

	while (**s >= '0' && **s <= '9')
		(*s)++;
	return *s > p;
}

/* A finite decimal as the host reads it: -?D+(.D+)?([eE][-+]?D+)? (what
 * printf's %g prints). */
static bool proto_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!skip_digits(&s))
		return false;
	if (*s == '.') {
		s++;
		if (!skip_digits(&s))
			return false;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (!skip_digits(&s))
			return false;
	}
	return !*s;
}

/*
 * Split line in place into exactly n space-separated fields, the first three
 * KIND NAME VALUE (a protocol name and number); false, said as an error event
 * quoting the line, when it is not so.
 */
static bool split_line(struct agent *a, const struct workload *w, char *line, char **field,
		       size_t n)
{
	_cleanup_free_ char *copy = xstrdup(line);
	char *save = NULL, *tok;
	size_t got = 0;

	for (tok = strtok_r(line, " ", &save); tok && got < n; tok = strtok_r(NULL, " ", &save))
		field[got++] = tok;
	if (got == n && !tok && proto_name(field[1]) && proto_number(field[2]))
		return true;
	if (strlen(copy) > 200)
		strcpy(copy + 197, "...");
	channel_event(a->ch, "error", "workload %s: bad %.*s line '%s'", w->name,
		      (int)strcspn(copy, " "), copy, copy);
	return false;
}

static void forward_result(struct agent *a, const struct workload *w, char *line)
{
	char *field[5];

	if (!split_line(a, w, line, field, ARRAY_SIZE(field)))
		return;
	if (!proto_name(field[3]) ||
	    (strcmp(field[4], "higher") && strcmp(field[4], "lower") && strcmp(field[4], "none"))) {
		channel_event(a->ch, "error", "workload %s: bad result line 'result %s %s %s %s'",
			      w->name, field[1], field[2], field[3], field[4]);
		return;
	}
	channel_record(a->ch, "result %s %s %s %s %s", w->name, field[1], field[2], field[3],
		       field[4]);
}

/* "mark NAME VALUE UNIT" as "event T mark WORKLOAD NAME VALUE UNIT". */
static void forward_mark(struct agent *a, struct workload *w, char *line)
{
	char *field[4];

	if (!split_line(a, w, line, field, ARRAY_SIZE(field)))
		return;
	if (!proto_name(field[3])) {
		channel_event(a->ch, "error", "workload %s: bad mark line 'mark %s %s %s'",
			      w->name, field[1], field[2], field[3]);
		return;
	}
	if (w->marks++ == MARKS_MAX)
		channel_event(a->ch, "error", "workload %s: over %d marks, no more recorded",
			      w->name, MARKS_MAX);
	if (w->marks > MARKS_MAX)
		return;
	channel_event(a->ch, "mark", "%s %s %s %s", w->name, field[1], field[2], field[3]);
}

static void handle_line(struct agent *a, struct workload *w)
{
	bool ok;

	w->line[w->line_len] = '\0';
	channel_sanitize(w->line);
	ok = !w->line_overlong;
	if (w->line_overlong)
		log_warn("workload %s: line over %d bytes cut", w->name, LINE_MAX_BYTES - 1);
	if (ok && !strncmp(w->line, "result ", 7)) {
		forward_result(a, w, w->line); /* splits the line in place */
	} else if (ok && !strncmp(w->line, "mark ", 5)) {
		forward_mark(a, w, w->line);
	} else if (w->console_lines < CONSOLE_LINES_MAX) {
		/* The serial console is slow: a chatty workload must not stall us. */
		fprintf(stderr, "lrubench-agent: [%s] %s\n", w->name, w->line);
		w->console_lines++;
	} else if (w->console_lines++ == CONSOLE_LINES_MAX) {
		log_warn("workload %s: over %d lines of output, no more shown", w->name,
			 CONSOLE_LINES_MAX);
	}
	w->line_len = 0;
	w->line_overlong = false;
}

void workload_read_output(struct agent *a, struct workload *w)
{
	char buf[4096];

	/* Bounded, so a workload writing without pause cannot hold off samples. */
	for (int reads = 0; reads < 16; reads++) {
		ssize_t n = read(w->out_fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			if (n < 0)
				log_warn("workload %s: read: %m", w->name);
			if (w->line_len)
				handle_line(a, w);
			close(w->out_fd);
			w->out_fd = -1;
			return;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				handle_line(a, w);
			} else if (w->line_len < sizeof(w->line) - 1) {
				w->line[w->line_len++] = buf[i];
			} else {
				w->line_overlong = true;
			}
		}
	}
}
