/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's NUMA placement, as a plan writes it ([workload] numa_policy)
 * and the agent applies it (set_mempolicy(2) between fork and exec, kept
 * across exec as numactl does):
 *   default            the kernel's (local allocation)
 *   bind:LIST          only these nodes (MPOL_BIND)
 *   interleave:LIST    page by page over these nodes (MPOL_INTERLEAVE)
 *   preferred:N        node N first, others when it is full (MPOL_PREFERRED)
 * LIST is node numbers and ranges, "0", "0,2", "0-3". Pure: the host checks
 * the nodes against the plan's numa, the guest against what is online.
 */
#ifndef LRUBENCH_MEMPOLICY_H
#define LRUBENCH_MEMPOLICY_H

#include <stdint.h>

#define MEMPOLICY_NODES_MAX 64

struct mempolicy {
	int mode;	/* MPOL_DEFAULT, MPOL_PREFERRED, MPOL_BIND, MPOL_INTERLEAVE (linux/mempolicy.h) */
	uint64_t nodes; /* bit N: node N; 0 with MPOL_DEFAULT */
};

/* Parse s; 0, or -EINVAL with *ret_why saying what is wrong (static text). */
int mempolicy_parse(const char *s, struct mempolicy *ret, const char **ret_why);
/* A node list ("0-1", as /sys/devices/system/node/online writes it too); 0 or -EINVAL. */
int mempolicy_node_list(const char *s, uint64_t *ret);
/* The highest node named, or -1 for none. */
int mempolicy__max_node(const struct mempolicy *m);

#endif
