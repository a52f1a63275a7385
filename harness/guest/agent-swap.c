// SPDX-License-Identifier: GPL-2.0
/*
 * Swap on zram: the compressor and size are written to the device, then the
 * agent writes the swap header itself (the initramfs has no mkswap) and
 * calls swapon(2).
 */
#include "agent.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/swap.h>

#define ZRAM_DEV "/dev/zram0"
#define ZRAM_SYS "/sys/block/zram0"
#define SWAP_MAGIC "SWAPSPACE2"
#define SWAP_MAGIC_LEN 10

/* The first page of a swap area: union swap_header of include/linux/swap.h,
 * "info" view; the magic ends the page. */
struct swap_header_info {
	char bootbits[1024];
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char sws_uuid[16];
	unsigned char sws_volume[16];
	uint32_t padding[117];
	uint32_t badpages[1];
};

int swap_header_fill(void *page, size_t page_size, uint64_t size)
{
	struct swap_header_info *h = page;
	uint64_t pages = size / page_size;

	if (page_size < sizeof(*h) + SWAP_MAGIC_LEN || pages < 10 || pages - 1 > UINT32_MAX)
		return -EINVAL;
	memset(page, 0, page_size);
	h->version = 1;
	h->last_page = (uint32_t)(pages - 1);
	h->nr_badpages = 0;
	memcpy((char *)page + page_size - SWAP_MAGIC_LEN, SWAP_MAGIC, SWAP_MAGIC_LEN);
	return 0;
}

static int mkswap(const char *dev, uint64_t size, size_t page_size)
{
	_cleanup_free_ void *page = xcalloc(1, page_size);
	_cleanup_close_ int fd = -1;
	int r;

	r = swap_header_fill(page, page_size, size);
	if (r < 0)
		return r;
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pwrite(fd, page, page_size, 0) != (ssize_t)page_size)
		return errno ? -errno : -EIO;
	if (fsync(fd) < 0)
		return -errno;
	return 0;
}

int setup_swap(struct agent *a)
{
	const struct agent_conf *c = a->conf;
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	_cleanup_free_ char *size = NULL;
	char back[256];
	int r;

	if (!c->zram_size) {
		channel_event(a->ch, "boot", "swap none");
		return 0;
	}
	if (access(ZRAM_SYS, F_OK) < 0) {
		channel_event(a->ch, "error", "zram_size=%" PRIu64 " but " ZRAM_SYS
			      " is absent (zram module not loaded?)", c->zram_size);
		return -ENOENT;
	}
	r = write_file(ZRAM_SYS "/comp_algorithm", c->zram_comp);
	if (r < 0) {
		channel_event(a->ch, "error", "zram comp_algorithm %s: %s", c->zram_comp,
			      strerror(-r));
		return r;
	}
	if (read_knob(ZRAM_SYS "/comp_algorithm", back, sizeof(back)) == 0)
		channel_record(a->ch, "conf zram/comp_algorithm %s", back);
	channel_event(a->ch, "boot", "zram comp_algorithm %s", c->zram_comp);

	size = xasprintf("%" PRIu64, c->zram_size);
	r = write_file(ZRAM_SYS "/disksize", size);
	if (r < 0) {
		channel_event(a->ch, "error", "zram disksize %s: %s", size, strerror(-r));
		return r;
	}
	if (read_knob(ZRAM_SYS "/disksize", back, sizeof(back)) == 0)
		channel_record(a->ch, "conf zram/disksize %s", back);
	channel_event(a->ch, "boot", "zram disksize %s", size);

	r = mkswap(ZRAM_DEV, c->zram_size, page_size);
	if (r < 0) {
		channel_event(a->ch, "error", "mkswap " ZRAM_DEV ": %s", strerror(-r));
		return r;
	}
	channel_event(a->ch, "boot", "mkswap " ZRAM_DEV " %" PRIu64 " pages",
		      c->zram_size / page_size);

	if (swapon(ZRAM_DEV, 0) < 0) {
		r = -errno;
		channel_event(a->ch, "error", "swapon " ZRAM_DEV ": %s", strerror(-r));
		return r;
	}
	channel_event(a->ch, "boot", "swapon " ZRAM_DEV);
	return 0;
}
