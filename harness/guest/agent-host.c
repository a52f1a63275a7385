// SPDX-License-Identifier: GPL-2.0
/*
 * The guest as a real host would be: cgroup2 mounted with the options a
 * systemd host uses (run.conf's cgroup2_options; systemd mounts it with
 * nsdelegate,memory_recursiveprot, which changes how memory.low and
 * memory.min reach nested memcgs), the loopback interface up, and
 * /etc/hosts, /etc/nsswitch.conf and a host name, so that programs that
 * talk to "localhost" (the kernel's memcg selftest's socket test) work.
 *
 * What the kernel took is sent as conf records (cgroup2/options, net/lo),
 * read back from /proc/self/mounts and the interface's flags, so the host
 * stores what the guest was, not what was asked.
 */
#include "agent.h"
#include "mempolicy.h"
#include "util.h"

#include <fcntl.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define GUEST_HOSTNAME "lrubench-guest"

/* The options field of target's line in /proc/self/mounts, or -ENOENT. */
static int mount_options(const char *target, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	char *save = NULL;
	int r;

	r = read_file("/proc/self/mounts", 1024 * 1024, &text, NULL);
	if (r < 0)
		return r;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char src[64], dir[256], type[64], opts[512];

		if (sscanf(line, "%63s %255s %63s %511s", src, dir, type, opts) != 4)
			continue;
		if (!strcmp(dir, target) && !strcmp(type, "cgroup2")) {
			snprintf(buf, size, "%s", opts);
			return 0;
		}
	}
	return -ENOENT;
}

int setup_cgroup2(struct agent *a)
{
	const char *want = a->conf->cgroup2_options;
	const char *data = want && strcmp(want, "none") ? want : NULL;
	char opts[512];

	if (mkdir(CGROUP_ROOT, 0755) < 0 && errno != EEXIST) {
		channel_event(a->ch, "error", "mkdir %s: %s", CGROUP_ROOT, strerror(errno));
		return -errno;
	}
	if (mount("cgroup2", CGROUP_ROOT, "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, data) < 0) {
		int r = -errno;

		channel_event(a->ch, "error", "mount cgroup2 on %s with '%s': %s%s", CGROUP_ROOT,
			      data ? data : "", strerror(-r),
			      r == -EINVAL && data ? " (an option this kernel does not know: "
						     "set cgroup2_options in the plan's [guest])"
						   : "");
		return r;
	}
	if (mount_options(CGROUP_ROOT, opts, sizeof(opts)) < 0) {
		channel_event(a->ch, "error", "cgroup2 on %s is not in /proc/self/mounts",
			      CGROUP_ROOT);
		return -ENOENT;
	}
	channel_record(a->ch, "conf cgroup2/options %s", opts);
	return 0;
}

/* lo up (the kernel gives it 127.0.0.1 and ::1); 0, or -errno if the kernel has no network. */
static int loopback_up(unsigned *ret_flags)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr = { 0 };

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	*ret_flags = (unsigned)(unsigned short)ifr.ifr_flags;
	return 0;
}

static int file_create(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	return write_all(fd, text, strlen(text));
}

static const struct {
	const char *path, *text;
} host_files[] = {
	{ "/etc/hostname", GUEST_HOSTNAME "\n" },
	{ "/etc/hosts", "127.0.0.1\tlocalhost\n"
			"127.0.1.1\t" GUEST_HOSTNAME "\n"
			"::1\tlocalhost ip6-localhost ip6-loopback\n" },
	{ "/etc/nsswitch.conf", "hosts: files dns\n" },
};

/*
 * Not fatal: a kernel without networking (a minimal recipe) runs every
 * workload but the ones that need sockets; the conf record says which.
 */
void setup_host(struct agent *a)
{
	unsigned flags = 0;
	int r;

	if (mkdir("/etc", 0755) < 0 && errno != EEXIST)
		log_warn("mkdir /etc: %m");
	for (size_t i = 0; i < ARRAY_SIZE(host_files); i++) {
		r = file_create(host_files[i].path, host_files[i].text);
		if (r < 0)
			channel_event(a->ch, "warn", "%s: %s", host_files[i].path, strerror(-r));
	}
	if (sethostname(GUEST_HOSTNAME, strlen(GUEST_HOSTNAME)) < 0)
		channel_event(a->ch, "warn", "sethostname: %s", strerror(errno));
	r = loopback_up(&flags);
	if (r < 0)
		channel_record(a->ch, "conf net/lo absent (%s)", strerror(-r));
	else
		channel_record(a->ch, "conf net/lo %s", flags & IFF_UP ? "up" : "down");
}

/* A node's file under /sys/devices/system/node, its first line; NULL when unreadable. */
static char *node_file(int node, const char *name)
{
	_cleanup_free_ char *path = xasprintf("/sys/devices/system/node/node%d/%s", node, name);
	char *buf = NULL;
	size_t len = 0;

	if (read_file(path, 1 << 16, &buf, &len) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

int setup_numa(struct agent *a)
{
	_cleanup_free_ char *online = NULL;
	uint64_t nodes = 0;
	size_t len = 0;
	int n = 0;

	if (read_file("/sys/devices/system/node/online", 4096, &online, &len) < 0 ||
	    (online[strcspn(online, "\n")] = '\0', mempolicy_node_list(online, &nodes) < 0)) {
		channel_record(a->ch, "conf numa/online absent");
		nodes = 1; /* no CONFIG_NUMA: one node, as far as memory goes */
	} else {
		channel_record(a->ch, "conf numa/online %s", online);
	}
	for (int i = 0; i < MEMPOLICY_NODES_MAX; i++) {
		_cleanup_free_ char *cpus = NULL, *mem = NULL;
		unsigned long long kb = 0;

		if (!(nodes & (1ull << i)))
			continue;
		n++;
		cpus = node_file(i, "cpulist");
		mem = node_file(i, "meminfo"); /* "Node 0 MemTotal:  509436 kB" */
		if (mem && sscanf(mem, "Node %*d MemTotal: %llu kB", &kb) != 1)
			kb = 0;
		if (cpus || mem)
			channel_record(a->ch, "conf numa/node%d cpus=%s mem_kb=%llu", i,
				       cpus && *cpus ? cpus : "none", kb);
	}
	a->numa_nodes = nodes;
	if (a->conf->numa_nodes > 1 && (uint64_t)n != a->conf->numa_nodes) {
		channel_event(a->ch, "error",
			      "the guest has %d NUMA node%s online (%s), the plan asked for %llu: "
			      "the kernel needs CONFIG_NUMA and ACPI's SRAT",
			      n, n == 1 ? "" : "s", online ? online : "no /sys/devices/system/node",
			      (unsigned long long)a->conf->numa_nodes);
		return -ENODEV;
	}
	return 0;
}
