// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest-memcg: the kernel's own memcg selftest
 * (tools/testing/selftests/cgroup/test_memcontrol) in the guest, the suite
 * of the kernel's series: /bin/kselftest-memcontrol-6.1 and -6.12, built
 * from Debian's linux-source packages as the kernel builds them (the
 * Makefile: -Wall -pthread, no -O, for at -O2 the compiler drops the
 * allocations some tests measure, and they fail falsely).
 *
 * It answers "is memcg accounting and protection still right under this
 * LRU and this patch", beside the performance figures: each test is a
 * result, ok_NAME (1 passed, 0 failed; absent when the suite skipped it).
 * The suite runs in the scratch directory, because its page cache tests
 * make files there with O_TMPFILE (on the initramfs they would not be
 * reclaimable), and on a pseudo-terminal, so that its stdio is line
 * buffered: on a pipe, each fork of a test would repeat what the parent had
 * not yet flushed, and the time of a result line would be meaningless.
 * One op = one test; its latency is the test's wall time.
 */
#include "wl-def.h"

struct opts {
	const char *suite;
	const char *dir;
};

#define OK_METRIC(t, h) METRIC("ok_" t, "bool", "higher", "test_memcg_" t " passed: " h)

WORKLOAD_DEF(kselftest_memcg) = {
	WL_NAME("kselftest-memcg"),
	.claims = "sanity",
	.decides = "tests_failed",
	.description = "the kernel's memcg selftest (test_memcontrol) of the kernel's series, "
		       "built from linux-source as the kernel builds it; one op = one test",
	.params = (const struct wl_param[]){
		PARAM_CHOICE("suite", suite, "auto", "auto|6.1|6.12",
			     "whose test_memcontrol: auto, the booted kernel's series"),
		{},
	},
	.metrics = (const struct wl_metric[]){
		COMMON_METRICS,
		METRIC("tests_passed", "tests", "higher", "tests that passed"),
		METRIC("tests_failed", "tests", "lower", "tests that failed"),
		METRIC("tests_skipped", "tests", "none", "tests the suite skipped"),
		OK_METRIC("subtree_control", "subtree_control propagates"),
		OK_METRIC("current", "memory.current follows an allocation (6.1)"),
		OK_METRIC("current_peak", "memory.current and memory.peak follow it (6.12)"),
		OK_METRIC("min", "memory.min protects"),
		OK_METRIC("low", "memory.low protects, and its events"),
		OK_METRIC("high", "memory.high throttles"),
		OK_METRIC("high_sync", "memory.high is enforced synchronously"),
		OK_METRIC("max", "memory.max limits"),
		OK_METRIC("reclaim", "memory.reclaim reclaims what is asked"),
		OK_METRIC("oom_events", "oom and oom_kill events"),
		OK_METRIC("swap_max", "memory.swap.max limits (6.1)"),
		OK_METRIC("swap_max_peak", "memory.swap.max and swap.peak (6.12)"),
		OK_METRIC("sock", "socket memory is charged (needs lo and localhost)"),
		OK_METRIC("oom_group_leaf_events", "memory.oom.group in a leaf"),
		OK_METRIC("oom_group_parent_events", "memory.oom.group in a parent"),
		OK_METRIC("oom_group_score_events", "memory.oom.group spares OOM_SCORE_ADJ_MIN"),
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
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>

#define PROG "wl-kselftest-memcg"

struct tally {
	struct wl_hist *lat;
	uint64_t last_ns;
	unsigned passed, failed, skipped;
};

/* The suite for the booted kernel's series, or NULL. */
static const char *suite_auto(char *buf, size_t size)
{
	struct utsname u;
	unsigned major, minor;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return NULL;
	snprintf(buf, size, "%u.%u", major, minor);
	return wl_param__choice_ok(&wl_def_kselftest_memcg.params[0], buf) && strcmp(buf, "auto")
		       ? buf
		       : NULL;
}

/* "ok 3 test_memcg_min", "not ok 3 ...", "ok 3 # SKIP test_memcg_min". */
static void tap_line(struct tally *t, const char *line)
{
	bool ok = !strncmp(line, "ok ", 3);
	const char *s = line + (ok ? 3 : 7), *name;
	uint64_t now = wl_now_ns();
	char key[96];

	if (!ok && strncmp(line, "not ok ", 7))
		return;
	s += strspn(s, "0123456789");
	s += strspn(s, " ");
	if (!strncmp(s, "# SKIP ", 7)) {
		t->skipped++;
		fprintf(stderr, PROG ": %s\n", line);
		return;
	}
	if (!strncmp(s, "# ", 2)) /* XFAIL, XPASS: not this suite's */
		s = strchr(s + 2, ' ') ? strchr(s + 2, ' ') + 1 : s;
	wl_hist_add(t->lat, now - t->last_ns);
	t->last_ns = now;
	ok ? t->passed++ : t->failed++;
	if (!ok)
		fprintf(stderr, PROG ": %s\n", line);
	name = !strncmp(s, "test_memcg_", 11) ? s + 11 : s;
	snprintf(key, sizeof(key), "ok_%.*s", (int)strcspn(name, " \t"), name);
	if (workload_metric(&wl_def_kselftest_memcg, key))
		wl_result(key, ok);
	else
		fprintf(stderr, PROG ": %s: a test this wrapper does not know (no %s result)\n",
			line, key);
}

/* A pseudo-terminal for the suite's stdout; the master is returned, the slave in *ret_slave. */
static int pty_open(int *ret_slave)
{
	char name[64];
	struct termios tio;
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s;

	if (m < 0)
		return -errno;
	if (grantpt(m) < 0 || unlockpt(m) < 0 || ptsname_r(m, name, sizeof(name)) != 0) {
		int r = -errno;

		close(m);
		return r;
	}
	s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		int r = -errno;

		close(m);
		return r;
	}
	/* Raw: no "\r\n" for "\n", no echo. */
	if (tcgetattr(s, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(s, TCSANOW, &tio);
	}
	*ret_slave = s;
	return m;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	_cleanup_free_ char *bin = NULL;
	struct tally t = { .lat = lat };
	char series[32], buf[4096], line[512];
	const char *suite;
	size_t ll = 0;
	int master, slave = -1, status, r;
	uint64_t t0;
	ssize_t n;
	pid_t pid;

	r = wl_opts_parse(&wl_def_kselftest_memcg, argc, argv, &o);
	if (r != 0)
		return r < 0 ? 2 : 0;
	suite = strcmp(o.suite, "auto") ? o.suite : suite_auto(series, sizeof(series));
	if (!suite) {
		struct utsname u;

		fprintf(stderr, PROG ": no suite for kernel %s (shipped: 6.1, 6.12): set suite\n",
			uname(&u) == 0 ? u.release : "?");
		return 1;
	}
	bin = xasprintf("/bin/kselftest-memcontrol-%s", suite);
	if (access(bin, X_OK) < 0) {
		fprintf(stderr, PROG ": %s: %s (make builds it from linux-source-%s)\n", bin,
			strerror(errno), suite);
		return 1;
	}
	r = wl_dir_make(o.dir);
	if (r < 0) {
		fprintf(stderr, PROG ": mkdir %s: %s\n", o.dir, strerror(-r));
		return 1;
	}
	master = pty_open(&slave);
	if (master < 0) {
		fprintf(stderr, PROG ": pseudo-terminal: %s (is devpts mounted on /dev/pts?)\n",
			strerror(-master));
		return 1;
	}
	fprintf(stderr, PROG ": %s in %s\n", bin, o.dir);
	wl_hist_init(lat);
	t0 = t.last_ns = wl_now_ns();
	pid = fork();
	if (pid < 0) {
		perror(PROG ": fork");
		return 1;
	}
	if (pid == 0) {
		const char *args[] = { bin, NULL };

		if (chdir(o.dir) < 0 || dup2(slave, STDOUT_FILENO) < 0)
			_exit(127);
		execv(bin, (char *const *)args);
		_exit(127);
	}
	close(slave);
	/* Until every holder of the slave (the suite and its children) is gone: EIO. */
	while ((n = read(master, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\r')
				continue;
			if (buf[i] != '\n') {
				if (ll < sizeof(line) - 1)
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			tap_line(&t, line);
		}
	}
	close(master);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror(PROG ": wait");
			return 1;
		}
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
		fprintf(stderr, PROG ": %s ended with %s %d\n", bin,
			WIFSIGNALED(status) ? "signal" : "status",
			WIFSIGNALED(status) ? WTERMSIG(status) : 127);
		return 1;
	}
	/* A suite that ran no test measured nothing: not a result. */
	if (!t.passed && !t.failed) {
		fprintf(stderr, PROG ": %s ran no test (%u skipped, status %d)\n", bin, t.skipped,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return 1;
	}
	wl_result_common(t.passed + t.failed, wl_now_ns() - t0, lat);
	wl_result("tests_passed", t.passed);
	wl_result("tests_failed", t.failed);
	wl_result("tests_skipped", t.skipped);
	return 0;
}
#endif /* WL_DEF_ONLY */
