// SPDX-License-Identifier: GPL-2.0
/*
 * Disks (PROTOCOL.md: tools_disk, scratch_disk): virtio-blk devices found
 * by their serial (/sys/block/vdX/serial), each mounted ext4: the tools
 * disk read-only at /tools, the scratch disk read-write at /scratch, whose
 * read_ahead_kb is set when run.conf asks. What was mounted where, and the
 * read_ahead_kb in force, are sent as conf records.
 */
#include "agent.h"
#include "util.h"

#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#define DISK_WAIT_MS 10000

/* The block device (e.g. "vdb") whose serial is serial; -ENOENT if none yet. */
static int find_by_serial(const char *serial, char *dev, size_t len)
{
	_cleanup_(closedirp) DIR *d = opendir("/sys/block");
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL;
		char got[64];

		if (strncmp(de->d_name, "vd", 2))
			continue;
		path = xasprintf("/sys/block/%s/serial", de->d_name);
		if (read_knob(path, got, sizeof(got)) == 0 && !strcmp(got, serial) &&
		    strlen(de->d_name) < len) {
			strcpy(dev, de->d_name);
			return 0;
		}
	}
	return -ENOENT;
}

static int disk_mount(struct agent *a, const char *what, const char *serial, const char *target,
		      unsigned long flags, char *dev, size_t len)
{
	int64_t deadline = now_mono_ns() + (int64_t)DISK_WAIT_MS * 1000000;
	_cleanup_free_ char *node = NULL;
	int r;

	/* virtio_blk probes its devices as it loads; give udev-less /dev a moment. */
	while ((r = find_by_serial(serial, dev, len)) == -ENOENT && now_mono_ns() < deadline) {
		struct timespec ts = { 0, 50 * 1000000 };

		nanosleep(&ts, NULL);
	}
	if (r < 0) {
		channel_event(a->ch, "error", "%s disk: no virtio-blk device with serial %s: %s",
			      what, serial, strerror(-r));
		return r;
	}
	node = xasprintf("/dev/%s", dev);
	if (mkdir(target, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		channel_event(a->ch, "error", "%s disk: mkdir %s: %s", what, target, strerror(-r));
		return r;
	}
	if (mount(node, target, "ext4", flags, NULL) < 0) {
		r = -errno;
		channel_event(a->ch, "error", "%s disk: mount %s on %s: %s", what, node, target,
			      strerror(-r));
		return r;
	}
	channel_record(a->ch, "conf disk/%s %s", what, dev);
	channel_event(a->ch, "boot", "%s disk %s mounted on %s%s", what, node, target,
		      flags & MS_RDONLY ? " read-only" : "");
	return 0;
}

int setup_disks(struct agent *a)
{
	const struct agent_conf *c = a->conf;
	char dev[32];
	int r;

	if (c->tools_disk) {
		r = disk_mount(a, "tools", c->tools_disk, "/tools",
			       MS_RDONLY | MS_NODEV | MS_NOSUID, dev, sizeof(dev));
		if (r < 0)
			return r;
	}
	if (c->scratch_disk) {
		_cleanup_free_ char *ra = NULL;
		char back[32];

		r = disk_mount(a, "scratch", c->scratch_disk, "/scratch", MS_NODEV | MS_NOSUID, dev,
			       sizeof(dev));
		if (r < 0)
			return r;
		ra = xasprintf("/sys/block/%s/queue/read_ahead_kb", dev);
		if (c->has_scratch_read_ahead_kb) {
			_cleanup_free_ char *v =
				xasprintf("%llu", (unsigned long long)c->scratch_read_ahead_kb);

			r = write_file(ra, v);
			if (r < 0) {
				channel_event(a->ch, "error", "scratch disk: %s = %s: %s", ra, v,
					      strerror(-r));
				return r;
			}
		}
		if (read_knob(ra, back, sizeof(back)) == 0)
			channel_record(a->ch, "conf scratch/read_ahead_kb %s", back);
	}
	return 0;
}
