/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LRUBENCH_ACCEL_H
#define LRUBENCH_ACCEL_H

#include <stdbool.h>

struct kernel;
struct guest_image;

/*
 * Resolve want ("auto", "kvm", "tcg") to "kvm" or "tcg"; *ret_why says how
 * the choice was made (recorded in every run's provenance). "auto" probes by
 * booting the guest under KVM with a timeout; the answer is cached in
 * build_dir per host boot and used again when use_cache is set.
 */
int accel_choose(const char *want, const struct kernel *k, const struct guest_image *img,
		 const char *build_dir, bool use_cache, char **ret_accel, char **ret_why);

#endif
