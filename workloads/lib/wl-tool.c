// SPDX-License-Identifier: GPL-2.0
#include "wl-tool.h"

#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define OUT_LIMIT (64u << 20)

int wl_tool_run(const char *tool, const char *const args[], const char *cwd, char **ret_out,
		int *ret_status, struct rusage *ret_ru)
{
	_cleanup_free_ char *bin = xasprintf(WL_TOOLS_DIR "/bin/%s", tool);
	_cleanup_free_ const char **argv = NULL;
	_cleanup_free_ char *out = NULL;
	size_t nargs = 0, len = 0, cap = 65536;
	struct rusage ru;
	int p[2], status;
	pid_t pid;

	while (args[nargs])
		nargs++;
	argv = xcalloc(nargs + 5, sizeof(char *));
	argv[0] = WL_TOOLS_LOADER;
	argv[1] = "--library-path";
	argv[2] = WL_TOOLS_DIR "/lib";
	argv[3] = bin;
	for (size_t i = 0; i < nargs; i++)
		argv[4 + i] = args[i];
	if (access(bin, X_OK) < 0)
		return -errno;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int r = -errno;

		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) < 0 || (cwd && chdir(cwd) < 0))
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	out = xcalloc(1, cap);
	for (;;) {
		ssize_t n;

		if (cap - len < 4096 && cap < OUT_LIMIT + 4096) {
			cap *= 2;
			out = xrealloc(out, cap, 1);
		}
		n = read(p[0], out + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len + (size_t)n <= OUT_LIMIT)
			len += (size_t)n;
	}
	close(p[0]);
	out[len] = '\0';
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -errno;
	*ret_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (ret_ru)
		*ret_ru = ru;
	*ret_out = TAKE_PTR(out);
	return 0;
}
