/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's clock. "real": the guest's time follows the host's wall time,
 * so everything a run times (throughput, latency, PSI) carries the host's
 * load. "instructions": QEMU's -icount, the guest's clock advances 2^shift ns
 * per executed instruction, so CPU work takes the same guest time however
 * busy the host is (TCG only; one vCPU, see plan.h).
 *
 * The shift is calibrated, not guessed: a guest busy-loops for a fixed span
 * of its own time (calibrate_ms, PROTOCOL.md) at shift 0, the host times the
 * span on its clock, and the shift is the one that keeps guest time nearest
 * real time on this host. The answer is cached per host boot and QEMU, like
 * the KVM probe (accel.c), and recorded with its figures in the campaign.
 */
#ifndef LRUBENCH_GUEST_CLOCK_H
#define LRUBENCH_GUEST_CLOCK_H

#include "vm-qemu.h"

#include <stdbool.h>

struct kernel;
struct guest_image;

struct guest_clock {
	bool instructions;	 /* false: the real clock */
	struct vm_icount icount; /* with instructions */
	char *why;		 /* how the shift was chosen; NULL on the real clock */
};

/*
 * Resolve the plan's mode ("real" or "instructions") for guests of kernel k
 * booted from img: on instructions, the calibrated shift (cached in build_dir
 * when use_cache), its -icount sleep as sleep says. 0, or -errno with *ret_err saying why.
 */
int guest_clock__resolve(struct guest_clock *gc, const char *mode, const struct kernel *k,
			 const struct guest_image *img, bool sleep, const char *build_dir,
			 bool use_cache, char **ret_err);
/* What a run records and a worker reads back: "real" or "instructions shift=N sleep=on|off". */
char *guest_clock__format(const struct guest_clock *gc);
int guest_clock__parse(struct guest_clock *gc, const char *text);
/* For a header: "real (guest time follows the host's)" or "instructions (32 ns each, sleep on)". */
char *guest_clock_describe(const char *formatted);
/* The mode of a formatted clock: "real" or "instructions"; absent (older campaigns): real. */
const char *guest_clock_mode(const char *formatted);
/* The shift that brings guest time nearest real time, from a span of guest_ns of pure CPU
 * work at shift s0 that took wall_ns on the host; clamped to 0..10. */
int guest_clock_shift_for(int s0, double guest_ns, double wall_ns);
/*
 * Whether QEMU of version qemu_version ("QEMU emulator version 7.2.22 (...)")
 * boots cpus vCPUs under -icount: 0, or -ENOTSUP with *ret_err saying why.
 * QEMU before 8.1 hangs at "x86: Booting SMP configuration" with -icount and
 * -smp 2 (its round-robin vCPU scheduling, fixed in 8.1): a hang, never a run.
 */
int guest_clock_cpus_ok(int cpus, const char *qemu_version, char **ret_err);
void guest_clock__clear(struct guest_clock *gc);

#endif
