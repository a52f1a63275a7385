// SPDX-License-Identifier: GPL-2.0
#include "spawn.h"
#include "util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define STDERR_KEEP 4096

struct capture {
	int fd;
	char *buf;
	size_t len, limit;
	bool keep_tail; /* keep the last limit bytes instead of the first */
	int (*on_data)(void *ctx, const char *buf, size_t len); /* or pass it on */
	void *ctx;
	int *cb_err;
};

static void capture_read(struct capture *c)
{
	char tmp[4096];
	ssize_t n = read(c->fd, tmp, sizeof(tmp));

	if (n <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			close(c->fd);
			c->fd = -1;
		}
		return;
	}
	if (c->on_data) {
		int r = c->on_data(c->ctx, tmp, (size_t)n);

		if (r < 0) {
			*c->cb_err = r;
			close(c->fd);
			c->fd = -1;
		}
		return;
	}
	if (c->keep_tail && c->len + (size_t)n > c->limit) {
		size_t drop = c->len + (size_t)n - c->limit;

		if (drop > c->len)
			drop = c->len;
		memmove(c->buf, c->buf + drop, c->len - drop);
		c->len -= drop;
	}
	if (c->len + (size_t)n > c->limit)
		n = (ssize_t)(c->limit - c->len);
	memcpy(c->buf + c->len, tmp, (size_t)n);
	c->len += (size_t)n;
}

int spawn_run(const char *const argv[], const struct spawn_opts *o)
{
	static const struct spawn_opts none;
	struct capture out = { .fd = -1 }, err = { .fd = -1 };
	int pout[2] = { -1, -1 }, perr[2] = { -1, -1 }, pin[2] = { -1, -1 };
	size_t in_off = 0;
	pid_t pid;
	int status, r, cb_err = 0;
	bool out_pipe;

	if (!o)
		o = &none;
	out_pipe = o->ret_stdout || o->on_stdout;
	if ((out_pipe && pipe2(pout, O_CLOEXEC) < 0) ||
	    (o->ret_stderr && pipe2(perr, O_CLOEXEC) < 0) ||
	    (o->stdin_buf && pipe2(pin, O_CLOEXEC) < 0)) {
		r = -errno;
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out_close;
	}
	if (pid == 0) {
		int fd;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Files are opened before chdir: their paths are the caller's. */
		if (o->stdin_buf)
			fd = pin[0];
		else
			fd = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, 0) < 0)
			_exit(127);
		if (o->stdout_path) {
			fd = open(o->stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
		} else if (out_pipe && dup2(pout[1], 1) < 0) {
			_exit(127);
		}
		if (o->stderr_to_stdout) {
			if (dup2(1, 2) < 0)
				_exit(127);
		} else if (o->ret_stderr && dup2(perr[1], 2) < 0) {
			_exit(127);
		}
		for (size_t i = 0; o->env && o->env[i]; i++)
			if (putenv((char *)o->env[i]) < 0)
				_exit(127);
		if (o->cwd && chdir(o->cwd) < 0)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (out_pipe) {
		close(pout[1]);
		pout[1] = -1;
		out.fd = TAKE_FD(pout[0]);
		out.limit = o->stdout_limit ? o->stdout_limit : (1u << 20);
		if (o->on_stdout) {
			out.limit = 4096;
			out.on_data = o->on_stdout;
			out.ctx = o->ctx;
			out.cb_err = &cb_err;
		}
		out.buf = xcalloc(1, out.limit + 1);
	}
	if (o->ret_stderr) {
		close(perr[1]);
		perr[1] = -1;
		err.fd = TAKE_FD(perr[0]);
		err.limit = STDERR_KEEP;
		err.keep_tail = true;
		err.buf = xcalloc(1, err.limit + 1);
	}
	if (o->stdin_buf) {
		close(pin[0]);
		pin[0] = -1;
		fcntl(pin[1], F_SETFL, O_NONBLOCK);
	}
	while (out.fd >= 0 || err.fd >= 0 || pin[1] >= 0) {
		struct pollfd pfd[3] = {
			{ .fd = out.fd, .events = POLLIN },
			{ .fd = err.fd, .events = POLLIN },
			{ .fd = pin[1], .events = POLLOUT },
		};

		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents)
			capture_read(&out);
		if (pfd[1].revents)
			capture_read(&err);
		if (pfd[2].revents) {
			ssize_t n = write(pin[1], o->stdin_buf + in_off, o->stdin_len - in_off);

			if (n > 0)
				in_off += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) || in_off >= o->stdin_len) {
				close(pin[1]);
				pin[1] = -1;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			r = -errno;
			goto out_close;
		}
	}
	if (o->ret_stdout && !o->on_stdout) {
		out.buf[out.len] = '\0';
		*o->ret_stdout = TAKE_PTR(out.buf);
	}
	if (o->ret_stderr) {
		err.buf[err.len] = '\0';
		*o->ret_stderr = TAKE_PTR(err.buf);
	}
	r = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (cb_err < 0)
		r = cb_err;
out_close:
	for (int i = 0; i < 2; i++) {
		closep(&pout[i]);
		closep(&perr[i]);
		closep(&pin[i]);
	}
	closep(&out.fd);
	closep(&err.fd);
	free(out.buf);
	free(err.buf);
	return r;
}

char *argv_join(const char *const argv[])
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = p = xcalloc(1, len);
	for (size_t i = 0; argv[i]; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	return s;
}
