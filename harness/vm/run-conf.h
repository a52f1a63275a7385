/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /lrubench/run.conf, what the agent reads at boot (PROTOCOL.md, section 1):
 * written here and nowhere else, for a campaign's run and for the guest that
 * only boots to the agent (the KVM probe, accel.c). The text is recorded in
 * each run's provenance, so it is part of the campaign's record.
 */
#ifndef LRUBENCH_RUN_CONF_H
#define LRUBENCH_RUN_CONF_H

#include <stddef.h>
#include <stdint.h>

struct plan;
struct guest_image;

/* Who one run is, and what it injects, beyond its plan's variant. */
struct run_conf_run {
	const char *campaign; /* named in the header comment */
	int64_t id;
	uint64_t seed;	      /* the workloads' --seed where the plan gives none */
	const char *fault;    /* KIND[@MS] injected in this run, or NULL; "oom..." is the
			       * host's: memcg limits far below the workloads' need */
};

/* The run.conf of variant vi of plan p, booted on img (its modules); malloc'd. */
char *run_conf__plan(const struct plan *p, size_t vi, const struct guest_image *img,
		     const struct run_conf_run *run);
/* The run.conf of a guest that only boots to the agent and says hello: no
 * workload, the LRU as the kernel has it, no swap; malloc'd. */
char *run_conf__hello(const struct guest_image *img, const char *run);

#endif
