// SPDX-License-Identifier: GPL-2.0
#include "vm-qemu.h"
#include "spawn.h"
#include "util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#define QEMU "qemu-system-x86_64"

/* The QEMU every guest of this process runs on: vm_qemu_use()'s root, or the system's. */
static char *qemu_root;

void vm_qemu_use(const char *root)
{
	free(qemu_root);
	qemu_root = root ? xstrdup(root) : NULL;
}

static char *qemu_binary(void)
{
	return qemu_root ? xasprintf("%s/usr/bin/" QEMU, qemu_root) : xstrdup(QEMU);
}

const char *vm_end_name(enum vm_end end)
{
	static const char *const names[] = {
		[VM_EXITED] = "exited",
		[VM_HELLO_TIMEOUT] = "hello-timeout",
		[VM_SILENCE_TIMEOUT] = "silence-timeout",
		[VM_TIMEOUT] = "timeout",
		[VM_ABORTED] = "aborted",
		[VM_START_FAILED] = "start-failed",
		[VM_INTERRUPTED] = "interrupted",
	};
	return end < ARRAY_SIZE(names) ? names[end] : "?";
}

static void argv_push(char ***argv, size_t *n, char *s)
{
	*argv = xrealloc(*argv, *n + 2, sizeof(char *));
	(*argv)[(*n)++] = s;
	(*argv)[*n] = NULL;
}

/* QEMU's option syntax splits on commas; a literal comma is written twice. */
static char *qemu_opt_escape(const char *v)
{
	size_t n = strlen(v) + 1;
	char *out, *p;

	for (const char *c = v; *c; c++)
		n += *c == ',';
	out = p = xcalloc(1, n);
	for (const char *c = v; *c; c++) {
		*p++ = *c;
		if (*c == ',')
			*p++ = ',';
	}
	return out;
}

/*
 * NUMA nodes: node i gets mem_mb / numa of the memory (the last one the
 * rest) from its own RAM backend, and CPU j goes to node j mod numa; a node
 * beyond the CPUs has memory only, which QEMU and Linux accept.
 */
static void numa_argv(const struct vm_spec *s, char ***argv, size_t *n)
{
	uint64_t node_mb = s->numa > 1 ? s->mem_mb / (uint64_t)s->numa : 0;

	for (int i = 0; s->numa > 1 && i < s->numa; i++) {
		uint64_t mb = i == s->numa - 1 ? s->mem_mb - node_mb * (uint64_t)(s->numa - 1)
					       : node_mb;
		char *node = xasprintf("node,nodeid=%d,memdev=ram%d", i, i), *t;

		for (int cpu = i; cpu < s->cpus; cpu += s->numa) {
			t = xasprintf("%s,cpus=%d", node, cpu);
			free(node);
			node = t;
		}
		argv_push(argv, n, xstrdup("-object"));
		argv_push(argv, n, xasprintf("memory-backend-ram,id=ram%d,size=%lluM", i,
					     (unsigned long long)mb));
		argv_push(argv, n, xstrdup("-numa"));
		argv_push(argv, n, node);
	}
}

char **vm_argv(const struct vm_spec *s, const char *sock_path, const char *console_path)
{
	_cleanup_free_ char *con_esc = qemu_opt_escape(console_path);
	_cleanup_free_ char *sock_esc = qemu_opt_escape(sock_path);
	char **argv = NULL;
	size_t n = 0;
	bool kvm = !strcmp(s->accel, "kvm");

	argv_push(&argv, &n, qemu_binary());
	/* An unpacked QEMU finds its firmware where it was unpacked, not in /usr/share. */
	for (size_t i = 0; qemu_root && i < 2; i++) {
		argv_push(&argv, &n, xstrdup("-L"));
		argv_push(&argv, &n, xasprintf("%s/usr/share/%s", qemu_root, i ? "seabios" : "qemu"));
	}
	argv_push(&argv, &n, xstrdup("-nodefaults"));
	argv_push(&argv, &n, xstrdup("-no-user-config"));
	argv_push(&argv, &n, xstrdup("-display"));
	argv_push(&argv, &n, xstrdup("none"));
	argv_push(&argv, &n, xstrdup("-no-reboot"));
	argv_push(&argv, &n, xstrdup("-accel"));
	argv_push(&argv, &n, xstrdup(kvm ? "kvm" : "tcg"));
	if (s->icount && !kvm) {
		argv_push(&argv, &n, xstrdup("-icount"));
		argv_push(&argv, &n, xasprintf("shift=%d,sleep=%s", s->icount->shift,
					       s->icount->sleep ? "on" : "off"));
	}
	argv_push(&argv, &n, xstrdup("-cpu"));
	argv_push(&argv, &n, xstrdup(kvm ? "host" : "max"));
	argv_push(&argv, &n, xstrdup("-m"));
	argv_push(&argv, &n, xasprintf("%llu", (unsigned long long)s->mem_mb));
	argv_push(&argv, &n, xstrdup("-smp"));
	argv_push(&argv, &n, xasprintf("%d", s->cpus));
	numa_argv(s, &argv, &n);
	argv_push(&argv, &n, xstrdup("-kernel"));
	argv_push(&argv, &n, xstrdup(s->kernel));
	argv_push(&argv, &n, xstrdup("-initrd"));
	argv_push(&argv, &n, xstrdup(s->initrd));
	argv_push(&argv, &n, xstrdup("-append"));
	argv_push(&argv, &n, xstrdup(s->cmdline));
	/* Console: the first serial port, to a file kept per run. */
	argv_push(&argv, &n, xstrdup("-chardev"));
	argv_push(&argv, &n, xasprintf("file,id=con0,path=%s", con_esc));
	argv_push(&argv, &n, xstrdup("-serial"));
	argv_push(&argv, &n, xstrdup("chardev:con0"));
	/* The agent's channel: a virtio-serial port named lrubench.0 on our socket. */
	argv_push(&argv, &n, xstrdup("-device"));
	argv_push(&argv, &n, xstrdup("virtio-serial-pci,id=vser0"));
	argv_push(&argv, &n, xstrdup("-chardev"));
	argv_push(&argv, &n, xasprintf("socket,id=chan0,path=%s", sock_esc));
	argv_push(&argv, &n, xstrdup("-device"));
	argv_push(&argv, &n, xstrdup("virtserialport,bus=vser0.0,chardev=chan0,name=lrubench.0"));
	/* Disks: raw images on virtio-blk, named by serial. A read-only one is
	 * shared by concurrent guests; a writable one is a run's own scratch,
	 * thrown away after it, so the host's flushes are skipped (cache=unsafe). */
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct vm_disk *d = &s->disks[i];
		_cleanup_free_ char *path = qemu_opt_escape(d->path);
		_cleanup_free_ char *serial = qemu_opt_escape(d->serial);

		argv_push(&argv, &n, xstrdup("-drive"));
		argv_push(&argv, &n, xasprintf("file=%s,if=none,id=disk%zu,format=raw,%s", path, i,
					       d->readonly ? "readonly=on" : "cache=unsafe"));
		argv_push(&argv, &n, xstrdup("-device"));
		argv_push(&argv, &n, xasprintf("virtio-blk-pci,drive=disk%zu,serial=%s", i, serial));
	}
	return argv;
}

void vm_argv_free(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

void vm_result__clear(struct vm_result *res)
{
	free(res->argv);
	free(res->error);
	memset(res, 0, sizeof(*res));
}

static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* The channel's private directory and its socket go on every way out. */
static void sock_dir_removep(char **dir)
{
	if (*dir) {
		_cleanup_free_ char *sock = xasprintf("%s/chan.sock", *dir);

		unlink(sock);
		rmdir(*dir);
		free(*dir);
	}
}

static int64_t deadline_left_ms(int64_t deadline_ns, int64_t now)
{
	if (!deadline_ns)
		return INT64_MAX;
	return deadline_ns > now ? (deadline_ns - now + 999999) / 1000000 : 0;
}

int vm_run(const struct vm_spec *s, vm_data_fn on_data, void *ctx, struct vm_result *res)
{
	_cleanup_(sock_dir_removep) char *sock_dir = NULL;
	_cleanup_free_ char *sock_path = NULL, *console = NULL, *qlog = NULL;
	_cleanup_close_ int lfd = -1, cfd = -1, pidfd = -1;
	char **argv = NULL;
	int64_t t0, last_data, hello_deadline = 0, run_deadline = 0;
	bool exited = false;
	pid_t pid;
	int status = 0;
	char buf[65536];

	memset(res, 0, sizeof(*res));
	res->first_byte_ns = -1;
	/* A short private path: sun_path holds 108 bytes and run dirs can be deep. */
	sock_dir = xstrdup("/tmp/lrubench-chan-XXXXXX");
	if (!mkdtemp(sock_dir)) {
		res->end = VM_START_FAILED;
		res->error = xasprintf("mkdtemp %s: %s", sock_dir, strerror(errno));
		free(TAKE_PTR(sock_dir));
		return -errno;
	}
	sock_path = xasprintf("%s/chan.sock", sock_dir);
	console = xasprintf("%s/console.log", s->run_dir);
	qlog = xasprintf("%s/qemu.log", s->run_dir);
	argv = vm_argv(s, sock_path, console);
	res->argv = argv_join((const char *const *)argv);

	lfd = listen_unix(sock_path);
	if (lfd < 0) {
		res->end = VM_START_FAILED;
		res->error = xasprintf("channel socket %s: %s", sock_path, strerror(-lfd));
		vm_argv_free(argv);
		return lfd;
	}
	t0 = now_mono_ns();
	pid = fork();
	if (pid < 0) {
		res->end = VM_START_FAILED;
		res->error = xasprintf("fork: %s", strerror(errno));
		vm_argv_free(argv);
		return -errno;
	}
	if (pid == 0) {
		int fd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);
		if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	vm_argv_free(argv);
	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		res->end = VM_START_FAILED;
		res->error = xasprintf("pidfd_open: %s", strerror(errno));
		return -errno;
	}
	last_data = t0;
	if (s->hello_timeout_ms)
		hello_deadline = t0 + (int64_t)s->hello_timeout_ms * 1000000;
	if (s->timeout_ms)
		run_deadline = t0 + (int64_t)s->timeout_ms * 1000000;
	res->end = VM_EXITED;

	while (!exited || cfd >= 0) {
		struct pollfd pfd[2] = {
			{ .fd = cfd >= 0 ? cfd : lfd, .events = POLLIN },
			{ .fd = exited ? -1 : pidfd, .events = POLLIN },
		};
		int64_t now = now_mono_ns(), wait_ms = INT64_MAX;
		bool silence_due = false;
		int n;

		if (s->interrupt && *s->interrupt) {
			res->end = VM_INTERRUPTED;
			break;
		}
		if (!exited) {
			int64_t silence_deadline = 0;

			if (res->first_byte_ns < 0) {
				wait_ms = deadline_left_ms(hello_deadline, now);
				if (hello_deadline && wait_ms == 0) {
					res->end = VM_HELLO_TIMEOUT;
					break;
				}
			} else if (s->silence_timeout_ms) {
				silence_deadline = last_data + (int64_t)s->silence_timeout_ms * 1000000;
				wait_ms = deadline_left_ms(silence_deadline, now);
				/*
				 * Due: a poll that does not wait decides. Data the host was
				 * too busy to read (a store commit stalled in fsync on a
				 * loaded disk) is in the socket, and is not the guest's
				 * silence.
				 */
				silence_due = wait_ms == 0;
			}
			if (run_deadline) {
				int64_t left = deadline_left_ms(run_deadline, now);

				if (left == 0) {
					res->end = VM_TIMEOUT;
					break;
				}
				if (left < wait_ms)
					wait_ms = left;
			}
		} else {
			/* QEMU is gone: drain what the socket still holds, briefly. */
			wait_ms = 1000;
		}
		n = poll(pfd, 2, wait_ms == INT64_MAX ? -1 : (int)(wait_ms > 60000 ? 60000 : wait_ms));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (n == 0 && exited)
			break;
		if (n == 0 && silence_due) {
			res->end = VM_SILENCE_TIMEOUT;
			break;
		}
		if (pfd[1].revents) {
			waitpid(pid, &status, 0);
			exited = true;
			res->wall_ns = now_mono_ns() - t0;
		}
		if (pfd[0].revents) {
			if (cfd < 0) {
				cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
				continue;
			}
			ssize_t got = read(cfd, buf, sizeof(buf));

			if (got <= 0) {
				if (got < 0 && errno == EINTR)
					continue;
				closep(&cfd);
				cfd = -1;
				continue;
			}
			if (res->first_byte_ns < 0)
				res->first_byte_ns = now_mono_ns() - t0;
			res->channel_bytes += (uint64_t)got;
			if (on_data && on_data(ctx, buf, (size_t)got) < 0) {
				res->end = VM_ABORTED;
				break;
			}
			/* after the host handled it: its own stalls are not the guest's silence */
			last_data = now_mono_ns();
		}
	}
	if (!exited) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		res->wall_ns = now_mono_ns() - t0;
		/* Bytes already in the socket are data too. */
		while (cfd >= 0) {
			ssize_t got = read(cfd, buf, sizeof(buf));

			if (got <= 0)
				break;
			res->channel_bytes += (uint64_t)got;
			if (on_data && on_data(ctx, buf, (size_t)got) < 0)
				break;
		}
	}
	if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
	if (res->end == VM_EXITED && (res->exit_code != 0 || res->signal)) {
		_cleanup_free_ char *log = NULL;
		const char *tail = "";

		read_file(qlog, 1u << 16, &log, NULL);
		if (log) {
			tail = strstrip(log);
			if (strlen(tail) > 300)
				tail += strlen(tail) - 300;
		}
		res->error = xasprintf("QEMU %s %d: %s", res->signal ? "killed by signal" : "exited with status",
				       res->signal ? res->signal : res->exit_code, tail);
	}
	return 0;
}

bool vm_kvm_openable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

void vm_run_dir_remove(const char *run_dir)
{
	_cleanup_free_ char *console = xasprintf("%s/console.log", run_dir);
	_cleanup_free_ char *qlog = xasprintf("%s/qemu.log", run_dir);

	unlink(console);
	unlink(qlog);
	rmdir(run_dir);
}

char *vm_qemu_version(void)
{
	_cleanup_free_ char *bin = qemu_binary();
	const char *argv[] = { bin, "--version", NULL };
	char *out = NULL;
	struct spawn_opts o = { .ret_stdout = &out };

	if (spawn_run(argv, &o) != 0) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}
