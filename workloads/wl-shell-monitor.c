// SPDX-License-Identifier: GPL-2.0
/*
 * shell-monitor: what the agent's sampler replaces, for the benchmark that
 * compares them. A bash loop that, every interval, cats the files the agent
 * samples (/proc/vmstat, /proc/pressure/{memory,io,cpu}, each memcg's memory.stat,
 * memory.events, memory.current and memory.pressure, the lru_gen file) to
 * /dev/null with coreutils cat, one process per cat, as a monitoring
 * script would. bash and cat come from the tools disk, run through its
 * loader; the wait between samples is bash's own `read -t` on a pipe that
 * never speaks, so no process is spent on sleeping.
 *
 * One op = one sample (one pass over the files); its latency is the pass's
 * wall time (bash's EPOCHREALTIME around it). cpu_ns_per_sample is the CPU
 * of bash and every cat it ran (their rusage), per sample: the figure to
 * put beside the agent's agent:cpu_ns per sample.
 */
#include "wl-def.h"

struct opts {
	uint64_t interval_ms;
	uint64_t duration_ms;
};

/* Not a reclaim scenario: the benchmark's yardstick for the agent's own sampler. */
WORKLOAD_DEF(shell_monitor) = {
	WL_NAME("shell-monitor"),
	.claims = "bench",
	.decides = "cpu_ns_per_sample",
	.description = "a bash loop that cats the files the agent samples, every interval, one "
		       "cat process per file group: the agent's sampler's yardstick; one op = "
		       "one sample",
	.params = (const struct wl_param[]){
		PARAM_DURATION("interval", interval_ms, "1s", "between samples (bash's read -t)"),
		PARAM_DURATION("duration", duration_ms, "20s", "how long it samples"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("samples", "samples", "none", "passes over the files"),
		METRIC("cpu_ns_per_sample", "ns", "lower",
		       "CPU of bash and its cats per sample (beside agent:cpu_ns per sample)"),
		METRIC("cpu_pct", "pct", "lower", "that CPU as a share of one CPU's time"),
		{},
	},
	.tools = WL_TOOLS("bash", "cat"),
};

#ifndef WL_DEF_ONLY /* the host compiles the definition above alone, for its catalogue */
#include "util.h"
#include "wl-opts.h"
#include "wl-tool.h"
#include "wl.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* $1: the interval in seconds; $2: the duration in seconds; fd 3: a silent pipe. */
static const char script[] =
	"L=" WL_TOOLS_LOADER "; T=" WL_TOOLS_DIR "\n"
	"c() { \"$L\" --library-path \"$T/lib\" \"$T/bin/cat\" \"$@\"; }\n"
	"end=$((SECONDS + $2))\n"
	"while ((SECONDS < end)); do\n"
	"  t0=$EPOCHREALTIME\n"
	"  c /proc/vmstat /proc/pressure/memory /proc/pressure/io /proc/pressure/cpu > /dev/null\n"
	"  for d in /sys/fs/cgroup/*/; do\n"
	"    [[ -e $d/memory.stat ]] && c \"$d/memory.stat\" \"$d/memory.events\" "
	"\"$d/memory.current\" \"$d/memory.pressure\" > /dev/null\n"
	"  done\n"
	"  [[ -e /sys/kernel/debug/lru_gen ]] && c /sys/kernel/debug/lru_gen > /dev/null\n"
	"  echo \"$t0 $EPOCHREALTIME\"\n"
	"  read -t \"$1\" -u 3 || :\n"
	"done\n"
	"exit 0\n";

/* "1733243000.123456": microseconds. */
static uint64_t epoch_us(const char *s, char **end)
{
	uint64_t sec = strtoull(s, end, 10), us = 0;

	if (**end == '.' || **end == ',') {
		const char *f = *end + 1;
		int digits = 0;

		for (; *f >= '0' && *f <= '9'; f++, digits++)
			if (digits < 6)
				us = us * 10 + (uint64_t)(*f - '0');
		for (; digits < 6; digits++)
			us *= 10;
		*end = (char *)f;
	}
	return sec * 1000000 + us;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	char interval[32], duration[32], buf[4096], line[256];
	const char *bash = WL_TOOLS_DIR "/bin/bash";
	int out[2], silent[2], status, r;
	size_t ll = 0;
	uint64_t ops = 0, t0, t1, cpu_ns;
	struct rusage ru;
	ssize_t n;
	pid_t pid;

	r = wl_opts_parse(&wl_def_shell_monitor, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	if (access(bash, X_OK) < 0) {
		fprintf(stderr, "wl-shell-monitor: %s: %s (the tools disk holds bash)\n", bash,
			strerror(errno));
		return 1;
	}
	snprintf(interval, sizeof(interval), "%.3f", (double)o.interval_ms / 1000);
	snprintf(duration, sizeof(duration), "%llu",
		 (unsigned long long)((o.duration_ms + 999) / 1000));
	if (pipe2(out, O_CLOEXEC) < 0 || pipe(silent) < 0) {
		perror("wl-shell-monitor: pipe");
		return 1;
	}
	wl_hist_init(lat);
	t0 = wl_now_ns();
	pid = fork();
	if (pid < 0) {
		perror("wl-shell-monitor: fork");
		return 1;
	}
	if (pid == 0) {
		const char *args[] = { WL_TOOLS_LOADER, "--library-path", WL_TOOLS_DIR "/lib",
				       bash, "--norc", "--noprofile", "-c", script,
				       "shell-monitor", interval, duration, NULL };

		close(silent[1]);
		if (dup2(out[1], STDOUT_FILENO) < 0 || dup2(silent[0], 3) < 0)
			_exit(127);
		execv(args[0], (char *const *)args);
		_exit(127);
	}
	close(out[1]);
	close(silent[0]);
	/* One line per sample: its start and end, in microseconds of the epoch. */
	while ((n = read(out[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof(line) - 1)
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			{
				char *end;
				uint64_t a = epoch_us(line, &end), b = epoch_us(end, &end);

				if (b >= a && a) {
					wl_hist_add(lat, (b - a) * 1000);
					ops++;
				}
			}
		}
	}
	close(out[0]);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("wl-shell-monitor: wait");
			return 1;
		}
	t1 = wl_now_ns();
	close(silent[1]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "wl-shell-monitor: bash ended with status %d\n",
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return 1;
	}
	/* bash's rusage from wait4 includes every cat it waited for. */
	cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
		 (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	wl_result_common(ops, t1 - t0, lat);
	wl_result("samples", (double)ops);
	wl_result("cpu_ns_per_sample", ops ? (double)cpu_ns / (double)ops : 0);
	wl_result("cpu_pct", 100.0 * (double)cpu_ns / (double)(t1 - t0));
	return 0;
}
#endif /* WL_DEF_ONLY */
