// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-time setup of the guest: file systems (cgroup2 is agent-host.c's,
 * once run.conf says its options), console, kernel modules and knobs
 * (lru_gen, sysctls, sysfs), and the way out (power off).
 *
 * Knobs are written at boot, before any workload: flipping the LRU under
 * pressure can OOM-kill healthy memcgs on 6.1. Each is read back and sent
 * as a conf record, so the host stores what the kernel took, not what was
 * asked.
 */
#include "agent.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define LRU_GEN_DIR "/sys/kernel/mm/lru_gen"

struct mount_point {
	const char *source, *target, *fstype;
	unsigned long flags;
	bool required;
};

static const struct mount_point mount_points[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, true },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, true },
	{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, true },
	/* pseudo-terminals: /dev/ptmx (devtmpfs) opens this instance */
	{ "devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, false },
	{ "debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, false },
	{ "tracefs", "/sys/kernel/tracing", "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, false },
};

int setup_mounts(void)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(mount_points); i++) {
		const struct mount_point *m = &mount_points[i];

		if (mkdir(m->target, 0755) < 0 && errno != EEXIST)
			log_warn("mkdir %s: %m", m->target);
		if (mount(m->source, m->target, m->fstype, m->flags, NULL) < 0 && errno != EBUSY) {
			int r = -errno;

			log_msg(m->required ? LOG_ERR : LOG_WARN, "mount %s on %s: %s", m->fstype,
				m->target, strerror(-r));
			if (m->required && !ret)
				ret = r;
		}
	}
	return ret;
}

void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	/* One write per line, so kernel messages do not split ours. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
}

int setup_modules(struct agent *a)
{
	int ret = 0;

	for (size_t i = 0; i < a->conf->n_modules; i++) {
		const char *path = a->conf->modules[i];
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
		int r = 0;

		if (fd < 0)
			r = -errno;
		else if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)
			r = -errno;
		if (r < 0) {
			channel_event(a->ch, "error", "module %s: %s", path, strerror(-r));
			if (!ret)
				ret = r;
			continue;
		}
		channel_event(a->ch, "boot", "module %s", path);
	}
	return ret;
}

int read_knob(const char *path, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	char *s, *out = buf;
	bool blank = false;
	int r;

	r = read_file(path, 64 * 1024, &text, NULL);
	if (r < 0)
		return r;
	s = strstrip(text);
	for (; *s && (size_t)(out - buf) < size - 1; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			blank = true;
			continue;
		}
		if (blank)
			*out++ = ' ';
		blank = false;
		if ((size_t)(out - buf) < size - 1)
			*out++ = *s;
	}
	*out = '\0';
	return 0;
}

/* Write value to path, read it back and send "conf KEY READBACK". */
static int apply_knob(struct agent *a, const char *key, const char *path, const char *value)
{
	char back[512];
	int r;

	r = write_file(path, value);
	if (r < 0) {
		channel_event(a->ch, "error", "knob %s: cannot write '%s': %s", key, value,
			      strerror(-r));
		return r;
	}
	r = read_knob(path, back, sizeof(back));
	if (r < 0) {
		channel_event(a->ch, "error", "knob %s: cannot read back: %s", key, strerror(-r));
		return r;
	}
	channel_record(a->ch, "conf %s %s", key, back);
	return 0;
}

/* A numeric lru_gen knob: written, then read back and compared. */
static int apply_lru_gen(struct agent *a, const char *file, uint64_t value, const char *fmt)
{
	_cleanup_free_ char *path = xasprintf(LRU_GEN_DIR "/%s", file);
	_cleanup_free_ char *key = xasprintf("lru_gen/%s", file);
	_cleanup_free_ char *text = xasprintf(fmt, value);
	char back[64];
	uint64_t got;
	int r;

	r = apply_knob(a, key, path, text);
	if (r < 0)
		return r;
	r = read_knob(path, back, sizeof(back));
	if (r < 0)
		return r;
	if (parse_u64_c(back, &got) < 0 || got != value) {
		channel_event(a->ch, "error", "knob %s: wrote %s, kernel has %s", key, text, back);
		return -EINVAL;
	}
	return 0;
}

static int setup_lru_gen(struct agent *a)
{
	const struct agent_conf *c = a->conf;
	char back[64];
	int r;

	if (access(LRU_GEN_DIR "/enabled", F_OK) < 0) {
		if (c->has_lru_enabled && c->lru_enabled) {
			channel_event(a->ch, "error",
				      "lru_enabled=0x%04x but " LRU_GEN_DIR
				      "/enabled is absent (kernel without CONFIG_LRU_GEN)",
				      c->lru_enabled);
			return -ENOENT;
		}
		channel_record(a->ch, "conf lru_gen/enabled absent");
		return 0;
	}
	if (c->has_lru_enabled) {
		r = apply_lru_gen(a, "enabled", c->lru_enabled, "0x%04" PRIx64);
		if (r < 0)
			return r;
	} else if (read_knob(LRU_GEN_DIR "/enabled", back, sizeof(back)) == 0) {
		channel_record(a->ch, "conf lru_gen/enabled %s", back);
	}
	if (c->has_min_ttl_ms) {
		r = apply_lru_gen(a, "min_ttl_ms", c->min_ttl_ms, "%" PRIu64);
		if (r < 0)
			return r;
	} else if (read_knob(LRU_GEN_DIR "/min_ttl_ms", back, sizeof(back)) == 0) {
		channel_record(a->ch, "conf lru_gen/min_ttl_ms %s", back);
	}
	return 0;
}

/* What the host should know about the machine it booted. */
static void report_machine(struct agent *a)
{
	char buf[512];

	if (read_knob("/proc/cmdline", buf, sizeof(buf)) == 0)
		channel_record(a->ch, "conf kernel/cmdline %s", buf);
	channel_record(a->ch, "conf cpus %ld", sysconf(_SC_NPROCESSORS_ONLN));
	channel_record(a->ch, "conf mem_total_bytes %" PRId64,
		       (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE));
	channel_record(a->ch, "conf page_size %ld", sysconf(_SC_PAGESIZE));
}

int setup_knobs(struct agent *a)
{
	const struct agent_conf *c = a->conf;
	int r;

	report_machine(a);
	r = setup_lru_gen(a);
	if (r < 0)
		return r;
	for (size_t i = 0; i < c->n_sysctls; i++) {
		_cleanup_free_ char *path = xasprintf("/proc/sys/%s", c->sysctls[i].key);

		r = apply_knob(a, c->sysctls[i].key, path, c->sysctls[i].value);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < c->n_sysfs; i++) {
		_cleanup_free_ char *path = xasprintf("/sys/%s", c->sysfs[i].key);

		r = apply_knob(a, c->sysfs[i].key, path, c->sysfs[i].value);
		if (r < 0)
			return r;
	}
	/* Values nobody set: the kernel's own defaults, which a patch may change. */
	for (size_t i = 0; i < c->n_readbacks; i++) {
		_cleanup_free_ char *path = xasprintf("/proc/sys/%s", c->readbacks[i]);
		char back[512];

		if (read_knob(path, back, sizeof(back)) == 0)
			channel_record(a->ch, "conf %s %s", c->readbacks[i], back);
		else
			channel_record(a->ch, "conf %s absent", c->readbacks[i]);
	}
	channel_event(a->ch, "knobs", "applied %zu sysctl, %zu sysfs", c->n_sysctls, c->n_sysfs);
	return 0;
}

void agent_poweroff(struct agent *a, const char *reason)
{
	channel_record(a->ch, "bye %s", reason);
	/* Workloads still running (a timeout, a failed start) go first. */
	kill(-1, SIGKILL);
	sync();
	reboot(RB_POWER_OFF);
	log_err("reboot(RB_POWER_OFF): %m");
	for (;;)
		pause();
}
