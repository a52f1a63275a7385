// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's half of the instruction-counted clock's calibration
 * (harness/vm/guest-clock.c): CPU work only, for calibrate_ms of the guest's
 * own clock, bracketed by two events the host times on its clock. Under
 * -icount the guest's clock advances 2^shift ns per executed instruction, so
 * the ratio of the two durations is the host's instruction rate at that shift.
 *
 * The work is what lrubench's guests spend their instructions on: the
 * kernel's page-fault and unmap paths (a fresh anonymous region touched a
 * page at a time, then unmapped), not a register loop, which TCG runs several
 * times faster per instruction than kernel code.
 */
#include "agent.h"
#include "agent-conf.h"
#include "util.h"

#include <inttypes.h>
#include <sys/mman.h>

void agent_calibrate(struct agent *a)
{
	int64_t t0 = now_mono_ns(), end = t0 + (int64_t)a->conf->calibrate_ms * 1000000;
	const size_t len = 1u << 21, page = 4096;
	uint64_t loops = 0;

	channel_event(a->ch, "calibrate", "start");
	while (now_mono_ns() < end) {
		volatile char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			break;
		for (size_t off = 0; off < len; off += page)
			m[off] = (char)off;
		munmap((void *)m, len);
		loops++;
	}
	channel_event(a->ch, "calibrate", "end loops=%" PRIu64 " guest_ns=%" PRId64, loops,
		      now_mono_ns() - t0);
	agent_poweroff(a, "done");
}
